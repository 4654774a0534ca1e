/** `not`: the operators do not hold (a maybe stays a maybe). */
import { negate } from "../truth.js";
import { defineNestedOperator, type NestedOperator } from "./operator.js";

export const notOperator: NestedOperator<"not", "same"> = defineNestedOperator<"not", "same">({
  name: "not",
  description: "The operators do not hold.",
  valueTypes: ["object"],
  valueRef: "operators",
  nested: "same",
  compile: (spec, context) => {
    const inner = context.nested(context.field, spec);
    return (value) => negate(inner(value));
  },
});
