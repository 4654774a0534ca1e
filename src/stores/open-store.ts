import { type ApprovalStore, MemoryApprovalStore } from "../runtime/approval-store.js";
import { type AuditSink, MemoryAuditSink } from "../runtime/audit.js";
import { ToolgateError } from "../runtime/errors.js";
import { JsonlAuditSink } from "./jsonl-audit-sink.js";
import { OtelAuditSink } from "./otel-audit-sink.js";
import { PostgresApprovalStore } from "./postgres-approval-store.js";
import { PostgresAuditSink } from "./postgres-audit-sink.js";
import { SqliteApprovalStore } from "./sqlite-approval-store.js";
import { SqliteAuditSink } from "./sqlite-audit-sink.js";
import { parseStoreUrl } from "./store-url.js";

export { resolveStoreUrl } from "./store-url.js";

/** Options of `openApprovalStore` and `openAuditSink`. */
export interface OpenStoreOptions {
  /** Directory that relative `sqlite:` and `jsonl:` paths are resolved against (default: `process.cwd()`). */
  readonly cwd?: string;
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
  const parsed = parseStoreUrl(url, "approval store");
  switch (parsed.kind) {
    case "sqlite":
      return new SqliteApprovalStore(parsed.path, {
        ...cwd,
        ...(parsed.synchronous === undefined ? {} : { synchronous: parsed.synchronous }),
      });
    case "postgres":
      return new PostgresApprovalStore(parsed.url);
    case "memory":
      return new MemoryApprovalStore();
    default:
      // parseStoreUrl admits no other kind for an approval store; fail closed if that ever changes.
      throw new ToolgateError("invalid-store-url", `an approval store cannot be a ${parsed.kind} URL`);
  }
}

/**
 * Opens the audit sink a URL names: `memory`, `otel` (see `OtelAuditSink`), `jsonl:PATH` (keyed with `?keyFile=FILE` or `?keyEnv=NAME`),
 * `sqlite:PATH` (paths relative to `cwd`) or `postgres://…`/`postgresql://…`.
 * @throws ToolgateError `invalid-store-url` for any other form; StoreUnavailableError when a SQLite file
 *   cannot be opened.
 */
export function openAuditSink(url: string, options: OpenStoreOptions = {}): AuditSink {
  const cwd = options.cwd === undefined ? {} : { cwd: options.cwd };
  const parsed = parseStoreUrl(url, "audit sink");
  switch (parsed.kind) {
    case "memory":
      return new MemoryAuditSink();
    // OpenTelemetry through the registered providers: observability, not a durable record.
    case "otel":
      return new OtelAuditSink();
    case "jsonl":
      return new JsonlAuditSink(parsed.path, { ...cwd, ...parsed.key });
    case "sqlite":
      return new SqliteAuditSink(parsed.path, {
        ...cwd,
        ...(parsed.synchronous === undefined ? {} : { synchronous: parsed.synchronous }),
      });
    case "postgres":
      return new PostgresAuditSink(parsed.url);
  }
}
