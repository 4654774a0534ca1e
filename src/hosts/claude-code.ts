/**
 * Claude Code's `PreToolUse` command hook as a host: the payload on stdin, the calls that stand for it (see
 * `hookCalls`), and `hookSpecificOutput.permissionDecision` on stdout. It fails closed with exit code 2, which
 * blocks the tool call and shows stderr to Claude as the reason.
 */

import { aliasTable } from "../adapters/alias-calls.js";
import {
  type ClaudeCodePreToolUseInput,
  hookAliasCalls,
  hookAnswer,
  hookCalls,
  parseHookPayload,
} from "../adapters/claude-code-hook.js";
import { linkTarget } from "../adapters/hook-payload.js";
import {
  BLOCK_WITH_REASON_ON_STDERR,
  decideHookCalls,
  type HookAdapter,
  type HookHost,
  jsonReply,
} from "./hook-host.js";
import type { HostRead } from "./host-adapter.js";

/** The payload facts a policy may match under `context:`, when the config's context_schema declares them. */
const CONTEXT_FIELDS = ["permission_mode", "agent_type", "agent_id"] as const;

/**
 * The caller context for a payload: each of `permission_mode`, `agent_type` and `agent_id` that the
 * configuration's `context_schema` declares under `properties`, when the payload has it. A context that then
 * fails the schema makes the call unreadable (never allowed).
 */
function hookContext(
  payload: ClaudeCodePreToolUseInput,
  schema: unknown,
): { readonly [key: string]: unknown } {
  const properties =
    typeof schema === "object" && schema !== null
      ? (schema as { properties?: unknown }).properties
      : undefined;
  if (typeof properties !== "object" || properties === null) return {};
  const context: { [key: string]: unknown } = {};
  for (const field of CONTEXT_FIELDS) {
    const value = (payload as unknown as Record<string, unknown>)[field];
    if (Object.hasOwn(properties, field) && value !== undefined) context[field] = value;
  }
  return context;
}

/** The Claude Code adapter, answering a call toolgate cannot read with `unreadable`. */
export function claudeCodeAdapter(unreadable: "ask" | "deny"): HookAdapter<ClaudeCodePreToolUseInput> {
  return {
    host: "claude-code",
    role: "hook",
    read: (text): HostRead<ClaudeCodePreToolUseInput> => {
      const parsed = parseHookPayload(text);
      return parsed.ok ? { ok: true, message: parsed.payload } : parsed;
    },
    toCalls: (payload, scope) => {
      const context = hookContext(payload, scope.contextSchema);
      const table = aliasTable(scope.aliases, "claude-code");
      const aliased = hookAliasCalls(payload, scope.declared, scope.roots, linkTarget, table);
      // Canonical calls carry project paths relative to it, as the canonical rules are written.
      if (aliased !== undefined) return { calls: aliased, context };
      return {
        calls: hookCalls(payload, scope.declared, scope.roots, linkTarget),
        context,
        ...(payload.tool_name.startsWith("mcp__")
          ? {}
          : { sent: { callId: "claude-code", toolName: payload.tool_name, arguments: payload.tool_input } }),
      };
    },
    decide: (controller, calls) => decideHookCalls(controller, calls, unreadable),
    answer: (decision) => jsonReply(hookAnswer(decision.action, decision.reason)),
    failClosed: BLOCK_WITH_REASON_ON_STDERR,
  };
}

/** `toolgate hook claude-code`. */
export const claudeCodeHost: HookHost = {
  name: "claude-code",
  events: "Claude Code's PreToolUse",
  projectVariable: "CLAUDE_PROJECT_DIR",
  options: [],
  adapter: (options) => claudeCodeAdapter(options.unreadable),
};
