/** `prefix`: a plain string prefix, exact and case-sensitive, with no path or URL reading. */
import { FALSE, TRUE, UNKNOWN } from "../truth.js";
import { defineOperator, present } from "./operator.js";

export const prefixOperator = defineOperator<string, "prefix">({
  name: "prefix",
  description:
    "A string that starts with this text (plain text: exact and case-sensitive; for paths use path_prefix).",
  valueTypes: ["string"],
  reads: { types: ["string"], needs: "a string field" },
  compile: (prefix) =>
    present((value) => (typeof value !== "string" ? UNKNOWN : value.startsWith(prefix) ? TRUE : FALSE)),
});
