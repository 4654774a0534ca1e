/** `equals`: the field is exactly this JSON value. */
import { canonicalJson } from "../canonical-json.js";
import { FALSE, TRUE } from "../truth.js";
import type { JsonValue } from "../types.js";
import { defineOperator, jsonTypeOf, present } from "./operator.js";

/** Equality of JSON values: scalars by `===`, structures as canonical JSON. */
export function jsonEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  try {
    return canonicalJson(a) === canonicalJson(b);
  } catch {
    return false;
  }
}

export const equalsOperator = defineOperator<JsonValue, "equals">({
  name: "equals",
  description: "Exactly this JSON value.",
  valueTypes: ["string", "number", "integer", "boolean", "array", "object", "null"],
  ownKey: true,
  compile: (expected) =>
    // A scalar compares with ===, the common case on the hot path; structures compare as canonical JSON.
    expected === null || typeof expected !== "object"
      ? (value) => (value === expected ? TRUE : FALSE)
      : present((value) => (jsonEquals(value, expected) ? TRUE : FALSE)),
  checkValue: (expected, field) =>
    field.fits(expected)
      ? []
      : [
          {
            at: [],
            message: `"equals" compares field "${field.field}" (${field.described}) with ${jsonTypeOf(expected)} ${JSON.stringify(expected)}, which can never be equal`,
          },
        ],
});
