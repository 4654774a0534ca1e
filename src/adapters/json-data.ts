/**
 * Copying untrusted values into fresh, plain JSON data. Provider payloads are untrusted: the copy rejects
 * anything JSON cannot carry, so the arguments a `ToolCall` holds are plain data that share nothing with the
 * input and cannot pollute a prototype when a later step merges them.
 */

/** A JSON value as the adapters emit it: fresh, mutable plain data owned by the caller. */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;

/** A JSON object as the adapters emit it. */
export type JsonObject = { [key: string]: JsonValue };

import { MAX_DATA_DEPTH, utf8Length } from "../runtime/plain-data.js";

/** Arguments nested deeper than this are refused, so that hostile input cannot exhaust the stack. */
export const MAX_ARGUMENT_DEPTH = MAX_DATA_DEPTH;

/** The outcome of copying a value: the copy, or why the value is not acceptable JSON data. */
export type JsonCopy<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly reason: string };

interface CopyOptions {
  /**
   * `reject`: a `__proto__` key makes the copy fail (untrusted arguments).
   * `keep`: it is kept as an own data property (trusted schemas, copied faithfully).
   */
  readonly protoKey: "reject" | "keep";
  /**
   * Ceiling on the value's size as compact JSON (strings counted in UTF-8), as the controller measures it;
   * the copy stops and fails once it is passed. No ceiling when absent.
   */
  readonly maxBytes?: number;
}

/** The result of a copy that failed because the value is larger than `maxBytes`. */
export const TOO_LARGE = "too-large";

interface Budget {
  bytes: number;
  readonly max: number;
}

/**
 * Copies `value` into fresh plain data if it is a JSON object (not an array) made only of JSON values.
 * `-0` becomes `0`, as JSON text would carry it.
 */
export function copyJsonObject(value: unknown, options: CopyOptions): JsonCopy<JsonObject> {
  if (!isPlainObject(value))
    return { ok: false, reason: `${describeValue(value)} at the top level, not an object` };
  const budget: Budget = { bytes: 0, max: options.maxBytes ?? Number.POSITIVE_INFINITY };
  const copy = copyValue(value, "", 0, new Set(), options, budget);
  if (!copy.ok) return copy;
  return { ok: true, value: copy.value as JsonObject };
}

function copyValue(
  value: unknown,
  path: string,
  depth: number,
  ancestors: Set<object>,
  options: CopyOptions,
  budget: Budget,
): JsonCopy<JsonValue> {
  switch (typeof value) {
    case "string":
      return spend(budget, utf8Length(value) + 2) ? { ok: true, value } : tooLarge();
    case "boolean":
      return spend(budget, value ? 4 : 5) ? { ok: true, value } : tooLarge();
    case "number":
      if (!Number.isFinite(value)) return fail(`the number ${value}`, path);
      return spend(budget, String(value).length) ? { ok: true, value: value === 0 ? 0 : value } : tooLarge();
    case "object":
      break;
    default:
      return fail(describeValue(value), path);
  }
  if (value === null) return spend(budget, 4) ? { ok: true, value: null } : tooLarge();
  if (depth >= MAX_ARGUMENT_DEPTH) {
    return { ok: false, reason: `nesting deeper than ${MAX_ARGUMENT_DEPTH} levels at ${path}` };
  }
  if (ancestors.has(value)) return fail("a cycle", path);
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      if (!spend(budget, value.length + 1)) return tooLarge();
      const out: JsonValue[] = [];
      for (let i = 0; i < value.length; i++) {
        const item = copyValue(value[i], `${path}/${i}`, depth + 1, ancestors, options, budget);
        if (!item.ok) return item;
        out.push(item.value);
      }
      return { ok: true, value: out };
    }
    if (!isPlainObject(value)) return fail(describeValue(value), path);
    const keys = Object.keys(value);
    if (!spend(budget, keys.length + 1)) return tooLarge();
    const out: JsonObject = {};
    for (const key of keys) {
      const keyPath = `${path}/${escapePointer(key)}`;
      if (key === "__proto__" && options.protoKey === "reject") {
        return {
          ok: false,
          reason: `the key "__proto__" at ${keyPath}, which is refused (prototype pollution)`,
        };
      }
      if (!spend(budget, utf8Length(key) + 3)) return tooLarge();
      const item = copyValue(
        (value as Record<string, unknown>)[key],
        keyPath,
        depth + 1,
        ancestors,
        options,
        budget,
      );
      if (!item.ok) return item;
      // defineProperty, not assignment: a kept "__proto__" key stays an own data property.
      Object.defineProperty(out, key, {
        value: item.value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return { ok: true, value: out };
  } finally {
    ancestors.delete(value);
  }
}

function spend(budget: Budget, bytes: number): boolean {
  budget.bytes += bytes;
  return budget.bytes <= budget.max;
}

function tooLarge(): { ok: false; reason: string } {
  return { ok: false, reason: TOO_LARGE };
}

function fail(what: string, path: string): { ok: false; reason: string } {
  return { ok: false, reason: `${what} at ${pointer(path)}, which JSON cannot carry` };
}

function pointer(path: string): string {
  return path === "" ? "the top level" : path;
}

function escapePointer(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** True for an object whose prototype is `Object.prototype` or `null` (not an array, class instance or Date). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Names a value's kind for a message: "an array", "null", "a string", ... */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (value === undefined) return "undefined";
  if (typeof value === "object") return isPlainObject(value) ? "an object" : "a non-plain object";
  return `a ${typeof value}`;
}

/** Reads an own property of an object, ignoring anything inherited through its prototype chain. */
export function readOwn(record: object, key: string): unknown {
  return Object.hasOwn(record, key) ? (record as Record<string, unknown>)[key] : undefined;
}

/** True for any non-null, non-array object (an envelope read field by field with `readOwn`). */
export function isRecord(value: unknown): value is object {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The first key that appears twice in one object of a JSON text, or `undefined`. `JSON.parse` keeps the last
 * of two equal keys while other parsers keep the first, so a text with duplicates reads differently to
 * different readers. `text` must be valid JSON (parse it first); keys are compared after unescaping.
 */
export function findDuplicateKey(text: string): string | undefined {
  // One frame per open object (its keys so far, and whether a key comes next) or array (null).
  const frames: ({ keys: Set<string>; expectKey: boolean } | null)[] = [];
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (char === 0x7b /* { */) frames.push({ keys: new Set(), expectKey: true });
    else if (char === 0x5b /* [ */) frames.push(null);
    else if (char === 0x7d /* } */ || char === 0x5d /* ] */) frames.pop();
    else if (char === 0x2c /* , */) {
      const top = frames[frames.length - 1];
      if (top) top.expectKey = true;
    } else if (char === 0x22 /* " */) {
      const start = i;
      let escaped = false;
      for (i++; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 0x5c /* \ */) {
          escaped = true;
          i++;
        } else if (c === 0x22) break;
      }
      const top = frames[frames.length - 1];
      if (top?.expectKey) {
        const raw = text.slice(start, i + 1);
        const key = escaped ? (JSON.parse(raw) as string) : raw.slice(1, -1);
        if (top.keys.has(key)) return key;
        top.keys.add(key);
        top.expectKey = false;
      }
    }
  }
  return undefined;
}

/** A value quoted for a message: strings as JSON strings, anything else by its kind. */
export function quoteValue(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : describeValue(value);
}
