/**
 * A policy's statements compiled for deciding: each statement's conditions compiled once (with the checks a
 * statement built in code needs), and per tool an index that finds the statements a call may match without
 * evaluating each: `equals` on a scalar by value, `glob` and `regex` through one set per field, the rest
 * scanned strictest first. `ToolPolicy` (policy.ts) decides with these.
 */
import {
  type CompiledCondition,
  type ConditionScope,
  type ConditionSpec,
  compileCondition,
  compileRegexOperator,
  type OperatorSpec,
  type RegexSpec,
  readField,
  regexKey,
  splitFieldPath,
} from "./condition.js";
import { PolicyDefinitionError } from "./errors.js";
import { compileGlob, type Glob } from "./match/glob.js";
import { GlobSet } from "./match/glob-paths.js";
import { type LinearRegex, RegexSet } from "./match/regex/index.js";
import { ACTION_RANK, ACTIONS, ALLOW_RANK, type StatementKind, type StatementSpec } from "./statements.js";
import type { DecidingStatement, PolicyAction, PolicyDecision } from "./types.js";

/** A statement compiled for one policy: its conditions, rank, and the key its tool's index files it under. */
export interface CompiledStatement {
  readonly public: DecidingStatement & { readonly kind: StatementKind };
  readonly action: PolicyAction;
  readonly rank: number;
  readonly when: CompiledCondition | null;
  readonly context: CompiledCondition | null;
  /** The decision this statement makes alone, built on first use (a statement belongs to one policy). */
  single: PolicyDecision | undefined;
  /** Position in the policy's statement list: deciding statements are reported in this order. */
  readonly order: number;
  /**
   * Set when the statement's only condition is one operator on one field: `equals` on a scalar (decide finds it
   * by index), or `glob` or `regex` (matched in a set).
   */
  readonly key: EqualsKey | PatternKey | undefined;
}

/** The one `equals` operator, on a scalar and a top-level field, of a statement that has nothing else. */
interface EqualsKey {
  readonly field: string;
  readonly value: Scalar;
}

/** The one glob or regex operator of a statement that has nothing else. */
type PatternKey = GlobKey | RegexKey;
interface GlobKey {
  readonly field: string;
  readonly globs: readonly string[];
}
interface RegexKey {
  readonly field: string;
  readonly regex: string | RegexSpec;
}

/** A value the `equals` index holds. */
export type Scalar = string | number | boolean | null;

/** The strictest matches so far. */
export interface Best {
  rank: number;
  first: CompiledStatement | undefined;
  more: CompiledStatement[] | undefined;
}

/** Takes a matching statement into the strictest matches so far. */
export function consider(best: Best, statement: CompiledStatement): void {
  if (statement.rank > best.rank) {
    best.rank = statement.rank;
    best.first = statement;
    best.more = undefined;
  } else if (statement.rank === best.rank) {
    if (best.more === undefined) best.more = [statement];
    else best.more.push(statement);
  }
}

/**
 * The glob and regex statements of one tool on one field: every regex in one set, every glob in another, so
 * that one pass over the value says which statements match (answers exactly as each statement's condition).
 */
export interface PatternField {
  readonly path: readonly string[];
  /** The strictest action among these statements: none is evaluated once a stricter one has matched. */
  readonly maxRank: number;
  readonly all: readonly CompiledStatement[];
  readonly regexStatements: readonly CompiledStatement[];
  readonly regexSet: RegexSet | undefined;
  readonly globStatements: readonly CompiledStatement[];
  /** The glob statement of each glob in `globSet`. */
  readonly globOwner: Int32Array;
  readonly globSet: GlobSet | undefined;
  /** Per glob statement, while one value is matched: 1 certain, 2 possible. */
  readonly scratch: Uint8Array;
}

/** The statements of one tool, with the `equals` rules indexed by field and value. */
export interface ToolStatements {
  readonly all: readonly CompiledStatement[];
  /** Statements evaluated one by one, strictest action first. */
  readonly scanned: readonly CompiledStatement[];
  /** Statements matched through a pattern set, by field (the sets are built on the tool's first call). */
  readonly patterned: readonly CompiledStatement[];
  patterns: readonly PatternField[] | undefined;
  /** Per field: value → statements that match exactly that value (and certainly no other). */
  readonly index: readonly {
    readonly field: string;
    readonly byValue: ReadonlyMap<Scalar, readonly CompiledStatement[]>;
  }[];
}

/**
 * The key of a statement whose only condition is one `equals`, `glob` or `regex` operator on one field (see
 * `CompiledStatement.key`). `when` has compiled, so each of its fields holds an object of operators.
 */
function keyOf(when: ConditionSpec | undefined): CompiledStatement["key"] {
  if (when === undefined) return undefined;
  const fields = Object.keys(when);
  if (fields.length !== 1) return undefined;
  const field = fields[0] as string;
  const operators = when[field] as OperatorSpec;
  const names = Object.keys(operators);
  if (names.length !== 1) return undefined;
  switch (names[0]) {
    case "equals": {
      const value = operators.equals;
      // `equals: undefined` (possible from code only) asks for a missing field, which the index never looks up;
      // NaN equals nothing, but a Map finds it under NaN; the index reads top-level fields only.
      if (value === undefined || (value !== null && typeof value === "object") || Number.isNaN(value))
        return undefined;
      return field.includes(".") ? undefined : { field, value: value as Scalar };
    }
    case "glob": {
      // A glob operator compiles only with a glob or a list of globs (`glob: undefined` has no operator).
      const glob = operators.glob as string | readonly string[];
      const globs = typeof glob === "string" ? [glob] : glob;
      // An empty list still answers a path that may name any file: leave it to the condition.
      return globs.length === 0 ? undefined : { field, globs };
    }
    case "regex":
      return { field, regex: operators.regex as string | RegexSpec };
  }
  return undefined;
}

/** The pattern sets of the statements that have a pattern key, by field. */
export function buildPatternFields(
  patterned: readonly CompiledStatement[],
  scope: ConditionScope,
): PatternField[] {
  const byField = new Map<string, CompiledStatement[]>();
  for (const statement of patterned) {
    const field = (statement.key as PatternKey).field;
    const list = byField.get(field);
    if (list === undefined) byField.set(field, [statement]);
    else list.push(statement);
  }
  return [...byField].map(([field, all]) => {
    // The statements' conditions compiled these operators already, so compiling them again cannot fail.
    const regexStatements = all.filter((s) => "regex" in (s.key as PatternKey));
    const regexes = regexStatements.map(
      (s) => (compileRegexOperator((s.key as RegexKey).regex) as { regex: LinearRegex }).regex,
    );
    const regexSet = regexes.length === 0 ? undefined : new RegexSet(regexes, true);
    // Other operators on this field with one of these regexes read the set's answers (scope.ts, sharedRegex).
    regexStatements.forEach((s, index) => {
      const slot = scope.sharedRegex(field, regexKey((s.key as RegexKey).regex));
      slot.set = regexSet;
      slot.index = index;
    });
    const globStatements = all.filter((s) => "globs" in (s.key as PatternKey));
    const globs: Glob[] = [];
    /** The glob statement of each glob. */
    const owner: number[] = [];
    for (const [k, statement] of globStatements.entries()) {
      for (const pattern of (statement.key as GlobKey).globs) {
        globs.push((compileGlob(pattern) as { glob: Glob }).glob);
        owner.push(k);
      }
    }
    return {
      path: splitFieldPath(field),
      maxRank: Math.max(...all.map((s) => s.rank)),
      all,
      regexStatements,
      regexSet,
      globStatements,
      globOwner: Int32Array.from(owner),
      globSet: globs.length === 0 ? undefined : new GlobSet(globs, scope.paths),
      scratch: new Uint8Array(globStatements.length),
    };
  });
}

/** The statements of one tool, indexed: `equals` keys by value, pattern keys apart, the rest strictest first. */
export function indexStatements(all: readonly CompiledStatement[]): ToolStatements {
  const scanned: CompiledStatement[] = [];
  const patterned: CompiledStatement[] = [];
  const index = new Map<string, Map<Scalar, CompiledStatement[]>>();
  for (const statement of all) {
    const key = statement.key;
    if (key === undefined) {
      scanned.push(statement);
      continue;
    }
    if (!("value" in key)) {
      patterned.push(statement);
      continue;
    }
    let byValue = index.get(key.field);
    if (byValue === undefined) {
      byValue = new Map();
      index.set(key.field, byValue);
    }
    const list = byValue.get(key.value);
    if (list === undefined) byValue.set(key.value, [statement]);
    else list.push(statement);
  }
  // Strictest first, so that evaluation stops once nothing left can change the decision. The sort is stable and
  // `all` is in statement order, so statements of one action stay in that order.
  scanned.sort((x, y) => y.rank - x.rank);
  return {
    all,
    scanned,
    patterned,
    patterns: undefined,
    index: [...index].map(([field, byValue]) => ({ field, byValue })),
  };
}

/**
 * The glob and regex statements of one field, matched as their conditions would: a missing field matches none,
 * a value that is not a string may match each (a maybe), and a string is run once through each set.
 */
export function matchPatterns(field: PatternField, args: unknown, best: Best): void {
  const value = readField(args, field.path);
  if (value === undefined) return;
  if (typeof value !== "string") {
    for (const statement of field.all) if (statement.rank !== ALLOW_RANK) consider(best, statement);
    return;
  }
  if (field.regexSet !== undefined) {
    const { answers, hits } = field.regexSet.match(value);
    for (const i of hits) {
      const statement = field.regexStatements[i] as CompiledStatement;
      if (answers[i] === 1 || statement.rank !== ALLOW_RANK) consider(best, statement);
    }
  }
  if (field.globSet !== undefined) {
    const { answers, hits } = field.globSet.match(value);
    const { scratch, globOwner, globStatements } = field;
    const touched: number[] = [];
    for (const g of hits) {
      const k = globOwner[g] as number;
      if (scratch[k] === 0) touched.push(k);
      if (answers[g] === 1) scratch[k] = 1;
      else if (scratch[k] === 0) scratch[k] = 2;
    }
    for (const k of touched) {
      const statement = globStatements[k] as CompiledStatement;
      if (scratch[k] === 1 || statement.rank !== ALLOW_RANK) consider(best, statement);
      scratch[k] = 0;
    }
  }
}

/**
 * Compiles one statement at position `order` of its policy, its conditions sharing `scope`.
 * @throws PolicyDefinitionError when its action is unknown, its reason empty or a condition does not compile.
 */
export function compileStatement(
  spec: StatementSpec,
  order: number,
  scope: ConditionScope,
): CompiledStatement {
  if (!ACTIONS.includes(spec.action)) {
    throw new PolicyDefinitionError(
      `statement "${spec.id}" has action "${String(spec.action)}"; use allow, ask or deny`,
    );
  }
  if (typeof spec.reason !== "string" || spec.reason.trim() === "") {
    throw new PolicyDefinitionError(`statement "${spec.id}" needs a non-empty reason`);
  }
  const compile = (condition: ConditionSpec | undefined, what: string): CompiledCondition | null => {
    if (condition === undefined || Object.keys(condition).length === 0) return null;
    const result = compileCondition(condition, scope);
    if (!result.ok) {
      const detail = result.problems.map((p) => `${p.field}: ${p.message}`).join("; ");
      throw new PolicyDefinitionError(`rule "${spec.id}" has an invalid ${what} condition: ${detail}`);
    }
    return result.condition;
  };
  const publicStatement = {
    id: spec.id,
    kind: spec.kind,
    action: spec.action,
    reason: spec.reason,
    ...(spec.source === undefined ? {} : { source: spec.source }),
  };
  const when = compile(spec.when, "when");
  const context = compile(spec.context, "context");
  return {
    public: Object.freeze(publicStatement),
    action: spec.action,
    rank: ACTION_RANK[spec.action],
    when,
    context,
    single: undefined,
    order,
    key: context === null ? keyOf(spec.when) : undefined,
  };
}
