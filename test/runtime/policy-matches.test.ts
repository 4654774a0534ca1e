/**
 * How a rule's `when` (arguments) and `context` answers join into one match, through the public `ToolPolicy`:
 * a maybe from either side is a maybe for the rule, which an allow rule never takes and an ask or deny rule
 * always does; a false from either side is no match.
 */
import { type PolicyAction, type ToolCall, ToolPolicy } from "toolgate";
import { describe, expect, it } from "vitest";

function call(args: unknown): ToolCall {
  return { callId: "call_1", toolName: "deploy", arguments: args };
}

// when: target equals "staging" — true for "staging", false for "prod" (never a maybe: equals is exact);
// when: note matches a regex — a maybe for a number. context: role matches ^admin$ — a maybe for a number.
function policyWith(decision: PolicyAction): ToolPolicy {
  return new ToolPolicy({
    rules: [
      {
        id: "the-rule",
        tools: ["deploy"],
        decision,
        when: { target: { equals: "staging" }, note: { regex: "^ok$" } },
        context: { role: { regex: "^admin$" } },
        reason: "the rule under test",
      },
    ],
  });
}

const ARGS = {
  true: { target: "staging", note: "ok" },
  maybe: { target: "staging", note: 1 },
  false: { target: "prod", note: "ok" },
} as const;
const CONTEXT = { true: { role: "admin" }, maybe: { role: 1 }, false: { role: "guest" } } as const;
type Answer = keyof typeof ARGS;
const ANSWERS: readonly Answer[] = ["true", "maybe", "false"];

function joined(when: Answer, context: Answer): Answer {
  if (when === "false" || context === "false") return "false";
  return when === "maybe" || context === "maybe" ? "maybe" : "true";
}

describe("the join of when and context", () => {
  for (const when of ANSWERS) {
    for (const context of ANSWERS) {
      const rule = joined(when, context);
      it(`when ${when}, context ${context}: the rule is ${rule}`, () => {
        // Allow takes only a certain match; anything else falls to default deny.
        expect(policyWith("allow").decide(call(ARGS[when]), CONTEXT[context]).action).toBe(
          rule === "true" ? "allow" : "deny",
        );
        // Ask takes a certain or a possible match.
        const ask = policyWith("ask").decide(call(ARGS[when]), CONTEXT[context]);
        expect(ask.action).toBe(rule === "false" ? "deny" : "ask");
        expect(ask.ruleIds).toEqual(rule === "false" ? [] : ["the-rule"]);
        // explain says the same, statement by statement.
        const explained = policyWith("ask").explain(call(ARGS[when]), CONTEXT[context]);
        expect(explained.evaluations.map((e) => e.match)).toEqual([
          rule === "true" ? "certain" : rule === "maybe" ? "possible" : "no",
        ]);
        expect(explained.decision.action).toBe(ask.action);
      });
    }
  }

  it("a rule with only a context condition matches on the context alone", () => {
    const policy = new ToolPolicy({
      allowedTools: ["deploy"],
      rules: [
        {
          id: "no-prod",
          tools: ["deploy"],
          decision: "deny",
          context: { environment: { equals: "production" } },
          reason: "never in production",
        },
      ],
    });
    expect(policy.decide(call({}), { environment: "production" }).action).toBe("deny");
    expect(policy.decide(call({}), { environment: "ci" }).action).toBe("allow");
    expect(policy.decide(call({})).action).toBe("allow");
  });
});
