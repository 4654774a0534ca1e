/**
 * The concrete call a model becomes (witness.ts): the exact sample each kind of schema gives a required property
 * the model leaves unset, that the samples are valid under the validator itself, how required properties are filled
 * at every depth, and how a field's value is set at its path.
 */
import { describe, expect, it } from "vitest";
import type { JsonSchema } from "../../src/runtime/types.js";
import { compileArgumentValidator } from "../../src/validation/argument-validator.js";
import { Verifier } from "../../src/verify/verify-properties.js";
import { fillRequired, sampleValue, setPath } from "../../src/verify/witness.js";
import { loadFromText } from "./helpers.js";

/** Accepts `value` under `schema` as the controller's validator does (the value as the only property). */
function ajvAccepts(schema: JsonSchema, value: unknown): boolean {
  const validate = compileArgumentValidator({ type: "object", properties: { v: schema }, required: ["v"] });
  return validate({ v: value }).ok;
}

const sample = (schema: JsonSchema): unknown => sampleValue({}, schema);

describe("sampleValue", () => {
  it.each<[string, JsonSchema, unknown]>([
    ["a const", { type: "string", const: "fixed" }, "fixed"],
    ["the first enum value", { enum: ["b", "a", 3] }, "b"],
    ["an empty enum read by its type", { enum: [], type: "boolean" }, false],
    ["the empty string", { type: "string" }, ""],
    ["a string of minLength letters", { type: "string", minLength: 3 }, "aaa"],
    ["the shortest string of a pattern", { type: "string", pattern: "^b+c$" }, "bc"],
    ["a pattern with a code point escape", { type: "string", pattern: "^\\u{62}$" }, "b"],
    ["a pattern's string at minLength", { type: "string", pattern: "^b+c$", minLength: 4 }, "bbbc"],
    ["a pattern's shortest within maxLength", { type: "string", pattern: "^(?:xyz|q)$", maxLength: 2 }, "q"],
    ["a format's example", { type: "string", format: "email" }, "ada@example.com"],
    [
      "a format's example whatever the lengths",
      { type: "string", format: "date", minLength: 2 },
      "2024-01-01",
    ],
    ["the uuid example", { type: "string", format: "uuid" }, "00000000-0000-0000-0000-000000000000"],
    ["an unknown format's shortest string", { type: "string", format: "no-such-format", minLength: 2 }, "aa"],
    [
      "a format and pattern both passed",
      { type: "string", format: "ipv4", pattern: "^1\\.2\\.3\\.[4-6]$" },
      "1.2.3.4",
    ],
    [
      "the next type when no string has a format and pattern",
      { type: ["string", "integer"], format: "date", pattern: "^2" },
      0,
    ],
    [
      "the next type when the lengths leave no string",
      { type: ["string", "null"], minLength: 2, maxLength: 1 },
      null,
    ],
    [
      "the next type past a pattern too large to build",
      { type: ["string", "boolean"], pattern: "(a|b)*a(a|b){18}" },
      false,
    ],
    ["zero", { type: "integer" }, 0],
    ["the minimum", { type: "integer", minimum: 4 }, 4],
    ["zero over a negative minimum", { type: "integer", minimum: -5 }, 0],
    ["an integer over a fractional minimum", { type: "integer", minimum: 2.5 }, 3],
    ["an integer past an exclusive minimum of zero", { type: "integer", exclusiveMinimum: 0 }, 1],
    ["an integer past a fractional exclusive minimum", { type: "integer", exclusiveMinimum: 2.5 }, 3],
    ["zero over a lower exclusive minimum", { type: "integer", exclusiveMinimum: -3 }, 0],
    ["a negative maximum", { type: "integer", maximum: -2 }, -2],
    ["a maximum of zero", { type: "integer", maximum: 0 }, 0],
    ["the least multiple at the minimum", { type: "integer", minimum: 5, multipleOf: 3 }, 6],
    ["a multiple of zero ignored", { type: "integer", minimum: 5, multipleOf: 0 }, 5],
    ["a negative multiple ignored", { type: "integer", minimum: 5, multipleOf: -2 }, 5],
    ["false", { type: "boolean" }, false],
    ["null", { type: "null" }, null],
    [
      "an object with its required properties",
      { type: "object", required: ["a"], properties: { a: { type: "null" } } },
      { a: null },
    ],
    [
      "minItems samples of the items",
      { type: "array", minItems: 2, items: { type: "integer", minimum: 4 } },
      [4, 4],
    ],
    ["an empty array", { type: "array", items: { type: "integer" } }, []],
    [
      "items of a tuple read as any value",
      { type: "array", minItems: 2, items: [{ type: "integer" }] },
      ["", ""],
    ],
    ["null items read as any value", { type: "array", minItems: 1, items: null }, [""]],
    ["no items read as any value", { type: "array", minItems: 2 }, ["", ""]],
    ["items of every value (true) read as any value", { type: "array", minItems: 1, items: true }, [""]],
    ["null when no type is allowed", { type: [] }, null],
    ["a string when any type is", {}, ""],
  ])("gives %s", (_, schema, expected) => {
    expect(sample(schema)).toEqual(expected);
  });

  it("gives numbers the number schema allows, fractions included", () => {
    expect(sample({ type: "number", exclusiveMinimum: 0 })).toBe(0.5);
    expect(sample({ type: "number", exclusiveMinimum: 2.5 })).toBe(3);
    expect(sample({ type: "number", minimum: 0.2, maximum: 0.8 })).toBe(0.2);
    expect(sample({ type: "number", minimum: 0.3, multipleOf: 0.7 })).toBe(0.7);
    expect(sample({ type: "number", minimum: 0.25 })).toBe(0.25);
  });

  it("gives samples the validator accepts", () => {
    const schemas: JsonSchema[] = [
      { type: "string", minLength: 3 },
      { type: "string", pattern: "^b+c$", minLength: 4 },
      { type: "string", format: "email" },
      { type: "string", format: "date-time" },
      { type: "string", format: "uri" },
      { type: "string", format: "ipv6" },
      { type: "string", format: "ipv4", pattern: "^1\\.2\\.3\\.[4-6]$" },
      { type: "integer", exclusiveMinimum: 2.5 },
      { type: "integer", minimum: 5, multipleOf: 3 },
      { type: "number", exclusiveMinimum: 0 },
      { type: "number", minimum: 0.2, maximum: 0.8 },
      { type: "number", minimum: 0.3, multipleOf: 0.7 },
      { type: "array", minItems: 2, items: { type: "integer", minimum: 4 } },
      { type: "object", required: ["a", "b"], properties: { a: { type: "boolean" }, b: { enum: [7] } } },
    ];
    for (const schema of schemas)
      expect(ajvAccepts(schema, sample(schema)), JSON.stringify(schema)).toBe(true);
  });

  it.each<[string, string]>([
    ["date", "2024-01-01"],
    ["time", "12:00:00Z"],
    ["date-time", "2024-01-01T12:00:00Z"],
    ["duration", "P1D"],
    ["uri", "https://example.com/"],
    ["uri-reference", "https://example.com/"],
    ["uri-template", "https://example.com/"],
    ["url", "https://example.com/"],
    ["email", "ada@example.com"],
    ["hostname", "example.com"],
    ["ipv4", "127.0.0.1"],
    ["ipv6", "::1"],
    ["regex", "a"],
    ["uuid", "00000000-0000-0000-0000-000000000000"],
    ["json-pointer", "/a"],
    ["relative-json-pointer", "0"],
    ["byte", "YQ=="],
    ["int32", "0"],
    ["int64", "0"],
    ["float", "0"],
    ["double", "0"],
    ["password", "a"],
    ["binary", "a"],
    ["iri", "https://example.com/"],
    ["iri-reference", "https://example.com/"],
    ["idn-email", "ada@example.com"],
    ["idn-hostname", "example.com"],
  ])("gives the %s example, which the validator accepts where it knows the format", (format, example) => {
    const schema: JsonSchema = { type: "string", format };
    expect(sample(schema)).toBe(example);
    const unknown = [
      "int32",
      "int64",
      "float",
      "double",
      "iri",
      "iri-reference",
      "idn-email",
      "idn-hostname",
    ];
    if (!unknown.includes(format)) expect(ajvAccepts(schema, example)).toBe(true);
  });

  it("resolves a local reference", () => {
    const root: JsonSchema = { $defs: { s: { const: "x" } } };
    expect(sampleValue(root, { $ref: "#/$defs/s" })).toBe("x");
  });

  it("stops a recursive object at depth eight", () => {
    const root: JsonSchema = {
      $defs: { node: { type: "object", properties: { a: { $ref: "#/$defs/node" } }, required: ["a"] } },
    };
    let value = sampleValue(root, { $ref: "#/$defs/node" }) as Record<string, unknown> | null;
    let depth = 0;
    while (value !== null) {
      value = value.a as Record<string, unknown> | null;
      depth++;
    }
    expect(depth).toBe(8);
  });

  it("stops a recursive array at depth eight", () => {
    const root: JsonSchema = {
      $defs: { node: { type: "array", minItems: 1, items: { $ref: "#/$defs/node" } } },
    };
    let value = sampleValue(root, { $ref: "#/$defs/node" }) as unknown;
    let depth = 0;
    while (Array.isArray(value)) {
      value = value[0];
      depth++;
    }
    expect(depth).toBe(8);
    expect(value).toBeNull();
  });
});

describe("fillRequired", () => {
  const schema: JsonSchema = {
    type: "object",
    properties: {
      name: { type: "string", minLength: 2 },
      given: { type: "integer" },
      inner: {
        type: "object",
        properties: { flag: { type: "boolean" }, deep: { type: "object", properties: {}, required: ["z"] } },
        required: ["flag"],
      },
      list: { type: "array", items: { type: "object", required: ["k"] } },
    },
    required: ["name", "given", "inner", "missing"],
  };

  it("fills each required property the object lacks and keeps the given ones", () => {
    expect(fillRequired(schema, schema, { given: 5 })).toEqual({
      given: 5,
      name: "aa",
      inner: { flag: false },
      missing: "",
    });
  });

  it("fills the required properties of the objects already given, at every depth", () => {
    const object = { inner: { deep: {} }, name: "n", given: 1, missing: 2 };
    const out = fillRequired(schema, schema, object);
    expect(out).toBe(object);
    expect(out).toEqual({ inner: { deep: { z: "" }, flag: false }, name: "n", given: 1, missing: 2 });
  });

  it("leaves arrays, null and properties the schema does not declare as they are", () => {
    const object = { list: [{}], inner: null, other: { x: 1 }, name: "n", given: 1, missing: 2 };
    expect(fillRequired(schema, schema, object)).toEqual({
      list: [{}],
      inner: null,
      other: { x: 1 },
      name: "n",
      given: 1,
      missing: 2,
    });
  });

  it("does not fill an array as an object, even where its schema lists required properties", () => {
    const root: JsonSchema = {
      type: "object",
      properties: { both: { type: ["array", "object"], required: ["x"] } },
    };
    expect(fillRequired(root, root, { both: [] })).toEqual({ both: [] });
    expect(fillRequired(root, root, { both: {} })).toEqual({ both: { x: "" } });
  });

  it("counts the depth of the objects given: a recursive schema's samples stop eight levels down", () => {
    const root: JsonSchema = {
      $defs: { node: { type: "object", properties: { a: { $ref: "#/$defs/node" } }, required: ["a"] } },
    };
    const chain = (given: Record<string, unknown>): number => {
      let value = fillRequired(root, { $ref: "#/$defs/node" }, given) as Record<string, unknown> | null;
      let depth = 0;
      while (value !== null) {
        value = value.a as Record<string, unknown> | null;
        depth++;
      }
      return depth;
    };
    expect(chain({})).toBe(9);
    expect(chain({ a: { a: {} } })).toBe(9);
  });

  it("leaves a scalar where the schema declares an object with required properties", () => {
    const root: JsonSchema = {
      type: "object",
      properties: { p: { type: ["string", "object"], required: ["x"] } },
    };
    expect(fillRequired(root, root, { p: "s" })).toEqual({ p: "s" });
  });

  it("reads no required list that is not an array", () => {
    expect(fillRequired({}, { type: "object", required: "a" } as JsonSchema, {})).toEqual({});
  });

  it("follows a reference to the object schema", () => {
    const root: JsonSchema = {
      $defs: { o: { type: "object", required: ["q"], properties: { q: { const: 1 } } } },
    };
    expect(fillRequired(root, { $ref: "#/$defs/o" }, {})).toEqual({ q: 1 });
  });

  it("does not read an inherited property name as declared", () => {
    const object = { toString: { a: 1 } } as Record<string, unknown>;
    expect(fillRequired({}, { type: "object", properties: {} }, object)).toEqual({ toString: { a: 1 } });
    expect(fillRequired({}, { type: "object", required: ["constructor"] }, {})).toEqual({ constructor: "" });
  });
});

describe("setPath", () => {
  it("sets a value at a path, making the objects on the way", () => {
    const object: Record<string, unknown> = {};
    setPath(object, ["a", "b", "c"], 1);
    expect(object).toEqual({ a: { b: { c: 1 } } });
  });

  it("keeps the objects already on the way", () => {
    const object: Record<string, unknown> = { a: { keep: true, b: { other: 2 } } };
    setPath(object, ["a", "b", "c"], "v");
    expect(object).toEqual({ a: { keep: true, b: { other: 2, c: "v" } } });
  });

  it("replaces null, scalars and arrays on the way with objects", () => {
    const object: Record<string, unknown> = { a: null, b: 3, c: [1] };
    setPath(object, ["a", "x"], 1);
    setPath(object, ["b", "x"], 2);
    setPath(object, ["c", "x"], 3);
    expect(object).toEqual({ a: { x: 1 }, b: { x: 2 }, c: { x: 3 } });
  });

  it("sets a top-level value and overwrites an object at the end of the path", () => {
    const object: Record<string, unknown> = { a: { b: 1 } };
    setPath(object, ["a"], [1, 2]);
    setPath(object, ["z"], null);
    expect(object).toEqual({ a: [1, 2], z: null });
  });
});

describe("the calls verify builds", () => {
  it("fills a required number the policy does not read with a value in its fractional bounds", () => {
    const { bundle, validators } = loadFromText(
      `tools:
  - name: mix
    description: Mix.
    input_schema:
      type: object
      properties:
        name: { type: string }
        ratio: { type: number, minimum: 0.2, maximum: 0.8 }
      required: [name, ratio]
      additionalProperties: false
`,
      `version: 1
allow: [mix]
rules:
  - id: no-x
    tools: [mix]
    decision: deny
    when:
      name: { equals: x }
    reason: no x
`,
    );
    const [result] = new Verifier(bundle, validators).verify([
      { id: "never-deny", tools: ["mix"], kind: "never", action: "deny" },
    ]);
    expect(result?.status, JSON.stringify(result)).toBe("fails");
    expect(result?.witness?.arguments).toEqual({ name: "x", ratio: 0.2 });
  });
});
