import type pg from "pg";
import type {
  ApprovalState,
  ApprovalStore,
  GetResult,
  RespondResult,
  StoredApproval,
  TakeResult,
} from "../runtime/approval-store.js";
import { ToolgateError } from "../runtime/errors.js";
import type { ApprovalGrant, GrantStore, RevokeGrantResult } from "../runtime/grants.js";
import type { ApprovalRequest, ApprovalResponse } from "../runtime/types.js";
import {
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
import { loadPg, PostgresConnection, type PostgresMigration } from "./postgres-connection.js";
import type { PostgresOptions } from "./postgres-options.js";
import { toStoreError } from "./store-errors.js";

/** Schema migrations of the approvals table; index i moves version i to i + 1. Append, never edit. */
const MIGRATIONS: readonly PostgresMigration[] = [
  // JSON is kept as text, byte for byte as written (jsonb would reorder keys and refuse \u0000).
  (p) => `
    CREATE TABLE ${p}approvals (
      id text PRIMARY KEY,
      seq bigint GENERATED ALWAYS AS IDENTITY,
      state text NOT NULL CHECK (state IN ('pending', 'approved', 'rejected', 'used', 'expired')),
      tool text NOT NULL,
      call_id text NOT NULL,
      arguments_hash text NOT NULL,
      policy_fingerprint text NOT NULL,
      created_at bigint NOT NULL,
      expires_at bigint NOT NULL,
      approver text,
      request text NOT NULL,
      response text,
      updated_at bigint NOT NULL
    );
    CREATE INDEX ${p}approvals_state_created ON ${p}approvals (state, created_at, seq);
    CREATE INDEX ${p}approvals_state_expires ON ${p}approvals (state, expires_at);
    CREATE INDEX ${p}approvals_call_id ON ${p}approvals (call_id);`,
  // Grants: approvals remembered for the same tool and arguments; one at most per approval.
  (p) => `
    CREATE TABLE ${p}grants (
      id text PRIMARY KEY,
      seq bigint GENERATED ALWAYS AS IDENTITY,
      tool text NOT NULL,
      arguments_hash text NOT NULL,
      approval_id text NOT NULL UNIQUE,
      created_at bigint NOT NULL,
      expires_at bigint NOT NULL,
      revoked_at bigint,
      revoked_by text,
      body text NOT NULL
    );
    CREATE INDEX ${p}grants_lookup ON ${p}grants (tool, arguments_hash) WHERE revoked_at IS NULL;`,
];

const GRANT_COLUMNS = "body, revoked_at, revoked_by";

const COLUMNS = "id, state, request, response, updated_at";

/**
 * An `ApprovalStore` in PostgreSQL, for several application instances sharing approvals. `take` is one
 * `UPDATE … RETURNING` statement, so an approval id is taken at most once across all instances. The tables
 * are created on first use, in a transaction holding `pg_advisory_xact_lock`, so that instances starting
 * together do not race; a schema written by a newer toolgate is refused.
 *
 * `respond` sends `NOTIFY <prefix>approvals, '<id>'` (default channel `toolgate_approvals`), which
 * `waitForDecision` listens for. Connection failures, including a connection dropped mid-statement, reject
 * with `StoreUnavailableError`; `name` never contains the password. `put` of an existing id throws
 * `ToolgateError` with code `approval-exists`.
 */
export class PostgresApprovalStore implements ApprovalStore, GrantStore {
  /** `postgres://user@host:port/db`, without password. */
  readonly name: string;
  /** The channel `respond` notifies: `<prefix>approvals`. */
  readonly channel: string;
  readonly #db: PostgresConnection;
  readonly #table: ApprovalTable;
  readonly #t: string;
  readonly #g: string;
  #listener: Promise<pg.Client> | undefined;
  readonly #waiters = new Map<string, Set<() => void>>();

  /**
   * @param url a `postgres://` or `postgresql://` connection string.
   * @throws ToolgateError `invalid-store-url` or `invalid-store-option`. Connects lazily: see `ready`.
   */
  constructor(url: string, options: PostgresOptions = {}) {
    this.#db = new PostgresConnection(url, options, "approvals", MIGRATIONS);
    this.name = this.#db.name;
    this.#t = `${this.#db.prefix}approvals`;
    this.#g = `${this.#db.prefix}grants`;
    this.channel = this.#t;
    const t = this.#t;
    const one = async (what: string, sql: string, params: readonly unknown[]) =>
      (await this.#db.query<ApprovalRow>(what, sql, params)).rows[0];
    this.#table = {
      takeOpen: (id, now) =>
        one(
          "take",
          `UPDATE ${t} SET state = 'used', updated_at = $2
           WHERE id = $1 AND state IN ('pending', 'approved', 'rejected') AND expires_at > $2
           RETURNING ${COLUMNS}`,
          [id, now],
        ),
      // The notification is sent when the statement commits, and only for a recorded decision.
      decide: (response, now) =>
        one(
          "respond",
          `WITH decided AS (
             UPDATE ${t} SET state = $3, response = $4, approver = $5, updated_at = $2
             WHERE id = $1 AND state = 'pending' AND expires_at > $2
             RETURNING ${COLUMNS}
           )
           SELECT ${COLUMNS}, pg_notify($6, id) AS notified FROM decided`,
          [
            response.approvalId,
            now,
            response.approved ? "approved" : "rejected",
            JSON.stringify(response),
            response.approver ?? null,
            this.channel,
          ],
        ),
      markExpired: (id, now, states) =>
        one(
          "expire",
          `UPDATE ${t} SET state = 'expired', updated_at = $2
           WHERE id = $1 AND state = ANY($3::text[]) AND expires_at <= $2
           RETURNING ${COLUMNS}`,
          [id, now, states],
        ),
      read: (id) => one("read", `SELECT ${COLUMNS} FROM ${t} WHERE id = $1`, [id]),
    };
  }

  /** Connects and creates or migrates the tables. Optional: every method does it on first use. */
  ready(): Promise<void> {
    return this.#db.ready();
  }

  /** Stores a new pending request. @throws ToolgateError `approval-exists`, StoreUnavailableError. */
  async put(request: ApprovalRequest): Promise<void> {
    const c = toApprovalColumns(request);
    const result = await this.#db.query(
      "put",
      `INSERT INTO ${this.#t}
         (id, state, tool, call_id, arguments_hash, policy_fingerprint, created_at, expires_at, request, updated_at)
       VALUES ($1, 'pending', $2, $3, $4, $5, $6, $7, $8, $6)
       ON CONFLICT (id) DO NOTHING`,
      [
        c.id,
        c.tool,
        c.call_id,
        c.arguments_hash,
        c.policy_fingerprint,
        c.created_at,
        c.expires_at,
        c.request,
      ],
    );
    if (result.rowCount === 0) {
      throw approvalExistsError(this.name, request.approvalId);
    }
  }

  /**
   * Records a decision and, in the same statement and only when it is recorded, the grant
   * (see `GrantStore.respondAndGrant`); waiters are notified as by `respond`.
   */
  async respondAndGrant(
    response: ApprovalResponse & { readonly grantId: string },
    grant: ApprovalGrant,
    now: number,
  ): Promise<RespondResult> {
    const c = toGrantColumns(grant);
    const t = this.#t;
    const table: ApprovalTable = {
      ...this.#table,
      decide: async (answer, at) =>
        (
          await this.#db.query<ApprovalRow>(
            "respond",
            `WITH decided AS (
               UPDATE ${t} SET state = $3, response = $4, approver = $5, updated_at = $2
               WHERE id = $1 AND state = 'pending' AND expires_at > $2
               RETURNING ${COLUMNS}
             ), granted AS (
               INSERT INTO ${this.#g} (id, tool, arguments_hash, approval_id, created_at, expires_at, body)
               SELECT $7, $8, $9, id, $10, $11, $12 FROM decided
             )
             SELECT ${COLUMNS}, pg_notify($6, id) AS notified FROM decided`,
            [
              answer.approvalId,
              at,
              answer.approved ? "approved" : "rejected",
              JSON.stringify(answer),
              answer.approver ?? null,
              this.channel,
              c.grant_id,
              c.grant_tool,
              c.grant_hash,
              c.grant_created,
              c.grant_expires,
              c.grant_body,
            ],
          )
        ).rows[0],
    };
    return this.#wrap("respond", respondTo(table, response, now));
  }

  /** The grants for a tool and arguments hash that are neither revoked nor expired at `now`. */
  async findGrants(toolName: string, argumentsHash: string, now: number): Promise<readonly ApprovalGrant[]> {
    const result = await this.#db.query<GrantRow>(
      "find grants",
      `SELECT ${GRANT_COLUMNS} FROM ${this.#g}
       WHERE tool = $1 AND arguments_hash = $2 AND revoked_at IS NULL AND expires_at > $3 ORDER BY created_at, seq`,
      [toolName.replaceAll("\u0000", "\uFFFD"), argumentsHash.replaceAll("\u0000", "\uFFFD"), now],
    );
    return this.#convertGrants(result.rows);
  }

  /** Grants, oldest first: the active ones at `now`, or with `all` every one. */
  async listGrants(options: {
    readonly now: number;
    readonly all?: boolean;
  }): Promise<readonly ApprovalGrant[]> {
    const result = await this.#db.query<GrantRow>(
      "list grants",
      `SELECT ${GRANT_COLUMNS} FROM ${this.#g}
       WHERE $2::boolean OR (revoked_at IS NULL AND expires_at > $1) ORDER BY created_at, seq`,
      [options.now, options.all === true],
    );
    return this.#convertGrants(result.rows);
  }

  /** Revokes a grant once. */
  async revokeGrant(grantId: string, revokedBy: string, now: number): Promise<RevokeGrantResult> {
    const revoked = await this.#db.query<GrantRow>(
      "revoke grant",
      `UPDATE ${this.#g} SET revoked_at = $2, revoked_by = $3 WHERE id = $1 AND revoked_at IS NULL
       RETURNING ${GRANT_COLUMNS}`,
      [grantId.replaceAll("\u0000", "\uFFFD"), now, revokedBy.replaceAll("\u0000", "\uFFFD")],
    );
    const row = revoked.rows[0];
    if (row !== undefined)
      return { status: "revoked", grant: this.#convertGrants([row])[0] as ApprovalGrant };
    const found = await this.#db.query<GrantRow>(
      "read grant",
      `SELECT ${GRANT_COLUMNS} FROM ${this.#g} WHERE id = $1`,
      [grantId.replaceAll("\u0000", "\uFFFD")],
    );
    const existing = found.rows[0];
    if (existing === undefined) return { status: "not-found" };
    return { status: "already-revoked", grant: this.#convertGrants([existing])[0] as ApprovalGrant };
  }

  /** Consumes a request at most once across instances (see `ApprovalStore.take`). */
  async take(approvalId: string, now: number): Promise<TakeResult> {
    return this.#wrap("take", takeFrom(this.#table, approvalId, now));
  }

  /** Records a person's decision on a pending request and notifies waiters (see `ApprovalStore.respond`). */
  async respond(response: ApprovalResponse, now: number): Promise<RespondResult> {
    return this.#wrap("respond", respondTo(this.#table, response, now));
  }

  /** Reads one request with its state. */
  async get(approvalId: string): Promise<GetResult> {
    const row = await this.#table.read(approvalId);
    return row === undefined
      ? { found: false }
      : { found: true, approval: this.#convert([row])[0] as StoredApproval };
  }

  /** Requests in the given states (default: pending, approved and rejected), oldest first. */
  async list(states: readonly ApprovalState[] = OPEN_STATES): Promise<readonly StoredApproval[]> {
    const result = await this.#db.query<ApprovalRow>(
      "list",
      `SELECT ${COLUMNS} FROM ${this.#t} WHERE state = ANY($1::text[]) ORDER BY created_at, seq`,
      [states],
    );
    return this.#convert(result.rows);
  }

  /**
   * Reads requests through a server-side cursor in a read-only transaction, `SCAN_PAGE` rows per fetch, oldest
   * first: one sort on the server, and flat memory here however many rows match. Holds one pooled connection
   * until the iteration ends (or is left early).
   * @throws StoreUnavailableError; InvalidOptionError for a bad limit.
   */
  async *scan(options: ApprovalScanOptions = {}): AsyncGenerator<StoredApproval> {
    checkScanLimit(options.limit);
    if (options.limit === 0) return;
    await this.#db.ready();
    let client: pg.PoolClient;
    try {
      client = await this.#db.pool.connect();
    } catch (error) {
      throw toStoreError(this.name, "scan", error);
    }
    let broken = false;
    try {
      try {
        await client.query("BEGIN READ ONLY");
        await client.query(
          `DECLARE toolgate_scan NO SCROLL CURSOR FOR
             SELECT ${COLUMNS} FROM ${this.#t}
             WHERE state = ANY($1::text[]) AND ($2::text IS NULL OR tool = $2)
             ORDER BY created_at, seq ${options.limit === undefined ? "" : `LIMIT ${options.limit}`}`,
          [options.states ?? OPEN_STATES, options.tool ?? null],
        );
      } catch (error) {
        broken = true;
        throw toStoreError(this.name, "scan", error);
      }
      for (;;) {
        let rows: ApprovalRow[];
        try {
          rows = (await client.query<ApprovalRow>(`FETCH ${SCAN_PAGE} FROM toolgate_scan`)).rows;
        } catch (error) {
          broken = true;
          throw toStoreError(this.name, "scan", error);
        }
        for (const approval of this.#convert(rows)) yield approval;
        if (rows.length < SCAN_PAGE) break;
      }
    } finally {
      // Ends the transaction (and the cursor) also when the caller stops early; a broken connection is dropped.
      if (!broken)
        await client.query("ROLLBACK").catch(() => {
          broken = true;
        });
      client.release(broken ? true : undefined);
    }
  }

  /** Marks every pending request past its `expiresAt` at `now` as expired; returns how many, not the rows. */
  async expireQuietly(now: number): Promise<number> {
    const result = await this.#db.query(
      "expire",
      `UPDATE ${this.#t} SET state = 'expired', updated_at = $1 WHERE state = 'pending' AND expires_at <= $1`,
      [now],
    );
    return result.rowCount ?? 0;
  }

  /** Marks every pending request past its `expiresAt` at `now` as expired and returns those requests. */
  async expire(now: number): Promise<readonly ApprovalRequest[]> {
    const result = await this.#db.query<ApprovalRow & { created_at: string; seq: string }>(
      "expire",
      `UPDATE ${this.#t} SET state = 'expired', updated_at = $1
       WHERE state = 'pending' AND expires_at <= $1
       RETURNING ${COLUMNS}, created_at, seq`,
      [now],
    );
    const rows = [...result.rows].sort(
      (a, b) => Number(a.created_at) - Number(b.created_at) || Number(a.seq) - Number(b.seq),
    );
    return this.#convert(rows).map((a) => a.request);
  }

  /**
   * Resolves with the stored approval once it is no longer pending (decided, taken, or expired — an approval
   * whose time is up is marked expired). Wakes on `NOTIFY` from `respond` in any instance, and also polls
   * every `pollMs` (default 2000) in case notifications are lost (a dropped listening connection).
   * @throws ApprovalError `not-found` for an unknown id; the signal's reason when aborted;
   *   StoreUnavailableError.
   */
  async waitForDecision(approvalId: string, options: WaitForDecisionOptions = {}): Promise<StoredApproval> {
    // LISTEN is best effort: without it, polling alone still finds the decision.
    await this.#listen().catch(() => {});
    return pollUntilDecided(
      () => this.#wrap("waitForDecision", checkDecided(this.#table, this.name, approvalId, Date.now())),
      { signal: options.signal, pollMs: options.pollMs ?? 2000 },
      (wake) => {
        let set = this.#waiters.get(approvalId);
        if (set === undefined) {
          set = new Set();
          this.#waiters.set(approvalId, set);
        }
        set.add(wake);
        return () => {
          set.delete(wake);
          if (set.size === 0) this.#waiters.delete(approvalId);
        };
      },
    );
  }

  /** Ends the pool and the listening connection; later calls reject with `StoreUnavailableError`. */
  async close(): Promise<void> {
    const listener = this.#listener;
    this.#listener = undefined;
    await Promise.all([this.#db.close(), listener?.then((client) => client.end()).catch(() => {})]);
  }

  // One dedicated connection per store listens; when it fails it is dropped and the next wait reconnects.
  #listen(): Promise<pg.Client> {
    if (this.#listener !== undefined) return this.#listener;
    const client = new (loadPg().Client)({
      ...this.#db.config,
      application_name: `${this.#db.config.application_name}-listen`,
    });
    const drop = (): void => {
      if (this.#listener === started) this.#listener = undefined;
      client.end().catch(() => {});
    };
    client.on("error", drop);
    client.on("end", drop);
    client.on("notification", (message) => {
      if (message.channel !== this.channel || message.payload === undefined) return;
      for (const wake of this.#waiters.get(message.payload) ?? []) wake();
    });
    const started = (async () => {
      await this.#db.ready();
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
      return client;
    })();
    this.#listener = started;
    started.catch(drop);
    return started;
  }

  #convertGrants(rows: readonly GrantRow[]): ApprovalGrant[] {
    try {
      return rows.map(toGrant);
    } catch (error) {
      throw toStoreError(this.name, "reading a stored grant", error);
    }
  }

  #convert(rows: readonly ApprovalRow[]): StoredApproval[] {
    try {
      return rows.map(toStoredApproval);
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
