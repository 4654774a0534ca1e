/**
 * The config's `audit.redact` entries, checked against the tool specs when the configuration loads: each names a
 * declared tool, and each field path names a field of that tool's `input_schema` (an array on the way stands
 * for each of its elements, as redaction reads it). A misspelt entry would otherwise redact nothing, silently.
 */
import type { BundleTool } from "../bundle/policy-bundle.js";
import type { JsonSchema } from "../runtime/types.js";
import type { Diagnostic } from "./diagnostic-codes.js";
import { nearest } from "./nearest.js";
import { diagnosticAt, type ParsedFile } from "./parse-yaml.js";
import { resolveLocalRef } from "./policy-checks/policy-facts.js";

/** Problems of the `redact` map of `config` (already schema-checked) against the declared tools. */
export function checkRedact(
  config: ParsedFile,
  redact: { readonly [tool: string]: "all" | readonly string[] } | undefined,
  tools: readonly BundleTool[],
  declared: ReadonlySet<string>,
): Diagnostic[] {
  if (redact === undefined) return [];
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const problems: Diagnostic[] = [];
  for (const [name, fields] of Object.entries(redact)) {
    const pointer = `/audit/redact/${escapePointer(name)}`;
    if (!declared.has(name)) {
      const near = nearest(name, declared);
      problems.push(
        diagnosticAt(
          config,
          pointer,
          "unknown-tool",
          `audit.redact names the tool "${name}", which no tool file declares${near === undefined ? "" : `; did you mean "${near}"?`}`,
          { prefer: "key" },
        ),
      );
      continue;
    }
    const tool = byName.get(name);
    if (tool === undefined || fields === "all") continue;
    fields.forEach((field, index) => {
      const missing = missingStep(tool.inputSchema, field.split("."));
      if (missing === undefined) return;
      problems.push(
        diagnosticAt(
          config,
          `${pointer}/${index}`,
          "unknown-argument",
          `audit.redact for ${name}: "${field}" is not a field of its input_schema (no "${missing}" there), so it would redact nothing; name a field the schema declares`,
        ),
      );
    });
  }
  return problems;
}

/**
 * The first step of `path` that the schema does not declare under `properties`, or `undefined` when the whole
 * path is declared. Arrays are stepped through to their items.
 */
function missingStep(root: JsonSchema, path: readonly string[]): string | undefined {
  let current: JsonSchema = resolveLocalRef(root, root);
  for (const key of path) {
    while (typeof current.items === "object" && current.items !== null && !Array.isArray(current.items)) {
      current = resolveLocalRef(root, current.items as JsonSchema);
    }
    const properties = current.properties as { [k: string]: JsonSchema } | undefined;
    if (properties !== undefined && Object.hasOwn(properties, key)) {
      current = resolveLocalRef(root, properties[key] as JsonSchema);
      continue;
    }
    // As for a rule's field: the schema must declare it (an undeclared one is a misspelling as often as not).
    return key;
  }
  return undefined;
}

function escapePointer(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}
