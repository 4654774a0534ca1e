import { randomBytes } from "node:crypto";
import { type ApprovalStore, MemoryApprovalStore, type StoredApproval } from "./approval-store.js";
import { hashCanonical } from "./canonical-json.js";
import { ApprovalError, InvalidOptionError } from "./errors.js";
import type { ApprovalRequest, ApprovalResponse, PolicyDecision, ToolCall, ToolContext } from "./types.js";

/** Default time an approval request stays usable: one hour. */
export const DEFAULT_APPROVAL_TTL_MS = 60 * 60 * 1000;

/** Options of `PendingApprovals`. */
export interface PendingApprovalsOptions {
  /** Where requests live; an in-memory store by default. */
  readonly store?: ApprovalStore;
  /** How long a request stays usable, in milliseconds (default one hour). */
  readonly ttlMs?: number;
  /** Clock, for tests. */
  readonly now?: () => number;
}

/** A new unguessable approval id: 128 random bits. */
export function newApprovalId(): string {
  return `apr_${randomBytes(16).toString("base64url")}`;
}

/** Calls waiting for a person's one-time approval, over an `ApprovalStore`. */
export class PendingApprovals {
  readonly store: ApprovalStore;
  readonly ttlMs: number;
  readonly now: () => number;

  constructor(options: PendingApprovalsOptions = {}) {
    this.store = options.store ?? new MemoryApprovalStore();
    this.ttlMs = options.ttlMs ?? DEFAULT_APPROVAL_TTL_MS;
    this.now = options.now ?? Date.now;
    if (!(this.ttlMs > 0))
      throw new InvalidOptionError(`ttlMs must be a positive number of milliseconds, got ${this.ttlMs}`);
  }

  /**
   * Creates and stores a request for a call the policy asked about. The request is frozen (the controller
   * passes calls and contexts it already copied and deeply froze), so that what is stored, what is hashed
   * and what the caller holds cannot drift apart.
   */
  async create(call: ToolCall, decision: PolicyDecision, context?: ToolContext): Promise<ApprovalRequest> {
    const createdAt = this.now();
    const request: ApprovalRequest = Object.freeze({
      kind: "approval-request",
      approvalId: newApprovalId(),
      call: Object.isFrozen(call)
        ? call
        : Object.freeze({ callId: call.callId, toolName: call.toolName, arguments: call.arguments }),
      reason: decision.reason,
      ruleIds: Object.isFrozen(decision.ruleIds) ? decision.ruleIds : Object.freeze([...decision.ruleIds]),
      argumentsHash: hashCanonical(call.arguments ?? null),
      policyFingerprint: decision.fingerprint ?? "unbundled",
      createdAt,
      expiresAt: createdAt + this.ttlMs,
      ...(context === undefined || Object.keys(context).length === 0 ? {} : { context }),
    });
    await this.store.put(request);
    return request;
  }

  /**
   * Consumes a request once.
   * @throws ApprovalError `not-found`, `already-used` or `expired`.
   */
  async take(approvalId: string): Promise<{ request: ApprovalRequest; response?: ApprovalResponse }> {
    const result = await this.store.take(approvalId, this.now());
    switch (result.status) {
      case "taken":
        return result.response === undefined
          ? { request: result.request }
          : { request: result.request, response: result.response };
      case "not-found":
        throw new ApprovalError("not-found", approvalId, `no approval request with id ${approvalId}`);
      case "already-used":
        throw new ApprovalError(
          "already-used",
          approvalId,
          `approval ${approvalId} was already used; an approval executes at most once — ask again`,
        );
      case "expired":
        throw new ApprovalError(
          "expired",
          approvalId,
          `approval ${approvalId} expired at ${new Date(result.request.expiresAt).toISOString()}; ask again`,
        );
    }
  }

  /** The open requests (pending, or decided but not yet used), oldest first. */
  async list(): Promise<readonly StoredApproval[]> {
    return this.store.list();
  }

  /** Marks expired requests and returns them. */
  async expire(): Promise<readonly ApprovalRequest[]> {
    return this.store.expire(this.now());
  }
}
