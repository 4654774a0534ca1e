/**
 * An operator fits the declared type of its field: it reads the field's type (`prefix` a string, `min` a
 * number, `any` an array), and the values it compares with (`equals`, `in`) can be values of the field.
 */

import { jsonTypeOf } from "../../runtime/operators/operator.js";
import { childPointer } from "../parsed-file.js";
import { definePolicyCheck } from "./policy-check.js";
import { cannotRead, givenOperators } from "./policy-facts.js";

export const operatorTypeCheck = definePolicyCheck({
  meta: {
    code: "operator-type-mismatch",
    severity: "error",
    description: "A rule operator does not fit the type of the argument it is applied to.",
    meaning:
      "An operator does not fit the field's declared type, or an `equals`/`in` value can never be equal.",
    fix: "Use an operator for that type, or fix the value.",
  },
  name: "operators fit their field's type",
  run: (facts, report) => {
    for (const node of facts.operatorNodes) {
      const { types } = node;
      if (types === null) continue;
      const described = [...types].join(" or ");
      const fits = (value: unknown) => {
        const t = jsonTypeOf(value);
        return types.has(t) || (t === "integer" && types.has("number"));
      };
      for (const { operator, value } of givenOperators(node.spec)) {
        const at = childPointer(node.pointer, operator.name);
        if (cannotRead(operator, types)) {
          report.at(
            node.parsed,
            at,
            `operator "${operator.name}" needs ${operator.reads?.needs}, but field "${node.field}" is ${described}; use an operator for ${described} fields`,
            "key",
          );
        }
        for (const problem of operator.checkValue?.(value, { field: node.field, described, fits }) ?? []) {
          report.at(node.parsed, problem.at.reduce<string>(childPointer, at), problem.message);
        }
      }
    }
  },
});
