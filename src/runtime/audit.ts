import { StoreUnavailableError } from "./errors.js";
import type { ControllerMode } from "./mode.js";
import type { PolicyAction } from "./types.js";

/** Every step the controller records. */
export const AUDIT_EVENT_TYPES = [
  "call.received",
  "call.rejected",
  "policy.decided",
  "approval.requested",
  "approval.granted",
  "approval.rejected",
  "approval.expired",
  "tool.executed",
  "tool.failed",
  "tool.defect",
] as const;

/** One of the audit event types. */
export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];

/** One audit record. Plain JSON data. */
export interface AuditEvent {
  readonly type: AuditEventType;
  /** ISO 8601 time. */
  readonly time: string;
  readonly callId: string;
  readonly toolName: string;
  /** Fingerprint of the policy in force for this step. */
  readonly fingerprint: string;
  /** When a re-check after approval ran under another policy than the one that asked: the one that asked. */
  readonly requestFingerprint?: string;
  /** The enforcement mode the controller ran in (every event a controller writes has it). */
  readonly mode?: ControllerMode;
  /** The action the controller took (in `observe` and `ci` modes, after the mode changed the policy's). */
  readonly decision?: PolicyAction;
  /** In `observe` mode, on `policy.decided`: the policy denied or asked, and the call ran anyway. */
  readonly wouldHave?: Exclude<PolicyAction, "allow">;
  readonly ruleIds?: readonly string[];
  readonly approvalId?: string;
  /** The remembered approval (grant) that let the call run, or that the person gave with this approval. */
  readonly grantId?: string;
  readonly approver?: string;
  /** On `approval.granted`, `approval.rejected` and `approval.expired`: milliseconds since the request was made. */
  readonly waitedMs?: number;
  /** A reason: the policy's, the person's, or a failure message. */
  readonly reason?: string;
  /** The call's arguments, after redaction (absent when the tool's arguments are redacted whole). */
  readonly arguments?: unknown;
  /**
   * When `toolgate mcp-proxy` decided a path argument relative to a root: the arguments as the client sent them
   * (and as the server got them), after the same redaction; `arguments` are then the ones the policy decided.
   */
  readonly sentArguments?: unknown;
}

/**
 * Where a chained audit log stands: how many events it holds and the chain value of the last one (`sha256:…`
 * or, for a keyed log, `hmac-sha256:…`; the genesis value for an empty log). Kept somewhere the log's writer
 * cannot change, it is the anchor that lets a later check see lines removed from the end or a rewritten log.
 */
export interface AuditHead {
  readonly count: number;
  readonly hash: string;
}

/**
 * Where audit events go. `record` resolves once the event is durably written and rejects with
 * `StoreUnavailableError` when it cannot be: the controller then executes nothing (fail closed).
 */
export interface AuditSink {
  readonly name: string;
  record(event: AuditEvent): Promise<void>;
  /** The head of the chain after the events recorded so far; only sinks that chain their events have it. */
  head?(): Promise<AuditHead>;
  close(): Promise<void>;
}

/**
 * Keeps events in an array: for tests and for applications that forward them elsewhere. Each event is kept
 * as a copy made when it is recorded, as the durable sinks serialise it then: a handler that later changes
 * the arguments it was given does not change what the log says it was called with.
 */
export class MemoryAuditSink implements AuditSink {
  readonly name = "memory";
  readonly events: AuditEvent[] = [];
  /** @throws StoreUnavailableError when the event holds something that cannot be copied (a function). */
  async record(event: AuditEvent): Promise<void> {
    let copy: AuditEvent;
    try {
      copy = structuredClone(event);
    } catch (error) {
      throw new StoreUnavailableError(
        this.name,
        `the event cannot be copied: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
    this.events.push(copy);
  }
  async close(): Promise<void> {}
}
