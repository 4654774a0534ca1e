import { isAbsolute, resolve } from "node:path";
import { type ApprovalStore, MemoryApprovalStore } from "../runtime/approval-store.js";
import { type AuditSink, MemoryAuditSink } from "../runtime/audit.js";
import { ToolgateError } from "../runtime/errors.js";
import { JsonlAuditSink } from "./jsonl-audit-sink.js";
import { OtelAuditSink } from "./otel-audit-sink.js";
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
const AUDIT_FORMS = "memory, otel, jsonl:PATH, sqlite:PATH or postgres://user@host:port/db";

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
 * `jsonl:PATH`, `jsonl:PATH?keyFile=FILE` or `jsonl:PATH?keyEnv=NAME`: a keyed log takes its HMAC key from
 * the file (relative to `cwd`) or the environment variable.
 */
export function parseJsonlUrl(url: string): { path: string; key: { keyFile?: string; keyEnv?: string } } {
  const rest = pathAfter("jsonl:", url, "audit sink", AUDIT_FORMS);
  const query = /\?(keyFile|keyEnv)=([^?]*)$/.exec(rest);
  if (query === null) {
    if (/\?[A-Za-z_]+=/.test(rest))
      throw invalid("audit sink", url, AUDIT_FORMS, "unknown option (keyFile or keyEnv) in");
    return { path: rest, key: {} };
  }
  const value = query[2] as string;
  if (value === "") throw invalid("audit sink", url, AUDIT_FORMS, `empty ${query[1]} in`);
  if (query[1] === "keyEnv" && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(value))
    throw invalid("audit sink", url, AUDIT_FORMS, "keyEnv is not an environment variable name in");
  const path = rest.slice(0, query.index);
  if (path.trim() === "") throw invalid("audit sink", url, AUDIT_FORMS, "missing path in");
  return { path, key: query[1] === "keyFile" ? { keyFile: value } : { keyEnv: value } };
}

/**
 * Makes the relative paths of a `sqlite:` or `jsonl:` URL (the file, and a `jsonl:` log's `keyFile`) absolute
 * against `base`, keeping its options; other URLs come back unchanged.
 */
export function resolveStoreUrl(url: string, base: string): string {
  const absolute = (p: string): string => (isAbsolute(p) ? p : resolve(base, p));
  if (url.startsWith("sqlite:")) {
    const rest = url.slice("sqlite:".length);
    const query = /\?[A-Za-z_]+=[^?]*$/.exec(rest);
    const file = query === null ? rest : rest.slice(0, query.index);
    if (file === "" || file === ":memory:") return url;
    return `sqlite:${absolute(file)}${query === null ? "" : query[0]}`;
  }
  if (url.startsWith("jsonl:")) {
    const rest = url.slice("jsonl:".length);
    const query = /\?(keyFile|keyEnv)=([^?]*)$/.exec(rest);
    const file = query === null ? rest : rest.slice(0, query.index);
    if (file.trim() === "") return url;
    if (query === null) return `jsonl:${absolute(file)}`;
    const option =
      query[1] === "keyFile" && query[2] !== "" ? `?keyFile=${absolute(query[2] as string)}` : query[0];
    return `jsonl:${absolute(file)}${option}`;
  }
  return url;
}

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
 * Opens the audit sink a URL names: `memory`, `otel` (see `OtelAuditSink`), `jsonl:PATH` (keyed with `?keyFile=FILE` or `?keyEnv=NAME`),
 * `sqlite:PATH` (paths relative to `cwd`) or `postgres://…`/`postgresql://…`.
 * @throws ToolgateError `invalid-store-url` for any other form; StoreUnavailableError when a SQLite file
 *   cannot be opened.
 */
export function openAuditSink(url: string, options: OpenStoreOptions = {}): AuditSink {
  const cwd = options.cwd === undefined ? {} : { cwd: options.cwd };
  if (url === "memory") return new MemoryAuditSink();
  // OpenTelemetry through the registered providers: observability, not a durable record.
  if (url === "otel") return new OtelAuditSink();
  if (url.startsWith("jsonl:")) {
    const { path, key } = parseJsonlUrl(url);
    return new JsonlAuditSink(path, { ...cwd, ...key });
  }
  if (url.startsWith("sqlite:")) {
    const { path, synchronous } = sqliteUrl(url, "audit sink", AUDIT_FORMS);
    return new SqliteAuditSink(path, { ...cwd, ...synchronous });
  }
  if (isPostgres(url)) return new PostgresAuditSink(url);
  throw invalid("audit sink", url, AUDIT_FORMS, "unknown audit sink URL");
}
