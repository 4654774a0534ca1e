/**
 * One host tool call, given by its name and arguments, read exactly as that host's hook (or plugin) reads it:
 * the host's payload is built around the call, read by the host's adapter, and turned into canonical calls
 * by the adapter's `toCalls` — the declared-name rule, the aliases, the host's own readings (Codex's patch
 * per file, Claude Code's search directory, MCP server names) and the path readings all as a real call gets
 * them. `toolgate explain --host` uses it, so what it shows is what the hook decides.
 */
import type { JsonObject } from "../adapters/json-data.js";
import type { AliasHost } from "../runtime/tool-aliases.js";
import type { ToolCall } from "../runtime/types.js";
import { UNREADABLE_OPTION } from "./hook-host.js";
import { HOOK_HOSTS } from "./hook-hosts.js";
import type { HostScope } from "./host-adapter.js";
import { openCodeAdapter } from "./opencode.js";

/** The canonical calls for the host call, or why the host's adapter cannot read it. */
export type HostToolCalls =
  | { readonly ok: true; readonly calls: readonly ToolCall[] }
  | { readonly ok: false; readonly reason: string };

/** The payload a hook host would send for this call, in the project `project`. */
function payloadOf(host: AliasHost, tool: string, args: JsonObject, project: string): unknown {
  const common = { session_id: "explain", cwd: project, tool_name: tool, tool_input: args };
  switch (host) {
    case "claude-code":
      return { ...common, transcript_path: "", hook_event_name: "PreToolUse", tool_use_id: "explain" };
    case "gemini-cli":
      return {
        ...common,
        transcript_path: "",
        hook_event_name: "BeforeTool",
        timestamp: new Date(0).toISOString(),
      };
    case "codex":
      return {
        ...common,
        turn_id: "explain",
        transcript_path: null,
        hook_event_name: "PreToolUse",
        model: "explain",
        permission_mode: "default",
        tool_use_id: "explain",
      };
    case "cursor":
      // The event is Cursor's tool; its fields are the arguments.
      return {
        ...args,
        hook_event_name: tool,
        conversation_id: "explain",
        generation_id: "explain",
        workspace_roots: [project],
        cwd: project,
      };
    case "opencode":
      return undefined;
  }
}

/**
 * The canonical calls a host's hook makes of one of its tool calls. `scope.roots` starts with the project
 * directory, as a hook's roots do.
 */
export function hostToolCalls(
  host: AliasHost,
  tool: string,
  args: JsonObject,
  scope: HostScope,
): HostToolCalls {
  const project = scope.roots[0] ?? "/";
  if (host === "opencode") {
    const read = openCodeAdapter.read({ tool, args });
    if (!read.ok) return read;
    return { ok: true, calls: openCodeAdapter.toCalls(read.message, scope).calls };
  }
  const hookHost = HOOK_HOSTS.get(host);
  if (hookHost === undefined) return { ok: false, reason: `no hook reads ${host}'s calls` };
  const options: { [key: string]: string } = {};
  for (const option of [...hookHost.options, UNREADABLE_OPTION]) options[option.key] = option.default;
  const adapter = hookHost.adapter(options as { unreadable: "ask" | "deny"; [key: string]: string });
  const read = adapter.read(JSON.stringify(payloadOf(host, tool, args, project)));
  if (!read.ok) return read;
  return { ok: true, calls: adapter.toCalls(read.message, scope).calls };
}
