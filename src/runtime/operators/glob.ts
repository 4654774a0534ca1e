/** `glob`: a path that, read the way every platform may read it, matches one of these globs. */
import { compileGlob, type Glob } from "../match/glob.js";
import { matchPathGlobs } from "../match/glob-paths.js";
import { FALSE, TRUE, UNKNOWN } from "../truth.js";
import { defineOperator, present } from "./operator.js";

export const globOperator = defineOperator<string | readonly string[], "glob">({
  name: "glob",
  description: "A path that, normalised, matches one of these globs (** spans directories).",
  valueTypes: ["string", "array"],
  reads: { types: ["string"], needs: "a string field" },
  lengthBound: true,
  invalidCode: "invalid-glob",
  compile: (spec, context) => {
    const patterns = typeof spec === "string" ? [spec] : spec;
    const globs: Glob[] = [];
    patterns.forEach((pattern, i) => {
      const compiled = compileGlob(pattern);
      if (compiled.ok) globs.push(compiled.glob);
      else
        context.problem(
          `glob ${JSON.stringify(pattern)}: ${compiled.message}`,
          typeof spec === "string" ? [] : [i],
        );
    });
    // The policy's rules read one path once per decision.
    const paths = context.scope.paths;
    // A non-string is a maybe: any platform could read it some way.
    return present((value) => {
      if (typeof value !== "string") return UNKNOWN;
      const m = matchPathGlobs(globs, value, paths);
      return m.certain ? TRUE : m.possible ? UNKNOWN : FALSE;
    });
  },
});
