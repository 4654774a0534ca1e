/**
 * The diagnostics of property files through `toolgate verify`: each code from a real broken file in
 * test/fixtures/verify/broken/ with its exact place, every format's shape for a file with problems (exit 2), a
 * good file still verified, and every SARIF rule's `helpUri` an anchor that docs/verify.md has.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { VERIFY_RULES } from "../../src/cli/verify.js";
import { REFERENCE_URL } from "../../src/diagnostics/rule-help.js";
import {
  PROPERTY_DIAGNOSTICS,
  VERIFY_REFERENCE_URL,
  verifyHelpUri,
} from "../../src/verify/property-diagnostics.js";
import { runCli } from "../cli/cli-helpers.js";

const FIXTURE = fileURLToPath(new URL("../fixtures/verify/", import.meta.url));
const docs = (name: string) => readFileSync(new URL(`../../docs/${name}`, import.meta.url), "utf8");

/** The anchors of a Markdown document's headings, as GitHub makes them, and its explicit `<a id>` ones. */
function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  for (const line of markdown.split("\n")) {
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading !== null) {
      found.add(
        (heading[1] as string)
          .trim()
          .toLowerCase()
          .replace(/[^\p{L}\p{N}\s_-]/gu, "")
          .replace(/\s/g, "-"),
      );
    }
    for (const a of line.matchAll(/<a id="([^"]+)"><\/a>/g)) found.add(a[1] as string);
  }
  return found;
}

interface Found {
  code: string;
  file: string;
  line: number;
  column: number;
  message: string;
}

async function diagnosticsOf(...files: string[]): Promise<{ code: number; found: Found[] }> {
  const { code, stdout } = await runCli(["verify", ...files, "--format", "json"]);
  const report = JSON.parse(stdout) as { diagnostics: Found[] };
  return {
    code,
    found: report.diagnostics.map(({ code, file, line, column, message }) => ({
      code,
      file,
      line,
      column,
      message,
    })),
  };
}

describe("property file diagnostics", () => {
  let cwd: string;
  beforeEach(() => {
    cwd = process.cwd();
    process.chdir(FIXTURE);
  });
  afterEach(() => {
    process.chdir(cwd);
  });

  it.each<[string, [string, number, number, RegExp][]]>([
    [
      "broken/schema.yaml",
      [
        ["property-schema", 1, 10, /^`version` must be 1, not 2$/],
        ["property-schema", 6, 5, /^unknown key "colour" in a property; use id, tool or tools/],
      ],
    ],
    [
      "broken/no-version.yaml",
      [
        ["property-schema", 1, 1, /^`version: 1` is missing; add it/],
        ["property-schema", 2, 9, /^`id` must be a non-empty string/],
        ["property-schema", 5, 5, /^the property has no `id`; give it a unique name$/],
      ],
    ],
    [
      "broken/shape.yaml",
      [
        ["property-schema", 6, 5, /^the property has both `never:` and `always:`; keep one$/],
        ["property-schema", 9, 5, /^give `tool` or `tools`, not both$/],
        ["property-schema", 10, 12, /^`never:` takes allow, ask or deny, not "maybe"$/],
        ["property-schema", 11, 5, /^the property names no tool; add `tool`/],
        ["property-schema", 11, 5, /^the property has neither `never:` nor `always:`; add one of them$/],
      ],
    ],
    [
      "broken/duplicate-id.yaml",
      [["property-duplicate-id", 6, 9, /^property id "a" is already used at line 3; give each/]],
    ],
    [
      "broken/unknown-tool.yaml",
      [["property-unknown-tool", 4, 20, /^tool "red_file" is not declared .*; did you mean "read_file"\?$/]],
    ],
    [
      "broken/tool-list.yaml",
      [
        ["property-unknown-tool", 4, 19, /^tool "red_file" is not declared .*; did you mean "read_file"\?$/],
        ["property-schema", 7, 11, /^`tool` must be a tool name or a non-empty list of tool names$/],
      ],
    ],
    [
      "broken/unknown-argument.yaml",
      [
        ["property-unknown-argument", 5, 14, /^tool "shell" has no argument "opts.dept" in its input_schema/],
        [
          "property-unknown-argument",
          6,
          16,
          /^context field "env" is not declared .*; declared: environment$/,
        ],
      ],
    ],
    [
      "broken/operator-type-mismatch.yaml",
      [
        [
          "property-operator-type-mismatch",
          6,
          18,
          /^operator "min" needs a number field, but field "command" is string/,
        ],
        [
          "property-operator-type-mismatch",
          7,
          16,
          /^operator "glob" needs a string field, but field "count" is integer/,
        ],
      ],
    ],
    [
      "broken/invalid-condition.yaml",
      [
        [
          "property-invalid-condition",
          6,
          18,
          /^`where:` field "command": regex "\(": unbalanced parenthesis/,
        ],
      ],
    ],
    ["broken/yaml-syntax.yaml", [["yaml-syntax", 4, 11, /this \[ is never closed/]]],
  ])("%s: each problem with its code and place, exit 2", async (file, expected) => {
    const { code, found } = await diagnosticsOf(file);
    expect(found.map((d) => [d.code, d.file, d.line, d.column])).toEqual(
      expected.map(([c, line, column]) => [c, file, line, column]),
    );
    expected.forEach(([, , , message], i) => {
      expect(found[i]?.message).toMatch(message);
    });
    expect(code).toBe(2);
  });

  it("reports an id used in another file at the later one, naming the first", async () => {
    const { code, found } = await diagnosticsOf("good.yaml", "broken/id-of-another-file.yaml");
    expect(found).toEqual([
      {
        code: "property-duplicate-id",
        file: "broken/id-of-another-file.yaml",
        line: 3,
        column: 9,
        message:
          'property id "files-never-denied" is already used at good.yaml:3:9; give each property its own id',
      },
    ]);
    expect(code).toBe(2);
  });

  it("reports every file's problems together, and verifies nothing", async () => {
    const { code, stdout } = await runCli([
      "verify",
      "good.yaml",
      "broken/unknown-tool.yaml",
      "broken/schema.yaml",
      "--no-color",
    ]);
    expect(stdout).toContain("broken/unknown-tool.yaml");
    expect(stdout).toContain("broken/schema.yaml");
    expect(stdout).toContain("3 problems (3 errors, 0 warnings)");
    expect(stdout).not.toContain("property-duplicate-id");
    expect(stdout).not.toContain("holds");
    expect(code).toBe(2);
  });

  it("prints stylish: the file, then line:column, severity, message and code, with the line quoted", async () => {
    const { code, stdout, stderr } = await runCli(["verify", "broken/unknown-tool.yaml", "--no-color"]);
    const lines = stdout.split("\n");
    expect(lines).toContain("broken/unknown-tool.yaml");
    expect(stdout).toMatch(/^ {2}4:20 +error +tool "red_file" is not declared.* +property-unknown-tool$/m);
    expect(stdout).toContain("    tools: [shell, red_file]");
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(code).toBe(2);
  });

  it("prints json: the fingerprint, counts and the diagnostics", async () => {
    const { code, stdout } = await runCli([
      "verify",
      "broken/operator-type-mismatch.yaml",
      "--format",
      "json",
    ]);
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({ errorCount: 2, warningCount: 0 });
    expect(report.fingerprint).toMatch(/^sha256:/);
    expect(report.diagnostics[0]).toMatchObject({
      code: "property-operator-type-mismatch",
      severity: "error",
      file: "broken/operator-type-mismatch.yaml",
      line: 6,
      column: 18,
      path: "/properties/0/where/command/min",
    });
    expect(code).toBe(2);
  });

  it("prints github: a group per file and an annotation per problem", async () => {
    const { code, stdout } = await runCli(["verify", "broken/duplicate-id.yaml", "--format", "github"]);
    const lines = stdout.trim().split("\n");
    expect(lines[0]).toBe("::group::broken/duplicate-id.yaml (1 problem)");
    expect(lines[1]).toMatch(
      /^::error file=broken\/duplicate-id\.yaml,line=6,col=9.*::.*property id "a" is already used at line 3/,
    );
    expect(lines[2]).toBe("::endgroup::");
    expect(code).toBe(2);
  });

  it("prints sarif: one rule per code, each with its helpUri in docs/verify.md, results at their place", async () => {
    const { code, stdout } = await runCli([
      "verify",
      "broken/schema.yaml",
      "broken/unknown-argument.yaml",
      "broken/yaml-syntax.yaml",
      "--format",
      "sarif",
    ]);
    const log = JSON.parse(stdout);
    const run = log.runs[0];
    expect(log.version).toBe("2.1.0");
    expect(run.tool.driver.rules.map((r: { id: string }) => r.id)).toEqual([
      "property-schema",
      "property-unknown-argument",
      "yaml-syntax",
    ]);
    expect(run.tool.driver.rules[0]).toMatchObject({
      helpUri: `${VERIFY_REFERENCE_URL}#property-schema`,
      defaultConfiguration: { level: "error" },
    });
    expect(run.tool.driver.rules[2].helpUri).toBe(`${REFERENCE_URL}#diagnostic-yaml-syntax`);
    const result = run.results.find((r: { ruleId: string }) => r.ruleId === "property-unknown-argument");
    expect(result.locations[0].physicalLocation).toMatchObject({
      artifactLocation: { uri: "broken/unknown-argument.yaml" },
      region: { startLine: 5, startColumn: 14 },
    });
    expect(run.results).toHaveLength(5);
    expect(code).toBe(2);
  });

  it("reads `tool: [a, b]` as `tools: [a, b]`", async () => {
    const { code, stdout } = await runCli(["verify", "tool-list.yaml", "--format", "json"]);
    const run = JSON.parse(stdout) as { results: { id: string; status: string }[] };
    expect(run.results).toEqual([expect.objectContaining({ id: "nothing-denied", status: "holds" })]);
    expect(code).toBe(0);
  });

  it("still verifies a good file", async () => {
    const { code, stdout } = await runCli(["verify", "good.yaml", "--no-color"]);
    expect(stdout).toContain("holds   files-never-denied  good.yaml:3:5");
    expect(code).toBe(0);
  });
});

describe("verify's SARIF rules", () => {
  it("has a row for every code, each with a helpUri whose anchor is in its document", () => {
    const verifyAnchors = anchors(docs("verify.md"));
    const referenceAnchors = anchors(docs("policy-reference.md"));
    for (const { code } of PROPERTY_DIAGNOSTICS) {
      expect(VERIFY_RULES.map((r) => r.code)).toContain(code);
    }
    for (const rule of VERIFY_RULES) {
      const uri = verifyHelpUri(rule.code);
      const [base, anchor] = uri.split("#") as [string, string];
      if (rule.code.startsWith("property-")) {
        expect(base, rule.code).toBe(VERIFY_REFERENCE_URL);
        expect(verifyAnchors.has(anchor), `${anchor} in docs/verify.md`).toBe(true);
      } else {
        expect(base, rule.code).toBe(REFERENCE_URL);
        expect(referenceAnchors.has(anchor), `${anchor} in docs/policy-reference.md`).toBe(true);
      }
      expect(rule.meaning, rule.code).toMatch(/\S.*\.$/);
      expect(rule.fix, rule.code).toMatch(/\S/);
    }
  });

  it("docs/verify.md's section of each property code says what the table says", () => {
    const text = docs("verify.md").replace(/\s+/g, " ");
    for (const { code, fix } of PROPERTY_DIAGNOSTICS) {
      expect(text, code).toContain(`### ${code} `);
      expect(text, code).toContain(fix.replace(/\s+/g, " "));
    }
  });
});
