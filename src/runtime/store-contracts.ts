/**
 * What the approval stores promise: the `ApprovalStore` and `GrantStore` contracts and the plain data they keep
 * and return (stored requests, grants, and the outcome of each operation). The memory store
 * (`approval-store.ts`), the grant logic (`grants.ts`) and the durable stores (`src/stores/`) all build on these.
 */
import type { ApprovalRequest, ApprovalResponse } from "./types.js";

/** Where an approval request stands in its store. */
export type ApprovalState = "pending" | "approved" | "rejected" | "used" | "expired";

/** An approval request with its state and, once a person decided out of band, their response. */
export interface StoredApproval {
  readonly request: ApprovalRequest;
  readonly state: ApprovalState;
  readonly response?: ApprovalResponse;
  /** Milliseconds since the epoch when the state last changed. */
  readonly updatedAt: number;
}

/** Outcome of `ApprovalStore.take`. Only `taken` lets the controller go on. */
export type TakeResult =
  | { readonly status: "taken"; readonly request: ApprovalRequest; readonly response?: ApprovalResponse }
  | { readonly status: "not-found" }
  | { readonly status: "already-used"; readonly request: ApprovalRequest }
  | { readonly status: "expired"; readonly request: ApprovalRequest };

/** Outcome of `ApprovalStore.respond` (a person's decision recorded while the application waits). */
export type RespondResult =
  | { readonly status: "recorded"; readonly approval: StoredApproval }
  | { readonly status: "not-found" }
  | { readonly status: "already-decided"; readonly approval: StoredApproval }
  | { readonly status: "expired"; readonly approval: StoredApproval };

/** Outcome of `ApprovalStore.get`. */
export type GetResult =
  | { readonly found: true; readonly approval: StoredApproval }
  | { readonly found: false };

/**
 * Durable home of pending approvals. `take` is atomic: of any number of concurrent callers, across
 * processes for durable stores, exactly one gets `taken` for an id. Every method rejects with
 * `StoreUnavailableError` when the store cannot be reached, so that callers fail closed.
 */
export interface ApprovalStore {
  /** A name for messages, such as `memory` or `sqlite:.toolgate/state.db` (never a password). */
  readonly name: string;
  /** Stores a new pending request. */
  put(request: ApprovalRequest): Promise<void>;
  /**
   * Consumes a request once: a pending, approved or rejected request becomes `used`. A request past its
   * `expiresAt` at `now` becomes `expired` and is not taken.
   */
  take(approvalId: string, now: number): Promise<TakeResult>;
  /** Records a person's decision on a pending request without consuming it (`toolgate approvals approve`). */
  respond(response: ApprovalResponse, now: number): Promise<RespondResult>;
  /** Reads one request with its state. */
  get(approvalId: string): Promise<GetResult>;
  /** Requests in the given states (default: pending, approved and rejected), oldest first. */
  list(states?: readonly ApprovalState[]): Promise<readonly StoredApproval[]>;
  /** Marks every pending request past its `expiresAt` at `now` as expired and returns those requests. */
  expire(now: number): Promise<readonly ApprovalRequest[]>;
  /** Releases connections and file handles. */
  close(): Promise<void>;
}

/**
 * What a grant covers besides its tool and arguments: nothing more (`arguments`), or only calls whose context
 * field `key` holds the string `value` (`session`).
 */
export type GrantScope =
  | { readonly kind: "arguments" }
  | { readonly kind: "session"; readonly key: string; readonly value: string };

/** A person's approval remembered for later calls of one tool with the same arguments. Plain JSON data. */
export interface ApprovalGrant {
  readonly kind: "approval-grant";
  /** Unguessable id (`grt_…`), named by every audit event of a call the grant let run. */
  readonly grantId: string;
  readonly toolName: string;
  /** `sha256:` hash of the canonical JSON of the arguments: the grant covers these arguments only. */
  readonly argumentsHash: string;
  readonly scope: GrantScope;
  /**
   * The statements whose ask the person approved. A later ask by any other statement (a rule added since,
   * or one that matches another context) is not covered: a person looks again.
   */
  readonly ruleIds: readonly string[];
  /** The approval request the grant was given on. */
  readonly approvalId: string;
  readonly approver: string;
  readonly reason?: string;
  /** Fingerprint of the policy that asked when the grant was given. */
  readonly policyFingerprint: string;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  readonly expiresAt: number;
  /** Set once the grant was revoked. */
  readonly revokedAt?: number;
  readonly revokedBy?: string;
}

/** Outcome of `GrantStore.revokeGrant`. */
export type RevokeGrantResult =
  | { readonly status: "revoked"; readonly grant: ApprovalGrant }
  | { readonly status: "not-found" }
  | { readonly status: "already-revoked"; readonly grant: ApprovalGrant };

/**
 * An approval store that can also keep grants. The memory, SQLite and PostgreSQL stores are; a controller
 * whose store is not simply never finds a grant.
 */
export interface GrantStore {
  /**
   * Records a person's decision on a pending request (as `ApprovalStore.respond`) and, only when that
   * decision is recorded, stores `grant` in the same atomic step. The response names the grant's id.
   * @throws ToolgateError `grant-exists` when the approval already has a grant; StoreUnavailableError.
   */
  respondAndGrant(
    response: ApprovalResponse & { readonly grantId: string },
    grant: ApprovalGrant,
    now: number,
  ): Promise<RespondResult>;
  /** The grants for this tool and arguments hash that are neither revoked nor expired at `now`. */
  findGrants(toolName: string, argumentsHash: string, now: number): Promise<readonly ApprovalGrant[]>;
  /** Grants, oldest first: by default those neither revoked nor expired at `now`; with `all`, every one. */
  listGrants(options: { readonly now: number; readonly all?: boolean }): Promise<readonly ApprovalGrant[]>;
  /** Revokes a grant: no call is let through by it afterwards. */
  revokeGrant(grantId: string, revokedBy: string, now: number): Promise<RevokeGrantResult>;
}
