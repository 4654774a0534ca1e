/**
 * Anthropic's Messages API `tool_use` blocks as a conversion-only host: `read` takes the content apart into
 * canonical calls, and `answer` turns the application's results back into the user message of `tool_result`
 * blocks. There is no `decide`: the application decides with its own controller (`handle`). It fails closed by
 * reading: a block it cannot read never becomes a call, only an error result, which `answer` sends back.
 */
import {
  type AnthropicToolResultMessage,
  fromAnthropicToolUse,
  toAnthropicToolResultMessage,
} from "../adapters/anthropic.js";
import type { ConversionResult } from "../adapters/conversion.js";
import type { ToolResult } from "../runtime/types.js";
import type { HostAdapter } from "./host-adapter.js";

/** The Anthropic Messages shape: an assistant message's content in, the `tool_result` message out. */
export const anthropicAdapter: HostAdapter<
  unknown,
  ConversionResult,
  AnthropicToolResultMessage,
  readonly ToolResult[]
> = {
  host: "anthropic",
  role: "conversion",
  read: (content) => ({ ok: true, message: fromAnthropicToolUse(content) }),
  toCalls: (read) => ({ calls: read.calls, context: {} }),
  // The read's error results first: the API expects an answer to every tool_use block.
  answer: (results, read) => toAnthropicToolResultMessage([...read.errors, ...results]),
  failClosed: {
    answer: () => toAnthropicToolResultMessage([]),
  },
};
