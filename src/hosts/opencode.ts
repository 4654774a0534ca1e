/**
 * OpenCode's plugin hook (`tool.execute.before`) as a host: the tool's name and arguments are read into the
 * canonical coding-agent tools through the configuration's OpenCode aliases (policies/packs/agents: `bash` →
 * `shell`, `read` → `read_file`, `write`/`edit`/`patch` → `write_file`, `grep`/`glob`/`list` → `search`,
 * `webfetch` → `web_fetch`, `SERVER_TOOL` → `mcp_call`), unless the configuration declares a tool of that
 * exact name. The strictest decision over the calls wins. A plugin cannot ask, so the answer lets the call run
 * on allow and refuses it otherwise; it fails closed by refusing (the plugin throws, and the model reads why).
 */
import { aliasCalls, aliasTable } from "../adapters/alias-calls.js";
import { linkedReadings, linkTarget } from "../adapters/hook-payload.js";
import { copyJsonObject, type JsonObject } from "../adapters/json-data.js";
import type { ToolAlias } from "../runtime/tool-aliases.js";
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

/**
 * The canonical calls that stand for one OpenCode tool call (two when a path could be read two ways), read
 * through the configuration's OpenCode aliases (`policies/packs/agents`); the plugin decides each and keeps
 * the strictest answer. A tool the configuration declares by its own name (and that is not a canonical tool)
 * is decided as sent, as is a tool with no alias (an unknown tool, never allowed). Paths are read against the
 * roots (the project directory first), and a symbolic link also as its target, as the hooks read them.
 */
export function openCodeCalls(
  tool: string,
  args: JsonObject,
  roots: string | readonly string[],
  declared: (name: string) => boolean,
  aliases: readonly ToolAlias[] = [],
): readonly ToolCall[] {
  const callId = "opencode";
  const asSent = { callId, toolName: tool, arguments: args };
  const table = aliasTable(aliases, "opencode");
  if (table.decidesAsItself(tool, declared)) return [asSent];
  const reading = { table, readPath: (path: string) => linkedReadings(path, roots, linkTarget) };
  return aliasCalls(reading, { name: tool, arguments: args }, callId) ?? [asSent];
}

/** The OpenCode adapter. Paths are read against the roots, the project directory (OpenCode's worktree) first. */
export const openCodeAdapter: HostAdapter<OpenCodeCallInput, OpenCodeMessage, OpenCodeAnswer> = {
  host: "opencode",
  role: "hook",
  read({ tool, args }): HostRead<OpenCodeMessage> {
    const copied = copyJsonObject(args, { protoKey: "reject" });
    if (!copied.ok)
      return { ok: false, reason: `the tool's arguments are not plain JSON (${copied.reason})` };
    return { ok: true, message: { tool, args: copied.value } };
  },
  toCalls: ({ tool, args }, scope) => {
    const calls = openCodeCalls(tool, args, scope.roots, scope.declared, scope.aliases ?? []);
    return { calls, context: {} };
  },
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
