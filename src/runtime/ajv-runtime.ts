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

/** Deep equality of JSON values, as ajv's `enum`, `const` and `uniqueItems` keywords use it. */
export const ajvEqual = equalModule.default as unknown as (a: unknown, b: unknown) => boolean;

/** String length in Unicode code points, as ajv's `minLength` and `maxLength` keywords count it. */
export const ajvUcs2length: (str: string) => number = ucs2lengthModule.default;

/** The URI library ajv resolves `$id` and `$ref` with. */
export const ajvUri: typeof uriModule.default = uriModule.default;

/** The error `$async` validators throw. */
export const AjvValidationError: typeof validationErrorModule.default = validationErrorModule.default;
