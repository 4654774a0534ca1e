import { rmSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadPolicyResultSync } from "../../src/config/load-policy.js";
import { type Diagnostic, sortDiagnostics } from "../../src/diagnostics/diagnostic.js";
import { writeTree } from "../cli/cli-helpers.js";

const at = (line: number, extra: Partial<Diagnostic> = {}): Diagnostic => ({
  code: "invalid-glob",
  severity: "error",
  message: "bad glob",
  file: "policy.yaml",
  line,
  column: 3,
  ...extra,
});

describe("sortDiagnostics", () => {
  it("sorts by file, line, column and code, and keeps one of each exact repeat", () => {
    const sorted = sortDiagnostics([
      at(9),
      at(2),
      at(9),
      at(2, { message: "another" }),
      at(2, { file: "a.yaml" }),
    ]);
    expect(sorted.map((d) => [d.file, d.line, d.message])).toEqual([
      ["a.yaml", 2, "bad glob"],
      ["policy.yaml", 2, "bad glob"],
      ["policy.yaml", 2, "another"],
      ["policy.yaml", 9, "bad glob"],
    ]);
  });

  it("reports a bad operand of a rule for several tools once", () => {
    const dir = writeTree({
      "toolgate.config.yaml": "tools: [tools.yaml]\npolicy: policy.yaml\n",
      "tools.yaml": `tools:
${["read_file", "write_file"]
  .map(
    (name) => `  - name: ${name}
    description: A file tool.
    input_schema: { type: object, properties: { path: { type: string } }, required: [path] }
`,
  )
  .join("")}`,
      "policy.yaml": `version: 1
rules:
  - id: no-climbing
    tools: [read_file, write_file]
    decision: deny
    when: { path: { glob: ["**/../**"] } }
    reason: no.
`,
    });
    try {
      const loaded = loadPolicyResultSync({ cwd: dir });
      const globs = loaded.diagnostics.filter((d) => d.code === "invalid-glob");
      expect(globs).toHaveLength(1);
      expect(globs[0]).toMatchObject({ file: "policy.yaml", line: 6 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
