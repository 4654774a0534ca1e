/**
 * A small, plausible set of arguments for a tool's input schema, for the starter policy test that
 * `toolgate init` writes per tool. Only required properties are filled. The result is a guess: the caller
 * checks it with the tool's real validator and writes no test from a guess that fails.
 */
import type { JsonObject, JsonValue } from "../adapters/json-data.js";

/** Example strings for the formats ajv-formats checks; each one passes its format. */
const FORMAT_SAMPLES: Readonly<Record<string, string>> = {
  date: "2026-01-01",
  time: "12:00:00Z",
  "date-time": "2026-01-01T12:00:00Z",
  "iso-time": "12:00:00Z",
  "iso-date-time": "2026-01-01T12:00:00Z",
  duration: "P1D",
  uri: "https://example.com/",
  "uri-reference": "https://example.com/",
  "uri-template": "https://example.com/{id}",
  url: "https://example.com/",
  email: "user@example.com",
  hostname: "example.com",
  ipv4: "192.0.2.1",
  ipv6: "2001:db8::1",
  regex: "^a",
  uuid: "00000000-0000-4000-8000-000000000000",
  "json-pointer": "/a",
  "json-pointer-uri-fragment": "#/a",
  "relative-json-pointer": "0",
  byte: "aGVsbG8=",
  int32: "1",
  int64: "1",
  float: "1.5",
  double: "1.5",
  password: "example",
  binary: "example",
};

/** How deep the generator follows nested schemas and `$ref`s before it gives up. */
const MAX_DEPTH = 16;

/**
 * Builds sample arguments for `schema`, or `undefined` when it cannot guess any.
 * @param schema a tool's input schema (`type: object`).
 */
export function sampleArguments(schema: JsonObject): JsonValue | undefined {
  return sample(schema, schema, "", 0);
}

function sample(node: unknown, root: JsonObject, name: string, depth: number): JsonValue | undefined {
  if (depth > MAX_DEPTH) return undefined;
  if (node === true) return name === "" ? {} : "example";
  if (!isObject(node)) return undefined;
  if ("const" in node) return node.const as JsonValue;
  if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0] as JsonValue;
  if ("default" in node && node.default !== undefined) return node.default as JsonValue;
  if (Array.isArray(node.examples) && node.examples.length > 0) return node.examples[0] as JsonValue;
  if (typeof node.$ref === "string") {
    const target = resolvePointer(root, node.$ref);
    return target === undefined ? undefined : sample(target, root, name, depth + 1);
  }
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = node[key];
    if (Array.isArray(branches)) {
      // Prefer a branch that is not just `null`: a test with a real value says more.
      const ordered = [...branches].sort((a, b) => Number(isNullSchema(a)) - Number(isNullSchema(b)));
      for (const branch of ordered) {
        const value = sample(mergeSiblings(node, branch, key), root, name, depth + 1);
        if (value !== undefined) return value;
      }
      return undefined;
    }
  }
  if (Array.isArray(node.allOf)) {
    let merged: JsonObject = withoutKey(node, "allOf");
    for (const part of node.allOf) {
      if (!isObject(part)) continue;
      merged = mergeSchemas(merged, part);
    }
    return sample(merged, root, name, depth + 1);
  }
  switch (pickType(node)) {
    case "object":
      return sampleObject(node, root, depth);
    case "array":
      return sampleArray(node, root, name, depth);
    case "string":
      return sampleString(node, name);
    case "integer":
      return sampleNumber(node, true);
    case "number":
      return sampleNumber(node, false);
    case "boolean":
      return false;
    case "null":
      return null;
    default:
      return undefined;
  }
}

function sampleObject(node: JsonObject, root: JsonObject, depth: number): JsonValue | undefined {
  const properties = isObject(node.properties) ? node.properties : {};
  const required = Array.isArray(node.required)
    ? node.required.filter((r): r is string => typeof r === "string")
    : [];
  const out: JsonObject = {};
  for (const key of required) {
    const value = sample(Object.hasOwn(properties, key) ? properties[key] : true, root, key, depth + 1);
    if (value === undefined) return undefined;
    setOwn(out, key, value);
  }
  return out;
}

function sampleArray(node: JsonObject, root: JsonObject, name: string, depth: number): JsonValue | undefined {
  const prefix = Array.isArray(node.prefixItems)
    ? node.prefixItems
    : Array.isArray(node.items)
      ? node.items
      : [];
  const rest = Array.isArray(node.items) ? node.additionalItems : node.items;
  const minItems = typeof node.minItems === "number" ? node.minItems : 0;
  const count = Math.max(minItems, prefix.length, rest === undefined || rest === false ? 0 : 1);
  const out: JsonValue[] = [];
  for (let i = 0; i < count; i++) {
    const itemSchema = i < prefix.length ? prefix[i] : (rest ?? true);
    const value = sample(itemSchema, root, singular(name), depth + 1);
    if (value === undefined) return undefined;
    out.push(value);
  }
  return out;
}

function sampleString(node: JsonObject, name: string): string {
  const format = typeof node.format === "string" ? FORMAT_SAMPLES[node.format] : undefined;
  let text = format ?? byName(name);
  const min = typeof node.minLength === "number" ? node.minLength : 0;
  const max = typeof node.maxLength === "number" ? node.maxLength : Number.POSITIVE_INFINITY;
  if ([...text].length < min) text = text.padEnd(min, "x");
  if ([...text].length > max) text = [...text].slice(0, max).join("");
  return text;
}

/** A string that reads naturally for a property of this name. */
function byName(name: string): string {
  const lower = name.toLowerCase();
  if (/(^|_)(url|uri|href|endpoint)s?$/.test(lower)) return "https://example.com/";
  if (/(path|file|dir|directory|folder)s?$/.test(lower)) return "README.md";
  if (/(command|cmd|script)$/.test(lower)) return "echo hello";
  if (/e-?mail$/.test(lower)) return "user@example.com";
  if (/(query|pattern|search)$/.test(lower)) return "TODO";
  return "example";
}

function sampleNumber(node: JsonObject, integer: boolean): number | undefined {
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
  let low = num(node.minimum) ?? Number.NEGATIVE_INFINITY;
  let high = num(node.maximum) ?? Number.POSITIVE_INFINITY;
  const exLow = num(node.exclusiveMinimum);
  const exHigh = num(node.exclusiveMaximum);
  if (exLow !== undefined) low = Math.max(low, integer ? Math.floor(exLow) + 1 : exLow + 0.5);
  if (exHigh !== undefined) high = Math.min(high, integer ? Math.ceil(exHigh) - 1 : exHigh - 0.5);
  const step = num(node.multipleOf);
  const fits = (v: number) =>
    Number.isFinite(v) && v >= low && v <= high && (!integer || Number.isInteger(v));
  // 1 when the bounds allow it (a count, a limit), else the value nearest to it.
  const preferred = Math.min(Math.max(1, low), high);
  const candidates =
    step !== undefined && step > 0
      ? [Math.ceil(preferred / step) * step, Math.ceil(low / step) * step, Math.floor(high / step) * step]
      : [integer ? Math.ceil(preferred) : preferred, Math.ceil(low), Math.floor(high)];
  return candidates.find(fits);
}

function pickType(node: JsonObject): string | undefined {
  const type = node.type;
  if (typeof type === "string") return type;
  if (Array.isArray(type)) {
    const types = type.filter((t): t is string => typeof t === "string");
    return types.find((t) => t !== "null") ?? types[0];
  }
  if (isObject(node.properties) || Array.isArray(node.required)) return "object";
  if ("items" in node || "prefixItems" in node) return "array";
  if ("minLength" in node || "maxLength" in node || "pattern" in node || "format" in node) return "string";
  if ("minimum" in node || "maximum" in node) return "number";
  return undefined;
}

/** A branch of `anyOf`/`oneOf` together with the keywords next to it (`{ type: object, anyOf: [...] }`). */
function mergeSiblings(node: JsonObject, branch: unknown, key: string): unknown {
  if (!isObject(branch)) return branch;
  return mergeSchemas(withoutKey(node, key), branch);
}

function mergeSchemas(a: JsonObject, b: JsonObject): JsonObject {
  const out: JsonObject = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const existing = out[key];
    if (key === "properties" && isObject(existing) && isObject(value))
      setOwn(out, key, { ...existing, ...value });
    else if (key === "required" && Array.isArray(existing) && Array.isArray(value))
      setOwn(out, key, [...new Set([...existing, ...value])]);
    else setOwn(out, key, value as JsonValue);
  }
  return out;
}

function withoutKey(node: JsonObject, key: string): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(node)) if (k !== key) setOwn(out, k, v as JsonValue);
  return out;
}

function isNullSchema(node: unknown): boolean {
  return isObject(node) && node.type === "null";
}

function singular(name: string): string {
  return name.endsWith("s") ? name.slice(0, -1) : name;
}

/** A local `$ref` (`#`, `#/$defs/x`, `#/definitions/x`); anything else is not followed. */
function resolvePointer(root: JsonObject, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  let current: unknown = root;
  for (const raw of ref.slice(1).split("/").slice(1)) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    } catch {
      return undefined;
    }
    if (!isObject(current) || !Object.hasOwn(current, key)) return undefined;
    current = current[key];
  }
  return current;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Sets an own data property, also for a key named `__proto__` (never the prototype). */
function setOwn(target: JsonObject, key: string, value: JsonValue): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
