/**
 * Every hook host starts the same fast way: for Gemini CLI, Codex and Cursor, a run of the built command that
 * writes the controller cache and a run that answers from it each answer exactly as a run that loads the policy
 * from its files (stdout and exit code), on an allow, a deny, an ask, an unreadable call and input that is not a
 * payload, with the host's own options applied at run time.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HookIo, runHookCodex, runHookCursor, runHookGeminiCli } from "../../src/cli/hook.js";
import { runHook } from "./claude-code-hook-process.js";
import { assertBuilt, ROOT } from "./cli-helpers.js";

let project: string;

beforeAll(() => {
  assertBuilt();
  project = mkdtempSync(join(tmpdir(), "toolgate-hook-cache-hosts-"));
  cpSync(join(ROOT, "policies/packs/gemini-cli"), join(project, "gemini"), { recursive: true });
  cpSync(join(ROOT, "policies/packs/agents"), join(project, "agents"), { recursive: true });
});

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
});

/** A recorded Gemini CLI payload, moved into the test's project. */
const gemini = (name: string) => {
  const dir = join(ROOT, "test/fixtures/gemini-cli/hook", name);
  const file = existsSync(join(dir, "payload.json")) ? "payload.json" : "payload.txt";
  return readFileSync(join(dir, file), "utf8").replaceAll("/home/dev/project", project);
};

const codex = (tool: string, input: unknown) =>
  JSON.stringify({
    session_id: "s1",
    turn_id: "t1",
    transcript_path: null,
    cwd: project,
    hook_event_name: "PreToolUse",
    model: "gpt-5",
    permission_mode: "default",
    tool_name: tool,
    tool_input: input,
    tool_use_id: "call_1",
  });

const cursor = (event: string, fields: Record<string, unknown>) =>
  JSON.stringify({
    hook_event_name: event,
    conversation_id: "c1",
    generation_id: "g1",
    workspace_roots: [project],
    ...fields,
  });

type Uncached = (options: never, io: HookIo) => number;

interface HostCase {
  readonly host: "gemini-cli" | "codex" | "cursor";
  readonly pack: string;
  readonly args: readonly string[];
  /** The same options for the command run in this process (no cache). */
  readonly options: Record<string, string>;
  readonly run: Uncached;
  readonly payloads: () => Record<string, string>;
}

const HOSTS: readonly HostCase[] = [
  {
    host: "gemini-cli",
    pack: "gemini",
    args: ["--ask", "deny", "--unreadable", "ask"],
    options: { ask: "deny", unreadable: "ask" },
    run: runHookGeminiCli as Uncached,
    payloads: () => ({
      allow: gemini("read-in-project"),
      deny: gemini("shell-rm-rf"),
      ask: gemini("read-outside-project"),
      unreadable: gemini("unknown-builtin-tool"),
      mcp: gemini("mcp-tool"),
      malformed: gemini("not-json"),
    }),
  },
  {
    host: "codex",
    pack: "agents",
    args: ["--event", "PreToolUse", "--unreadable", "deny"],
    options: { event: "PreToolUse", unreadable: "deny" },
    run: runHookCodex as Uncached,
    payloads: () => ({
      allow: codex("Bash", { command: "git status" }),
      deny: codex("Bash", { command: "rm -rf build" }),
      ask: codex("Bash", { command: "npm publish" }),
      unreadable: codex("Frobnicate", { x: 1 }),
      malformed: "[1, 2",
    }),
  },
  {
    host: "cursor",
    pack: "agents",
    args: ["--unreadable", "ask"],
    options: { unreadable: "ask" },
    run: runHookCursor as Uncached,
    payloads: () => ({
      allow: cursor("beforeShellExecution", { command: "git status", cwd: project }),
      deny: cursor("beforeShellExecution", { command: "rm -rf /", cwd: project }),
      ask: cursor("beforeShellExecution", { command: "npm publish", cwd: project }),
      read: cursor("beforeReadFile", { file_path: join(project, ".env"), content: "", attachments: [] }),
      malformed: "not json",
    }),
  },
];

describe.each(HOSTS)("toolgate hook $host with its controller cache", (host) => {
  const config = () => join(project, host.pack, "toolgate.config.yaml");

  function uncached(input: string) {
    const out: string[] = [];
    const io: HookIo = {
      readInput: () => Buffer.from(input, "utf8"),
      write: (text) => out.push(text),
      writeError: () => undefined,
    };
    const code = host.run({ config: config(), ...host.options } as never, io);
    return { code, stdout: out.join("") };
  }

  it("answers as an uncached run, from a cold cache and from a warm one", async () => {
    for (const round of ["cold", "warm"]) {
      for (const [kind, input] of Object.entries(host.payloads())) {
        const run = await runHook(input, ["--config", config(), ...host.args], {}, project, host.host);
        expect({ code: run.code, stdout: run.stdout }, `${round} ${kind}`).toEqual(uncached(input));
      }
      expect(existsSync(join(project, ".toolgate/cache/hooks"))).toBe(true);
    }
  });
});
