/**
 * `toolgate`: every export of this file is public API. The core classes come from `./runtime/`; the YAML
 * loader, lint, codegen and compile stages build on them.
 */
export * from "./runtime/index.js";
export {
  compileArgumentValidator,
  type SchemaDraft,
  ValidatorFactory,
} from "./validation/argument-validator.js";
export { defineTool } from "./validation/define-tool.js";
