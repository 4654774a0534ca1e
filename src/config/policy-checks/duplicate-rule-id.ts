/** Rule ids are unique across all policy files of the bundle. */

import { positionOf } from "../parsed-file.js";
import { definePolicyCheck } from "./policy-check.js";
import { rawPolicy } from "./policy-facts.js";

export const duplicateRuleIdCheck = definePolicyCheck({
  meta: {
    code: "duplicate-rule-id",
    severity: "error",
    description: "Two rules have the same id.",
    meaning: "Two rules share an id (across all layers).",
    fix: "Rename one.",
  },
  name: "rule ids are unique",
  run: (facts, report) => {
    const seen = new Map<string, string>();
    for (const layer of facts.layers) {
      (rawPolicy(layer).rules ?? []).forEach((rule, index) => {
        const pointer = `/rules/${index}/id`;
        const place = `${layer.parsed.file}:${positionOf(layer.parsed, pointer).line}`;
        const earlier = seen.get(rule.id);
        if (earlier === undefined) seen.set(rule.id, place);
        else
          report.at(
            layer.parsed,
            pointer,
            `rule id "${rule.id}" is used twice: ${earlier} and ${place}; rule ids must be unique across all policy files`,
          );
      });
    }
  },
});
