/** Opening and migrating the SQLite file shared by `SqliteApprovalStore` and `SqliteAuditSink`. */
import path from "node:path";
import type Database from "better-sqlite3";
import { loadOptional, nativeModuleError } from "./optional-module.js";
import type { SqliteOptions } from "./sqlite-options.js";
import { schemaTooNewError, toStoreError } from "./store-errors.js";
import { prepareStoreFile, tightenStoreFiles } from "./store-files.js";

export type { SqliteOptions } from "./sqlite-options.js";

/** Resolves a store path against `cwd`; `:memory:` stays as it is. */
export function resolveSqlitePath(file: string, cwd: string | undefined): string {
  return file === ":memory:" ? file : path.resolve(cwd ?? process.cwd(), file);
}

/**
 * Opens (creating the parent directory 0700 and the file 0600, see `prepareStoreFile`; SQLite gives its `-wal`
 * and `-shm` files the database's mode) a database in WAL mode with a busy timeout, and brings the schema of
 * `component` to the last of `migrations` (index i moves version i to i + 1) in one IMMEDIATE transaction.
 * Versions live in `toolgate_meta`, one row per component, so that approvals and audit can share a file.
 * Throws `StoreUnavailableError` naming `store`.
 */
export function openSqlite(
  store: string,
  file: string,
  options: SqliteOptions,
  component: string,
  migrations: readonly string[],
): Database.Database {
  const BetterSqlite = loadOptional<typeof Database>("better-sqlite3", "sqlite: stores and sinks");
  let db: Database.Database | undefined;
  try {
    const companions = file === ":memory:" ? [] : [`${file}-wal`, `${file}-shm`, `${file}-journal`];
    if (file !== ":memory:") prepareStoreFile(store, file, { companions, create: true });
    db = new BetterSqlite(file, { timeout: options.busyTimeoutMs ?? 5000 });
    db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? 5000))}`);
    db.pragma("journal_mode = WAL");
    tightenStoreFiles(store, companions);
    db.pragma("temp_store = MEMORY");
    db.pragma(`synchronous = ${options.synchronous === "normal" ? "NORMAL" : "FULL"}`);
    const conn = db;
    conn
      .transaction(() => {
        conn.exec("CREATE TABLE IF NOT EXISTS toolgate_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)");
        const key = `${component}.schema_version`;
        const row = conn.prepare("SELECT value FROM toolgate_meta WHERE key = ?").get(key) as
          | { value: number }
          | undefined;
        const current = row?.value ?? 0;
        if (current > migrations.length)
          throw schemaTooNewError(store, component, current, migrations.length);
        for (const sql of migrations.slice(current)) conn.exec(sql);
        if (current < migrations.length) {
          conn
            .prepare(
              "INSERT INTO toolgate_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            )
            .run(key, migrations.length);
        }
      })
      .immediate();
    return db;
  } catch (error) {
    db?.close();
    throw (
      nativeModuleError("better-sqlite3", "sqlite: stores and sinks", error) ??
      toStoreError(store, "opening the database", error)
    );
  }
}
