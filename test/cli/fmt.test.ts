/** `toolgate fmt [--check] [FILES…]` through the built CLI. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, toolgate, writeTree } from "./cli-helpers.js";

const TOOLS = `tools:
  - name: read_file
    description: Read a file.
    input_schema: { type: object, properties: { path: { type: string, maxLength: 64 } }, additionalProperties: false }
`;

describe("toolgate fmt", () => {
  beforeAll(assertBuilt);

  it("--check prints a unified diff and exits 1; fmt rewrites; then --check exits 0", () => {
    const dir = writeTree({
      "package.json": "{}\n",
      "toolgate.config.yaml": "tools: [tools.yaml]\npolicy: policy.yaml\n",
      "tools.yaml": TOOLS,
      "policy.yaml": "# the policy\nallow: ['read_file']\nversion: 1\n",
    });
    const check = toolgate(["fmt", "--check"], dir);
    expect(check.code).toBe(1);
    expect(check.stdout).toBe(
      [
        "--- policy.yaml",
        "+++ policy.yaml (formatted)",
        "@@ -1,3 +1,3 @@",
        " # the policy",
        "-allow: ['read_file']",
        " version: 1",
        "+allow: [ read_file ]",
        "--- tools.yaml",
        "+++ tools.yaml (formatted)",
        "@@ -1,4 +1,8 @@",
        " tools:",
        "   - name: read_file",
        "     description: Read a file.",
        "-    input_schema: { type: object, properties: { path: { type: string, maxLength: 64 } }, additionalProperties: false }",
        "+    input_schema:",
        "+      type: object",
        "+      properties:",
        "+        path: { type: string, maxLength: 64 }",
        "+      additionalProperties: false",
        "",
      ].join("\n"),
    );
    expect(check.stderr).toBe("toolgate: 2 of 2 file(s) are not formatted; run `toolgate fmt`\n");
    expect(readFileSync(join(dir, "policy.yaml"), "utf8")).toBe(
      "# the policy\nallow: ['read_file']\nversion: 1\n",
    );

    const write = toolgate(["fmt"], dir);
    expect(write.code).toBe(0);
    expect(write.stdout).toBe("toolgate: 2 of 2 file(s) rewritten\n");
    expect(readFileSync(join(dir, "policy.yaml"), "utf8")).toBe(
      "# the policy\nversion: 1\nallow: [ read_file ]\n",
    );
    const again = toolgate(["fmt", "--check"], dir);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe("toolgate: 2 file(s) formatted\n");
    // The formatted files still lint clean.
    expect(toolgate(["lint"], dir).code).toBe(0);
  });

  it("a file that does not parse is reported with its position and left alone (exit 1)", () => {
    const dir = writeTree({ "package.json": "{}\n", "policy.yaml": "version: 1\nallow: [read_file\n" });
    const run = toolgate(["fmt", "policy.yaml"], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^toolgate: policy\.yaml:\d+:\d+: .+; fix it first \(toolgate lint says more\)\n/,
    );
    expect(readFileSync(join(dir, "policy.yaml"), "utf8")).toBe("version: 1\nallow: [read_file\n");
  });
});
