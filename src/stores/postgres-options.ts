/** The options of the PostgreSQL store and sink, and URL naming (apart from the driver, which is optional). */
import { ToolgateError } from "../runtime/errors.js";

/** Options of the PostgreSQL store and sink. */
export interface PostgresOptions {
  /**
   * Prefix of the table names (default `toolgate_`): `<prefix>meta`, `<prefix>approvals`, `<prefix>audit`; the
   * `NOTIFY` channel is `<prefix>approvals`. Lower-case letters, digits and `_`.
   */
  readonly tablePrefix?: string;
  /** Most connections the pool opens (default 10). */
  readonly max?: number;
  /** How long to wait for a connection before failing, in ms (default 5000). */
  readonly connectionTimeoutMillis?: number;
  /** How long to wait for a query before failing, in ms (default 30000). */
  readonly queryTimeoutMillis?: number;
  /** `application_name` of the connections, shown in `pg_stat_activity` (default `toolgate`). */
  readonly applicationName?: string;
}

/**
 * The name of a PostgreSQL URL for messages: `postgres://user@host:port/db`, without password or query.
 * @throws ToolgateError `invalid-store-url` when `url` does not parse.
 */
export function describePostgresUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (error) {
    throw new ToolgateError(
      "invalid-store-url",
      `cannot parse the PostgreSQL URL (expected postgres://user@host:port/database)`,
      { cause: error },
    );
  }
  const user = parsed.username === "" ? "" : `${parsed.username}@`;
  const host = parsed.hostname === "" ? "localhost" : parsed.hostname;
  return `postgres://${user}${host}:${parsed.port === "" ? "5432" : parsed.port}${parsed.pathname}`;
}
