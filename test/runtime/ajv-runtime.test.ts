/**
 * toolgate/runtime's ports of ajv's runtime helpers behave exactly as ajv's own (the compiled controller
 * calls them where ajv standalone code would `require` ajv's).
 */
import equalModule from "ajv/dist/runtime/equal.js";
import ucs2lengthModule from "ajv/dist/runtime/ucs2length.js";
import validationErrorModule from "ajv/dist/runtime/validation_error.js";
import fc from "fast-check";
import { AjvValidationError, ajvEqual, ajvUcs2length } from "toolgate/compiled";
import { describe, expect, it } from "vitest";

// Node and vite hand a CommonJS module's default export over differently.
const unwrap = <T>(m: unknown): T =>
  (m !== null && typeof m === "object" && "default" in m ? (m as { default: T }).default : m) as T;
const equal = unwrap<(a: unknown, b: unknown) => boolean>(equalModule);
const ucs2length = unwrap<(s: string) => number>(ucs2lengthModule);
const ValidationError =
  unwrap<new (errors: unknown[]) => Error & { errors: unknown[] }>(validationErrorModule);

describe("ajv runtime helper ports", () => {
  it("ajvUcs2length counts code points as ajv does, lone surrogates included", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary" }),
        fc.string({ unit: fc.integer({ min: 0xd7f0, max: 0xe010 }).map((c) => String.fromCharCode(c)) }),
        (a, b) => {
          expect(ajvUcs2length(a)).toBe(ucs2length(a));
          expect(ajvUcs2length(b)).toBe(ucs2length(b));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("ajvEqual is fast-deep-equal, on equal and on unequal values (throwing where it throws)", () => {
    // fast-deep-equal calls an own `valueOf` / `toString` property: `{ "valueOf": null }` makes it throw.
    const outcome = (f: (a: unknown, b: unknown) => boolean, a: unknown, b: unknown) => {
      try {
        return f(a, b);
      } catch (error) {
        return (error as Error).name;
      }
    };
    const value = fc.jsonValue({ maxDepth: 3 });
    fc.assert(
      fc.property(value, value, (a, b) => {
        expect(outcome(ajvEqual, a, b)).toBe(outcome(equal, a, b));
        const copy = structuredClone(a);
        expect(outcome(ajvEqual, a, copy)).toBe(outcome(equal, a, copy));
      }),
      { numRuns: 500 },
    );
    for (const [a, b] of [
      [Number.NaN, Number.NaN],
      [
        [1, [2]],
        [1, [2]],
      ],
      [{ a: 1 }, { a: 1, b: undefined }],
      [/x/g, /x/g],
      [new Date(1), new Date(1)],
      [Object.create(null), {}],
      [{ valueOf: null }, { valueOf: null }],
    ] as const) {
      expect(outcome(ajvEqual, a, b)).toBe(outcome(equal, a, b));
    }
  });

  it("AjvValidationError has ajv's shape", () => {
    const ours = new AjvValidationError([{ keyword: "type" }]);
    const theirs = new ValidationError([{ keyword: "type" }]);
    expect({
      message: ours.message,
      errors: ours.errors,
      ajv: ours.ajv,
      validation: ours.validation,
    }).toEqual({
      message: theirs.message,
      errors: theirs.errors,
      ajv: true,
      validation: true,
    });
  });
});
