/**
 * A concrete call from a model: the fields' values set at their paths, and every property that the schema requires
 * and no field gives filled with the shortest value the schema allows (its `const` or first `enum` value, the
 * shortest string of its `pattern` and lengths, the smallest number in its bounds, …). Whether the call is valid is
 * for the real validator to say.
 */
import { resolveLocalRef } from "../config/policy-checks/policy-facts.js";
import type { JsonSchema } from "../runtime/types.js";
import { AlphabetBuilder } from "./alphabet.js";
import { constant, lengthRange, shortestString, someStrings, TooComplex } from "./dfa.js";
import { RegexLanguage } from "./regex-language.js";
import { allowedTypes, finiteValues, passesFormat } from "./schema-facts.js";

/** Example values of the formats ajv-formats checks, for a required string with a `format`. */
const FORMAT_EXAMPLES: Readonly<Record<string, string>> = {
  date: "2024-01-01",
  time: "12:00:00Z",
  "date-time": "2024-01-01T12:00:00Z",
  duration: "P1D",
  uri: "https://example.com/",
  "uri-reference": "https://example.com/",
  "uri-template": "https://example.com/",
  url: "https://example.com/",
  email: "ada@example.com",
  hostname: "example.com",
  ipv4: "127.0.0.1",
  ipv6: "::1",
  regex: "a",
  uuid: "00000000-0000-0000-0000-000000000000",
  "json-pointer": "/a",
  "relative-json-pointer": "0",
  byte: "YQ==",
  int32: "0",
  int64: "0",
  float: "0",
  double: "0",
  password: "a",
  binary: "a",
  iri: "https://example.com/",
  "iri-reference": "https://example.com/",
  "idn-email": "ada@example.com",
  "idn-hostname": "example.com",
};

/** The shortest string a string schema allows, or undefined when none is found. */
function sampleString(schema: JsonSchema): string | undefined {
  const lo = typeof schema.minLength === "number" ? schema.minLength : 0;
  const hi = typeof schema.maxLength === "number" ? schema.maxLength : Number.POSITIVE_INFINITY;
  const example = typeof schema.format === "string" ? FORMAT_EXAMPLES[schema.format] : undefined;
  if (example !== undefined && typeof schema.pattern !== "string") return example;
  try {
    const builder = new AlphabetBuilder();
    builder.addRanges([0x61, 0x61, 0x30, 0x30]);
    const language =
      typeof schema.pattern === "string" ? RegexLanguage.parse(schema.pattern, "u") : undefined;
    language?.addBoundaries(builder);
    const alphabet = builder.build();
    const dfa = language === undefined ? constant(alphabet.size, true) : language.toDfa(alphabet);
    if (schema.format === undefined) return shortestString(alphabet, dfa, lengthRange(lo, hi));
    return someStrings(alphabet, dfa, lengthRange(lo, hi), 200).find((s) => passesFormat(schema.format, s));
  } catch (error) {
    if (error instanceof TooComplex) return undefined;
    throw error;
  }
}

/** The smallest-looking number a number schema allows. */
function sampleNumber(schema: JsonSchema, integer: boolean): number {
  let value = 0;
  if (typeof schema.minimum === "number") value = Math.max(value, schema.minimum);
  if (typeof schema.exclusiveMinimum === "number" && value <= schema.exclusiveMinimum)
    value = integer ? Math.floor(schema.exclusiveMinimum) + 1 : schema.exclusiveMinimum + 0.5;
  if (typeof schema.maximum === "number" && value > schema.maximum) value = schema.maximum;
  if (typeof schema.multipleOf === "number" && schema.multipleOf > 0) {
    value = Math.ceil(value / schema.multipleOf) * schema.multipleOf;
  }
  return integer ? Math.ceil(value) : value;
}

/** A short value the schema allows (best effort: the validator decides). */
export function sampleValue(root: JsonSchema, schema: JsonSchema, depth = 0): unknown {
  const s = resolveLocalRef(root, schema);
  const finite = finiteValues(s);
  if (finite !== undefined && finite.length > 0) return finite[0];
  const types = allowedTypes(s);
  if (types.has("string")) {
    const text = sampleString(s);
    if (text !== undefined) return text;
  }
  // A number schema allows every integer too (allowedTypes lists both): its fractional bounds come first.
  if (types.has("number")) return sampleNumber(s, false);
  if (types.has("integer")) return sampleNumber(s, true);
  if (types.has("boolean")) return false;
  if (types.has("null")) return null;
  if (types.has("object") && depth < 8) return fillRequired(root, s, {}, depth + 1);
  if (types.has("array") && depth < 8) {
    const n = typeof s.minItems === "number" ? s.minItems : 0;
    const items =
      s.items !== null && typeof s.items === "object" && !Array.isArray(s.items)
        ? (s.items as JsonSchema)
        : {};
    return Array.from({ length: n }, () => sampleValue(root, items, depth + 1));
  }
  return null;
}

/** `object` with every property `schema` requires and it lacks filled with a sample. */
export function fillRequired(
  root: JsonSchema,
  schema: JsonSchema,
  object: Record<string, unknown>,
  depth = 0,
): Record<string, unknown> {
  const s = resolveLocalRef(root, schema);
  const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
  for (const [key, value] of Object.entries(object)) {
    if (
      value !== null &&
      typeof value === "object" &&
      !Array.isArray(value) &&
      Object.hasOwn(properties, key)
    ) {
      fillRequired(root, properties[key] as JsonSchema, value as Record<string, unknown>, depth + 1);
    }
  }
  for (const key of Array.isArray(s.required) ? (s.required as string[]) : []) {
    if (Object.hasOwn(object, key)) continue;
    object[key] = sampleValue(root, (properties[key] ?? {}) as JsonSchema, depth);
  }
  return object;
}

/** Sets `value` at `path` in `object`, making the objects on the way. */
export function setPath(object: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let current = object;
  path.forEach((key, i) => {
    if (i === path.length - 1) {
      current[key] = value;
      return;
    }
    const next = current[key];
    if (next === null || typeof next !== "object" || Array.isArray(next)) current[key] = {};
    current = current[key] as Record<string, unknown>;
  });
}
