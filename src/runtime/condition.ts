/**
 * Argument conditions of policy rules: the plain-data form written in YAML (`when:` / `context:`), compiled
 * once into evaluators that answer with three values. `UNKNOWN` means "may match": conservative matching
 * turns it into a match for deny and ask rules and into no match for allow rules (DESIGN.md section 4.5).
 */
import { OPERATOR_NAMES, OPERATORS, type OperatorName, type OperatorSpec } from "./operators/index.js";
import type { CompileContext, Operator, ValueTest } from "./operators/operator.js";
import { ConditionScope } from "./operators/scope.js";
import { and, FALSE, TRUE, type Truth } from "./truth.js";

export { OPERATOR_NAMES, type OperatorName, type OperatorSpec } from "./operators/index.js";
export {
  type CompileRegexOperatorResult,
  compileRegexOperator,
  type RegexSpec,
  regexKey,
} from "./operators/regex.js";
export { ConditionScope } from "./operators/scope.js";
export { FALSE, TRUE, type Truth, UNKNOWN } from "./truth.js";
export type { JsonValue } from "./types.js";

/** `when:` or `context:` of a rule: field path (dots for nested properties) → operators. All must hold. */
export type ConditionSpec = { readonly [fieldPath: string]: OperatorSpec };

/** A compiled condition over an object (arguments or context). */
export type CompiledCondition = (subject: unknown) => Truth;

/** Outcome of compiling a condition: a problem names the field path and operator. */
export type CompileConditionResult =
  | { readonly ok: true; readonly condition: CompiledCondition }
  | { readonly ok: false; readonly problems: readonly ConditionProblem[] };

/** Why a condition could not be compiled. */
export interface ConditionProblem {
  readonly field: string;
  readonly operator: OperatorName | "field";
  readonly message: string;
}

function hasOwn(object: object, key: string): boolean {
  return Object.hasOwn(object, key);
}

/** Reads `a.b.c` from plain data; `undefined` when a step is missing or is not a plain object. */
export function readField(subject: unknown, path: readonly string[]): unknown {
  let current: unknown = subject;
  for (const key of path) {
    if (current === null || typeof current !== "object" || Array.isArray(current)) return undefined;
    if (!hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** Splits a field path written as `a.b` into its property names. */
export function splitFieldPath(fieldPath: string): readonly string[] {
  return fieldPath.split(".");
}

/** Whether an operator applies: its key is present (with a defined value, unless it says `ownKey`). */
function given(spec: OperatorSpec, operator: Operator<never>): boolean {
  const value = (spec as Record<string, unknown>)[operator.name];
  return hasOwn(spec, operator.name) && (operator.ownKey === true || value !== undefined);
}

function compileOperators(
  field: string,
  spec: OperatorSpec,
  problems: ConditionProblem[],
  scope: ConditionScope,
): ValueTest {
  const tests: ValueTest[] = [];
  const before = problems.length;
  for (const key of Object.keys(spec)) {
    if (!(OPERATOR_NAMES as readonly string[]).includes(key)) {
      problems.push({ field, operator: "field", message: `unknown operator "${key}"` });
    }
  }
  for (const operator of OPERATORS as readonly Operator<never>[]) {
    if (!given(spec, operator)) continue;
    const context: CompileContext = {
      field,
      problem: (message) => problems.push({ field, operator: operator.name as OperatorName, message }),
      nested: (inner, nestedSpec) => compileOperators(inner, nestedSpec as OperatorSpec, problems, scope),
      scope,
    };
    tests.push(operator.compile((spec as Record<string, never>)[operator.name] as never, context));
  }
  // Said only when nothing else was: an unknown or a bad operator already tells what to write there.
  if (tests.length === 0 && problems.length === before) {
    problems.push({ field, operator: "field", message: `field "${field}" has no operator` });
  }
  return allOf(tests);
}

/** Reads one field and tests it; a one-step path (the usual case) reads the property directly. */
function fieldTest(path: readonly string[], test: ValueTest): CompiledCondition {
  if (path.length !== 1) return (subject) => test(readField(subject, path));
  const key = path[0] as string;
  return (subject) =>
    test(
      subject !== null &&
        typeof subject === "object" &&
        !Array.isArray(subject) &&
        Object.hasOwn(subject, key)
        ? (subject as Record<string, unknown>)[key]
        : undefined,
    );
}

/**
 * All of the tests must hold (three-valued); a single test is returned as it is. Used for the operators of one
 * field and for the fields of one condition (no test at all: always true).
 */
function allOf(tests: readonly ValueTest[]): ValueTest {
  if (tests.length === 1) return tests[0] as ValueTest;
  return (subject) => {
    let result: Truth = TRUE;
    for (let i = 0; i < tests.length; i++) {
      result = and(result, (tests[i] as ValueTest)(subject));
      if (result === FALSE) return FALSE;
    }
    return result;
  };
}

/**
 * Compiles a `when:` or `context:` condition. Every field must hold (conjunction); an empty condition
 * always holds.
 * @param scope - shared by the conditions of one policy (their `command` prefixes are matched together); a
 *   condition compiled alone gets its own.
 */
export function compileCondition(
  spec: ConditionSpec,
  scope: ConditionScope = new ConditionScope(),
): CompileConditionResult {
  const problems: ConditionProblem[] = [];
  const fields: { path: readonly string[]; test: ValueTest }[] = [];
  for (const field of Object.keys(spec)) {
    const operators = spec[field];
    if (operators === null || typeof operators !== "object") {
      problems.push({ field, operator: "field", message: `field "${field}" needs an object of operators` });
      continue;
    }
    fields.push({ path: splitFieldPath(field), test: compileOperators(field, operators, problems, scope) });
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, condition: allOf(fields.map(({ path, test }) => fieldTest(path, test))) };
}
