/**
 * The result of reading tool calls out of a provider payload, and the collector the provider adapters share.
 * Reading never throws: what cannot become a `ToolCall` becomes an error `ToolResult` (when it has a call id
 * the model can be answered with) or an `AdapterProblem` (when it has none).
 */

import { InvalidOptionError, ToolgateError } from "../runtime/errors.js";
import { DEFAULT_MAX_ARGUMENT_BYTES, utf8Length } from "../runtime/plain-data.js";
import type { ToolCall, ToolResult } from "../runtime/types.js";
import {
  copyJsonObject,
  describeValue,
  findDuplicateKey,
  isPlainObject,
  type JsonObject,
  quoteValue,
  TOO_LARGE,
} from "./json-data.js";

/** Options of the `from*` adapters. */
export interface ReadCallsOptions {
  /**
   * Ceiling on one call's arguments in bytes (default 1 MiB, as the controller's): JSON text is measured in
   * UTF-8 before it is parsed, a JSON value as compact JSON while it is copied. A larger call becomes an
   * error result naming the limit; raise it here and in the controller's `maxArgumentBytes` together.
   */
  readonly maxArgumentBytes?: number;
}

/** Codes of `AdapterProblem`. */
export type AdapterProblemCode =
  /** The payload as a whole is not the expected shape (not an object, no tool call list, ...). */
  | "invalid-shape"
  /** One tool call has no usable id, so no result can be sent back for it; it was dropped. */
  | "missing-call-id"
  /** Reading the payload threw (a getter or proxy in a hand-built input); what was read before is kept. */
  | "unreadable-input";

/** Something in a provider payload that cannot be answered with a tool result, for the application to log. */
export interface AdapterProblem {
  readonly code: AdapterProblemCode;
  /** What is wrong, where, and what was done about it. */
  readonly message: string;
  /** Index of the offending item in the payload's list of calls or blocks; absent for the whole payload. */
  readonly index?: number;
}

/**
 * What `from*` adapters return. `calls` are ready for `ToolController.handle`; `errors` are error results to
 * send back to the model as they are (each keeps the call id from the payload); `problems` could not be
 * answered and are for the application.
 */
export interface ConversionResult {
  readonly calls: readonly ToolCall[];
  readonly errors: readonly ToolResult[];
  readonly problems: readonly AdapterProblem[];
}

/** The outcome of decoding one call's arguments: plain data, or what to tell the model. */
export type ArgumentsOutcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly reason: string };

/** One call as read from a payload, before checks. */
export interface RawCall {
  /** Position in the payload's list, for problems. */
  readonly index: number;
  readonly id: unknown;
  readonly name: unknown;
  /** Decodes the arguments within the size ceiling; only called once id and name are acceptable. */
  readonly decodeArguments: (callId: string, maxBytes: number) => ArgumentsOutcome;
  /** Set when the call is of a kind toolgate does not run (for example a non-function tool call). */
  readonly unsupported?: string;
}

/** Field names used in messages, so that they name the provider's own fields. */
export interface CallFields {
  /** Where the calls live, for example `tool_calls` or `content`. */
  readonly list: string;
  /** The id field, for example `id` or `call_id`. */
  readonly id: string;
  /** What a usable id is; a non-empty string unless said otherwise. */
  readonly idExpected?: string;
  /** Names one item in messages; `list[index]` unless said otherwise. */
  readonly item?: (index: number) => string;
}

/** Accumulates calls, error results and problems for one payload. */
export class CallCollector {
  readonly #calls: ToolCall[] = [];
  readonly #errors: ToolResult[] = [];
  readonly #problems: AdapterProblem[] = [];
  readonly #seenIds = new Set<string>();
  readonly #fields: CallFields;
  readonly #maxBytes: number;

  /** @throws RangeError when `options.maxArgumentBytes` is not a positive whole number. */
  constructor(fields: CallFields, options: ReadCallsOptions = {}) {
    this.#fields = fields;
    this.#maxBytes = options.maxArgumentBytes ?? DEFAULT_MAX_ARGUMENT_BYTES;
    if (!Number.isSafeInteger(this.#maxBytes) || this.#maxBytes <= 0) {
      throw new InvalidOptionError(
        `maxArgumentBytes must be a positive whole number, got ${String(this.#maxBytes)}`,
      );
    }
  }

  /** Records a problem that has no call id. */
  problem(code: AdapterProblemCode, message: string, index?: number): void {
    this.#problems.push(index === undefined ? { code, message } : { code, message, index });
  }

  /** Records an item of the list that is not an object at all. */
  notAnObject(index: number, value: unknown): void {
    this.problem(
      "missing-call-id",
      `${this.#item(index)} is ${describeValue(value)}, not an object, so it has no ` +
        `${this.#fields.id} and cannot be answered; it was not run`,
      index,
    );
  }

  /** Checks one call in order (id, duplicate id, kind, name, arguments) and files it where it belongs. */
  add(raw: RawCall, idFromPayload: (id: unknown) => string | undefined = stringId): void {
    const callId = idFromPayload(raw.id);
    const nameHint =
      typeof raw.name === "string" && raw.name !== "" ? ` (tool ${JSON.stringify(raw.name)})` : "";
    if (callId === undefined) {
      this.problem(
        "missing-call-id",
        `${this.#item(raw.index)}${nameHint} has no usable ${this.#fields.id} (got ${quoteValue(raw.id)}; ` +
          `expected ${this.#fields.idExpected ?? "a non-empty string"}), so it cannot be answered; it was not run`,
        raw.index,
      );
      return;
    }
    if (this.#seenIds.has(callId)) {
      this.#fail(
        callId,
        `call id ${callId} is used by an earlier call in the same message; this call was not run, ` +
          "send it again with an id of its own",
      );
      return;
    }
    this.#seenIds.add(callId);
    if (raw.unsupported !== undefined) {
      this.#fail(callId, `call ${callId} ${raw.unsupported}; only function tool calls are supported`);
      return;
    }
    if (typeof raw.name !== "string" || raw.name === "") {
      this.#fail(callId, `call ${callId} has no tool name; send the name of one of the offered tools`);
      return;
    }
    let args: ArgumentsOutcome;
    try {
      args = raw.decodeArguments(callId, this.#maxBytes);
    } catch (error) {
      // The id is known, so the model can still be answered.
      args = {
        ok: false,
        reason: `the arguments of call ${callId} could not be read: ${errorMessage(error)}`,
      };
    }
    if (!args.ok) {
      this.#fail(callId, args.reason);
      return;
    }
    this.#calls.push({ callId, toolName: raw.name, arguments: args.value });
  }

  /** Runs `read`, turning an exception into an `unreadable-input` problem instead of letting it escape. */
  guard(read: () => void, index?: number): void {
    try {
      read();
    } catch (error) {
      const where = index === undefined ? "the payload" : this.#item(index);
      this.problem(
        "unreadable-input",
        `reading ${where} failed: ${errorMessage(error)}; it was skipped`,
        index,
      );
    }
  }

  /** The collected result. */
  result(): ConversionResult {
    return { calls: [...this.#calls], errors: [...this.#errors], problems: [...this.#problems] };
  }

  #item(index: number): string {
    return this.#fields.item === undefined ? `${this.#fields.list}[${index}]` : this.#fields.item(index);
  }

  #fail(callId: string, content: string): void {
    this.#errors.push({ callId, content, isError: true });
  }
}

/** A call id as providers send it: a non-empty string. */
export function stringId(id: unknown): string | undefined {
  return typeof id === "string" && id !== "" ? id : undefined;
}

/**
 * Decodes arguments sent as JSON text (OpenAI): within `maxBytes` (measured before parsing), it must parse to
 * a JSON object without `__proto__` keys and without a key twice in one object.
 */
export function decodeArgumentsText(
  text: unknown,
  callId: string,
  field: string,
  maxBytes: number = DEFAULT_MAX_ARGUMENT_BYTES,
): ArgumentsOutcome {
  const are = verb(field);
  if (typeof text !== "string") {
    return {
      ok: false,
      reason: `${field} of call ${callId} ${are} ${describeValue(text)}, not a string; send a JSON object as a string`,
    };
  }
  // Every UTF-16 unit is at least one UTF-8 byte: a long text is refused before it is even measured.
  if (text.length > maxBytes || utf8Length(text) > maxBytes) return tooLarge(field, callId, maxBytes);
  if (text.trim() === "") {
    return {
      ok: false,
      reason: `${field} of call ${callId} ${are} empty; send a JSON object ({} for no arguments)`,
    };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      reason: `${field} of call ${callId} ${are} not valid JSON: ${errorMessage(error)}; send a JSON object`,
    };
  }
  const duplicate = findDuplicateKey(text);
  if (duplicate !== undefined) {
    return {
      ok: false,
      reason:
        `${field} of call ${callId} cannot be used: the key ${JSON.stringify(duplicate)} appears twice in one ` +
        "object, and readers disagree on which one counts; send each key once",
    };
  }
  return decodeArgumentsValue(parsed, callId, field, maxBytes);
}

/**
 * Decodes arguments sent as a JSON value (Anthropic, MCP): it must be a JSON object within `maxBytes`, is
 * copied into fresh plain data, and may not contain a `__proto__` key anywhere.
 */
export function decodeArgumentsValue(
  value: unknown,
  callId: string,
  field: string,
  maxBytes: number = DEFAULT_MAX_ARGUMENT_BYTES,
): ArgumentsOutcome {
  if (!isPlainObject(value)) {
    const what = value === undefined ? "missing" : `${describeValue(value)}, not a JSON object`;
    return { ok: false, reason: `${field} of call ${callId} ${verb(field)} ${what}; send a JSON object` };
  }
  const copy = copyJsonObject(value, { protoKey: "reject", maxBytes });
  if (copy.ok) return copy;
  if (copy.reason === TOO_LARGE) return tooLarge(field, callId, maxBytes);
  return {
    ok: false,
    reason: `${field} of call ${callId} cannot be used: found ${copy.reason}; send a JSON object of plain data`,
  };
}

function tooLarge(field: string, callId: string, maxBytes: number): ArgumentsOutcome {
  return {
    ok: false,
    reason:
      `${field} of call ${callId} ${verb(field)} larger than ${maxBytes} bytes, the limit (maxArgumentBytes); ` +
      "send smaller arguments (the application can raise maxArgumentBytes)",
  };
}

function verb(field: string): string {
  return field === "arguments" ? "are" : "is";
}

function errorMessage(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return "an unprintable error";
  }
}

/** Thrown by the `to*` adapters for a `ToolCall` whose arguments are not a JSON object (a programmer error). */
export class InvalidToolCallError extends ToolgateError {
  readonly callId: string;
  constructor(callId: string, message: string) {
    super("invalid-tool-call", message);
    this.callId = callId;
  }
}

/**
 * Copies the arguments of an outgoing call into fresh plain data.
 * @throws InvalidToolCallError when they are not a JSON object of plain data without `__proto__` keys.
 */
export function copyCallArguments(call: ToolCall): JsonObject {
  // Outgoing calls are the application's own: no size ceiling.
  const outcome = decodeArgumentsValue(call.arguments, call.callId, "arguments", Number.POSITIVE_INFINITY);
  if (!outcome.ok) throw new InvalidToolCallError(call.callId, outcome.reason);
  return outcome.value as JsonObject;
}
