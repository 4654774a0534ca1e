/**
 * One canonical policy, five coding agents: the canonical pack (policies/packs/agents) declares each host's own
 * tools as aliases of its canonical tools, and the same action — sent by Claude Code, Gemini CLI, Codex,
 * Cursor or OpenCode in that host's own shape — ends with the same decision from every hook. The actions are
 * a fixed table of each kind of canonical call (allowed, asked and denied), and generated ones (fast-check)
 * built from command words and paths inside and outside the project.
 */
import { join } from "node:path";
import fc from "fast-check";
import { toolgatePlugin } from "toolgate/opencode";
import { describe, expect, it } from "vitest";
import {
  type HookIo,
  runHookClaudeCode,
  runHookCodex,
  runHookCursor,
  runHookGeminiCli,
} from "../../src/cli/hook.js";
import { ROOT } from "./cli-helpers.js";

const PACK = join(ROOT, "policies/packs/agents/toolgate.config.yaml");
const PROJECT = "/home/dev/project";

type Decision = "allow" | "ask" | "deny";

function io(input: string) {
  const out: string[] = [];
  const err: string[] = [];
  const hookIo: HookIo = {
    readInput: () => Buffer.from(input, "utf8"),
    write: (text) => out.push(text),
    writeError: (text) => err.push(text),
  };
  return { hookIo, stdout: () => out.join(""), stderr: () => err.join("") };
}

const NEEDS_PERSON = /needs a person's approval/;

/** Claude Code's answer: `permissionDecision`. */
function fromClaudeCode(tool: string, input: object): Decision {
  const run = io(
    JSON.stringify({
      session_id: "s1",
      transcript_path: "/home/dev/.claude/projects/p/s1.jsonl",
      cwd: PROJECT,
      hook_event_name: "PreToolUse",
      tool_name: tool,
      tool_input: input,
      tool_use_id: "toolu_1",
      permission_mode: "default",
    }),
  );
  const code = runHookClaudeCode({ config: PACK, unreadable: "ask", project: PROJECT }, run.hookIo);
  expect(code, run.stderr()).toBe(0);
  return (JSON.parse(run.stdout()) as { hookSpecificOutput: { permissionDecision: Decision } })
    .hookSpecificOutput.permissionDecision;
}

/** Gemini CLI's answer: `decision`. */
function fromGeminiCli(tool: string, input: object, extra: object = {}): Decision {
  const run = io(
    JSON.stringify({
      session_id: "s1",
      transcript_path: "/home/dev/.gemini/tmp/h/chats/session.json",
      cwd: PROJECT,
      hook_event_name: "BeforeTool",
      timestamp: "2026-12-04T10:15:42.118Z",
      tool_name: tool,
      tool_input: input,
      ...extra,
    }),
  );
  const code = runHookGeminiCli({ config: PACK, unreadable: "ask", project: PROJECT }, run.hookIo);
  expect(code, run.stderr()).toBe(0);
  return (JSON.parse(run.stdout()) as { decision: Decision }).decision;
}

/** Codex's answer: nothing (runs), or a deny whose reason names a person's approval for an ask. */
function fromCodex(tool: string, input: object): Decision {
  const run = io(
    JSON.stringify({
      session_id: "s1",
      turn_id: "t1",
      transcript_path: null,
      cwd: PROJECT,
      hook_event_name: "PreToolUse",
      model: "gpt-5",
      permission_mode: "default",
      tool_name: tool,
      tool_input: input,
      tool_use_id: "call_1",
    }),
  );
  const code = runHookCodex({ config: PACK, unreadable: "ask", event: "PreToolUse" }, run.hookIo);
  expect(code, run.stderr()).toBe(0);
  if (run.stdout() === "") return "allow";
  const reason = (JSON.parse(run.stdout()) as { hookSpecificOutput: { permissionDecisionReason: string } })
    .hookSpecificOutput.permissionDecisionReason;
  return NEEDS_PERSON.test(reason) ? "ask" : "deny";
}

/** Cursor's answer: `permission` (before a read, an ask is a deny that names a person's approval). */
function fromCursor(event: string, fields: object): Decision {
  const run = io(
    JSON.stringify({
      hook_event_name: event,
      conversation_id: "c1",
      generation_id: "g1",
      workspace_roots: [PROJECT],
      cwd: PROJECT,
      ...fields,
    }),
  );
  const code = runHookCursor({ config: PACK, unreadable: "ask" }, run.hookIo);
  expect(code, run.stderr()).toBe(0);
  const answer = JSON.parse(run.stdout()) as { permission: Decision; agent_message?: string };
  if (event === "beforeReadFile" && answer.permission === "deny") {
    return NEEDS_PERSON.test(answer.agent_message ?? "") ? "ask" : "deny";
  }
  return answer.permission;
}

/** OpenCode's plugin: returns (runs) or throws; an ask's message names a person's approval. */
async function fromOpenCode(tool: string, args: object): Promise<Decision> {
  const hooks = await toolgatePlugin({ config: PACK })({ directory: PROJECT });
  return hooks["tool.execute.before"]({ tool }, { args }).then(
    () => "allow" as const,
    (error: Error) => (NEVER_ASK_REFUSAL.test(error.message) ? ("ask" as const) : ("deny" as const)),
  );
}
const NEVER_ASK_REFUSAL = /needs a person's approval, which the plugin cannot ask for/;

/** Each host's decision for a shell command. */
async function shellEverywhere(command: string): Promise<Record<string, Decision>> {
  return {
    "claude-code": fromClaudeCode("Bash", { command, description: "run it" }),
    "gemini-cli": fromGeminiCli("run_shell_command", { command }),
    codex: fromCodex("Bash", { command }),
    cursor: fromCursor("beforeShellExecution", { command }),
    opencode: await fromOpenCode("bash", { command, description: "run it" }),
  };
}

/** Each host's decision for reading one absolute file path (Codex reads files through its shell only). */
async function readEverywhere(path: string): Promise<Record<string, Decision>> {
  return {
    "claude-code": fromClaudeCode("Read", { file_path: path }),
    "gemini-cli": fromGeminiCli("read_file", { file_path: path }),
    cursor: fromCursor("beforeReadFile", { file_path: path, content: "" }),
    opencode: await fromOpenCode("read", { filePath: path }),
  };
}

/** Each host's decision for writing one file (Cursor has no write hook). */
async function writeEverywhere(path: string): Promise<Record<string, Decision>> {
  const relative = path.startsWith(`${PROJECT}/`) ? path.slice(PROJECT.length + 1) : path;
  return {
    "claude-code": fromClaudeCode("Write", { file_path: path, content: "x" }),
    "gemini-cli": fromGeminiCli("write_file", { file_path: path, content: "x" }),
    codex: fromCodex("apply_patch", {
      command: ["*** Begin Patch", `*** Update File: ${relative}`, "+x", "*** End Patch"].join("\n"),
    }),
    opencode: await fromOpenCode("write", { filePath: path, content: "x" }),
  };
}

const same = (decisions: Record<string, Decision>): Decision[] => [...new Set(Object.values(decisions))];

describe("one canonical policy gates every coding agent alike", () => {
  it.each([
    ["git status", "allow"],
    ["ls", "allow"],
    ["rm -rf build", "deny"],
    ["cat .env", "deny"],
    ["npm test", "ask"],
    ["git diff --output=/tmp/x", "deny"],
    ['echo "$HOME"', "ask"],
  ] as const)("the shell command %s: %s from all five", async (command, expected) => {
    const decisions = await shellEverywhere(command);
    expect(same(decisions), JSON.stringify(decisions)).toEqual([expected]);
  });

  it.each([
    [`${PROJECT}/src/index.ts`, "allow"],
    [`${PROJECT}/config/.env`, "deny"],
    [`${PROJECT}/.ssh/id_rsa`, "deny"],
    ["/etc/passwd", "ask"],
  ] as const)("reading %s: %s from every host that reads files", async (path, expected) => {
    const decisions = await readEverywhere(path);
    expect(same(decisions), JSON.stringify(decisions)).toEqual([expected]);
  });

  it.each([
    [`${PROJECT}/src/index.ts`, "ask"],
    [`${PROJECT}/.env.local`, "deny"],
    [`${PROJECT}/.git/hooks/pre-commit`, "deny"],
  ] as const)("writing %s: %s from every host that writes files", async (path, expected) => {
    const decisions = await writeEverywhere(path);
    expect(same(decisions), JSON.stringify(decisions)).toEqual([expected]);
  });

  it("a search of the project is allowed, of a secret folder denied, from each host's search tool", async () => {
    expect(
      same({
        claude: fromClaudeCode("Grep", { pattern: "TODO", path: `${PROJECT}/src` }),
        gemini: fromGeminiCli("grep_search", { pattern: "TODO", dir_path: `${PROJECT}/src` }),
        opencode: await fromOpenCode("grep", { pattern: "TODO", path: `${PROJECT}/src` }),
      }),
    ).toEqual(["allow"]);
    expect(
      same({
        claude: fromClaudeCode("Glob", { pattern: "*", path: `${PROJECT}/.ssh` }),
        gemini: fromGeminiCli("glob", { pattern: "*", dir_path: `${PROJECT}/.ssh` }),
        opencode: await fromOpenCode("glob", { pattern: "*", path: `${PROJECT}/.ssh` }),
      }),
    ).toEqual(["deny"]);
  });

  it("a URL fetch asks, and an MCP tool asks, from each host that has them", async () => {
    expect(
      same({
        claude: fromClaudeCode("WebFetch", { url: "https://example.com", prompt: "read it" }),
        opencode: await fromOpenCode("webfetch", { url: "https://example.com", format: "text" }),
      }),
    ).toEqual(["ask"]);
    expect(
      same({
        claude: fromClaudeCode("mcp__db__query", { sql: "select 1" }),
        gemini: fromGeminiCli("mcp_db_query", { sql: "select 1" }),
        geminiContext: fromGeminiCli(
          "query",
          { sql: "select 1" },
          { mcp_context: { server_name: "db", tool_name: "query" } },
        ),
        codex: fromCodex("mcp__db__query", { sql: "select 1" }),
        cursor: fromCursor("beforeMCPExecution", { tool_name: "query", tool_input: { sql: "select 1" } }),
        opencode: await fromOpenCode("db_query", { sql: "select 1" }),
      }),
    ).toEqual(["ask"]);
  });

  it("Gemini CLI's shell directory is carried: a safe command outside the project asks", () => {
    expect(fromGeminiCli("run_shell_command", { command: "ls", dir_path: `${PROJECT}/src` })).toBe("allow");
    expect(fromGeminiCli("run_shell_command", { command: "ls", dir_path: "/etc" })).toBe("ask");
  });

  it("a host tool with no alias is never allowed", async () => {
    expect(fromClaudeCode("TodoWrite", { todos: [] })).toBe("ask");
    expect(fromGeminiCli("read_many_files", { include: ["**/*"] })).toBe("ask");
    expect(await fromOpenCode("todowrite", { todos: [] })).toBe("ask");
  });

  it("generated commands and paths: every host gives the one decision", async () => {
    const word = fc.constantFrom("git status", "ls", "pwd", "rm -rf", "cat", "npm test", "git log", "echo");
    const arg = fc.constantFrom("", " src", " .env", " /etc", " ../x", " -la", " '$x'", " build");
    const join2 = fc.constantFrom(" && ", " ; ", " | ");
    const command = fc
      .tuple(word, arg, fc.option(fc.tuple(join2, word, arg), { nil: undefined }))
      .map(([w, a, more]) => `${w}${a}${more === undefined ? "" : more.join("")}`);
    const path = fc
      .tuple(
        fc.constantFrom(PROJECT, "/etc", "/home/dev/other"),
        fc.constantFrom("src", ".env", ".ssh", "a/.git", "notes", "id_rsa.pub", "x.pem"),
        fc.constantFrom("", "/file.ts", "/deep/x"),
      )
      .map(([root, middle, end]) => `${root}/${middle}${end}`);
    await fc.assert(
      fc.asyncProperty(command, path, async (line, file) => {
        expect(same(await shellEverywhere(line)), line).toHaveLength(1);
        expect(same(await readEverywhere(file)), file).toHaveLength(1);
        expect(same(await writeEverywhere(file)), file).toHaveLength(1);
      }),
      { numRuns: 40 },
    );
  });
});
