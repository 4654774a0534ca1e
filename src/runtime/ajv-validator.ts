import { ToolgateError } from "./errors.js";
import { compileRegex } from "./match/regex/index.js";
import type { ArgumentCheck, ArgumentValidator } from "./types.js";

/** The part of an ajv error object the runtime reads. */
export interface AjvErrorLike {
  readonly instancePath: string;
  readonly message?: string;
  readonly keyword: string;
  readonly params?: { readonly [key: string]: unknown };
}

/** A validate function as ajv (compiled or standalone) produces it. */
export interface AjvValidateFunction {
  (data: unknown): boolean;
  errors?: readonly AjvErrorLike[] | null;
}

function issuePath(error: AjvErrorLike): string {
  // A missing or unexpected property is reported on its parent; name the property itself.
  const params = error.params ?? {};
  if (error.keyword === "required" && typeof params.missingProperty === "string") {
    return `${error.instancePath}/${escapePointer(params.missingProperty)}`;
  }
  if (error.keyword === "additionalProperties" && typeof params.additionalProperty === "string") {
    return `${error.instancePath}/${escapePointer(params.additionalProperty)}`;
  }
  return error.instancePath;
}

function escapePointer(segment: string): string {
  return segment.replaceAll("~", "~0").replaceAll("/", "~1");
}

function issueMessage(error: AjvErrorLike): string {
  if (error.keyword === "required") return "is required";
  if (error.keyword === "additionalProperties") return "is not allowed";
  return error.message ?? `fails ${error.keyword}`;
}

const VALID: ArgumentCheck = Object.freeze({ ok: true });

/**
 * Wraps an ajv validate function (built by `ajv.compile` or emitted by ajv standalone) as an
 * `ArgumentValidator`. The function must have been built with `allErrors` for every issue to be named.
 */
export function fromAjvValidator(validate: AjvValidateFunction): ArgumentValidator {
  return (args: unknown): ArgumentCheck => {
    let valid: boolean;
    try {
      valid = validate(args);
    } catch (error) {
      // Hostile input can make a validator throw (ajv's deep-equal on `{"valueOf": null}`): never a crash of
      // the loop, never a pass — the arguments are invalid.
      const reason = error instanceof Error ? error.message : String(error);
      return {
        ok: false,
        issues: [{ path: "", message: `could not be validated (${reason}); send plain JSON data` }],
      };
    }
    if (valid) return VALID;
    const issues = (validate.errors ?? []).map((error) => ({
      path: issuePath(error),
      message: issueMessage(error),
    }));
    return {
      ok: false,
      issues: issues.length > 0 ? issues : [{ path: "", message: "arguments do not match the input schema" }],
    };
  };
}

/**
 * The regular-expression engine that input-schema `pattern`s run on: the linear-time engine, so that no
 * pattern can backtrack catastrophically. Matches ajv's `code.regExp` signature.
 * @throws ToolgateError `invalid-pattern` when the pattern uses a construct the linear-time engine refuses (backreferences,
 *   lookaround) — the config loader reports that as `invalid-input-schema` before anything runs.
 */
export function schemaPattern(pattern: string, flags: string): SchemaPattern {
  const compiled = compileRegex(pattern, flags);
  if (!compiled.ok) throw new ToolgateError("invalid-pattern", `pattern "${pattern}": ${compiled.message}`);
  const regex = compiled.regex;
  // ajv keys its shared pattern constants by `String(regex)`: each pattern needs its own key, or every
  // schema of an ajv instance would test the first pattern that instance ever compiled.
  const key = `schemaPattern(${JSON.stringify(pattern)}, ${JSON.stringify(flags)})`;
  const made: SchemaPattern = Object.freeze({
    source: pattern,
    flags,
    test: (input: string) => regex.test(input),
    toString: () => key,
  });
  madeBySchemaPattern.add(made);
  return made;
}

/** A `pattern` of an input schema, compiled on the linear-time engine. */
export interface SchemaPattern {
  /** The pattern as the schema writes it. */
  readonly source: string;
  readonly flags: string;
  test(input: string): boolean;
  toString(): string;
}

const madeBySchemaPattern = new WeakSet<object>();

/** True for a value `schemaPattern` returned (so that `toolgate compile` can write the call that rebuilds it). */
export function isSchemaPattern(value: unknown): value is SchemaPattern {
  return typeof value === "object" && value !== null && madeBySchemaPattern.has(value);
}
