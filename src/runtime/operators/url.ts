/** `url`: a URL whose parts (scheme, host, port, path, query keys) are among these, read the WHATWG way. */
import { compileUrl, type UrlSpec } from "../match/url.js";
import { FALSE, UNKNOWN } from "../truth.js";
import { defineOperator, present } from "./operator.js";

export const urlOperator = defineOperator<UrlSpec, "url">({
  name: "url",
  valueTypes: ["object"],
  valueRef: "url",
  reads: { types: ["string"], needs: "a string field" },
  invalidCode: "invalid-url",
  compile: (spec, context) => {
    const compiled = compileUrl(spec);
    if (!compiled.ok) {
      for (const problem of compiled.problems) {
        const at: (string | number)[] = [];
        if (problem.key !== "url") {
          at.push(problem.key);
          if (problem.index !== undefined && Array.isArray(spec[problem.key])) at.push(problem.index);
        }
        context.problem(problem.message, at);
      }
      return () => FALSE;
    }
    const test = compiled.test;
    return present((value) => (typeof value !== "string" ? UNKNOWN : test(value)));
  },
});
