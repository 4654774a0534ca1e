/**
 * Gemini CLI's `BeforeTool` command hook as a host: the payload on stdin, the calls that stand for it (see
 * `geminiCliCalls`), and `decision` on stdout. It fails closed with exit code 2 and, because Gemini CLI parses
 * stdout first whatever the exit code, a deny on stdout as well: either reading blocks.
 */

import { aliasTable } from "../adapters/alias-calls.js";
import {
  type GeminiCliBeforeToolInput,
  geminiCliAliasCalls,
  geminiCliAnswer,
  geminiCliCalls,
  parseGeminiCliPayload,
} from "../adapters/gemini-cli-hook.js";
import { linkTarget } from "../adapters/hook-payload.js";
import { decideHookCalls, HOOK_EXIT, type HookAdapter, type HookHost, jsonReply } from "./hook-host.js";
import type { HostRead } from "./host-adapter.js";

/**
 * The Gemini CLI adapter. `askAs` is how an ask is answered: `ask` (Gemini CLI's `decision: "ask"`, its
 * confirmation prompt, since 0.36.0) or `deny` (a deny whose reason says a person's approval is needed).
 */
export function geminiCliAdapter(
  unreadable: "ask" | "deny",
  askAs: "ask" | "deny",
): HookAdapter<GeminiCliBeforeToolInput> {
  return {
    host: "gemini-cli",
    role: "hook",
    read: (text): HostRead<GeminiCliBeforeToolInput> => {
      const parsed = parseGeminiCliPayload(text);
      return parsed.ok ? { ok: true, message: parsed.payload } : parsed;
    },
    toCalls: (payload, scope) => {
      const table = aliasTable(scope.aliases, "gemini-cli");
      const aliased = geminiCliAliasCalls(payload, scope.declared, scope.roots, linkTarget, table);
      // Canonical calls carry project paths relative to it, as the canonical rules are written.
      if (aliased !== undefined) return { calls: aliased, context: {} };
      return {
        calls: geminiCliCalls(payload, scope.declared, scope.roots, linkTarget),
        context: {},
        ...(payload.mcp_context === undefined
          ? { sent: { callId: "gemini-cli", toolName: payload.tool_name, arguments: payload.tool_input } }
          : {}),
      };
    },
    decide: (controller, calls) => decideHookCalls(controller, calls, unreadable),
    answer: ({ action, reason }) =>
      jsonReply(
        action === "ask" && askAs === "deny"
          ? geminiCliAnswer(
              "deny",
              `${reason}; this call needs a person's approval, and this hook answers asks with deny (--ask deny): a person can run it themselves, or a rule in the toolgate policy can allow it`,
            )
          : geminiCliAnswer(action, reason),
      ),
    failClosed: {
      exitCode: HOOK_EXIT.block,
      answer: (reason) => {
        const text = `toolgate: ${reason}; the tool call is blocked`;
        return {
          exitCode: HOOK_EXIT.block,
          stdout: `${JSON.stringify(geminiCliAnswer("deny", text))}\n`,
          stderr: `${text}\n`,
        };
      },
    },
  };
}

/** `toolgate hook gemini-cli`. */
export const geminiCliHost: HookHost = {
  name: "gemini-cli",
  events: "Gemini CLI's BeforeTool",
  projectVariable: "GEMINI_PROJECT_DIR",
  options: [
    {
      key: "ask",
      valueName: "answer",
      description:
        'ask or deny: answer an ask with Gemini CLI\'s "ask" (its confirmation prompt, 0.36.0 or later) or a deny saying approval is needed',
      default: "ask",
      choices: ["ask", "deny"],
      invalid: (got) => `--ask must be ask or deny, got "${got}"; an ask is never answered with allow`,
    },
  ],
  adapter: (options) => geminiCliAdapter(options.unreadable, options.ask === "deny" ? "deny" : "ask"),
};
