/**
 * OpenAI adapters: the Chat Completions API (`tools`, `message.tool_calls`, `role: "tool"` messages) and the
 * Responses API (function tools, `function_call` output items, `function_call_output` input items).
 * Pure conversions; no network code. The types follow the published request and response formats, limited
 * to the fields toolgate reads or writes.
 */

import type { ToolCall, ToolResult } from "../runtime/types.js";
import {
  type ArgumentsOutcome,
  CallCollector,
  type ConversionResult,
  copyCallArguments,
  decodeArgumentsText,
  type ReadCallsOptions,
} from "./conversion.js";
import { describeValue, isRecord, type JsonObject, quoteValue, readOwn } from "./json-data.js";
import { readSpecs, type SpecSource } from "./spec-source.js";

/** A function definition inside a Chat Completions tool. */
export interface OpenAIFunctionDefinition {
  name: string;
  description: string;
  /** The tool's input schema (a JSON Schema object), copied. */
  parameters: JsonObject;
}

/** A Chat Completions tool: an entry of the request's `tools`. */
export interface OpenAIChatTool {
  type: "function";
  function: OpenAIFunctionDefinition;
}

/** A Responses API function tool: an entry of the request's `tools`. */
export interface OpenAIResponsesFunctionTool {
  type: "function";
  name: string;
  description: string;
  parameters: JsonObject;
  /**
   * Always `false`: strict mode needs every property required and `additionalProperties: false`, which an
   * arbitrary tool schema does not promise. The runtime validates arguments against the full schema anyway.
   */
  strict: boolean;
}

/** A tool call inside a Chat Completions assistant message. `arguments` is JSON text. */
export interface OpenAIChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** A Chat Completions assistant message that calls tools (as the API returns it, or to replay history). */
export interface OpenAIAssistantMessage {
  role: "assistant";
  content: string | null;
  tool_calls: OpenAIChatToolCall[];
}

/** A Chat Completions tool message: the answer to one tool call. */
export interface OpenAIToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

/** A Responses API `function_call` item (output of a response, or input when replaying history). */
export interface OpenAIResponsesFunctionCall {
  type: "function_call";
  call_id: string;
  name: string;
  /** JSON text. */
  arguments: string;
}

/** A Responses API `function_call_output` input item: the answer to one function call. */
export interface OpenAIResponsesFunctionCallOutput {
  type: "function_call_output";
  call_id: string;
  output: string;
}

/**
 * The specs of `source` as Chat Completions `tools`.
 * @param source usually the controller, so that only `visibleSpecs()` are offered; or a list of specs.
 * @throws InvalidToolSpecError when an input schema is not JSON data.
 */
export function toOpenAITools(source: SpecSource): OpenAIChatTool[] {
  return readSpecs(source).map((spec) => ({
    type: "function",
    function: { name: spec.name, description: spec.description, parameters: spec.inputSchema },
  }));
}

/**
 * The specs of `source` as Responses API function tools (`strict: false`).
 * @param source usually the controller, so that only `visibleSpecs()` are offered; or a list of specs.
 * @throws InvalidToolSpecError when an input schema is not JSON data.
 */
export function toOpenAIResponsesTools(source: SpecSource): OpenAIResponsesFunctionTool[] {
  return readSpecs(source).map((spec) => ({
    type: "function",
    name: spec.name,
    description: spec.description,
    parameters: spec.inputSchema,
    strict: false,
  }));
}

/**
 * Reads the tool calls of a Chat Completions assistant message. Never throws.
 * @param message an assistant message (`{ role: "assistant", tool_calls: [...] }`), or a whole chat completion
 *   with exactly one choice. An assistant message without `tool_calls` gives no calls and no problems (the
 *   model answered in text). Each call's `function.arguments` must be JSON text of an object.
 * @returns the calls; error results (with the payload's call id) for calls that cannot run; problems for
 *   calls without an id and for a payload of the wrong shape.
 */
export function fromOpenAIToolCalls(message: unknown, options: ReadCallsOptions = {}): ConversionResult {
  const collector = new CallCollector({ list: "tool_calls", id: "id" }, options);
  collector.guard(() => readChatMessage(collector, message));
  return collector.result();
}

function readChatMessage(collector: CallCollector, input: unknown): void {
  const expected =
    'expected an assistant message ({ role: "assistant", tool_calls: [...] }) or a chat completion';
  if (!isRecord(input)) {
    collector.problem("invalid-shape", `${expected}, got ${describeValue(input)}; no calls were read`);
    return;
  }
  let message: object = input;
  const choices = readOwn(input, "choices");
  if (choices !== undefined) {
    if (!Array.isArray(choices) || choices.length !== 1) {
      const count = Array.isArray(choices)
        ? `${choices.length} choices`
        : `choices that are ${describeValue(choices)}`;
      collector.problem(
        "invalid-shape",
        `the chat completion has ${count}; pass the message of the one choice you use (choices[i].message)`,
      );
      return;
    }
    const choice: unknown = choices[0];
    const inner = isRecord(choice) ? readOwn(choice, "message") : undefined;
    if (!isRecord(inner)) {
      collector.problem(
        "invalid-shape",
        "choices[0] of the chat completion has no message object; no calls were read",
      );
      return;
    }
    message = inner;
  }
  const role = readOwn(message, "role");
  if (role !== undefined && role !== "assistant") {
    collector.problem(
      "invalid-shape",
      `${expected}, got a message with role ${quoteValue(role)}; no calls were read`,
    );
    return;
  }
  const toolCalls = readOwn(message, "tool_calls");
  if (toolCalls === undefined || toolCalls === null) {
    // An assistant message without tool calls is the model answering in text: nothing to report.
    if (role !== "assistant") {
      collector.problem("invalid-shape", `${expected}, got an object with neither role nor tool_calls`);
    }
    return;
  }
  if (!Array.isArray(toolCalls)) {
    collector.problem(
      "invalid-shape",
      `tool_calls is ${describeValue(toolCalls)}, not an array; no calls were read`,
    );
    return;
  }
  for (let index = 0; index < toolCalls.length; index++) {
    collector.guard(() => readChatToolCall(collector, toolCalls[index], index), index);
  }
}

function readChatToolCall(collector: CallCollector, item: unknown, index: number): void {
  if (!isRecord(item)) {
    collector.notAnObject(index, item);
    return;
  }
  const type = readOwn(item, "type");
  const fn = readOwn(item, "function");
  const definition = isRecord(fn) ? fn : undefined;
  collector.add({
    index,
    id: readOwn(item, "id"),
    name: definition === undefined ? undefined : readOwn(definition, "name"),
    decodeArguments: (callId, maxBytes): ArgumentsOutcome =>
      decodeArgumentsText(
        definition === undefined ? undefined : readOwn(definition, "arguments"),
        callId,
        "arguments",
        maxBytes,
      ),
    ...(type === undefined || type === "function" ? {} : { unsupported: `has type ${quoteValue(type)}` }),
  });
}

/**
 * Reads the `function_call` items of a Responses API output. Other items (messages, reasoning, built-in tool
 * calls) are skipped. Never throws.
 * @param output the response's `output` array, or the whole response object (`{ output: [...] }`).
 *   The call id is the item's `call_id` (what `function_call_output` answers), not its item `id`.
 * @returns calls, error results and problems, as `fromOpenAIToolCalls`.
 */
export function fromOpenAIResponsesOutput(output: unknown, options: ReadCallsOptions = {}): ConversionResult {
  const collector = new CallCollector({ list: "output", id: "call_id" }, options);
  collector.guard(() => readResponsesOutput(collector, output));
  return collector.result();
}

function readResponsesOutput(collector: CallCollector, input: unknown): void {
  const items = isRecord(input) ? readOwn(input, "output") : input;
  if (!Array.isArray(items)) {
    const got = isRecord(input) ? `an object whose output is ${describeValue(items)}` : describeValue(input);
    collector.problem(
      "invalid-shape",
      `expected a Responses API output array or a response with an output array, got ${got}; no calls were read`,
    );
    return;
  }
  for (let index = 0; index < items.length; index++) {
    collector.guard(() => {
      const item: unknown = items[index];
      if (!isRecord(item)) {
        collector.notAnObject(index, item);
        return;
      }
      if (readOwn(item, "type") !== "function_call") return;
      collector.add({
        index,
        id: readOwn(item, "call_id"),
        name: readOwn(item, "name"),
        decodeArguments: (callId, maxBytes) =>
          decodeArgumentsText(readOwn(item, "arguments"), callId, "arguments", maxBytes),
      });
    }, index);
  }
}

/**
 * Calls as a Chat Completions assistant message, for replaying history or for tests.
 * @param content the message's text, `null` (the default) when it only calls tools.
 * @throws InvalidToolCallError when a call's arguments are not a JSON object of plain data.
 */
export function toOpenAIAssistantMessage(
  calls: readonly ToolCall[],
  content: string | null = null,
): OpenAIAssistantMessage {
  return {
    role: "assistant",
    content,
    tool_calls: calls.map((call) => ({
      id: call.callId,
      type: "function",
      function: { name: call.toolName, arguments: JSON.stringify(copyCallArguments(call)) },
    })),
  };
}

/**
 * Calls as Responses API `function_call` items, for replaying history or for tests.
 * @throws InvalidToolCallError when a call's arguments are not a JSON object of plain data.
 */
export function toOpenAIResponsesFunctionCalls(calls: readonly ToolCall[]): OpenAIResponsesFunctionCall[] {
  return calls.map((call) => ({
    type: "function_call",
    call_id: call.callId,
    name: call.toolName,
    arguments: JSON.stringify(copyCallArguments(call)),
  }));
}

/**
 * A result as a Chat Completions tool message. The format has no error flag: an error result's content
 * already says what went wrong.
 */
export function toOpenAIToolMessage(result: ToolResult): OpenAIToolMessage {
  return { role: "tool", tool_call_id: result.callId, content: result.content };
}

/** A result as a Responses API `function_call_output` input item (no error flag in the format either). */
export function toOpenAIResponsesOutput(result: ToolResult): OpenAIResponsesFunctionCallOutput {
  return { type: "function_call_output", call_id: result.callId, output: result.content };
}
