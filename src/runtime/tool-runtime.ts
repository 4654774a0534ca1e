import { isToolFailure, ToolgateError } from "./errors.js";
import { COPIED_BYTES, copyPlainData, DEFAULT_MAX_ARGUMENT_BYTES, type PlainDataCopy } from "./plain-data.js";
import type { ToolRegistry } from "./registry.js";
import type { ArgumentIssue, PreparedToolCall, ToolCall, ToolContext, ToolResult } from "./types.js";

/** Formats argument issues as the model sees them: `/b: must be integer; /a: must be integer`. */
export function formatArgumentIssues(issues: readonly ArgumentIssue[]): string {
  return issues
    .map((issue) => `${issue.path === "" ? "(arguments)" : issue.path}: ${issue.message}`)
    .join("; ");
}

/** An error result that keeps the call's id. */
export function errorResult(callId: string, content: string): ToolResult {
  return { callId, content, isError: true };
}

/** Options of `ToolRuntime.prepare`. */
export interface PrepareOptions {
  /** Ceiling on the arguments' size as compact JSON, in bytes (default 1 MiB). */
  readonly maxArgumentBytes?: number;
  /** Set by the controller for arguments it has just copied: their size, so that they are not walked again. */
  readonly [COPIED_BYTES]?: number;
}

/** The error result's text for arguments over the size ceiling: names the limit and how to raise it. */
export function tooLargeMessage(toolName: string, maxBytes: number): string {
  return (
    `the arguments for ${toolName} are larger than ${maxBytes} bytes, the limit (maxArgumentBytes); ` +
    "send smaller arguments, or raise maxArgumentBytes in the controller's options"
  );
}

/** Turns a raw tool call into a prepared one (tool resolved, arguments validated) and runs prepared calls. */
export class ToolRuntime {
  /** The registry this runtime resolves names against. */
  readonly registry: ToolRegistry;

  constructor(registry: ToolRegistry) {
    this.registry = registry;
  }

  /**
   * Resolves the tool, copies the arguments into deeply frozen plain JSON data (refusing getters, non-plain
   * prototypes, `__proto__` keys and values JSON cannot carry) and validates that copy. The prepared call
   * holds the copy: the validator, the policy and the handler all see that one value, and the caller's
   * object can change afterwards without effect. An unknown tool, arguments that are not plain data, larger
   * than `maxArgumentBytes` (default 1 MiB) or invalid give an error result that keeps the `callId`;
   * nothing throws for bad model input.
   */
  prepare(call: ToolCall, options: PrepareOptions = {}): PreparedToolCall | ToolResult {
    const resolved = this.registry.resolve(call.toolName);
    if (!resolved.found) return errorResult(call.callId, `unknown tool: ${call.toolName}`);
    const maxBytes = options.maxArgumentBytes ?? DEFAULT_MAX_ARGUMENT_BYTES;
    const copied = options[COPIED_BYTES];
    const copy: PlainDataCopy =
      copied === undefined
        ? copyPlainData(call.arguments, maxBytes)
        : copied <= maxBytes
          ? { ok: true, value: call.arguments, bytes: copied }
          : { ok: false, reason: `more than ${maxBytes} bytes`, tooLarge: true };
    if (!copy.ok) {
      return errorResult(
        call.callId,
        copy.tooLarge
          ? tooLargeMessage(call.toolName, maxBytes)
          : `invalid arguments for ${call.toolName}: found ${copy.reason}; send a JSON object of plain data`,
      );
    }
    const args = copy.value;
    const check = resolved.definition.validateArguments(args);
    if (!check.ok) {
      return errorResult(
        call.callId,
        `invalid arguments for ${call.toolName}: ${formatArgumentIssues(check.issues)}`,
      );
    }
    const prepared: PreparedToolCall = {
      kind: "prepared",
      call:
        copied !== undefined && args === call.arguments
          ? call
          : Object.freeze({ callId: call.callId, toolName: call.toolName, arguments: args }),
      definition: resolved.definition,
      arguments: args,
    };
    return prepared;
  }

  /**
   * Runs the handler of a prepared call. A `ToolFailure` becomes an error result; any other exception is a
   * defect and is re-thrown unchanged.
   */
  execute(prepared: PreparedToolCall, context: ToolContext = {}): Promise<ToolResult> {
    // A handler that answers synchronously costs no extra promise hop: this sits on every allowed call.
    let content: unknown;
    try {
      content = prepared.definition.handler(prepared.arguments, context);
    } catch (error) {
      return isToolFailure(error)
        ? Promise.resolve(failureResult(prepared.call.callId, error))
        : Promise.reject(error);
    }
    if (typeof content === "string")
      return Promise.resolve({ callId: prepared.call.callId, content, isError: false });
    return settle(prepared, content);
  }
}

async function settle(prepared: PreparedToolCall, pending: unknown): Promise<ToolResult> {
  try {
    const content = await pending;
    if (typeof content !== "string") {
      throw new ToolgateError(
        "invalid-handler-result",
        `handler of ${prepared.call.toolName} returned ${typeof content}; a handler must return a string`,
      );
    }
    return { callId: prepared.call.callId, content, isError: false };
  } catch (error) {
    if (isToolFailure(error)) return failureResult(prepared.call.callId, error);
    throw error;
  }
}

/** The error result of a `ToolFailure`; its message is read once, and a getter that throws cannot escape. */
function failureResult(callId: string, failure: Error): ToolResult {
  let message: unknown;
  try {
    message = failure.message;
  } catch {
    message = undefined;
  }
  return errorResult(
    callId,
    typeof message === "string" ? message : "the tool failed (its message could not be read)",
  );
}

/** True when `value` is a prepared call rather than an error result. */
export function isPrepared(value: PreparedToolCall | ToolResult): value is PreparedToolCall {
  return (value as PreparedToolCall).kind === "prepared";
}
