/**
 * What the verifier reads of JSON Schemas (schema-facts.ts) against the validator itself: on schemas made only of
 * the keywords it reads, `checkValue` accepts exactly the values ajv accepts; and the helpers that say where a
 * field is, whether it may be missing and which types it may have agree with the same validator.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonSchema } from "../../src/runtime/types.js";
import { compileArgumentValidator } from "../../src/validation/argument-validator.js";
import {
  allowedTypes,
  checkValue,
  codePointLength,
  finiteValues,
  mayBeMissing,
  passesFormat,
  READ_KEYWORDS,
  schemaOfField,
  unreadKeywords,
  withOptionalsRead,
} from "../../src/verify/schema-facts.js";

// Each run compiles one small schema: cheap, so more of them than the verifier tests make.
const RUNS = Math.max(1000, Number(process.env.TOOLGATE_VERIFY_RUNS ?? 200) * 5);

/** Accepts `value` under `schema` as the controller's validator does (the value as the only property). */
function ajvAccepts(schema: JsonSchema, value: unknown): boolean {
  const validate = compileArgumentValidator({
    type: "object",
    properties: { v: schema },
    required: ["v"],
  });
  return validate({ v: value }).ok;
}

const strings = fc.string({ unit: fc.constantFrom("a", "b", "1", "-", ".", "@", "😀"), maxLength: 5 });
const numbers = fc.oneof(
  fc.integer({ min: -6, max: 6 }),
  fc.constantFrom(0.5, -1.5, 2.25, 0.1, 0.3, 1e-7, 3.0000000001),
);
const scalars = fc.oneof(strings, numbers, fc.boolean(), fc.constant(null));
const values: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: strings },
  { weight: 3, arbitrary: numbers },
  { weight: 1, arbitrary: fc.oneof(fc.boolean(), fc.constant(null)) },
  { weight: 2, arbitrary: fc.array(scalars, { maxLength: 3 }) },
  { weight: 2, arbitrary: fc.dictionary(fc.constantFrom("a", "b", "c"), scalars, { maxKeys: 3 }) },
);

const TYPES = ["null", "boolean", "integer", "number", "string", "array", "object"] as const;

/** An optional keyword: present one time in `oneIn`. */
const opt = <T>(arbitrary: fc.Arbitrary<T>, oneIn = 3): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: oneIn - 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });

/** The keywords of one type, each perhaps, with that type (or that type among others). */
const keywordsOf = {
  string: fc.record({
    minLength: opt(fc.nat(3)),
    maxLength: opt(fc.nat(4)),
    pattern: opt(fc.constantFrom("^a", "b$", "^[ab]*$", "1", "\\d", "^.$")),
    format: opt(fc.constantFrom("email", "date", "ipv4", "uuid", "hostname")),
  }),
  number: fc.record({
    minimum: opt(numbers),
    maximum: opt(numbers),
    exclusiveMinimum: opt(numbers),
    exclusiveMaximum: opt(numbers),
    multipleOf: opt(fc.constantFrom(1, 2, 0.5, 0.1, 3)),
  }),
  array: fc.record({
    minItems: opt(fc.nat(2)),
    maxItems: opt(fc.nat(3)),
    items: opt(
      fc.constantFrom<JsonSchema>({ type: "string" }, { type: "integer", minimum: 0 }, { enum: ["a", 1] }),
    ),
  }),
  object: fc.record({
    properties: opt(
      fc.constantFrom<Record<string, JsonSchema>>(
        { a: { type: "string" } },
        { b: { type: "integer", maximum: 2 } },
      ),
    ),
    required: opt(fc.constantFrom(["a"], ["b"], ["a", "b"])),
    additionalProperties: opt(fc.constant(false)),
  }),
};

const leaf = fc
  .record({
    group: fc.constantFrom("string", "number", "array", "object", "none"),
    also: fc.uniqueArray(fc.constantFrom(...TYPES), { maxLength: 2 }),
    integer: fc.boolean(),
    string: keywordsOf.string,
    number: keywordsOf.number,
    array: keywordsOf.array,
    object: keywordsOf.object,
    enum: opt(fc.array(scalars, { minLength: 1, maxLength: 3 }), 6),
    const: opt(scalars, 8),
  })
  .map((r) => {
    const out: Record<string, unknown> = {};
    if (r.group !== "none") {
      const own = r.group === "number" && r.integer ? "integer" : r.group;
      const types = [...new Set([own, ...r.also])];
      out.type = types.length === 1 ? types[0] : types;
      Object.assign(out, r[r.group]);
    } else if (r.also.length > 0) out.type = r.also;
    if (r.enum !== undefined) out.enum = r.enum;
    if (r.const !== undefined) out.const = r.const;
    for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key];
    return { schema: fitTypes(out as JsonSchema), group: r.group };
  });

/** A schema, and a value mostly of the type its keywords are about (else any value). */
const schemaAndValue: fc.Arbitrary<[JsonSchema, unknown]> = leaf.chain(({ schema, group }) => {
  const own: Record<string, fc.Arbitrary<unknown>> = {
    string: strings,
    number: numbers,
    array: fc.array(fc.oneof(strings, fc.integer({ min: -2, max: 3 })), { maxLength: 4 }),
    object: fc.dictionary(fc.constantFrom("a", "b", "c"), fc.oneof(strings, fc.integer({ min: 0, max: 3 })), {
      maxKeys: 3,
    }),
  };
  const typed = own[group];
  const value =
    typed === undefined
      ? values
      : fc.oneof({ weight: 4, arbitrary: typed }, { weight: 1, arbitrary: values });
  return value.map((v): [JsonSchema, unknown] => [schema, v]);
});

const KEYWORDS_OF_TYPE: readonly [readonly string[], readonly string[]][] = [
  [["string"], ["minLength", "maxLength", "pattern", "format"]],
  [
    ["number", "integer"],
    ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
  ],
  [["array"], ["minItems", "maxItems", "items"]],
  [["object"], ["properties", "required", "additionalProperties"]],
];

/** The schema without the keywords of types it does not declare (which the validator's strict mode refuses). */
function fitTypes(schema: JsonSchema): JsonSchema {
  const declared = schema.type === undefined ? [] : ([] as string[]).concat(schema.type as string | string[]);
  const out: Record<string, unknown> = { ...schema };
  for (const [types, keywords] of KEYWORDS_OF_TYPE) {
    if (types.some((t) => declared.includes(t))) continue;
    for (const keyword of keywords) delete out[keyword];
  }
  return out as JsonSchema;
}

describe("checkValue", () => {
  it("accepts exactly what the validator accepts, on schemas of the keywords it reads", () => {
    let accepted = 0;
    fc.assert(
      fc.property(schemaAndValue, ([schema, value]) => {
        const want = ajvAccepts(schema, value);
        if (want) accepted++;
        const got = checkValue(schema, value, false);
        // One difference, on the side that keeps a `holds` sound (more values allowed, each witness is still
        // checked by the validator): a number within 1e-9 of a multiple passes `multipleOf`, as decimal
        // multiples such as 0.3 of 0.1 do, where the validator's division leaves a remainder.
        if (got && !want && typeof schema.multipleOf === "number" && typeof value === "number") {
          const q = value / schema.multipleOf;
          expect(Math.abs(q - Math.round(q))).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(q)));
          return;
        }
        expect(got).toBe(want);
      }),
      { numRuns: RUNS },
    );
    // Both answers are common: a generator that made every value invalid would prove little.
    expect(accepted).toBeGreaterThan(RUNS / 10);
    expect(accepted).toBeLessThan(RUNS - RUNS / 10);
  });

  it("gives a missing value the answer it is given", () => {
    expect(checkValue({ type: "string" }, undefined, true)).toBe(true);
    expect(checkValue({ type: "string" }, undefined, false)).toBe(false);
  });

  it("follows a local $ref from the root, in the value and in its items and properties", () => {
    const root: JsonSchema = {
      $defs: {
        short: { type: "string", maxLength: 2 },
        list: { type: "array", items: { $ref: "#/$defs/short" } },
      },
      type: "object",
      properties: { o: { type: "object", properties: { s: { $ref: "#/$defs/short" } } } },
    };
    expect(checkValue({ $ref: "#/$defs/short" }, "ab", false, root)).toBe(true);
    expect(checkValue({ $ref: "#/$defs/short" }, "abc", false, root)).toBe(false);
    expect(checkValue({ $ref: "#/$defs/list" }, ["a", "bc"], false, root)).toBe(true);
    expect(checkValue({ $ref: "#/$defs/list" }, ["a", "bcd"], false, root)).toBe(false);
    expect(
      checkValue({ type: "object", properties: { s: { $ref: "#/$defs/short" } } }, { s: "xyz" }, false, root),
    ).toBe(false);
    // Without the root, a $ref is not read: the value is not refused for it.
    expect(checkValue({ $ref: "#/$defs/short" }, "abc", false)).toBe(true);
  });

  it("keeps each bound's own edge: inclusive minimum and maximum, exclusive ones", () => {
    expect(checkValue({ minimum: 2 }, 2, false)).toBe(true);
    expect(checkValue({ maximum: 2 }, 2, false)).toBe(true);
    expect(checkValue({ exclusiveMinimum: 2 }, 2, false)).toBe(false);
    expect(checkValue({ exclusiveMaximum: 2 }, 2, false)).toBe(false);
    expect(checkValue({ exclusiveMaximum: 2 }, 1.5, false)).toBe(true);
    expect(checkValue({ maxItems: 1 }, [1, 2], false)).toBe(false);
    expect(checkValue({ maxItems: 2 }, [1, 2], false)).toBe(true);
    expect(checkValue({ enum: [1, 2] }, 2, false)).toBe(true);
  });

  it("counts a string's length in code points", () => {
    expect(codePointLength("")).toBe(0);
    expect(codePointLength("ab")).toBe(2);
    expect(codePointLength("😀a")).toBe(2);
    expect(checkValue({ maxLength: 1 }, "😀", false)).toBe(true);
    expect(checkValue({ minLength: 2 }, "😀", false)).toBe(false);
  });

  it("ignores a multipleOf of zero or less and a pattern that does not compile", () => {
    expect(checkValue({ multipleOf: 0 }, 3, false)).toBe(true);
    expect(checkValue({ multipleOf: -2 }, 3, false)).toBe(true);
    expect(checkValue({ pattern: "(" }, "x", false)).toBe(true);
    // As ajv divides: 0.3 / 0.1 is 2.9999999999999996, so 0.3 is no multiple of 0.1; 0.2 is one.
    expect(checkValue({ multipleOf: 0.1 }, 0.3, false)).toBe(false);
    expect(checkValue({ multipleOf: 0.1 }, 0.2, false)).toBe(true);
    expect(checkValue({ multipleOf: 0.1 }, 0.35, false)).toBe(false);
    expect(checkValue({ multipleOf: 1e-12 }, 1, false)).toBe(true);
  });
});

describe("passesFormat", () => {
  it("checks the formats as the validator does, and lets an unknown one pass", () => {
    const samples = ["a@b.co", "2024-02-30", "2024-02-29", "10.0.0.1", "1.2.3", "x", "", "ab-c.d"];
    for (const format of [
      "email",
      "date",
      "ipv4",
      "uuid",
      "hostname",
      "date-time",
      "uri",
      "regex",
      "duration",
    ]) {
      for (const sample of samples) {
        expect(passesFormat(format, sample), `${format} ${sample}`).toBe(
          ajvAccepts({ type: "string", format }, sample),
        );
      }
    }
    expect(passesFormat("no-such-format", "x")).toBe(true);
    expect(passesFormat(undefined, "x")).toBe(true);
    expect(passesFormat(3, "x")).toBe(true);
  });
});

describe("fields of a schema", () => {
  const root: JsonSchema = {
    $defs: { inner: { type: "object", properties: { leaf: { type: "string" } }, required: ["leaf"] } },
    type: "object",
    properties: {
      req: { type: "string", maxLength: 3 },
      opt: { type: "integer" },
      nested: { $ref: "#/$defs/inner" },
      loose: { properties: { leaf: { type: "string" } }, required: ["leaf"] },
      noProps: { type: "object", required: ["leaf"] },
    },
    required: ["req", "nested", "loose", "noProps"],
  };

  it("finds a field's schema through properties and local $ref, and {} for an undeclared one", () => {
    expect(schemaOfField(root, ["req"])).toEqual({ type: "string", maxLength: 3 });
    expect(schemaOfField(root, ["nested", "leaf"])).toEqual({ type: "string" });
    expect(schemaOfField(root, ["nope"])).toEqual({});
    expect(schemaOfField(null, ["req"])).toEqual({});
  });

  it("says a field may be missing exactly when a valid value without it exists", () => {
    expect(mayBeMissing(root, ["req"])).toBe(false);
    expect(mayBeMissing(root, ["opt"])).toBe(true);
    expect(mayBeMissing(root, ["nested", "leaf"])).toBe(false);
    // Not declared an object: the step may be another type, without the field.
    expect(mayBeMissing(root, ["loose", "leaf"])).toBe(true);
    // Required but not among the properties.
    expect(mayBeMissing(root, ["noProps", "leaf"])).toBe(true);
    expect(mayBeMissing(root, ["nope"])).toBe(true);
    expect(mayBeMissing(null, ["req"])).toBe(true);
    expect(mayBeMissing({ type: ["object", "null"], properties: { a: {} }, required: ["a"] }, ["a"])).toBe(
      true,
    );
    expect(mayBeMissing(root, [])).toBe(false);
  });

  it("lists the types a schema allows, a number also being an integer", () => {
    expect([...allowedTypes({ type: "string" })]).toEqual(["string"]);
    expect([...allowedTypes({ type: ["number", "null"] })].sort()).toEqual(["integer", "null", "number"]);
    expect([...allowedTypes({ type: "integer" })]).toEqual(["integer"]);
    expect([...allowedTypes({})].sort()).toEqual([
      "array",
      "boolean",
      "integer",
      "null",
      "number",
      "object",
      "string",
    ]);
  });

  it("gives the values of enum or const, const first", () => {
    expect(finiteValues({ enum: ["a", 1] })).toEqual(["a", 1]);
    expect(finiteValues({ const: null })).toEqual([null]);
    expect(finiteValues({ const: "x", enum: ["y"] })).toEqual(["x"]);
    expect(finiteValues({ enum: "a" })).toBeUndefined();
    expect(finiteValues({})).toBeUndefined();
  });
});

describe("unreadKeywords", () => {
  it("lists the keywords checkValue does not read, below properties, items and additionalProperties", () => {
    const schema = {
      type: "object",
      description: "read as an annotation",
      properties: { a: { type: "string", oneOf: [{}] }, b: { items: { uniqueItems: true } } },
      additionalProperties: { not: {} },
      patternProperties: {},
      items: [{ format: "x" }],
    };
    expect([...unreadKeywords(schema)].sort()).toEqual(["not", "oneOf", "patternProperties", "uniqueItems"]);
    expect([...unreadKeywords(null)]).toEqual([]);
    expect([...unreadKeywords([{ oneOf: [] }])]).toEqual([]);
    expect([...unreadKeywords({ properties: null })]).toEqual([]);
    for (const keyword of [
      "type",
      "enum",
      "const",
      "minLength",
      "maxLength",
      "pattern",
      "format",
      "minimum",
      "maximum",
      "exclusiveMinimum",
      "exclusiveMaximum",
      "multipleOf",
      "minItems",
      "maxItems",
      "properties",
      "required",
      "additionalProperties",
      "items",
      "$id",
      "description",
    ]) {
      expect(READ_KEYWORDS.has(keyword), keyword).toBe(true);
    }
  });
});

describe("withOptionalsRead", () => {
  const optional = (leaf: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    type: "object",
    properties: { a: { anyOf: [leaf, { type: "null" }], default: null, title: "A", ...extra } },
  });

  it("reads pydantic's optional field as the leaf with null among its values", () => {
    expect(withOptionalsRead(optional({ type: "string", maxLength: 5 })).properties).toEqual({
      a: { type: ["string", "null"], maxLength: 5, default: null, title: "A" },
    });
    expect(withOptionalsRead(optional({ enum: ["x", "y"] })).properties).toEqual({
      a: { enum: ["x", "y", null], default: null, title: "A" },
    });
    expect(withOptionalsRead(optional({ const: "x", type: "string" })).properties).toEqual({
      a: { type: ["string", "null"], enum: ["x", null], default: null, title: "A" },
    });
    // Null first, and inside definitions and items.
    expect(
      withOptionalsRead({
        type: "object",
        $defs: { p: { anyOf: [{ type: "null" }, { type: "integer", minimum: 1 }] } },
        properties: { l: { type: "array", items: { anyOf: [{ type: "string" }, { type: "null" }] } } },
      }),
    ).toEqual({
      type: "object",
      $defs: { p: { type: ["integer", "null"], minimum: 1 } },
      properties: { l: { type: "array", items: { type: ["string", "null"] } } },
    });
  });

  it("keeps every other anyOf as written", () => {
    for (const schema of [
      optional({ type: "object", properties: {} }),
      optional({ $ref: "#/$defs/p" }),
      optional({ type: "string" }, { minLength: 1 }),
      { type: "object", properties: { a: { anyOf: [{ type: "string" }, { type: "integer" }] } } },
      {
        type: "object",
        properties: { a: { anyOf: [{ type: "string" }, { type: "null" }, { type: "integer" }] } },
      },
    ])
      expect(withOptionalsRead(schema as never)).toEqual(schema);
  });

  it("accepts the values the validator accepts, on either form", () => {
    const leaves = [
      { type: "string", maxLength: 2 },
      { enum: ["x", 1] },
      { const: "x" },
      { type: "integer", minimum: 1 },
    ];
    const values = [null, "", "x", "xyz", 0, 1, 2, 1.5, true, [], {}];
    for (const leaf of leaves) {
      const original = { anyOf: [leaf, { type: "null" }] } as JsonSchema;
      const read = withOptionalsRead({ type: "object", properties: { a: original } }).properties as Record<
        string,
        JsonSchema
      >;
      for (const v of values)
        expect(
          checkValue(read.a as JsonSchema, v, false),
          `${JSON.stringify(leaf)} ${JSON.stringify(v)}`,
        ).toBe(ajvAccepts(original, v));
    }
  });
});
