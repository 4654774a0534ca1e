/**
 * Model Context Protocol adapters (revision 2025-06-18): `tools/list` Tool objects, `tools/call` requests and
 * `CallToolResult`s. Pure conversions; no transport. The types follow the published schema, limited to the
 * fields toolgate reads or writes.
 *
 * Call ids: a `tools/call` request's JSON-RPC `id` becomes the `callId`: a string id is used as it is, a number
 * id becomes its decimal text (`7` → `"7"`). Answer the request with its original id (`toMcpCallToolResponse`).
 */

import type { ToolCall, ToolResult } from "../runtime/types.js";
import {
  CallCollector,
  type ConversionResult,
  copyCallArguments,
  decodeArgumentsValue,
  type ReadCallsOptions,
} from "./conversion.js";
import { describeValue, isRecord, type JsonObject, quoteValue, readOwn } from "./json-data.js";
import { readSpecs, type SpecSource } from "./spec-source.js";

/** A JSON-RPC request id as MCP allows it (never `null`). */
export type McpRequestId = string | number;

/** A Tool object of a `tools/list` result. */
export interface McpTool {
  name: string;
  description: string;
  /** The tool's input schema (a JSON Schema object with `type: "object"`), copied. */
  inputSchema: JsonObject;
}

/** The `result` of a `tools/list` response. */
export interface McpListToolsResult {
  tools: McpTool[];
}

/** The `params` of a `tools/call` request. */
export interface McpCallToolParams {
  name: string;
  arguments?: JsonObject;
}

/** A JSON-RPC `tools/call` request. */
export interface McpCallToolRequest {
  jsonrpc: "2.0";
  id: McpRequestId;
  method: "tools/call";
  params: McpCallToolParams;
}

/** A text content item of a tool result. */
export interface McpTextContent {
  type: "text";
  text: string;
}

/** The `result` of a `tools/call` response. A failed call is a result with `isError: true`. */
export interface McpCallToolResult {
  content: McpTextContent[];
  isError: boolean;
}

/** A JSON-RPC response to a `tools/call` request. */
export interface McpCallToolResponse {
  jsonrpc: "2.0";
  id: McpRequestId;
  result: McpCallToolResult;
}

/** Options of `fromMcpCallToolRequest`. */
export interface McpCallToolRequestOptions extends ReadCallsOptions {
  /** The JSON-RPC id of the request, when only its `params` are passed (as an MCP server handler sees them). */
  readonly requestId?: McpRequestId;
}

/**
 * The specs of `source` as `tools/list` Tool objects.
 * @param source usually the controller, so that only `visibleSpecs()` are listed; or a list of specs.
 * @throws InvalidToolSpecError when an input schema is not JSON data.
 */
export function toMcpTools(source: SpecSource): McpTool[] {
  return readSpecs(source).map((spec) => ({
    name: spec.name,
    description: spec.description,
    inputSchema: spec.inputSchema,
  }));
}

/**
 * The specs of `source` as a whole `tools/list` result (`{ tools }`, no pagination).
 * @throws InvalidToolSpecError when an input schema is not JSON data.
 */
export function toMcpListToolsResult(source: SpecSource): McpListToolsResult {
  return { tools: toMcpTools(source) };
}

/** The `callId` for a JSON-RPC id: a string as it is, a finite number as its decimal text. */
export function callIdFromRequestId(id: unknown): string | undefined {
  if (typeof id === "string") return id === "" ? undefined : id;
  if (typeof id === "number" && Number.isFinite(id)) return String(id);
  return undefined;
}

/**
 * Reads a `tools/call` request as one call. Never throws.
 * @param request a JSON-RPC request (`{ jsonrpc: "2.0", id, method: "tools/call", params }`) or just its
 *   `params` (`{ name, arguments }`, then give `options.requestId`). Missing `arguments` mean `{}`.
 * @returns at most one call; an error result (with the call id) when the name or arguments are unusable;
 *   a problem when there is no usable id or the request is not a `tools/call` request.
 */
export function fromMcpCallToolRequest(
  request: unknown,
  options: McpCallToolRequestOptions = {},
): ConversionResult {
  const collector = new CallCollector(
    {
      list: "request",
      id: "id",
      idExpected: "a non-empty string or a finite number; a request without id is a notification",
      item: () => "the tools/call request",
    },
    options,
  );
  collector.guard(() => readRequest(collector, request, options));
  return collector.result();
}

function readRequest(collector: CallCollector, input: unknown, options: McpCallToolRequestOptions): void {
  if (!isRecord(input)) {
    collector.problem(
      "invalid-shape",
      `expected a tools/call request or its params, got ${describeValue(input)}; no call was read`,
    );
    return;
  }
  const isRequest = ["jsonrpc", "method", "params", "id"].some((key) => Object.hasOwn(input, key));
  let params: unknown = input;
  let id: unknown = options.requestId;
  if (isRequest) {
    const jsonrpc = readOwn(input, "jsonrpc");
    const method = readOwn(input, "method");
    if (jsonrpc !== "2.0" || method !== "tools/call") {
      collector.problem(
        "invalid-shape",
        `expected a JSON-RPC 2.0 tools/call request, got jsonrpc ${quoteValue(jsonrpc)} and method ` +
          `${quoteValue(method)}; no call was read`,
      );
      return;
    }
    params = readOwn(input, "params");
    id = readOwn(input, "id");
  }
  const paramsRecord = isRecord(params) ? params : undefined;
  collector.add(
    {
      index: 0,
      id,
      name: paramsRecord === undefined ? undefined : readOwn(paramsRecord, "name"),
      decodeArguments: (callId, maxBytes) => {
        const args = paramsRecord === undefined ? undefined : readOwn(paramsRecord, "arguments");
        return args === undefined
          ? { ok: true, value: {} }
          : decodeArgumentsValue(args, callId, "arguments", maxBytes);
      },
    },
    callIdFromRequestId,
  );
}

/**
 * A call as a `tools/call` request, for tests or for forwarding to another MCP server.
 * @param id the JSON-RPC id; defaults to the call's `callId`.
 * @throws InvalidToolCallError when the call's arguments are not a JSON object of plain data.
 */
export function toMcpCallToolRequest(call: ToolCall, id: McpRequestId = call.callId): McpCallToolRequest {
  return {
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: call.toolName, arguments: copyCallArguments(call) },
  };
}

/** A result as a `CallToolResult`: one text item, `isError` always present. */
export function toMcpCallToolResult(result: ToolResult): McpCallToolResult {
  return { content: [{ type: "text", text: result.content }], isError: result.isError };
}

/**
 * A result as the JSON-RPC response to a `tools/call` request.
 * @param id the request's original JSON-RPC id (a number stays a number).
 */
export function toMcpCallToolResponse(id: McpRequestId, result: ToolResult): McpCallToolResponse {
  return { jsonrpc: "2.0", id, result: toMcpCallToolResult(result) };
}
