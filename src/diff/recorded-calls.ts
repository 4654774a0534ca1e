/**
 * Calls an agent really made, read back from an audit log for `toolgate diff --calls`: the `call.received`
 * events of a JSONL log, or of the `toolgate_audit` table of a SQLite file or a PostgreSQL database (the
 * shapes the audit sinks write). Events whose arguments were redacted are left out: a `"[redacted]"` stand-in
 * is not what the agent sent, so replaying it would say nothing true. The audit log does not record the
 * caller's context: recorded calls are replayed with an empty context.
 */
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { resolve } from "node:path";
import { canonicalJson } from "../runtime/canonical-json.js";
import { ToolgateError } from "../runtime/errors.js";
import { parseStoreUrl, type StoreUrl } from "../stores/store-url.js";

/** One recorded call. */
export interface RecordedCall {
  readonly tool: string;
  readonly arguments: unknown;
}

/** What was read, and how many events were passed over (redacted, or not calls). */
export interface RecordedCalls {
  readonly calls: readonly RecordedCall[];
  /** `call.received` events whose arguments were redacted (in part or whole): not replayed. */
  readonly redacted: number;
  /** Calls read before duplicates were merged. */
  readonly read: number;
}

/** A log that cannot be read (a usage error for the CLI). */
export class RecordedCallsError extends ToolgateError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("recorded-calls", message, options);
  }
}

const REDACTED = "[redacted]";

function isRedacted(value: unknown): boolean {
  if (value === REDACTED) return true;
  if (value === null || typeof value !== "object") return false;
  return Object.values(value).some(isRedacted);
}

/** Collects `call.received` events, merging calls made more than once. */
class Collector {
  readonly calls: RecordedCall[] = [];
  readonly #seen = new Set<string>();
  redacted = 0;
  read = 0;

  add(event: unknown): void {
    if (event === null || typeof event !== "object") return;
    const e = event as { type?: unknown; toolName?: unknown; arguments?: unknown };
    if (e.type !== "call.received" || typeof e.toolName !== "string") return;
    if (!Object.hasOwn(e, "arguments") || isRedacted(e.arguments)) {
      this.redacted++;
      return;
    }
    this.read++;
    const key = canonicalJson([e.toolName, e.arguments]);
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    this.calls.push({ tool: e.toolName, arguments: e.arguments });
  }

  result(): RecordedCalls {
    return { calls: this.calls, redacted: this.redacted, read: this.read };
  }
}

function readJsonl(path: string, source: string): RecordedCalls {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new RecordedCallsError(`cannot read ${source}: ${(error as Error).message}`, { cause: error });
  }
  const collector = new Collector();
  const lines = text.split("\n");
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    let event: unknown;
    try {
      event = JSON.parse(line);
    } catch {
      throw new RecordedCallsError(
        `${source}:${index + 1} is not a JSON line; --calls reads a JSONL audit log, a SQLite file or a postgres:// URL`,
      );
    }
    collector.add(event);
  });
  return collector.result();
}

async function readSqlite(path: string, source: string): Promise<RecordedCalls> {
  const { default: Database } = await import("better-sqlite3");
  let db: import("better-sqlite3").Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new RecordedCallsError(`cannot open ${source}: ${(error as Error).message}`, { cause: error });
  }
  try {
    const rows = db
      .prepare("SELECT event FROM toolgate_audit WHERE type = 'call.received' ORDER BY id")
      .all() as { event: string }[];
    const collector = new Collector();
    for (const row of rows) collector.add(JSON.parse(row.event));
    return collector.result();
  } catch (error) {
    throw new RecordedCallsError(
      `cannot read the audit table of ${source}: ${(error as Error).message}; is it a toolgate audit database?`,
      { cause: error },
    );
  } finally {
    db.close();
  }
}

async function readPostgres(url: string, tablePrefix: string): Promise<RecordedCalls> {
  if (!/^[a-z_][a-z0-9_]*$/.test(tablePrefix)) {
    throw new RecordedCallsError(
      `table prefix "${tablePrefix}" is not allowed; use lower-case letters, digits and _`,
    );
  }
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  const name = url.replace(/\/\/([^@/]*)@/, (_, auth: string) => `//${auth.split(":")[0]}@`);
  try {
    await client.connect();
    const result = await client.query<{ event: string }>(
      `SELECT event FROM ${tablePrefix}audit WHERE type = 'call.received' ORDER BY id`,
    );
    const collector = new Collector();
    for (const row of result.rows) collector.add(JSON.parse(row.event));
    return collector.result();
  } catch (error) {
    throw new RecordedCallsError(`cannot read the audit table of ${name}: ${(error as Error).message}`, {
      cause: error,
    });
  } finally {
    await client.end().catch(() => {});
  }
}

function isSqliteFile(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const header = Buffer.alloc(16);
    readSync(fd, header, 0, 16, 0);
    return header.toString("latin1") === "SQLite format 3\u0000";
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Reads the calls of an audit log: `postgres://…` (or `postgresql://…`), `sqlite:PATH`, `jsonl:PATH`, or a
 * path (a SQLite file is told by its header; anything else is read as JSONL).
 * @param spec - the `--calls` value.
 * @param cwd - what a relative path is relative to.
 * @param options.tablePrefix - PostgreSQL table prefix, as the sink was given it (default `toolgate_`).
 * @throws RecordedCallsError when the log cannot be read.
 */
export async function readRecordedCalls(
  spec: string,
  cwd: string,
  options: { readonly tablePrefix?: string } = {},
): Promise<RecordedCalls> {
  // A store URL is read as the sinks read it (options such as `?synchronous=` or `?keyFile=` are not part
  // of the path); anything else is a path.
  let parsed: StoreUrl | undefined;
  if (/^(postgres(ql)?:\/\/|sqlite:|jsonl:)/i.test(spec)) {
    try {
      parsed = parseStoreUrl(spec, "audit sink");
    } catch (error) {
      throw new RecordedCallsError(`cannot read ${spec}: ${(error as Error).message}`, { cause: error });
    }
  }
  if (parsed?.kind === "postgres") return readPostgres(parsed.url, options.tablePrefix ?? "toolgate_");
  if (parsed?.kind === "sqlite") return readSqlite(resolve(cwd, parsed.path), spec);
  const path = resolve(cwd, parsed?.kind === "jsonl" ? parsed.path : spec);
  return isSqliteFile(path) ? readSqlite(path, spec) : readJsonl(path, spec);
}
