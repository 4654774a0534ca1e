/**
 * Every stage of the pipeline returns one shape, `StageResult`: `ok` with a value and only warnings, or not
 * `ok` with at least one error and no value (a stage that checks many independent things may hand what did
 * check out on as `partial`). Each stage gets an input it accepts and one it refuses.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { PolicyBundle } from "../../src/bundle/policy-bundle.js";
import { checkGenerated } from "../../src/codegen/check-generated.js";
import { checkPolicy } from "../../src/config/check-policy.js";
import { checkTools } from "../../src/config/check-tools.js";
import { loadPolicyResultSync, readTestCases } from "../../src/config/load-policy.js";
import { type ParsedFile, parseYaml } from "../../src/config/parse-yaml.js";
import { readSeveritySettings } from "../../src/config/severity-settings.js";
import { validateAgainstSchema } from "../../src/config/validate-schema.js";
import { type StageResult, stageValue } from "../../src/diagnostics/diagnostic.js";
import { checkPolicyTests } from "../../src/testing/run-policy-tests.js";
import { ValidatorFactory } from "../../src/validation/argument-validator.js";

/** Asserts the one shape, and returns the value the stage hands on (its value, or its `partial`). */
function expectStage<T>(result: StageResult<T>, ok: boolean): T | undefined {
  expect(Object.keys(result).sort()).toEqual(
    result.ok
      ? ["diagnostics", "ok", "value"]
      : ["diagnostics", "ok", ...("partial" in result ? ["partial"] : [])],
  );
  expect(result.ok).toBe(ok);
  if (result.ok) expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  else expect(result.diagnostics.some((d) => d.severity === "error")).toBe(true);
  return stageValue(result);
}

function parsed(text: string, file = "file.yaml"): ParsedFile {
  const result = parseYaml(new TextEncoder().encode(text), file);
  if (!result.ok) throw new Error(`test input does not parse: ${result.diagnostics[0]?.message}`);
  return result.value;
}

const TOOLS = `tools:
  - name: read_file
    description: Read a file.
    input_schema:
      type: object
      properties: { path: { type: string, maxLength: 4096 } }
      required: [path]
      additionalProperties: false
  - name: run_shell
    description: Run a command.
    input_schema:
      type: object
      properties: { command: { type: string, maxLength: 4096 } }
      additionalProperties: false
`;

function tools() {
  const result = checkTools([parsed(TOOLS, "tools.yaml")], new ValidatorFactory());
  if (!result.ok) throw new Error("the tools of the test do not check");
  return result.value;
}

function policyStage(text: string) {
  const checked = tools();
  return checkPolicy(
    [{ parsed: parsed(text, "policy.yaml"), layer: 0, label: "policy" }],
    checked.tools,
    checked.declared,
    null,
  );
}

const FIXTURES = fileURLToPath(new URL("../fixtures/config/", import.meta.url));

/** The bundle of a fixture whose second test case fails. */
function bundleWithTests(): PolicyBundle {
  const loaded = loadPolicyResultSync({ cwd: `${FIXTURES}test-failed` });
  if (loaded.bundle === undefined) throw new Error("the fixture does not load");
  return loaded.bundle;
}

describe("every stage returns a StageResult", () => {
  it("parseYaml: a mapping, and a repeated key", () => {
    expect(expectStage(parseYaml(new TextEncoder().encode("a: 1\n"), "a.yaml"), true)?.data).toEqual({
      a: 1,
    });
    const failed = parseYaml(new TextEncoder().encode("a: 1\na: 2\n"), "a.yaml");
    expectStage(failed, false);
    expect(failed.diagnostics.map((d) => d.code)).toEqual(["duplicate-key"]);
  });

  it("validateAgainstSchema: a policy file, and one with a misspelt key", () => {
    const good = parsed("version: 1\nallow: [read_file]\n");
    expect(expectStage(validateAgainstSchema(good, "policy"), true)).toBe(good);
    const bad = validateAgainstSchema(parsed("version: 1\nalow: [read_file]\n"), "policy");
    expect(expectStage(bad, false)).toBeUndefined();
    expect(bad.diagnostics.map((d) => d.code)).toEqual(["config-schema"]);
  });

  it("readSeveritySettings: a configurable code, and one that cannot be configured", () => {
    const config = parsed("severity: { unlisted-tool: off, overlap: warn }\n", "toolgate.config.yaml");
    const good = readSeveritySettings(config, { "unlisted-tool": "off" });
    expect(expectStage(good, true)).toEqual(new Map([["unlisted-tool", "off"]]));
    const bad = readSeveritySettings(config, { "unlisted-tool": "off", overlap: "warn" });
    // The valid entry still applies: it is handed on as partial.
    expect(expectStage(bad, false)).toEqual(new Map([["unlisted-tool", "off"]]));
    expect(bad.diagnostics.map((d) => [d.code, d.line])).toEqual([["config-schema", 1]]);
  });

  it("checkTools: valid tools, and a file declaring one twice", () => {
    expect(expectStage(checkTools([parsed(TOOLS)], new ValidatorFactory()), true)?.declared).toEqual(
      new Set(["read_file", "run_shell"]),
    );
    const twice = parsed(`${TOOLS}${TOOLS.split("\n").slice(1).join("\n")}`);
    const bad = checkTools([twice], new ValidatorFactory());
    // The tools that did check are handed on, so that the policy is checked against them too.
    expect(expectStage(bad, false)?.tools.map((t) => t.name)).toEqual(["read_file", "run_shell"]);
    expect(bad.diagnostics.map((d) => d.code)).toEqual(["duplicate-tool", "duplicate-tool"]);
  });

  it("checkPolicy: a policy with only a warning, and one naming an unknown tool", () => {
    const warned = policyStage("version: 1\nallow: [read_file]\n");
    expect(expectStage(warned, true)?.map((s) => s.id)).toEqual(["allow:read_file"]);
    expect(warned.diagnostics.map((d) => [d.code, d.severity])).toEqual([["unlisted-tool", "warning"]]);
    const bad = policyStage("version: 1\nallow: [read_file, run_shel]\ndeny: [run_shell]\n");
    expectStage(bad, false);
    expect(bad.diagnostics.map((d) => d.code)).toEqual(["unknown-tool"]);
  });

  it("readTestCases: cases naming known rules, and one naming no rule of the policy", () => {
    const file = parsed(
      "tests:\n  - name: t\n    call: { tool: read_file, arguments: { path: a } }\n    expect: allow\n    rule: allow:read_file\n",
      "tests.yaml",
    );
    expect(expectStage(readTestCases(file, new Set(["allow:read_file"])), true)?.map((c) => c.name)).toEqual([
      "t",
    ]);
    const bad = readTestCases(file, new Set(["deny:run_shell"]));
    expect(expectStage(bad, false)?.length).toBe(1);
    expect(bad.diagnostics.map((d) => [d.code, d.line])).toEqual([["unknown-rule", 5]]);
  });

  it("checkPolicyTests: passing cases, and a failing one", () => {
    const bundle = bundleWithTests();
    const passing = checkPolicyTests({ ...bundle, tests: bundle.tests.slice(0, 1) });
    expect(expectStage(passing, true)?.passed).toBe(1);
    const failing = checkPolicyTests(bundle);
    // The report is handed on, so that lint can print the results of every case.
    expect(expectStage(failing, false)?.failed).toBe(1);
    expect(failing.diagnostics.map((d) => [d.code, d.file, d.line])).toEqual([
      ["test-failed", "tests.yaml", 5],
    ]);
  });

  it("checkGenerated: a file that is up to date, and one missing and one out of date", () => {
    const current = { file: "types.ts", actual: "a\nb\n", expected: "a\nb\n" };
    expect(expectStage(checkGenerated([current], "codegen"), true)).toEqual([current]);
    const bad = checkGenerated(
      [
        current,
        { file: "gone.ts", actual: undefined, expected: "a\n" },
        { file: "old.ts", actual: "a\nc\n", expected: "a\nb\n" },
      ],
      "compile",
    );
    expect(expectStage(bad, false)).toBeUndefined();
    expect(bad.diagnostics.map((d) => [d.code, d.file, d.line])).toEqual([
      ["codegen-stale", "gone.ts", 1],
      ["codegen-stale", "old.ts", 2],
    ]);
  });
});
