import { ToolgateError } from "../runtime/errors.js";
import type { JsonSchema, ToolDefinition, ToolHandler, ToolSpec } from "../runtime/types.js";
import { compileArgumentValidator } from "./argument-validator.js";

/**
 * Defines a tool from its spec and handler; the argument validator is compiled from `spec.inputSchema`
 * with ajv in strict mode.
 * @throws TypeError when the input schema is not a valid JSON Schema of `type: object`.
 */
// biome-ignore lint/suspicious/noExplicitAny: handler arguments are typed by the caller; the default accepts any validated object
export function defineTool<A = any>(spec: ToolSpec, handler: ToolHandler<A>): ToolDefinition<A> {
  const schema: JsonSchema = spec.inputSchema;
  if (schema.type !== "object") {
    throw new ToolgateError("invalid-input-schema", `tool ${spec.name}: inputSchema must have type: object`);
  }
  return Object.freeze({
    spec: Object.freeze({ ...spec }),
    validateArguments: compileArgumentValidator(schema),
    handler,
  });
}
