/** `all`: every element of the array satisfies these operators. */
import { FALSE, TRUE, type Truth, UNKNOWN } from "../truth.js";
import { defineNestedOperator, type NestedOperator, present } from "./operator.js";

export const allOperator: NestedOperator<"all", "items"> = defineNestedOperator<"all", "items">({
  name: "all",
  description: "Every element of the array satisfies these operators.",
  valueTypes: ["object"],
  valueRef: "operators",
  reads: { types: ["array"], needs: "an array field" },
  nested: "items",
  compile: (spec, context) => {
    const inner = context.nested(`${context.field}[*]`, spec);
    return present((value) => {
      if (!Array.isArray(value)) return UNKNOWN;
      let result: Truth = TRUE;
      for (const element of value) {
        const t = inner(element);
        if (t === FALSE) return FALSE;
        if (t === UNKNOWN) result = UNKNOWN;
      }
      return result;
    });
  },
});
