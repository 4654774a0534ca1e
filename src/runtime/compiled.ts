/**
 * `toolgate/compiled`: what a module written by `toolgate compile` imports besides the seed core — the one
 * controller assembly, the import-time check of its code and data (`verifyCompiledModule`), and the small
 * helpers ajv's standalone code calls. Modules compiled by earlier versions import `fromAjvValidator`,
 * `verifyCompiledPolicy` and the helpers by name; they stay exported. Every export here is public API for compiled modules; applications use `toolgate` or
 * `toolgate/runtime`. Like `toolgate/runtime`, this entry never imports `yaml`, the ajv compiler or `node:fs`.
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
  type AssembleOptions,
  assembleController,
  assembleState,
  type ControllerParts,
} from "./assemble.js";
export {
  type CompiledModuleData,
  type CompiledModuleSource,
  type CompiledModuleValidators,
  type CompiledValidatorHelpers,
  sourceIntegrity,
  type VerifiedCompiledModule,
  verifyCompiledModule,
} from "./compiled-module.js";
export { type CompiledPolicyData, verifyCompiledPolicy } from "./fingerprint.js";
export { assertHandlersFit, deepFreeze, refuseHandler } from "./handlers.js";
