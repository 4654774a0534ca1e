/**
 * `Verifier` against brute force. Small policies on one tool with one string field whose schema allows only the
 * characters `a`, `b`, `/`, `.` and at most three of them (so every valid call can be listed: at most 85 strings,
 * and the missing field when it is optional), rules allow/ask/deny with `glob`, `regex`, `equals`, `prefix`,
 * `path_prefix` and `not` on the field, an optional `otherwise`, a mode; small properties. Every valid call is
 * decided by the real controller (`explain`, after the mode). A `holds` is never contradicted by a listed call; a
 * `fails` witness is a valid call that the real controller gives the forbidden decision, and that `where` selects.
 *
 * TOOLGATE_VERIFY_RUNS sets the number of runs (default 200), TOOLGATE_VERIFY_ALPHABET fixes the alphabet (an index
 * of ALPHABETS), TOOLGATE_VERIFY_EXTRA the extra field (a key of EXTRAS), TOOLGATE_VERIFY_SKIPS prints why a
 * generated configuration does not load.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bundleParts } from "../../src/bundle/bundle-parts.js";
import { assembleController } from "../../src/runtime/assemble.js";
import { type ConditionSpec, compileCondition } from "../../src/runtime/condition.js";
import { applyMode } from "../../src/runtime/mode.js";
import { ToolPolicy } from "../../src/runtime/policy.js";
import type { PolicyAction } from "../../src/runtime/types.js";
import { type Property, Verifier } from "../../src/verify/verify-properties.js";
import { loadFromText } from "./helpers.js";

const RUNS = Number(process.env.TOOLGATE_VERIFY_RUNS ?? 200);
/**
 * The characters a scenario's strings are made of: {a, b, /, .}; one with a capital and a backslash
 * (case folding, Windows separators: paths outside the simple subset); one for shell commands (compound commands).
 */
const ALPHABETS: readonly (readonly string[])[] = [
  ["a", "b", "/", "."],
  ["a", "A", "/", "\\"],
  ["l", "s", " ", "&"],
  // No schema pattern: any string is valid, and the calls listed are a sample (the Kelvin sign and the long s fold
  // to k and s; é is outside ASCII). A holds must still not be contradicted by any of them.
  ["s", "k", "\u212a", "\u017f", "/", "\u00e9"],
];
/** The alphabets whose strings are only a sample of the valid ones. */
const SAMPLED = new Set([3]);
const CLASS: Readonly<Record<string, string>> = { "/": "/", ".": ".", "\\": "\\\\", " ": " ", "&": "&" };

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

const ALL_CHARS = [...new Set(ALPHABETS.flat())];
const text = fc.array(fc.constantFrom(...ALL_CHARS), { maxLength: 3 }).map((cs) => cs.join(""));
const GLOB_PARTS = ["a", "b", "A", "*", "**", "?", ".a", "a.b", "*.b", "[ab]", "{a,b}", "s", "K", "\u00e9"];
const glob = fc
  .tuple(fc.boolean(), fc.array(fc.constantFrom(...GLOB_PARTS), { minLength: 1, maxLength: 2 }))
  .map(([absolute, parts]) => `${absolute ? "/" : ""}${parts.join("/")}`);
const REGEX_PARTS = [
  "a",
  "b",
  "A",
  "l",
  "s",
  " ",
  "&",
  "\\\\",
  "/",
  "\\.",
  ".",
  "[ab]",
  "a*",
  "(?:a|b)",
  "/.*",
  "b+",
  "[^a]",
  "\\s",
  "k",
  "S",
  "\u00c9",
];
const regex = fc
  .tuple(
    fc.boolean(),
    fc.array(fc.constantFrom(...REGEX_PARTS), { minLength: 1, maxLength: 3 }),
    fc.boolean(),
    fc.constantFrom(undefined, "i"),
  )
  .map(([start, parts, end, flags]) => {
    const pattern = `${start ? "^" : ""}${parts.join("")}${end ? "$" : ""}`;
    return flags === undefined ? pattern : { pattern, flags };
  });
const PATH_PREFIXES = ["a", "a/b", "/a", "b", "/", "a/", "A"];
const COMMANDS = ["l", "ls", "s", "l s"];

const leaf: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  glob.map((g) => ({ glob: g })),
  regex.map((r) => ({ regex: r })),
  text.map((t) => ({ equals: t })),
  fc.array(text, { minLength: 1, maxLength: 3 }).map((list) => ({ in: list })),
  text.map((t) => ({ prefix: t })),
  fc.constantFrom(...PATH_PREFIXES).map((p) => ({ path_prefix: p })),
  fc.boolean().map((b) => ({ exists: b })),
  fc.array(fc.constantFrom(...COMMANDS), { minLength: 1, maxLength: 2 }).map((list) => ({ command: list })),
);
const operators: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  { weight: 4, arbitrary: leaf },
  { weight: 1, arbitrary: leaf.map((l) => ({ not: l })) },
  { weight: 1, arbitrary: fc.tuple(leaf, leaf).map(([a, b]) => ({ ...b, ...a })) },
);
/**
 * The extra field `n` a scenario may have, with its schema and every valid value: numbers cut by bounds and
 * `multipleOf`, an enum of mixed types, booleans, a nullable integer.
 */
const EXTRAS: Readonly<
  Record<string, { readonly schema: Record<string, unknown>; readonly values: readonly unknown[] }>
> = {
  integer: { schema: { type: "integer", minimum: 0, maximum: 6 }, values: [0, 1, 2, 3, 4, 5, 6] },
  half: {
    schema: { type: "number", minimum: 0, maximum: 3, multipleOf: 0.5 },
    values: [0, 0.5, 1, 1.5, 2, 2.5, 3],
  },
  enum: { schema: { enum: ["x", "y", "xy", 1, null] }, values: ["x", "y", "xy", 1, null] },
  boolean: { schema: { type: "boolean" }, values: [true, false] },
  nullable: { schema: { type: ["integer", "null"], minimum: 1, maximum: 3 }, values: [1, 2, 3, null] },
  array: {
    schema: { type: "array", items: { type: "string", enum: ["x", "y"] }, maxItems: 2 },
    values: [[], ["x"], ["y"], ["x", "x"], ["x", "y"], ["y", "x"], ["y", "y"]],
  },
  exclusive: {
    schema: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 2.5, multipleOf: 0.5 },
    values: [0.5, 1, 1.5, 2],
  },
  // Unbounded numbers: the values listed are a sample of the valid ones (a holds must not be contradicted by them).
  number: {
    schema: { type: "number" },
    values: [-2, -1, -0.5, 0, 0.25, 0.5, 0.75, 1, 1.5, 2, 2.25, 2.5, 2.75, 3, 5, 6.5, 7, 7.25, 8, 100],
  },
  unboundedInteger: { schema: { type: "integer" }, values: [-3, -2, -1, 0, 1, 2, 3, 4, 6, 7, 8, 9, 1000] },
  // An object whose property `b` conditions read as `n.b` (and `n` itself).
  object: {
    schema: {
      type: "object",
      properties: { b: { type: ["string", "integer"], enum: ["x", "y", 1] } },
      additionalProperties: false,
    },
    values: [{}, { b: "x" }, { b: "y" }, { b: 1 }],
  },
  requiredObject: {
    schema: {
      type: "object",
      properties: { b: { type: "string", enum: ["x", "y"] } },
      required: ["b"],
      additionalProperties: false,
    },
    values: [{ b: "x" }, { b: "y" }],
  },
};
const NUMBERS = [-1, 0, 0.5, 1, 2, 2.5, 3, 7];
const scalar = fc.oneof(fc.constantFrom(...NUMBERS), fc.constantFrom("x", "y", "xy", true, false, null));
const extraLeaf: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.constantFrom(...NUMBERS).map((v) => ({ min: v })),
  fc.constantFrom(...NUMBERS).map((v) => ({ max: v })),
  scalar.map((v) => ({ equals: v })),
  fc.array(scalar, { minLength: 1, maxLength: 3 }).map((list) => ({ in: list })),
  fc.boolean().map((b) => ({ exists: b })),
  fc.constantFrom({ prefix: "x" }, { regex: "^x" }),
  fc.constantFrom<Record<string, unknown>>(
    { any: { equals: "x" } },
    { all: { equals: "y" } },
    { any: { not: { equals: "x" } } },
    { equals: ["x"] },
    { in: [["x", "y"], []] },
  ),
);
const extraOperators: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  { weight: 3, arbitrary: extraLeaf },
  { weight: 1, arbitrary: extraLeaf.map((l) => ({ not: l })) },
  { weight: 1, arbitrary: fc.tuple(extraLeaf, extraLeaf).map(([a, b]) => ({ ...b, ...a })) },
);
/** A condition on the fields: on f, on g, on both, or (with an extra field) on n with or without f. */
const condition = (
  twoFields: boolean,
  extra: string,
): fc.Arbitrary<Record<string, Record<string, unknown>>> => {
  const options: fc.Arbitrary<Record<string, Record<string, unknown>>>[] = [operators.map((o) => ({ f: o }))];
  if (twoFields) {
    options.push(
      operators.map((o) => ({ g: o })),
      fc.tuple(operators, operators).map(([a, b]) => ({ f: a, g: b })),
    );
  }
  if (extra !== "none") {
    options.push(
      extraOperators.map((o) => ({ n: o })),
      extraOperators.map((o) => ({ n: o })),
      fc.tuple(operators, extraOperators).map(([a, b]) => ({ f: a, n: b })),
    );
  }
  if (extra === "object" || extra === "requiredObject") {
    options.push(
      extraOperators.map((o) => ({ "n.b": o })),
      extraOperators.map((o) => ({ "n.b": o })),
      fc.tuple(extraOperators, extraOperators).map(([a, b]) => ({ n: a, "n.b": b })),
    );
  }
  return fc.oneof(...options);
};
const action = fc.constantFrom<PolicyAction>("allow", "ask", "deny");
/** A context condition on `env` (the context schema: an optional `env`, dev or prod). */
const contextCondition = fc.constantFrom<Record<string, Record<string, unknown>>>(
  { env: { equals: "prod" } },
  { env: { not: { equals: "dev" } } },
  { env: { exists: true } },
  { env: { in: ["dev"] } },
);

const scenario = fc
  .tuple(
    fc.boolean(),
    process.env.TOOLGATE_VERIFY_EXTRA === undefined
      ? fc.constantFrom("none", "none", ...Object.keys(EXTRAS))
      : fc.constant(process.env.TOOLGATE_VERIFY_EXTRA),
  )
  .chain(([twoFields, extra]) =>
    fc.record({
      twoFields: fc.constant(twoFields),
      extra: fc.constant(extra),
      alphabet:
        process.env.TOOLGATE_VERIFY_ALPHABET === undefined
          ? fc.integer({ min: 0, max: ALPHABETS.length - 1 })
          : fc.constant(Number(process.env.TOOLGATE_VERIFY_ALPHABET)),
      maxLength: fc.integer({ min: 0, max: twoFields || extra !== "none" ? 2 : 4 }),
      required: fc.boolean(),
      requiredG: fc.boolean(),
      requiredN: fc.boolean(),
      rules: fc.array(
        fc.record({
          decision: action,
          when: fc.option(condition(twoFields, extra), { nil: undefined }),
          context: fc.option(contextCondition, { freq: 4, nil: undefined }),
        }),
        {
          minLength: 1,
          maxLength: 4,
        },
      ),
      otherwise: fc.option(action, { nil: undefined }),
      set: fc.option(action, { freq: 4, nil: undefined }),
      mode: fc.constantFrom("enforce", "enforce", "ci", "observe"),
      properties: fc.array(
        fc.record({
          where: fc.option(condition(twoFields, extra), { nil: undefined }),
          context: fc.option(contextCondition, { freq: 4, nil: undefined }),
          kind: fc.constantFrom<"never" | "always">("never", "always"),
          action,
        }),
        { minLength: 1, maxLength: 3 },
      ),
    }),
  );

type Scenario = typeof scenario extends fc.Arbitrary<infer S> ? S : never;

function files(s: Scenario): { tools: string; policy: string; config: string } {
  const chars = ALPHABETS[s.alphabet] as readonly string[];
  const pattern = `^[${chars.map((c) => CLASS[c] ?? c).join("")}]*$`;
  const field: Record<string, unknown> = SAMPLED.has(s.alphabet)
    ? { type: "string", maxLength: s.maxLength }
    : { type: "string", maxLength: s.maxLength, pattern };
  const required = [
    ...(s.required ? ["f"] : []),
    ...(s.twoFields && s.requiredG ? ["g"] : []),
    ...(s.extra !== "none" && s.requiredN ? ["n"] : []),
  ];
  const properties: Record<string, unknown> = s.twoFields ? { f: field, g: field } : { f: field };
  if (s.extra !== "none") properties.n = EXTRAS[s.extra]?.schema;
  const tools = {
    tools: [
      {
        name: "t",
        description: "A tool.",
        input_schema: {
          type: "object",
          properties,
          ...(required.length > 0 ? { required } : {}),
          additionalProperties: false,
        },
      },
    ],
  };
  const policy = {
    version: 1,
    rules: s.rules.map((r, i) => ({
      id: `r${i}`,
      tools: ["t"],
      decision: r.decision,
      ...(r.when === undefined ? {} : { when: r.when }),
      ...(r.context === undefined ? {} : { context: r.context }),
      reason: `rule ${i}`,
    })),
    ...(s.otherwise === undefined ? {} : { otherwise: { t: s.otherwise } }),
    ...(s.set === undefined ? {} : { [s.set]: ["t"] }),
  };
  const context =
    "context_schema:\n  type: object\n  properties:\n    env: { type: string, enum: [dev, prod] }\n  additionalProperties: false\n";
  return {
    tools: JSON.stringify(tools),
    policy: JSON.stringify(policy),
    config: `mode: ${s.mode}\n${context}`,
  };
}

/** Every valid call of a scenario. */
function callsOf(s: Scenario): Record<string, unknown>[] {
  const chars = ALPHABETS[s.alphabet] as readonly string[];
  const values: (string | undefined)[] = allStrings(chars, s.maxLength);
  const fs = s.required ? values : [...values, undefined];
  const gs = !s.twoFields ? [undefined] : s.requiredG ? values : [...values, undefined];
  const MISSING = Symbol("missing");
  const extra = EXTRAS[s.extra]?.values;
  const ns: unknown[] = extra === undefined ? [MISSING] : s.requiredN ? [...extra] : [...extra, MISSING];
  const out: Record<string, unknown>[] = [];
  for (const f of fs) {
    for (const g of gs) {
      for (const n of ns) {
        out.push({
          ...(f === undefined ? {} : { f }),
          ...(g === undefined ? {} : { g }),
          ...(n === MISSING ? {} : { n }),
        });
      }
    }
  }
  return out;
}

const tally = { runs: 0, skipped: 0, holds: 0, fails: 0, unknown: 0, unknownButHolds: 0, unknownButFails: 0 };

describe("Verifier against brute force", () => {
  it("never says holds where a valid call breaks the property; every witness is confirmed", () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const { tools, policy, config } = files(s);
        let loaded: ReturnType<typeof loadFromText>;
        try {
          loaded = loadFromText(tools, policy, config);
        } catch (error) {
          if (process.env.TOOLGATE_VERIFY_SKIPS !== undefined) console.log(String(error).slice(0, 300));
          tally.skipped++;
          return;
        }
        tally.runs++;
        const { bundle, validators } = loaded;
        const handlers = { t: () => undefined };
        const controller = assembleController(bundleParts(bundle, validators), { handlers });
        const decide = (
          args: Record<string, unknown>,
          context: Record<string, unknown>,
        ): PolicyAction | "invalid" => {
          const explained = controller.explain({ callId: "c", toolName: "t", arguments: args }, context);
          if ("callId" in explained) return "invalid";
          return applyMode(explained.decision, bundle.mode).decision.action;
        };
        const toolPolicy = ToolPolicy.fromStatements(bundle.statements);
        const calls = callsOf(s).flatMap((args) =>
          [{}, { env: "dev" }, { env: "prod" }].map((context) => ({ args, context })),
        );
        const decisions = calls.map(({ args, context }) => {
          const d = decide(args, context);
          expect(
            d,
            `every listed call is valid: ${JSON.stringify(args)} ${JSON.stringify(context)}`,
          ).not.toBe("invalid");
          // The verifier is about the decisions `handle` makes: `decide` (with its indexes) must agree with `explain`.
          const fast = applyMode(
            toolPolicy.decide({ callId: "c", toolName: "t", arguments: args }, context),
            bundle.mode,
          );
          if (fast.decision.action !== d) {
            expect.fail(
              `decide says ${fast.decision.action}, explain ${d}: ${JSON.stringify(args)} ${JSON.stringify(context)} ${policy}`,
            );
          }
          return d;
        });
        const properties: Property[] = s.properties.map((p, i) => ({
          id: `p${i}`,
          tools: ["t"],
          ...(p.where === undefined ? {} : { where: p.where as ConditionSpec }),
          ...(p.context === undefined ? {} : { context: p.context as ConditionSpec }),
          kind: p.kind,
          action: p.action,
        }));
        const results = new Verifier(bundle, validators).verify(properties);
        properties.forEach((p, i) => {
          const result = results[i];
          const where =
            p.where === undefined
              ? () => 1
              : (compileCondition(p.where) as { ok: true; condition: (v: unknown) => number }).condition;
          const inContext =
            p.context === undefined
              ? () => 1
              : (compileCondition(p.context) as { ok: true; condition: (v: unknown) => number }).condition;
          const breaks = (args: unknown, context: unknown, d: string) =>
            where(args) !== 0 &&
            inContext(context) !== 0 &&
            (p.kind === "never" ? d === p.action : d !== p.action);
          const counter = calls.find((call, j) => breaks(call.args, call.context, decisions[j] as string));
          const label = `${JSON.stringify(p)} on ${tools} ${policy} (${config.trim()}): ${JSON.stringify(result)}`;
          expect(result?.status, label).toBeDefined();
          if (result?.status === "holds") {
            tally.holds++;
            expect(counter, `holds, but ${JSON.stringify(counter)} breaks it: ${label}`).toBeUndefined();
          } else if (result?.status === "fails") {
            tally.fails++;
            const witness = result.witness;
            expect(witness, label).toBeDefined();
            const args = witness?.arguments as Record<string, unknown>;
            const context = witness?.context as Record<string, unknown>;
            const d = decide(args, context);
            expect(d, `witness valid: ${label}`).not.toBe("invalid");
            expect(breaks(args, context, d), `witness breaks it: ${label}`).toBe(true);
            expect(witness?.decision, label).toBe(d);
          } else {
            tally.unknown++;
            if (counter === undefined) tally.unknownButHolds++;
            else {
              tally.unknownButFails++;
              if (process.env.TOOLGATE_VERIFY_SHOW_MISSED !== undefined)
                console.log(`missed ${JSON.stringify(counter)}: ${label}`);
            }
          }
        });
      }),
      { numRuns: RUNS },
    );
    console.log(`brute force: ${JSON.stringify(tally)}`);
    // Completeness, loosely: the engine decides almost every property of these small policies (about 2 % come out
    // unknown). A decision model that admitted every action everywhere would pass the checks above and fail here.
    const decided = tally.holds + tally.fails;
    expect(decided).toBeGreaterThan(RUNS / 2);
    expect(tally.unknown).toBeLessThanOrEqual(0.1 * (decided + tally.unknown));
    expect(tally.holds).toBeGreaterThan(decided / 10);
  }, 600_000);
});
