/** Errors thrown by toolgate. Every one carries a stable string `code` from `ToolgateErrorCode`. */

/**
 * Every `code` a `ToolgateError` can carry: stable kebab-case strings, extended and never renamed. A caller
 * switches on `code` rather than on the class or the message.
 */
export type ToolgateErrorCode =
  // approvals and grants
  | ApprovalErrorCode
  | "approval-exists"
  | "grant-exists"
  | "grant-too-long"
  | "grants-disabled"
  | "no-session"
  // the controller and its inputs
  | "duplicate-tool"
  | "policy-definition"
  | "invalid-call"
  | "invalid-response"
  | "invalid-option"
  | "invalid-handler-result"
  | "missing-handler"
  | "unknown-handler"
  | "no-handler"
  | "reload-refused"
  | "fingerprint-mismatch"
  | "invalid-input-schema"
  | "invalid-pattern"
  | "invalid-json-value"
  | "validation-failed"
  | "internal"
  // stores, sinks and notifiers
  | "store-unavailable"
  | "store-full"
  | "store-corrupt"
  | "invalid-store-url"
  | "invalid-store-option"
  | "optional-dependency-missing"
  | "audit-key"
  | "no-chain"
  | "notification-failed"
  | "notifier-secret"
  // the loader, the CLI and the tools around them
  | "policy-config"
  | "file-too-large"
  | "invalid-request"
  | "usage"
  | "emit"
  | "inbox-config"
  | "mcp-list-failed"
  | "tool-source"
  | "recorded-calls"
  | "policy-source"
  | "invalid-tool-spec"
  | "invalid-tool-call"
  // framework adapters
  | "tool-refused"
  | "invalid-rules";

/** Base class of every error toolgate throws on purpose. */
export class ToolgateError extends Error {
  readonly code: ToolgateErrorCode;
  constructor(code: ToolgateErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** Thrown by `ToolRegistry` when two definitions share a name. */
export class DuplicateToolError extends ToolgateError {
  readonly toolName: string;
  constructor(toolName: string) {
    super("duplicate-tool", `duplicate tool name: ${toolName}`);
    this.toolName = toolName;
  }
}

/** Thrown by `ToolPolicy` when its construction input is contradictory (for example a tool in two sets). */
export class PolicyDefinitionError extends ToolgateError {
  constructor(message: string) {
    super("policy-definition", message);
  }
}

/** Codes of `ApprovalError`. */
export type ApprovalErrorCode = "not-found" | "already-used" | "expired";

/** Thrown by `ToolController.resolve` for an approval id that cannot be used. */
export class ApprovalError extends ToolgateError {
  declare readonly code: ApprovalErrorCode;
  readonly approvalId: string;
  constructor(code: ApprovalErrorCode, approvalId: string, message: string) {
    super(code, message);
    this.approvalId = approvalId;
  }
}

/**
 * Thrown by a store or audit sink that cannot be reached or written. The controller lets it propagate:
 * nothing executes when a store fails (fail closed).
 */
export class StoreUnavailableError extends ToolgateError {
  readonly store: string;
  constructor(store: string, message: string, options?: { cause?: unknown }) {
    super("store-unavailable", `${store}: ${message}`, options);
    this.store = store;
  }
}

/**
 * Thrown by an approval store that holds as many open requests as it may (`maxOpenRequests`). Nothing is
 * stored and nothing runs; the controller answers the call with an error result saying so.
 */
export class ApprovalStoreFullError extends ToolgateError {
  readonly store: string;
  readonly limit: number;
  constructor(store: string, limit: number) {
    super(
      "store-full",
      `${store}: ${limit} approval requests are already open (maxOpenRequests); answer or expire some, ` +
        "or raise maxOpenRequests",
    );
    this.store = store;
    this.limit = limit;
  }
}

/** Thrown by `ToolController` for a call or response that is not shaped as its type says (a programmer error). */
export class InvalidInputError extends ToolgateError {
  constructor(code: "invalid-call" | "invalid-response", message: string) {
    super(code, message);
  }
}

/**
 * Thrown for an option outside its range (a limit that is not a positive whole number, a TTL of 0): a
 * programmer error, raised when the object is built.
 */
export class InvalidOptionError extends ToolgateError {
  constructor(message: string) {
    super("invalid-option", message);
  }
}

/**
 * Thrown when an invariant the code relies on does not hold (a defect in toolgate, never bad input): it is
 * never caught and turned into a decision.
 */
export class InternalError extends ToolgateError {
  constructor(message: string) {
    super("internal", message);
  }
}

/** True for a `ToolgateError`; false for anything else, including a proxy that throws when inspected. */
export function isToolgateError(value: unknown): value is ToolgateError {
  try {
    return value instanceof ToolgateError;
  } catch {
    return false;
  }
}

/**
 * Thrown by a handler to report an expected failure (file not found, a refused operation). The controller
 * turns it into an error `ToolResult` the model can read. Any other exception is a defect and is re-thrown.
 */
export class ToolFailure extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ToolFailure";
  }
}

/** True when `error` is a `ToolFailure` (also across copies of the package). Never throws. */
export function isToolFailure(error: unknown): error is ToolFailure {
  try {
    return error instanceof ToolFailure || (error instanceof Error && error.name === "ToolFailure");
  } catch {
    // A value that throws when inspected (a hostile proxy, a throwing `name` getter) is no ToolFailure: it
    // stays a defect and is re-thrown as it is.
    return false;
  }
}
