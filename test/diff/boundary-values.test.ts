/**
 * The values `boundaryValues` (src/diff/schema-values.ts) gives at the edges of a schema, and `schemaBounds`, the
 * bounds a schema writes: each keyword's values pinned, so that a loosening through it has a value to be found by.
 */
import { describe, expect, it } from "vitest";
import { boundaryValues, schemaBounds } from "../../src/diff/schema-values.js";

const ROOT = {};
const lengths = (values: readonly unknown[], char: string): number[] =>
  values
    .filter((v): v is string => typeof v === "string" && v.length > 0 && [...v].every((c) => c === char))
    .map((v) => v.length)
    .sort((a, b) => a - b);

describe("schemaBounds", () => {
  it("reads every bound keyword anywhere in a schema, not the values of enum, const, default or examples", () => {
    const schema = {
      type: "object",
      minProperties: 1,
      maxProperties: 9,
      properties: {
        s: { type: "string", minLength: 2, maxLength: 5, default: 77, examples: [88] },
        n: {
          type: "number",
          minimum: -3,
          maximum: 40,
          exclusiveMinimum: -4,
          exclusiveMaximum: 41,
          multipleOf: 0.5,
        },
        a: { type: "array", minItems: 6, maxItems: 7, items: { enum: [99], const: 98 } },
        list: [{ maxLength: 11 }],
      },
    };
    expect(schemaBounds(schema).sort((x, y) => x - y)).toEqual([-4, -3, 0.5, 1, 2, 5, 6, 7, 9, 11, 40, 41]);
    expect(schemaBounds("x")).toEqual([]);
    expect(schemaBounds(null)).toEqual([]);
  });

  it("keeps at most sixteen bounds", () => {
    const many = { anyOf: Array.from({ length: 30 }, (_, i) => ({ maxLength: i + 100 })) };
    const read = schemaBounds(many);
    expect(read).toHaveLength(16);
    expect(read).toEqual(Array.from({ length: 16 }, (_, i) => i + 100));
  });
});

describe("boundaryValues", () => {
  it("gives strings at, below and above each length bound, in a's and z's, and other short ones", () => {
    const values = boundaryValues({ type: "string", minLength: 5, maxLength: 8 }, ROOT);
    expect(lengths(values, "a")).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(lengths(values, "z")).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(values).toContain("");
    for (const c of ["b", "0", "-", " ", "A"]) expect(values).toEqual(expect.arrayContaining([c, c + c]));
    expect(values.every((v) => typeof v === "string")).toBe(true);
    // Another version's bound as a hint; none past 64.
    const hinted = boundaryValues({ type: "string" }, ROOT, [12, 100]);
    expect(lengths(hinted, "a")).toEqual([1, 2, 3, 11, 12, 13]);
    expect(boundaryValues({ type: "string", maxLength: 0 }, ROOT)).toContain("");
  });

  it("gives pattern examples grown and cut to each length, and format examples", () => {
    const values = boundaryValues({ type: "string", pattern: "^q", maxLength: 4 }, ROOT);
    expect(values).toEqual(expect.arrayContaining(["q", "qq", "qqq", "qqqq", "qa", "qaaa", "aq", "aaaq"]));
    // Just past the bound, not further.
    expect(values).toContain("qqqqq");
    expect(values).not.toContain("qqqqqq");
    const ending = boundaryValues({ type: "string", pattern: "c$" }, ROOT);
    expect(ending).toEqual(expect.arrayContaining(["c", "ac", "aac"]));
    expect(boundaryValues({ type: "string", format: "date" }, ROOT)).toContain("2026-01-31");
    expect(boundaryValues({ type: "string", format: "no-such-format" }, ROOT)[0]).toBe("a");
  });

  it("gives numbers at, beside and between each bound, off a multipleOf, and a fraction", () => {
    const integers = boundaryValues({ type: "integer", minimum: 2.5, exclusiveMaximum: 9 }, ROOT);
    expect(integers).toEqual(expect.arrayContaining([0, 1, -1, 1.5, 2, 2.5, 3, 3.5, 8, 8.5, 9, 9.5, 10]));
    const numbers = boundaryValues({ type: "number", maximum: 4.5, multipleOf: 3 }, ROOT);
    expect(numbers).toEqual(expect.arrayContaining([3, 6, 4, 1.5, 3.5, 4.5, 5, 5.5]));
    // Floor and ceiling only for an integer.
    expect(numbers).not.toContain(4.0 + 0.25);
    expect(boundaryValues({ type: "number", exclusiveMinimum: 7 }, ROOT)).toEqual(
      expect.arrayContaining([6, 6.5, 7, 7.5, 8]),
    );
    expect(boundaryValues({ type: "number" }, ROOT, [20])).toEqual(expect.arrayContaining([19, 20, 21]));
    expect(boundaryValues({ type: "number", multipleOf: -2 }, ROOT)).not.toContain(-4);
  });

  it("gives each enum member and const, booleans, null, and one value of each kind for any schema", () => {
    expect(boundaryValues({ enum: ["x", 2, null] }, ROOT)).toEqual(expect.arrayContaining(["x", 2, null]));
    expect(boundaryValues({ const: { k: 1 } }, ROOT)).toEqual(expect.arrayContaining([{ k: 1 }]));
    expect(boundaryValues({ type: "boolean" }, ROOT)).toEqual([false, true]);
    expect(boundaryValues({ type: "null" }, ROOT)).toEqual([null]);
    expect(boundaryValues({}, ROOT)).toEqual(["a", "z", 0, 1.5, true, null, [], {}]);
    const many = Array.from({ length: 20 }, (_, i) => `m${i}`);
    const members = boundaryValues({ enum: many }, ROOT);
    expect(members).toContain("m15");
    expect(members).not.toContain("m16");
  });

  it("gives each branch's values with the keywords beside it, every allOf branch at once, each type's", () => {
    const any = boundaryValues(
      { maxLength: 1, anyOf: [{ type: "string" }, { type: "integer", maximum: 30 }] },
      ROOT,
    );
    expect(lengths(any, "a")).toEqual([1, 2, 3]);
    expect(any).toEqual(expect.arrayContaining([29, 30, 31]));
    const one = boundaryValues({ oneOf: [{ const: "p" }, { type: "boolean" }] }, ROOT);
    expect(one).toEqual(expect.arrayContaining(["p", true, false]));
    const all = boundaryValues({ allOf: [{ type: "string" }, { maxLength: 6 }] }, ROOT);
    expect(lengths(all, "a")).toEqual(expect.arrayContaining([5, 6, 7]));
    const types = boundaryValues({ type: ["boolean", "null", "integer"], minimum: 40 }, ROOT);
    expect(types).toEqual(expect.arrayContaining([true, false, null, 39, 40, 41]));
    // A branch through a reference.
    const ref = boundaryValues({ anyOf: [{ $ref: "#/$defs/b" }] }, { $defs: { b: { const: "deep" } } });
    expect(ref).toContain("deep");
  });

  it("gives arrays at each count, one item repeated and each item first among distinct others", () => {
    const values = boundaryValues(
      { type: "array", items: { enum: ["p", "q", "r"] }, minItems: 2, maxItems: 4 },
      ROOT,
    ) as unknown[][];
    const counts = new Set(values.map((v) => v.length));
    expect([...counts].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(values).toEqual(
      expect.arrayContaining([
        ["q", "q", "q"],
        ["r", "r"],
        ["p", "q", "r"],
        ["q", "p", "r"],
        ["r", "p", "q"],
      ]),
    );
    expect(values.every((v) => v.length <= 10)).toBe(true);
    // Items of `contains` too, and any item where `items` is a boolean.
    const contains = boundaryValues({ type: "array", contains: { const: "c" } }, ROOT) as unknown[][];
    expect(contains).toEqual(expect.arrayContaining([["c"]]));
    const free = boundaryValues({ type: "array", items: true, maxItems: 1 }, ROOT) as unknown[][];
    expect(free).toEqual(expect.arrayContaining([["z"], [0]]));
    expect(
      boundaryValues({ type: "array", maxItems: 30 }, ROOT).every((v) => (v as unknown[]).length <= 10),
    ).toBe(true);
  });

  it("gives tuples with each position's values, the others minimal", () => {
    const values = boundaryValues(
      { type: "array", prefixItems: [{ enum: ["a", "b"] }, { type: "integer", maximum: 7 }], items: false },
      ROOT,
    ) as unknown[][];
    expect(values).toEqual(
      expect.arrayContaining([
        ["b", 1],
        ["a", 8],
        ["a", 1],
      ]),
    );
    // Longer arrays keep the tuple's first values.
    expect(values.filter((v) => v.length === 3).every((v) => v[0] === "a" && v[1] === 1)).toBe(true);
  });

  it("gives objects with each property's values, a required one left out, and one more named apart", () => {
    const schema = {
      type: "object",
      properties: { x: { enum: [1, 2] }, y: { type: "boolean" } },
      required: ["x"],
      additionalProperties: { const: "more" },
    };
    const values = boundaryValues(schema, ROOT);
    expect(values).toEqual(expect.arrayContaining([{ x: 2 }, { x: 1, y: true }, {}, { x: 1, xx: "more" }]));
    expect(boundaryValues({ type: "object", additionalProperties: false }, ROOT)).toContainEqual({ x: "a" });
    expect(boundaryValues({ properties: {} }, ROOT)).toEqual(expect.arrayContaining([{ x: 0 }, { x: null }]));
    expect(boundaryValues({ type: "object" }, ROOT)).toContainEqual({ x: true });
  });

  it("stops at a depth of four and at its cap", () => {
    // A schema that refers to itself: each level one property deeper, the fifth only the placeholder `a`.
    const root = {
      $defs: { n: { type: "object", properties: { n: { $ref: "#/$defs/n" }, k: { const: "v" } } } },
    };
    const values = boundaryValues({ $ref: "#/$defs/n" }, root);
    const depthOf = (v: unknown): number =>
      v !== null && typeof v === "object" && "n" in v ? 1 + depthOf((v as { n: unknown }).n) : 0;
    expect(Math.max(...values.map(depthOf))).toBe(5);
    expect(values).toContainEqual({ n: { n: { n: { n: { n: "a" } } } } });
    const wide = boundaryValues({ type: "string", maxLength: 60 }, ROOT, [5, 10, 20, 30, 40]);
    expect(wide.length).toBe(48);
    expect(boundaryValues({ $ref: "#/nowhere" }, ROOT)).toEqual(["a"]);
  });
});
