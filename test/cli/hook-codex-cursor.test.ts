/**
 * `toolgate hook codex` and `toolgate hook cursor` on payloads in each host's documented shapes, against the
 * canonical coding-agent pack (policies/packs/agents): the answer is in the host's format, unreadable and
 * hostile input blocks the host's way (exit 2), an ask under Codex is a deny that says a person is needed, and
 * one canonical policy gives the same decision for the same action arriving from either host.
 */
import { join } from "node:path";
import { toolgatePlugin } from "toolgate/opencode";
import { describe, expect, it } from "vitest";
import { type HookIo, runHookCodex, runHookCursor } from "../../src/cli/hook.js";
import { runHook } from "./claude-code-hook-process.js";
import { assertBuilt, ROOT } from "./cli-helpers.js";

const PACK = join(ROOT, "policies/packs/agents/toolgate.config.yaml");
const PROJECT = "/home/dev/project";

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

const codexPayload = (tool: string, input: unknown, event = "PreToolUse") =>
  JSON.stringify({
    session_id: "s1",
    turn_id: "t1",
    transcript_path: null,
    cwd: PROJECT,
    hook_event_name: event,
    model: "gpt-5",
    permission_mode: "default",
    tool_name: tool,
    tool_input: input,
    tool_use_id: "call_1",
  });

const cursorPayload = (event: string, fields: Record<string, unknown>) =>
  JSON.stringify({
    hook_event_name: event,
    conversation_id: "c1",
    generation_id: "g1",
    workspace_roots: [PROJECT],
    ...fields,
  });

function codex(input: string, event = "PreToolUse") {
  const run = io(input);
  const code = runHookCodex({ config: PACK, unreadable: "ask", event }, run.hookIo);
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

function cursor(input: string) {
  const run = io(input);
  const code = runHookCursor({ config: PACK, unreadable: "ask" }, run.hookIo);
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

/** What Codex does with an answer: blocked (with the reason) or let through. */
function codexOutcome(result: { code: number; stdout: string; stderr: string }): string {
  if (result.code === 2) return "blocked";
  if (result.stdout === "") return "runs";
  const answer = JSON.parse(result.stdout) as { hookSpecificOutput: { permissionDecision: string } };
  return answer.hookSpecificOutput.permissionDecision === "deny" ? "blocked" : "runs";
}

const patch = (...headers: string[]) =>
  ["*** Begin Patch", ...headers.flatMap((h) => [h, "+x"]), "*** End Patch"].join("\n");

describe("toolgate hook codex", () => {
  it("a safe command runs: no answer, so Codex's own sandbox and approvals still apply", () => {
    expect(codex(codexPayload("Bash", { command: "git status" }))).toEqual({
      code: 0,
      stdout: "",
      stderr: "",
    });
  });

  it("a denied command is a well-formed deny with toolgate's reason", () => {
    const { code, stdout } = codex(codexPayload("Bash", { command: "rm -rf build" }));
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason:
          "toolgate: recursive deletion is never run by the agent [agents-shell-no-recursive-delete]",
      },
    });
  });

  it("an ask is a deny that tells the model a person is needed (Codex lets an ask run)", () => {
    const { stdout } = codex(codexPayload("Bash", { command: "npm publish" }));
    const answer = JSON.parse(stdout) as { hookSpecificOutput: Record<string, string> };
    expect(answer.hookSpecificOutput.permissionDecision).toBe("deny");
    expect(answer.hookSpecificOutput.permissionDecisionReason).toContain("needs a person's approval");
  });

  it("apply_patch is decided per file: one secret file in the patch blocks it", () => {
    expect(
      codexOutcome(codex(codexPayload("apply_patch", { command: patch("*** Update File: src/a.ts") }))),
    ).toBe("blocked"); // a write asks, and Codex cannot ask
    const secret = codex(
      codexPayload("apply_patch", { command: patch("*** Add File: src/a.ts", "*** Add File: .env") }),
    );
    expect(secret.stdout).toContain("agents-no-secret-files");
    const absolute = codex(
      codexPayload("apply_patch", { command: patch(`*** Update File: ${PROJECT}/.git/hooks/pre-commit`) }),
    );
    expect(absolute.stdout).toContain("agents-no-git-internals");
  });

  it("a patch toolgate cannot read is never let through", () => {
    for (const body of ["not a patch", "*** Begin Patch\n*** End Patch", patch("*** Update File: ")]) {
      expect(codexOutcome(codex(codexPayload("apply_patch", { command: body })))).toBe("blocked");
    }
  });

  it("an MCP tool is an mcp_call: the pack asks for it, so Codex blocks it", () => {
    const { stdout } = codex(codexPayload("mcp__db__query", { sql: "select 1" }));
    expect(stdout).toContain("MCP tools are not known to this policy");
  });

  it("PermissionRequest: a deny refuses Codex's prompt; an ask or allow leaves the prompt to the person", () => {
    const denied = codex(
      codexPayload("Bash", { command: "rm -rf /" }, "PermissionRequest"),
      "PermissionRequest",
    );
    expect(JSON.parse(denied.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: {
          behavior: "deny",
          message:
            "toolgate: recursive deletion is never run by the agent [agents-shell-no-recursive-delete]",
        },
      },
    });
    const asked = codex(
      codexPayload("Bash", { command: "npm publish" }, "PermissionRequest"),
      "PermissionRequest",
    );
    expect(asked).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  it.each([
    ["not JSON", "{"],
    ["another event", codexPayload("Bash", { command: "ls" }, "PostToolUse")],
    ["no tool_input", JSON.stringify({ hook_event_name: "PreToolUse", cwd: PROJECT, tool_name: "Bash" })],
    ["a relative cwd", codexPayload("Bash", { command: "ls" }).replace(PROJECT, "project")],
    [
      "a repeated key",
      codexPayload("Bash", { command: "ls" }).replace('"tool_name"', '"tool_name":"Bash","tool_name"'),
    ],
    [
      "a __proto__ key",
      codexPayload("Bash", { command: "ls", ["__proto__"]: { x: 1 } }).replace('"x"', '"x"'),
    ],
    ["a command that is not a string", codexPayload("Bash", { command: ["rm", "-rf", "/"] })],
    ["an unknown tool", codexPayload("exec_command", { cmd: "ls" })],
  ])("blocks %s (exit 2 or a deny: Codex runs nothing)", (_name, input) => {
    expect(codexOutcome(codex(input))).toBe("blocked");
  });

  it("the registered command runs as a process too", async () => {
    assertBuilt();
    const { code, stdout } = await runHook(
      codexPayload("Bash", { command: "rm -rf build" }),
      ["--config", PACK],
      {},
      ROOT,
      "codex",
    );
    expect(code).toBe(0);
    expect(stdout).toContain('"permissionDecision":"deny"');
  });
});

describe("toolgate hook cursor", () => {
  const answer = (input: string) => {
    const result = cursor(input);
    return {
      code: result.code,
      ...(JSON.parse(result.stdout) as { permission: string; agent_message?: string }),
    };
  };

  it("beforeShellExecution: allow, deny and ask with messages for the person and the model", () => {
    expect(answer(cursorPayload("beforeShellExecution", { command: "git status", cwd: PROJECT }))).toEqual({
      code: 0,
      permission: "allow",
    });
    expect(
      answer(cursorPayload("beforeShellExecution", { command: "rm -rf /", cwd: PROJECT })).permission,
    ).toBe("deny");
    const ask = answer(cursorPayload("beforeShellExecution", { command: "npm publish", cwd: PROJECT }));
    expect(ask.permission).toBe("ask");
    expect(ask.agent_message).toContain("needs a person's approval");
  });

  it("beforeReadFile: a project file is allowed, a secret denied, an ask becomes a deny", () => {
    const read = (file: string) =>
      answer(cursorPayload("beforeReadFile", { file_path: file, content: "…", attachments: [] })).permission;
    expect(read(`${PROJECT}/src/index.ts`)).toBe("allow");
    expect(read(`${PROJECT}/config/.env`)).toBe("deny");
    expect(read("/etc/passwd")).toBe("deny");
  });

  it("a file under a second workspace root is read relative to that root", () => {
    const result = answer(
      JSON.stringify({
        hook_event_name: "beforeReadFile",
        workspace_roots: [PROJECT, "/home/dev/lib"],
        file_path: "/home/dev/lib/src/util.ts",
        content: "",
      }),
    );
    expect(result.permission).toBe("allow");
  });

  it("beforeMCPExecution: an mcp_call, with tool_input as an object or as its JSON text", () => {
    for (const toolInput of [{ sql: "select 1" }, '{"sql":"select 1"}']) {
      const result = answer(
        cursorPayload("beforeMCPExecution", {
          tool_name: "query",
          tool_input: toolInput,
          url: "http://localhost:3000",
        }),
      );
      expect(result.permission).toBe("ask");
    }
  });

  it.each([
    ["not JSON", "nope"],
    ["another event", cursorPayload("afterFileEdit", { file_path: `${PROJECT}/a` })],
    [
      "no workspace root",
      JSON.stringify({ hook_event_name: "beforeShellExecution", command: "ls", cwd: PROJECT }),
    ],
    [
      "a relative workspace root",
      cursorPayload("beforeShellExecution", { command: "ls" }).replace(PROJECT, "p"),
    ],
    ["no command", cursorPayload("beforeShellExecution", { cwd: PROJECT })],
    [
      "a tool_input that is not an object",
      cursorPayload("beforeMCPExecution", { tool_name: "q", tool_input: "[1" }),
    ],
    ["a __proto__ key", cursorPayload("beforeShellExecution", { command: "ls", ["__proto__"]: { a: 1 } })],
  ])("blocks %s: exit 2 and a deny on stdout", (_name, input) => {
    const result = cursor(input);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toMatchObject({ permission: "deny" });
    expect(result.stderr).toContain("the call is blocked");
  });
});

describe("one canonical policy, every host", () => {
  /** The same action as each host sends it, and the decision each host ends up with. */
  const actions: { name: string; codex: string; cursor: string; opencode: [string, unknown] }[] = [
    {
      name: "git status",
      codex: codexPayload("Bash", { command: "git status" }),
      cursor: cursorPayload("beforeShellExecution", { command: "git status", cwd: PROJECT }),
      opencode: ["bash", { command: "git status" }],
    },
    {
      name: "rm -rf /",
      codex: codexPayload("Bash", { command: "rm -rf /" }),
      cursor: cursorPayload("beforeShellExecution", { command: "rm -rf /", cwd: PROJECT }),
      opencode: ["bash", { command: "rm -rf /" }],
    },
    {
      name: "cat .env",
      codex: codexPayload("Bash", { command: "cat .env" }),
      cursor: cursorPayload("beforeShellExecution", { command: "cat .env", cwd: PROJECT }),
      opencode: ["bash", { command: "cat .env" }],
    },
    {
      name: "npm test",
      codex: codexPayload("Bash", { command: "npm test" }),
      cursor: cursorPayload("beforeShellExecution", { command: "npm test", cwd: PROJECT }),
      opencode: ["bash", { command: "npm test" }],
    },
    {
      name: "an MCP query",
      codex: codexPayload("mcp__db__query", { sql: "select 1" }),
      cursor: cursorPayload("beforeMCPExecution", { tool_name: "query", tool_input: { sql: "select 1" } }),
      opencode: ["db_query", { sql: "select 1" }],
    },
    {
      name: "reading .env",
      codex: codexPayload("Bash", { command: "cat config/.env" }),
      cursor: cursorPayload("beforeReadFile", { file_path: `${PROJECT}/config/.env`, content: "" }),
      opencode: ["read", { filePath: `${PROJECT}/config/.env` }],
    },
  ];

  it.each(actions)(
    "$name gets one decision from Codex, Cursor and OpenCode",
    async ({ codex: c, cursor: k, opencode: o }) => {
      const hooks = await toolgatePlugin({ config: PACK })({ directory: PROJECT });
      const fromOpenCode = await hooks["tool.execute.before"]({ tool: o[0] }, { args: o[1] }).then(
        () => "allow",
        (error: Error) => (error.message.includes("needs a person's approval") ? "ask" : "deny"),
      );
      const fromCursor = (JSON.parse(cursor(k).stdout) as { permission: string }).permission;
      const fromCodex = codex(c);
      // Codex cannot ask: its ask is a deny that names the approval; the policy's decision is the same.
      const codexDecision =
        fromCodex.stdout === ""
          ? "allow"
          : (
                JSON.parse(fromCodex.stdout) as { hookSpecificOutput: { permissionDecisionReason: string } }
              ).hookSpecificOutput.permissionDecisionReason.includes("needs a person's approval")
            ? "ask"
            : "deny";
      expect(codexDecision).toBe(fromCursor);
      expect(fromOpenCode).toBe(fromCursor);
    },
  );
});
