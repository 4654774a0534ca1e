/**
 * The plan validators decide exactly as ajv's: a differential property over generated schemas (the subset and
 * its near misses) and values generated to hit the schemas' boundaries, and unit tests for the messages and
 * the schemas the plan leaves to ajv.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AjvValidateFunction } from "../../src/runtime/ajv-validator.js";
import { fromAjvValidator } from "../../src/runtime/ajv-validator.js";
import { planValidator } from "../../src/runtime/schema-plan.js";
import type { ArgumentCheck, JsonSchema } from "../../src/runtime/types.js";
import { ajvOptions, ValidatorFactory } from "../../src/validation/argument-validator.js";
import { withJsonEqual } from "../../src/validation/json-equal.js";

const RUNS = Number(process.env.TOOLGATE_PLAN_RUNS ?? 1000);
// A long run (TOOLGATE_PLAN_RUNS) takes about 4 ms a run.
const TIMEOUT = Math.max(60_000, RUNS * 10);

const ajv = new Ajv2020(ajvOptions());

/** ajv's verdict as toolgate wraps it, or `undefined` when ajv refuses the schema. */
function ajvValidator(schema: JsonSchema): ((value: unknown) => ArgumentCheck) | undefined {
  try {
    const validate = withJsonEqual(() => ajv.compile(schema)) as unknown as AjvValidateFunction;
    return fromAjvValidator(validate);
  } catch {
    return undefined;
  }
}

// ---- schemas ---------------------------------------------------------------------------------------------

const STRINGS = [
  "",
  "a",
  "ab",
  "abc",
  "é",
  "😀",
  "a😀",
  "😀😀😀",
  "toString",
  "__proto__",
  "constructor",
  "x/y~z",
];
const NUMBERS = [0, -0, 1, -1, 1.5, 2, 3, 10, -2.5, 1e21, 2 ** 53, -(2 ** 60), 0.1];
const scalar = fc.oneof(
  fc.constantFrom(...STRINGS),
  fc.constantFrom(...NUMBERS),
  fc.boolean(),
  fc.constant(null),
);
const PROPERTY_NAMES = ["path", "mode", "toString", "constructor", "a/b", "t~1", "n", "list"];
const PATTERNS = [
  "^[a-z]+$",
  "a",
  "^😀",
  "\\d{2}",
  "^(a|b)*$",
  "(a)\\1",
  "(?=a)",
  "[",
  "a\\Z",
  "^\\p{L}+$",
  "\\w",
];
const count = fc.oneof(fc.integer({ min: 0, max: 4 }), fc.constantFrom(0, 1, 2));
const badCount = fc.constantFrom(-1, 1.5, "2", null, 1e300, -0);
const bound = fc.oneof(fc.constantFrom(...NUMBERS), fc.integer({ min: -5, max: 5 }));
const annotations = fc.record(
  {
    title: fc.constant("A title"),
    description: fc.constant("What it is."),
    default: scalar,
    examples: fc.constant(["x"]),
    $comment: fc.constant("note"),
    deprecated: fc.boolean(),
    readOnly: fc.boolean(),
    writeOnly: fc.boolean(),
  },
  { requiredKeys: [] },
);

type Schema = Record<string, unknown>;

/** Schemas of the subset; `near` adds keywords and values that leave it (and may leave what ajv accepts). */
function schemaArbitrary(near: boolean): fc.Arbitrary<Schema> {
  const maybeNear = <T>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> =>
    near ? fc.oneof({ weight: 4, arbitrary: good }, { weight: 1, arbitrary: bad }) : good;
  const untyped = fc.record(
    {
      enum: maybeNear(
        fc.uniqueArray(scalar, { minLength: 1, maxLength: 4, comparator: "SameValueZero" }),
        fc.constantFrom([], [{}], "a", [1, 1]),
      ),
      const: maybeNear(scalar, fc.constant({ a: 1 })),
    },
    { requiredKeys: [] },
  );
  const nearExtra: fc.Arbitrary<Schema> = near
    ? fc.oneof(
        { weight: 6, arbitrary: fc.constant({}) },
        {
          weight: 1,
          arbitrary: fc.constantFrom<Schema>(
            { format: "email" },
            { multipleOf: 2 },
            { minLength: 1 },
            { minimum: 0 },
            { items: { type: "string" } },
            { properties: {} },
            { unknownKeyword: 1 },
            { $ref: "#" },
            { anyOf: [{ type: "string" }] },
            { type: ["string", "null"] },
            { type: "strng" },
            { nullable: true },
            { patternProperties: { a: {} } },
            { title: 3 },
            { examples: "x" },
            { $schema: "http://json-schema.org/draft-07/schema#" },
            { $schema: "https://json-schema.org/draft/2020-12/schema" },
          ),
        },
      )
    : fc.constant({});

  const { node } = fc.letrec<{ node: Schema; leaf: Schema; object: Schema; array: Schema }>((tie) => ({
    leaf: fc.oneof(
      fc.record(
        {
          type: fc.constant("string"),
          minLength: maybeNear(count, badCount),
          maxLength: maybeNear(count, badCount),
          pattern: near ? fc.constantFrom(...PATTERNS) : fc.constantFrom(...PATTERNS.slice(0, 5), "\\w"),
        },
        { requiredKeys: ["type"] },
      ),
      fc.record(
        {
          type: fc.constantFrom("number", "integer"),
          minimum: maybeNear(bound, fc.constant("1")),
          maximum: bound,
          exclusiveMinimum: bound,
          exclusiveMaximum: bound,
        },
        { requiredKeys: ["type"] },
      ),
      fc.record({ type: fc.constantFrom("boolean", "null") }),
      fc.constant({}),
    ),
    object: fc.record(
      {
        type: fc.constant("object"),
        properties: fc.dictionary(
          fc.constantFrom(...PROPERTY_NAMES, ...(near ? ["__proto__"] : [])),
          tie("node"),
          {
            maxKeys: 3,
          },
        ),
        required: fc.uniqueArray(fc.constantFrom(...PROPERTY_NAMES), { maxLength: 3 }),
        additionalProperties: fc.oneof(fc.boolean(), tie("leaf")),
      },
      { requiredKeys: ["type"] },
    ),
    array: fc.record(
      {
        type: fc.constant("array"),
        items: tie("node"),
        minItems: maybeNear(count, badCount),
        maxItems: count,
        uniqueItems: maybeNear(fc.boolean(), fc.constant("yes")),
      },
      { requiredKeys: ["type"] },
    ),
    node: fc
      .tuple(
        fc.oneof(
          { depthSize: "small", withCrossShrink: true },
          tie("leaf"),
          tie("leaf"),
          tie("object"),
          tie("array"),
        ),
        untyped,
        annotations,
        nearExtra,
      )
      .map(([typed, extra, notes, nearMiss]) => ({ ...typed, ...extra, ...notes, ...nearMiss })),
  }));
  return node;
}

// ---- values ----------------------------------------------------------------------------------------------

const valueArbitrary: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    scalar,
    fc.constantFrom("😀😀", "aa", "abcd", "aaaaa", "1", "12"),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.constantFrom(
      [1, 1],
      ["a", "a"],
      [0, -0],
      [{ a: [1] }, { a: [1] }],
      ["__proto__", "__proto__"],
      [true, false, true],
    ),
    fc
      .dictionary(fc.constantFrom(...PROPERTY_NAMES, "extra", "__proto__"), tie("value"), { maxKeys: 4 })
      // Through JSON text, so that a key `__proto__` is an own property, as in parsed arguments.
      .map((object) => JSON.parse(JSON.stringify(object)) as unknown),
    fc.constant(JSON.parse('{"__proto__": 1, "toString": "x", "path": "a"}') as unknown),
  ),
})).value;

// ---- properties ------------------------------------------------------------------------------------------

function agree(schema: Schema, values: readonly unknown[]): void {
  const planned = planValidator(schema);
  if (planned === undefined) return;
  const reference = ajvValidator(schema);
  // (1) a schema the plan takes is one ajv compiles.
  expect(reference, JSON.stringify(schema)).toBeDefined();
  for (const value of values) {
    // (2) the same verdict, issue for issue.
    expect(planned(value), `${JSON.stringify(schema)} ${JSON.stringify(value)}`).toEqual(reference?.(value));
  }
}

describe("planValidator", () => {
  it(
    "decides as ajv on the subset, and plans every schema of it",
    () => {
      fc.assert(
        fc.property(
          schemaArbitrary(false),
          fc.array(valueArbitrary, { minLength: 5, maxLength: 12 }),
          (schema, values) => {
            // (3) coverage: the subset is never left to ajv.
            expect(planValidator(schema), JSON.stringify(schema)).toBeDefined();
            agree(schema, values);
          },
        ),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    "decides as ajv, or declines, on near misses",
    () => {
      fc.assert(
        fc.property(schemaArbitrary(true), fc.array(valueArbitrary, { minLength: 5, maxLength: 12 }), agree),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it("reports ajv's messages", () => {
    const schema = {
      type: "object",
      properties: {
        path: { type: "string", minLength: 2, maxLength: 3, pattern: "^[a-z]+$" },
        n: { type: "integer", minimum: 2, exclusiveMaximum: 5 },
        tags: { type: "array", items: { type: "string" }, uniqueItems: true, maxItems: 2 },
        mode: { enum: ["r", "w"] },
      },
      required: ["path", "must"],
      additionalProperties: false,
    };
    const check = planValidator(schema);
    expect(check).toBeDefined();
    const value = { path: "😀😀😀😀", n: 1.5, tags: ["a", "b", "a"], mode: "x", extra: 1 };
    expect(check?.(value)).toEqual({
      ok: false,
      issues: [
        { path: "/must", message: "is required" },
        { path: "/extra", message: "is not allowed" },
        { path: "/path", message: "must NOT have more than 3 characters" },
        { path: "/path", message: 'must match pattern "^[a-z]+$"' },
        { path: "/n", message: "must be integer" },
        { path: "/n", message: "must be >= 2" },
        { path: "/tags", message: "must NOT have more than 2 items" },
        { path: "/tags", message: "must NOT have duplicate items (items ## 2 and 0 are identical)" },
        { path: "/mode", message: "must be equal to one of the allowed values" },
      ],
    });
    expect(check?.(value)).toEqual(ajvValidator(schema)?.(value));
    expect(check?.({ path: "ab" })).toEqual({
      ok: false,
      issues: [{ path: "/must", message: "is required" }],
    });
    expect(check?.([])).toEqual({ ok: false, issues: [{ path: "", message: "must be object" }] });
  });

  it("reports a value whose reads throw as ajv's validator does", () => {
    const schema = { type: "object", properties: { path: { type: "string" } } };
    const hostile = Object.defineProperty({}, "path", {
      enumerable: true,
      get() {
        throw new Error("no");
      },
    });
    expect(planValidator(schema)?.(hostile)).toEqual(ajvValidator(schema)?.(hostile));
    expect(planValidator(schema)?.(hostile)).toEqual({
      ok: false,
      issues: [{ path: "", message: "could not be validated (no); send plain JSON data" }],
    });
  });

  it("never passes arguments that change under its reads", () => {
    // A getter that gives an invalid value first and a valid one after: the fast pass finds the issue, the full
    // pass does not; the arguments are still refused.
    const schema = { type: "object", properties: { path: { type: "string" } } };
    let reads = 0;
    const shifty = Object.defineProperty({}, "path", {
      enumerable: true,
      get: () => (reads++ < 2 ? 5 : "ok"),
    });
    expect(planValidator(schema)?.(shifty).ok).toBe(false);
  });

  it.each([
    { type: "string", format: "email" },
    { type: "number", multipleOf: 2 },
    { type: ["string", "null"] },
    { type: "string", minimum: 1 },
    { minLength: 1 },
    { type: "string", maxLength: -1 },
    { type: "string", maxLength: 1.5 },
    { type: "string", pattern: "(a)\\1" },
    { type: "string", pattern: "(?=a)b" },
    { type: "object", properties: JSON.parse('{"__proto__": {"type": "string"}}') },
    { type: "object", required: ["__proto__"] },
    { $ref: "#/$defs/a", $defs: { a: { type: "string" } } },
    { anyOf: [{ type: "string" }] },
    { type: "array", items: [{ type: "string" }] },
    { type: "array", prefixItems: [{ type: "string" }] },
    { type: "object", patternProperties: { a: {} } },
    { type: "string", enum: [{ a: 1 }] },
    { type: "string", unknown: 1 },
    { $schema: "http://json-schema.org/draft-07/schema#", type: "string" },
    {
      type: "object",
      properties: { a: { type: "string", $schema: "https://json-schema.org/draft/2020-12/schema" } },
    },
  ])("leaves %j to ajv", (schema) => {
    expect(planValidator(schema)).toBeUndefined();
  });

  it("is what the default factory returns for a subset schema, without ajv's function", () => {
    const result = new ValidatorFactory().compile({
      type: "object",
      properties: { path: { type: "string" } },
    });
    expect(result.ok && result.validate).toBe(undefined);
    const other = new ValidatorFactory().compile({ type: "string", format: "email" });
    expect(other.ok && typeof other.validate).toBe("function");
  });
});
