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

  it("ajvEqual is fast-deep-equal on JSON data without members named like Object.prototype's", () => {
    const keys = fc.string({ maxLength: 4 }).filter((k) => !Object.hasOwn(Object.prototype, k));
    const value = fc.letrec((tie) => ({
      json: fc.oneof(
        { depthSize: "small" },
        fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null)),
        fc.array(tie("json"), { maxLength: 3 }),
        fc.dictionary(keys, tie("json"), { maxKeys: 3, noNullPrototype: true }),
      ),
    })).json;
    fc.assert(
      fc.property(value, value, (a, b) => {
        expect(ajvEqual(a, b)).toBe(equal(a, b));
        const copy = structuredClone(a);
        expect(ajvEqual(a, copy)).toBe(equal(a, copy));
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
      [[], {}],
    ] as const) {
      expect(ajvEqual(a, b)).toBe(equal(a, b));
    }
  });

  it("ajvEqual is JSON equality: members named like Object.prototype's are data, and nothing is called", () => {
    // fast-deep-equal calls an own `valueOf` / `toString` property (`{ "valueOf": null }` made it throw) and
    // compares `constructor` members by identity; ajvEqual reads own keys only.
    const parse = (text: string) => JSON.parse(text) as unknown;
    for (const text of [
      '{"toString":"a"}',
      '{"valueOf":null}',
      '{"constructor":{}}',
      '{"__proto__":{"a":1}}',
      '[{"hasOwnProperty":1,"toJSON":2}]',
    ]) {
      expect(ajvEqual(parse(text), parse(text)), text).toBe(true);
    }
    expect(ajvEqual(parse('{"toString":"a"}'), parse('{"toString":"b"}'))).toBe(false);
    expect(ajvEqual(parse('{"__proto__":{"a":1}}'), {})).toBe(false);
    expect(ajvEqual({}, parse('{"__proto__":{"a":1}}'))).toBe(false);
    expect(ajvEqual(Object.create(null), {})).toBe(true);
    expect(ajvEqual([1], { 0: 1, length: 1 })).toBe(false);
    let called = false;
    const method = () => {
      called = true;
      return 1;
    };
    expect(ajvEqual({ valueOf: method }, { valueOf: 1 })).toBe(false);
    expect(called).toBe(false);
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
