/**
 * `toolgate test`: runs the policy test files through the controller's decide code, prints failures and a
 * summary, and exits 0 only when every case passes (and coverage is at least `--min-coverage`).
 */
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, writeTree } from "./cli-helpers.js";

const TOOLS = [
  "tools:",
  "  - name: read_file",
  "    description: Read a file.",
  "    input_schema:",
  "      type: object",
  "      properties: { path: { type: string, maxLength: 200 } }",
  "      required: [path]",
  "      additionalProperties: false",
  "  - name: delete_file",
  "    description: Delete a file.",
  "    input_schema:",
  "      type: object",
  "      properties: { path: { type: string, maxLength: 200 } }",
  "      required: [path]",
  "      additionalProperties: false",
  "",
].join("\n");

const POLICY = [
  "version: 1",
  "allow: [read_file]",
  "ask: [delete_file]",
  "rules:",
  "  - id: no-dotenv",
  "    tools: [read_file]",
  "    decision: deny",
  '    when: { path: { glob: "**/.env*" } }',
  "    reason: secret files are never read",
  "",
].join("\n");

const PASSING = [
  "tests:",
  "  - name: a source file is readable",
  "    call: { tool: read_file, arguments: { path: src/a.ts } }",
  "    expect: allow",
  "  - name: dotenv is never readable",
  "    call: { tool: read_file, arguments: { path: config/.env } }",
  "    expect: deny",
  "    rule: no-dotenv",
  "",
].join("\n");

function project(tests: string) {
  const dir = writeTree({
    "toolgate.config.yaml": "tools: [tools.yaml]\npolicy: policy.yaml\ntests: [tests.yaml]\n",
    "tools.yaml": TOOLS,
    "policy.yaml": POLICY,
    "tests.yaml": tests,
  });
  const shown = relative(process.cwd(), dir);
  return {
    config: join(dir, "toolgate.config.yaml"),
    tests: `${shown}/tests.yaml`,
    /** The output with the project's directory (as shown, and as a JUnit class name) written `DIR`. */
    clean: (text: string) => text.replaceAll(shown, "DIR").replaceAll(shown.replaceAll("/", "."), "DIR"),
  };
}

describe("toolgate test", () => {
  it("passing cases: a summary and exit 0", async () => {
    const { config } = project(PASSING);
    const run = await runCli(["test", "--config", config, "--no-color"]);
    expect(run).toEqual({ code: 0, stdout: "2 passed, 0 failed (2 policy tests)\n", stderr: "" });
  });

  it("a failing case: FAIL with its file and line, what was decided, and exit 1", async () => {
    const { config, tests, clean } = project(
      `${PASSING}  - name: deleting is allowed\n    call: { tool: delete_file, arguments: { path: a } }\n    expect: allow\n`,
    );
    const run = await runCli(["test", "--config", config, "--no-color"]);
    expect(run.code).toBe(1);
    expect(run.stdout.split("\n")[0]).toBe(`FAIL ${tests}:9  deleting is allowed`);
    expect(run.stdout).toContain("2 passed, 1 failed (3 policy tests)\n");
    expect(clean(run.stdout)).toMatchInlineSnapshot(`
      "FAIL DIR/tests.yaml:9  deleting is allowed
           expected allow, got ask (tool delete_file needs a person's approval)
      2 passed, 1 failed (3 policy tests)
      "
    `);
  });

  it("--format json reports every case with its decision, and coverage", async () => {
    const { config, tests, clean } = project(PASSING);
    const run = await runCli(["test", "--config", config, "--format", "json"]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ passed: 2, failed: 0 });
    expect(report.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(report.results).toEqual([
      expect.objectContaining({
        name: "a source file is readable",
        file: tests,
        line: 2,
        expect: "allow",
        actual: "allow",
        passed: true,
      }),
      expect.objectContaining({
        name: "dotenv is never readable",
        file: tests,
        line: 5,
        expect: "deny",
        actual: "deny",
        ruleIds: ["no-dotenv"],
        passed: true,
      }),
    ]);
    expect(clean(run.stdout)).toMatchInlineSnapshot(`
      "{
        "fingerprint": "sha256:ff8ed9af8b2c22ee799ca074abd72d6fabfa43910bc8a42dcddb6a96042ed984",
        "passed": 2,
        "failed": 0,
        "results": [
          {
            "name": "a source file is readable",
            "file": "DIR/tests.yaml",
            "line": 2,
            "expect": "allow",
            "actual": "allow",
            "ruleIds": [
              "allow:read_file"
            ],
            "reason": "tool read_file is allowed by the policy",
            "passed": true
          },
          {
            "name": "dotenv is never readable",
            "file": "DIR/tests.yaml",
            "line": 5,
            "expect": "deny",
            "actual": "deny",
            "ruleIds": [
              "no-dotenv"
            ],
            "reason": "secret files are never read",
            "passed": true
          }
        ],
        "coverage": {
          "percent": 66.6,
          "uncovered": [
            {
              "id": "ask:delete_file",
              "file": "DIR/policy.yaml",
              "line": 3,
              "column": 7,
              "layer": 0
            }
          ]
        }
      }
      "
    `);
  });

  it("--format junit writes one suite per test file, with a failure element for a failing case", async () => {
    const { config, clean } = project(
      `${PASSING}  - name: deleting is allowed\n    call: { tool: delete_file, arguments: { path: a } }\n    expect: allow\n`,
    );
    const run = await runCli(["test", "--config", config, "--format", "junit"]);
    expect(run.code).toBe(1);
    expect(clean(run.stdout)).toMatchInlineSnapshot(`
      "<?xml version="1.0" encoding="UTF-8"?>
      <testsuites tests="3" failures="1">
        <testsuite name="DIR/tests.yaml" tests="3" failures="1" skipped="0">
          <testcase name="a source file is readable" classname="DIR.tests" file="DIR/tests.yaml" line="2"/>
          <testcase name="dotenv is never readable" classname="DIR.tests" file="DIR/tests.yaml" line="5"/>
          <testcase name="deleting is allowed" classname="DIR.tests" file="DIR/tests.yaml" line="9">
            <failure message="expected allow, got ask (tool delete_file needs a person&apos;s approval)" type="test-failed">DIR/tests.yaml:9: expected allow, got ask (tool delete_file needs a person&apos;s approval)</failure>
          </testcase>
        </testsuite>
      </testsuites>
      "
    `);
  });

  it("--coverage lists the statements no case decided; --min-coverage fails below it", async () => {
    const { config, clean } = project(PASSING);
    const covered = await runCli(["test", "--config", config, "--no-color", "--coverage"]);
    expect(covered.code).toBe(0);
    expect(clean(covered.stdout)).toMatchInlineSnapshot(`
      "2 passed, 0 failed (2 policy tests)
      coverage: 66.6% of 3 statements
        not exercised: ask:delete_file (set) DIR/policy.yaml:3
      "
    `);
    const below = await runCli(["test", "--config", config, "--no-color", "--min-coverage", "100"]);
    expect(below.code).toBe(1);
    expect(below.stderr).toMatchInlineSnapshot(`
      "toolgate: rule coverage 66.6% is below --min-coverage 100
      "
    `);
  });

  it("a statement that only may match a case (a maybe) does not count as covered", async () => {
    // "config/.ENV" may be config/.env on a case-insensitive file system: the deny rule takes the maybe and
    // denies, yet no case shows the rule deciding a call it was written for.
    const { config, clean } = project(
      [
        "tests:",
        "  - name: a source file is readable",
        "    call: { tool: read_file, arguments: { path: src/a.ts } }",
        "    expect: allow",
        "  - name: a dotenv in capitals is refused too",
        "    call: { tool: read_file, arguments: { path: config/.ENV } }",
        "    expect: deny",
        "",
      ].join("\n"),
    );
    const run = await runCli(["test", "--config", config, "--no-color", "--coverage"]);
    expect(run.code).toBe(0);
    expect(clean(run.stdout)).toMatchInlineSnapshot(`
      "2 passed, 0 failed (2 policy tests)
      coverage: 33.3% of 3 statements
        not exercised: ask:delete_file (set) DIR/policy.yaml:3
        not exercised: no-dotenv (rule) DIR/policy.yaml:5
      "
    `);
  });

  it("a --min-coverage that is no percentage is a usage error (exit 2)", async () => {
    const { config } = project(PASSING);
    const run = await runCli(["test", "--config", config, "--min-coverage", "most"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatchInlineSnapshot(`
      "toolgate: --min-coverage needs a percentage between 0 and 100, got "most"
      "
    `);
  });

  it("configuration errors are printed and stop the run (exit 1); no configuration at all exits 2", async () => {
    const { config, clean } = project(
      "tests:\n  - name: unknown rule\n    call: { tool: read_file, arguments: { path: a } }\n    expect: allow\n    rule: no-such-rule\n",
    );
    const run = await runCli(["test", "--config", config, "--no-color", "--format", "json"]);
    expect(run.code).toBe(1);
    // --format json: the configuration's diagnostics as one JSON document, what to do on stderr.
    const report = JSON.parse(run.stdout) as { diagnostics: { code: string; file: string; line: number }[] };
    expect(report.diagnostics).toMatchObject([{ code: "unknown-rule", line: 5, column: 11 }]);
    expect(clean(report.diagnostics[0]?.file ?? "")).toBe("DIR/tests.yaml");
    expect(clean(run.stderr)).toBe(
      "toolgate: the configuration has errors; fix them (toolgate lint) before running policy tests\n",
    );
    const stylish = await runCli(["test", "--config", config, "--no-color"]);
    expect(stylish.code).toBe(1);
    expect(clean(stylish.stdout)).toMatchInlineSnapshot(`
      "
      DIR/tests.yaml
        5:11  error  the policy has no rule or entry with id "no-such-rule"; check the id  unknown-rule
          5 |     rule: no-such-rule
            |           ^^^^^^^^^^^^

      ✖ 1 problem (1 error, 0 warnings)
      "
    `);
    const missing = await runCli(["test", "--config", join(config, "..", "absent.yaml"), "--no-color"]);
    expect(missing.code).toBe(2);
  });
});
