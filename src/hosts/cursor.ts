/**
 * Cursor's `beforeShellExecution`, `beforeMCPExecution` and `beforeReadFile` hooks as a host: one payload per
 * event, `permission` on stdout. It fails closed with exit code 2 and the same refusal on stdout, so either
 * reading blocks.
 */

import { aliasTable } from "../adapters/alias-calls.js";
import {
  type CursorHookInput,
  cursorAnswer,
  cursorCalls,
  parseCursorPayload,
} from "../adapters/cursor-hook.js";
import { linkTarget } from "../adapters/hook-payload.js";
import { decideHookCalls, HOOK_EXIT, type HookAdapter, type HookHost, jsonReply } from "./hook-host.js";
import type { HostRead } from "./host-adapter.js";

/** The Cursor adapter. */
export function cursorAdapter(unreadable: "ask" | "deny"): HookAdapter<CursorHookInput> {
  return {
    host: "cursor",
    role: "hook",
    read: (text): HostRead<CursorHookInput> => {
      const parsed = parseCursorPayload(text);
      return parsed.ok ? { ok: true, message: parsed.payload } : parsed;
    },
    // Cursor's workspace roots come first; the project directory is the payload's cwd among them.
    toCalls: (payload, scope) => {
      const table = aliasTable(scope.aliases, "cursor");
      return { calls: cursorCalls(payload, scope.roots.slice(1), linkTarget, table), context: {} };
    },
    decide: (controller, calls) => decideHookCalls(controller, calls, unreadable),
    answer: ({ action, reason }, payload) => jsonReply(cursorAnswer(payload.hook_event_name, action, reason)),
    failClosed: {
      exitCode: HOOK_EXIT.block,
      answer: (reason) => {
        const text = `toolgate: ${reason}; the call is blocked`;
        return {
          exitCode: HOOK_EXIT.block,
          stdout: `${JSON.stringify({ permission: "deny", user_message: text, agent_message: text })}\n`,
          stderr: `${text}\n`,
        };
      },
    },
  };
}

/** `toolgate hook cursor`. */
export const cursorHost: HookHost = {
  name: "cursor",
  events: "Cursor's beforeShellExecution, beforeMCPExecution and beforeReadFile",
  options: [],
  adapter: (options) => cursorAdapter(options.unreadable),
};
