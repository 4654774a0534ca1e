/** `in`: the field is one of these JSON values. */

import { FALSE, TRUE } from "../truth.js";
import type { JsonValue } from "../types.js";
import { jsonEquals } from "./equals.js";
import { defineOperator, jsonTypeOf, type OperatorProblem, present } from "./operator.js";

export const inOperator = defineOperator<readonly JsonValue[], "in">({
  name: "in",
  description: "One of these values.",
  valueTypes: ["array"],
  compile: (options) =>
    present((value) => (options.some((option) => jsonEquals(value, option)) ? TRUE : FALSE)),
  checkValue: (options, field) => {
    const problems: OperatorProblem[] = [];
    options.forEach((value, i) => {
      if (!field.fits(value)) {
        problems.push({
          at: [i],
          message: `"in" lists ${jsonTypeOf(value)} ${JSON.stringify(value)} for field "${field.field}" (${field.described}), which can never match`,
        });
      }
    });
    return problems;
  },
});
