/**
 * What the SQLite and PostgreSQL approval stores share: the row shape, its conversion to `StoredApproval`,
 * and the state transitions of `take` and `respond` written once over a few primitive statements.
 */
import type { ApprovalState, RespondResult, StoredApproval, TakeResult } from "../runtime/approval-store.js";
import { ApprovalError, InvalidOptionError, ToolgateError } from "../runtime/errors.js";
import type { ApprovalRequest, ApprovalResponse } from "../runtime/types.js";

/** States from which an approval can still be taken. */
export const OPEN_STATES: readonly ApprovalState[] = ["pending", "approved", "rejected"];
const PENDING: readonly ApprovalState[] = ["pending"];
const STATES = new Set<string>(["pending", "approved", "rejected", "used", "expired"]);

/** The columns every read returns. PostgreSQL returns `bigint` as a string. */
export interface ApprovalRow {
  readonly id: string;
  readonly state: string;
  readonly request: string;
  readonly response: string | null;
  readonly updated_at: number | string;
}

/** The indexed columns of a request, besides its JSON. */
export interface ApprovalColumns {
  readonly id: string;
  readonly tool: string;
  readonly call_id: string;
  readonly arguments_hash: string;
  readonly policy_fingerprint: string;
  readonly created_at: number;
  readonly expires_at: number;
  readonly request: string;
}

// PostgreSQL text cannot hold NUL; the index columns are copies, the request JSON (escaped) is the truth.
const noNul = (s: string): string => s.replaceAll("\u0000", "\uFFFD");

/** Serialises a request into its row columns (throws a `ToolgateError` `invalid-json-value` for arguments that are not JSON). */
export function toApprovalColumns(request: ApprovalRequest): ApprovalColumns {
  return {
    id: request.approvalId,
    tool: noNul(request.call.toolName),
    call_id: noNul(request.call.callId),
    arguments_hash: noNul(request.argumentsHash),
    policy_fingerprint: noNul(request.policyFingerprint),
    created_at: request.createdAt,
    expires_at: request.expiresAt,
    request: JSON.stringify(request),
  };
}

/** The error of `put` for an id the store already holds. */
export function approvalExistsError(store: string, approvalId: string): ToolgateError {
  return new ToolgateError("approval-exists", `${store}: approval id ${approvalId} already exists`);
}

/** Reads a row back; throws when the row is not what this code wrote. */
export function toStoredApproval(row: ApprovalRow): StoredApproval {
  if (!STATES.has(row.state))
    throw new ToolgateError("store-corrupt", `approval ${row.id} has an unknown state "${row.state}"`);
  const request = JSON.parse(row.request) as ApprovalRequest;
  const base = { request, state: row.state as ApprovalState, updatedAt: Number(row.updated_at) };
  return row.response === null ? base : { ...base, response: JSON.parse(row.response) as ApprovalResponse };
}

/** The primitive statements a durable store provides; each one is a single atomic statement. */
export interface ApprovalTable {
  /** `UPDATE … SET state='used' WHERE id AND state IN open AND expires_at > now RETURNING …`. */
  takeOpen(id: string, now: number): Promise<ApprovalRow | undefined>;
  /** `UPDATE … SET state=decided, response WHERE id AND state='pending' AND expires_at > now RETURNING …`. */
  decide(response: ApprovalResponse, now: number): Promise<ApprovalRow | undefined>;
  /** `UPDATE … SET state='expired' WHERE id AND state IN states AND expires_at <= now RETURNING …`. */
  markExpired(id: string, now: number, states: readonly ApprovalState[]): Promise<ApprovalRow | undefined>;
  read(id: string): Promise<ApprovalRow | undefined>;
}

// A row can only move forward (open -> used/expired, pending -> decided), so a couple of rounds settle it;
// the retry covers a `put` landing between a missed UPDATE and the read.
const ROUNDS = 3;

/** `ApprovalStore.take` over a table: one atomic UPDATE, then a read to say why nothing was taken. */
export async function takeFrom(table: ApprovalTable, approvalId: string, now: number): Promise<TakeResult> {
  for (let round = 0; round < ROUNDS; round++) {
    const taken = await table.takeOpen(approvalId, now);
    if (taken !== undefined) {
      const { request, response } = toStoredApproval(taken);
      return response === undefined ? { status: "taken", request } : { status: "taken", request, response };
    }
    const row = await table.read(approvalId);
    if (row === undefined) return { status: "not-found" };
    const approval = toStoredApproval(row);
    if (approval.state === "used") return { status: "already-used", request: approval.request };
    if (approval.state === "expired") return { status: "expired", request: approval.request };
    if (now >= approval.request.expiresAt) {
      const expired = await table.markExpired(approvalId, now, OPEN_STATES);
      if (expired !== undefined) return { status: "expired", request: approval.request };
    }
  }
  return { status: "not-found" };
}

/** `ApprovalStore.respond` over a table: one atomic UPDATE, then a read to say why nothing was recorded. */
export async function respondTo(
  table: ApprovalTable,
  response: ApprovalResponse,
  now: number,
): Promise<RespondResult> {
  for (let round = 0; round < ROUNDS; round++) {
    const decided = await table.decide(response, now);
    if (decided !== undefined) return { status: "recorded", approval: toStoredApproval(decided) };
    const row = await table.read(response.approvalId);
    if (row === undefined) return { status: "not-found" };
    const approval = toStoredApproval(row);
    if (approval.state === "expired") return { status: "expired", approval };
    if (approval.state === "pending" && now >= approval.request.expiresAt) {
      const expired = await table.markExpired(response.approvalId, now, PENDING);
      if (expired !== undefined) return { status: "expired", approval: toStoredApproval(expired) };
      continue;
    }
    if (approval.state !== "pending") return { status: "already-decided", approval };
  }
  return { status: "not-found" };
}

/**
 * One look for `waitForDecision`: the approval once it is no longer pending (marking it expired when its time
 * is up), or `undefined` while a person may still decide.
 */
export async function checkDecided(
  table: ApprovalTable,
  store: string,
  approvalId: string,
  now: number,
): Promise<StoredApproval | undefined> {
  for (let round = 0; round < ROUNDS; round++) {
    const row = await table.read(approvalId);
    if (row === undefined) {
      throw new ApprovalError("not-found", approvalId, `approval ${approvalId} is not in ${store}`);
    }
    const approval = toStoredApproval(row);
    if (approval.state !== "pending") return approval;
    if (now < approval.request.expiresAt) return undefined;
    const expired = await table.markExpired(approvalId, now, PENDING);
    if (expired !== undefined) return toStoredApproval(expired);
  }
  return undefined;
}

/** Options of `waitForDecision`. */
export interface WaitForDecisionOptions {
  /** Stops waiting: the promise rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** How often to look, in milliseconds (SQLite default 250; PostgreSQL, besides LISTEN, default 2000). */
  readonly pollMs?: number;
}

/**
 * Looks with `check` until it returns an approval, sleeping `pollMs` between looks; `subscribe` (optional)
 * registers a wake-up that cuts a sleep short (PostgreSQL `LISTEN`).
 */
export async function pollUntilDecided(
  check: () => Promise<StoredApproval | undefined>,
  options: { readonly signal?: AbortSignal | undefined; readonly pollMs: number },
  subscribe?: (wake: () => void) => () => void,
): Promise<StoredApproval> {
  const { signal, pollMs } = options;
  signal?.throwIfAborted();
  let woken = false;
  let wake = (): void => {
    woken = true;
  };
  const unsubscribe = subscribe?.(() => wake());
  try {
    for (;;) {
      woken = false;
      const decided = await check();
      if (decided !== undefined) return decided;
      signal?.throwIfAborted();
      if (woken) continue;
      await new Promise<void>((resolve, reject) => {
        const done = (): void => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          wake = () => {
            woken = true;
          };
          resolve();
        };
        const onAbort = (): void => {
          clearTimeout(timer);
          reject(signal?.reason);
        };
        const timer = setTimeout(done, pollMs);
        wake = done;
        signal?.addEventListener("abort", onAbort, { once: true });
      });
    }
  } finally {
    unsubscribe?.();
  }
}

/** What `scan` of a durable approval store reads. */
export interface ApprovalScanOptions {
  /** States to read (default: pending, approved and rejected). */
  readonly states?: readonly ApprovalState[];
  /** Only requests for this tool. */
  readonly tool?: string;
  /** At most this many requests. */
  readonly limit?: number;
}

/** Rows a scan reads per round trip: enough to amortise it, few enough to keep memory flat. */
export const SCAN_PAGE = 500;

/** @throws InvalidOptionError for a limit that is not a non-negative safe integer. */
export function checkScanLimit(limit: number | undefined): void {
  if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 0))
    throw new InvalidOptionError(`scan limit must be a non-negative integer, got ${limit}`);
}
