/**
 * `regex`: a string matching this regular expression, on the linear-time engine. The value is a plain pattern
 * (no flags, UTF-16 code units, as it always was) or `{ pattern, flags }` with flags among `i`, `m`, `s`,
 * compiled with `u` added.
 */
import { compileRegex, type LinearRegex } from "../match/regex/index.js";
import { FALSE, TRUE, UNKNOWN } from "../truth.js";
import { defineOperator, present } from "./operator.js";

/**
 * The object form of `regex`: a pattern and its flags. Only `i` (Unicode simple case folding), `m` and `s`
 * are accepted; the object form always reads code points (as `RegExp` with `u`).
 */
export interface RegexSpec {
  readonly pattern: string;
  readonly flags?: string;
}

/** Why a `regex` operator does not compile: `in` says whether the problem is in its pattern or its flags. */
export type CompileRegexOperatorResult =
  | { readonly ok: true; readonly regex: LinearRegex }
  | { readonly ok: false; readonly in: "pattern" | "flags"; readonly message: string };

/** One string per distinct `regex` value: two values with the same key compile to the same regex. */
export function regexKey(spec: string | RegexSpec): string {
  return typeof spec === "string" ? `s${spec}` : `o${spec.flags ?? ""}/${spec.pattern}`;
}

/** Compiles the value of a `regex` operator. */
export function compileRegexOperator(spec: string | RegexSpec): CompileRegexOperatorResult {
  if (typeof spec === "string") {
    const compiled = compileRegex(spec);
    return compiled.ok ? compiled : { ok: false, in: "pattern", message: compiled.message };
  }
  const flags = spec.flags ?? "";
  for (let i = 0; i < flags.length; i++) {
    const flag = flags[i] as string;
    if (flags.indexOf(flag) !== i)
      return { ok: false, in: "flags", message: `flag "${flag}" is given twice; give it once` };
    if (flag === "u") {
      return {
        ok: false,
        in: "flags",
        message: 'flag "u" is always on in the object form (the pattern reads code points); remove it',
      };
    }
    if (!"ims".includes(flag)) {
      return {
        ok: false,
        in: "flags",
        message: `unsupported flag "${flag}": a regex rule accepts only i (ignore case), m (multiline) and s (dot matches newlines)`,
      };
    }
  }
  const compiled = compileRegex(spec.pattern, `${flags}u`);
  return compiled.ok ? compiled : { ok: false, in: "pattern", message: compiled.message };
}

export const regexOperator = defineOperator<string | RegexSpec, "regex">({
  name: "regex",
  description:
    "A string matching this regular expression (linear-time engine): the pattern, or { pattern, flags } with flags among i (ignore case, Unicode simple case folding), m and s.",
  valueTypes: ["string", "object"],
  reads: { types: ["string"], needs: "a string field" },
  lengthBound: true,
  invalidCode: "invalid-regex",
  compile: (spec, context) => {
    const compiled = compileRegexOperator(spec);
    if (!compiled.ok) {
      const source = typeof spec === "string" ? spec : spec.pattern;
      context.problem(
        `regex ${JSON.stringify(source)}: ${compiled.message}`,
        typeof spec === "string" ? [] : [compiled.in],
      );
      return () => FALSE;
    }
    const regex = compiled.regex;
    // A pattern set of the same field that holds the same regex may have answered this value already (the
    // statements whose only condition is one regex are matched as a set before the others are evaluated).
    const shared = context.scope.sharedRegex(context.field, regexKey(spec));
    // Past the engine's work bound (a huge value against a pattern whose thread sets keep changing) the
    // answer is a maybe: deny and ask still apply, allow does not.
    return present((value) => {
      if (typeof value !== "string") return UNKNOWN;
      const known = shared.set?.lastAnswer(value, shared.index);
      if (known !== undefined) return known === 1 ? TRUE : known === 0 ? FALSE : UNKNOWN;
      const matched = regex.testBounded(value);
      return matched === undefined ? UNKNOWN : matched ? TRUE : FALSE;
    });
  },
});
