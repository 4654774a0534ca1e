/**
 * What the verifier reads of JSON Schemas: the schema of a field, whether it may be missing, which JSON types it
 * allows, and a check of one value against the keywords that constrain a leaf value (`type`, `enum`, `const`,
 * `minLength`, `maxLength`, `pattern`, `format`, `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`,
 * `multipleOf`, `minItems`, `maxItems`). Keywords it does not read make the set of values it allows larger than the
 * validator's, never smaller: a `holds` stays sound, and every witness is checked by the real validator before it
 * is reported.
 */
import { fullFormats } from "ajv-formats/dist/formats.js";
import { fieldSchema, resolveLocalRef, typesOf } from "../config/policy-checks/policy-facts.js";
import { compileRegex } from "../runtime/match/regex/index.js";
import { jsonEquals } from "../runtime/operators/equals.js";
import type { JsonType } from "../runtime/operators/operator.js";
import { ANNOTATIONS } from "../runtime/schema-plan.js";
import type { JsonSchema } from "../runtime/types.js";

export { typesOf };

/** The keywords of a scalar leaf {@link checkValue} reads: what constrains one string or number. */
export const LEAF_VALUE_KEYWORDS: ReadonlySet<string> = new Set([
  "type",
  "enum",
  "const",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
]);

/** The keywords {@link checkValue} reads (with the structural ones the verifier walks), and annotations. */
export const READ_KEYWORDS: ReadonlySet<string> = new Set([
  ...LEAF_VALUE_KEYWORDS,
  "minItems",
  "maxItems",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "$schema",
  "$id",
  ...ANNOTATIONS,
]);

/** The schema of a dotted field inside an object schema; `{}` (anything) when it is not declared. */
export function schemaOfField(root: JsonSchema | null, path: readonly string[]): JsonSchema {
  if (root === null) return {};
  return fieldSchema(root, path.join(".")) ?? {};
}

/** Whether the field may be absent from a valid value of `root`: some step is optional or may not be an object. */
export function mayBeMissing(root: JsonSchema | null, path: readonly string[]): boolean {
  if (root === null) return true;
  let current = resolveLocalRef(root, root);
  for (const key of path) {
    const types = typesOf(current);
    if (types === null || types.size !== 1 || !types.has("object")) return true;
    const required = Array.isArray(current.required) ? (current.required as string[]) : [];
    if (!required.includes(key)) return true;
    const properties = current.properties as { [k: string]: JsonSchema } | undefined;
    if (properties === undefined || !Object.hasOwn(properties, key)) return true;
    current = resolveLocalRef(root, properties[key] as JsonSchema);
  }
  return false;
}

/** The JSON types a field's schema allows (every type when it declares none); `enum`/`const` narrow them. */
export function allowedTypes(schema: JsonSchema): ReadonlySet<JsonType> {
  const declared = typesOf(schema);
  const all: JsonType[] = ["null", "boolean", "integer", "number", "string", "array", "object"];
  const types = new Set<JsonType>(declared === null ? all : declared);
  if (types.has("number")) types.add("integer");
  return types;
}

/** The values `enum` or `const` allow, or undefined when neither is given. */
export function finiteValues(schema: JsonSchema): readonly unknown[] | undefined {
  if (Object.hasOwn(schema, "const")) return [schema.const];
  if (Array.isArray(schema.enum)) return schema.enum as unknown[];
  return undefined;
}

function typeOf(value: unknown): JsonType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value as JsonType;
}

const patternCache = new Map<string, ((s: string) => boolean) | null>();

function patternTest(pattern: string): ((s: string) => boolean) | null {
  let test = patternCache.get(pattern);
  if (test === undefined) {
    const compiled = compileRegex(pattern, "u");
    test = compiled.ok ? (s: string) => compiled.regex.test(s) : null;
    patternCache.set(pattern, test);
  }
  return test;
}

/** Leap years of four digits: divisible by 4 but not by 100 (`…04`, `…96`), or by 400 (`0000`, `2000`). */
const LEAP_YEAR = "(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)";

/**
 * Languages of the formats whose checks are regular, each holding every string ajv-formats' full format accepts
 * (its own pattern, with both cases of each ASCII letter where it ignores case: its `i` without `u` folds no other
 * character to them), so that a field with one is modelled, not left to candidates: `email`, `ipv4` and `uuid` are their patterns; `hostname`
 * drops its look-ahead of the length (a superset); `date` is the days of each month, 29 February in leap years.
 */
const FORMAT_LANGUAGES: Readonly<Record<string, { readonly pattern: string; readonly flags: string }>> = {
  email: {
    pattern:
      "^[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?\\.)+[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?$",
    flags: "u",
  },
  hostname: {
    pattern:
      "^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[-0-9a-zA-Z]{0,61}[0-9a-zA-Z])?)*\\.?$",
    flags: "u",
  },
  ipv4: {
    pattern:
      "^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$",
    flags: "u",
  },
  uuid: {
    pattern: "^(?:[uU][rR][nN]:[uU][uU][iI][dD]:)?[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$",
    flags: "u",
  },
  date: {
    pattern: `^(?:[0-9]{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))|${LEAP_YEAR}-02-29)$`,
    flags: "u",
  },
};

/** The language of a `format` as a pattern holding every string the format accepts, or undefined when not regular here. */
export function formatLanguage(
  format: unknown,
): { readonly pattern: string; readonly flags: string } | undefined {
  return typeof format === "string" && Object.hasOwn(FORMAT_LANGUAGES, format)
    ? FORMAT_LANGUAGES[format]
    : undefined;
}

/** Whether a string passes a `format` as ajv-formats' full formats check it (an unknown format: true). */
export function passesFormat(format: unknown, value: string): boolean {
  if (typeof format !== "string") return true;
  const check = (fullFormats as Record<string, unknown>)[format];
  if (check === undefined || check === true) return true;
  if (check instanceof RegExp) return check.test(value);
  if (typeof check === "function") return (check as (s: string) => boolean)(value) === true;
  if (typeof check === "object" && check !== null) {
    const validate = (check as { validate?: unknown }).validate;
    if (validate instanceof RegExp) return validate.test(value);
    if (typeof validate === "function") return (validate as (s: string) => boolean)(value) === true;
  }
  return true;
}

/** Code points of a string, as ajv counts `minLength`/`maxLength`. */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * Whether a leaf value passes the schema's leaf keywords (see the module comment). A missing value is valid
 * exactly when `missingAllowed`.
 */
export function checkValue(
  schema: JsonSchema,
  value: unknown,
  missingAllowed: boolean,
  root?: JsonSchema,
): boolean {
  if (value === undefined) return missingAllowed;
  const s = root === undefined ? schema : resolveLocalRef(root, schema);
  const declared = typesOf(s);
  const type = typeOf(value);
  if (declared !== null && !declared.has(type) && !(type === "integer" && declared.has("number")))
    return false;
  if (Array.isArray(s.enum) && !(s.enum as unknown[]).some((e) => jsonEquals(e, value))) return false;
  if (Object.hasOwn(s, "const") && !jsonEquals(s.const, value)) return false;
  if (typeof value === "string") {
    const n = codePointLength(value);
    if (typeof s.minLength === "number" && n < s.minLength) return false;
    if (typeof s.maxLength === "number" && n > s.maxLength) return false;
    if (typeof s.pattern === "string") {
      const test = patternTest(s.pattern);
      if (test !== null && !test(value)) return false;
    }
    if (!passesFormat(s.format, value)) return false;
  }
  if (typeof value === "number") {
    if (typeof s.minimum === "number" && value < s.minimum) return false;
    if (typeof s.maximum === "number" && value > s.maximum) return false;
    if (typeof s.exclusiveMinimum === "number" && value <= s.exclusiveMinimum) return false;
    if (typeof s.exclusiveMaximum === "number" && value >= s.exclusiveMaximum) return false;
    if (typeof s.multipleOf === "number" && s.multipleOf > 0 && !isMultipleOf(value, s.multipleOf))
      return false;
  }
  if (Array.isArray(value)) {
    if (typeof s.minItems === "number" && value.length < s.minItems) return false;
    if (typeof s.maxItems === "number" && value.length > s.maxItems) return false;
    const items = s.items;
    if (items !== null && typeof items === "object" && !Array.isArray(items)) {
      for (const element of value) if (!checkValue(items as JsonSchema, element, false, root)) return false;
    }
  }
  if (type === "object") {
    const object = value as Record<string, unknown>;
    const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
    for (const key of Array.isArray(s.required) ? (s.required as string[]) : []) {
      if (!Object.hasOwn(object, key)) return false;
    }
    for (const [key, v] of Object.entries(object)) {
      if (Object.hasOwn(properties, key)) {
        if (!checkValue(properties[key] as JsonSchema, v, false, root)) return false;
      } else if (s.additionalProperties === false) return false;
    }
  }
  return true;
}

/**
 * The schema with every `anyOf` of a leaf schema and `{ type: "null" }` (as pydantic writes an optional field,
 * `Optional[str]`) read as that leaf with `null` among its types (and its `enum` or `const` values): the same
 * values are valid, since a leaf's other keywords apply to strings or numbers alone, never to `null`. Walks the
 * object keywords (`properties`, `items`, `additionalProperties`, `$defs`, `definitions`); everything else is kept
 * as it is.
 */
export function withOptionalsRead(schema: JsonSchema): JsonSchema {
  const walk = (node: unknown): unknown => {
    if (node === null || typeof node !== "object" || Array.isArray(node)) return node;
    const s = node as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(s)) {
      if ((key === "properties" || key === "$defs" || key === "definitions") && isRecord(value)) {
        out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
      } else if (key === "items" || key === "additionalProperties") out[key] = walk(value);
      else out[key] = value;
    }
    return optionalAsLeaf(out) ?? out;
  };
  return walk(schema) as JsonSchema;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** `{ anyOf: [leaf, { type: "null" }] }` (either order, annotations beside) as one leaf; undefined otherwise. */
function optionalAsLeaf(s: Record<string, unknown>): Record<string, unknown> | undefined {
  const branches = s.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2) return undefined;
  if (!Object.keys(s).every((k) => k === "anyOf" || ANNOTATIONS.has(k))) return undefined;
  const isNull = (b: unknown) =>
    isRecord(b) && b.type === "null" && Object.keys(b).every((k) => k === "type" || ANNOTATIONS.has(k));
  const nullAt = branches.findIndex(isNull);
  if (nullAt < 0) return undefined;
  const leaf = branches[1 - nullAt];
  if (!isRecord(leaf) || !Object.keys(leaf).every((k) => LEAF_VALUE_KEYWORDS.has(k) || ANNOTATIONS.has(k)))
    return undefined;
  const { anyOf: _, ...annotations } = s;
  const merged: Record<string, unknown> = { ...leaf, ...annotations };
  if (leaf.type !== undefined) merged.type = [...new Set([...[leaf.type].flat(), "null"])];
  if (Array.isArray(leaf.enum)) merged.enum = [...leaf.enum, null];
  if (Object.hasOwn(leaf, "const")) {
    delete merged.const;
    merged.enum = [leaf.const, null];
  }
  return merged;
}

/** The unread keywords of a schema and the schemas below it, for the `unknown` reasons of `diff`. */
export function unreadKeywords(schema: unknown, out: Set<string> = new Set()): Set<string> {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return out;
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    if (!READ_KEYWORDS.has(key)) out.add(key);
    if (key === "properties" && value !== null && typeof value === "object") {
      for (const child of Object.values(value as Record<string, unknown>)) unreadKeywords(child, out);
    } else if (key === "items" || key === "additionalProperties") unreadKeywords(value, out);
  }
  return out;
}

/**
 * Whether the validator counts `value` a multiple of `m`: ajv's `multipleOf` divides in floating point and asks
 * whether the quotient is an integer as `parseInt` reads it, so `0.15` is no multiple of `0.05` (the quotient is
 * 2.9999999999999996) and `1000.0000000000001` is one (20000).
 */
export function isMultipleOf(value: number, m: number): boolean {
  if (m === 0) return false;
  const q = value / m;
  return q === Number.parseInt(String(q), 10);
}

/** Whether `value` is a multiple of `m` but for rounding (`0.3` of `0.1`): for comparing two `multipleOf`. */
export function nearMultiple(value: number, m: number): boolean {
  const q = value / m;
  return Math.abs(q - Math.round(q)) <= 1e-9 * Math.max(1, Math.abs(q));
}

const BITS = new Float64Array(1);
const WORDS = new BigInt64Array(BITS.buffer);

/** The double `steps` places after `x` (before it when negative), for a finite `x`. */
function nextDouble(x: number, steps: number): number {
  if (x === 0) x = 0; // -0 and 0 are one point here
  BITS[0] = x;
  // The bits of a double order its magnitudes: up in magnitude for a positive number, down for a negative one.
  const n = WORDS[0] as bigint;
  if (x > 0 || (x === 0 && steps > 0)) WORDS[0] = n + BigInt(steps);
  else if (x === 0) {
    BITS[0] = -0;
    WORDS[0] = (WORDS[0] as bigint) - BigInt(steps);
  } else WORDS[0] = n - BigInt(steps);
  return BITS[0] as number;
}

/** How many doubles either side of `k × m` are tried: the multiples of `k` lie within three of its product. */
const NEIGHBOURS = 4;

/**
 * The doubles the validator counts as the `k`-th multiple of `m` (see {@link isMultipleOf}): near `k × m` (the
 * real product lies within half a place of its rounding, and the doubles whose quotient rounds to `k` within an
 * interval less than two places wide around it), nearest first. Empty when none is (`20001 × 0.05`).
 */
export function multiplesNear(k: number, m: number): number[] {
  const product = k * m;
  if (!Number.isFinite(product)) return [];
  const out: number[] = [];
  for (let d = 0; d <= NEIGHBOURS; d++) {
    for (const v of d === 0 ? [product] : [nextDouble(product, -d), nextDouble(product, d)])
      if (Number.isFinite(v) && isMultipleOf(v, m) && !out.includes(v)) out.push(v);
  }
  return out;
}
