/**
 * `toolgate lint FILE…` as a pre-commit hook calls it: each file is linted with the configuration it belongs
 * to, and only the given files' findings are reported.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, toolgate, writeTree } from "./cli-helpers.js";

const TOOLS = `tools:
  - name: read_file
    description: Read a file.
    input_schema:
      type: object
      properties:
        path: { type: string, maxLength: 256 }
      required: [path]
      additionalProperties: false
  - name: forgotten
    description: A tool no statement names.
    input_schema: { type: object, properties: {}, additionalProperties: false }
`;

function project() {
  return writeTree({
    "package.json": "{}\n",
    // Two projects in one repository: the root one, and one under sub/ with its own configuration.
    "toolgate.config.yaml": "tools: [tools.yaml]\npolicy: policy.yaml\n",
    "tools.yaml": TOOLS,
    "policy.yaml": "version: 1\nallow: [read_file, write_file]\n",
    "notes.yaml": "unrelated: true\n",
    "sub/toolgate.config.yaml": "tools: [tools.yaml]\npolicy: policy.yaml\n",
    "sub/tools.yaml": TOOLS,
    "sub/policy.yaml": "version: 1\nallow: [read_file, forgotten]\ndeny: [nothing_here]\n",
  });
}

describe("toolgate lint FILES…", () => {
  beforeAll(assertBuilt);

  it("reports only the given file's findings, from the configuration it belongs to", () => {
    const dir = project();
    const all = JSON.parse(toolgate(["lint", "--format", "json"], dir).stdout);
    expect(all.diagnostics.map((d: { code: string; file: string }) => `${d.file}:${d.code}`)).toEqual([
      "policy.yaml:unknown-tool",
      "tools.yaml:unlisted-tool",
    ]);
    const policyOnly = toolgate(["lint", "--format", "json", "policy.yaml"], dir);
    expect(policyOnly.code).toBe(1);
    expect(JSON.parse(policyOnly.stdout).diagnostics.map((d: { file: string }) => d.file)).toEqual([
      "policy.yaml",
    ]);
    const toolsOnly = toolgate(["lint", "--format", "json", "tools.yaml"], dir);
    expect(toolsOnly.code).toBe(0);
    expect(JSON.parse(toolsOnly.stdout)).toMatchObject({ errorCount: 0, warningCount: 1 });
  });

  it("lints each file with its own configuration, and skips files no configuration reads", () => {
    const dir = project();
    const run = toolgate(["lint", "--format", "json", "sub/policy.yaml", "notes.yaml", "tools.yaml"], dir);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.fingerprint).toBeNull();
    expect(report.diagnostics.map((d: { file: string; code: string }) => `${d.file}:${d.code}`)).toEqual([
      "sub/policy.yaml:unknown-tool",
      "tools.yaml:unlisted-tool",
    ]);
    expect(run.stderr).toBe(
      "toolgate: notes.yaml is not read by any toolgate configuration; nothing to lint in it\n",
    );
  });

  it("a clean file prints the no-problems line; a missing file is a usage error", () => {
    const dir = project();
    const clean = toolgate(["lint", "sub/tools.yaml"], dir);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toBe("toolgate: no problems in sub/tools.yaml\n");
    const missing = toolgate(["lint", "gone.yaml"], dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe("toolgate: gone.yaml does not exist\n");
  });
});
