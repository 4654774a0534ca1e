/**
 * Glob and regex statements are matched through pattern sets, and evaluation stops once nothing left can change
 * the decision. Stated in words: `decide` gives exactly the decision that evaluating every statement one by one
 * gives (`explain`), for policies of many glob and regex rules mixed with other rules, on paths of every shape.
 */
import fc from "fast-check";
import { type OperatorSpec, type PolicyAction, type StatementSpec, ToolPolicy } from "toolgate/runtime";
import { describe, expect, it } from "vitest";

const GLOBS = [
  "**/.env*",
  "**/.ssh/**",
  "**/*.pem",
  "/**",
  "~/**",
  "src/**",
  "src/*.ts",
  "**/cache1*/**",
  "{src,docs}/**",
  "[a-s]*/**",
  "**/Caf\u00e9/*",
  "**",
] as const;
const REGEXES: readonly (string | { pattern: string; flags?: string })[] = [
  "^src/",
  "\\.env",
  "(^|/)tmp1[._-][^/]*$",
  "\\bkey\\b",
  "^[a-z./]+$",
  { pattern: "\\.ENV", flags: "i" },
  { pattern: "^docs$", flags: "m" },
  { pattern: "caf\u00e9", flags: "i" },
  "x",
  "\\d{2,}",
  // Past the work bound on the long path below: a maybe, which only deny and ask take.
  "(a|b){1,1000}c",
];
const PATHS = [
  "src/index.ts",
  "src/.env",
  "a/.ENV.local",
  "/etc/passwd",
  "~/.ssh/id_rsa",
  "C:\\x\\.env",
  "src/../../x",
  "docs\nsrc",
  "cache12/a",
  "tmp1.log",
  "a/tmp1-x",
  "Caf\u00e9/x",
  "Cafe\u0301/x",
  "GIT~1/config",
  "key.pem",
  "a b/key c",
  "b.md",
  "x".repeat(300),
  "ab".repeat(40_000),
] as const;

const actionArb = fc.constantFrom<PolicyAction>("allow", "ask", "deny");
const operatorArb: fc.Arbitrary<OperatorSpec> = fc.oneof(
  { arbitrary: fc.constantFrom(...GLOBS).map((glob) => ({ glob })), weight: 4 },
  {
    arbitrary: fc
      .uniqueArray(fc.constantFrom(...GLOBS), { minLength: 1, maxLength: 3 })
      .map((glob) => ({ glob })),
    weight: 2,
  },
  { arbitrary: fc.constantFrom(...REGEXES).map((regex) => ({ regex }) as OperatorSpec), weight: 4 },
  { arbitrary: fc.constantFrom(...PATHS).map((equals) => ({ equals })), weight: 1 },
  { arbitrary: fc.constantFrom(...GLOBS).map((glob) => ({ not: { glob } })), weight: 1 },
  { arbitrary: fc.constantFrom("src/", ".env").map((prefix) => ({ prefix, glob: "**" })), weight: 1 },
  // A regex beside other operators is evaluated by its operator, which reads the answer of a set of the same
  // field holding the same regex when the set has just matched the value.
  { arbitrary: fc.constantFrom(...REGEXES).map((regex) => ({ not: { regex } }) as OperatorSpec), weight: 2 },
  {
    arbitrary: fc
      .tuple(fc.constantFrom(...REGEXES), fc.constantFrom(...GLOBS))
      .map(([regex, glob]) => ({ regex, not: { glob } }) as OperatorSpec),
    weight: 2,
  },
);
const statementArb = fc.record({
  action: actionArb,
  field: fc.constantFrom("path", "other", "deep.path"),
  operator: operatorArb,
  kind: fc.constantFrom<"rule" | "set">("rule", "rule", "rule", "set"),
});
const argumentsArb = fc.oneof(
  { arbitrary: fc.constantFrom(...PATHS).map((path) => ({ path }) as unknown), weight: 8 },
  { arbitrary: fc.constantFrom(...PATHS).map((path) => ({ path, other: path }) as unknown), weight: 2 },
  { arbitrary: fc.constantFrom(...PATHS).map((path) => ({ deep: { path } }) as unknown), weight: 1 },
  { arbitrary: fc.constantFrom<unknown>({}, { path: 42 }, { path: null }, { path: ["a"] }, null), weight: 1 },
);

describe("pattern sets and early stopping decide as every statement one by one does", () => {
  it("decide equals explain's decision on policies of many glob and regex rules (property)", () => {
    fc.assert(
      fc.property(
        fc.array(statementArb, { minLength: 1, maxLength: 40 }),
        fc.array(argumentsArb, { minLength: 1, maxLength: 5 }),
        (drawn, calls) => {
          const statements: StatementSpec[] = drawn.map((s, i) => ({
            id: `s${i}`,
            kind: s.kind,
            action: s.action,
            tools: ["read_file"],
            reason: `reason ${i % 3}`,
            ...(s.kind === "rule" ? { when: { [s.field]: s.operator } } : {}),
          }));
          const policy = ToolPolicy.fromStatements(statements);
          // A policy that only explains never builds a set: each of its operators computes its own answer.
          const alone = ToolPolicy.fromStatements(statements);
          for (const args of [...calls, ...calls]) {
            const call = { callId: "c", toolName: "read_file", arguments: args };
            const decided = policy.decide(call);
            expect(decided).toStrictEqual(policy.explain(call).decision);
            expect(decided).toStrictEqual(alone.explain(call).decision);
          }
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
