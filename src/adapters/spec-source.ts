/**
 * Where the adapters take the tool specs they offer to a model from. Pass the controller: then only
 * `controller.visibleSpecs()` are offered, and a denied tool is never shown to the model.
 */

import { ToolgateError } from "../runtime/errors.js";
import type { ToolSpec } from "../runtime/types.js";
import { copyJsonObject, type JsonObject } from "./json-data.js";

/** A list of specs, or anything with `visibleSpecs()` (a `ToolController`), which is the usual choice. */
export type SpecSource = readonly ToolSpec[] | { visibleSpecs(): readonly ToolSpec[] };

/** A tool spec copied out of its source: fresh, mutable data that shares nothing with a frozen bundle. */
export interface CopiedSpec {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonObject;
}

/** Thrown by the `to*Tools` adapters when a spec's input schema is not JSON data (a programmer error). */
export class InvalidToolSpecError extends ToolgateError {
  readonly toolName: string;
  constructor(toolName: string, message: string) {
    super("invalid-tool-spec", message);
    this.toolName = toolName;
  }
}

/**
 * Reads the specs of a source and deep-copies each input schema, so that a provider payload can be changed
 * by the caller without touching the bundle.
 * @param source a controller (its `visibleSpecs()`) or a list of specs.
 * @throws InvalidToolSpecError when an input schema is not a JSON object of plain data (cycle, function, ...).
 */
export function readSpecs(source: SpecSource): CopiedSpec[] {
  const specs = isSpecList(source) ? source : source.visibleSpecs();
  return specs.map((spec) => {
    // "keep": a schema may legitimately describe a property called "__proto__"; it stays an own property.
    const schema = copyJsonObject(spec.inputSchema, { protoKey: "keep" });
    if (!schema.ok) {
      throw new InvalidToolSpecError(
        spec.name,
        `the input schema of tool ${JSON.stringify(spec.name)} is not JSON data: it has ${schema.reason}`,
      );
    }
    return { name: spec.name, description: spec.description, inputSchema: schema.value };
  });
}

function isSpecList(source: SpecSource): source is readonly ToolSpec[] {
  return Array.isArray(source);
}
