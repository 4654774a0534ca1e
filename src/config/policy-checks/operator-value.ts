/**
 * An operator's value compiles (a regex on the linear-time engine, a glob, a command prefix, a url pattern):
 * one check per diagnostic code, each asking the operators that report it. The operator's own compile says
 * what is wrong, so the loader and the runtime refuse the same values.
 */
import type { DiagnosticCode } from "../../diagnostics/diagnostic.js";
import { diagnosticMeta } from "../../diagnostics/diagnostic-table.js";
import { ConditionScope } from "../../runtime/operators/scope.js";
import { FALSE } from "../../runtime/truth.js";
import { childPointer } from "../parse-yaml.js";
import type { PolicyCheck } from "./policy-check.js";
import { givenOperators } from "./policy-facts.js";

/** The check of the operator values whose problems carry `code`. */
export function operatorValueCheck(
  code: "invalid-regex" | "invalid-glob" | "invalid-command" | ("invalid-url" & DiagnosticCode),
): PolicyCheck {
  return {
    meta: diagnosticMeta(code),
    name: `operator values compile (${code})`,
    run: (facts, report) => {
      for (const node of facts.operatorNodes) {
        for (const { operator, value } of givenOperators(node.spec)) {
          if (operator.invalidCode !== code) continue;
          const at = childPointer(node.pointer, operator.name);
          operator.compile(value, {
            field: node.field,
            problem: (message, below = []) =>
              report.at(node.parsed, below.reduce<string>(childPointer, at), message),
            // Nested operator objects are operator nodes of their own.
            nested: () => () => FALSE,
            scope: new ConditionScope(),
          });
        }
      }
    },
  };
}
