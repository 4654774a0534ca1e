/** Every tool a policy names (in sets, `otherwise`, `reasons` and rules) is declared by a tool file. */

import { nearest } from "../nearest.js";
import { childPointer } from "../parsed-file.js";
import { definePolicyCheck } from "./policy-check.js";
import { rawPolicy } from "./policy-facts.js";

export const unknownToolCheck = definePolicyCheck({
  meta: {
    code: "unknown-tool",
    severity: "error",
    description: "The policy names a tool that no tool spec declares.",
    meaning: "The policy names a tool no tool file declares.",
    fix: "Fix the spelling or declare the tool.",
  },
  name: "tools named by the policy are declared",
  run: (facts, report) => {
    // With a tool file unreadable, "not declared" may be false: its own diagnostic says what to fix first.
    if (facts.options.toolsComplete === false) return;
    for (const layer of facts.layers) {
      const policy = rawPolicy(layer);
      const check = (pointer: string, name: string, prefer: "key" | "value" = "value") => {
        if (facts.declared.has(name) || facts.options.invalidNames?.has(name)) return;
        const near = nearest(name, facts.declared);
        report.at(
          layer.parsed,
          pointer,
          `tool "${name}" is not declared in any tool file${near === undefined ? "; declare it or remove it here" : `; did you mean "${near}"?`}`,
          prefer,
        );
      };
      for (const action of ["allow", "ask", "deny"] as const) {
        (policy[action] ?? []).forEach((tool, index) => {
          check(`/${action}/${index}`, tool);
        });
      }
      for (const tool of Object.keys(policy.otherwise ?? {}))
        check(childPointer("/otherwise", tool), tool, "key");
      for (const tool of Object.keys(policy.reasons ?? {}))
        check(childPointer("/reasons", tool), tool, "key");
      (policy.rules ?? []).forEach((rule, index) => {
        rule.tools.forEach((tool, i) => {
          check(`/rules/${index}/tools/${i}`, tool);
        });
      });
    }
  },
});
