/**
 * OpenAI's Chat Completions tool calls as a conversion-only host: `read` takes an assistant message (or a
 * response) apart into canonical calls, and `answer` turns the application's results back into `tool`
 * messages. There is no `decide`: the application decides with its own controller (`handle`). It fails closed
 * by reading: a call it cannot read never becomes a call, only an error result (`ConversionResult.errors`),
 * which `answer` sends back with the others, so the model hears that it did not run.
 */
import type { ConversionResult } from "../adapters/conversion.js";
import { fromOpenAIToolCalls, type OpenAIToolMessage, toOpenAIToolMessage } from "../adapters/openai.js";
import type { ToolResult } from "../runtime/types.js";
import type { HostAdapter } from "./host-adapter.js";

/** The OpenAI Chat Completions shape: an assistant message in, `tool` messages (one per call) out. */
export const openAIAdapter: HostAdapter<
  unknown,
  ConversionResult,
  OpenAIToolMessage[],
  readonly ToolResult[]
> = {
  host: "openai",
  role: "conversion",
  read: (message) => ({ ok: true, message: fromOpenAIToolCalls(message) }),
  toCalls: (read) => ({ calls: read.calls, context: {} }),
  // The read's error results first: the API expects an answer to every call of the message.
  answer: (results, read) => [...read.errors, ...results].map(toOpenAIToolMessage),
  failClosed: {
    answer: () => [],
  },
};
