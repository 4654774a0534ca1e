// The MCP SDK and the Agents SDK are loaded only by the commands and entries that use them: `import "toolgate"`
// and `toolgate lint` never resolve a module of either (checked on the built package, with a resolve hook that
// records every module Node loads).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, BIN, ROOT } from "../cli/cli-helpers.js";

const dir = mkdtempSync(join(tmpdir(), "toolgate-lazy-"));
const HOOKS = join(dir, "hooks.mjs");
const REGISTER = join(dir, "register.mjs");

/** Runs node with the recording hook and returns every module URL it resolved. */
function loadedModules(args: readonly string[]): string[] {
  const trace = join(dir, `trace-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(trace, "");
  const run = spawnSync(process.execPath, ["--import", pathToFileURL(REGISTER).href, ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, TOOLGATE_TRACE: trace, NO_COLOR: "1" },
  });
  expect(run.status, run.stderr).toBe(0);
  return readFileSync(trace, "utf8")
    .split("\n")
    .filter((line) => line !== "");
}

const SDKS = /node_modules\/(@modelcontextprotocol|@openai\/agents)/;

describe("the SDKs load lazily", () => {
  beforeAll(() => {
    assertBuilt();
    writeFileSync(
      HOOKS,
      [
        'import { appendFileSync } from "node:fs";',
        "export async function resolve(specifier, context, next) {",
        "  const result = await next(specifier, context);",
        '  appendFileSync(process.env.TOOLGATE_TRACE, result.url + "\\n");',
        "  return result;",
        "}",
      ].join("\n"),
    );
    writeFileSync(
      REGISTER,
      `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(HOOKS).href)});\n`,
    );
  });

  it("the hook records an import of the SDK (so that the checks below can fail)", () => {
    const modules = loadedModules([
      "--input-type=module",
      "-e",
      'await import("@modelcontextprotocol/sdk/client/index.js");',
    ]);
    expect(modules.some((url) => SDKS.test(url))).toBe(true);
  });

  it('"toolgate/agents" resolves through the package\'s exports, and it is what loads the Agents SDK', () => {
    const modules = loadedModules([
      "--input-type=module",
      "-e",
      'const { AgentsGate } = await import("toolgate/agents"); if (typeof AgentsGate !== "function") process.exit(3);',
    ]);
    expect(modules.some((url) => url.endsWith("/dist/agents/index.js"))).toBe(true);
    expect(modules.some((url) => /node_modules\/@openai\/agents/.test(url))).toBe(true);
  });

  it('import "toolgate" loads neither SDK', () => {
    const modules = loadedModules([
      "--input-type=module",
      "-e",
      `await import(${JSON.stringify(pathToFileURL(join(ROOT, "dist/index.js")).href)});`,
    ]);
    expect(modules.some((url) => url.endsWith("/dist/index.js"))).toBe(true);
    expect(modules.filter((url) => SDKS.test(url))).toEqual([]);
  });

  it("toolgate lint loads neither SDK", () => {
    const modules = loadedModules([
      BIN,
      "lint",
      "--config",
      "test/fixtures/mcp-filesystem/toolgate.config.yaml",
    ]);
    expect(modules.some((url) => url.includes("/dist/cli/lint.js"))).toBe(true);
    expect(modules.filter((url) => SDKS.test(url))).toEqual([]);
  });
});
