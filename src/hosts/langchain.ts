/**
 * LangChain and LangGraph as a host: each tool call is read into one canonical call with the caller context
 * (LangChain's own call id, else one the gate gives it), `LangChainGate` hands it to its controller through the
 * approval bridge, an ask becomes LangGraph's `interrupt()` payload in the shape of LangChain's human-in-the-loop
 * middleware, the person's resume value is read back as a decision, and the answer is the tool's output or an
 * error tool message. It fails closed with an error message: nothing runs. LangChain is not imported here.
 */
import type { ApprovalRequest, ToolCall, ToolContext, ToolSpec } from "../runtime/types.js";
import { type FrameworkOutcome, isApprovalRequest, waitingMessage } from "./framework-outcome.js";
import type { HostAdapter } from "./host-adapter.js";

/** A LangChain tool call as `LangChainGate` receives it. */
export interface LangChainCallInput {
  readonly spec: ToolSpec;
  /** The arguments LangChain parsed. */
  readonly input: unknown;
  /** LangChain's call id (`config.toolCall.id`), when the tool was called by a model. */
  readonly toolCallId: string | undefined;
  /** Gives a call without an id its own; asked only then. */
  readonly nextCallId: () => string;
  /** The caller facts (`LangChainGateOptions.context`). */
  readonly context: ToolContext;
}

/** A LangChain tool call once read. */
export interface LangChainMessage {
  readonly call: ToolCall;
  readonly context: ToolContext;
}

/** What the tool returns: its output, or an error tool message with toolgate's text (nothing ran). */
export type LangChainAnswer =
  | { readonly kind: "output"; readonly content: string }
  | { readonly kind: "error"; readonly content: string };

/** One decision on an interrupted call, as LangChain's human-in-the-loop middleware takes it. */
export type LangChainDecision =
  | { readonly type: "approve"; readonly approver?: string; readonly reason?: string }
  | {
      readonly type: "edit";
      readonly editedAction: { readonly name: string; readonly args: Record<string, unknown> };
      readonly approver?: string;
      readonly reason?: string;
    }
  | { readonly type: "reject"; readonly message?: string; readonly approver?: string };

/** What a paused tool hands to `interrupt()`: the middleware's request shape plus toolgate's request. */
export interface ToolgateInterrupt {
  readonly actionRequests: readonly {
    readonly name: string;
    readonly args: unknown;
    readonly description: string;
  }[];
  readonly reviewConfigs: readonly {
    readonly actionName: string;
    readonly allowedDecisions: readonly ("approve" | "edit" | "reject")[];
  }[];
  readonly toolgate: {
    readonly approvalId: string;
    readonly toolName: string;
    readonly reason: string;
    readonly ruleIds: readonly string[];
    readonly expiresAt: string;
  };
}

/** The LangChain adapter. */
export const langChainAdapter: HostAdapter<
  LangChainCallInput,
  LangChainMessage,
  LangChainAnswer,
  FrameworkOutcome
> = {
  host: "langchain",
  role: "framework",
  read: ({ spec, input, toolCallId, nextCallId, context }) => ({
    ok: true,
    message: { call: { callId: toolCallId ?? nextCallId(), toolName: spec.name, arguments: input }, context },
  }),
  toCalls: ({ call, context }) => ({ calls: [call], context }),
  answer: (outcome) => {
    if (isApprovalRequest(outcome)) return { kind: "error", content: waitingMessage(outcome) };
    return { kind: outcome.isError ? "error" : "output", content: outcome.content };
  },
  failClosed: { answer: (reason) => ({ kind: "error", content: `${reason}; nothing ran` }) },
};

/** The `interrupt()` payload that asks a person about a call toolgate holds. */
export function langChainInterrupt(call: ToolCall, request: ApprovalRequest): ToolgateInterrupt {
  return {
    actionRequests: [
      {
        name: call.toolName,
        args: call.arguments,
        description: `${call.toolName} needs a person's approval: ${request.reason}`,
      },
    ],
    reviewConfigs: [{ actionName: call.toolName, allowedDecisions: ["approve", "edit", "reject"] }],
    toolgate: {
      approvalId: request.approvalId,
      toolName: call.toolName,
      reason: request.reason,
      ruleIds: request.ruleIds,
      expiresAt: new Date(request.expiresAt).toISOString(),
    },
  };
}

/** The person's answer from a resume value: a middleware-style `{ decisions: [...] }` or one decision. */
export function readLangChainDecision(value: unknown): LangChainDecision | undefined {
  const first =
    typeof value === "object" && value !== null && Array.isArray((value as { decisions?: unknown }).decisions)
      ? (value as { decisions: unknown[] }).decisions[0]
      : value;
  if (typeof first !== "object" || first === null) return undefined;
  const decision = first as Record<string, unknown>;
  const approver = typeof decision.approver === "string" ? { approver: decision.approver } : {};
  if (decision.type === "approve") {
    return {
      type: "approve",
      ...approver,
      ...(typeof decision.reason === "string" ? { reason: decision.reason } : {}),
    };
  }
  if (decision.type === "reject") {
    return {
      type: "reject",
      ...approver,
      ...(typeof decision.message === "string" ? { message: decision.message } : {}),
    };
  }
  if (decision.type === "edit") {
    const action = decision.editedAction as { name?: unknown; args?: unknown } | undefined;
    if (typeof action?.name !== "string" || typeof action.args !== "object" || action.args === null)
      return undefined;
    return {
      type: "edit",
      editedAction: { name: action.name, args: action.args as Record<string, unknown> },
      ...approver,
      ...(typeof decision.reason === "string" ? { reason: decision.reason } : {}),
    };
  }
  return undefined;
}
