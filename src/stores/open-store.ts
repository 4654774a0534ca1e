import { type ApprovalStore, MemoryApprovalStore } from "../runtime/approval-store.js";
import { type AuditSink, MemoryAuditSink } from "../runtime/audit.js";
import { ToolgateError } from "../runtime/errors.js";
import { JsonlAuditSink } from "./jsonl-audit-sink.js";
import { PostgresApprovalStore } from "./postgres-approval-store.js";
import { PostgresAuditSink } from "./postgres-audit-sink.js";
import { SqliteApprovalStore } from "./sqlite-approval-store.js";
import { SqliteAuditSink } from "./sqlite-audit-sink.js";

/** Options of `openApprovalStore` and `openAuditSink`. */
export interface OpenStoreOptions {
  /** Directory that relative `sqlite:` and `jsonl:` paths are resolved against (default: `process.cwd()`). */
  readonly cwd?: string;
}

const APPROVAL_FORMS =
  "memory, sqlite:PATH (such as sqlite:./.toolgate/state.db) or postgres://user@host:port/db";
const AUDIT_FORMS = "memory, jsonl:PATH, sqlite:PATH or postgres://user@host:port/db";

// Never echo a password back in a message.
const redact = (url: string): string => url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@/]*@/i, "$1:***@");

function invalid(kind: string, url: string, forms: string, why: string): ToolgateError {
  return new ToolgateError("invalid-store-url", `${why} "${redact(url)}" for the ${kind}; use ${forms}`);
}

function pathAfter(prefix: string, url: string, kind: string, forms: string): string {
  const file = url.slice(prefix.length);
  if (file.trim() === "") throw invalid(kind, url, forms, "missing path in");
  return file;
}

/**
 * `sqlite:PATH` or `sqlite:PATH?synchronous=normal|full`. `full` (the default) makes every take durable before
 * it returns, even across a power cut; `normal` is several times faster and durable across process crashes,
 * but a power cut can undo the last commits — and so let an approval run twice.
 */
function sqliteUrl(
  url: string,
  kind: string,
  forms: string,
): { path: string; synchronous: { synchronous?: "full" | "normal" } } {
  const rest = pathAfter("sqlite:", url, kind, forms);
  const query = /\?synchronous=(full|normal)$/.exec(rest);
  if (query === null) {
    if (/\?[a-z_]+=/.test(rest)) throw invalid(kind, url, forms, "unknown option in");
    return { path: rest, synchronous: {} };
  }
  return { path: rest.slice(0, query.index), synchronous: { synchronous: query[1] as "full" | "normal" } };
}

const isPostgres = (url: string): boolean => /^postgres(ql)?:\/\//i.test(url);

/**
 * Opens the approval store a URL names: `memory`, `sqlite:PATH` (relative to `cwd`) or
 * `postgres://…`/`postgresql://…`. A SQLite file is opened and migrated at once; PostgreSQL connects on first
 * use.
 * @throws ToolgateError `invalid-store-url` for any other form; StoreUnavailableError when a SQLite file
 *   cannot be opened.
 */
export function openApprovalStore(url: string, options: OpenStoreOptions = {}): ApprovalStore {
  const cwd = options.cwd === undefined ? {} : { cwd: options.cwd };
  if (url === "memory") return new MemoryApprovalStore();
  if (url.startsWith("sqlite:")) {
    const { path, synchronous } = sqliteUrl(url, "approval store", APPROVAL_FORMS);
    return new SqliteApprovalStore(path, { ...cwd, ...synchronous });
  }
  if (isPostgres(url)) return new PostgresApprovalStore(url);
  throw invalid("approval store", url, APPROVAL_FORMS, "unknown store URL");
}

/**
 * Opens the audit sink a URL names: `memory`, `jsonl:PATH`, `sqlite:PATH` (paths relative to `cwd`) or
 * `postgres://…`/`postgresql://…`.
 * @throws ToolgateError `invalid-store-url` for any other form; StoreUnavailableError when a SQLite file
 *   cannot be opened.
 */
export function openAuditSink(url: string, options: OpenStoreOptions = {}): AuditSink {
  const cwd = options.cwd === undefined ? {} : { cwd: options.cwd };
  if (url === "memory") return new MemoryAuditSink();
  if (url.startsWith("jsonl:"))
    return new JsonlAuditSink(pathAfter("jsonl:", url, "audit sink", AUDIT_FORMS), cwd);
  if (url.startsWith("sqlite:")) {
    const { path, synchronous } = sqliteUrl(url, "audit sink", AUDIT_FORMS);
    return new SqliteAuditSink(path, { ...cwd, ...synchronous });
  }
  if (isPostgres(url)) return new PostgresAuditSink(url);
  throw invalid("audit sink", url, AUDIT_FORMS, "unknown audit sink URL");
}
