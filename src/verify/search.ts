/**
 * The search for calls that reach a goal (a property's forbidden decision, a decision that changed): a depth-first
 * search over the fields' options and, for strings, over the truths of each atom, in which every partial choice is
 * evaluated three-valuedly and abandoned as soon as the goal cannot be reached whatever the rest. A complete choice
 * is a *model*: concrete when every field has a value the runtime confirmed, abstract when some field's truths are
 * only known to be possible (strings outside what is modelled, contents of arrays). The search is exhaustive within
 * its budget: when it ends without a model, no valid call reaches the goal.
 */
import type { Truth } from "../runtime/truth.js";
import { type FieldDomain, maxLengthOf, regexExact, type TheoryState } from "./field-domain.js";
import { ANY } from "./formula.js";

/** `Goal.reach` bit: the goal may be missed. */
export const MISSED = 1;
/** `Goal.reach` bit: the goal may be reached. */
export const REACHED = 2;

/** What the search looks for. */
export interface Goal {
  /** Whether the goal may be reached and may be missed when each atom may have the truths of its mask. */
  reach(masks: Uint8Array): number;
}

/** A complete choice that reaches the goal (or may). */
export interface Model {
  /** Per atom, the truths it has (one bit each for a concrete model). */
  readonly masks: Uint8Array;
  /** Per field (by key): its value, when the model is concrete for it. */
  readonly values: ReadonlyMap<string, { readonly value: unknown }>;
  /** How many of the values are candidates from outside the exact regions (less readable: reported last). */
  readonly loose: number;
  /** The fields whose value is not concrete, with why. */
  readonly abstract: ReadonlyMap<string, string>;
}

/** How the search went. */
export interface SearchResult {
  readonly models: readonly Model[];
  /** False when the budget ran out: no answer may be drawn from the absence of models. */
  readonly complete: boolean;
}

export interface SearchOptions {
  /**
   * Per field (by key), the indices of its atoms the goal reads, in the order to decide them; atoms left out are
   * never branched on (the goal does not depend on them). Absent: every atom, in the field's order.
   */
  readonly order?: ReadonlyMap<string, readonly number[]>;
  /** Look only for concrete models (every field with a confirmed value). */
  readonly concreteOnly: boolean;
  /** Stop after this many models. */
  readonly maxModels: number;
  /** Stop after visiting this many choices. */
  readonly budget?: number;
  /**
   * With `concreteOnly`: stop (incomplete) after this many regions whose strings could not be built. Building a
   * candidate from a loose region (`command`, `url`) is the costly step; `diff` bounds it to keep its time.
   */
  readonly maxFailedWitnesses?: number;
  /** Called on each model as it is found; the search stops when it returns true (the caller confirmed it). */
  readonly accept?: (model: Model) => boolean;
}

const DEFAULT_BUDGET = 200_000;
const TRUTH_ORDER: readonly Truth[] = [0, 1, 2];

/** Why a string field's region is loose rather than exact. */
function looseReason(field: FieldDomain): string {
  const ops = new Set(field.atoms.map((a) => a.operator));
  const parts: string[] = [];
  if (ops.has("glob") || ops.has("path_prefix"))
    parts.push(
      "paths outside the simple subset (such as ./a, a//b, a\\b, A/../b or non-ASCII names) are read several ways",
    );
  if (ops.has("command")) parts.push("`command` is decided exactly only on the strings tried");
  if (ops.has("url")) parts.push("`url` is decided exactly only on the URLs tried");
  const longest = maxLengthOf(field.sides);
  if (field.atoms.some((a) => a.operator === "regex" && !regexExact(a.value, longest)))
    parts.push("a regex may answer maybe past the engine's work bound on long strings");
  return parts.length === 0 ? "no string of the region passed the runtime's check" : parts.join("; ");
}

/**
 * Searches the fields for models of the goal.
 * @param fields - the fields whose atoms the goal reads, each with its options.
 * @param atomCount - the number of atoms (masks are indexed by atom id).
 */
export function searchModels(
  fields: readonly FieldDomain[],
  atomCount: number,
  goal: Goal,
  options: SearchOptions,
): SearchResult {
  const masks = new Uint8Array(atomCount).fill(ANY);
  const values = new Map<string, { value: unknown; loose?: boolean }>();
  const abstract = new Map<string, string>();
  const models: Model[] = [];
  const budget = options.budget ?? DEFAULT_BUDGET;
  let visits = 0;
  let stopped = false;
  let failedWitnesses = 0;

  const record = (): void => {
    const loose = [...values.values()].filter((v) => v.loose === true).length;
    const model: Model = {
      masks: Uint8Array.from(masks),
      values: new Map(values),
      abstract: new Map(abstract),
      loose,
    };
    models.push(model);
    if (models.length >= options.maxModels || options.accept?.(model) === true) stopped = true;
  };

  /**
   * Strings of the state's region with its assigned truths (the theory keeps them by the assignments made): the
   * plainest first, then another the controller may decide otherwise (a compound command).
   */
  const witnessesOf = (
    field: FieldDomain,
    state: TheoryState,
    path: string,
  ): { value: string; loose: boolean }[] => {
    const found = (field.strings() as NonNullable<ReturnType<FieldDomain["strings"]>>).witnesses(state, path);
    if (found.length === 0 && options.concreteOnly && options.maxFailedWitnesses !== undefined) {
      if (++failedWitnesses >= options.maxFailedWitnesses) stopped = true;
    }
    return found.map((w) => ({ value: w.text, loose: w.loose }));
  };
  const orderOf = (field: FieldDomain): readonly number[] =>
    options.order?.get(field.ref.key) ?? field.atoms.map((_, i) => i);

  /** Whether the search may go on: the budget, and the goal still reachable. */
  const proceed = (): number => {
    if (stopped) return 0;
    if (++visits > budget) {
      stopped = true;
      return 0;
    }
    return goal.reach(masks);
  };

  /**
   * The goal is reached whatever the fields from `fi` on are: each of them (the current one from `state`, when
   * given) takes any value it can have, and the model is recorded.
   */
  const complete = (fi: number, state: TheoryState | undefined, path: string): void => {
    const set: string[] = [];
    const abstracted: string[] = [];
    // The current field's strings, when it has a state: one model for each.
    let alternatives: { value: string; loose: boolean }[] = [];
    for (let j = fi; j < fields.length; j++) {
      const field = fields[j] as FieldDomain;
      const key = field.ref.key;
      let value: { value: unknown; loose?: boolean } | undefined;
      if (j === fi && state !== undefined) {
        alternatives = witnessesOf(field, state, path);
        value = alternatives[0];
      } else {
        for (const option of field.options()) {
          if (option.kind === "value") {
            value = { value: option.value };
            break;
          }
          if (option.kind === "strings") {
            const theory = field.strings();
            const w = theory === null ? undefined : witnessesOf(field, theory.initial, "")[0];
            if (w !== undefined) {
              value = w;
              break;
            }
          }
        }
      }
      if (value !== undefined) {
        values.set(key, value);
        set.push(key);
      } else {
        abstract.set(key, j === fi && state !== undefined ? looseReason(field) : "no value of it was built");
        abstracted.push(key);
      }
    }
    if (abstracted.length === 0 || !options.concreteOnly) {
      record();
      // Alternatives come only with a state, so the field `fi` exists.
      for (const other of alternatives.slice(1)) {
        if (stopped) break;
        values.set((fields[fi] as FieldDomain).ref.key, other);
        record();
      }
    }
    for (const key of set) values.delete(key);
    for (const key of abstracted) abstract.delete(key);
  };

  const visitField = (fi: number): void => {
    const reach = proceed();
    if ((reach & REACHED) === 0) return;
    if ((reach & MISSED) === 0) {
      complete(fi, undefined, "");
      return;
    }
    if (fi === fields.length) {
      record();
      return;
    }
    const field = fields[fi] as FieldDomain;
    const key = field.ref.key;
    const visitValue = (option: { readonly value: unknown; readonly truths: readonly Truth[] }) => {
      field.atoms.forEach((a, i) => {
        masks[a.id] = 1 << (option.truths[i] as Truth);
      });
      values.set(key, { value: option.value });
      visitField(fi + 1);
      values.delete(key);
    };
    for (const option of field.options()) {
      if (stopped) break;
      if (option.kind === "value") {
        visitValue(option);
      } else if (option.kind === "opaque") {
        if (options.concreteOnly) continue;
        field.atoms.forEach((a, i) => {
          masks[a.id] = option.masks?.[i] ?? ANY;
        });
        abstract.set(
          key,
          option.type === "number"
            ? "its valid numbers between two bounds were not all found (a `multipleOf` far from them)"
            : option.masks !== undefined
              ? "an array with an element of a kind no string was built for"
              : `the contents of ${option.type === "array" ? "arrays" : "objects"} are not enumerated`,
        );
        visitField(fi + 1);
        abstract.delete(key);
      } else {
        const theory = field.strings();
        for (const a of field.atoms) masks[a.id] = ANY;
        if (theory === null) {
          // Strings tried as values, then (not concrete) any string.
          for (const fallback of field.fallbackStrings()) {
            if (stopped) break;
            if (fallback.kind === "value") visitValue(fallback);
          }
          for (const a of field.atoms) masks[a.id] = ANY;
          if (options.concreteOnly || stopped) continue;
          abstract.set(key, "its string operators are too large to decide here");
          visitField(fi + 1);
          abstract.delete(key);
        } else {
          visitAtoms(fi, 0, theory.initial, "");
        }
      }
    }
    for (const a of field.atoms) masks[a.id] = ANY;
  };

  const visitAtoms = (fi: number, ai: number, state: TheoryState, path: string): void => {
    const field = fields[fi] as FieldDomain;
    const key = field.ref.key;
    const reach = proceed();
    if ((reach & REACHED) === 0) return;
    if ((reach & MISSED) === 0) {
      complete(fi, state, path);
      return;
    }
    const theory = field.strings();
    if (theory === null) return;
    const order = orderOf(field);
    if (ai === order.length) {
      const witnesses = witnessesOf(field, state, path);
      for (const witness of witnesses) {
        if (stopped) break;
        values.set(key, witness);
        visitField(fi + 1);
        values.delete(key);
      }
      if (witnesses.length === 0 && !options.concreteOnly) {
        abstract.set(key, looseReason(field));
        visitField(fi + 1);
        abstract.delete(key);
      }
      return;
    }
    const index = order[ai] as number;
    const atom = field.atoms[index];
    if (atom === undefined) return;
    for (const truth of TRUTH_ORDER) {
      // The goal first: it is cheap, and most branches end there before any automaton is built.
      masks[atom.id] = 1 << truth;
      if ((goal.reach(masks) & REACHED) === 0) continue;
      const nextPath = `${path}${index}:${truth};`;
      const next = theory.assign(state, index, truth, nextPath);
      if (next === null) continue;
      visitAtoms(fi, ai + 1, next, nextPath);
      if (stopped) break;
    }
    masks[atom.id] = ANY;
  };

  visitField(0);
  return { models, complete: !stopped || models.length >= options.maxModels };
}
