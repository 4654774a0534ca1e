/**
 * The simplest value a JSON Schema accepts, for the witness calls of `toolgate diff`: a starting call built
 * from a tool's input schema (and a context from `context_schema`) that the validator then accepts or not.
 * No solver: `const`, the first `enum` entry or branch, a format's example, a regex example, bounds.
 */
import type { JsonSchema } from "../runtime/types.js";
import { regexExamples } from "./regex-examples.js";

const FORMAT_EXAMPLES: Readonly<Record<string, string>> = {
  email: "ada@example.com",
  "idn-email": "ada@example.com",
  uri: "https://example.com/",
  url: "https://example.com/",
  "uri-reference": "https://example.com/",
  iri: "https://example.com/",
  "iri-reference": "https://example.com/",
  "uri-template": "https://example.com/{id}",
  hostname: "example.com",
  "idn-hostname": "example.com",
  ipv4: "192.0.2.1",
  ipv6: "2001:db8::1",
  date: "2026-01-31",
  time: "12:00:00Z",
  "date-time": "2026-01-31T12:00:00Z",
  "iso-time": "12:00:00",
  "iso-date-time": "2026-01-31T12:00:00",
  duration: "P1D",
  uuid: "00000000-0000-4000-8000-000000000000",
  regex: "^a$",
  "json-pointer": "/a",
  "relative-json-pointer": "0",
  byte: "YQ==",
  int32: "1",
  int64: "1",
  float: "1.5",
  double: "1.5",
  password: "a",
  binary: "a",
};

/** `schema` with its local `$ref`s (`#/...`) followed within `root`; undefined when one leads nowhere. */
export function resolveRef(root: JsonSchema, schema: unknown): JsonSchema | undefined {
  let current = schema;
  for (let depth = 0; depth < 16; depth++) {
    if (current === null || typeof current !== "object") return undefined;
    const ref = (current as JsonSchema).$ref;
    if (typeof ref !== "string" || !ref.startsWith("#")) return current as JsonSchema;
    let target: unknown = root;
    for (const raw of ref.slice(1).split("/").slice(1)) {
      const key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
      target =
        target !== null && typeof target === "object" ? (target as Record<string, unknown>)[key] : undefined;
    }
    current = target;
  }
  return undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** The simplest value a schema accepts, as far as can be told without a solver; the validator decides. */
export function minimalValue(schema: unknown, root: JsonSchema, depth = 0): unknown {
  const s = resolveRef(root, schema);
  if (s === undefined || depth > 8) return "a";
  if (Object.hasOwn(s, "const")) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = s[key];
    if (Array.isArray(branches) && branches.length > 0) return minimalValue(branches[0], root, depth + 1);
  }
  const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === "string" ? [s.type] : [];
  const type =
    types.find((t) => t !== "null") ?? types[0] ?? (s.properties !== undefined ? "object" : "string");
  switch (type) {
    case "string": {
      if (typeof s.format === "string" && FORMAT_EXAMPLES[s.format] !== undefined)
        return FORMAT_EXAMPLES[s.format];
      if (typeof s.pattern === "string") {
        const example = regexExamples(s.pattern, "u", 2)[0];
        if (example !== undefined) return example;
      }
      const min = num(s.minLength) ?? 0;
      const max = num(s.maxLength) ?? Number.POSITIVE_INFINITY;
      return "a".repeat(Math.min(Math.max(min, 1), max));
    }
    case "integer":
    case "number": {
      const lo =
        num(s.minimum) ??
        (num(s.exclusiveMinimum) === undefined ? undefined : (s.exclusiveMinimum as number) + 1);
      const hi =
        num(s.maximum) ??
        (num(s.exclusiveMaximum) === undefined ? undefined : (s.exclusiveMaximum as number) - 1);
      const step = num(s.multipleOf);
      let value = 1;
      if (lo !== undefined && value < lo) value = type === "integer" ? Math.ceil(lo) : lo;
      if (hi !== undefined && value > hi) value = type === "integer" ? Math.floor(hi) : hi;
      if (step !== undefined && step > 0) value = Math.ceil(value / step) * step;
      return value;
    }
    case "boolean":
      return false;
    case "null":
      return null;
    case "array": {
      const count = Math.min(num(s.minItems) ?? 0, 8);
      return Array.from({ length: count }, () => minimalValue(s.items ?? {}, root, depth + 1));
    }
    default: {
      const out: Record<string, unknown> = {};
      const properties = (s.properties ?? {}) as Record<string, unknown>;
      for (const key of Array.isArray(s.required) ? (s.required as string[]) : []) {
        out[key] = minimalValue(properties[key] ?? {}, root, depth + 1);
      }
      return out;
    }
  }
}
