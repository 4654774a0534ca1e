/**
 * ajv's small runtime helpers, for compiled controllers. ajv standalone code refers to them with
 * `require("ajv/dist/runtime/…")`; `toolgate compile` rewrites those references to these named imports
 * from `toolgate/runtime`, so that a compiled module is a plain ES module without `require(`.
 *
 * `ajvUcs2length` and `AjvValidationError` are exact ports of ajv's helpers (ajv/dist/runtime/ucs2length and
 * ajv/dist/runtime/validation_error; MIT), not re-exports: loading those CommonJS files (and fast-uri with
 * them) at import time was a third of `toolgate/runtime`'s import cost, which every compiled controller pays
 * at start-up. `ajvEqual` is not ajv's fast-deep-equal but JSON equality, which the YAML-loaded controller's
 * validators use too (`withJsonEqual` in src/validation). A test checks them against ajv's own helpers.
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

/**
 * Equality of JSON data, as the `enum`, `const` and `uniqueItems` keywords of toolgate's input schemas use
 * it (in the YAML-loaded controller and in compiled ones alike): scalars by `===`, arrays element by
 * element, objects by their own enumerable keys, in any order. Unlike ajv's own helper (fast-deep-equal), it
 * never reads `constructor`, `valueOf` or `toString` from the values nor calls anything found on them, so
 * arguments or schema values with such own keys (`{"toString": "a"}`) compare as the data they are.
 */
export function ajvEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
    // True if both are NaN (never JSON, kept from fast-deep-equal), false otherwise.
    // biome-ignore lint/suspicious/noSelfCompare: the NaN test
    return a !== a && b !== b;
  }
  const array = Array.isArray(a);
  if (array !== Array.isArray(b)) return false;
  if (array) {
    const left = a as unknown[];
    const right = b as unknown[];
    if (left.length !== right.length) return false;
    for (let i = left.length; i-- !== 0; ) if (!ajvEqual(left[i], right[i])) return false;
    return true;
  }
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
