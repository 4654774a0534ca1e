/**
 * The runtime compiles every condition the checks before this one passed: anything it still refuses (a
 * `path_prefix` not in normal form, an operator object without an operator) is an error at the field. A rule
 * the earlier checks reported on is left to their findings.
 */

import { stageDiagnosticMeta } from "../../diagnostics/diagnostic-table.js";
import { compileCondition } from "../../runtime/condition.js";
import { childPointer } from "../parsed-file.js";
import { definePolicyCheck } from "./policy-check.js";
import { rawPolicy } from "./policy-facts.js";

export const conditionCompilesCheck = definePolicyCheck({
  // A condition the runtime refuses breaks the rule's shape: it reports the schema stage's code.
  meta: stageDiagnosticMeta("config-schema"),
  name: "conditions compile as the runtime compiles them",
  run: (facts, report) => {
    for (const layer of facts.layers) {
      (rawPolicy(layer).rules ?? []).forEach((rule, index) => {
        const at = `/rules/${index}`;
        const reported = report.reported.some(
          (d) => d.file === layer.parsed.file && d.path !== undefined && d.path.startsWith(`${at}/`),
        );
        if (reported) return;
        for (const [what, condition] of [
          ["when", rule.when],
          ["context", rule.context],
        ] as const) {
          if (condition === undefined) continue;
          const compiled = compileCondition(condition);
          if (compiled.ok) continue;
          for (const problem of compiled.problems) {
            report.at(layer.parsed, childPointer(`${at}/${what}`, problem.field), problem.message);
          }
        }
      });
    }
  },
});
