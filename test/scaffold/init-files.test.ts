import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  buildInitFiles,
  EXAMPLE_TOOL,
  installedSchemasDir,
  schemaReference,
} from "../../src/scaffold/init-files.js";

const example = { ...EXAMPLE_TOOL, source: "example", notes: [], sample: { path: "README.md" } };

describe("buildInitFiles", () => {
  it("writes the policy and the tests exactly so", () => {
    const files = buildInitFiles({
      dir: "/p",
      schemasDir: "/p/node_modules/toolgate/schemas",
      tools: [example],
      sources: [],
    });
    const text = new Map(files.map((f) => [f.path, f.text]));
    expect(text.get("policies/policy.yaml")).toBe(
      [
        "# yaml-language-server: $schema=../node_modules/toolgate/schemas/policy.schema.json",
        "# Deny by default: a call that no statement below allows or asks for is denied.",
        "# To start, every tool asks for a person's approval. Move what is always safe to `allow:`, what never is",
        "# to `deny:`, add `rules:` that decide on named arguments (for example `when: { path: { glob: ... } }`),",
        "# and rewrite each reason. `toolgate lint` checks this file and runs the policy tests.",
        "version: 1",
        "ask:",
        "  - read_file",
        "reasons:",
        "  read_file: a person approves each read_file call until this policy decides more",
        "",
      ].join("\n"),
    );
    expect(text.get("policies/tests/tools.yaml")).toBe(
      [
        "# yaml-language-server: $schema=../../node_modules/toolgate/schemas/tests.schema.json",
        "# One starter test per tool: a call and the decision the policy must give it. Add the calls that matter",
        "# (what must be allowed, what must never run) as you change the policy.",
        "tests:",
        `  - name: "read_file: a call waits for a person's approval"`,
        "    call: { tool: read_file, arguments: { path: README.md } }",
        "    expect: ask",
        "    rule: ask:read_file",
        "",
      ].join("\n"),
    );
  });

  it("keeps a source label with line breaks inside its comment", () => {
    const files = buildInitFiles({
      dir: "/p",
      schemasDir: "/p/node_modules/toolgate/schemas",
      tools: [example],
      sources: ["MCP server evil\ntools: []\r\u2028x"],
    });
    const tools = files.find((f) => f.path === "policies/tools/tools.yaml")?.text as string;
    expect(tools).toContain("#   MCP server evil tools: []  x\n");
    expect(parse(tools).tools.map((t: { name: string }) => t.name)).toEqual(["read_file"]);
  });
});

describe("modeline paths", () => {
  it("are relative to each file", () => {
    expect(
      schemaReference("/p", "toolgate.config.yaml", "/p/node_modules/toolgate/schemas", "config.schema.json"),
    ).toBe("./node_modules/toolgate/schemas/config.schema.json");
    expect(
      schemaReference(
        "/repo/apps/a",
        "policies/policy.yaml",
        "/repo/node_modules/toolgate/schemas",
        "policy.schema.json",
      ),
    ).toBe("../../../node_modules/toolgate/schemas/policy.schema.json");
  });

  it("find toolgate hoisted to a parent's node_modules, as Node resolves it", () => {
    const root = mkdtempSync(join(tmpdir(), "toolgate-hoist-"));
    const pkg = join(root, "node_modules/toolgate");
    mkdirSync(join(pkg, "schemas"), { recursive: true });
    writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "toolgate" }));
    writeFileSync(join(pkg, "schemas/policy.schema.json"), "{}");
    const app = join(root, "packages/agent");
    mkdirSync(app, { recursive: true });
    expect(installedSchemasDir(app)).toEqual({ path: join(pkg, "schemas"), installed: true });
    // Another package's folder of that name is not toolgate.
    const other = mkdtempSync(join(tmpdir(), "toolgate-other-"));
    mkdirSync(join(other, "node_modules/toolgate/schemas"), { recursive: true });
    writeFileSync(
      join(other, "node_modules/toolgate/package.json"),
      JSON.stringify({ name: "not-toolgate" }),
    );
    expect(installedSchemasDir(other)).toEqual({
      path: join(other, "node_modules/toolgate/schemas"),
      installed: false,
    });
  });
});
