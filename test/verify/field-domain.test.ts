/**
 * The values one field can take, as the search sees them (field-domain.ts): the concrete options stand for every
 * value the schema allows (each value has an option with the same truths of every atom), each of them valid; the
 * string theory's regions narrow exactly as the atoms read, so that every string's truths are reachable by `assign`
 * and a reachable state has a witness with those truths.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonSchema } from "../../src/runtime/types.js";
import { AutomataPool } from "../../src/verify/automata.js";
import {
  FieldDomain,
  type FieldOption,
  type FieldSchema,
  SCHEMA_LENGTH_OPERATOR,
  SCHEMA_OPERATOR,
  type SchemaLength,
  type SchemaSide,
  type TheoryState,
} from "../../src/verify/field-domain.js";
import { AtomTable, fieldRef } from "../../src/verify/formula.js";
import { checkValue } from "../../src/verify/schema-facts.js";
import { Verifier } from "../../src/verify/verify-properties.js";
import { loadFromText, reachable } from "./helpers.js";

const RUNS = Number(process.env.TOOLGATE_VERIFY_RUNS ?? 200);
const REF = fieldRef("arguments", "f");

/** A field read by `operators` (each `[name, value]`), with one side per schema. */
function field(
  operators: readonly (readonly [string, unknown])[],
  sides: readonly (JsonSchema | FieldSchema)[],
): FieldDomain {
  const table = new AtomTable();
  for (const [operator, value] of operators) table.atom(REF, operator, value);
  return domainOf(table, sides);
}

function domainOf(table: AtomTable, sides: readonly (JsonSchema | FieldSchema)[]): FieldDomain {
  const read = sides.map((s) =>
    "missingAllowed" in s && "schema" in s
      ? (s as FieldSchema)
      : { schema: s as JsonSchema, missingAllowed: false },
  );
  return new FieldDomain(REF, table.atoms, read, new AutomataPool());
}

/** The concrete options as `value:truths` (missing as `-`), the others by kind. */
function show(options: readonly FieldOption[]): string[] {
  return options.map((o) =>
    o.kind === "value"
      ? `${o.value === undefined ? "-" : JSON.stringify(o.value)}:${o.truths.join("")}`
      : o.kind === "opaque"
        ? `opaque ${o.type}`
        : o.kind,
  );
}

/** Every value of `values` valid on some side has a concrete option with the same truths of every atom. */
function expectCovered(domain: FieldDomain, values: readonly unknown[]): void {
  const options = domain.options().filter((o) => o.kind === "value");
  const classes = new Set(options.map((o) => o.truths.join("")));
  for (const value of values) {
    if (!domain.sides.some((_, i) => domain.validOn(i, value))) continue;
    const truths = domain.atoms.map((a) => a.test(value)).join("");
    expect(classes.has(truths), `${JSON.stringify(value)} (${truths}) among ${show(domain.options())}`).toBe(
      true,
    );
  }
  for (const o of options)
    expect(
      domain.sides.some((s) => checkValue(s.schema, o.value, s.missingAllowed)),
      JSON.stringify(o.value),
    ).toBe(true);
}

const NUMBERS: number[] = [];
for (let n = -40; n <= 40; n++) NUMBERS.push(n, n + 0.5, n + 0.25, n + 0.1);

describe("number options", () => {
  it("cuts the line at the operators' bounds: one integer and one fraction per piece, in order of size", () => {
    const domain = field(
      [
        ["min", 3],
        ["max", 10],
      ],
      [{ type: "number" }],
    );
    expect(show(domain.options())).toEqual([
      "1.5:01",
      "2:01",
      "3:11",
      "3.5:11",
      "4:11",
      "10:11",
      "10.5:10",
      "11:10",
    ]);
  });

  it("offers only the integers of an integer field, and the missing value first", () => {
    const domain = field(
      [
        ["min", 3],
        ["max", 10],
      ],
      [{ schema: { type: "integer" }, missingAllowed: true }],
    );
    expect(show(domain.options())).toEqual(["-:00", "2:01", "3:11", "4:11", "10:11", "11:10"]);
  });

  it("reads the bounds of equals, in and the schema's keywords, and its multiples", () => {
    const domain = field([["equals", 2.5]], [{ type: "number", multipleOf: 0.5, minimum: -1 }]);
    // Past 2.5, one multiple of 0.5 (3): on a number field, being an integer changes nothing.
    expect(show(domain.options())).toEqual(["0:0", "-0.5:0", "-1:0", "2.5:1", "3:0"]);
    const listed = field(
      [["in", [7, "x", -7]]],
      [{ type: "integer", exclusiveMaximum: 9, exclusiveMinimum: -9 }],
    );
    expect(show(listed.options())).toEqual(["-6:0", "-7:1", "7:1", "-8:0", "8:0"]);
  });

  it("offers zero, one and a half when nothing cuts the line, and the multiple when one is asked", () => {
    expect(show(field([["exists", true]], [{ type: "number" }]).options())).toEqual(["0:1", "1:1", "0.5:1"]);
    expect(show(field([["exists", true]], [{ type: "number", multipleOf: 3 }]).options())).toEqual([
      "0:1",
      "3:1",
    ]);
    expect(show(field([["exists", true]], [{ type: "number", multipleOf: 0.25 }]).options())).toEqual([
      "0:1",
      "1:1",
      "0.5:1",
      "0.25:1",
    ]);
  });

  it("finds a multiple on each side of one bound, however large the multiple", () => {
    for (const op of ["min", "max"])
      for (const multipleOf of [5, 3, 2, 100]) {
        const domain = field([[op, 0]], [{ type: multipleOf === 2 ? "number" : "integer", multipleOf }]);
        expectCovered(domain, [-300, -100, -15, -10, -5, -3, 0, 3, 5, 10, 15, 100, 300]);
        const values = domain.options().map((o) => (o.kind === "value" ? o.value : undefined)) as number[];
        expect(values.some((v) => v < 0) && values.some((v) => v > 0), `${op} ${multipleOf}: ${values}`).toBe(
          true,
        );
      }
  });

  it("cuts at the schema's maximum and exclusive maximum: the values just below them have a piece", () => {
    for (const key of ["maximum", "exclusiveMaximum"]) {
      const domain = field([["max", 0]], [{ type: "number", [key]: 0.2 }]);
      expectCovered(domain, [-1, 0, 0.1, 0.15, 0.2]);
      expect(
        show(domain.options()).some((o) => o.endsWith(":0")),
        key,
      ).toBe(true);
    }
  });

  it("keeps the multiple of one side when another side names none", () => {
    const domain = field([["min", 1]], [{ type: "integer", multipleOf: 5 }, { type: "string" }]);
    expectCovered(domain, [-10, -5, 0, 5, 10]);
    expect(show(domain.options())).toEqual(["0:0", "5:1", "strings"]);
  });

  it("offers, for two sides' multiples, a value of each side's alone and one of both in every piece", () => {
    const domain = field(
      [["min", 1]],
      [
        { type: "integer", multipleOf: 10 },
        { type: "integer", multipleOf: 4 },
      ],
    );
    const values = domain.options().map((o) => (o.kind === "value" ? o.value : undefined)) as number[];
    for (const piece of [(v: number) => v < 1, (v: number) => v >= 1]) {
      const inPiece = values.filter(piece);
      expect(
        inPiece.some((v) => v % 10 === 0 && v % 4 !== 0),
        `${inPiece}`,
      ).toBe(true);
      expect(
        inPiece.some((v) => v % 4 === 0 && v % 10 !== 0),
        `${inPiece}`,
      ).toBe(true);
      expect(
        inPiece.some((v) => v % 20 === 0),
        `${inPiece}`,
      ).toBe(true);
    }
    // A fractional multiple on an integer field: an integer multiple is offered in each piece too.
    const fractional = field([["max", 0]], [{ type: "integer", multipleOf: 2.5 }]);
    const offered = fractional.options().map((o) => (o.kind === "value" ? o.value : undefined)) as number[];
    expect(offered.filter((v) => v > 0 && v % 5 === 0)).toEqual([5]);
    expect(offered.filter((v) => v < 0 && v % 5 === 0)).toEqual([-5]);
  });

  it("finds a fraction in a piece narrower than one half", () => {
    const domain = field(
      [
        ["equals", 2.1],
        ["equals", 2.5],
      ],
      [{ type: "number", minimum: 2, maximum: 3 }],
    );
    expect(show(domain.options())).toEqual([
      "2:00",
      "2.05:00",
      "2.1:10",
      "2.3:00",
      "2.5:01",
      "2.75:00",
      "3:00",
    ]);
  });

  it("orders a value before its negation only by sign", () => {
    const domain = field(
      [
        ["equals", -3],
        ["equals", 2],
      ],
      [{ type: "integer" }],
    );
    expect(show(domain.options())).toEqual(["-2:00", "2:01", "-3:10", "3:00", "-4:00"]);
  });

  it("covers every value of a small enumeration, whatever bounds the operators and the schema name", () => {
    const bound = fc.integer({ min: -12, max: 12 }).map((n) => n / 2);
    const operator = fc.oneof(
      fc.tuple(fc.constantFrom("min", "max", "equals"), bound),
      fc.tuple(fc.constant("in"), fc.array(bound, { minLength: 1, maxLength: 3 })),
    );
    const schema = fc.record(
      {
        type: fc.constantFrom("number", "integer"),
        minimum: bound,
        maximum: bound,
        exclusiveMinimum: bound,
        exclusiveMaximum: bound,
        multipleOf: fc.constantFrom(0.5, 1, 2, 3, 0.25, 7),
      },
      { requiredKeys: ["type"] },
    );
    fc.assert(
      fc.property(fc.array(operator, { minLength: 1, maxLength: 3 }), schema, (operators, s) => {
        expectCovered(field(operators, [s as JsonSchema]), NUMBERS);
      }),
      { numRuns: RUNS },
    );
  });
});

describe("options", () => {
  it("offers only the listed values when every side lists them, each once and valid somewhere", () => {
    const domain = field([["equals", "a"]], [{ enum: ["a", "b", 1], type: "string" }, { enum: ["b", "c"] }]);
    expect(show(domain.options())).toEqual(['"a":1', '"b":0', '"c":0']);
    const constant = field([["equals", "a"]], [{ schema: { const: "a" }, missingAllowed: true }]);
    expect(show(constant.options())).toEqual(["-:0", '"a":1']);
  });

  it("offers a side's listed values first when another side lists none", () => {
    const domain = field(
      [["equals", true]],
      [{ type: ["boolean", "integer"], enum: [true, 3] }, { type: "boolean" }],
    );
    expect(show(domain.options())).toEqual(["true:1", "3:0", "false:0"]);
  });

  it("offers null, the booleans, the numbers, strings, arrays and objects of an untyped field", () => {
    const domain = field([["in", [1, "a", 4]]], [{ schema: {}, missingAllowed: true }]);
    expect(show(domain.options())).toEqual([
      "-:0",
      "null:0",
      "false:0",
      "true:0",
      "0:0",
      "-0.5:0",
      "1:1",
      "1.5:0",
      "2:0",
      "4:1",
      "4.5:0",
      "5:0",
      "strings",
      "[]:0",
      "{}:0",
    ]);
  });

  it("offers no missing value where no side allows it", () => {
    expect(show(field([["exists", true]], [{ type: "boolean" }]).options())).toEqual(["false:1", "true:1"]);
    expect(
      show(
        field(
          [["exists", true]],
          [{ type: "null" }, { schema: { type: "null" }, missingAllowed: true }],
        ).options(),
      ),
    ).toEqual(["-:0", "null:1"]);
  });

  it("keeps the options it made", () => {
    const domain = field([["exists", true]], [{ type: "boolean" }]);
    expect(domain.options()).toBe(domain.options());
  });

  it("offers the literal arrays and objects the operators compare with, then the contents as opaque", () => {
    expect(show(field([["equals", [1]]], [{ type: "array" }]).options())).toEqual([
      "[1]:1",
      "[]:0",
      "opaque array",
    ]);
    expect(show(field([["equals", { a: 1 }]], [{ type: "object" }]).options())).toEqual([
      '{"a":1}:1',
      "{}:0",
      "opaque object",
    ]);
    expect(show(field([["in", [[2], { b: 1 }, 3]]], [{ type: ["array", "object"] }]).options())).toEqual([
      "[2]:1",
      "[]:0",
      "opaque array",
      '{"b":1}:1',
      "{}:0",
      "opaque object",
    ]);
  });

  it("offers the empty array and object alone when no operator reads their contents", () => {
    expect(
      show(field([["exists", true]], [{ type: ["object", "array", "boolean", "null"] }]).options()),
    ).toEqual(["null:1", "false:1", "true:1", "[]:1", "{}:1"]);
  });

  it("offers opaque contents when no array or object is valid to stand for them", () => {
    expect(show(field([["exists", true]], [{ type: "array", minItems: 1 }]).options())).toEqual([
      "opaque array",
    ]);
    expect(show(field([["exists", true]], [{ type: "object", required: ["a"] }]).options())).toEqual([
      "opaque object",
    ]);
  });

  it("offers every set of listed items, padded to minItems, and nothing opaque, when only any and all read them", () => {
    const domain = field(
      [["any", { equals: "x" }]],
      [{ type: "array", items: { enum: ["x", "y"] }, minItems: 3 }],
    );
    expect(show(domain.options())).toEqual(['["x","x","x"]:1', '["y","y","y"]:0', '["x","y","x"]:1']);
    const two = field(
      [
        ["all", { equals: "x" }],
        ["exists", true],
      ],
      [
        { type: "array", items: { enum: ["x"] }, minItems: 2 },
        { type: "array", items: { const: "y" } },
      ],
    );
    expect(show(two.options())).toEqual(["[]:11", '["x","x"]:11', '["y"]:01', '["y","y"]:01']);
  });

  it("reads the contents as opaque when another operator reads a field of listed items", () => {
    const domain = field(
      [
        ["any", { equals: "x" }],
        ["equals", ["x"]],
      ],
      [{ type: "array", items: { enum: ["x", "y"] } }],
    );
    expect(show(domain.options())).toEqual(['["x"]:11', "[]:00", '["y"]:00', '["x","y"]:10', "opaque array"]);
  });

  it("tries arrays of the values any and all name when the items are not listed", () => {
    const domain = field(
      [
        ["any", { equals: "x" }],
        ["all", { in: ["x", "z"] }],
      ],
      // Items that are not only strings: the element theory (below) does not apply.
      [{ type: "array", items: { type: ["string", "integer"] } }],
    );
    expect(show(domain.options())).toEqual([
      "[]:01",
      '["a"]:00',
      '["x"]:11',
      '["z"]:01',
      '["a","x"]:10',
      '["a","z"]:00',
      '["x","z"]:11',
      "opaque array",
    ]);
  });

  it("reads string items as a field of their own: every set of answers any and all can give, no opaque array", () => {
    const domain = field(
      [
        ["any", { equals: "x" }],
        ["all", { in: ["x", "z"] }],
        ["any", { glob: "a/**" }],
      ],
      [{ type: "array", items: { type: "string", maxLength: 3 }, maxItems: 3 }],
    );
    expect(show(domain.options())).not.toContain("opaque array");
    const strings = ["", "x", "z", "a", "a/b", "A/b", "./a"];
    const arrays: string[][] = [[]];
    for (const a of strings) {
      arrays.push([a]);
      for (const b of strings) if (a < b) arrays.push([a, b]);
    }
    expectCovered(domain, arrays);
    // A kind of element with no witness leaves an abstract answer, not an opaque one.
    const unbuilt = field(
      [["any", { path_prefix: "/etc" }]],
      [{ type: "array", items: { type: "string", maxLength: 4096 } }],
    );
    const masks = unbuilt.options().flatMap((o) => (o.kind === "opaque" ? [o.masks] : []));
    expect(masks.every((m) => m !== undefined)).toBe(true);
    // uniqueItems: an array padded or grown may repeat an element, so the contents stay opaque. A maxItems below the
    // readers' number does not: the shortest array of a set of answers is no longer than any valid one that has it.
    for (const [extra, opaque] of [
      [{ maxItems: 1 }, false],
      [{ uniqueItems: true }, true],
    ] as const) {
      const tight = field(
        [
          ["any", { equals: "x" }],
          ["all", { equals: "x" }],
        ],
        [{ type: "array", items: { type: "string" }, ...extra }],
      );
      expect(show(tight.options()).includes("opaque array"), JSON.stringify(extra)).toBe(opaque);
    }
  });

  it("lists seven or more item values as named values, not every set", () => {
    const items = { enum: ["a", "b", "c", "d", "e", "f", "g"] };
    const domain = field([["any", { equals: "g" }]], [{ type: "array", items }]);
    expect(show(domain.options())).toEqual(["[]:0", '["a"]:0', '["g"]:1', '["a","g"]:1', "opaque array"]);
    const six = field(
      [["any", { equals: "f" }]],
      [{ type: "array", items: { enum: ["a", "b", "c", "d", "e", "f"] } }],
    );
    expect(six.options().length).toBe(63 + 1);
  });

  it("names at most eight single arrays and the pairs of the first five values", () => {
    const domain = field(
      [["any", { in: ["b", "c", "d", "e", "f", "g", "h", "i", "j"] }]],
      [{ type: "array", items: { type: ["string", "integer"] } }],
    );
    const arrays = domain.options().flatMap((o) => (o.kind === "value" ? [o.value as string[]] : []));
    expect(arrays.filter((a) => a.length === 1).map((a) => a[0])).toEqual([
      "a",
      "b",
      "c",
      "d",
      "e",
      "f",
      "g",
      "h",
    ]);
    expect(arrays.filter((a) => a.length === 2).map((a) => a.join(""))).toEqual([
      "ab",
      "ac",
      "ad",
      "ae",
      "bc",
      "bd",
      "be",
      "cd",
      "ce",
      "de",
    ]);
    expect(arrays.filter((a) => a.length > 2)).toEqual([]);
  });

  it("compares null with no object literal", () => {
    expect(show(field([["equals", null]], [{ type: ["object", "null"] }]).options())).toEqual([
      "null:1",
      "{}:0",
    ]);
  });

  it("reads the items of arrays only for arrays: objects of the same field keep their own options", () => {
    expect(
      show(
        field(
          [["any", { equals: "x" }]],
          [{ type: ["array", "object"], items: { enum: ["x"] }, required: ["a"] }],
        ).options(),
      ),
    ).toEqual(["[]:0", '["x"]:1', "opaque object"]);
    expect(
      show(
        field([["any", { equals: "x" }]], [{ type: ["array", "object"], items: { enum: ["x"] } }]).options(),
      ),
    ).toEqual(["[]:0", '["x"]:1', "{}:2"]);
    expect(
      show(
        field([["any", { equals: "x" }]], [{ type: ["array", "string"], items: { enum: ["x"] } }]).options(),
      ),
    ).toEqual(["strings", "[]:0", '["x"]:1']);
  });

  it("reads the contents as opaque when all reads items not listed, or another operator reads the field", () => {
    expect(
      show(
        field([["all", { equals: "x" }]], [{ type: "array", items: { type: ["string", "null"] } }]).options(),
      ),
    ).toEqual(["[]:1", '["a"]:0', '["x"]:1', '["a","x"]:0', "opaque array"]);
    const named = field(
      [
        ["any", { equals: "x" }],
        ["exists", true],
      ],
      [{ type: "array", items: { enum: ["x", "y"] } }],
    );
    expect(show(named.options())).toEqual(["[]:01", '["x"]:11', '["y"]:01', '["x","y"]:11']);
    const unlisted = field(
      [
        ["any", { equals: "x" }],
        ["exists", true],
      ],
      [{ type: "array" }],
    );
    expect(show(unlisted.options())).toEqual([
      "[]:01",
      '["a"]:01',
      '["x"]:11',
      '["a","x"]:11',
      "opaque array",
    ]);
  });

  it("reads null items as not listed", () => {
    expect(show(field([["any", { equals: "x" }]], [{ type: "array", items: null }]).options())).toEqual([
      "[]:0",
      '["a"]:0',
      '["x"]:1',
      '["a","x"]:1',
      "opaque array",
    ]);
  });

  it("lists each item value once across the sides, and every side's items only when each lists them", () => {
    const listed = field(
      [["any", { equals: "x" }]],
      [
        { type: "array", items: { enum: ["x"] } },
        { type: "array", items: { enum: ["x", "y"] } },
      ],
    );
    expect(show(listed.options())).toEqual(["[]:0", '["x"]:1', '["y"]:0', '["x","y"]:1']);
    const half = field(
      [["any", { equals: "x" }]],
      [
        { type: "array", items: { enum: ["x"] } },
        { type: "array", items: { type: "string" } },
      ],
    );
    expect(show(half.options())).toEqual(["[]:0", '["a"]:0', '["x"]:1', '["a","x"]:1', "opaque array"]);
  });

  it("names only the values inside any and all", () => {
    const domain = field(
      [
        ["any", { equals: "x" }],
        ["equals", { equals: "q" }],
      ],
      [{ type: ["array", "object"], items: { type: ["string", "integer"] } }],
    );
    expect(show(domain.options())).toEqual([
      "[]:00",
      '["a"]:00',
      '["x"]:10',
      '["a","x"]:10',
      "opaque array",
      '{"equals":"q"}:21',
      "{}:20",
      "opaque object",
    ]);
  });

  it("tells validity on each side apart", () => {
    const domain = field(
      [["exists", true]],
      [{ schema: { type: "string", maxLength: 1 }, missingAllowed: true }, { type: "integer" }],
    );
    expect(domain.validOn(0, "a")).toBe(true);
    expect(domain.validOn(0, "ab")).toBe(false);
    expect(domain.validOn(0, undefined)).toBe(true);
    expect(domain.validOn(1, undefined)).toBe(false);
    expect(domain.validOn(1, 2)).toBe(true);
    expect(domain.validOn(1, "a")).toBe(false);
  });
});

describe("the verdicts the number options decide", () => {
  it("finds a multiple above a bound the schema's multiples step over", () => {
    const { bundle, validators } = loadFromText(
      `tools:
  - name: order
    description: Order.
    input_schema:
      type: object
      properties:
        count: { type: integer, multipleOf: 5 }
      required: [count]
      additionalProperties: false
`,
      `version: 1
allow: [order]
rules:
  - id: many
    tools: [order]
    decision: deny
    when:
      count: { min: 1 }
    reason: at most none
`,
    );
    const [result] = new Verifier(bundle, validators).verify([
      { id: "never-deny", tools: ["order"], kind: "never", action: "deny" },
    ]);
    expect(result?.status, JSON.stringify(result)).toBe("fails");
    expect(result?.witness?.arguments).toEqual({ count: 5 });
  });
});

/** Every string over `chars` of at most `max` characters. */
function allStrings(chars: readonly string[], max: number): string[] {
  const out = [""];
  let layer = [""];
  for (let n = 1; n <= max; n++) {
    layer = layer.flatMap((s) => chars.map((c) => s + c));
    out.push(...layer);
  }
  return out;
}

/** A field whose string atoms are all modelled exactly, against every string it allows. */
function expectExact(domain: FieldDomain, strings: readonly string[]): void {
  const valid = strings.filter((s) => domain.sides.some((_, i) => domain.validOn(i, s)));
  const realised = new Map<string, string>();
  for (const s of valid) {
    const truths = domain.atoms.map((a) => a.test(s)).join("");
    if (!realised.has(truths)) realised.set(truths, s);
  }
  const reached = reachable(domain);
  expect(reached.map((r) => r.truths).sort()).toEqual([...realised.keys()].sort());
  for (const r of reached) {
    expect(r.witness, r.truths).toBeDefined();
    expect(r.witness?.loose).toBe(false);
    const text = r.witness?.text as string;
    expect(domain.atoms.map((a) => a.test(text)).join(""), text).toBe(r.truths);
    expect(valid).toContain(text);
  }
}

const CHARS = ["a", "b", "."];
const SMALL: JsonSchema = { type: "string", pattern: "^[ab.]*$", maxLength: 3 };
const ALL_SMALL = allStrings(CHARS, 3);

describe("the string theory", () => {
  const text = fc.array(fc.constantFrom(...CHARS), { maxLength: 3 }).map((cs) => cs.join(""));
  const regex = fc
    .array(fc.constantFrom("a", "b", "\\.", "a*", "b+", "[ab]", ".", "(a|b)", "^", "$", "a?"), {
      minLength: 1,
      maxLength: 3,
    })
    .map((parts) => parts.join(""));
  const operator: fc.Arbitrary<readonly [string, unknown]> = fc.oneof(
    fc.tuple(fc.constant("equals"), text),
    fc.tuple(fc.constant("equals"), fc.constantFrom(1, true, null)),
    fc.tuple(fc.constant("in"), fc.array(fc.oneof(text, fc.constant(2)), { minLength: 1, maxLength: 3 })),
    fc.tuple(fc.constant("prefix"), text),
    fc.tuple(fc.constant("regex"), regex),
    fc.tuple(
      fc.constant("regex"),
      regex.map((pattern) => ({ pattern, flags: "i" })),
    ),
    fc.tuple(fc.constantFrom("min", "max"), fc.constant(1)),
    fc.tuple(fc.constant("exists"), fc.boolean()),
  );

  it("reaches exactly the truths of the strings a bounded field allows, each with a witness that has them", () => {
    fc.assert(
      fc.property(fc.array(operator, { minLength: 1, maxLength: 3 }), (operators) => {
        expectExact(field(operators, [SMALL]), ALL_SMALL);
      }),
      { numRuns: RUNS },
    );
  });

  it("reaches the truths of every string where any string is valid, each with a witness that has them", () => {
    fc.assert(
      fc.property(fc.array(operator, { minLength: 1, maxLength: 3 }), (operators) => {
        const domain = field(operators, [{ type: "string", maxLength: 3 }]);
        const reached = reachable(domain);
        const keys = new Set(reached.map((r) => r.truths));
        for (const s of ALL_SMALL)
          expect(keys.has(domain.atoms.map((a) => a.test(s)).join("")), s).toBe(true);
        for (const r of reached) {
          expect(r.witness?.loose, r.truths).toBe(false);
          expect(domain.atoms.map((a) => a.test(r.witness?.text)).join("")).toBe(r.truths);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("reads the schema's values, pattern and lengths as atoms of their own (diff's sides)", () => {
    const side = (schema: JsonSchema, name = "old"): SchemaSide => ({
      side: name,
      schema,
      missingAllowed: false,
      absentOnly: false,
    });
    const schemas: JsonSchema[] = [
      { type: "string", enum: ["a", "ab", "b.", 3] },
      { type: "string", const: "ba" },
      { type: "string", pattern: "^a" },
      { type: "string", pattern: "b$", enum: ["ab", "b", "a"] },
      { type: "integer" },
      // A format read by the validator alone (not a language here).
      { type: "string", format: "uri" },
    ];
    for (const schema of schemas.slice(0, 5)) {
      const table = new AtomTable();
      const value = side(schema);
      table.custom(REF, SCHEMA_OPERATOR, value, (v) => (checkValue(schema, v, false) ? 1 : 0));
      const bounds: SchemaLength = { side: "old", lo: 1, hi: 2 };
      table.custom(REF, SCHEMA_LENGTH_OPERATOR, bounds, (v) =>
        typeof v === "string" && [...v].length >= 1 && [...v].length <= 2 ? 1 : 0,
      );
      table.atom(REF, "prefix", "a");
      expectExact(domainOf(table, [SMALL]), ALL_SMALL);
    }
    // A side on which the field is absent allows no string; a format is not modelled (left free).
    const table = new AtomTable();
    table.custom(REF, SCHEMA_OPERATOR, { ...side({ type: "string" }, "new"), absentOnly: true }, (v) =>
      v === undefined ? 1 : 0,
    );
    const absent = domainOf(table, [SMALL]);
    expect(reachable(absent).map((r) => [r.truths, r.witness?.text])).toEqual([["0", ""]]);
    const formats = new AtomTable();
    formats.custom(REF, SCHEMA_OPERATOR, side(schemas[5] as JsonSchema), (v) =>
      checkValue(schemas[5] as JsonSchema, v, false) ? 1 : 0,
    );
    const free = reachable(domainOf(formats, [{ type: "string" }]));
    expect(free.map((r) => [r.truths, r.state.exact, r.witness])).toEqual([
      ["0", null, { text: "", loose: true }],
      ["1", null, undefined],
      ["2", null, undefined],
    ]);
  });

  it("gives a length atom no maybe and cuts the lengths both ways", () => {
    const table = new AtomTable();
    table.custom(REF, SCHEMA_LENGTH_OPERATOR, { side: "new", lo: 2 } satisfies SchemaLength, (v) =>
      typeof v === "string" && [...v].length >= 2 ? 1 : 0,
    );
    table.atom(REF, "regex", "^b*$");
    const domain = domainOf(table, [SMALL]);
    expectExact(domain, ALL_SMALL);
    expect(reachable(domain).map((r) => `${r.truths}=${r.witness?.text}`)).toEqual([
      "00=a",
      "01=",
      "10=aa",
      "11=bb",
    ]);
  });

  it("answers a regex past the work bound as maybe on long strings only where lengths are unbounded", () => {
    const unbounded = field([["regex", "^(?:a|b|a[ab]{11})*$"]], [{ type: "string" }]);
    const reached = reachable(unbounded);
    expect(reached.map((r) => [r.truths, r.state.exact === null, r.witness?.text])).toEqual([
      ["0", false, "c"],
      ["1", false, ""],
      ["2", true, undefined],
    ]);
    const bounded = field([["regex", "^(?:a|b|a[ab]{11})*$"]], [{ type: "string", maxLength: 3 }]);
    expect(reachable(bounded).map((r) => r.truths)).toEqual(["0", "1"]);
  });

  it("reads a literal regex exactly at any length, and a regex as bounded by the longest string of every side", () => {
    const truthsOf = (operators: [string, unknown][], sides: JsonSchema[]) =>
      reachable(field(operators, sides)).map((r) => r.truths);
    expect(truthsOf([["regex", "ab"]], [{ type: "string" }])).toEqual(["0", "1"]);
    expect(
      truthsOf(
        [["regex", { pattern: "^(?:a|b|a[ab]{11})*$", flags: "i" }]],
        [{ type: "string", maxLength: 3 }],
      ),
    ).toEqual(["0", "1"]);
    expect(
      truthsOf([["regex", "^(?:a|b|a[ab]{11})*$"]], [{ type: "string", maxLength: 3 }, { type: "string" }]),
    ).toEqual(["0", "1", "2"]);
    expect(
      truthsOf(
        [["regex", "^(?:a|b|a[ab]{11})*$"]],
        [
          { type: "string", maxLength: 2 },
          { type: "string", maxLength: 100_000 },
        ],
      ),
    ).toEqual(["0", "1", "2"]);
    expect(
      truthsOf(
        [["regex", "^(?:a|b|a[ab]{11})*$"]],
        [
          { type: "string", maxLength: 2 },
          { type: "string", maxLength: 3 },
        ],
      ),
    ).toEqual(["0", "1"]);
  });

  it("keeps its states and witnesses by the key of the assignments", () => {
    const domain = field([["equals", "ab"]], [SMALL]);
    const theory = domain.strings();
    expect(theory).not.toBeNull();
    if (theory === null) return;
    expect(domain.strings()).toBe(theory);
    const yes = theory.assign(theory.initial, 0, 1, "k");
    expect(yes).not.toBeNull();
    expect(theory.assign(theory.initial, 0, 0, "k")).toBe(yes);
    expect(theory.witness(yes as TheoryState, "k")).toEqual({ text: "ab", loose: false });
    const no = theory.assign(theory.initial, 0, 0, "other") as TheoryState;
    expect(theory.witness(no, "k")).toEqual({ text: "ab", loose: false });
    expect(theory.witness(no, "other")).toEqual({ text: "", loose: false });
    expect(theory.assign(theory.initial, 0, 2, "maybe")).toBeNull();
    expect(theory.witness(no, "maybe")).toEqual({ text: "", loose: false });
  });

  it("finds no string where the lengths of every side leave none, and reads a side's lengths apart", () => {
    expect(
      field([["equals", "a"]], [{ type: "string", minLength: 2, maxLength: 1 }]).strings()?.initial,
    ).toEqual({
      exact: null,
      loose: null,
      truths: new Map(),
    });
    const two = field(
      [["equals", "abc"]],
      [
        { type: "string", maxLength: 1 },
        { type: "string", minLength: 3, maxLength: 3 },
      ],
    );
    expect(reachable(two).map((r) => `${r.truths}=${r.witness?.text}`)).toEqual(["0=", "1=abc"]);
    const gap = field(
      [["equals", "ab"]],
      [
        { type: "string", maxLength: 1 },
        { type: "string", minLength: 3 },
      ],
    );
    expect(reachable(gap).map((r) => `${r.truths}=${r.witness?.text}`)).toEqual(["0="]);
  });

  it("finds a witness that passes each side's format", () => {
    const domain = field(
      [["prefix", "1"]],
      [{ type: "string", format: "ipv4", pattern: "^[01]\\.[01]\\.[01]\\.[01]$" }],
    );
    expect(reachable(domain).map((r) => `${r.truths}=${r.witness?.text}`)).toEqual([
      "0=0.0.0.0",
      "1=1.0.0.0",
    ]);
  });

  it("keeps a witness not found under its key", () => {
    const domain = field(
      [
        ["command", ["git push"]],
        ["command", ["rm"]],
      ],
      [{ type: "string" }],
    );
    const theory = domain.strings();
    if (theory === null) throw new Error("strings are not modelled");
    // Both certain cannot be: no command starts with both `git push` and `rm`.
    expect(
      theory.assign(theory.assign(theory.initial, 0, 1, "0:1;") as TheoryState, 1, 1, "0:1;1:1;"),
    ).toBeNull();
    const none: TheoryState = { exact: null, loose: null, truths: new Map() };
    expect(theory.witness(none, "k")).toBeUndefined();
    expect(theory.witness(theory.initial, "k")).toBeUndefined();
    expect(theory.witness(theory.initial, "other")).toEqual({ text: "", loose: false });
  });

  it("finds no string valid when no side is given", () => {
    expect(field([["equals", "a"]], []).strings()?.initial).toEqual({
      exact: null,
      loose: null,
      truths: new Map(),
    });
  });

  it("reads any, all and the other operators of non-strings as fixed on strings", () => {
    const domain = field(
      [
        ["any", { equals: "x" }],
        ["all", { equals: "x" }],
        ["equals", "a"],
      ],
      [SMALL],
    );
    expectExact(domain, ALL_SMALL);
  });

  it("moves the exact strings to the loose region when it had none, for an operator not modelled", () => {
    const domain = field(
      [
        ["glob", "a/*"],
        ["regex", "^a/a$"],
        ["command", ["ls"]],
      ],
      [{ type: "string", maxLength: 4 }],
    );
    const reached = reachable(domain);
    const keys = new Set(reached.map((r) => r.truths));
    for (const s of allStrings(["a", "l", "s", "/"], 4))
      expect(keys.has(domain.atoms.map((a) => a.test(s)).join("")), s).toBe(true);
    const found = Object.fromEntries(reached.map((r) => [r.truths, r.witness]));
    expect(found["110"]).toEqual({ text: "a/a", loose: true });
  });

  it("cuts the lengths of a state whose exact region is gone", () => {
    const table = new AtomTable();
    const schema: JsonSchema = { type: "string", format: "uri" };
    const side: SchemaSide = { side: "old", schema, missingAllowed: false, absentOnly: false };
    table.custom(REF, SCHEMA_OPERATOR, side, (v) => (checkValue(schema, v, false) ? 1 : 0));
    table.custom(REF, SCHEMA_LENGTH_OPERATOR, { side: "old", lo: 0, hi: 1 } satisfies SchemaLength, (v) =>
      typeof v === "string" && [...v].length <= 1 ? 1 : 0,
    );
    const reached = reachable(domainOf(table, [{ type: "string" }]));
    expect(reached.map((r) => [r.truths, r.state.exact, r.witness])).toEqual([
      ["00", null, { text: "aa", loose: true }],
      ["01", null, { text: "", loose: true }],
      ["10", null, undefined],
      ["11", null, undefined],
      ["20", null, undefined],
      ["21", null, undefined],
    ]);
  });

  it("draws an exact witness past the shortest string when the shortest fails the format", () => {
    const domain = field(
      [["prefix", "1"]],
      [{ type: "string", format: "ipv4", pattern: "^(?:0|[01]\\.[01]\\.[01]\\.[01])$" }],
    );
    expect(reachable(domain).map((r) => [r.truths, r.witness])).toEqual([
      ["0", { text: "0.0.0.0", loose: false }],
      ["1", { text: "1.0.0.0", loose: false }],
    ]);
  });

  it("merges the lengths of sides given in any order", () => {
    const gap = field(
      [["equals", "ab"]],
      [
        { type: "string", minLength: 3 },
        { type: "string", maxLength: 1 },
      ],
    );
    expect(reachable(gap).map((r) => `${r.truths}=${r.witness?.text}`)).toEqual(["0="]);
  });

  it("models no strings when a pattern does not parse", () => {
    expect(field([["equals", "a"]], [{ type: "string", pattern: "(?<=a)b" }]).strings()).toBeNull();
  });
});

describe("the string theory on paths, commands and URLs", () => {
  /** The truths of each string are reached by `assign` (none is lost), and every witness found has its truths. */
  function expectSound(domain: FieldDomain, strings: readonly string[]): Reached[] {
    const reached = reachable(domain);
    const keys = new Set(reached.map((r) => r.truths));
    for (const s of strings) {
      if (!domain.sides.some((_, i) => domain.validOn(i, s))) continue;
      const truths = domain.atoms.map((a) => a.test(s)).join("");
      expect(keys.has(truths), `${JSON.stringify(s)} (${truths}) among ${[...keys]}`).toBe(true);
    }
    for (const r of reached)
      if (r.witness !== undefined)
        expect(domain.atoms.map((a) => a.test(r.witness?.text)).join(""), r.witness.text).toBe(r.truths);
    return reached;
  }

  const PATH_CHARS = ["a", "/", ".", "A", "\\"];
  const PATHS = allStrings(PATH_CHARS, 4);

  it("loses no path's truths, whatever globs and prefixes read it", () => {
    const part = fc.constantFrom("a", "A", "*", "**", "?", ".a", "[a]");
    const glob = fc
      .tuple(fc.boolean(), fc.array(part, { minLength: 1, maxLength: 2 }))
      .map(([rooted, parts]) => `${rooted ? "/" : ""}${parts.join("/")}`);
    const operator: fc.Arbitrary<readonly [string, unknown]> = fc.oneof(
      fc.tuple(fc.constant("glob"), glob),
      fc.tuple(fc.constant("glob"), fc.array(glob, { minLength: 1, maxLength: 2 })),
      fc.tuple(fc.constant("path_prefix"), fc.constantFrom("a", "/a", "a/a", "/", ".")),
      fc.tuple(fc.constant("equals"), fc.constantFrom("a", "a/a", "./a")),
      fc.tuple(fc.constant("regex"), fc.constantFrom("^a", "/$", "\\\\")),
    );
    fc.assert(
      fc.property(fc.array(operator, { minLength: 1, maxLength: 3 }), (operators) => {
        expectSound(field(operators, [{ type: "string", maxLength: 4 }]), PATHS);
      }),
      { numRuns: Math.ceil(RUNS / 4) },
    );
  });

  it("keeps `.`, which a path_prefix of `.` is certain of (the empty relative path)", () => {
    expectSound(
      field(
        [
          ["path_prefix", "."],
          ["glob", ["?"]],
        ],
        [{ type: "string", maxLength: 4 }],
      ),
      PATHS,
    );
    expectSound(field([["path_prefix", "./"]], [{ type: "string", maxLength: 4 }]), PATHS);
  });

  it("finds the shortest path of each truth of a glob", () => {
    const domain = field([["glob", "a/*"]], [{ type: "string", maxLength: 6 }]);
    const theory = domain.strings();
    expect(theory?.hasPaths).toBe(true);
    expect(theory?.hasUrls).toBe(false);
    const reached = expectSound(domain, PATHS);
    const found = Object.fromEntries(reached.map((r) => [r.truths, r.witness]));
    expect(found["1"]).toEqual({ text: "a/a", loose: false });
    expect(found["0"]).toEqual({ text: "a", loose: false });
    // Read as a/a on a case-insensitive platform: an exact maybe.
    expect(found["2"]).toEqual({ text: "A/a", loose: false });
  });

  it("finds paths under a prefix, a spelling of it that is not the text, and one read several ways", () => {
    const domain = field(
      [
        ["path_prefix", "a/b"],
        ["equals", "a/b"],
      ],
      [{ type: "string" }],
    );
    const reached = reachable(domain);
    expect(reached.map((r) => [r.truths, r.state.exact !== null, r.state.loose !== null, r.witness])).toEqual(
      [
        ["00", true, true, { text: "a", loose: false }],
        ["10", true, true, { text: "a/ba", loose: false }],
        ["11", true, false, { text: "a/b", loose: false }],
        ["20", true, true, { text: "a/B", loose: false }],
      ],
    );
  });

  it("finds a path with a device's name among the exact ones: the runtime reads it as written, never as plain", () => {
    const domain = field(
      [
        ["glob", "a/*.txt"],
        ["regex", "^(?:[a-z/.]|a[a-z/.]{11})*$"],
      ],
      [{ type: "string" }],
    );
    expect(reachable(domain).map((r) => [r.truths, r.state.exact !== null, r.witness])).toEqual([
      ["00", true, { text: "0", loose: false }],
      ["01", true, { text: "a", loose: false }],
      ["02", false, undefined],
      ["10", true, { text: "a/0.txt", loose: false }],
      ["11", true, { text: "a/.txt", loose: false }],
      ["12", false, undefined],
      ["20", true, { text: "a/.txT", loose: false }],
      ["21", true, { text: "a/aux.txt", loose: false }],
      ["22", false, undefined],
    ]);
  });

  it("builds command lines from the command atoms' words", () => {
    const domain = field(
      [
        ["command", ["git push"]],
        ["command", ["rm"]],
      ],
      [{ type: "string" }],
    );
    const reached = reachable(domain);
    expect(reached.map((r) => [r.truths, r.state.exact, r.witness?.text])).toEqual([
      ["00", null, "a"],
      ["01", null, "rm"],
      ["02", null, "a rm"],
      ["10", null, "git push"],
      // No command starts with both: the facts rule "11" out.
      ["12", null, "git push rm"],
      ["20", null, "a git push"],
      ["21", null, "rm git push"],
      ["22", null, "xargs git push"],
    ]);
    for (const r of reached) if (r.witness !== undefined) expect(r.witness.loose).toBe(true);
    const list = field([["command", ["git push", "npm"]]], [{ type: "string", pattern: "^[a-z ]*$" }]);
    expect(reachable(list).map((r) => [r.truths, r.witness?.text])).toEqual([
      ["0", "a"],
      ["1", "git push"],
      ["2", "a git push"],
    ]);
  });

  it("builds URLs from a url atom's parts", () => {
    const domain = field(
      [["url", { scheme: "https", host: "*.example.org", port: 8443 }]],
      [{ type: "string" }],
    );
    expect(domain.strings()?.hasUrls).toBe(true);
    expect(domain.strings()?.hasPaths).toBe(false);
    expect(reachable(domain).map((r) => [r.truths, r.witness])).toEqual([
      ["0", { text: "ws://a", loose: false }],
      ["1", { text: "https://a.example.org:8443", loose: false }],
      // A dot segment: the runtime reads the path warily.
      ["2", { text: "https://a.example.org:8443/.", loose: true }],
    ]);
    const both = field(
      [
        ["url", { scheme: "https", host: "*.example.org", port: 8443 }],
        ["glob", "**/x"],
      ],
      [{ type: "string" }],
    );
    expect(reachable(both).map((r) => [r.truths, r.state.exact, r.witness?.text])).toEqual([
      // False only on a URL of a scheme with a host (neverFalse): the loose region's shortest strings are such URLs.
      ["00", null, "ws://a"],
      // The glob is certain only of a plain path, which holds no `:`.
      ["02", null, "ws://x"],
      ["10", null, "https://a.example.org:8443"],
      ["12", null, "https://a.example.org:8443/x"],
      ["20", null, "https://a.example.org:8443/."],
      ["21", null, "a/x"],
      ["22", null, "/x"],
    ]);
  });
});

describe("the witnesses of loose regions", () => {
  /** Each full assignment `assign` admits: its truths, E when its exact region is left, L when its loose one is,
   * and the witness (`~` when drawn from the loose region, `-` when none is found). */
  function witnesses(domain: FieldDomain): string {
    return reachable(domain)
      .map((r) => {
        if (r.witness !== undefined)
          expect(domain.atoms.map((a) => a.test(r.witness?.text)).join(""), r.witness.text).toBe(r.truths);
        const regions = `${r.state.exact !== null ? "E" : ""}${r.state.loose !== null ? "L" : ""}`;
        const text =
          r.witness === undefined ? "-" : `${JSON.stringify(r.witness.text)}${r.witness.loose ? "~" : ""}`;
        return `${r.truths}${regions}=${text}`;
      })
      .join(" ");
  }

  it.each<[string, string]>([
    [
      '[["glob","src/**/?.[jt]s"],["regex","^(?:[a-z/.]|a[a-z/.]{11})*$"]]',
      '00EL="0" 01EL="a" 02L=- 10EL="src/0.js" 11EL="src/a.js" 12L=- 20EL="src/a.jS" 21EL="src/aux/a.js" 22L=-',
    ],
    [
      '[["glob",["a/{b,c}","!x"]],["regex","^(?:[a-z/.]|a[a-z/.]{11})*$"]]',
      '00EL="0" 01EL="a" 02L=- 10L="!x"~ 11EL="a/b" 12L=- 20EL="a/B" 21L=""~ 22L=-',
    ],
    [
      '[["path_prefix","/etc"],["regex","^(?:[a-z/.]|a[a-z/.]{11})*$"]]',
      '00EL="0" 01EL="a" 02L=- 20EL="/etC" 21EL="/etc" 22L=-',
    ],
    ['[["path_prefix","/etc"],["glob","/etc/*"]]', '00EL="a" 20EL="/etc" 22EL="/etc/a"'],
    ['[["glob","a/b"],["regex","\\\\\\\\"]]', '00EL="a" 01L="\\\\"~ 10EL="a/b" 20EL="a/B" 21L=":\\\\"~'],
    [
      '[["glob","a/b"],["regex","^\\\\./"]]',
      '00EL="a" 01L="./"~ 10EL="a/b" 11L="./a/b"~ 20EL="a/B" 21L="./:"~',
    ],
    ['[["glob","a/b"],["regex","//"]]', '00EL="a" 01L="//"~ 10EL="a/b" 11L=- 20EL="a/B" 21L="//:"~'],
    [
      '[["glob","a/b"],["regex","\\\\.\\\\."]]',
      '00EL="a" 01EL="..a" 10EL="a/b" 11L="a/../a/b"~ 20EL="a/B" 21L=".."~',
    ],
    // A glob is true only on a plain path, which never starts with /: no state left for 11.
    ['[["glob","a/b"],["regex","^/"]]', '00EL="a" 01EL="/" 10EL="a/b" 20EL="a/B" 21L="/:"~'],
    ['[["glob","a/b"],["regex","\\\\.$"]]', '00EL="a" 01L="."~ 10EL="a/b" 11L="a/b/."~ 20EL="a/B" 21L=".."~'],
    ['[["glob","a/b"],["regex","/$"]]', '00EL="a" 01EL="/" 10EL="a/b" 11L=- 20EL="a/B" 21L=":/"~'],
    ['[["glob","a/b"],["regex","^A/B$"]]', '00EL="a" 10EL="a/b" 20EL="a/B" 21E="A/B"'],
    [
      '[["command",["ls"]],["command",["rm -rf"]],["command",["sudo"]]]',
      '000L="a"~ 001L=- 002L="a sudo2"~ 010L="rm -rf"~ 012L="rm -rf sudo2"~ 020L="a rm -rf"~ 021L=- 022L=- 100L="ls"~ 200L="a ls"~ 201L=- 202L=- 210L="rm -rf ls"~ 212L="rm -rf sudo"~ 220L="rm ls -rf"~ 221L="sudo ls"~ 222L="a sudo"~',
    ],
    [
      '[["url",{"host":"api.x.io","scheme":["http","https"]}],["regex","^http:"]]',
      '00EL="ws://a" 01EL="http://a" 10EL="httP://api.x.io" 11EL="http://api.x.io" 20L="https://api.x.io/."~ 21L="http://api.x.io/."~',
    ],
    [
      '[["url",{"host":["a.io","b.io"],"port":[1,2]}]]',
      '0EL="ws://a" 1EL="ws://a.io:1" 2L="https://a.io:1/."~',
    ],
  ])("%s", (operators, expected) => {
    const parsed = JSON.parse(operators) as [string, unknown][];
    expect(witnesses(field(parsed, [{ type: "string" }]))).toBe(expected);
  });
});
