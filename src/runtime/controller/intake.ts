/**
 * The controller's input boundary: a call, a context or an approval response from the caller is read once,
 * copied into frozen plain data and checked (size, shape, the context schema in force) before anything
 * decides on it. Refused input becomes an error result with the call's id.
 */
import { InvalidInputError } from "../errors.js";
import { COPIED_BYTES, copyPlainData, describeThrown } from "../plain-data.js";
import { errorResult, formatArgumentIssues, type PrepareOptions, tooLargeMessage } from "../tool-runtime.js";
import type { ApprovalResponse, ArgumentValidator, ToolCall, ToolContext, ToolResult } from "../types.js";

/** The context of a call that comes without one. */
export const EMPTY_CONTEXT: ToolContext = Object.freeze({});

/** A call after the input boundary: fresh, frozen, plain data, or the error result that refuses it. */
export type Admission =
  | {
      readonly ok: true;
      readonly call: ToolCall;
      readonly context: ToolContext;
      /** What `prepare` needs to skip the second walk of the copied arguments. */
      readonly prepare: PrepareOptions;
    }
  | { readonly ok: false; readonly call: ToolCall; readonly result: ToolResult };

/** A context after the input boundary. */
export type ContextCopy =
  | { readonly ok: true; readonly value: ToolContext }
  | { readonly ok: false; readonly reason: string };

/**
 * The input boundary of one controller: its argument ceiling, and the context validator in force (read
 * through `contextValidator` on every check, so that a reload applies at once).
 */
export class Intake {
  readonly maxArgumentBytes: number;
  readonly #contextValidator: () => ArgumentValidator | undefined;
  /** The context validator that last accepted the empty context (see `checkContext`). */
  #emptyContextAccepted: ArgumentValidator | undefined = undefined;

  constructor(maxArgumentBytes: number, contextValidator: () => ArgumentValidator | undefined) {
    this.maxArgumentBytes = maxArgumentBytes;
    this.#contextValidator = contextValidator;
  }

  /**
   * Reads the call's fields once each and copies arguments and context into frozen plain data.
   * @throws InvalidInputError when the call is not an object with a string `callId`.
   */
  admit(call: ToolCall, context: unknown): Admission {
    let callId: unknown;
    let toolName: unknown;
    let args: unknown;
    try {
      ({ callId, toolName, arguments: args } = call);
    } catch (error) {
      throw new InvalidInputError(
        "invalid-call",
        `the tool call could not be read: ${describeThrown(error)}`,
      );
    }
    if (typeof callId !== "string") {
      throw new InvalidInputError(
        "invalid-call",
        `a tool call needs a string callId, got ${callId === null ? "null" : typeof callId}`,
      );
    }
    const name = typeof toolName === "string" ? toolName : "";
    if (name === "") {
      const call = Object.freeze({ callId, toolName: name, arguments: undefined });
      return {
        ok: false,
        call,
        result: errorResult(
          callId,
          `call ${callId} has no tool name; send the name of one of the offered tools`,
        ),
      };
    }
    const copy = copyPlainData(args, this.maxArgumentBytes);
    if (!copy.ok) {
      const call = Object.freeze({ callId, toolName: name, arguments: undefined });
      const content = copy.tooLarge
        ? tooLargeMessage(name, this.maxArgumentBytes)
        : `invalid arguments for ${name}: found ${copy.reason}; send a JSON object of plain data`;
      return { ok: false, call, result: errorResult(callId, content) };
    }
    // The call wrapper is not frozen here (it stays inside the controller, and an approval request freezes
    // its own); its arguments are.
    const admitted: ToolCall = { callId, toolName: name, arguments: copy.value };
    const prepare = { maxArgumentBytes: this.maxArgumentBytes, [COPIED_BYTES]: copy.bytes };
    if (context === EMPTY_CONTEXT) return { ok: true, call: admitted, context: EMPTY_CONTEXT, prepare };
    const facts = this.copyContext(context);
    if (!facts.ok) {
      return {
        ok: false,
        call: admitted,
        result: errorResult(callId, `invalid context for ${name}: ${facts.reason}`),
      };
    }
    return { ok: true, call: admitted, context: facts.value, prepare };
  }

  /** Copies a context into frozen plain data, or says why it cannot be one. */
  copyContext(context: unknown): ContextCopy {
    const copy = copyPlainData(context, this.maxArgumentBytes);
    if (!copy.ok) {
      return {
        ok: false,
        reason: copy.tooLarge
          ? `the context is larger than ${this.maxArgumentBytes} bytes (maxArgumentBytes)`
          : `found ${copy.reason}; pass the context as a JSON object of plain data`,
      };
    }
    const value = copy.value;
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      return { ok: false, reason: "the context must be an object of facts" };
    }
    return { ok: true, value: value as ToolContext };
  }

  /** An error result when the context fails the context schema; `undefined` when it is fine. */
  checkContext(call: ToolCall, context: ToolContext): ToolResult | undefined {
    // The validator in force now: callers read the policy from the controller in the same step, after their
    // last await.
    const validator = this.#contextValidator();
    if (validator === undefined) return undefined;
    // The empty context is frozen: once a validator accepted it, it accepts it on every call.
    if (context === EMPTY_CONTEXT && this.#emptyContextAccepted === validator) return undefined;
    const check = validator(context);
    if (check.ok) {
      if (context === EMPTY_CONTEXT) this.#emptyContextAccepted = validator;
      return undefined;
    }
    return errorResult(
      call.callId,
      `invalid context for ${call.toolName}: ${formatArgumentIssues(check.issues)}`,
    );
  }

  /** The stored context is checked again (a store row can change), and the current one when given. */
  recheckContexts(
    call: ToolCall,
    stored: ToolContext,
    current: ContextCopy | undefined,
  ): ToolResult | undefined {
    const rejected = this.checkContext(call, stored);
    if (rejected !== undefined || current === undefined) return rejected;
    if (!current.ok) {
      return errorResult(
        call.callId,
        `invalid current context for ${call.toolName}: ${current.reason}; nothing ran`,
      );
    }
    const invalid = this.checkContext(call, current.value);
    return invalid === undefined
      ? undefined
      : errorResult(
          call.callId,
          `${invalid.content.replace("invalid context", "invalid current context")}; nothing ran`,
        );
  }
}

/**
 * Reads an approval response's fields once each into a fresh object.
 * @throws InvalidInputError for a response without a string `approvalId` or a boolean `approved`.
 */
export function readResponse(response: ApprovalResponse): ApprovalResponse {
  let approvalId: unknown;
  let approved: unknown;
  let approver: unknown;
  let reason: unknown;
  try {
    ({ approvalId, approved, approver, reason } = response);
  } catch (error) {
    throw new InvalidInputError(
      "invalid-response",
      `the approval response could not be read: ${describeThrown(error)}`,
    );
  }
  if (typeof approvalId !== "string" || typeof approved !== "boolean") {
    throw new InvalidInputError(
      "invalid-response",
      "an approval response needs a string approvalId and a boolean approved",
    );
  }
  return {
    approvalId,
    approved,
    ...(typeof approver === "string" ? { approver } : {}),
    ...(typeof reason === "string" ? { reason } : {}),
  };
}
