/**
 * `toolgate/runtime`: the tool-call core alone — what a compiled controller imports. Every export here is
 * public API. This entry never imports `yaml`, the ajv compiler, `node:fs`, the config loader, codegen or
 * the CLI (a test over the built files checks it). The compiled module's plumbing (the controller assembly,
 * ajv's runtime helpers) is `toolgate/compiled` (`./compiled.ts`).
 */

export {
  type ApprovalNotice,
  type ApprovalRequestedHook,
  allHooks,
  NotificationError,
  type NotificationErrorHandler,
} from "./approval-notice.js";
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
} from "./approval-store.js";
export {
  DEFAULT_APPROVAL_TTL_MS,
  newApprovalId,
  PendingApprovals,
  type PendingApprovalsOptions,
} from "./approvals.js";
export {
  AUDIT_EVENT_TYPES,
  type AuditEvent,
  type AuditEventType,
  type AuditHead,
  type AuditSink,
  MemoryAuditSink,
} from "./audit.js";
export { canonicalJson, hashCanonical } from "./canonical-json.js";
export {
  type CompileConditionResult,
  type CompiledCondition,
  type ConditionProblem,
  type ConditionSpec,
  compileCondition,
  type JsonValue,
  OPERATOR_NAMES,
  type OperatorName,
  type OperatorSpec,
  type RegexSpec,
} from "./condition.js";
export {
  type ApprovalNotNeeded,
  type AuditRedaction,
  type ControllerReload,
  deniedMessage,
  type OnAsk,
  redactArguments,
  ToolController,
  type ToolControllerOptions,
} from "./controller.js";
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
} from "./errors.js";
export {
  type FingerprintTool,
  fingerprintData,
  modeFingerprint,
  policyFingerprint,
} from "./fingerprint.js";
export {
  type ApprovalGrant,
  type BuildGrantOptions,
  buildGrant,
  DEFAULT_SESSION_KEY,
  describeGrantScope,
  formatDuration,
  type GrantCheck,
  GrantError,
  type GrantScope,
  type GrantStore,
  grantApplies,
  hasGrants,
  MAX_GRANT_MS,
  newGrantId,
  parseDuration,
  type RememberScope,
  type RevokeGrantResult,
} from "./grants.js";
export { ControllerSetupError, type HandlerMap } from "./handlers.js";
export type { UrlSpec } from "./match/url.js";
export {
  applyMode,
  assertControllerMode,
  CONTROLLER_MODES,
  type ControllerMode,
  DEFAULT_MODE,
  isControllerMode,
  type ModeOutcome,
} from "./mode.js";
export {
  copyPlainData,
  DEFAULT_MAX_ARGUMENT_BYTES,
  MAX_DATA_DEPTH,
  type PlainDataCopy,
} from "./plain-data.js";
export {
  type ExplainedDecision,
  type ExplainedPart,
  type PolicyRule,
  type StatementEvaluation,
  type StatementKind,
  type StatementSpec,
  ToolPolicy,
  type ToolPolicyOptions,
} from "./policy.js";
export { type ResolveResult, ToolRegistry } from "./registry.js";
export type { AliasHost, AliasSource, HostToolCall, ToolAlias } from "./tool-aliases.js";
export {
  errorResult,
  formatArgumentIssues,
  isPrepared,
  type PrepareOptions,
  ToolRuntime,
} from "./tool-runtime.js";
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
} from "./types.js";
