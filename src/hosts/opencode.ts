/**
 * OpenCode's plugin hook (`tool.execute.before`) as a host: the tool's name and arguments are read into the
 * canonical coding-agent tools (policies/packs/agents) — `bash` → `shell`, `read` → `read_file`,
 * `write`/`edit`/`patch` → `write_file`, `grep`/`glob`/`list` → `search`, `webfetch` → `web_fetch`, any other
 * tool → `mcp_call` (OpenCode names MCP tools `SERVER_TOOL`) — unless the configuration declares a tool of that
 * exact name. The strictest decision over the calls wins. A plugin cannot ask, so the answer lets the call run
 * on allow and refuses it otherwise; it fails closed by refusing (the plugin throws, and the model reads why).
 */
import { projectReadings } from "../adapters/hook-payload.js";
import { copyJsonObject, type JsonObject } from "../adapters/json-data.js";
import type { ToolCall } from "../runtime/types.js";
import { decideHookCalls } from "./hook-host.js";
import type { HostAdapter, HostRead } from "./host-adapter.js";

/** One `tool.execute.before` as the plugin receives it: `input.tool` and `output.args`. */
export interface OpenCodeCallInput {
  readonly tool: string;
  readonly args: unknown;
}

/** An OpenCode tool call once read: its arguments are a plain JSON object. */
export interface OpenCodeMessage {
  readonly tool: string;
  readonly args: JsonObject;
}

/** What the plugin does with a call: let it run, or refuse it with a message the model reads. */
export type OpenCodeAnswer =
  | { readonly action: "run" }
  | { readonly action: "refuse"; readonly message: string };

/** OpenCode's file tools (each with its path in `filePath`): the canonical tool and operation. */
const FILE_TOOLS: ReadonlyMap<string, { readonly tool: string; readonly operation?: string }> = new Map([
  ["read", { tool: "read_file" }],
  ["write", { tool: "write_file", operation: "update" }],
  ["edit", { tool: "write_file", operation: "update" }],
  ["patch", { tool: "write_file", operation: "update" }],
]);

/** OpenCode's search tools, read as `search` (`path`, `pattern`, `include`). */
const SEARCH_TOOLS = new Set(["grep", "glob", "list"]);

/**
 * The canonical calls that stand for one OpenCode tool call (two when a path could be read two ways); the
 * plugin decides each and keeps the strictest answer.
 */
export function openCodeCalls(
  tool: string,
  args: JsonObject,
  projectDir: string,
  declared: (name: string) => boolean,
): readonly ToolCall[] {
  const callId = "opencode";
  if (declared(tool)) return [{ callId, toolName: tool, arguments: args }];
  if (tool === "bash") return [{ callId, toolName: "shell", arguments: { command: args.command ?? null } }];
  if (tool === "webfetch") return [{ callId, toolName: "web_fetch", arguments: { url: args.url ?? null } }];
  const file = FILE_TOOLS.get(tool);
  if (file !== undefined) {
    const path = args.filePath;
    if (typeof path !== "string") return [{ callId, toolName: file.tool, arguments: { path: null } }];
    return projectReadings(path, projectDir).map((reading) => ({
      callId,
      toolName: file.tool,
      arguments: { path: reading, ...(file.operation === undefined ? {} : { operation: file.operation }) },
    }));
  }
  if (SEARCH_TOOLS.has(tool)) {
    const fields: JsonObject = {};
    if (typeof args.pattern === "string") fields.pattern = args.pattern;
    if (typeof args.include === "string") fields.include = args.include;
    const path = args.path;
    if (path === undefined) return [{ callId, toolName: "search", arguments: fields }];
    if (typeof path !== "string")
      return [{ callId, toolName: "search", arguments: { ...fields, path: null } }];
    return projectReadings(path, projectDir).map((reading) => ({
      callId,
      toolName: "search",
      arguments: { ...fields, path: reading },
    }));
  }
  const split = tool.indexOf("_");
  const server = split < 0 ? tool : tool.slice(0, split);
  return [
    {
      callId,
      toolName: "mcp_call",
      arguments: { name: tool, server, tool: split < 0 ? "" : tool.slice(split + 1), input: args },
    },
  ];
}

/** The OpenCode adapter. Paths are read against the first root, the project directory (OpenCode's worktree). */
export const openCodeAdapter: HostAdapter<OpenCodeCallInput, OpenCodeMessage, OpenCodeAnswer> = {
  host: "opencode",
  role: "hook",
  read({ tool, args }): HostRead<OpenCodeMessage> {
    const copied = copyJsonObject(args, { protoKey: "reject" });
    if (!copied.ok)
      return { ok: false, reason: `the tool's arguments are not plain JSON (${copied.reason})` };
    return { ok: true, message: { tool, args: copied.value } };
  },
  toCalls: ({ tool, args }, scope) => ({
    calls: openCodeCalls(tool, args, scope.roots[0] ?? ".", scope.declared),
    context: {},
  }),
  // An unreadable call is an ask, which the plugin refuses (it cannot ask a person).
  decide: (controller, calls) =>
    decideHookCalls(controller, calls, "ask", (content) => `toolgate cannot read this call (${content})`),
  answer: ({ action, reason }) => {
    if (action === "allow") return { action: "run" };
    return {
      action: "refuse",
      message:
        action === "ask"
          ? `${reason}; this call needs a person's approval, which the plugin cannot ask for: a person can run it themselves, or a rule in the toolgate policy can allow it`
          : reason,
    };
  },
  failClosed: {
    answer: (reason) => ({ action: "refuse", message: `toolgate: ${reason}; the tool call is blocked` }),
  },
};
