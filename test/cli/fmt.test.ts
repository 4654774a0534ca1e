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
        '+allow: ["read_file"]',
        " version: 1",
        "--- tools.yaml",
        "+++ tools.yaml (formatted)",
        "@@ -1,4 +1,9 @@",
        " tools:",
        "   - name: read_file",
        "     description: Read a file.",
        "-    input_schema: { type: object, properties: { path: { type: string, maxLength: 64 } }, additionalProperties: false }",
        "+    input_schema:",
        "+      {",
        "+        type: object,",
        "+        properties: { path: { type: string, maxLength: 64 } },",
        "+        additionalProperties: false,",
        "+      }",
        "",
      ].join("\n"),
    );
    // The configuration file is read too, and is already formatted.
    expect(check.stderr).toBe("toolgate: 2 of 3 files are not formatted; run `toolgate fmt`\n");
    expect(readFileSync(join(dir, "policy.yaml"), "utf8")).toBe(
      "# the policy\nallow: ['read_file']\nversion: 1\n",
    );

    const before = toolgate(["lint", "--format", "json"], dir);
    const write = toolgate(["fmt"], dir);
    expect(write.code).toBe(0);
    expect(write.stdout).toBe("toolgate: 2 of 3 files rewritten\n");
    // Layout only: nothing moved, so the fingerprint is the one before.
    expect(readFileSync(join(dir, "policy.yaml"), "utf8")).toBe(
      '# the policy\nallow: ["read_file"]\nversion: 1\n',
    );
    expect(JSON.parse(toolgate(["lint", "--format", "json"], dir).stdout).fingerprint).toBe(
      JSON.parse(before.stdout).fingerprint,
    );
    const again = toolgate(["fmt", "--check"], dir);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe("toolgate: 3 files are formatted\n");
    expect(toolgate(["lint"], dir).code).toBe(0);
  });

  it("formats the property files the configuration lists for verify, too", () => {
    const dir = writeTree({
      "package.json": "{}\n",
      "toolgate.config.yaml": "tools: [tools.yaml]\npolicy: policy.yaml\nproperties: [props/*.yaml]\n",
      "tools.yaml": TOOLS,
      "policy.yaml": 'version: 1\nallow: ["read_file"]\n',
      "props/read.yaml": "version: 1\nproperties:\n  - { id: 'r', tool: read_file, never: deny }\n",
    });
    toolgate(["fmt", "tools.yaml"], dir);
    const check = toolgate(["fmt", "--check"], dir);
    expect(check.code, check.stdout + check.stderr).toBe(1);
    expect(check.stdout).toMatch(/^--- props\/read\.yaml$/m);
    expect(toolgate(["fmt"], dir).code).toBe(0);
    expect(readFileSync(join(dir, "props/read.yaml"), "utf8")).toBe(
      'version: 1\nproperties:\n  - { id: "r", tool: read_file, never: deny }\n',
    );
    expect(toolgate(["fmt", "--check"], dir).code).toBe(0);
    expect(toolgate(["verify"], dir).code).toBe(0);
  });

  it("--sort reorders sets and says that the fingerprint changed only when it did", () => {
    const dir = writeTree({
      "package.json": "{}\n",
      "toolgate.config.yaml": "tools: [tools.yaml]\npolicy: policy.yaml\n",
      "tools.yaml": TOOLS.replace("read_file", "write_file") + TOOLS.replace("tools:\n", ""),
      "policy.yaml": "version: 1\nallow: [write_file, read_file]\n",
    });
    const sorted = toolgate(["fmt", "--sort"], dir);
    expect(sorted.code).toBe(0);
    expect(readFileSync(join(dir, "policy.yaml"), "utf8")).toBe(
      "version: 1\nallow: [read_file, write_file]\n",
    );
    expect(sorted.stdout).toMatch(
      /^toolgate: 2 of 3 files rewritten \(1 file reordered\)\ntoolgate: --sort changed the order of statements, so the policy fingerprint changed \(sha256:[0-9a-f]{64} → sha256:[0-9a-f]{64}\); run `toolgate codegen` and `toolgate compile` again\n$/,
    );
    // Sorted already: nothing to say about the fingerprint.
    expect(toolgate(["fmt", "--sort"], dir).stdout).toBe(
      "toolgate: 0 of 3 files rewritten (0 files reordered)\n",
    );
  });

  it("says to compile again when statements moved to other lines (the fingerprint unchanged)", () => {
    const dir = writeTree({
      "package.json": "{}\n",
      "toolgate.config.yaml":
        "tools: [tools.yaml]\npolicy: policy.yaml\ncompile: { out: generated/toolgate.controller.mjs }\n",
      "tools.yaml": TOOLS,
      "policy.yaml": "version: 1\n\n\n\nallow: [read_file]\n",
    });
    expect(toolgate(["compile"], dir).code).toBe(0);
    const fingerprint = JSON.parse(toolgate(["lint", "--format", "json"], dir).stdout).fingerprint;
    const write = toolgate(["fmt"], dir);
    expect(write.code).toBe(0);
    // prettier keeps one blank line of three: the allow statement is two lines up.
    expect(readFileSync(join(dir, "policy.yaml"), "utf8")).toBe("version: 1\n\nallow: [read_file]\n");
    expect(write.stdout).toBe(
      "toolgate: 2 of 3 files rewritten\n" +
        "toolgate: the policy is the same (same fingerprint), but statements are on other lines now; run `toolgate compile` again (the compiled controller records where each one is)\n",
    );
    expect(JSON.parse(toolgate(["lint", "--format", "json"], dir).stdout).fingerprint).toBe(fingerprint);
    const stale = toolgate(["compile", "--check"], dir);
    expect(stale.code).toBe(1);
    expect(stale.stdout).toContain("the policy is the same (sha256:");
    expect(toolgate(["compile"], dir).code).toBe(0);
    expect(toolgate(["compile", "--check"], dir).code).toBe(0);
    // Nothing moved this time: nothing more to say.
    expect(toolgate(["fmt"], dir).stdout).toBe("toolgate: 0 of 3 files rewritten\n");
  });

  it("a file that does not parse is reported with its position and left alone (exit 1)", () => {
    const dir = writeTree({ "package.json": "{}\n", "policy.yaml": "version: 1\nallow: [read_file\n" });
    const run = toolgate(["fmt", "policy.yaml"], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      "toolgate: policy.yaml:2:8: this [ is never closed (or a line inside it is not indented past its key); end it with ], or indent its lines further (yaml-syntax); fix it first\n",
    );
    expect(readFileSync(join(dir, "policy.yaml"), "utf8")).toBe("version: 1\nallow: [read_file\n");
  });
});
