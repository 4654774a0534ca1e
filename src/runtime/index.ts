/**
 * `toolgate/runtime`: the tool-call core alone — what a compiled controller imports. Every export here is
 * public API. This entry never imports `yaml`, the ajv compiler, `node:fs`, the config loader, codegen or
 * the CLI (a test over the built files checks it).
 */

export { AjvValidationError, ajvEqual, ajvFormat, ajvUcs2length } from "./ajv-runtime.js";
export {
  type AjvErrorLike,
  type AjvValidateFunction,
  fromAjvValidator,
  isSchemaPattern,
  type SchemaPattern,
  schemaPattern,
} from "./ajv-validator.js";
export {
  type ApprovalState,
  type ApprovalStore,
  type GetResult,
  MemoryApprovalStore,
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
} from "./condition.js";
export {
  type AuditRedaction,
  deniedMessage,
  type OnAsk,
  redactArguments,
  ToolController,
  type ToolControllerOptions,
} from "./controller.js";
export {
  ApprovalError,
  type ApprovalErrorCode,
  DuplicateToolError,
  isToolFailure,
  PolicyDefinitionError,
  StoreUnavailableError,
  ToolFailure,
  ToolgateError,
} from "./errors.js";
export {
  type CompiledPolicyData,
  type FingerprintTool,
  fingerprintData,
  policyFingerprint,
  verifyCompiledPolicy,
} from "./fingerprint.js";
export {
  assertHandlersFit,
  ControllerSetupError,
  deepFreeze,
  type HandlerMap,
  refuseHandler,
} from "./handlers.js";
export {
  type ExplainedDecision,
  type PolicyRule,
  type StatementEvaluation,
  type StatementSpec,
  ToolPolicy,
  type ToolPolicyOptions,
} from "./policy.js";
export { type ResolveResult, ToolRegistry } from "./registry.js";
export { errorResult, formatArgumentIssues, isPrepared, ToolRuntime } from "./tool-runtime.js";
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
  StatementSource,
  ToolCall,
  ToolContext,
  ToolDefinition,
  ToolHandler,
  ToolResult,
  ToolSpec,
} from "./types.js";
