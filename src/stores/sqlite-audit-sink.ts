import type Database from "better-sqlite3";
import type { AuditEvent, AuditSink } from "../runtime/audit.js";
import { StoreUnavailableError } from "../runtime/errors.js";
import { openSqlite, resolveSqlitePath } from "./sqlite-database.js";
import type { SqliteOptions } from "./sqlite-options.js";
import { SqliteWriteQueue } from "./sqlite-write-queue.js";
import { describeError, toStoreError } from "./store-errors.js";

/** Schema migrations of the audit table; index i moves version i to i + 1. Append, never edit. */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE toolgate_audit (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     time TEXT NOT NULL,
     type TEXT NOT NULL,
     call_id TEXT NOT NULL,
     tool TEXT NOT NULL,
     fingerprint TEXT NOT NULL,
     decision TEXT,
     rule_ids TEXT,
     event TEXT NOT NULL
   );
   CREATE INDEX toolgate_audit_call_id ON toolgate_audit (call_id);
   CREATE INDEX toolgate_audit_time ON toolgate_audit (time);`,
];

interface AuditColumns {
  time: string;
  type: string;
  call_id: string;
  tool: string;
  fingerprint: string;
  decision: string | null;
  rule_ids: string | null;
  event: string;
}

/** Serialises an event into its row (`rule_ids` and `event` as JSON text). @throws ToolgateError `invalid-json-value` for non-JSON. */
export function toAuditColumns(event: AuditEvent): AuditColumns {
  return {
    time: event.time,
    type: event.type,
    call_id: event.callId,
    tool: event.toolName,
    fingerprint: event.fingerprint,
    decision: event.decision ?? null,
    rule_ids: event.ruleIds === undefined ? null : JSON.stringify(event.ruleIds),
    event: JSON.stringify(event),
  };
}

/**
 * An `AuditSink` writing one row per event to table `toolgate_audit` of a SQLite file (WAL mode; it may be
 * the same file as `SqliteApprovalStore`'s). `record` resolves once the row is committed (synced to disk
 * unless `synchronous: "normal"`); events recorded in the same turn of the event loop share one commit.
 * Failures reject with `StoreUnavailableError` naming `sqlite:<path>`.
 */
export class SqliteAuditSink implements AuditSink {
  /** `sqlite:` followed by the path as given. */
  readonly name: string;
  /** The absolute path of the database file. */
  readonly file: string;
  readonly #db: Database.Database;
  readonly #insert: Database.Statement<AuditColumns>;
  readonly #writes: SqliteWriteQueue;

  /**
   * @param file path of the database file, relative to `options.cwd`.
   * @throws StoreUnavailableError when the file cannot be opened or migrated.
   */
  constructor(file: string, options: SqliteOptions = {}) {
    this.name = `sqlite:${file}`;
    this.file = resolveSqlitePath(file, options.cwd);
    this.#db = openSqlite(this.name, this.file, options, "audit", MIGRATIONS);
    this.#writes = new SqliteWriteQueue(this.name, this.#db);
    try {
      this.#insert = this.#db.prepare<AuditColumns>(
        `INSERT INTO toolgate_audit (time, type, call_id, tool, fingerprint, decision, rule_ids, event)
         VALUES (@time, @type, @call_id, @tool, @fingerprint, @decision, @rule_ids, @event)`,
      );
    } catch (error) {
      this.#db.close();
      throw toStoreError(this.name, "preparing statements", error);
    }
  }

  /** Inserts one event. @throws StoreUnavailableError. */
  async record(event: AuditEvent): Promise<void> {
    let columns: AuditColumns;
    try {
      columns = toAuditColumns(event);
    } catch (error) {
      throw new StoreUnavailableError(this.name, `the event is not JSON: ${describeError(error)}`, {
        cause: error,
      });
    }
    if (!this.#db.open) throw new StoreUnavailableError(this.name, "the sink is closed");
    await this.#writes.enqueue("recording an event", () => this.#insert.run(columns));
  }

  /** Commits the events still queued and closes the database. */
  async close(): Promise<void> {
    if (!this.#db.open) return;
    this.#writes.flush();
    this.#db.close();
  }
}
