import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, terminalControls } from "./cli-helpers.js";

describe("toolgate explain's human output", () => {
  it("shows a reason that would erase the line and fake a DENY with its escapes visible", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolgate-explain-"));
    writeFileSync(join(dir, "toolgate.config.yaml"), "tools: [tools.yaml]\npolicy: policy.yaml\n");
    writeFileSync(
      join(dir, "tools.yaml"),
      [
        "tools:",
        "  - name: write_note",
        "    description: Write a note.",
        "    input_schema:",
        "      type: object",
        "      properties: { text: { type: string, maxLength: 200 } }",
        "      required: [text]",
        "      additionalProperties: false",
        "",
      ].join("\n"),
    );
    writeFileSync(
      join(dir, "policy.yaml"),
      'version: 1\nask: [write_note]\nreasons:\n  write_note: "notes\\e[2K\\rDENY \\u202efake"\n',
    );
    const result = await runCli([
      "explain",
      "write_note",
      "--config",
      join(dir, "toolgate.config.yaml"),
      "--args",
      '{"text":"x"}',
    ]);
    expect(result.code).toBe(0);
    expect(terminalControls(result.stdout)).toEqual([]);
    expect(result.stdout).toContain("write_note: ASK — notes\\u001b[2K\\u000dDENY \\u202efake\n");

    const unknown = await runCli([
      "explain",
      "no\u001b[8mtool",
      "--config",
      join(dir, "toolgate.config.yaml"),
    ]);
    expect(unknown.stdout).not.toContain("\u001b");
    expect(unknown.stdout).toContain("no\\u001b[8mtool: ");
  });
});
