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
