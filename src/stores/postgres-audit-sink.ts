import type { AuditEvent, AuditSink } from "../runtime/audit.js";
import { StoreUnavailableError } from "../runtime/errors.js";
import { PostgresConnection, type PostgresMigration } from "./postgres-connection.js";
import type { PostgresOptions } from "./postgres-options.js";
import { toAuditColumns } from "./sqlite-audit-sink.js";
import { describeError } from "./store-errors.js";

/** Schema migrations of the audit table; index i moves version i to i + 1. Append, never edit. */
const MIGRATIONS: readonly PostgresMigration[] = [
  // `time` is the event's ISO text as written; `event` is the whole event, byte for byte, as JSON text.
  (p) => `
    CREATE TABLE ${p}audit (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      time text NOT NULL,
      type text NOT NULL,
      call_id text NOT NULL,
      tool text NOT NULL,
      fingerprint text NOT NULL,
      decision text,
      rule_ids text,
      event text NOT NULL
    );
    CREATE INDEX ${p}audit_call_id ON ${p}audit (call_id);
    CREATE INDEX ${p}audit_time ON ${p}audit (time);`,
];

const noNul = (s: string): string => s.replaceAll("\u0000", "\uFFFD");

/**
 * An `AuditSink` writing one row per event to table `<prefix>audit` (default `toolgate_audit`) in PostgreSQL.
 * The table is created on first use under an advisory lock. `record` resolves once the row is committed;
 * failures, including an unreachable server, reject with `StoreUnavailableError`. `name` has no password.
 */
export class PostgresAuditSink implements AuditSink {
  /** `postgres://user@host:port/db`, without password. */
  readonly name: string;
  readonly #db: PostgresConnection;
  readonly #sql: string;

  /**
   * @param url a `postgres://` or `postgresql://` connection string.
   * @throws ToolgateError `invalid-store-url` or `invalid-store-option`. Connects lazily: see `ready`.
   */
  constructor(url: string, options: PostgresOptions = {}) {
    this.#db = new PostgresConnection(url, options, "audit", MIGRATIONS);
    this.name = this.#db.name;
    this.#sql = `INSERT INTO ${this.#db.prefix}audit (time, type, call_id, tool, fingerprint, decision, rule_ids, event)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`;
  }

  /** Connects and creates or migrates the table. Optional: `record` does it on first use. */
  ready(): Promise<void> {
    return this.#db.ready();
  }

  /** Inserts one event. @throws StoreUnavailableError. */
  async record(event: AuditEvent): Promise<void> {
    let c: ReturnType<typeof toAuditColumns>;
    try {
      c = toAuditColumns(event);
    } catch (error) {
      throw new StoreUnavailableError(this.name, `the event is not JSON: ${describeError(error)}`, {
        cause: error,
      });
    }
    await this.#db.query("recording an event", this.#sql, [
      noNul(c.time),
      noNul(c.type),
      noNul(c.call_id),
      noNul(c.tool),
      noNul(c.fingerprint),
      c.decision === null ? null : noNul(c.decision),
      c.rule_ids,
      c.event,
    ]);
  }

  /** Ends the pool. */
  async close(): Promise<void> {
    await this.#db.close();
  }
}
