/**
 * The Gemini CLI hook adapter in-process: reading the `BeforeTool` payload, the calls that stand for it (paths
 * read against the project directory, the MCP stand-in) and the answer. (The built command on recorded
 * payloads is test/cli/hook-gemini-cli.test.ts.)
 */
import { describe, expect, it } from "vitest";
import {
  type GeminiCliBeforeToolInput,
  geminiCliAnswer,
  geminiCliCalls,
  parseGeminiCliPayload,
} from "../../src/adapters/gemini-cli-hook.js";

const CWD = "/home/dev/project";

const payload = (tool_name: string, tool_input: Record<string, unknown>, extra: object = {}) =>
  ({
    session_id: "s",
    transcript_path: "/home/dev/.gemini/tmp/h/chats/session.json",
    cwd: CWD,
    hook_event_name: "BeforeTool",
    timestamp: "2026-12-02T10:15:42.118Z",
    tool_name,
    tool_input,
    ...extra,
  }) as GeminiCliBeforeToolInput;

const none = () => false;

describe("parseGeminiCliPayload", () => {
  it("reads a BeforeTool payload", () => {
    const read = parseGeminiCliPayload(JSON.stringify(payload("read_file", { file_path: "a" })));
    expect(read).toEqual({ ok: true, payload: payload("read_file", { file_path: "a" }) });
  });

  it.each([
    ["", "not JSON"],
    ["[]", "not a plain JSON object"],
    [JSON.stringify({ ...payload("read_file", {}), hook_event_name: "PreToolUse" }), "BeforeTool only"],
    [JSON.stringify({ ...payload("read_file", {}), tool_name: "" }), "tool_name"],
    [JSON.stringify({ ...payload("read_file", {}), tool_input: null }), "tool_input is null"],
    [JSON.stringify({ ...payload("read_file", {}), cwd: "." }), "not an absolute path"],
    [JSON.stringify(payload("mcp_a_b", {}, { mcp_context: "github" })), "mcp_context.server_name"],
    [JSON.stringify(payload("mcp_a_b", {}, { mcp_context: { server_name: "a" } })), "mcp_context.tool_name"],
  ])("refuses %j (%s)", (text, reason) => {
    const read = parseGeminiCliPayload(text);
    expect(read.ok).toBe(false);
    expect(read.ok ? "" : read.reason).toContain(reason);
  });

  it("names the settings file and event to register under when the event is another", () => {
    const read = parseGeminiCliPayload(JSON.stringify({ ...payload("x", {}), hook_event_name: "AfterTool" }));
    expect(read).toEqual({
      ok: false,
      reason:
        'hook_event_name is "AfterTool"; toolgate hook gemini-cli answers BeforeTool only (register it under "BeforeTool" in .gemini/settings.json)',
    });
  });
});

describe("geminiCliCalls", () => {
  it.each([
    ["read_file", "file_path"],
    ["write_file", "file_path"],
    ["replace", "file_path"],
    ["glob", "dir_path"],
    ["grep_search", "dir_path"],
    ["list_directory", "dir_path"],
    ["run_shell_command", "dir_path"],
  ])("%s: an absolute %s inside the project becomes relative to it", (tool, field) => {
    const calls = geminiCliCalls(payload(tool, { [field]: `${CWD}/src/a`, other: 1 }), none);
    expect(calls).toEqual([
      { callId: "gemini-cli", toolName: tool, arguments: { [field]: "src/a", other: 1 } },
    ]);
  });

  it("keeps a relative path, an outside path and a field of another tool as they are", () => {
    expect(geminiCliCalls(payload("read_file", { file_path: "src/a.ts" }), none)[0]?.arguments).toEqual({
      file_path: "src/a.ts",
    });
    expect(geminiCliCalls(payload("read_file", { file_path: "/etc/hosts" }), none)[0]?.arguments).toEqual({
      file_path: "/etc/hosts",
    });
    expect(geminiCliCalls(payload("web_fetch", { prompt: `${CWD}/x` }), none)[0]?.arguments).toEqual({
      prompt: `${CWD}/x`,
    });
  });

  it("reads a path inside the project only when case is ignored both ways", () => {
    const calls = geminiCliCalls(payload("read_file", { file_path: "/home/dev/PROJECT/.env" }), none);
    expect(calls.map((call) => call.arguments)).toEqual([
      { file_path: "/home/dev/PROJECT/.env" },
      { file_path: ".env" },
    ]);
  });

  it("reads paths against the given project directory, not cwd", () => {
    const calls = geminiCliCalls(
      payload("read_file", { file_path: `${CWD}/src/a.ts` }, { cwd: `${CWD}/packages/app` }),
      none,
      CWD,
    );
    expect(calls[0]?.arguments).toEqual({ file_path: "src/a.ts" });
  });

  it("an MCP call becomes the MCP stand-in: server and tool from mcp_context, else from the name", () => {
    const input = { title: "x" };
    expect(
      geminiCliCalls(
        payload("mcp_my_server_create", input, {
          mcp_context: { server_name: "my_server", tool_name: "create" },
        }),
        none,
      ),
    ).toEqual([
      {
        callId: "gemini-cli",
        toolName: "MCP",
        arguments: { name: "mcp_my_server_create", server: "my_server", tool: "create", input },
      },
    ]);
    expect(geminiCliCalls(payload("mcp_github_create_issue", input), none)[0]?.arguments).toEqual({
      name: "mcp_github_create_issue",
      server: "github",
      tool: "create_issue",
      input,
    });
    expect(geminiCliCalls(payload("mcp_lonely", input), none)[0]?.arguments).toMatchObject({
      server: "lonely",
      tool: "",
    });
    expect(geminiCliCalls(payload("github__create_issue", input), none)[0]?.arguments).toMatchObject({
      server: "github",
      tool: "create_issue",
    });
  });

  it("an MCP tool the configuration declares by its exact name is decided as itself", () => {
    const calls = geminiCliCalls(
      payload("mcp_github_create_issue", { title: "x" }),
      (name) => name === "mcp_github_create_issue",
    );
    expect(calls).toEqual([
      { callId: "gemini-cli", toolName: "mcp_github_create_issue", arguments: { title: "x" } },
    ]);
  });
});

describe("geminiCliAnswer", () => {
  it("writes decision and reason, and for ask the reason again as the prompt's systemMessage", () => {
    expect(geminiCliAnswer("allow", "r")).toEqual({ decision: "allow", reason: "r" });
    expect(geminiCliAnswer("deny", "r")).toEqual({ decision: "deny", reason: "r" });
    expect(geminiCliAnswer("ask", "r")).toEqual({ decision: "ask", reason: "r", systemMessage: "r" });
  });
});
