/**
 * A fallback (`otherwise`) decides only calls no statement matches: a set entry or a rule without conditions for
 * its tool matches every call, so the fallback never applies.
 */

import { positionOf } from "../parsed-file.js";
import { definePolicyCheck } from "./policy-check.js";
import { rawPolicy } from "./policy-facts.js";
import { unreachableRuleCheck } from "./unreachable-rule.js";

export const unreachableFallbackCheck = definePolicyCheck({
  // A fallback that never applies is unreachable as a rule is: one code, declared by that check.
  meta: unreachableRuleCheck.meta,
  name: "fallbacks can apply",
  run: (facts, report) => {
    const unconditional = new Map<string, string>();
    for (const layer of facts.layers) {
      (rawPolicy(layer).rules ?? []).forEach((rule, index) => {
        if (rule.when !== undefined || rule.context !== undefined) return;
        const place = `${layer.parsed.file}:${positionOf(layer.parsed, `/rules/${index}/id`).line}`;
        for (const tool of rule.tools)
          if (!unconditional.has(tool)) unconditional.set(tool, `rule "${rule.id}" (${place})`);
      });
    }
    for (const { parsed, pointer, tool } of facts.fallbacks) {
      const entry = facts.setAction.get(tool);
      const blocker =
        entry !== undefined ? `its ${entry.action} entry (${entry.place})` : unconditional.get(tool);
      if (blocker === undefined) continue;
      report.at(
        parsed,
        pointer,
        `otherwise for "${tool}" never applies: ${blocker} matches every call of ${tool}; remove the fallback, or ${entry !== undefined ? "remove the entry" : "give that rule a condition"} so that the fallback decides the calls nothing else matches`,
        "key",
      );
    }
  },
});
