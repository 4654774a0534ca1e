/**
 * The hook policy carries the configuration's tool aliases on both of its paths: loaded from YAML, and read
 * from the cached compiled module's verified `aliases` export (equal to the YAML's). A cached module without a
 * valid `aliases` export (one compiled before aliases existed, or edited) is a cache miss.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadHookPolicyForCache } from "../../src/cli/hook.js";
import { HOOK_CACHE_DIR, readHookCache, writeHookCache } from "../../src/cli/hook-cache.js";
import { assertBuilt, ROOT } from "./cli-helpers.js";

const FIXTURE = join(ROOT, "test", "fixtures", "compile", "aliases");
// The module a cached controller imports the runtime from, as the built hook entry passes it.
const RUNTIME_URL = pathToFileURL(join(ROOT, "dist", "cli", "hook-start.js")).href;

const projects: string[] = [];

/** A fresh project holding a copy of the aliases fixture; returns it and its config file. */
function newProject(): { project: string; config: string } {
  const project = mkdtempSync(join(tmpdir(), "toolgate-hook-aliases-"));
  projects.push(project);
  cpSync(FIXTURE, join(project, "policy"), { recursive: true });
  return { project, config: join(project, "policy", "toolgate.config.yaml") };
}

/** Loads the policy from YAML and writes the hook cache from that load. */
async function loadAndCache(project: string, config: string) {
  const loaded = await loadHookPolicyForCache(config, project);
  if (!loaded.ok || loaded.cache === undefined) throw new Error("the fixture must load and compile");
  writeHookCache(project, config, RUNTIME_URL, loaded.cache);
  return loaded.policy;
}

beforeAll(() => {
  assertBuilt();
});
afterAll(() => {
  for (const project of projects) rmSync(project, { recursive: true, force: true });
});

describe("the hook policy's aliases", () => {
  it("are the bundle's when loaded from YAML, and the same when read from the cache", async () => {
    const { project, config } = newProject();
    const fromYaml = await loadAndCache(project, config);
    expect(fromYaml.aliases.map((a) => `${a.host} ${a.name} → ${a.tool}`)).toEqual([
      "claude-code Bash → shell",
      "claude-code Write → write_file",
      "claude-code mcp__{server}__{tool} → mcp_call",
      "gemini-cli run_shell_command → shell",
    ]);
    const fromCache = await readHookCache(project, config, RUNTIME_URL);
    expect(fromCache).toBeDefined();
    expect(fromCache?.aliases).toEqual(fromYaml.aliases);
    expect(Object.isFrozen(fromCache?.aliases)).toBe(true);
    expect(Object.isFrozen(fromCache?.aliases[0]?.arguments)).toBe(true);
  });

  it("make a cached module without an aliases export a cache miss", async () => {
    const { project, config } = newProject();
    await loadAndCache(project, config);
    const dir = join(project, HOOK_CACHE_DIR);
    const module = join(dir, readdirSync(dir).find((name) => name.endsWith(".mjs")) as string);
    const text = readFileSync(module, "utf8");
    const line = "export const aliases = verified.aliases;";
    expect(text).toContain(line);
    writeFileSync(module, text.replace(line, ""));
    expect(await readHookCache(project, config, RUNTIME_URL)).toBeUndefined();
  });
});
