/**
 * Statement changes between two policy bundles: set entries, rules and `otherwise` fallbacks of every layer,
 * added, removed or changed. Statements are compared by what they decide, never by where they stand: a moved
 * line, a comment, quoting or flow style changes nothing. A set entry keeps its identity when it moves from one
 * list to another (`ask: [x]` to `allow: [x]` is one changed entry), a rule is known by its id.
 */
import { canonicalJson } from "../runtime/canonical-json.js";
import type { ConditionSpec, OperatorSpec } from "../runtime/condition.js";
import type { StatementSpec } from "../runtime/policy.js";
import type { PolicyAction } from "../runtime/types.js";

/** Where a statement stands on one side. */
export interface StatementSide {
  readonly id: string;
  readonly action: PolicyAction;
  readonly tools: readonly string[];
  readonly file: string;
  readonly line: number;
  /** 0 for the policy file itself, 1 for its first `extends`, and so on. */
  readonly layer: number;
}

/** A statement only one side has. */
export interface StatementPresence {
  readonly id: string;
  readonly kind: StatementSpec["kind"];
  readonly action: PolicyAction;
  readonly tools: readonly string[];
  readonly file: string;
  readonly line: number;
  readonly layer: number;
}

/** What differs in a changed statement. */
export type StatementField = "action" | "tools" | "reason" | "when" | "context";

/** A statement both sides have, with what differs. */
export interface StatementChange {
  readonly id: string;
  readonly kind: StatementSpec["kind"];
  readonly fields: readonly StatementField[];
  readonly base: StatementSide;
  readonly head: StatementSide;
}

/** Added, removed and changed statements, each sorted by file and line. */
export interface StatementChanges {
  readonly added: readonly StatementPresence[];
  readonly removed: readonly StatementPresence[];
  readonly changed: readonly StatementChange[];
}

/** A statement of one side with the one of the other side it was paired with. */
export interface StatementPair {
  readonly base?: StatementSpec;
  readonly head?: StatementSpec;
}

const SET_ID = /^(.*\/)?(allow|ask|deny):([^/]+)$/;

/**
 * The identity a statement is paired by: a set entry by its layer and tool (its id names its list, which
 * may be what changed), everything else by its id.
 */
function identityOf(statement: StatementSpec): string {
  if (statement.kind === "set") {
    const m = SET_ID.exec(statement.id);
    if (m !== null) return `set\u0000${m[1] ?? ""}\u0000${m[3]}`;
  }
  return `${statement.kind}\u0000${statement.id}`;
}

/** The operators in a form where equivalent spellings are equal (`glob: x` and `glob: [x]`). */
function normalOperators(spec: OperatorSpec): unknown {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(spec)) {
    if (key === "glob" && typeof value === "string") out[key] = [value];
    else if ((key === "any" || key === "all" || key === "not") && value !== null && typeof value === "object")
      out[key] = normalOperators(value as OperatorSpec);
    else out[key] = value;
  }
  return out;
}

function normalCondition(condition: ConditionSpec | undefined): unknown {
  if (condition === undefined || Object.keys(condition).length === 0) return null;
  const out: Record<string, unknown> = {};
  for (const [field, operators] of Object.entries(condition)) out[field] = normalOperators(operators);
  return out;
}

function differences(a: StatementSpec, b: StatementSpec): StatementField[] {
  const fields: StatementField[] = [];
  if (a.action !== b.action) fields.push("action");
  if (canonicalJson([...a.tools].sort()) !== canonicalJson([...b.tools].sort())) fields.push("tools");
  if (a.reason !== b.reason) fields.push("reason");
  if (canonicalJson(normalCondition(a.when)) !== canonicalJson(normalCondition(b.when))) fields.push("when");
  if (canonicalJson(normalCondition(a.context)) !== canonicalJson(normalCondition(b.context)))
    fields.push("context");
  return fields;
}

function sideOf(statement: StatementSpec): StatementSide {
  return {
    id: statement.id,
    action: statement.action,
    tools: statement.tools,
    file: statement.source?.file ?? "",
    line: statement.source?.line ?? 0,
    layer: statement.source?.layer ?? 0,
  };
}

function presenceOf(statement: StatementSpec): StatementPresence {
  return { ...sideOf(statement), kind: statement.kind };
}

function byPlace(a: { file: string; line: number }, b: { file: string; line: number }): number {
  return (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line;
}

/** Groups statements by identity; a repeated identity (two layers with one file name) gets a counter. */
function indexed(statements: readonly StatementSpec[]): Map<string, StatementSpec> {
  const map = new Map<string, StatementSpec>();
  for (const statement of statements) {
    const identity = identityOf(statement);
    let key = identity;
    for (let n = 2; map.has(key); n++) key = `${identity}\u0000${n}`;
    map.set(key, statement);
  }
  return map;
}

/**
 * Compares the statements of two bundles.
 * @returns the changes, and every pair of statements that is not the same on both sides (an added or
 *   removed statement is a pair with one side).
 */
export function compareStatements(
  base: readonly StatementSpec[],
  head: readonly StatementSpec[],
): { readonly changes: StatementChanges; readonly pairs: readonly StatementPair[] } {
  const before = indexed(base);
  const after = indexed(head);
  const added: StatementPresence[] = [];
  const removed: StatementPresence[] = [];
  const changed: StatementChange[] = [];
  const pairs: StatementPair[] = [];
  for (const [key, statement] of before) {
    const other = after.get(key);
    if (other === undefined) {
      removed.push(presenceOf(statement));
      pairs.push({ base: statement });
      continue;
    }
    const fields = differences(statement, other);
    if (fields.length === 0) continue;
    changed.push({ id: other.id, kind: other.kind, fields, base: sideOf(statement), head: sideOf(other) });
    pairs.push({ base: statement, head: other });
  }
  for (const [key, statement] of after) {
    if (before.has(key)) continue;
    added.push(presenceOf(statement));
    pairs.push({ head: statement });
  }
  added.sort(byPlace);
  removed.sort(byPlace);
  changed.sort((a, b) => byPlace(a.head, b.head));
  return { changes: { added, removed, changed }, pairs };
}
