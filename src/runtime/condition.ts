/**
 * Argument conditions of policy rules: the plain-data form written in YAML (`when:` / `context:`), compiled
 * once into evaluators that answer with three values. `UNKNOWN` means "may match": conservative matching
 * turns it into a match for deny and ask rules and into no match for allow rules (DESIGN.md section 4.5).
 */
import { canonicalJson } from "./canonical-json.js";
import { foldString } from "./match/case-fold.js";
import { compileGlob, type Glob, matchPathGlobs } from "./match/glob.js";
import { normalizePath, readPath } from "./match/path.js";
import { compileRegex, type LinearRegex } from "./match/regex.js";
import {
  type CommandPrefix,
  CommandPrefixSet,
  type CommandPrefixSpec,
  parseCommandPrefixSpec,
} from "./match/shell.js";
import { compileUrl, type UrlSpec } from "./match/url.js";

/** Three-valued truth: `0` certainly not, `1` certainly, `2` maybe. */
export type Truth = 0 | 1 | 2;
export const FALSE: Truth = 0;
export const TRUE: Truth = 1;
export const UNKNOWN: Truth = 2;

/** A JSON value as written in YAML. */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | readonly JsonValue[]
  | { readonly [k: string]: JsonValue };

/** The operators of one field, as written in YAML. Several operators on one field must all hold. */
export interface OperatorSpec {
  readonly equals?: JsonValue;
  readonly in?: readonly JsonValue[];
  readonly prefix?: string;
  readonly path_prefix?: string;
  readonly glob?: string | readonly string[];
  readonly regex?: string | RegexSpec;
  readonly min?: number;
  readonly max?: number;
  readonly exists?: boolean;
  readonly any?: OperatorSpec;
  readonly all?: OperatorSpec;
  readonly not?: OperatorSpec;
  readonly command?: readonly CommandPrefixSpec[];
  readonly url?: UrlSpec;
}

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

/**
 * Compiles the value of a `regex` operator: a plain string (no flags, UTF-16 code units, as it always was) or
 * `{ pattern, flags }` with flags among `i`, `m`, `s` (each at most once), compiled with `u` added.
 */
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

/** The names of every operator. */
export const OPERATOR_NAMES = [
  "equals",
  "in",
  "prefix",
  "path_prefix",
  "glob",
  "regex",
  "min",
  "max",
  "exists",
  "any",
  "all",
  "not",
  "command",
  "url",
] as const;

/** One operator name. */
export type OperatorName = (typeof OPERATOR_NAMES)[number];

/** `when:` or `context:` of a rule: field path (dots for nested properties) → operators. All must hold. */
export type ConditionSpec = { readonly [fieldPath: string]: OperatorSpec };

/** A compiled test of one value. */
type ValueTest = (value: unknown) => Truth;

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

/**
 * What the conditions of one policy share while they are compiled: the `command` prefixes of each field go
 * into one set, so that a command string is compared with all of them in one walk per decision.
 */
export class ConditionScope {
  readonly #commandSets = new Map<string, CommandPrefixSet>();

  /** The prefix set of a field (its dotted path), made on first need. */
  commandSet(field: string): CommandPrefixSet {
    let set = this.#commandSets.get(field);
    if (set === undefined) {
      set = new CommandPrefixSet();
      this.#commandSets.set(field, set);
    }
    return set;
  }
}

/** Conjunction in three values. */
function and(a: Truth, b: Truth): Truth {
  if (a === FALSE || b === FALSE) return FALSE;
  return a === UNKNOWN || b === UNKNOWN ? UNKNOWN : TRUE;
}

function negate(a: Truth): Truth {
  return a === UNKNOWN ? UNKNOWN : a === TRUE ? FALSE : TRUE;
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

function jsonEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  try {
    return canonicalJson(a) === canonicalJson(b);
  } catch {
    return false;
  }
}

// Several prefix rules usually test the same argument in one decision: normalise it once.
let lastPathInput: string | undefined;
let lastPathResult: ReturnType<typeof normalizePath> | undefined;
function normalizeOnce(path: string): ReturnType<typeof normalizePath> {
  if (path !== lastPathInput || lastPathResult === undefined) {
    lastPathResult = normalizePath(path);
    lastPathInput = path;
  }
  return lastPathResult;
}

/** Globs over a path, read the way every platform may read it (`matchPathGlobs`); a non-string is UNKNOWN. */
function globTest(globs: readonly Glob[]): ValueTest {
  return (value) => {
    if (typeof value !== "string") return UNKNOWN;
    const m = matchPathGlobs(globs, value);
    return m.certain ? TRUE : m.possible ? UNKNOWN : FALSE;
  };
}

/**
 * `path_prefix` is literal on the path's normal form, and certain only for a plain relative POSIX path already
 * in normal form ({@link readPath}). Every other spelling is at most a maybe: a value whose normal form differs
 * (`src/../x`), a path that may name any file (`../../etc/passwd`), and any platform's reading of it (Windows
 * separators and drives, NFD, short names, Unicode simple case folding) that starts with the prefix.
 */
function pathPrefixTest(prefix: string): ValueTest {
  const foldedPrefix = foldString(prefix);
  return (value) => {
    if (typeof value !== "string") return UNKNOWN;
    const read = readPath(value);
    if (read.anywhere) return UNKNOWN;
    if (read.plain && value.startsWith(prefix)) {
      const normal = normalizeOnce(value);
      if (normal.ok && !normal.escapesRoot && normal.path === value) return TRUE;
    }
    if (value.startsWith(prefix)) return UNKNOWN;
    for (const reading of read.readings) {
      if (reading.segments.includes(null)) return UNKNOWN;
      const text = reading.absolute ? `/${reading.segments.join("/")}` : reading.segments.join("/");
      if (text.startsWith(prefix) || foldString(text).startsWith(foldedPrefix)) return UNKNOWN;
    }
    return FALSE;
  };
}

/** `prefix` is a plain string prefix: exact, case-sensitive, no path or URL reading. */
function prefixTest(prefix: string): ValueTest {
  return (value) => (typeof value !== "string" ? UNKNOWN : value.startsWith(prefix) ? TRUE : FALSE);
}

function compileOperators(
  field: string,
  spec: OperatorSpec,
  problems: ConditionProblem[],
  scope: ConditionScope,
): ValueTest {
  const tests: ValueTest[] = [];
  const problem = (operator: OperatorName, message: string) => problems.push({ field, operator, message });
  for (const key of Object.keys(spec)) {
    if (!(OPERATOR_NAMES as readonly string[]).includes(key)) {
      problems.push({ field, operator: "field", message: `unknown operator "${key}"` });
    }
  }
  if (hasOwn(spec, "exists")) {
    const want = spec.exists === true;
    tests.push((value) => ((value !== undefined) === want ? TRUE : FALSE));
  }
  // Every other operator needs a value: a missing field certainly does not match it.
  const present =
    (test: ValueTest): ValueTest =>
    (value) =>
      value === undefined ? FALSE : test(value);
  if (hasOwn(spec, "equals")) {
    const expected = spec.equals;
    // A scalar compares with ===, the common case on the hot path; structures compare as canonical JSON.
    tests.push(
      expected === null || typeof expected !== "object"
        ? (value) => (value === expected ? TRUE : FALSE)
        : present((value) => (jsonEquals(value, expected) ? TRUE : FALSE)),
    );
  }
  if (spec.in !== undefined) {
    const options = spec.in;
    tests.push(present((value) => (options.some((option) => jsonEquals(value, option)) ? TRUE : FALSE)));
  }
  if (spec.prefix !== undefined) tests.push(present(prefixTest(spec.prefix)));
  if (spec.path_prefix !== undefined) {
    // A prefix not in normal form (`./src`, `a//b`, `src/..`) could never certainly start a normalised path.
    const text = spec.path_prefix;
    const normal = text === "" ? undefined : normalizePath(text);
    const bare = text.length > 1 && text.endsWith("/") ? text.slice(0, -1) : text;
    if (normal !== undefined && (!normal.ok || normal.path !== bare)) {
      const hint = normal.ok ? `; write "${normal.path}${text.endsWith("/") ? "/" : ""}"` : "";
      problem("path_prefix", `path_prefix "${text}" is not a path in normal form${hint}`);
    }
    tests.push(present(pathPrefixTest(text)));
  }
  if (spec.glob !== undefined) {
    const patterns = typeof spec.glob === "string" ? [spec.glob] : spec.glob;
    const globs: Glob[] = [];
    for (const pattern of patterns) {
      const compiled = compileGlob(pattern);
      if (!compiled.ok) problem("glob", `invalid glob "${pattern}": ${compiled.message}`);
      else globs.push(compiled.glob);
    }
    tests.push(present(globTest(globs)));
  }
  if (spec.regex !== undefined) {
    const compiled = compileRegexOperator(spec.regex);
    if (!compiled.ok) {
      const source = typeof spec.regex === "string" ? spec.regex : spec.regex.pattern;
      problem("regex", `invalid regex "${source}": ${compiled.message}`);
    } else {
      const regex: LinearRegex = compiled.regex;
      // Past the engine's work bound (a huge value against a pattern whose thread sets keep changing) the
      // answer is a maybe: deny and ask still apply, allow does not.
      tests.push(
        present((value) => {
          if (typeof value !== "string") return UNKNOWN;
          const matched = regex.testBounded(value);
          return matched === undefined ? UNKNOWN : matched ? TRUE : FALSE;
        }),
      );
    }
  }
  if (spec.min !== undefined) {
    const min = spec.min;
    tests.push(present((value) => (typeof value !== "number" ? UNKNOWN : value >= min ? TRUE : FALSE)));
  }
  if (spec.max !== undefined) {
    const max = spec.max;
    tests.push(present((value) => (typeof value !== "number" ? UNKNOWN : value <= max ? TRUE : FALSE)));
  }
  if (spec.command !== undefined) {
    const prefixes: CommandPrefix[] = [];
    for (const entry of spec.command) {
      const read = parseCommandPrefixSpec(entry);
      if (read.ok) prefixes.push(read.prefix);
      else problem("command", read.message);
    }
    // The same answers as matchCommand(value, prefixes), from the field's one walk over the string.
    const set = scope.commandSet(field);
    const { from, to } = set.add(prefixes);
    tests.push(
      present((value) => {
        if (typeof value !== "string") return UNKNOWN;
        const m = set.match(value, from, to);
        return m.certain ? TRUE : m.possible ? UNKNOWN : FALSE;
      }),
    );
  }
  if (spec.url !== undefined) {
    const compiled = compileUrl(spec.url);
    if (!compiled.ok) for (const p of compiled.problems) problem("url", p.message);
    else {
      const test = compiled.test;
      tests.push(present((value) => (typeof value !== "string" ? UNKNOWN : test(value))));
    }
  }
  if (spec.any !== undefined) {
    const inner = compileOperators(`${field}[*]`, spec.any, problems, scope);
    tests.push(
      present((value) => {
        if (!Array.isArray(value)) return UNKNOWN;
        let result: Truth = FALSE;
        for (const element of value) {
          const t = inner(element);
          if (t === TRUE) return TRUE;
          if (t === UNKNOWN) result = UNKNOWN;
        }
        return result;
      }),
    );
  }
  if (spec.all !== undefined) {
    const inner = compileOperators(`${field}[*]`, spec.all, problems, scope);
    tests.push(
      present((value) => {
        if (!Array.isArray(value)) return UNKNOWN;
        let result: Truth = TRUE;
        for (const element of value) {
          const t = inner(element);
          if (t === FALSE) return FALSE;
          if (t === UNKNOWN) result = UNKNOWN;
        }
        return result;
      }),
    );
  }
  if (spec.not !== undefined) {
    const inner = compileOperators(field, spec.not, problems, scope);
    tests.push((value) => negate(inner(value)));
  }
  if (tests.length === 0) {
    problems.push({ field, operator: "field", message: `field "${field}" has no operator` });
  }
  if (tests.length === 1) return tests[0] as ValueTest;
  return (value) => {
    let result: Truth = TRUE;
    for (const test of tests) {
      result = and(result, test(value));
      if (result === FALSE) return FALSE;
    }
    return result;
  };
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

/** All of the tests must hold (three-valued); a single test is returned as it is. */
function conjunction(tests: readonly CompiledCondition[]): CompiledCondition {
  if (tests.length === 1) return tests[0] as CompiledCondition;
  if (tests.length === 0) return () => TRUE;
  return (subject) => {
    let result: Truth = TRUE;
    for (let i = 0; i < tests.length; i++) {
      result = and(result, (tests[i] as CompiledCondition)(subject));
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
    if (operators === undefined || operators === null || typeof operators !== "object") {
      problems.push({ field, operator: "field", message: `field "${field}" needs an object of operators` });
      continue;
    }
    fields.push({ path: splitFieldPath(field), test: compileOperators(field, operators, problems, scope) });
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, condition: conjunction(fields.map(({ path, test }) => fieldTest(path, test))) };
}
