/** `min`: a number at least this. */
import { FALSE, TRUE, UNKNOWN } from "../truth.js";
import { defineOperator, present } from "./operator.js";

export const minOperator = defineOperator<number, "min">({
  name: "min",
  description: "A number at least this.",
  valueTypes: ["number"],
  reads: { types: ["number", "integer"], needs: "a number field" },
  compile: (min) => present((value) => (typeof value !== "number" ? UNKNOWN : value >= min ? TRUE : FALSE)),
});
