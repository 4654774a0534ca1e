/**
 * Conditions as three-valued formulas over atoms (one operator on one field), read exactly as the runtime compiles
 * them (`condition.ts`): the fields of a condition and the operators of a field are a Kleene conjunction, `not`
 * negates (a maybe stays a maybe), and every other operator is an atom whose truth on a value the runtime itself
 * computes. During the search an atom's value is known only as a set of possible truths (a mask), and a formula is
 * evaluated to the set of truths it may then have.
 */

import { canonicalJson } from "../runtime/canonical-json.js";
import { type ConditionSpec, compileCondition, type OperatorSpec } from "../runtime/condition.js";
import { InternalError } from "../runtime/errors.js";
import { OPERATORS } from "../runtime/operators/index.js";
import type { Operator } from "../runtime/operators/operator.js";
import type { Truth } from "../runtime/truth.js";

/** Bit of each truth in a mask: false 1, true 2, maybe 4 (truth `t` is bit `1 << t`). */
export const F = 1;
export const T = 2;
export const U = 4;
export const ANY = F | T | U;

/** The mask of one truth. */
export function maskOf(truth: Truth): number {
  return 1 << truth;
}

/** Where a field is read: the call's arguments or its context, and the property names on the way. */
export interface FieldRef {
  readonly scope: "arguments" | "context";
  readonly path: readonly string[];
  /** `arguments:a.b` or `context:a.b`. */
  readonly key: string;
}

/** Makes the reference of a dotted field path. */
export function fieldRef(scope: FieldRef["scope"], dotted: string): FieldRef {
  return { scope, path: dotted.split("."), key: `${scope}:${dotted}` };
}

/** One operator on one field: its truth on a value is the runtime's own answer. */
export interface Atom {
  readonly id: number;
  readonly field: FieldRef;
  /** The operator's name (`glob`, `regex`, …). */
  readonly operator: string;
  /** The operator's value as written. */
  readonly value: unknown;
  /** The runtime's test of the field's value (`undefined` for a missing field). */
  readonly test: (value: unknown) => Truth;
}

/** A three-valued formula over atoms. */
export type Formula =
  | { readonly kind: "const"; readonly truth: Truth }
  | { readonly kind: "atom"; readonly atom: number }
  | { readonly kind: "not"; readonly of: Formula }
  | { readonly kind: "and"; readonly of: readonly Formula[] };

export const TRUE_FORMULA: Formula = Object.freeze({ kind: "const", truth: 1 });
/** False on every call (a side that does not declare the tool refuses every call of it). */
export const FALSE_FORMULA: Formula = Object.freeze({ kind: "const", truth: 0 });

const operators = OPERATORS as readonly Operator<never>[];

/** The atoms of a verification, made once per distinct operator on a distinct field. */
export class AtomTable {
  readonly atoms: Atom[] = [];
  readonly #byKey = new Map<string, number>();

  /** The atom of `operator: value` on `field`, shared with every equal one. */
  atom(field: FieldRef, operator: string, value: unknown): number {
    const key = `${field.key}\u0000${operator}\u0000${canonicalJson(value)}`;
    const known = this.#byKey.get(key);
    if (known !== undefined) return known;
    const compiled = compileCondition({ f: { [operator]: value } as OperatorSpec });
    if (!compiled.ok) {
      const detail = compiled.problems.map((p) => p.message).join("; ");
      // The policy loaded, so its operators compile: one that does not is a defect.
      throw new InternalError(`operator ${operator} on ${field.key} does not compile: ${detail}`);
    }
    const condition = compiled.condition;
    const id = this.atoms.length;
    this.atoms.push({
      id,
      field,
      operator,
      value,
      // A missing field is `undefined`, and the runtime reads `{ f: undefined }` as it reads `{}`.
      test: (v) => condition({ f: v }),
    });
    this.#byKey.set(key, id);
    return id;
  }

  /**
   * An atom that is not a policy operator (`diff` reads a field's validity under each side's schema this way):
   * its truth on a value is `test`'s, and the string theory reads it by `operator` (see `field-domain.ts`).
   */
  custom(field: FieldRef, operator: string, value: unknown, test: (value: unknown) => Truth): number {
    const key = `${field.key}\u0000${operator}\u0000${canonicalJson(value)}`;
    const known = this.#byKey.get(key);
    if (known !== undefined) return known;
    const id = this.atoms.length;
    this.atoms.push({ id, field, operator, value, test });
    this.#byKey.set(key, id);
    return id;
  }

  /** The formula of a `when:` or `context:` condition (absent or empty: true). */
  condition(spec: ConditionSpec | undefined, scope: FieldRef["scope"]): Formula {
    if (spec === undefined) return TRUE_FORMULA;
    const fields = Object.keys(spec);
    if (fields.length === 0) return TRUE_FORMULA;
    return and(fields.map((field) => this.#operators(fieldRef(scope, field), spec[field] as OperatorSpec)));
  }

  /** The operators of one field, as the runtime compiles them (each operator that applies, all of them). */
  #operators(field: FieldRef, spec: OperatorSpec): Formula {
    const parts: Formula[] = [];
    const values = spec as Record<string, unknown>;
    for (const operator of operators) {
      if (!Object.hasOwn(spec, operator.name)) continue;
      const value = values[operator.name];
      if (operator.ownKey !== true && value === undefined) continue;
      if (operator.nested === "same") {
        parts.push({ kind: "not", of: this.#operators(field, value as OperatorSpec) });
      } else {
        parts.push({ kind: "atom", atom: this.atom(field, operator.name, value) });
      }
    }
    return and(parts);
  }
}

function and(parts: readonly Formula[]): Formula {
  if (parts.length === 1) return parts[0] as Formula;
  return { kind: "and", of: parts };
}

/** The atoms a formula reads. */
export function atomsOf(formula: Formula, out: Set<number> = new Set()): Set<number> {
  switch (formula.kind) {
    case "atom":
      out.add(formula.atom);
      break;
    case "not":
      atomsOf(formula.of, out);
      break;
    case "and":
      for (const f of formula.of) atomsOf(f, out);
      break;
  }
  return out;
}

/** Kleene conjunction of two masks of possible truths. */
function andMask(a: number, b: number): number {
  let out = 0;
  if (a & F || b & F) out |= F;
  if (a & T && b & T) out |= T;
  if ((a & (T | U) && b & U) || (a & U && b & (T | U))) out |= U;
  return out;
}

/** The truths a formula may have when each atom may have the truths of its mask. */
export function evaluate(formula: Formula, masks: Uint8Array): number {
  switch (formula.kind) {
    case "const":
      return maskOf(formula.truth);
    case "atom":
      return masks[formula.atom] as number;
    case "not": {
      const m = evaluate(formula.of, masks);
      return (m & F ? T : 0) | (m & T ? F : 0) | (m & U);
    }
    case "and": {
      let m = T;
      for (const f of formula.of) {
        m = andMask(m, evaluate(f, masks));
        if (m === F) return F;
      }
      return m;
    }
  }
}

/** The truth of a formula on concrete values (every atom's truth known). */
export function truthOf(formula: Formula, truths: ArrayLike<number>): Truth {
  const masks = Uint8Array.from(Array.from({ length: truths.length }, (_, i) => 1 << (truths[i] as number)));
  const m = evaluate(formula, masks);
  return m === T ? 1 : m === F ? 0 : 2;
}
