/**
 * Reading tool definitions that an agent already has — an MCP `tools/list` result, an OpenAI `tools` array
 * (Chat Completions or Responses), Anthropic Messages `tools` — into toolgate's spec shape: the reverse of
 * `toMcpTools`, `toOpenAITools` and `toAnthropicTools`. Pure conversions; no network code.
 *
 * Nothing is renamed or repaired here: each definition is copied as it is, or left out with the reason. Whether
 * toolgate accepts a name or schema is decided later, by the same checks `toolgate lint` runs.
 */

import {
  copyJsonObject,
  describeValue,
  isPlainObject,
  isRecord,
  type JsonObject,
  quoteValue,
  readOwn,
} from "./json-data.js";

/** One tool definition read from a provider payload, copied into fresh plain data. */
export interface ReadToolSpec {
  /** Position in the payload's tool list. */
  readonly index: number;
  readonly name: string;
  /** The description; absent when the payload has none (MCP and OpenAI make it optional). */
  readonly description?: string;
  readonly inputSchema: JsonObject;
  /** What the reader had to assume, for the person importing (for example an absent `parameters`). */
  readonly notes: readonly string[];
  /**
   * What the source says about the tool's effects, from MCP `annotations`: `read-only`, `destructive`,
   * `open-world`. Hints from the server, not guarantees (the MCP specification says as much); absent when none.
   */
  readonly hints?: readonly ToolHint[];
}

/** An effect an MCP server claims for a tool (`readOnlyHint`, `destructiveHint`, `openWorldHint`). */
export type ToolHint = "read-only" | "destructive" | "open-world";

/** A definition that could not be read as a tool toolgate gates, with the reason. */
export interface SkippedToolSpec {
  readonly index: number;
  /** The name, when the definition has a string one. */
  readonly name?: string;
  readonly reason: string;
}

/** What the `read*ToolSpecs` functions return. Never thrown: a payload of the wrong shape is a `problem`. */
export interface ReadToolSpecsResult {
  readonly specs: readonly ReadToolSpec[];
  readonly skipped: readonly SkippedToolSpec[];
  /** Problems with the payload as a whole (wrong shape); then `specs` is empty. */
  readonly problems: readonly string[];
}

/** The schema OpenAI documents for a function without `parameters`: an empty parameter list. */
const NO_PARAMETERS: JsonObject = { type: "object", properties: {}, additionalProperties: false };

/**
 * Reads an MCP `tools/list` result: `{ tools: [...] }`, a whole JSON-RPC response (`{ result: { tools } }`),
 * or the `tools` array alone. Each Tool needs a string `name` and an `inputSchema` object.
 */
export function readMcpToolSpecs(payload: unknown): ReadToolSpecsResult {
  const list = toolList(payload, ["result"], "an MCP tools/list result ({ tools: [...] })");
  if (!list.ok) return list.result;
  return readEach(list.items, (item, index) => {
    const name = readName(item, index);
    if (typeof name !== "string") return name;
    const read = spec(index, name, readOwn(item, "description"), readOwn(item, "inputSchema"), "inputSchema");
    const hints = annotationHints(readOwn(item, "annotations"));
    return "reason" in read || hints.length === 0 ? read : { ...read, hints };
  });
}

/** The effect hints of MCP `annotations`; only values that are exactly `true` count. */
function annotationHints(annotations: unknown): ToolHint[] {
  if (!isRecord(annotations)) return [];
  const hints: ToolHint[] = [];
  if (readOwn(annotations, "readOnlyHint") === true) hints.push("read-only");
  // The MCP default for destructiveHint is true, but only for tools that are not read-only; say it only when the
  // server does.
  if (readOwn(annotations, "destructiveHint") === true) hints.push("destructive");
  if (readOwn(annotations, "openWorldHint") === true) hints.push("open-world");
  return hints;
}

/**
 * Reads OpenAI function tools: a Chat Completions `tools` array (`{ type: "function", function: { name,
 * description, parameters } }`), a Responses API one (`{ type: "function", name, description, parameters }`),
 * or a request body with `tools`. Other tool types (web search, file search, custom tools) are skipped: they
 * are not function calls the application runs. A function without `parameters` takes no arguments.
 */
export function readOpenAIToolSpecs(payload: unknown): ReadToolSpecsResult {
  const list = toolList(payload, [], "an OpenAI tools array or a request body with tools");
  if (!list.ok) return list.result;
  return readEach(list.items, (item, index) => {
    const type = readOwn(item, "type");
    const inner = readOwn(item, "function");
    if (type !== "function") {
      return skip(
        index,
        item,
        `it is a tool of type ${quoteValue(type)}, not a function tool; toolgate gates function calls that the application runs`,
      );
    }
    const definition = isRecord(inner) ? inner : item;
    const name = readName(definition, index);
    if (typeof name !== "string") return name;
    const parameters = readOwn(definition, "parameters");
    if (parameters === undefined) {
      const read = spec(index, name, readOwn(definition, "description"), NO_PARAMETERS, "parameters");
      if ("reason" in read) return read;
      return {
        ...read,
        notes: [
          ...read.notes,
          "it has no parameters, which OpenAI reads as no arguments: its input_schema allows only {}",
        ],
      };
    }
    return spec(index, name, readOwn(definition, "description"), parameters, "parameters");
  });
}

/**
 * Reads Anthropic Messages `tools`: client tools `{ name, description, input_schema }` (`type` absent or
 * `"custom"`), as an array or a request body with `tools`. Anthropic's own tools (`bash_…`, `text_editor_…`,
 * `web_search_…` and the like) have no input schema here and are skipped with the reason.
 */
export function readAnthropicToolSpecs(payload: unknown): ReadToolSpecsResult {
  const list = toolList(payload, [], "an Anthropic tools array or a request body with tools");
  if (!list.ok) return list.result;
  return readEach(list.items, (item, index) => {
    const type = readOwn(item, "type");
    if (type !== undefined && type !== "custom") {
      return skip(
        index,
        item,
        `it is Anthropic's own tool type ${quoteValue(type)}, whose input schema Anthropic defines; write its spec by hand`,
      );
    }
    const name = readName(item, index);
    if (typeof name !== "string") return name;
    return spec(index, name, readOwn(item, "description"), readOwn(item, "input_schema"), "input_schema");
  });
}

type ListOutcome =
  | { readonly ok: true; readonly items: readonly unknown[] }
  | { readonly ok: false; readonly result: ReadToolSpecsResult };

/** The tool list of a payload: the array itself, its `tools`, or `tools` under one of `envelopes`. */
function toolList(payload: unknown, envelopes: readonly string[], expected: string): ListOutcome {
  if (Array.isArray(payload)) return { ok: true, items: payload };
  if (isRecord(payload)) {
    const tools = readOwn(payload, "tools");
    if (Array.isArray(tools)) return { ok: true, items: tools };
    for (const envelope of envelopes) {
      const inner = readOwn(payload, envelope);
      if (isRecord(inner)) {
        const nested = readOwn(inner, "tools");
        if (Array.isArray(nested)) return { ok: true, items: nested };
      }
    }
  }
  const got = isRecord(payload) ? "an object without a tools array" : describeValue(payload);
  return {
    ok: false,
    result: { specs: [], skipped: [], problems: [`expected ${expected}, got ${got}; no tools were read`] },
  };
}

function readEach(
  items: readonly unknown[],
  read: (item: object, index: number) => ReadToolSpec | SkippedToolSpec,
): ReadToolSpecsResult {
  const specs: ReadToolSpec[] = [];
  const skipped: SkippedToolSpec[] = [];
  items.forEach((item, index) => {
    const outcome = isRecord(item)
      ? read(item, index)
      : { index, reason: `tools[${index}] is ${describeValue(item)}, not an object` };
    if ("reason" in outcome) skipped.push(outcome);
    else specs.push(outcome);
  });
  return { specs, skipped, problems: [] };
}

function readName(item: object, index: number): string | SkippedToolSpec {
  const name = readOwn(item, "name");
  if (typeof name === "string" && name !== "") return name;
  return { index, reason: `tools[${index}] has no name (got ${quoteValue(name)})` };
}

function skip(index: number, item: object, reason: string): SkippedToolSpec {
  const name = readOwn(item, "name");
  return typeof name === "string" && name !== "" ? { index, name, reason } : { index, reason };
}

function spec(
  index: number,
  name: string,
  description: unknown,
  schema: unknown,
  field: string,
): ReadToolSpec | SkippedToolSpec {
  if (description !== undefined && typeof description !== "string") {
    return { index, name, reason: `its description is ${describeValue(description)}, not a string` };
  }
  if (schema === undefined) return { index, name, reason: `it has no ${field}` };
  if (!isPlainObject(schema)) {
    return { index, name, reason: `its ${field} is ${describeValue(schema)}, not a JSON Schema object` };
  }
  // "keep": a schema may describe a property named "__proto__"; the later schema check refuses it by name.
  const copy = copyJsonObject(schema, { protoKey: "keep" });
  if (!copy.ok) return { index, name, reason: `its ${field} is not JSON data: it has ${copy.reason}` };
  const base = { index, name, inputSchema: copy.value, notes: [] };
  return description === undefined || description === "" ? base : { ...base, description };
}
