/**
 * `any` and `all` on an array of strings (field-domain.ts `#stringItemArrays`): the verifier against every valid
 * array of short strings, on generated policies and properties. A `holds` is never contradicted, every witness is
 * confirmed by the runtime, and most properties are decided.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileCondition } from "../../src/runtime/condition.js";
import { ToolPolicy } from "../../src/runtime/policy.js";
import { Verifier } from "../../src/verify/verify-properties.js";
import { loadFromText } from "./helpers.js";

const RUNS = Math.max(10, Math.round(Number(process.env.TOOLGATE_VERIFY_RUNS ?? 200) / 5));

const CHARS = ["a", "/", "."];
const STRINGS: string[] = [""];
for (let layer = [""], n = 1; n <= 2; n++) {
  layer = layer.flatMap((s) => CHARS.map((c) => s + c));
  STRINGS.push(...layer);
}
/** Every array of at most three of the strings (order and repeats do not change `any` and `all`: sets suffice). */
const ARRAYS: string[][] = [[]];
for (let i = 0; i < STRINGS.length; i++) {
  ARRAYS.push([STRINGS[i] as string]);
  for (let j = i + 1; j < STRINGS.length; j++) {
    ARRAYS.push([STRINGS[i] as string, STRINGS[j] as string]);
    for (let k = j + 1; k < STRINGS.length; k++)
      ARRAYS.push([STRINGS[i] as string, STRINGS[j] as string, STRINGS[k] as string]);
  }
}

const TOOLS = `tools:
  - name: t
    description: A tool.
    input_schema:
      type: object
      properties:
        xs: { type: array, items: { type: string, pattern: "^[a/.]*$", maxLength: 2 }, maxItems: 3 }
      required: [xs]
      additionalProperties: false
`;

const INNER = [
  { glob: "a" },
  { glob: "**/a" },
  { glob: "/**" },
  { glob: ["a/*", ".*"] },
  { path_prefix: "a" },
  { path_prefix: "/" },
  { regex: "^a" },
  { regex: "\\.$" },
  { equals: "a" },
  { prefix: "." },
  { in: ["a", "/"] },
  { not: { glob: "a/**" } },
  { glob: "*", not: { equals: "" } },
];
const inner = fc.constantFrom(...INNER);
const reader = fc.record({ op: fc.constantFrom("any", "all"), inner });
const rule = fc.record({ decision: fc.constantFrom("allow", "ask", "deny"), reader });

describe("any and all on arrays of strings", () => {
  it("never says holds where an array breaks the property; every witness is confirmed", () => {
    const tally = { holds: 0, fails: 0, unknown: 0 };
    fc.assert(
      fc.property(
        fc.array(rule, { minLength: 1, maxLength: 3 }),
        fc.constantFrom(undefined, "ask", "allow"),
        fc.record({
          kind: fc.constantFrom("never", "always"),
          action: fc.constantFrom("allow", "ask", "deny"),
        }),
        fc.option(reader, { nil: undefined }),
        (rules, otherwise, { kind, action }, where) => {
          const policy = JSON.stringify({
            version: 1,
            ...(otherwise === undefined ? {} : { otherwise: { t: otherwise } }),
            rules: rules.map((r, i) => ({
              id: `r${i}`,
              tools: ["t"],
              decision: r.decision,
              when: { xs: { [r.reader.op]: r.reader.inner } },
              reason: `r${i}`,
            })),
          });
          const { bundle, validators } = loadFromText(TOOLS, policy);
          const whereSpec = where === undefined ? undefined : { xs: { [where.op]: where.inner } };
          const [result] = new Verifier(bundle, validators).verify([
            {
              id: "p",
              tools: ["t"],
              ...(whereSpec === undefined ? {} : { where: whereSpec }),
              kind: kind as "never" | "always",
              action: action as "allow" | "ask" | "deny",
            },
          ]);
          const decide = (xs: unknown) =>
            ToolPolicy.fromStatements(bundle.statements).decide({
              callId: "c",
              toolName: "t",
              arguments: { xs },
            }).action;
          const selects =
            whereSpec === undefined
              ? () => true
              : (() => {
                  const compiled = compileCondition(whereSpec as never);
                  if (!compiled.ok) throw new Error("the where does not compile");
                  return (xs: unknown) => compiled.condition({ xs }) !== 0;
                })();
          const breaks = (xs: unknown) => {
            if (!selects(xs)) return false;
            const d = decide(xs);
            return kind === "never" ? d === action : d !== action;
          };
          const label = `${policy} ${JSON.stringify(whereSpec)} ${kind} ${action}: ${JSON.stringify(result)}`;
          if (result?.status === "holds") {
            tally.holds++;
            expect(ARRAYS.find(breaks), `holds, but breaks: ${label}`).toBeUndefined();
          } else if (result?.status === "fails") {
            tally.fails++;
            const xs = (result.witness?.arguments as { xs?: unknown } | undefined)?.xs;
            expect(breaks(xs), `witness: ${label}`).toBe(true);
            expect(result.witness?.decision, label).toBe(decide(xs));
          } else tally.unknown++;
        },
      ),
      { numRuns: RUNS },
    );
    console.log(`string arrays: ${JSON.stringify(tally)}`);
    // Decided, mostly: without the element theory every one of these was unknown.
    expect(tally.holds + tally.fails).toBeGreaterThan(tally.unknown);
    expect(tally.holds).toBeGreaterThan(0);
  }, 300_000);
});
