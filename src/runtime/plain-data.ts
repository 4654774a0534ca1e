/**
 * The controller's input boundary: arguments and context become own, plain, deeply frozen JSON data before
 * anything reads them. The validator, the policy and the handler then all see one value, which the caller
 * can no longer change, and nothing reaches them through a prototype, a getter or a proxy.
 */

/** Default ceiling on a call's argument size: 1 MiB. */
export const DEFAULT_MAX_ARGUMENT_BYTES = 1024 * 1024;

/** Data nested deeper than this is refused, so that hostile input cannot exhaust the stack. */
export const MAX_DATA_DEPTH = 100;

/** The outcome of `copyPlainData`. */
export type PlainDataCopy =
  | {
      readonly ok: true;
      /** The frozen copy. */
      readonly value: unknown;
      /** Its size as compact JSON, strings counted in UTF-8 (see `copyPlainData`). */
      readonly bytes: number;
    }
  | {
      readonly ok: false;
      /** What is wrong and where (a JSON Pointer), for example `a getter at /path`. */
      readonly reason: string;
      /** True when the value is larger than the ceiling. */
      readonly tooLarge: boolean;
    };

/**
 * Marks data that the controller has just copied with `copyPlainData`, with its measured size, so that
 * `ToolRuntime.prepare` does not walk it a second time (module-internal; not part of the public API).
 */
export const COPIED_BYTES: unique symbol = Symbol("toolgate.copiedBytes");

const FAILED: unique symbol = Symbol("failed");

class Walk {
  bytes = 0;
  readonly maxBytes: number;
  what = "";
  tooLarge = false;
  /** Filled in only after a failure, while the recursion unwinds: innermost key first. */
  path: string[] | undefined = undefined;
  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }
  at(key: string): void {
    if (this.tooLarge) return;
    if (this.path === undefined) this.path = [key];
    else this.path.push(key);
  }
}

const getOwnDescriptor = Object.getOwnPropertyDescriptor;

/**
 * Copies `value` into fresh, deeply frozen plain JSON data, refusing what JSON cannot carry or what could
 * show different data to different readers: getters and setters, objects whose prototype is not
 * `Object.prototype` or `null` (class instances, `Date`, `Map`, `Object.create({...})`), own `__proto__`
 * keys, functions, symbols, bigints, `NaN` and infinities, `undefined` or holes inside arrays, and cycles or
 * nesting deeper than `MAX_DATA_DEPTH`. Object properties are read through their descriptors, so a getter is
 * refused without being called; array elements are read once each, and what was read is the data. As in
 * `JSON.stringify`, object properties whose value is `undefined`, symbol keys and non-enumerable properties
 * are not part of the data (the copy leaves them out, so no reader sees them); `-0` becomes `0`. Copied
 * objects have `Object.prototype` as their prototype.
 *
 * The size is measured in the same walk: the length of the value written as compact JSON, with every string
 * counted as its UTF-8 bytes plus two quotes (escapes are not expanded). The walk stops as soon as the size
 * passes `maxBytes`. Never throws: a proxy or getter that throws while being read is a refusal too.
 */
export function copyPlainData(value: unknown, maxBytes: number = DEFAULT_MAX_ARGUMENT_BYTES): PlainDataCopy {
  const walk = new Walk(maxBytes);
  let copy: unknown;
  try {
    copy = copyValue(value, walk, 0);
  } catch (error) {
    walk.what = `a value that could not be read (${describeThrown(error)})`;
    walk.path = undefined;
    copy = FAILED;
  }
  if (copy === FAILED) {
    const at = walk.path === undefined ? "the top level" : `/${walk.path.reverse().join("/")}`;
    const reason = walk.tooLarge ? walk.what : `${walk.what} at ${at}`;
    return { ok: false, reason, tooLarge: walk.tooLarge };
  }
  return { ok: true, value: copy, bytes: walk.bytes };
}

function fail(walk: Walk, what: string): typeof FAILED {
  walk.what = what;
  return FAILED;
}

function add(walk: Walk, bytes: number): boolean {
  walk.bytes += bytes;
  if (walk.bytes <= walk.maxBytes) return true;
  walk.tooLarge = true;
  walk.what = `more than ${walk.maxBytes} bytes`;
  return false;
}

function copyValue(value: unknown, walk: Walk, depth: number): unknown {
  switch (typeof value) {
    case "string":
      return add(walk, utf8Length(value) + 2) ? value : FAILED;
    case "number":
      if (!Number.isFinite(value)) return fail(walk, `the number ${value}, which JSON cannot carry`);
      return add(walk, numberLength(value)) ? (value === 0 ? 0 : value) : FAILED;
    case "boolean":
      return add(walk, value ? 4 : 5) ? value : FAILED;
    case "object":
      break;
    default:
      return fail(walk, `${describeKind(value)}, which JSON cannot carry`);
  }
  if (value === null) return add(walk, 4) ? null : FAILED;
  // A cycle never ends, so it reaches this depth too (or the size ceiling first).
  if (depth >= MAX_DATA_DEPTH) return fail(walk, `a cycle or nesting deeper than ${MAX_DATA_DEPTH} levels`);
  return Array.isArray(value) ? copyArray(value, walk, depth) : copyObject(value, walk, depth);
}

function copyArray(array: unknown[], walk: Walk, depth: number): unknown {
  if (Object.getPrototypeOf(array) !== Array.prototype) return fail(walk, "an array of a subclass");
  const length = array.length;
  if (!add(walk, length === 0 ? 2 : length + 1)) return FAILED;
  const out: unknown[] = new Array(length);
  for (let i = 0; i < length; i++) {
    // Elements are read once each (a property descriptor per element would cost more than the rest of the
    // copy); whatever was read is the data every reader sees.
    const element = array[i];
    const item =
      element === undefined
        ? fail(walk, `${i in array ? "undefined" : "a hole"} in an array, which JSON cannot carry`)
        : copyValue(element, walk, depth + 1);
    if (item === FAILED) {
      walk.at(String(i));
      return FAILED;
    }
    out[i] = item;
  }
  return Object.freeze(out);
}

function copyObject(object: object, walk: Walk, depth: number): unknown {
  const proto: unknown = Object.getPrototypeOf(object);
  if (proto !== Object.prototype && proto !== null) {
    return fail(walk, `${describeKind(object)}, not plain data`);
  }
  const keys = Object.keys(object);
  if (!add(walk, keys.length === 0 ? 2 : keys.length + 1)) return FAILED;
  const out: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    let item: unknown;
    if (key === "__proto__") item = fail(walk, 'the key "__proto__", which is refused (prototype pollution)');
    else {
      const descriptor = getOwnDescriptor(object, key);
      if (descriptor === undefined) continue; // removed meanwhile (a proxy): not part of the data
      if (!("value" in descriptor)) item = fail(walk, "a getter or setter");
      else if (descriptor.value === undefined) continue;
      else if (!add(walk, utf8Length(key) + 3)) item = FAILED;
      else item = copyValue(descriptor.value, walk, depth + 1);
    }
    if (item === FAILED) {
      walk.at(escapePointer(key));
      return FAILED;
    }
    out[key] = item;
  }
  return Object.freeze(out);
}

const NON_ASCII = /[\u0080-\uffff]/;

/** The number of bytes of `text` in UTF-8 (a lone surrogate counts as the three bytes of U+FFFD). */
export function utf8Length(text: string): number {
  let bytes = text.length;
  // Most text is ASCII: one native scan answers for it.
  if (text.length < 16 ? false : !NON_ASCII.test(text)) return bytes;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) bytes += 1;
    else if (unit <= 0xdbff && unit >= 0xd800 && isLowSurrogate(text.charCodeAt(i + 1))) {
      // A surrogate pair: two units, four bytes.
      bytes += 2;
      i++;
    } else bytes += 2;
  }
  return bytes;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/** The length of `value` as JSON writes it, without building the text for integers. */
function numberLength(value: number): number {
  if (!Number.isInteger(value) || value >= 1e21 || value <= -1e21) return String(value).length;
  let digits = value < 0 ? 2 : 1;
  const magnitude = Math.abs(value);
  // Powers of ten are exact doubles up to 1e22.
  for (let power = 10; magnitude >= power; power *= 10) digits++;
  return digits;
}

function escapePointer(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}

function describeKind(value: unknown): string {
  switch (typeof value) {
    case "function":
      return "a function";
    case "symbol":
      return "a symbol";
    case "bigint":
      return "a bigint";
    case "undefined":
      return "undefined";
    case "object": {
      if (value === null) return "null";
      const name = constructorName(value);
      return name === undefined ? "an object with a non-plain prototype" : `an instance of ${name}`;
    }
    default:
      return `a ${typeof value}`;
  }
}

function constructorName(value: object): string | undefined {
  try {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto === null || typeof proto !== "object") return undefined;
    const descriptor = getOwnDescriptor(proto, "constructor");
    const ctor: unknown = descriptor !== undefined && "value" in descriptor ? descriptor.value : undefined;
    if (typeof ctor !== "function") return undefined;
    const nameDescriptor = getOwnDescriptor(ctor, "name");
    const name: unknown =
      nameDescriptor !== undefined && "value" in nameDescriptor ? nameDescriptor.value : undefined;
    return typeof name === "string" && name !== "" && name !== "Object" ? name.slice(0, 80) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A short text for any thrown value, safe with hostile values: an `Error` whose `name` or `message` getter
 * throws, an object without a prototype, a proxy that throws on every trap, a symbol, an object with own
 * `toString`, `valueOf` or `toJSON` members. Nothing found on the value is ever called (no getter, no
 * `toString`, no `toJSON`): only data properties are read. Never throws; at most 500 characters.
 */
export function describeThrown(value: unknown): string {
  try {
    return clip(describeUnsafe(value));
  } catch {
    return "an unprintable value";
  }
}

function describeUnsafe(value: unknown): string {
  switch (typeof value) {
    case "string":
      return value;
    case "symbol":
      // String(), not value.toString(): the description without looking a method up.
      return String(value);
    case "function":
      return "a function";
    case "number":
    case "bigint":
    case "boolean":
    case "undefined":
      return String(value);
    default:
      break;
  }
  if (value === null || typeof value !== "object") return "null";
  let isError = false;
  try {
    isError = value instanceof Error;
  } catch {
    return "an unreadable object";
  }
  if (isError) {
    const name = readString(value, "name") ?? "Error";
    const message = readString(value, "message");
    return message === undefined ? `${name} (unreadable message)` : `${name}: ${message}`;
  }
  const message = readString(value, "message");
  if (message !== undefined) return message;
  // The object as JSON, from a plain copy (own data properties only; no toJSON, getter or proxy is used).
  const copy = copyPlainData(value, 2000);
  return copy.ok ? `an object: ${JSON.stringify(copy.value)}` : "an unreadable object";
}

/**
 * The string data property `key` of `object` or of an object on its prototype chain (an error's `name`
 * lives on its class's prototype); undefined when it is missing, not a string, or an accessor.
 */
function readString(object: object, key: string): string | undefined {
  try {
    let at: unknown = object;
    for (let depth = 0; depth < 20 && at !== null && typeof at === "object"; depth++) {
      const descriptor = getOwnDescriptor(at, key);
      if (descriptor !== undefined) {
        return "value" in descriptor && typeof descriptor.value === "string" ? descriptor.value : undefined;
      }
      at = Object.getPrototypeOf(at);
    }
    return undefined;
  } catch {
    return undefined;
  }
}

function clip(text: string): string {
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}
