/**
 * Codex's `PreToolUse` and `PermissionRequest` command hooks as a host. Codex lets a call run on anything but
 * a well-formed deny or exit code 2, so an ask is answered as a deny under `PreToolUse`, and it fails closed
 * with exit code 2 (stderr is shown to the model as the reason).
 */

import { aliasTable } from "../adapters/alias-calls.js";
import { type CodexHookInput, codexAnswer, codexCalls, parseCodexPayload } from "../adapters/codex-hook.js";
import { linkTarget } from "../adapters/hook-payload.js";
import {
  BLOCK_WITH_REASON_ON_STDERR,
  decideHookCalls,
  HOOK_EXIT,
  type HookAdapter,
  type HookHost,
} from "./hook-host.js";
import type { HostRead } from "./host-adapter.js";

/** The Codex adapter for the registration's `event`. */
export function codexAdapter(
  unreadable: "ask" | "deny",
  event: "PreToolUse" | "PermissionRequest",
): HookAdapter<CodexHookInput> {
  return {
    host: "codex",
    role: "hook",
    read: (text): HostRead<CodexHookInput> => {
      const parsed = parseCodexPayload(text, event);
      return parsed.ok ? { ok: true, message: parsed.payload } : parsed;
    },
    toCalls: (payload, scope) => {
      const table = aliasTable(scope.aliases, "codex");
      return { calls: codexCalls(payload, scope.declared, scope.roots, linkTarget, table), context: {} };
    },
    decide: (controller, calls) => decideHookCalls(controller, calls, unreadable),
    answer: ({ action, reason }) => {
      const answer = codexAnswer(event, action, reason);
      return {
        exitCode: HOOK_EXIT.answered,
        ...(answer === undefined ? {} : { stdout: `${JSON.stringify(answer)}\n` }),
      };
    },
    failClosed: BLOCK_WITH_REASON_ON_STDERR,
  };
}

/** `toolgate hook codex`. */
export const codexHost: HookHost = {
  name: "codex",
  events: "Codex's PreToolUse or PermissionRequest",
  options: [
    {
      key: "event",
      valueName: "name",
      description: "PreToolUse or PermissionRequest: the event this registration answers",
      default: "PreToolUse",
      choices: ["PreToolUse", "PermissionRequest"],
      invalid: (got) => `--event must be PreToolUse or PermissionRequest, got "${got}"`,
    },
  ],
  adapter: (options) =>
    codexAdapter(
      options.unreadable,
      options.event === "PermissionRequest" ? "PermissionRequest" : "PreToolUse",
    ),
};
