/**
 * `toolgate`: every export of this file is public API. The core classes come from `./runtime/`; the YAML
 * loader, lint, policy tests, codegen and compile stages build on them.
 */

export { generateTypes } from "./codegen/generate-types.js";
export {
  type CompiledController,
  compileController,
  declarationPathFor,
} from "./compile/compile-controller.js";
export {
  type LoadOptions,
  type LoadResult,
  loadPolicy,
  loadPolicyResult,
  loadPolicyResultSync,
  PolicyConfigError,
} from "./config/load-policy.js";
export type {
  BundleSettings,
  BundleTool,
  NotifierSetting,
  PolicyBundle,
  PolicyTestCase,
} from "./config/policy-bundle.js";
export {
  ControllerSetupError,
  type CreateControllerOptions,
  createController,
  type HandlerMap,
  reloadController,
} from "./controller/create-controller.js";
export {
  type PolicyWatcher,
  type ReloadOutcome,
  type WatchPolicyOptions,
  watchPolicy,
} from "./controller/watch-policy.js";
export * from "./diagnostics/index.js";
export {
  type ApprovalDecision,
  type DecideResult,
  decideApproval,
  type GrantSettings,
} from "./inbox/decide.js";
export { type Inbox, InboxConfigError, type InboxOptions, startInbox } from "./inbox/server.js";
export { type LintReport, lintPolicy, lintPolicySync } from "./lint/lint-policy.js";
export * from "./notify/index.js";
export * from "./runtime/index.js";
export * from "./stores/index.js";
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
