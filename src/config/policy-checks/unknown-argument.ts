/** A condition reads only fields its schema declares: the tool's input_schema, or the config's context_schema. */

import { nearest } from "../nearest.js";
import { definePolicyCheck } from "./policy-check.js";

/**
 * What is wrong with a condition field its schema does not declare, with the nearest declared name (by the field's
 * first segment) or the declared ones. Also the message of property files' `property-unknown-argument`.
 */
export function undeclaredFieldMessage(
  field: string,
  what: "argument" | "context",
  label: string,
  root: { readonly properties?: unknown },
): string {
  const properties = Object.keys((root.properties as object | undefined) ?? {});
  const near = nearest(field.split(".")[0] ?? field, properties);
  const hint =
    near === undefined ? `declared: ${properties.join(", ") || "none"}` : `did you mean "${near}"?`;
  return what === "argument"
    ? `tool "${label}" has no argument "${field}" in its input_schema; ${hint}`
    : `context field "${field}" is not declared in context_schema; ${hint}`;
}

export const unknownArgumentCheck = definePolicyCheck({
  meta: {
    code: "unknown-argument",
    severity: "error",
    description: "A rule condition names an argument that the tool's input_schema does not define.",
    meaning:
      "A `when` field is not in the tool's `input_schema`; a `context` field is not in `context_schema` (or there is none).",
    fix: "Fix the field path, or declare the field.",
  },
  name: "conditions read declared fields",
  run: (facts, report) => {
    for (const { parsed, pointer, field, what, label, root, schema } of facts.conditionFields) {
      if (root === null) {
        report.at(
          parsed,
          pointer,
          `rule matches context field "${field}", but the config declares no context_schema; declare it in the config file`,
          "key",
        );
        continue;
      }
      if (schema !== undefined) continue;
      report.at(parsed, pointer, undeclaredFieldMessage(field, what, label, root), "key");
    }
  },
});
