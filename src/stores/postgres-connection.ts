/** The pool, migration and error handling shared by `PostgresApprovalStore` and `PostgresAuditSink`. */
import type pg from "pg";
import { StoreUnavailableError, ToolgateError } from "../runtime/errors.js";
import { loadOptional } from "./optional-module.js";
import { describePostgresUrl, type PostgresOptions } from "./postgres-options.js";
import { schemaTooNewError, toStoreError } from "./store-errors.js";

/** The `pg` driver, loaded on first use. */
export function loadPg(): typeof pg {
  return loadOptional<typeof pg>("pg", "postgres:// stores and sinks");
}

/** A migration: the SQL (several statements, no parameters) for the given table prefix. */
export type PostgresMigration = (prefix: string) => string;

export { describePostgresUrl, type PostgresOptions } from "./postgres-options.js";

const PREFIX = /^[a-z_][a-z0-9_]{0,40}$/;

/** A pool with its name, table prefix and a once-per-process migration of one component's tables. */
export class PostgresConnection {
  readonly name: string;
  readonly prefix: string;
  readonly pool: pg.Pool;
  readonly config: pg.PoolConfig;
  #ready: Promise<void> | undefined;
  #closed = false;
  readonly #component: string;
  readonly #migrations: readonly PostgresMigration[];

  constructor(
    url: string,
    options: PostgresOptions,
    component: string,
    migrations: readonly PostgresMigration[],
  ) {
    this.name = describePostgresUrl(url);
    this.prefix = options.tablePrefix ?? "toolgate_";
    if (!PREFIX.test(this.prefix)) {
      throw new ToolgateError(
        "invalid-store-option",
        `tablePrefix "${this.prefix}" is not allowed; use lower-case letters, digits and _ (such as toolgate_)`,
      );
    }
    this.#component = component;
    this.#migrations = migrations;
    this.config = {
      connectionString: url,
      max: options.max ?? 10,
      connectionTimeoutMillis: options.connectionTimeoutMillis ?? 5000,
      query_timeout: options.queryTimeoutMillis ?? 30_000,
      application_name: options.applicationName ?? "toolgate",
      keepAlive: true,
    };
    this.pool = new (loadPg().Pool)(this.config);
    // An idle connection that the server drops emits 'error' on the pool; unhandled, it would end the
    // process. The next query opens a fresh connection or fails with StoreUnavailableError.
    this.pool.on("error", () => {});
  }

  /** Connects and migrates once; a failed attempt is retried by the next call. */
  ready(): Promise<void> {
    if (this.#closed) return Promise.reject(new StoreUnavailableError(this.name, "the store is closed"));
    if (this.#ready === undefined) {
      this.#ready = this.#migrate().catch((error: unknown) => {
        this.#ready = undefined;
        throw toStoreError(this.name, `migrating the ${this.#component} tables`, error);
      });
    }
    return this.#ready;
  }

  /** Runs one statement after `ready`. @throws StoreUnavailableError for any failure. */
  async query<R extends pg.QueryResultRow>(
    what: string,
    sql: string,
    params: readonly unknown[],
  ): Promise<pg.QueryResult<R>> {
    await this.ready();
    try {
      return await this.pool.query<R>(sql, params as unknown[]);
    } catch (error) {
      throw toStoreError(this.name, what, error);
    }
  }

  /** Ends the pool; later calls reject with `StoreUnavailableError`. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.pool.end();
  }

  get closed(): boolean {
    return this.#closed;
  }

  async #migrate(): Promise<void> {
    const client = await this.pool.connect();
    let broken: unknown;
    try {
      await client.query("BEGIN");
      // Several instances starting at once: the lock makes them migrate one after another.
      await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`${this.prefix}migrate`]);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${this.prefix}meta (key text PRIMARY KEY, value integer NOT NULL)`,
      );
      const key = `${this.#component}.schema_version`;
      const found = await client.query<{ value: number }>(
        `SELECT value FROM ${this.prefix}meta WHERE key = $1`,
        [key],
      );
      const current = found.rows[0]?.value ?? 0;
      const known = this.#migrations.length;
      if (current > known) throw schemaTooNewError(this.name, this.#component, current, known);
      for (const migration of this.#migrations.slice(current)) await client.query(migration(this.prefix));
      if (current < known) {
        await client.query(
          `INSERT INTO ${this.prefix}meta (key, value) VALUES ($1, $2)
           ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
          [key, known],
        );
      }
      await client.query("COMMIT");
    } catch (error) {
      broken = error;
      await client.query("ROLLBACK").catch(() => {});
      throw error;
    } finally {
      client.release(broken === undefined ? undefined : true);
    }
  }
}
