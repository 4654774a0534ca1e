/**
 * ajv's `enum`, `const` and `uniqueItems` keywords compare with fast-deep-equal, which reads `constructor`,
 * `valueOf` and `toString` from the compared values and calls the last two when they are own properties: an
 * argument `{"toString": "a"}` made it throw (so an argument equal to an enum value was refused), and
 * `{"constructor": {}}` never equalled itself. toolgate compiles its schemas with JSON equality instead
 * (`ajvEqual`), the same function its compiled controllers call, so that both decide alike.
 *
 * The keywords read ajv's helper (`ajv/dist/runtime/equal`'s `default`) when they generate a validator's
 * code, so `withJsonEqual` puts JSON equality there for the length of one synchronous compile and puts the
 * original back: other users of ajv in the process are not affected.
 */
import { createRequire } from "node:module";
import { ajvEqual } from "../runtime/ajv-runtime.js";

/** JSON equality as ajv's code generator takes a helper: a function with the code that loads it. */
export const JSON_EQUAL_FOR_AJV: ((a: unknown, b: unknown) => boolean) & { readonly code: string } =
  Object.assign((a: unknown, b: unknown): boolean => ajvEqual(a, b), {
    // ajv writes this into its own standalone code (toolgate compile writes `ajvEqual` instead).
    code: 'require("toolgate/compiled").ajvEqual',
  });

// The module object ajv's keywords read the helper from (CommonJS, through the same module cache).
const equalModule = createRequire(import.meta.url)("ajv/dist/runtime/equal") as { default: unknown };

/** Runs `compile` (one or more synchronous `ajv.compile` calls) with JSON equality as ajv's equality helper. */
export function withJsonEqual<T>(compile: () => T): T {
  const original = equalModule.default;
  equalModule.default = JSON_EQUAL_FOR_AJV;
  try {
    return compile();
  } finally {
    equalModule.default = original;
  }
}
