/**
 * Anthropic Messages API adapters: `tools`, `tool_use` content blocks and `tool_result` blocks.
 * Pure conversions; no network code. The types follow the published format, limited to the fields toolgate
 * reads or writes.
 */

import type { ToolCall, ToolResult } from "../runtime/types.js";
import {
  CallCollector,
  type ConversionResult,
  copyCallArguments,
  decodeArgumentsValue,
  type ReadCallsOptions,
} from "./conversion.js";
import { describeValue, isRecord, type JsonObject, readOwn } from "./json-data.js";
import { readSpecs, type SpecSource } from "./spec-source.js";

/** A Messages API tool definition: an entry of the request's `tools`. */
export interface AnthropicTool {
  name: string;
  description: string;
  /** The tool's input schema (a JSON Schema object with `type: "object"`), copied. */
  input_schema: JsonObject;
}

/** A `text` content block. */
export interface AnthropicTextBlock {
  type: "text";
  text: string;
}

/** A `tool_use` content block of an assistant message. */
export interface AnthropicToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  input: JsonObject;
}

/** A `tool_result` content block of a user message: the answer to one `tool_use` block. */
export interface AnthropicToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: string;
  is_error: boolean;
}

/** An assistant message with tool calls (for replaying history or for tests). */
export interface AnthropicAssistantMessage {
  role: "assistant";
  content: (AnthropicTextBlock | AnthropicToolUseBlock)[];
}

/** A user message carrying tool results, the next turn after an assistant message with `tool_use` blocks. */
export interface AnthropicToolResultMessage {
  role: "user";
  content: AnthropicToolResultBlock[];
}

/**
 * The specs of `source` as Messages API `tools`.
 * @param source usually the controller, so that only `visibleSpecs()` are offered; or a list of specs.
 * @throws InvalidToolSpecError when an input schema is not JSON data.
 */
export function toAnthropicTools(source: SpecSource): AnthropicTool[] {
  return readSpecs(source).map((spec) => ({
    name: spec.name,
    description: spec.description,
    input_schema: spec.inputSchema,
  }));
}

/**
 * Reads the `tool_use` blocks of a Messages API content array; other blocks (text, thinking, server tool
 * blocks) are skipped. Never throws.
 * @param content a `content` array, or a whole message or API response with `content`. A message whose
 *   content is a string has no tool calls. Each block's `input` must be a JSON object.
 * @returns calls, error results (with the block's id) and problems (blocks without an id, wrong shape).
 */
export function fromAnthropicToolUse(content: unknown, options: ReadCallsOptions = {}): ConversionResult {
  const collector = new CallCollector({ list: "content", id: "id" }, options);
  collector.guard(() => readContent(collector, content));
  return collector.result();
}

function readContent(collector: CallCollector, input: unknown): void {
  let blocks: unknown = input;
  if (isRecord(input)) {
    blocks = readOwn(input, "content");
    // A message whose content is a plain string is text only.
    if (typeof blocks === "string") return;
  }
  if (!Array.isArray(blocks)) {
    const got = isRecord(input)
      ? `an object whose content is ${describeValue(blocks)}`
      : describeValue(input);
    collector.problem(
      "invalid-shape",
      `expected a Messages API content array or a message with content, got ${got}; no calls were read`,
    );
    return;
  }
  for (let index = 0; index < blocks.length; index++) {
    collector.guard(() => {
      const block: unknown = blocks[index];
      if (!isRecord(block)) {
        collector.notAnObject(index, block);
        return;
      }
      if (readOwn(block, "type") !== "tool_use") return;
      collector.add({
        index,
        id: readOwn(block, "id"),
        name: readOwn(block, "name"),
        decodeArguments: (callId, maxBytes) =>
          decodeArgumentsValue(readOwn(block, "input"), callId, "input", maxBytes),
      });
    }, index);
  }
}

/**
 * Calls as `tool_use` blocks of an assistant message, for replaying history or for tests.
 * @param text optional text block placed before the tool calls, as the model writes it.
 * @throws InvalidToolCallError when a call's arguments are not a JSON object of plain data.
 */
export function toAnthropicAssistantMessage(
  calls: readonly ToolCall[],
  text?: string,
): AnthropicAssistantMessage {
  const blocks: (AnthropicTextBlock | AnthropicToolUseBlock)[] =
    text === undefined ? [] : [{ type: "text", text }];
  for (const call of calls) {
    blocks.push({ type: "tool_use", id: call.callId, name: call.toolName, input: copyCallArguments(call) });
  }
  return { role: "assistant", content: blocks };
}

/** A result as a `tool_result` block (`is_error` always present). */
export function toAnthropicToolResult(result: ToolResult): AnthropicToolResultBlock {
  return {
    type: "tool_result",
    tool_use_id: result.callId,
    content: result.content,
    is_error: result.isError,
  };
}

/**
 * Results as the user message that answers an assistant message's `tool_use` blocks. Pass the results of
 * every call of that message (including the adapter's error results): the API expects an answer to each.
 */
export function toAnthropicToolResultMessage(results: readonly ToolResult[]): AnthropicToolResultMessage {
  return { role: "user", content: results.map(toAnthropicToolResult) };
}
