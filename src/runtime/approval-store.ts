/**
 * The default approval store, `MemoryApprovalStore`: requests and grants in `Map`s of this process, with
 * bounded memory. The contracts it fulfils (`ApprovalStore`, `GrantStore`) and their data live in
 * `store-contracts.ts`; the store's types are re-exported here, where the public API has always named them.
 */
import {
  ApprovalStoreFullError,
  InvalidOptionError,
  StoreUnavailableError,
  ToolgateError,
} from "./errors.js";
import type {
  ApprovalGrant,
  ApprovalState,
  ApprovalStore,
  GetResult,
  GrantStore,
  RespondResult,
  RevokeGrantResult,
  StoredApproval,
  TakeResult,
} from "./store-contracts.js";
import type { ApprovalRequest, ApprovalResponse } from "./types.js";

export type {
  ApprovalState,
  ApprovalStore,
  GetResult,
  RespondResult,
  StoredApproval,
  TakeResult,
} from "./store-contracts.js";

const OPEN_STATES: readonly ApprovalState[] = ["pending", "approved", "rejected"];

/** Default cap on the open requests of a `MemoryApprovalStore`. */
export const DEFAULT_MAX_OPEN_REQUESTS = 1000;

/** Most grants a `MemoryApprovalStore` keeps (expired and revoked ones make room first). */
export const DEFAULT_MAX_GRANTS = 1000;

/** Default number of used or expired requests a `MemoryApprovalStore` remembers. */
export const DEFAULT_MAX_CLOSED_REQUESTS = 100;

/** Options of `MemoryApprovalStore`. */
export interface MemoryApprovalStoreOptions {
  /**
   * How many requests may be open (pending, or decided but not used) at once; default 1000. A request past
   * its expiry no longer counts. When full, `put` throws `ApprovalStoreFullError`: nothing is stored, and the
   * controller answers the call with an error result (fail closed).
   */
  readonly maxOpenRequests?: number;
  /**
   * How many used or expired requests are remembered, newest kept; default 100. An older one is dropped with
   * its arguments: taking it again then says `not-found` instead of `already-used` (refused either way).
   */
  readonly maxClosedRequests?: number;
}

/**
 * The default store: `Map`s in this process. Fast, and lost on restart. Memory is bounded: open requests are
 * capped, expired ones are dropped when room is needed, and only the newest used or expired ones are kept.
 */
export class MemoryApprovalStore implements ApprovalStore, GrantStore {
  readonly name = "memory";
  readonly #open = new Map<string, StoredApproval>();
  readonly #grants = new Map<string, ApprovalGrant>();
  /** Used and expired requests, oldest first (a `Map` keeps insertion order). */
  readonly #closed = new Map<string, StoredApproval>();
  readonly #maxOpen: number;
  readonly #maxClosed: number;
  #closedStore = false;

  /** @throws InvalidOptionError when a cap is not a whole number (at least 1 open, at least 0 closed). */
  constructor(options: MemoryApprovalStoreOptions = {}) {
    this.#maxOpen = options.maxOpenRequests ?? DEFAULT_MAX_OPEN_REQUESTS;
    this.#maxClosed = options.maxClosedRequests ?? DEFAULT_MAX_CLOSED_REQUESTS;
    if (!Number.isSafeInteger(this.#maxOpen) || this.#maxOpen < 1) {
      throw new InvalidOptionError(
        `maxOpenRequests must be a whole number of at least 1, got ${String(this.#maxOpen)}`,
      );
    }
    if (!Number.isSafeInteger(this.#maxClosed) || this.#maxClosed < 0) {
      throw new InvalidOptionError(
        `maxClosedRequests must be a whole number of at least 0, got ${String(this.#maxClosed)}`,
      );
    }
  }

  async put(request: ApprovalRequest): Promise<void> {
    this.#assertOpen();
    if (this.#open.has(request.approvalId) || this.#closed.has(request.approvalId)) {
      throw new ToolgateError("approval-exists", `approval id ${request.approvalId} already exists`);
    }
    if (this.#open.size >= this.#maxOpen) {
      // Room first from requests that can no longer be used.
      this.#expireOpen(request.createdAt, () => true);
      if (this.#open.size >= this.#maxOpen) throw new ApprovalStoreFullError(this.name, this.#maxOpen);
    }
    this.#open.set(request.approvalId, { request, state: "pending", updatedAt: request.createdAt });
  }

  async take(approvalId: string, now: number): Promise<TakeResult> {
    this.#assertOpen();
    // No await between read and write: within one process this is atomic.
    const entry = this.#open.get(approvalId);
    if (entry === undefined) {
      const closed = this.#closed.get(approvalId);
      if (closed === undefined) return { status: "not-found" };
      return { status: closed.state === "used" ? "already-used" : "expired", request: closed.request };
    }
    if (now >= entry.request.expiresAt) {
      this.#close({ ...entry, state: "expired", updatedAt: now });
      return { status: "expired", request: entry.request };
    }
    this.#close({ ...entry, state: "used", updatedAt: now });
    return entry.response === undefined
      ? { status: "taken", request: entry.request }
      : { status: "taken", request: entry.request, response: entry.response };
  }

  async respond(response: ApprovalResponse, now: number): Promise<RespondResult> {
    this.#assertOpen();
    const entry = this.#open.get(response.approvalId);
    if (entry === undefined) {
      const closed = this.#closed.get(response.approvalId);
      if (closed === undefined) return { status: "not-found" };
      return closed.state === "expired"
        ? { status: "expired", approval: closed }
        : { status: "already-decided", approval: closed };
    }
    if (entry.state === "pending" && now >= entry.request.expiresAt) {
      const expired: StoredApproval = { ...entry, state: "expired", updatedAt: now };
      this.#close(expired);
      return { status: "expired", approval: expired };
    }
    if (entry.state !== "pending") return { status: "already-decided", approval: entry };
    const decided: StoredApproval = {
      ...entry,
      state: response.approved ? "approved" : "rejected",
      response,
      updatedAt: now,
    };
    this.#open.set(response.approvalId, decided);
    return { status: "recorded", approval: decided };
  }

  async respondAndGrant(
    response: ApprovalResponse & { readonly grantId: string },
    grant: ApprovalGrant,
    now: number,
  ): Promise<RespondResult> {
    this.#assertOpen();
    if (this.#grants.has(grant.grantId)) {
      throw new ToolgateError("grant-exists", `grant id ${grant.grantId} already exists`);
    }
    if (this.#grants.size >= DEFAULT_MAX_GRANTS) {
      for (const [id, g] of this.#grants)
        if (g.revokedAt !== undefined || now >= g.expiresAt) this.#grants.delete(id);
      if (this.#grants.size >= DEFAULT_MAX_GRANTS)
        throw new ApprovalStoreFullError(this.name, DEFAULT_MAX_GRANTS);
    }
    // No await between the decision and the grant: both happen, or neither.
    const result = await this.respond(response, now);
    if (result.status === "recorded") this.#grants.set(grant.grantId, grant);
    return result;
  }

  async findGrants(toolName: string, argumentsHash: string, now: number): Promise<readonly ApprovalGrant[]> {
    this.#assertOpen();
    return [...this.#grants.values()].filter(
      (g) =>
        g.toolName === toolName &&
        g.argumentsHash === argumentsHash &&
        g.revokedAt === undefined &&
        now < g.expiresAt,
    );
  }

  async listGrants(options: {
    readonly now: number;
    readonly all?: boolean;
  }): Promise<readonly ApprovalGrant[]> {
    this.#assertOpen();
    return [...this.#grants.values()]
      .filter((g) => options.all === true || (g.revokedAt === undefined && options.now < g.expiresAt))
      .sort((a, b) => a.createdAt - b.createdAt);
  }

  async revokeGrant(grantId: string, revokedBy: string, now: number): Promise<RevokeGrantResult> {
    this.#assertOpen();
    const grant = this.#grants.get(grantId);
    if (grant === undefined) return { status: "not-found" };
    if (grant.revokedAt !== undefined) return { status: "already-revoked", grant };
    const revoked: ApprovalGrant = Object.freeze({ ...grant, revokedAt: now, revokedBy });
    this.#grants.set(grantId, revoked);
    return { status: "revoked", grant: revoked };
  }

  async get(approvalId: string): Promise<GetResult> {
    this.#assertOpen();
    const approval = this.#open.get(approvalId) ?? this.#closed.get(approvalId);
    return approval === undefined ? { found: false } : { found: true, approval };
  }

  async list(states: readonly ApprovalState[] = OPEN_STATES): Promise<readonly StoredApproval[]> {
    this.#assertOpen();
    return [...this.#open.values(), ...this.#closed.values()]
      .filter((e) => states.includes(e.state))
      .sort((a, b) => a.request.createdAt - b.request.createdAt);
  }

  async expire(now: number): Promise<readonly ApprovalRequest[]> {
    this.#assertOpen();
    return this.#expireOpen(now, (entry) => entry.state === "pending");
  }

  async close(): Promise<void> {
    this.#closedStore = true;
  }

  /** Moves open requests past their expiry that `which` selects to the closed ones; returns them. */
  #expireOpen(now: number, which: (entry: StoredApproval) => boolean): ApprovalRequest[] {
    const expired: ApprovalRequest[] = [];
    for (const entry of [...this.#open.values()]) {
      if (now >= entry.request.expiresAt && which(entry)) {
        this.#close({ ...entry, state: "expired", updatedAt: now });
        expired.push(entry.request);
      }
    }
    return expired;
  }

  /** Files a used or expired request under the closed ones, dropping the oldest beyond the cap. */
  #close(entry: StoredApproval): void {
    const id = entry.request.approvalId;
    this.#open.delete(id);
    this.#closed.delete(id);
    if (this.#maxClosed === 0) return;
    this.#closed.set(id, entry);
    while (this.#closed.size > this.#maxClosed) {
      const oldest = this.#closed.keys().next().value as string;
      this.#closed.delete(oldest);
    }
  }

  #assertOpen(): void {
    if (this.#closedStore) throw new StoreUnavailableError(this.name, "the store is closed");
  }
}
