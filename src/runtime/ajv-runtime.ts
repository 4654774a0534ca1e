/**
 * ajv's small runtime helpers, for compiled controllers. ajv standalone code refers to them with
 * `require("ajv/dist/runtime/…")`; `toolgate compile` rewrites those references to these named imports
 * from `toolgate/runtime`, so that a compiled module is a plain ES module without `require(`.
 *
 * They are exact ports of ajv's helpers (ajv/dist/runtime/ucs2length, ajv/dist/runtime/equal — which is
 * fast-deep-equal — and ajv/dist/runtime/validation_error; all MIT), not re-exports: loading those
 * CommonJS files (and fast-uri with them) at import time was a third of `toolgate/runtime`'s import cost,
 * which every compiled controller pays at start-up. A test checks the ports against ajv's own helpers.
 * ajv's URI helper is not here: standalone code never calls it for the keywords toolgate compiles (ajv
 * resolves URIs while compiling), and `toolgate compile` refuses code that would need it.
 */

import { createRequire } from "node:module";
import { ToolgateError } from "./errors.js";

/** String length in Unicode code points, as ajv's `minLength` and `maxLength` keywords count it. */
export function ajvUcs2length(str: string): number {
  const len = str.length;
  let length = 0;
  let pos = 0;
  while (pos < len) {
    length++;
    const value = str.charCodeAt(pos++);
    if (value >= 0xd800 && value <= 0xdbff && pos < len) {
      // A high surrogate followed by a low one is one code point.
      if ((str.charCodeAt(pos) & 0xfc00) === 0xdc00) pos++;
    }
  }
  return length;
}

/** Deep equality, as ajv's `enum`, `const` and `uniqueItems` keywords use it (fast-deep-equal). */
export function ajvEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a && b && typeof a === "object" && typeof b === "object") {
    if (a.constructor !== b.constructor) return false;
    if (Array.isArray(a)) {
      const other = b as unknown[];
      if (a.length !== other.length) return false;
      for (let i = a.length; i-- !== 0; ) if (!ajvEqual(a[i], other[i])) return false;
      return true;
    }
    if (a.constructor === RegExp) {
      return (a as RegExp).source === (b as RegExp).source && (a as RegExp).flags === (b as RegExp).flags;
    }
    if (a.valueOf !== Object.prototype.valueOf) return a.valueOf() === b.valueOf();
    if (a.toString !== Object.prototype.toString) return a.toString() === b.toString();
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    for (let i = keys.length; i-- !== 0; ) {
      if (!Object.hasOwn(b, keys[i] as string)) return false;
    }
    for (let i = keys.length; i-- !== 0; ) {
      const key = keys[i] as string;
      if (!ajvEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
    }
    return true;
  }
  // True if both are NaN, false otherwise.
  // biome-ignore lint/suspicious/noSelfCompare: the NaN test of fast-deep-equal, kept as it is
  return a !== a && b !== b;
}

/** The error `$async` validators throw (ajv's ValidationError). */
export class AjvValidationError extends ToolgateError {
  readonly errors: readonly unknown[];
  readonly ajv: true;
  readonly validation: true;
  constructor(errors: readonly unknown[]) {
    super("validation-failed", "validation failed");
    this.errors = errors;
    this.ajv = this.validation = true;
  }
}

type FormatDefinition = RegExp | true | ((data: never) => boolean) | { readonly validate: unknown };

let formats: { readonly [name: string]: FormatDefinition } | undefined;

/**
 * The definition of a `format` (ajv-formats' full formats, as the config loader validates them), for
 * compiled controllers. The formats are loaded on first use, so that a module whose schemas use no
 * `format` does not pay for them at start-up.
 * @throws ToolgateError for a format name ajv-formats does not define.
 */
export function ajvFormat(name: string): FormatDefinition {
  formats ??= (
    createRequire(import.meta.url)("ajv-formats/dist/formats.js") as {
      fullFormats: { readonly [name: string]: FormatDefinition };
    }
  ).fullFormats;
  if (!Object.hasOwn(formats, name)) {
    throw new ToolgateError("invalid-option", `unknown format ${JSON.stringify(name)}`);
  }
  return formats[name] as FormatDefinition;
}
