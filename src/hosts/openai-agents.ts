/**
 * The OpenAI Agents SDK as a host: each SDK tool call (`needsApproval`, `execute`) is read into one canonical
 * call with the run's caller context, `AgentsGate` hands it to its controller (`explain` to find an ask,
 * `handle` to run it), and the answer is the text the model reads as the tool's output. It fails closed with a
 * refusal text: nothing runs. The SDK is not imported here, so that the registry of hosts never loads it.
 */
import type { ToolCall, ToolContext, ToolSpec } from "../runtime/types.js";
import { type FrameworkOutcome, isApprovalRequest, waitingMessage } from "./framework-outcome.js";
import type { HostAdapter } from "./host-adapter.js";

/** An SDK tool call as `AgentsGate` receives it. */
export interface AgentsCallInput {
  readonly spec: ToolSpec;
  /** The arguments the SDK parsed. */
  readonly input: unknown;
  /** The SDK's call id, when it gives one. */
  readonly callId: string | undefined;
  /** The run's caller facts (`AgentsGateOptions.context`). */
  readonly context: ToolContext;
}

/** An SDK tool call once read. */
export interface AgentsMessage {
  readonly call: ToolCall;
  readonly context: ToolContext;
}

/** What the controller's `handle` gave a call. */
export type AgentsOutcome = FrameworkOutcome;

/** The OpenAI Agents adapter. */
export const openAIAgentsAdapter: HostAdapter<AgentsCallInput, AgentsMessage, string, AgentsOutcome> = {
  host: "openai-agents",
  role: "framework",
  read: ({ spec, input, callId, context }) => ({
    ok: true,
    message: {
      call: { callId: callId ?? `agents_${Date.now()}`, toolName: spec.name, arguments: input },
      context,
    },
  }),
  toCalls: ({ call, context }) => ({ calls: [call], context }),
  answer: (outcome) => (isApprovalRequest(outcome) ? waitingMessage(outcome) : outcome.content),
  failClosed: { answer: (reason) => `${reason}; nothing ran` },
};
