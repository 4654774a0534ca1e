/**
 * The Claude Agent SDK as a host: each call the SDK is about to run (its `PreToolUse` hook, its `canUseTool`
 * permission callback) is read exactly as `toolgate hook claude-code` reads Claude Code's — paths against the
 * project directory, MCP tools through the pack's `MCP` stand-in unless declared by name — into the canonical
 * calls that stand for it. `ClaudeAgentGate` decides them (the strictest, in the controller's mode) and hands
 * the deciding call to its controller through the approval bridge; the answer is the SDK's permission: allow
 * with exactly the input the SDK sent, or deny with toolgate's reason. It fails closed with a deny: nothing
 * runs. The SDK is only referenced by type, so that loading this file never loads it.
 */
import type { PermissionResult } from "@anthropic-ai/claude-agent-sdk";
import { type ClaudeCodePreToolUseInput, hookCalls } from "../adapters/claude-code-hook.js";
import { linkTarget } from "../adapters/hook-payload.js";
import type { ToolController } from "../runtime/controller.js";
import { applyMode } from "../runtime/mode.js";
import { ACTION_RANK } from "../runtime/statements.js";
import type { PolicyAction, ToolCall, ToolContext } from "../runtime/types.js";
import { type FrameworkOutcome, isApprovalRequest } from "./framework-outcome.js";
import type { CanonicalCalls, HostAdapter } from "./host-adapter.js";

/** A call the SDK is about to run, as `ClaudeAgentGate` receives it. */
export interface ClaudeAgentCallInput {
  readonly toolName: string;
  /** The tool's input as the SDK sent it. */
  readonly input: unknown;
  /** The SDK's tool-use id, when it gives one. */
  readonly toolUseId: string | undefined;
  /** Gives a call without an id its own; asked only then. */
  readonly nextCallId: () => string;
  /** The project directory the SDK works in. */
  readonly projectDir: string;
  /** The caller facts (`ClaudeAgentGateOptions.context`). */
  readonly context: ToolContext;
}

/** A call once read: as a Claude Code `PreToolUse` payload, with the caller facts. */
export interface ClaudeAgentMessage {
  readonly payload: ClaudeCodePreToolUseInput;
  readonly context: ToolContext;
}

/** What toolgate decided for one SDK call (the strictest over the calls that stand for it). */
export interface ClaudeAgentReading {
  readonly action: PolicyAction;
  readonly reason: string;
  /** The call that decided: the one to run or to ask about. */
  readonly call: ToolCall;
}

/** The Claude Agent SDK adapter. Its roots are the project directory. */
export const claudeAgentSdkAdapter: HostAdapter<
  ClaudeAgentCallInput,
  ClaudeAgentMessage,
  PermissionResult,
  FrameworkOutcome
> = {
  host: "claude-agent-sdk",
  role: "framework",
  read: ({ toolName, input, toolUseId, nextCallId, projectDir, context }) => ({
    ok: true,
    message: {
      payload: {
        session_id: "",
        transcript_path: "",
        cwd: projectDir,
        hook_event_name: "PreToolUse",
        tool_name: toolName,
        tool_input: input,
        tool_use_id: toolUseId ?? nextCallId(),
      },
      context,
    },
  }),
  toCalls: ({ payload, context }, scope) => ({
    calls: hookCalls(payload, scope.declared, scope.roots, linkTarget),
    context,
  }),
  answer: (outcome, { payload }) => {
    if (isApprovalRequest(outcome)) {
      return deny(
        `needs a person's approval (${outcome.reason}); approval ${outcome.approvalId} is waiting`,
        payload.tool_use_id,
      );
    }
    if (outcome.isError) return deny(outcome.content, payload.tool_use_id);
    // Exactly the input the SDK sent (the call that was decided and released).
    const updatedInput = structuredClone(payload.tool_input) as Record<string, unknown>;
    return { behavior: "allow", updatedInput, toolUseID: payload.tool_use_id };
  },
  failClosed: { answer: (reason) => ({ behavior: "deny", message: `${reason}; nothing ran` }) },
};

/**
 * Decides the calls that stand for one SDK call as `handle` would (the controller's mode applied); the
 * strictest wins. A call the policy cannot read, or no call at all, is denied.
 */
export function decideClaudeAgentCalls(
  controller: Pick<ToolController, "explain" | "mode">,
  canonical: CanonicalCalls,
): ClaudeAgentReading {
  let reading: ClaudeAgentReading | undefined;
  for (const call of canonical.calls) {
    const explained = controller.explain(call, canonical.context);
    const next: ClaudeAgentReading =
      "callId" in explained
        ? {
            action: "deny",
            reason: `toolgate cannot read this call (${explained.content}), so it does not run`,
            call,
          }
        : { ...describe(applyMode(explained.decision, controller.mode).decision), call };
    if (reading === undefined || ACTION_RANK[next.action] > ACTION_RANK[reading.action]) reading = next;
  }
  return (
    reading ?? {
      action: "deny",
      reason: "toolgate found no call to decide, so it does not run",
      call: canonical.calls[0] as ToolCall,
    }
  );
}

/** The in-process `PreToolUse` hook's answer for a decision (an ask reaches `canUseTool`). */
export function claudeAgentHookOutput(reading: Pick<ClaudeAgentReading, "action" | "reason">) {
  return {
    hookSpecificOutput: {
      hookEventName: "PreToolUse" as const,
      permissionDecision: reading.action,
      permissionDecisionReason: reading.reason,
    },
  };
}

function describe(decision: { action: PolicyAction; reason: string; ruleIds: readonly string[] }) {
  const rules = decision.ruleIds.length === 0 ? "" : ` [${decision.ruleIds.join(", ")}]`;
  return { action: decision.action, reason: `${decision.reason}${rules}` };
}

/** The SDK's refusal of a call. */
function deny(message: string, toolUseID: string): PermissionResult {
  return { behavior: "deny", message, toolUseID };
}
