import { StoreUnavailableError } from "./errors.js";
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

const OPEN_STATES: readonly ApprovalState[] = ["pending", "approved", "rejected"];

/** The default store: a `Map` in this process. Fast, and lost on restart. */
export class MemoryApprovalStore implements ApprovalStore {
  readonly name = "memory";
  readonly #entries = new Map<string, StoredApproval>();
  #closed = false;

  async put(request: ApprovalRequest): Promise<void> {
    this.#assertOpen();
    if (this.#entries.has(request.approvalId)) {
      throw new Error(`approval id ${request.approvalId} already exists`);
    }
    this.#entries.set(request.approvalId, { request, state: "pending", updatedAt: request.createdAt });
  }

  async take(approvalId: string, now: number): Promise<TakeResult> {
    this.#assertOpen();
    // No await between read and write: within one process this is atomic.
    const entry = this.#entries.get(approvalId);
    if (entry === undefined) return { status: "not-found" };
    if (entry.state === "used") return { status: "already-used", request: entry.request };
    if (entry.state === "expired") return { status: "expired", request: entry.request };
    if (now >= entry.request.expiresAt) {
      this.#entries.set(approvalId, { ...entry, state: "expired", updatedAt: now });
      return { status: "expired", request: entry.request };
    }
    this.#entries.set(approvalId, { ...entry, state: "used", updatedAt: now });
    return entry.response === undefined
      ? { status: "taken", request: entry.request }
      : { status: "taken", request: entry.request, response: entry.response };
  }

  async respond(response: ApprovalResponse, now: number): Promise<RespondResult> {
    this.#assertOpen();
    const entry = this.#entries.get(response.approvalId);
    if (entry === undefined) return { status: "not-found" };
    if (entry.state === "expired" || (entry.state === "pending" && now >= entry.request.expiresAt)) {
      const expired: StoredApproval = { ...entry, state: "expired", updatedAt: now };
      this.#entries.set(response.approvalId, expired);
      return { status: "expired", approval: expired };
    }
    if (entry.state !== "pending") return { status: "already-decided", approval: entry };
    const decided: StoredApproval = {
      ...entry,
      state: response.approved ? "approved" : "rejected",
      response,
      updatedAt: now,
    };
    this.#entries.set(response.approvalId, decided);
    return { status: "recorded", approval: decided };
  }

  async get(approvalId: string): Promise<GetResult> {
    this.#assertOpen();
    const approval = this.#entries.get(approvalId);
    return approval === undefined ? { found: false } : { found: true, approval };
  }

  async list(states: readonly ApprovalState[] = OPEN_STATES): Promise<readonly StoredApproval[]> {
    this.#assertOpen();
    return [...this.#entries.values()]
      .filter((e) => states.includes(e.state))
      .sort((a, b) => a.request.createdAt - b.request.createdAt);
  }

  async expire(now: number): Promise<readonly ApprovalRequest[]> {
    this.#assertOpen();
    const expired: ApprovalRequest[] = [];
    for (const [id, entry] of this.#entries) {
      if (entry.state === "pending" && now >= entry.request.expiresAt) {
        this.#entries.set(id, { ...entry, state: "expired", updatedAt: now });
        expired.push(entry.request);
      }
    }
    return expired;
  }

  async close(): Promise<void> {
    this.#closed = true;
  }

  #assertOpen(): void {
    if (this.#closed) throw new StoreUnavailableError(this.name, "the store is closed");
  }
}
