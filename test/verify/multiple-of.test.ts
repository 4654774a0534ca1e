/**
 * `multipleOf` as the validator reads it: ajv divides in floating point and asks whether the quotient is an integer,
 * so `0.15` is no multiple of `0.05` and `1000.0000000000001` is one. The verifier's check, the multiples it tries
 * and the numbers that stand for each piece of the number line are compared with ajv itself on decimal steps such
 * as money amounts are written with.
 */
import Ajv from "ajv";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ToolPolicy } from "../../src/runtime/policy.js";
import { numberRepresentatives } from "../../src/verify/field-domain.js";
import { isMultipleOf, multiplesNear } from "../../src/verify/schema-facts.js";
import { Verifier } from "../../src/verify/verify-properties.js";
import { loadFromText } from "./helpers.js";

const RUNS = Number(process.env.TOOLGATE_VERIFY_RUNS ?? 200);

const ajv = new Ajv();
const validators = new Map<number, (x: number) => boolean>();
/** Whether ajv counts `x` a multiple of `m`. */
function ajvMultiple(x: number, m: number): boolean {
  let validate = validators.get(m);
  if (validate === undefined) {
    const compiled = ajv.compile({ type: "number", multipleOf: m });
    validate = (v: number) => compiled(v);
    validators.set(m, validate);
  }
  return validate(x);
}

/** The double `steps` places from `x` (test's own: through the bits of a positive double). */
function step(x: number, steps: number): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0) + BigInt(x < 0 ? -steps : steps);
  if (bits < 0n) return Number.NaN;
  view.setBigUint64(0, bits);
  return (x < 0 ? -1 : 1) * view.getFloat64(0);
}

const STEPS = [0.01, 0.05, 0.1, 0.25, 0.3, 0.5, 1.5, 0.001, 0.07, 3, 7];
const step$ = fc.constantFrom(...STEPS);
/** Doubles near the k-th multiple of a step, on either side of zero. */
const near = fc
  .tuple(step$, fc.integer({ min: -30_000, max: 30_000 }), fc.integer({ min: -8, max: 8 }))
  .map(([m, k, d]) => ({ m, k, x: step(k * m, d) }))
  .filter(({ x }) => Number.isFinite(x));

describe("multipleOf as the validator reads it", () => {
  it("the check is ajv's, on doubles near multiples and on plain decimals", () => {
    fc.assert(
      fc.property(near, ({ m, x }) => {
        expect(isMultipleOf(x, m), `${x} of ${m}`).toBe(ajvMultiple(x, m));
      }),
      { numRuns: RUNS * 10 },
    );
    expect(isMultipleOf(0.15, 0.05)).toBe(false);
    expect(isMultipleOf(1000.0000000000001, 0.05)).toBe(true);
    expect(isMultipleOf(1000.05, 0.05)).toBe(false);
    expect(isMultipleOf(0.1, 0.05)).toBe(true);
    expect(isMultipleOf(-0, 0.5)).toBe(true);
    expect(isMultipleOf(1, 0)).toBe(false);
    // A quotient of 1e21 or more prints with an exponent, which parseInt reads as its first digit.
    expect(isMultipleOf(1e21, 1)).toBe(false);
    expect(ajvMultiple(1e21, 1)).toBe(false);
  });

  it("the k-th multiples tried are every double ajv counts as one near k × m, and only those", () => {
    fc.assert(
      fc.property(near, ({ m, k, x }) => {
        const tried = multiplesNear(k, m);
        for (const v of tried) expect(ajvMultiple(v, m), `${v} of ${m}`).toBe(true);
        if (ajvMultiple(x, m) && x / m === k) expect(tried, `${x} is the ${k}-th of ${m}`).toContain(x);
      }),
      { numRuns: RUNS * 10 },
    );
    expect(multiplesNear(20_000, 0.05)).toContain(1000.0000000000001);
    expect(multiplesNear(3, 0.05)).not.toContain(0.15);
    // Neither 0.15 nor 0.15000000000000002 (3 × 0.05): ajv counts no double the third multiple of 0.05.
    expect(multiplesNear(3, 0.05)).toEqual([]);
    expect(ajvMultiple(0.15000000000000002, 0.05)).toBe(false);
    expect(multiplesNear(0, 0.05)).toContain(0);
    expect(multiplesNear(1e308, 10)).toEqual([]);
  });

  it("each piece between bounds has a number of every kind of validity it holds, or is marked uncertain", () => {
    // Bounds near multiples of the step (money amounts and the bounds rules put on them), a step, and a second
    // step for a piece that must hold a multiple of both.
    const bound = fc
      .tuple(step$, fc.integer({ min: -200, max: 200 }), fc.integer({ min: -2, max: 2 }))
      .map(([m, k, d]) => step(k * m, d))
      .filter((x) => Number.isFinite(x));
    fc.assert(
      fc.property(
        fc.uniqueArray(bound, { minLength: 1, maxLength: 4 }),
        fc.uniqueArray(step$, { minLength: 1, maxLength: 2 }),
        fc.constantFrom("none" as const, "some" as const, "all" as const),
        (points, multiples, integers) => {
          const { values, uncertain } = numberRepresentatives(points, multiples, integers);
          const sorted = [...new Set(points)].sort((a, b) => a - b);
          const edges = [Number.NEGATIVE_INFINITY, ...sorted, Number.POSITIVE_INFINITY];
          const kind = (v: number) =>
            `${integers === "none" || Number.isInteger(v)}${multiples.map((m) => ajvMultiple(v, m)).join("")}`;
          for (let i = 0; i + 1 < edges.length; i++) {
            const lo = edges[i] as number;
            const hi = edges[i + 1] as number;
            if (uncertain.some((u) => u > lo && u < hi)) continue;
            const inside = values.filter((v) => v > lo && v < hi);
            const kinds = new Set(inside.map(kind));
            // Every double near a multiple of either step inside the piece, where the piece is short enough to
            // list them; its kind must be among the representatives'.
            for (const m of multiples) {
              const from = Number.isFinite(lo) ? Math.floor(lo / m) - 1 : Math.ceil(hi / m) - 80;
              const to = Number.isFinite(hi) ? Math.ceil(hi / m) + 1 : from + 80;
              if (to - from > 400) continue;
              for (let k = from; k <= to; k++) {
                for (let d = -6; d <= 6; d++) {
                  const x = step(k * m, d);
                  if (!(x > lo && x < hi) || !multiples.some((n) => ajvMultiple(x, n))) continue;
                  // Where every side reads integers, a fraction is valid nowhere.
                  if (integers === "all" && !Number.isInteger(x)) continue;
                  expect(kinds, `${x} in (${lo}, ${hi}) of ${multiples}`).toContain(kind(x));
                }
              }
            }
          }
        },
      ),
      { numRuns: RUNS },
    );
  });
});

const TRANSFER = (multipleOf: number) =>
  JSON.stringify({
    tools: [
      {
        name: "transfer",
        description: "Moves money.",
        input_schema: {
          type: "object",
          properties: { amount: { type: "number", minimum: 0, maximum: 100000, multipleOf } },
          required: ["amount"],
          additionalProperties: false,
        },
      },
    ],
  });

describe("verify on money amounts with a decimal multipleOf", () => {
  const verify = (
    multipleOf: number,
    rules: unknown[],
    where: unknown,
    kind: "never" | "always",
    action: string,
  ) => {
    const policy = { version: 1, otherwise: { transfer: "ask" }, rules };
    const { bundle, validators: v } = loadFromText(TRANSFER(multipleOf), JSON.stringify(policy));
    const [result] = new Verifier(bundle, v).verify([
      { id: "p", tools: ["transfer"], where: where as never, kind, action: action as never },
    ]);
    if (result?.witness !== undefined) {
      // The witness is valid and gets the decision it is reported with.
      const decision = ToolPolicy.fromStatements(bundle.statements).decide({
        callId: "c",
        toolName: "transfer",
        arguments: result.witness.arguments,
      });
      expect(v.get("transfer")?.(result.witness.arguments).ok).toBe(true);
      expect(decision.action).toBe(result.witness.decision);
    }
    return result;
  };
  const rule = (id: string, decision: string, when: unknown) => ({
    id,
    tools: ["transfer"],
    decision,
    when,
    reason: "r",
  });

  it("finds the amount just above a bound that the validator counts a multiple", () => {
    const rules = [
      rule("small", "allow", { amount: { max: 1000 } }),
      rule("large", "deny", { amount: { min: 1000.05 } }),
    ];
    const above = verify(0.05, rules, { amount: { min: 1000, not: { equals: 1000 } } }, "always", "deny");
    expect(above?.status).toBe("fails");
    expect(above?.witness?.arguments).toEqual({ amount: 1000.0000000000001 });
    expect(verify(0.05, rules, undefined, "never", "ask")?.status).toBe("fails");
  });

  it("a value the validator refuses is no call: 0.15 of 0.05 never gets a decision", () => {
    const rules = [rule("small", "allow", { amount: { max: 1000 } })];
    expect(verify(0.05, rules, { amount: { equals: 0.15 } }, "never", "allow")?.status).toBe("holds");
    expect(verify(0.05, rules, { amount: { equals: 0.1 } }, "never", "allow")?.status).toBe("fails");
  });

  it("a piece between two bounds holds the doubles next to a multiple", () => {
    const rules = [rule("six", "deny", { amount: { equals: 0.06 } })];
    const around = verify(0.01, rules, { amount: { min: 0.055, max: 0.065 } }, "always", "deny");
    expect(around?.status).toBe("fails");
    expect(around?.witness?.arguments).toEqual({ amount: 0.060000000000000005 });
  });
});
