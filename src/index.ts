/**
 * `toolgate`: every export of this file is public API, named one by one (a test pins the list). The core
 * classes come from `./runtime/`; the YAML loader, lint, policy tests, codegen and compile stages build on
 * them. Formatter internals and the compiled module's plumbing are not exported here: a compiled module
 * imports what it needs from `toolgate/runtime`.
 */

export type {
  BundleSettings,
  BundleTool,
  NotifierSetting,
  PolicyBundle,
  PolicyTestCase,
} from "./bundle/policy-bundle.js";
export { generateTypes } from "./codegen/generate-types.js";
export {
  type CompiledController,
  compileController,
  declarationPathFor,
} from "./compile/compile-controller.js";
export {
  ControllerSetupError,
  type CreateControllerOptions,
  createController,
  type HandlerMap,
  reloadController,
} from "./composition/create-controller.js";
export {
  type PolicyWatcher,
  type ReloadOutcome,
  type WatchPolicyOptions,
  watchPolicy,
} from "./composition/watch-policy.js";
export {
  DIAGNOSTIC_CODES,
  DIAGNOSTICS,
  type Diagnostic,
  type DiagnosticCode,
} from "./config/diagnostic-codes.js";
export {
  type LoadOptions,
  type LoadResult,
  loadPolicy,
  loadPolicyResult,
  loadPolicyResultSync,
  PolicyConfigError,
} from "./config/load-policy.js";
export {
  hasErrors,
  type Severity,
  sortDiagnostics,
} from "./diagnostics/diagnostic.js";
export type { DiagnosticMeta } from "./diagnostics/diagnostic-table.js";
export { isOutputFormat, OUTPUT_FORMATS, type OutputFormat } from "./diagnostics/format.js";
export {
  type ApprovalDecision,
  type DecideResult,
  decideApproval,
  type GrantSettings,
} from "./inbox/decide.js";
export { type Inbox, InboxConfigError, type InboxOptions, startInbox } from "./inbox/server.js";
export { type FormatInput, formatDiagnostics } from "./lint/format-report.js";
export { type LintReport, lintPolicy, lintPolicySync } from "./lint/lint-policy.js";
export { type CommandNotifierOptions, commandNotifier } from "./notify/command.js";
export {
  DELIVERY_HEADER,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  type VerifyWebhookOptions,
  verifyWebhookSignature,
  type WebhookNotifierOptions,
  type WebhookVerification,
  webhookNotifier,
} from "./notify/webhook.js";
export {
  type ApprovalNotice,
  type ApprovalRequestedHook,
  allHooks,
  NotificationError,
  type NotificationErrorHandler,
} from "./runtime/approval-notice.js";
export {
  type ApprovalState,
  type ApprovalStore,
  DEFAULT_MAX_CLOSED_REQUESTS,
  DEFAULT_MAX_OPEN_REQUESTS,
  type GetResult,
  MemoryApprovalStore,
  type MemoryApprovalStoreOptions,
  type RespondResult,
  type StoredApproval,
  type TakeResult,
} from "./runtime/approval-store.js";
export {
  DEFAULT_APPROVAL_TTL_MS,
  newApprovalId,
  PendingApprovals,
  type PendingApprovalsOptions,
} from "./runtime/approvals.js";
export {
  AUDIT_EVENT_TYPES,
  type AuditEvent,
  type AuditEventType,
  type AuditHead,
  type AuditSink,
  MemoryAuditSink,
} from "./runtime/audit.js";
export { canonicalJson, hashCanonical } from "./runtime/canonical-json.js";
export type { JsonValue } from "./runtime/condition.js";
export {
  type ApprovalNotNeeded,
  type AuditRedaction,
  type ControllerReload,
  type OnAsk,
  ToolController,
  type ToolControllerOptions,
} from "./runtime/controller.js";
export {
  ApprovalError,
  type ApprovalErrorCode,
  ApprovalStoreFullError,
  DuplicateToolError,
  InvalidInputError,
  InvalidOptionError,
  isToolFailure,
  isToolgateError,
  PolicyDefinitionError,
  StoreUnavailableError,
  ToolFailure,
  ToolgateError,
  type ToolgateErrorCode,
} from "./runtime/errors.js";
export { policyFingerprint } from "./runtime/fingerprint.js";
export {
  type ApprovalGrant,
  DEFAULT_SESSION_KEY,
  type GrantCheck,
  GrantError,
  type GrantScope,
  type GrantStore,
  MAX_GRANT_MS,
  type RememberScope,
  type RevokeGrantResult,
} from "./runtime/grants.js";
export {
  CONTROLLER_MODES,
  type ControllerMode,
  DEFAULT_MODE,
  isControllerMode,
} from "./runtime/mode.js";
export { DEFAULT_MAX_ARGUMENT_BYTES, MAX_DATA_DEPTH } from "./runtime/plain-data.js";
export {
  type ExplainedDecision,
  type ExplainedPart,
  type PolicyRule,
  type StatementEvaluation,
  type StatementKind,
  type StatementSpec,
  ToolPolicy,
  type ToolPolicyOptions,
} from "./runtime/policy.js";
export { type ResolveResult, ToolRegistry } from "./runtime/registry.js";
export type { AliasHost, AliasSource, HostToolCall, ToolAlias } from "./runtime/tool-aliases.js";
export { ToolRuntime } from "./runtime/tool-runtime.js";
export type {
  ApprovalRequest,
  ApprovalResponse,
  ArgumentCheck,
  ArgumentIssue,
  ArgumentValidator,
  DecidingStatement,
  JsonSchema,
  PolicyAction,
  PolicyDecision,
  PreparedToolCall,
  ResolveOptions,
  StatementSource,
  ToolCall,
  ToolContext,
  ToolDefinition,
  ToolHandler,
  ToolResult,
  ToolSpec,
} from "./runtime/types.js";
export type { ApprovalScanOptions, WaitForDecisionOptions } from "./stores/approval-rows.js";
export {
  type AuditLogCheck,
  type AuditLogHead,
  JsonlAuditSink,
  type JsonlAuditSinkOptions,
  type VerifyAuditLogOptions,
  verifyAuditLog,
} from "./stores/jsonl-audit-sink.js";
export { type OpenStoreOptions, openApprovalStore, openAuditSink } from "./stores/open-store.js";
export {
  OTEL_ATTRIBUTES,
  OTEL_METRICS,
  OtelAuditSink,
  type OtelAuditSinkOptions,
} from "./stores/otel-audit-sink.js";
export { PostgresApprovalStore } from "./stores/postgres-approval-store.js";
export { PostgresAuditSink } from "./stores/postgres-audit-sink.js";
export type { PostgresOptions } from "./stores/postgres-options.js";
export { SqliteApprovalStore } from "./stores/sqlite-approval-store.js";
export { SqliteAuditSink } from "./stores/sqlite-audit-sink.js";
export type { SqliteOptions } from "./stores/sqlite-options.js";
export {
  type CoverageEntry,
  type PolicyTestReport,
  type PolicyTestResult,
  runPolicyTests,
} from "./testing/run-policy-tests.js";
export {
  compileArgumentValidator,
  type SchemaDraft,
  ValidatorFactory,
} from "./validation/argument-validator.js";
export { defineTool } from "./validation/define-tool.js";
