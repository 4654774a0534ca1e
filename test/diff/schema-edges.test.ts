import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type DiffSide, diffPolicies } from "../../src/diff/diff-policies.js";
import { boundaryValues } from "../../src/diff/schema-values.js";
import { applyMode } from "../../src/runtime/mode.js";
import { decisionController } from "../../src/testing/run-policy-tests.js";
import { loadFromText } from "../verify/helpers.js";
import { expectEveryChangeFlips } from "./diff-helpers.js";

/** A tools file with one tool `t`: a required field `f` with this schema (JSON), and an optional string `other`. */
function toolsWith(schema: unknown): string {
  return `tools:
  - name: t
    description: A tool.
    input_schema:
      type: object
      properties:
        f: ${JSON.stringify(schema)}
        other: { type: string }
      required: [f]
      additionalProperties: false
`;
}

/** Allows `t`, and denies it where `other` is `zzz` (a rule the schema change does not touch). */
const POLICY = `version: 1
allow: [t]
rules:
  - id: deny-some
    tools: [t]
    decision: deny
    when:
      other: { equals: zzz }
    reason: never
`;

function side(label: string, schema: unknown): DiffSide {
  return { label, ...loadFromText(toolsWith(schema), POLICY) };
}

function outcome(s: DiffSide, args: unknown): string {
  const controller = decisionController(s.bundle, s.validators);
  const r = controller.explain({ callId: "oracle", toolName: "t", arguments: args }, {});
  return "callId" in r ? "invalid" : applyMode(r.decision, controller.mode).decision.action;
}

const items = (schema: object, more: object = {}) => ({ type: "array", items: schema, ...more });
const str = { type: "string" };

describe("toolgate diff on a changed input schema the engine does not model", () => {
  // Each pair loosens only through the schema: the rules are the same on both sides.
  const loosenings: [string, unknown, unknown][] = [
    ["a raised maxItems", items(str, { maxItems: 2 }), items(str, { maxItems: 3 })],
    ["a lowered minItems", items(str, { minItems: 2 }), items(str, { minItems: 1 })],
    ["a widened enum of items", items({ enum: ["a"] }), items({ enum: ["a", "b"] })],
    ["a dropped uniqueItems", items(str, { uniqueItems: true, maxItems: 3 }), items(str, { maxItems: 3 })],
    [
      "a loosened pattern of items",
      items({ type: "string", pattern: "^a+$" }),
      items({ type: "string", pattern: "^[ab]+$" }),
    ],
    [
      "an additionalProperties schema widened",
      { type: "object", additionalProperties: { type: "integer" } },
      { type: "object", additionalProperties: { type: "number" } },
    ],
    [
      "a loosened anyOf branch",
      { anyOf: [{ type: "string", maxLength: 2 }, { type: "integer" }] },
      { anyOf: [{ type: "string", maxLength: 3 }, { type: "integer" }] },
    ],
    [
      "a loosened oneOf branch",
      { oneOf: [{ type: "string", maxLength: 2 }, { type: "integer" }] },
      { oneOf: [{ type: "string", maxLength: 3 }, { type: "integer" }] },
    ],
    [
      "a nested property's raised maxLength",
      {
        type: "object",
        properties: { g: { type: "string", maxLength: 2 } },
        required: ["g"],
        additionalProperties: false,
      },
      {
        type: "object",
        properties: { g: { type: "string", maxLength: 3 } },
        required: ["g"],
        additionalProperties: false,
      },
    ],
    [
      "a widened tuple position",
      { type: "array", prefixItems: [{ enum: ["a"] }], items: false, minItems: 1 },
      { type: "array", prefixItems: [{ enum: ["a", "b"] }], items: false, minItems: 1 },
    ],
    [
      "items in arrays of objects",
      items({ type: "object", properties: { n: { type: "integer", maximum: 3 } }, required: ["n"] }),
      items({ type: "object", properties: { n: { type: "integer", maximum: 5 } }, required: ["n"] }),
    ],
  ];

  for (const [name, before, after] of loosenings) {
    it(`finds ${name} loosened, with a witness both controllers confirm`, () => {
      const base = side("base", before);
      const head = side("head", after);
      const diff = diffPolicies(base, head);
      expectEveryChangeFlips(diff, base, head);
      const loosened = diff.decisions.filter((d) => d.change === "loosened");
      expect(loosened.length, name).toBeGreaterThan(0);
      for (const d of loosened) {
        expect(outcome(base, d.arguments)).toBe("invalid");
        expect(outcome(head, d.arguments)).toBe("allow");
      }
      expect(diff.engine.find((t) => t.tool === "t")?.status).toBe("complete");
    });
  }

  it("stays unknown on a tightening it cannot prove is nothing more", () => {
    const base = side("base", { type: "number" });
    const head = side("head", { type: "number", multipleOf: 5 });
    const diff = diffPolicies(base, head);
    expectEveryChangeFlips(diff, base, head);
    expect(diff.decisions.some((d) => d.change === "loosened")).toBe(false);
    expect(diff.decisions.some((d) => d.change === "tightened")).toBe(true);
    expect(diff.engine.find((t) => t.tool === "t")?.status).toBe("unknown");
  });

  it("gives values at and past each bound, item and branch of a schema", () => {
    const root = {};
    const counts = boundaryValues(items(str, { minItems: 1, maxItems: 3, uniqueItems: true }), root);
    const lengths = new Set(counts.map((v) => (v as unknown[]).length));
    for (const n of [0, 1, 2, 3, 4]) expect(lengths.has(n), `length ${n}`).toBe(true);
    expect(
      counts.some((v) => (v as string[]).length === 2 && (v as string[])[0] === (v as string[])[1]),
    ).toBe(true);
    expect(boundaryValues({ enum: ["x", "y", "z"] }, root)).toEqual(expect.arrayContaining(["x", "y", "z"]));
    const numbers = boundaryValues({ type: "integer", minimum: 2, exclusiveMaximum: 9 }, root);
    expect(numbers).toEqual(expect.arrayContaining([1, 2, 3, 8, 9, 10, 1.5]));
    const branches = boundaryValues({ anyOf: [{ const: "k" }, { type: "boolean" }] }, root);
    expect(branches).toEqual(expect.arrayContaining(["k", true, false]));
    const objects = boundaryValues(
      {
        type: "object",
        properties: { a: { enum: [1, 2] } },
        required: ["a"],
        additionalProperties: { const: 7 },
      },
      root,
    );
    expect(objects).toEqual(expect.arrayContaining([{ a: 2 }, {}, { a: 1, x: 7 }]));
    const referenced = boundaryValues(
      { $ref: "#/$defs/n" },
      { $defs: { n: { type: "string", maxLength: 2, pattern: "^q" } } },
    );
    expect(referenced).toEqual(expect.arrayContaining(["q", "qqq"]));
  });
});

describe("toolgate diff against brute force on small changed schemas", () => {
  const WORDS = ["", "a", "b", "c", "aa", "ab", "ba", "abc"];
  const element = fc.oneof(
    fc.subarray(["a", "b", "c"], { minLength: 1 }).map((e) => ({ enum: e })),
    fc.integer({ min: 0, max: 3 }).map((n) => ({ type: "string", maxLength: n })),
    fc.constantFrom("^a*$", "^[ab]*$", "^b", "c$").map((p) => ({ type: "string", pattern: p })),
  );
  const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
  const array = fc
    .record({
      items: element,
      minItems: optional(fc.integer({ min: 0, max: 2 })),
      maxItems: optional(fc.integer({ min: 0, max: 3 })),
      uniqueItems: optional(fc.boolean()),
    })
    .map((r) => JSON.parse(JSON.stringify({ type: "array", ...r })));
  const object = fc
    .record({ g: element, required: fc.boolean(), more: fc.oneof(fc.boolean(), element) })
    .map((r) => ({
      type: "object",
      properties: { g: r.g },
      required: r.required ? ["g"] : [],
      additionalProperties: r.more,
    }));
  const anyOf = fc.tuple(element, element).map(([a, b]) => ({ anyOf: [a, b] }));
  const kinds = { array, object, anyOf, element } as const;
  const pair = fc
    .constantFrom(...(Object.keys(kinds) as (keyof typeof kinds)[]))
    .chain((k) => fc.tuple(kinds[k], kinds[k]));

  /** Every value of the kinds above over a few short words: arrays up to 4 long, objects of `g` and `x`. */
  const values: unknown[] = [...WORDS];
  const arrays = (n: number): string[][] =>
    n === 0
      ? [[]]
      : arrays(n - 1).flatMap((a) => (a.length === n - 1 ? WORDS.slice(0, 5).map((w) => [...a, w]) : []));
  for (let n = 0; n <= 4; n++) values.push(...arrays(n));
  for (const g of [undefined, ...WORDS])
    for (const x of [undefined, "a", "c", 1]) values.push(JSON.parse(JSON.stringify({ g, x })));

  it("reports a loosening wherever one of the small values is refused before and allowed after", () => {
    let loosenings = 0;
    fc.assert(
      fc.property(pair, ([before, after]) => {
        const base = side("base", before);
        const head = side("head", after);
        const validBase = base.validators.get("t");
        const validHead = head.validators.get("t");
        if (validBase === undefined || validHead === undefined) throw new Error("no validator for t");
        const looser = values.find((f) => validHead({ f }).ok && !validBase({ f }).ok);
        const diff = diffPolicies(base, head);
        expectEveryChangeFlips(diff, base, head);
        if (looser === undefined) return;
        loosenings++;
        expect(
          diff.decisions.some((d) => d.change === "loosened"),
          `${JSON.stringify(before)} → ${JSON.stringify(after)}: ${JSON.stringify(looser)} is refused before and allowed after`,
        ).toBe(true);
      }),
      { numRuns: 200 },
    );
    expect(loosenings).toBeGreaterThan(20);
  });
});
