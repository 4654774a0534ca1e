/**
 * Data types of the tool-call core. Every type here is plain, readonly data; the stateful services
 * (registry, runtime, policy, approvals, controller) live in their own files.
 */

/** A JSON value as written in YAML. */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | readonly JsonValue[]
  | { readonly [k: string]: JsonValue };

/** A tool call as proposed by the model. `arguments` is whatever the model sent, not yet validated. */
export interface ToolCall {
  readonly callId: string;
  readonly toolName: string;
  readonly arguments: unknown;
}

/** The outcome of a call, as sent back to the model. Every result carries the `callId` of its call. */
export interface ToolResult {
  readonly callId: string;
  readonly content: string;
  readonly isError: boolean;
}

/** A JSON Schema object (draft 2020-12 or draft-07) describing a tool's arguments. */
export type JsonSchema = { readonly [key: string]: unknown };

/** What the model sees of a tool. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
}

/** One failing place in a tool call's arguments: a JSON Pointer into the arguments and what is wrong there. */
export interface ArgumentIssue {
  readonly path: string;
  readonly message: string;
}

/** The result of validating arguments against a tool's input schema. */
export type ArgumentCheck =
  | { readonly ok: true }
  | { readonly ok: false; readonly issues: readonly ArgumentIssue[] };

/** Validates raw arguments; never throws, never coerces or fills in defaults. */
export type ArgumentValidator = (args: unknown) => ArgumentCheck;

/** Facts about the caller (environment, user role, ...) that rules can match, passed to `handle`. */
export type ToolContext = { readonly [key: string]: unknown };

/** A handler receives validated arguments and returns the text the model sees. */
export type ToolHandler<A = never> = (args: A, context: ToolContext) => string | Promise<string>;

/** A tool the runtime can run: its spec, the validator built from the spec, and its handler. */
export interface ToolDefinition<A = never> {
  readonly spec: ToolSpec;
  readonly validateArguments: ArgumentValidator;
  readonly handler: ToolHandler<A>;
}

/**
 * A call whose tool exists and whose arguments passed validation: the only thing `execute` accepts. `call` is
 * a copy of the call as given (frozen when `prepare` made it), holding the copied arguments.
 */
export interface PreparedToolCall {
  readonly kind: "prepared";
  readonly call: ToolCall;
  readonly definition: ToolDefinition<unknown>;
  /**
   * The validated arguments: a deeply frozen plain-data copy made when the call was prepared, the same value
   * as `call.arguments` (validation never rewrites it). The handler receives exactly this value.
   */
  readonly arguments: unknown;
}

/** What the policy decides for a call. */
export type PolicyAction = "allow" | "ask" | "deny";

/** Where a policy statement was written. */
export interface StatementSource {
  readonly file: string;
  readonly line: number;
  readonly column?: number;
  /** The policy layer: 0 for the policy file itself, 1 for its first `extends`, and so on. */
  readonly layer?: number;
}

/** A policy statement that took part in a decision. */
export interface DecidingStatement {
  readonly id: string;
  readonly action: PolicyAction;
  readonly reason: string;
  readonly source?: StatementSource;
}

/** The policy's decision for one call. `reason` is never empty. */
export interface PolicyDecision {
  readonly action: PolicyAction;
  readonly reason: string;
  /** Ids of the statements that decided it (empty for the default deny). */
  readonly ruleIds: readonly string[];
  /** The deciding statements with their sources. */
  readonly statements: readonly DecidingStatement[];
  /** Fingerprint of the policy that decided, when it came from a bundle. */
  readonly fingerprint?: string;
}

/** A call waiting for a person's one-time approval. */
export interface ApprovalRequest {
  readonly kind: "approval-request";
  /** Unguessable id (crypto random). */
  readonly approvalId: string;
  readonly call: ToolCall;
  readonly reason: string;
  readonly ruleIds: readonly string[];
  /** `sha256:` hash of the canonical JSON of the call's arguments. */
  readonly argumentsHash: string;
  /** Fingerprint of the policy that asked, or `"unbundled"` for a policy built by hand. */
  readonly policyFingerprint: string;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  readonly expiresAt: number;
  /** Caller facts given to `handle`, kept so that the re-check sees the same context. */
  readonly context?: ToolContext;
}

/** Options of `ToolController.resolve`. */
export interface ResolveOptions {
  /**
   * The caller's facts now. It is validated like the context given to `handle`, and the re-check decides
   * with both the stored and this context: the stricter decision holds.
   */
  readonly context?: ToolContext;
}

/** A person's answer to an approval request. */
export interface ApprovalResponse {
  readonly approvalId: string;
  readonly approved: boolean;
  readonly approver?: string;
  readonly reason?: string;
  /** When the person also remembered the approval: the id of the grant given with it. */
  readonly grantId?: string;
}
