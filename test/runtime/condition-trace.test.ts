/**
 * `explain --trace` evaluates each operator alone; the invariant that makes it trustworthy: for every rule
 * and every call, the operators' results combine (all true → true, any false → false, else maybe) into
 * exactly how the policy judged the rule — certain, possible (a maybe that counted) or no match. And for
 * `command`, the matcher's trace agrees with `matchCommand` itself.
 */
import fc from "fast-check";
import {
  createController,
  loadPolicy,
  type PolicyBundle,
  type ToolContext,
  type ToolController,
} from "toolgate";
import { beforeAll, describe, expect, it } from "vitest";
import { traceCondition } from "../../src/runtime/condition-trace.js";
import { matchCommand, traceCommand } from "../../src/runtime/match/shell.js";
import { arbitraryForSchema, policyStrings } from "../compile/schema-arbitrary.js";

function combine(results: readonly string[]): "true" | "false" | "maybe" {
  if (results.includes("false")) return "false";
  return results.every((r) => r === "true") ? "true" : "maybe";
}

describe("traceCondition agrees with the decision", () => {
  let bundle: PolicyBundle;
  let controller: ToolController;
  beforeAll(async () => {
    bundle = await loadPolicy({ config: "toolgate.config.yaml" });
    controller = createController({
      bundle,
      handlers: Object.fromEntries(bundle.tools.map((t) => [t.name, () => "ok"])),
    });
  });

  it("over generated calls to the reference policy (300 runs)", () => {
    const hints = { strings: policyStrings(bundle.statements) };
    const calls = fc.oneof(
      ...bundle.tools.map((tool) =>
        fc.record({
          toolName: fc.constant(tool.name),
          arguments: arbitraryForSchema(tool.inputSchema, hints),
        }),
      ),
    );
    const contexts = arbitraryForSchema(bundle.contextSchema ?? {}, hints) as fc.Arbitrary<ToolContext>;
    const specs = new Map(bundle.statements.map((s) => [s.id, s]));
    const seen = new Set<string>();
    fc.assert(
      fc.property(calls, contexts, (call, context) => {
        const explained = controller.explain({ callId: "c", ...call }, context);
        if ("callId" in explained) return;
        for (const evaluation of explained.evaluations) {
          const spec = specs.get(evaluation.statement.id);
          if (spec === undefined || spec.kind !== "rule") continue;
          const results = [
            ...(spec.when === undefined ? [] : traceCondition(spec.when, call.arguments)),
            ...(spec.context === undefined ? [] : traceCondition(spec.context, context)),
          ].map((t) => t.result);
          const truth = combine(results);
          seen.add(truth);
          const expected =
            truth === "true" ? "certain" : truth === "false" || spec.action === "allow" ? "no" : "possible";
          expect(evaluation.match, `${spec.id} ${JSON.stringify(call.arguments)}`).toBe(expected);
        }
      }),
      { numRuns: 300 },
    );
    expect([...seen].sort()).toEqual(["false", "maybe", "true"]);
  });
});

describe("traceCommand", () => {
  const prefixes = [
    ["git", "status"],
    ["rm", "-rf"],
  ];

  it("names the prefix each simple command met, and the safe subset's cover", () => {
    expect(traceCommand("git status --short && rm -rf build", prefixes)).toEqual({
      certain: true,
      possible: true,
      readings: [
        {
          opaque: false,
          commands: [
            {
              words: ["git", "status", "--short"],
              prefixes: [
                { prefix: "git status", match: "match" },
                { prefix: "rm -rf", match: "no-match" },
              ],
            },
            {
              words: ["rm", "-rf", "build"],
              prefixes: [
                { prefix: "git status", match: "no-match" },
                { prefix: "rm -rf", match: "match" },
              ],
            },
          ],
        },
      ],
      safe: [
        { words: ["git", "status", "--short"], coveredBy: "git status" },
        { words: ["rm", "-rf", "build"], coveredBy: "rm -rf" },
      ],
    });
  });

  it("says why a command is unreadable, and gives matchCommand's answer for any string", () => {
    expect(traceCommand("echo 'unclosed", prefixes)).toMatchObject({
      certain: false,
      possible: true,
      unreadable: expect.stringMatching(/^no shell reading: /),
    });
    fc.assert(
      fc.property(
        fc.string({ maxLength: 30, unit: fc.constantFrom(..."gitsaurm -f;&|$()'\"\\`\n\t*") }),
        (source) => {
          const { certain, possible } = traceCommand(source, prefixes);
          expect({ certain, possible }).toEqual(matchCommand(source, prefixes));
        },
      ),
      { numRuns: 500 },
    );
  });
});
