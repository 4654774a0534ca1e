/** `exists`: whether the field is present (the one operator a missing field can satisfy). */
import { FALSE, TRUE } from "../truth.js";
import { defineOperator } from "./operator.js";

export const existsOperator = defineOperator<boolean | undefined, "exists">({
  name: "exists",
  description: "Whether the field is present.",
  valueTypes: ["boolean"],
  ownKey: true,
  compile: (exists) => {
    const want = exists === true;
    return (value) => ((value !== undefined) === want ? TRUE : FALSE);
  },
});
