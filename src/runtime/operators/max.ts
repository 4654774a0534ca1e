/** `max`: a number at most this. */
import { FALSE, TRUE, UNKNOWN } from "../truth.js";
import { defineOperator, present } from "./operator.js";

export const maxOperator = defineOperator<number, "max">({
  name: "max",
  description: "A number at most this.",
  valueTypes: ["number"],
  reads: { types: ["number", "integer"], needs: "a number field" },
  compile: (max) => present((value) => (typeof value !== "number" ? UNKNOWN : value <= max ? TRUE : FALSE)),
});
