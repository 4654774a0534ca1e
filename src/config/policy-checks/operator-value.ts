/**
 * An operator's value compiles (a regex on the linear-time engine, a glob, a command prefix, a url pattern):
 * one check per diagnostic code, each asking the operators that report it. The operator's own compile says
 * what is wrong, so the loader and the runtime refuse the same values.
 */
import type { DiagnosticMeta } from "../../diagnostics/diagnostic-table.js";
import type { Operator } from "../../runtime/operators/operator.js";
import { ConditionScope } from "../../runtime/operators/scope.js";
import { FALSE } from "../../runtime/truth.js";
import { childPointer } from "../parsed-file.js";
import { definePolicyCheck } from "./policy-check.js";
import { givenOperators } from "./policy-facts.js";

/** A code an operator reports for a value it cannot compile. */
export type OperatorValueCode = NonNullable<Operator["invalidCode"]>;

/** The codes of operator values that do not compile, with their rows: one per operator family. */
const OPERATOR_VALUE_DIAGNOSTICS = Object.freeze({
  "invalid-regex": {
    code: "invalid-regex",
    severity: "error",
    description: "A regular expression is invalid or cannot be matched in linear time.",
    meaning:
      "A regex is invalid or needs backtracking (lookaround, backreferences) or is too large, or has an unsupported flag.",
    fix: "Rewrite it for the linear-time engine; use only the flags `i`, `m`, `s`.",
  },
  "invalid-glob": {
    code: "invalid-glob",
    severity: "error",
    description: "A glob pattern is invalid.",
    meaning:
      "A glob (in a rule, or in the config's `tools`/`tests`) is malformed or can never match a normalised path.",
    fix: "Fix the glob (no `//`, `./`, trailing `/`).",
  },
  "invalid-command": {
    code: "invalid-command",
    severity: "error",
    description: "A command prefix is not a plain list of shell words.",
    meaning:
      "A `command` prefix is not a plain list of literal words, or its `{ prefix, options }` form is wrong.",
    fix: "Write plain words such as `git status`; list options as single words such as `--oneline`; drop the `$` of a prefix that lists options.",
  },
  "invalid-url": {
    code: "invalid-url",
    severity: "error",
    description: "A url operator names a scheme, host, port or path pattern that no URL can have.",
    meaning: "A `url` operator names a scheme, host, port or path glob that no URL can have.",
    fix: "Follow the message: schemes without `:`, hosts without scheme or path, path globs starting with `/`.",
  },
} as const satisfies { readonly [Code in OperatorValueCode]: DiagnosticMeta<Code> });

/** The check of the operator values whose problems carry `code`. */
export function operatorValueCheck<Code extends OperatorValueCode>(code: Code) {
  return definePolicyCheck({
    meta: OPERATOR_VALUE_DIAGNOSTICS[code] as DiagnosticMeta<Code>,
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
  });
}
