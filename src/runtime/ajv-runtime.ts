/**
 * ajv's small runtime helpers, for compiled controllers. ajv standalone code refers to them with
 * `require("ajv/dist/runtime/…")`; `toolgate compile` rewrites those references to these named imports
 * from `toolgate/runtime`, so that a compiled module is a plain ES module without `require(`. Only the
 * helpers are here: the ajv compiler never reaches the runtime.
 */
import equalModule from "ajv/dist/runtime/equal.js";
import ucs2lengthModule from "ajv/dist/runtime/ucs2length.js";
import uriModule from "ajv/dist/runtime/uri.js";
import validationErrorModule from "ajv/dist/runtime/validation_error.js";

// Node gives a CommonJS module's `exports` object as the default import (the helper is its `default`);
// bundlers and vite give `exports.default` itself. Accept both.
function interop<T>(imported: unknown): T {
  return (
    imported !== null && typeof imported === "object" && "default" in imported ? imported.default : imported
  ) as T;
}

/** Deep equality of JSON values, as ajv's `enum`, `const` and `uniqueItems` keywords use it. */
export const ajvEqual = interop<(a: unknown, b: unknown) => boolean>(equalModule);

/** String length in Unicode code points, as ajv's `minLength` and `maxLength` keywords count it. */
export const ajvUcs2length = interop<(str: string) => number>(ucs2lengthModule);

/** The part of ajv's URI library (fast-uri) that validators call. */
export interface AjvUriLibrary {
  parse(uri: string): unknown;
  resolve(base: string, relative: string): string;
  serialize(components: unknown): string;
}

/** The URI library ajv resolves `$id` and `$ref` with. */
export const ajvUri = interop<AjvUriLibrary>(uriModule);

/** The error `$async` validators throw. */
export const AjvValidationError = interop<typeof validationErrorModule.default>(validationErrorModule);
