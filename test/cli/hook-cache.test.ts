/**
 * The hook's controller cache (.toolgate/cache/hooks under the project): a run of the built command with a warm
 * cache, a stale one (the policy edited), a corrupt one and a tampered one (valid JavaScript whose data was
 * edited) each answers exactly as a run that loads the policy from its files, on an allow, a deny, an ask and
 * an unreadable call; so does a load through a tampered parse-cache entry. A cache that cannot be trusted is
 * written again from the policy.
 */
import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HookIo, runHookClaudeCode } from "../../src/cli/hook.js";
import { runHook } from "./claude-code-hook-process.js";
import { assertBuilt, ROOT } from "./cli-helpers.js";

let project: string;
let config: string;
let cacheDir: string;

const payload = (tool: string, input: Record<string, unknown>) =>
  JSON.stringify({
    session_id: "s1",
    transcript_path: "/tmp/t.jsonl",
    cwd: project,
    hook_event_name: "PreToolUse",
    tool_name: tool,
    tool_input: input,
  });

/** One call of each kind: allow, deny, ask, one the policy cannot read, and input that is not a payload. */
const payloads = () => ({
  allow: payload("Read", { file_path: join(project, "src/index.ts") }),
  deny: payload("Bash", { command: "rm -rf /" }),
  ask: payload("Read", { file_path: "/etc/hosts" }),
  unreadable: payload("Frobnicate", { anything: 1 }),
  malformed: "{ not json",
});

const ARGS = () => ["--config", config, "--project", project, "--unreadable", "deny"];

/** The answer of a run that loads the policy from its files (no cache): stdout and exit code. */
function uncached(input: string) {
  const out: string[] = [];
  const io: HookIo = {
    readInput: () => Buffer.from(input, "utf8"),
    write: (text) => out.push(text),
    writeError: () => undefined,
  };
  const code = runHookClaudeCode({ config, project, unreadable: "deny" }, io);
  return { code, stdout: out.join("") };
}

async function cached(input: string) {
  const run = await runHook(input, ARGS(), {}, project);
  return { code: run.code, stdout: run.stdout };
}

/** Every payload through the built command answers as the uncached run; returns the decisions seen. */
async function expectSameAsUncached(): Promise<Record<string, string>> {
  const seen: Record<string, string> = {};
  for (const [kind, input] of Object.entries(payloads())) {
    const expected = uncached(input);
    expect(await cached(input), kind).toEqual(expected);
    seen[kind] = /"permissionDecision":"(\w+)"/.exec(expected.stdout)?.[1] ?? `exit ${expected.code}`;
  }
  return seen;
}

/** The controller cache's files (its index and module), without the parse cache's folder. */
const cacheFiles = () =>
  readdirSync(cacheDir)
    .filter((name) => name !== "parsed")
    .sort();
const parsedDir = () => join(cacheDir, "parsed");
const moduleFile = () => join(cacheDir, cacheFiles().find((name) => name.endsWith(".mjs")) as string);
const indexFile = () => join(cacheDir, cacheFiles().find((name) => name.endsWith(".json")) as string);

beforeAll(() => {
  assertBuilt();
  project = mkdtempSync(join(tmpdir(), "toolgate-hook-cache-"));
  cpSync(join(ROOT, "policies/packs/claude-code"), join(project, "pack"), { recursive: true });
  config = join(project, "pack/toolgate.config.yaml");
  cacheDir = join(project, ".toolgate/cache/hooks");
});

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
});

describe("toolgate hook with its controller cache", () => {
  it("writes the cache on the first run and answers from it on the next, as an uncached run does", async () => {
    expect(await expectSameAsUncached()).toEqual({
      allow: "allow",
      deny: "deny",
      ask: "ask",
      unreadable: "deny",
      malformed: "exit 2",
    });
    expect(cacheFiles()).toHaveLength(2);
    const written = statSync(indexFile()).mtimeMs;
    await expectSameAsUncached();
    // Warm: the cache was read, not written again.
    expect(statSync(indexFile()).mtimeMs).toBe(written);
  });

  it("rebuilds a stale cache when a policy file changes", async () => {
    const policy = join(project, "pack/policy.yaml");
    const before = readFileSync(policy, "utf8");
    // A read outside the project is denied from now on: the cache built before the edit said ask.
    const edited = before.replace("  Read:\n    decision: ask", "  Read:\n    decision: deny");
    expect(edited).not.toBe(before);
    writeFileSync(policy, edited);
    try {
      const oldModule = moduleFile();
      expect((await expectSameAsUncached()).ask).toBe("deny");
      expect(moduleFile()).not.toBe(oldModule);
    } finally {
      writeFileSync(policy, before);
    }
    expect((await expectSameAsUncached()).ask).toBe("ask");
  });

  it("rebuilds a cache whose module is not valid JavaScript", async () => {
    await expectSameAsUncached();
    writeFileSync(moduleFile(), "this is not { a module");
    await expectSameAsUncached();
    expect(readFileSync(moduleFile(), "utf8")).toContain("export function createController");
  });

  it("rebuilds a cache whose index is not valid JSON", async () => {
    await expectSameAsUncached();
    writeFileSync(indexFile(), "{ broken");
    await expectSameAsUncached();
    expect(JSON.parse(readFileSync(indexFile(), "utf8")).version).toBe(2);
  });

  it("never trusts a tampered module: valid JavaScript whose policy data was edited", async () => {
    await expectSameAsUncached();
    const text = readFileSync(moduleFile(), "utf8");
    // Every deny of the policy data becomes an allow; the module still parses.
    const tampered = text.replaceAll('\\"action\\":\\"deny\\"', '\\"action\\":\\"allow\\"');
    expect(tampered).not.toBe(text);
    writeFileSync(moduleFile(), tampered);
    const seen = await expectSameAsUncached();
    expect(seen.deny).toBe("deny");
    expect(readFileSync(moduleFile(), "utf8")).toBe(text);
  });

  it("never trusts a tampered parse-cache entry (the policy's data, edited, read back on the next load)", async () => {
    await expectSameAsUncached();
    const policy = readFileSync(join(project, "pack/policy.yaml"));
    const name = `${createHash("sha256").update(policy).digest("hex").slice(0, 32)}.json`;
    const path = join(parsedDir(), name);
    const text = readFileSync(path, "utf8");
    const entry = JSON.parse(text) as { payload: string };
    // Every deny of the policy becomes an allow; the entry is still JSON, with its old integrity hash.
    const tampered = JSON.stringify({ ...entry, payload: entry.payload.replaceAll('"deny"', '"allow"') });
    expect(tampered).not.toBe(text);
    writeFileSync(path, tampered);
    // The controller cache gone: the next run loads the policy, through the parse cache.
    rmSync(indexFile());
    const seen = await expectSameAsUncached();
    expect(seen.deny).toBe("deny");
    expect(readFileSync(path, "utf8")).toBe(text);
  });

  it("never trusts tampered hook facts (the roots and context schema written beside the controller)", async () => {
    await expectSameAsUncached();
    const text = readFileSync(moduleFile(), "utf8");
    const tampered = text.replace(
      /export const hookCache = JSON\.parse\((.*)\);/,
      (_line, literal: string) => {
        const facts = JSON.parse(JSON.parse(literal) as string) as { roots: unknown };
        facts.roots = ["/"];
        return `export const hookCache = JSON.parse(${JSON.stringify(JSON.stringify(facts))});`;
      },
    );
    expect(tampered).not.toBe(text);
    writeFileSync(moduleFile(), tampered);
    await expectSameAsUncached();
    // Not used: written again from the policy.
    expect(readFileSync(moduleFile(), "utf8")).toBe(text);
  });
});
