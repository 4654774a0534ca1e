/**
 * A command loads only what it uses: every command's module is imported inside its action, so `toolgate lint`
 * and `toolgate explain` never start the formatter, the code generators, the stores or the MCP SDK. The built
 * CLI runs with a module hook that records every module it imports.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, BIN, ROOT } from "./cli-helpers.js";

const dir = mkdtempSync(join(tmpdir(), "toolgate-imports-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HOOKS = `
import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(process.env.TOOLGATE_TEST_IMPORTS, resolved.url + "\\n");
  return resolved;
}
`;

/** What no reading command needs: the formatter, the generators, the stores, the approval inbox, MCP. */
const HEAVY = [
  /\/node_modules\/prettier\//,
  /\/node_modules\/json-schema-to-typescript\//,
  /\/node_modules\/@modelcontextprotocol\//,
  /\/node_modules\/better-sqlite3\//,
  /\/node_modules\/pg\//,
  /\/dist\/(codegen|compile|stores|inbox|notify)\//,
];

/** The modules `toolgate ARGS` imports, run in the repository (its own configuration). */
function importsOf(name: string, args: readonly string[]): string[] {
  const hooks = join(dir, "hooks.mjs");
  const register = join(dir, "register.mjs");
  writeFileSync(hooks, HOOKS);
  writeFileSync(
    register,
    `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  const log = join(dir, `${name}.txt`);
  writeFileSync(log, "");
  const result = spawnSync(process.execPath, ["--import", pathToFileURL(register).href, BIN, ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", TOOLGATE_TEST_IMPORTS: log },
  });
  expect(result.status, result.stderr).not.toBe(2);
  return [...new Set(readFileSync(log, "utf8").split("\n").filter(Boolean))];
}

describe("the modules a command loads", () => {
  beforeAll(assertBuilt);

  it.each([
    ["lint", ["lint"]],
    ["explain", ["explain", "read_file", "--args", '{"path":"src/index.ts"}']],
  ])("toolgate %s loads no formatter, generator, store or MCP SDK", (name, args) => {
    const modules = importsOf(name, args);
    expect(modules.some((url) => url.includes("/dist/cli/main.js"))).toBe(true);
    expect(modules.filter((url) => HEAVY.some((heavy) => heavy.test(url)))).toEqual([]);
  });

  it("toolgate codegen does load the generator (the hook sees what it should)", () => {
    const modules = importsOf("codegen", ["codegen", "--check"]);
    expect(modules.some((url) => url.includes("/dist/codegen/"))).toBe(true);
  });

  it.each([
    ["codegen", ["codegen", "--check"]],
    ["compile", ["compile", "--check"]],
  ])(
    "toolgate %s on plain schemas writes its TypeScript formatted: neither prettier nor json-schema-to-typescript starts",
    (name, args) => {
      const modules = importsOf(`${name}-formatted`, args);
      expect(modules.some((url) => url.includes("/dist/codegen/formatted-types.js"))).toBe(true);
      expect(
        modules.filter((url) => /\/node_modules\/(prettier|json-schema-to-typescript)\//.test(url)),
      ).toEqual([]);
    },
  );
});

describe("the YAML library is loaded only for a file the fast paths do not read", () => {
  beforeAll(assertBuilt);

  /** Whether loading the configuration `files` (name → text) in a fresh process loads the `yaml` package. */
  function loadsYaml(files: Readonly<Record<string, string>>): boolean {
    const project = mkdtempSync(join(dir, "project-"));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(project, name), text);
    const script = `
      import { createRequire } from "node:module";
      const { loadPolicy } = await import(${JSON.stringify(pathToFileURL(join(ROOT, "dist", "index.js")).href)});
      const bundle = await loadPolicy({ config: "toolgate.config.yaml" });
      const loaded = Object.keys(createRequire(import.meta.url).cache).some((file) => /[\\\\/]node_modules[\\\\/]yaml[\\\\/]/.test(file));
      console.log(JSON.stringify({ tools: bundle.tools.length, loaded }));
    `;
    const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: project,
      encoding: "utf8",
    });
    expect(result.status, result.stderr).toBe(0);
    const out = JSON.parse(result.stdout.trim()) as { tools: number; loaded: boolean };
    expect(out.tools).toBe(1);
    return out.loaded;
  }

  const tools = {
    tools: [
      {
        name: "read_file",
        description: "Read a file.",
        input_schema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
      },
    ],
  };
  const policy = { version: 1, allow: ["read_file"] };

  it("files written as JSON: not loaded", () => {
    expect(
      loadsYaml({
        "toolgate.config.yaml": JSON.stringify({ tools: ["tools.yaml"], policy: "policy.yaml" }),
        "tools.yaml": JSON.stringify(tools, null, 2),
        "policy.yaml": JSON.stringify(policy, null, 2),
      }),
    ).toBe(false);
  });

  it("files written as plain block YAML: not loaded", () => {
    expect(
      loadsYaml({
        "toolgate.config.yaml": "tools: [tools.yaml]\npolicy: policy.yaml\n",
        "tools.yaml": [
          "tools:",
          "  - name: read_file",
          "    description: Read a file.",
          "    input_schema:",
          "      type: object",
          "      properties:",
          "        path: { type: string }",
          "      required: [path]",
          "",
        ].join("\n"),
        "policy.yaml": "version: 1\nallow:\n  - read_file # every read\n",
      }),
    ).toBe(false);
  });

  it("a file with a block scalar, which only the full parser reads: loaded", () => {
    expect(
      loadsYaml({
        "toolgate.config.yaml": JSON.stringify({ tools: ["tools.yaml"], policy: "policy.yaml" }),
        "tools.yaml": [
          "tools:",
          "  - name: read_file",
          "    description: |",
          "      Read a file.",
          "    input_schema:",
          "      type: object",
          "      properties:",
          "        path: { type: string }",
          "      required: [path]",
          "",
        ].join("\n"),
        "policy.yaml": JSON.stringify(policy, null, 2),
      }),
    ).toBe(true);
  });
});
