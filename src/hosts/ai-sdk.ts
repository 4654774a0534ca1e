/**
 * The Vercel AI SDK as a host: each SDK tool call (`needsApproval`, `execute`) is read into one canonical call
 * with the caller context and the person's answer the conversation carries for it (a `tool-approval-response`),
 * `AiSdkGate` hands it to its controller through the approval bridge, and the answer is the tool's output or a
 * refusal, which the gate throws so that the SDK hands it to the model as the tool's error. It fails closed
 * with a refusal: nothing runs. The SDK is only referenced by type, so that loading this file never loads it.
 */
import type { ModelMessage, ToolApprovalResponse } from "ai";
import type { ToolCall, ToolContext, ToolResult, ToolSpec } from "../runtime/types.js";
import { type FrameworkOutcome, isApprovalRequest, waitingMessage } from "./framework-outcome.js";
import type { HostAdapter } from "./host-adapter.js";

/** An SDK tool call as `AiSdkGate` receives it. */
export interface AiSdkCallInput {
  readonly spec: ToolSpec;
  /** The arguments the SDK parsed. */
  readonly input: unknown;
  readonly toolCallId: string;
  /** The conversation so far, where a person's answer to this call's approval request comes back. */
  readonly messages: readonly ModelMessage[];
  /** The caller facts (`AiSdkGateOptions.context`). */
  readonly context: ToolContext;
}

/** An SDK tool call once read. */
export interface AiSdkMessage {
  readonly call: ToolCall;
  readonly context: ToolContext;
  /** The SDK's answer to this call's approval request, when the conversation carries one. */
  readonly approval?: ToolApprovalResponse;
}

/** What the gate does with an outcome: return the tool's output, or throw the refusal (nothing ran). */
export type AiSdkAnswer =
  | { readonly kind: "output"; readonly output: string }
  | { readonly kind: "refused"; readonly result: ToolResult };

/** The AI SDK adapter. */
export const aiSdkAdapter: HostAdapter<AiSdkCallInput, AiSdkMessage, AiSdkAnswer, FrameworkOutcome> = {
  host: "ai-sdk",
  role: "framework",
  read: ({ spec, input, toolCallId, messages, context }) => {
    const approval = aiSdkApprovalResponses(messages).find(
      (entry) => entry.call.callId === toolCallId,
    )?.response;
    return {
      ok: true,
      message: {
        call: { callId: toolCallId, toolName: spec.name, arguments: input },
        context,
        ...(approval === undefined ? {} : { approval }),
      },
    };
  },
  toCalls: ({ call, context }) => ({ calls: [call], context }),
  answer: (outcome, { call }) => {
    if (isApprovalRequest(outcome)) {
      return {
        kind: "refused",
        result: { callId: call.callId, content: waitingMessage(outcome), isError: true },
      };
    }
    return outcome.isError
      ? { kind: "refused", result: outcome }
      : { kind: "output", output: outcome.content };
  },
  failClosed: {
    answer: (reason) => ({
      kind: "refused",
      result: { callId: "ai-sdk", content: `${reason}; nothing ran`, isError: true },
    }),
  },
};

/** Every `tool-approval-response` of the messages with the tool call its request was for. */
export function aiSdkApprovalResponses(
  messages: readonly ModelMessage[],
): { response: ToolApprovalResponse; call: ToolCall }[] {
  const calls = new Map<string, ToolCall>();
  const requests = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== "assistant" || typeof message.content === "string") continue;
    for (const part of message.content) {
      if (part.type === "tool-call") {
        calls.set(part.toolCallId, {
          callId: part.toolCallId,
          toolName: part.toolName,
          arguments: part.input,
        });
      } else if (part.type === "tool-approval-request") {
        requests.set(part.approvalId, part.toolCallId);
      }
    }
  }
  const found: { response: ToolApprovalResponse; call: ToolCall }[] = [];
  for (const message of messages) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type !== "tool-approval-response") continue;
      const toolCallId = requests.get(part.approvalId);
      const call = toolCallId === undefined ? undefined : calls.get(toolCallId);
      if (call !== undefined) found.push({ response: part, call });
    }
  }
  return found;
}
