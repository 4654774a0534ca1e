import type Database from "better-sqlite3";
import type {
  ApprovalState,
  ApprovalStore,
  GetResult,
  RespondResult,
  StoredApproval,
  TakeResult,
} from "../runtime/approval-store.js";
import { StoreUnavailableError, ToolgateError } from "../runtime/errors.js";
import type { ApprovalGrant, GrantStore, RevokeGrantResult } from "../runtime/grants.js";
import type { ApprovalRequest, ApprovalResponse } from "../runtime/types.js";
import {
  type ApprovalColumns,
  type ApprovalRow,
  type ApprovalScanOptions,
  type ApprovalTable,
  approvalExistsError,
  checkDecided,
  checkScanLimit,
  OPEN_STATES,
  pollUntilDecided,
  respondTo,
  SCAN_PAGE,
  takeFrom,
  toApprovalColumns,
  toStoredApproval,
  type WaitForDecisionOptions,
} from "./approval-rows.js";
import { type GrantRow, toGrant, toGrantColumns } from "./grant-rows.js";
import { openSqlite, resolveSqlitePath } from "./sqlite-database.js";
import type { SqliteOptions } from "./sqlite-options.js";
import { SqliteWriteQueue } from "./sqlite-write-queue.js";
import { toStoreError } from "./store-errors.js";

/** Schema migrations of the approvals table; index i moves version i to i + 1. Append, never edit. */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE toolgate_approvals (
     id TEXT PRIMARY KEY,
     state TEXT NOT NULL CHECK (state IN ('pending', 'approved', 'rejected', 'used', 'expired')),
     tool TEXT NOT NULL,
     call_id TEXT NOT NULL,
     arguments_hash TEXT NOT NULL,
     policy_fingerprint TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     expires_at INTEGER NOT NULL,
     approver TEXT,
     request TEXT NOT NULL,
     response TEXT,
     updated_at INTEGER NOT NULL
   );
   -- Partial indexes: a take only removes the row from them, and used rows pile up outside them.
   CREATE INDEX toolgate_approvals_open ON toolgate_approvals (created_at)
     WHERE state IN ('pending', 'approved', 'rejected');
   CREATE INDEX toolgate_approvals_pending_expires ON toolgate_approvals (expires_at) WHERE state = 'pending';
   CREATE INDEX toolgate_approvals_call_id ON toolgate_approvals (call_id);`,
  // Grants: approvals remembered for the same tool and arguments; one at most per approval.
  `CREATE TABLE toolgate_grants (
     id TEXT PRIMARY KEY,
     tool TEXT NOT NULL,
     arguments_hash TEXT NOT NULL,
     approval_id TEXT NOT NULL UNIQUE,
     created_at INTEGER NOT NULL,
     expires_at INTEGER NOT NULL,
     revoked_at INTEGER,
     revoked_by TEXT,
     body TEXT NOT NULL
   );
   CREATE INDEX toolgate_grants_lookup ON toolgate_grants (tool, arguments_hash) WHERE revoked_at IS NULL;`,
];

const GRANT_COLUMNS = "body, revoked_at, revoked_by";

const COLUMNS = "id, state, request, response, updated_at";

/**
 * An `ApprovalStore` in a SQLite file (better-sqlite3, WAL mode): survives restarts and is shared by every
 * process that opens the same file. `take` is one `UPDATE … RETURNING` statement, so an approval id is taken at
 * most once across processes. Writes issued in the same turn of the event loop share one transaction (group
 * commit, see `SqliteWriteQueue`), and each resolves only once it is committed. The constructor opens the file
 * (creating its directory) and migrates the schema; a file written by a newer toolgate is refused.
 *
 * Every failure of the database, including a lock held longer than `busyTimeoutMs`, rejects with
 * `StoreUnavailableError` naming `sqlite:<path>`. `put` of an existing id throws `ToolgateError` with code
 * `approval-exists`.
 */
export class SqliteApprovalStore implements ApprovalStore, GrantStore {
  /** `sqlite:` followed by the path as given. */
  readonly name: string;
  /** The absolute path of the database file. */
  readonly file: string;
  readonly #db: Database.Database;
  readonly #statements;
  readonly #table: ApprovalTable;
  readonly #writes: SqliteWriteQueue;

  /**
   * @param file path of the database file, relative to `options.cwd`; `:memory:` for a private in-memory one.
   * @throws StoreUnavailableError when the file cannot be opened or migrated.
   */
  constructor(file: string, options: SqliteOptions = {}) {
    this.name = `sqlite:${file}`;
    this.file = resolveSqlitePath(file, options.cwd);
    const db = openSqlite(this.name, this.file, options, "approvals", MIGRATIONS);
    this.#db = db;
    this.#writes = new SqliteWriteQueue(this.name, db);
    try {
      this.#statements = {
        insert: db.prepare<ApprovalColumns>(
          `INSERT INTO toolgate_approvals
             (id, state, tool, call_id, arguments_hash, policy_fingerprint, created_at, expires_at, request, updated_at)
           VALUES (@id, 'pending', @tool, @call_id, @arguments_hash, @policy_fingerprint, @created_at, @expires_at,
             @request, @created_at)
           ON CONFLICT (id) DO NOTHING`,
        ),
        take: db.prepare<{ id: string; now: number }, ApprovalRow>(
          `UPDATE toolgate_approvals SET state = 'used', updated_at = @now
           WHERE id = @id AND state IN ('pending', 'approved', 'rejected') AND expires_at > @now
           RETURNING ${COLUMNS}`,
        ),
        decide: db.prepare<
          { id: string; now: number; state: string; response: string; approver: string | null },
          ApprovalRow
        >(
          `UPDATE toolgate_approvals
           SET state = @state, response = @response, approver = @approver, updated_at = @now
           WHERE id = @id AND state = 'pending' AND expires_at > @now
           RETURNING ${COLUMNS}`,
        ),
        markExpired: db.prepare<{ id: string; now: number; states: string }, ApprovalRow>(
          `UPDATE toolgate_approvals SET state = 'expired', updated_at = @now
           WHERE id = @id AND state IN (SELECT value FROM json_each(@states)) AND expires_at <= @now
           RETURNING ${COLUMNS}`,
        ),
        read: db.prepare<[string], ApprovalRow>(`SELECT ${COLUMNS} FROM toolgate_approvals WHERE id = ?`),
        list: db.prepare<[string], ApprovalRow>(
          `SELECT ${COLUMNS} FROM toolgate_approvals
           WHERE state IN (SELECT value FROM json_each(?)) ORDER BY created_at, rowid`,
        ),
        // The literal condition lets SQLite read the partial index of open rows instead of every used one.
        listOpen: db.prepare<[string], ApprovalRow>(
          `SELECT ${COLUMNS} FROM toolgate_approvals
           WHERE state IN ('pending', 'approved', 'rejected') AND state IN (SELECT value FROM json_each(?))
           ORDER BY created_at, rowid`,
        ),
        expireQuietly: db.prepare<{ now: number }>(
          `UPDATE toolgate_approvals SET state = 'expired', updated_at = @now
           WHERE state = 'pending' AND expires_at <= @now`,
        ),
        // Keyset pages: open requests along the partial index (created_at, rowid); any states by rowid.
        scanOpen: db.prepare<
          { states: string; tool: string | null; created: number; rowid: number; limit: number },
          ApprovalRow & { created_at: number; rowid: number }
        >(
          `SELECT ${COLUMNS}, created_at, rowid FROM toolgate_approvals
           WHERE state IN ('pending', 'approved', 'rejected') AND state IN (SELECT value FROM json_each(@states))
             AND (@tool IS NULL OR tool = @tool)
             AND (created_at, rowid) > (@created, @rowid)
           ORDER BY created_at, rowid LIMIT @limit`,
        ),
        scanAny: db.prepare<
          { states: string; tool: string | null; rowid: number; limit: number },
          ApprovalRow & { created_at: number; rowid: number }
        >(
          `SELECT ${COLUMNS}, created_at, rowid FROM toolgate_approvals
           WHERE rowid > @rowid AND state IN (SELECT value FROM json_each(@states))
             AND (@tool IS NULL OR tool = @tool)
           ORDER BY rowid LIMIT @limit`,
        ),
        insertGrant: db.prepare<ReturnType<typeof toGrantColumns>>(
          `INSERT INTO toolgate_grants (id, tool, arguments_hash, approval_id, created_at, expires_at, body)
           VALUES (@grant_id, @grant_tool, @grant_hash, @grant_approval, @grant_created, @grant_expires, @grant_body)`,
        ),
        findGrants: db.prepare<{ tool: string; hash: string; now: number }, GrantRow>(
          `SELECT ${GRANT_COLUMNS} FROM toolgate_grants
           WHERE tool = @tool AND arguments_hash = @hash AND revoked_at IS NULL AND expires_at > @now
           ORDER BY created_at, rowid`,
        ),
        listGrants: db.prepare<{ now: number; all: number }, GrantRow>(
          `SELECT ${GRANT_COLUMNS} FROM toolgate_grants
           WHERE @all = 1 OR (revoked_at IS NULL AND expires_at > @now) ORDER BY created_at, rowid`,
        ),
        readGrant: db.prepare<[string], GrantRow>(
          `SELECT ${GRANT_COLUMNS} FROM toolgate_grants WHERE id = ?`,
        ),
        revokeGrant: db.prepare<{ id: string; now: number; by: string }, GrantRow>(
          `UPDATE toolgate_grants SET revoked_at = @now, revoked_by = @by
           WHERE id = @id AND revoked_at IS NULL RETURNING ${GRANT_COLUMNS}`,
        ),
        expireAll: db.prepare<{ now: number }, { request: string; created_at: number }>(
          `UPDATE toolgate_approvals SET state = 'expired', updated_at = @now
           WHERE state = 'pending' AND expires_at <= @now
           RETURNING request, created_at`,
        ),
      };
    } catch (error) {
      db.close();
      throw toStoreError(this.name, "preparing statements", error);
    }
    const s = this.#statements;
    const write = <T>(what: string, statement: () => T): Promise<T> => this.#writes.enqueue(what, statement);
    // RETURNING statements use all(), never get(): get() leaves the statement open, which keeps a snapshot
    // that stops the WAL from being checkpointed (it grew without bound in the benchmark).
    this.#table = {
      takeOpen: (id, now) => write("take", () => s.take.all({ id, now })[0]),
      decide: async (response, now) => {
        const json = JSON.stringify(response);
        return write(
          "respond",
          () =>
            s.decide.all({
              id: response.approvalId,
              now,
              state: response.approved ? "approved" : "rejected",
              response: json,
              approver: response.approver ?? null,
            })[0],
        );
      },
      markExpired: (id, now, states) =>
        write("expire", () => s.markExpired.all({ id, now, states: JSON.stringify(states) })[0]),
      read: async (id) => this.#run("read", () => s.read.all(id)[0]),
    };
  }

  /** Stores a new pending request. @throws ToolgateError `approval-exists`, StoreUnavailableError. */
  async put(request: ApprovalRequest): Promise<void> {
    const columns = toApprovalColumns(request);
    const changes = await this.#writes.enqueue("put", () => this.#statements.insert.run(columns).changes);
    if (changes === 0) {
      throw approvalExistsError(this.name, request.approvalId);
    }
  }

  /**
   * Records a decision and, in the same transaction and only when it is recorded, the grant
   * (see `GrantStore.respondAndGrant`).
   */
  async respondAndGrant(
    response: ApprovalResponse & { readonly grantId: string },
    grant: ApprovalGrant,
    now: number,
  ): Promise<RespondResult> {
    const s = this.#statements;
    const columns = toGrantColumns(grant);
    const json = JSON.stringify(response);
    const table: ApprovalTable = {
      ...this.#table,
      decide: (answer, at) =>
        this.#writes.enqueue("respond", () =>
          this.#db.transaction(() => {
            const row = s.decide.all({
              id: answer.approvalId,
              now: at,
              state: answer.approved ? "approved" : "rejected",
              response: json,
              approver: answer.approver ?? null,
            })[0];
            if (row !== undefined) s.insertGrant.run(columns);
            return row;
          })(),
        ),
    };
    return this.#wrap("respond", respondTo(table, response, now));
  }

  /** The grants for a tool and arguments hash that are neither revoked nor expired at `now`. */
  async findGrants(toolName: string, argumentsHash: string, now: number): Promise<readonly ApprovalGrant[]> {
    const rows = this.#run("find grants", () =>
      this.#statements.findGrants.all({ tool: toolName, hash: argumentsHash, now }),
    );
    return this.#convert(() => rows.map(toGrant));
  }

  /** Grants, oldest first: the active ones at `now`, or with `all` every one. */
  async listGrants(options: {
    readonly now: number;
    readonly all?: boolean;
  }): Promise<readonly ApprovalGrant[]> {
    const rows = this.#run("list grants", () =>
      this.#statements.listGrants.all({ now: options.now, all: options.all === true ? 1 : 0 }),
    );
    return this.#convert(() => rows.map(toGrant));
  }

  /** Revokes a grant once. */
  async revokeGrant(grantId: string, revokedBy: string, now: number): Promise<RevokeGrantResult> {
    const row = await this.#writes.enqueue(
      "revoke grant",
      () => this.#statements.revokeGrant.all({ id: grantId, now, by: revokedBy })[0],
    );
    if (row !== undefined) return { status: "revoked", grant: this.#convert(() => toGrant(row)) };
    const existing = this.#run("read grant", () => this.#statements.readGrant.all(grantId)[0]);
    if (existing === undefined) return { status: "not-found" };
    return { status: "already-revoked", grant: this.#convert(() => toGrant(existing)) };
  }

  /** Consumes a request at most once across processes (see `ApprovalStore.take`). */
  async take(approvalId: string, now: number): Promise<TakeResult> {
    return this.#wrap("take", takeFrom(this.#table, approvalId, now));
  }

  /** Records a person's decision on a pending request (see `ApprovalStore.respond`). */
  async respond(response: ApprovalResponse, now: number): Promise<RespondResult> {
    return this.#wrap("respond", respondTo(this.#table, response, now));
  }

  /** Reads one request with its state. */
  async get(approvalId: string): Promise<GetResult> {
    const row = await this.#table.read(approvalId);
    return row === undefined
      ? { found: false }
      : { found: true, approval: this.#convert(() => toStoredApproval(row)) };
  }

  /** Requests in the given states (default: pending, approved and rejected), oldest first. */
  async list(states: readonly ApprovalState[] = OPEN_STATES): Promise<readonly StoredApproval[]> {
    const statement = states.every((state) => OPEN_STATES.includes(state))
      ? this.#statements.listOpen
      : this.#statements.list;
    const rows = this.#run("list", () => statement.all(JSON.stringify(states)));
    return this.#convert(() => rows.map(toStoredApproval));
  }

  /**
   * Reads requests a page at a time (`SCAN_PAGE` rows per statement, so no statement stays open between
   * pages and the store can be written meanwhile): open states oldest first, others in the order they were
   * stored. Memory stays flat however many rows match.
   * @throws StoreUnavailableError; InvalidOptionError for a bad limit.
   */
  async *scan(options: ApprovalScanOptions = {}): AsyncGenerator<StoredApproval> {
    checkScanLimit(options.limit);
    const states = JSON.stringify(options.states ?? OPEN_STATES);
    const open = (options.states ?? OPEN_STATES).every((state) => OPEN_STATES.includes(state));
    const tool = options.tool ?? null;
    let left = options.limit ?? Number.POSITIVE_INFINITY;
    let created = Number.MIN_SAFE_INTEGER;
    let rowid = 0;
    while (left > 0) {
      const limit = Math.min(SCAN_PAGE, left);
      const rows = this.#run("scan", () =>
        open
          ? this.#statements.scanOpen.all({ states, tool, created, rowid, limit })
          : this.#statements.scanAny.all({ states, tool, rowid, limit }),
      );
      for (const row of rows) yield this.#convert(() => toStoredApproval(row));
      if (rows.length < limit) return;
      const last = rows[rows.length - 1] as { created_at: number; rowid: number };
      created = last.created_at;
      rowid = last.rowid;
      left -= rows.length;
    }
  }

  /** Marks every pending request past its `expiresAt` at `now` as expired; returns how many, not the rows. */
  async expireQuietly(now: number): Promise<number> {
    return this.#writes.enqueue("expire", () => this.#statements.expireQuietly.run({ now }).changes);
  }

  /** Marks every pending request past its `expiresAt` at `now` as expired and returns those requests. */
  async expire(now: number): Promise<readonly ApprovalRequest[]> {
    const rows = await this.#writes.enqueue("expire", () => this.#statements.expireAll.all({ now }));
    return this.#convert(() =>
      rows.sort((a, b) => a.created_at - b.created_at).map((r) => JSON.parse(r.request) as ApprovalRequest),
    );
  }

  /**
   * Resolves with the stored approval once it is no longer pending (decided, taken, or expired — an approval
   * whose time is up is marked expired), polling every `pollMs` (default 250).
   * @throws ApprovalError `not-found` for an unknown id; the signal's reason when aborted;
   *   StoreUnavailableError.
   */
  async waitForDecision(approvalId: string, options: WaitForDecisionOptions = {}): Promise<StoredApproval> {
    return pollUntilDecided(
      () => this.#wrap("waitForDecision", checkDecided(this.#table, this.name, approvalId, Date.now())),
      { signal: options.signal, pollMs: options.pollMs ?? 250 },
    );
  }

  /** Closes the database; later calls reject with `StoreUnavailableError`. */
  async close(): Promise<void> {
    if (!this.#db.open) return;
    this.#writes.flush();
    this.#db.close();
  }

  #run<T>(what: string, statement: () => T): T {
    if (!this.#db.open) throw new StoreUnavailableError(this.name, "the store is closed");
    try {
      return statement();
    } catch (error) {
      throw toStoreError(this.name, what, error);
    }
  }

  // A row this code cannot read back is a broken store, not a programmer error of the caller.
  #convert<T>(convert: () => T): T {
    try {
      return convert();
    } catch (error) {
      throw toStoreError(this.name, "reading a stored approval", error);
    }
  }

  async #wrap<T>(what: string, work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (error) {
      if (error instanceof ToolgateError) throw error;
      throw toStoreError(this.name, what, error);
    }
  }
}
