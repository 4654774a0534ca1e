/**
 * Durable approval stores and audit sinks: SQLite (embedded), PostgreSQL (several instances) and a
 * hash-chained (optionally keyed) JSONL log, and `openApprovalStore`/`openAuditSink` to pick one from a URL. Every export here is
 * public API.
 */
export type { ApprovalScanOptions, WaitForDecisionOptions } from "./approval-rows.js";
export {
  type AuditKeySource,
  type AuditLogCheck,
  type AuditLogHead,
  GENESIS_PREV,
  JsonlAuditSink,
  type JsonlAuditSinkOptions,
  KEYED_GENESIS_PREV,
  MIN_KEY_BYTES,
  readAuditKey,
  type VerifyAuditLogOptions,
  verifyAuditLog,
} from "./jsonl-audit-sink.js";
export { type OpenStoreOptions, openApprovalStore, openAuditSink, resolveStoreUrl } from "./open-store.js";
export {
  OTEL_ATTRIBUTES,
  OTEL_METRICS,
  OtelAuditSink,
  type OtelAuditSinkOptions,
} from "./otel-audit-sink.js";
export { PostgresApprovalStore } from "./postgres-approval-store.js";
export { PostgresAuditSink } from "./postgres-audit-sink.js";
export { describePostgresUrl, type PostgresOptions } from "./postgres-options.js";
export { SqliteApprovalStore } from "./sqlite-approval-store.js";
export { SqliteAuditSink } from "./sqlite-audit-sink.js";
export type { SqliteOptions } from "./sqlite-options.js";
