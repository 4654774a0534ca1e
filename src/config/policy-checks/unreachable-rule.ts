/**
 * A rule can change a decision: for some tool it names, no set entry (in any layer) is already at least as
 * strict as the rule's decision.
 */

import { ACTION_RANK } from "../../runtime/statements.js";
import { definePolicyCheck } from "./policy-check.js";
import { rawPolicy } from "./policy-facts.js";

export const unreachableRuleCheck = definePolicyCheck({
  meta: {
    code: "unreachable-rule",
    severity: "warning",
    description: "A rule can never decide a call because other statements always take precedence.",
    meaning:
      "A rule can never change a decision because set entries for all its tools are at least as strict; or an `otherwise` entry never applies because a set entry or an unconditional rule matches every call of its tool.",
    fix: 'Remove the rule or loosen the set entry — for "allow these, ask for the rest", replace the `ask` entry with `otherwise: { TOOL: ask }`.',
  },
  name: "rules can change a decision",
  run: (facts, report) => {
    const { setAction } = facts;
    for (const layer of facts.layers) {
      (rawPolicy(layer).rules ?? []).forEach((rule, index) => {
        const blockers = rule.tools.map((tool) => setAction.get(tool));
        if (
          blockers.length === 0 ||
          blockers.some((b) => b === undefined || ACTION_RANK[b.action] < ACTION_RANK[rule.decision])
        )
          return;
        const detail = rule.tools
          .map(
            (tool, i) => `${tool} is already ${blockers[i]?.action} by its set entry (${blockers[i]?.place})`,
          )
          .join("; ");
        // The usual cause: "allow these, ask for the rest" written as an ask entry plus an allow rule.
        const stricter = rule.tools.filter(
          (_, i) => ACTION_RANK[blockers[i]?.action ?? "allow"] > ACTION_RANK[rule.decision],
        );
        const hint =
          stricter.length === 0
            ? "remove the rule or loosen the entry"
            : `to decide only the calls no rule matches, replace the entry with otherwise: { ${stricter.map((tool) => `${tool}: ${setAction.get(tool)?.action}`).join(", ")} }`;
        report.at(
          layer.parsed,
          `/rules/${index}/id`,
          `rule "${rule.id}" (${rule.decision}) can never change a decision: ${detail}; ${hint}`,
        );
      });
    }
  },
});
