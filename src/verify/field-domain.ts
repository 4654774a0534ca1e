/**
 * The values one field can take, as the search sees them. Finite domains — a missing field, `null`, booleans, the
 * values of an `enum` — and numbers are concrete: numbers are cut at every bound any operator or the schema names,
 * and one value of each piece (an integer and a fraction where the piece has both, a multiple where `multipleOf`
 * asks) stands for the piece, exactly, since every operator and numeric keyword answers alike inside it. The runtime
 * itself computes every atom's truth on these values.
 *
 * Strings are a theory of automata (`StringTheory`): each atom's value narrows a region of strings, which stays
 * exact on the strings every operator is modelled on, and becomes *loose* where an operator is not (paths outside
 * the simple subset, `command` and `url` operators, a pattern past the engine's work bound): a loose region only
 * says that strings of it exist; its witnesses are candidates the runtime must confirm, and what cannot be
 * confirmed makes the answer `unknown`.
 */
import { canonicalJson } from "../runtime/canonical-json.js";
import type { OperatorSpec } from "../runtime/condition.js";
import { parseRegexTree, REGEX_WORK_BOUND } from "../runtime/match/regex/index.js";
import { programSize, REGEX_OPS } from "../runtime/match/regex/program.js";
import { regexWorkUpperBound } from "../runtime/match/regex/vm.js";
import {
  HARMLESS_REDIRECTIONS,
  isCodeRunner,
  SHELLS,
  SUBSET_REFUSED_FIRST_WORDS,
  WRAPPERS,
} from "../runtime/match/shell/tables.js";
import { parseCommandPrefixSpec } from "../runtime/match/shell.js";
import type { UrlSpec } from "../runtime/match/url.js";
import { compileRegexOperator } from "../runtime/operators/regex.js";
import type { Truth } from "../runtime/truth.js";
import type { JsonSchema } from "../runtime/types.js";
import { type Alphabet, AlphabetBuilder } from "./alphabet.js";
import { type Automata, type AutomataPool, overAlphabet } from "./automata.js";
import {
  ANY_LENGTH,
  allStrings,
  complement,
  complementLengths,
  constant,
  type Dfa,
  intersect,
  intersectLengths,
  isEmpty,
  isSubset,
  type LengthSet,
  lengthRange,
  literals,
  meets,
  shortestLength,
  shortestString,
  someStrings,
  startsWith,
  stringOfLength,
  stringsOf,
  subtract,
  TooComplex,
  union,
} from "./dfa.js";
import {
  commandFirstWords,
  commandLinesPattern,
  FieldFacts,
  INERT_HEADS,
  inertAnswer,
  inertLinesPattern,
} from "./facts.js";
import { type Atom, AtomTable, type FieldRef, fieldRef, truthOf } from "./formula.js";
import type { PathLanguages } from "./path-language.js";
import {
  notPlainReadLines,
  PLAIN_COMMAND_LINE,
  PLAIN_WORD,
  type PlainCommandPatterns,
  plainCommandPatterns,
  runnerCommandLines,
  specialCommandLines,
} from "./plain-command.js";
import { RegexLanguage } from "./regex-language.js";
import {
  allowedTypes,
  checkValue,
  finiteValues,
  formatLanguage,
  isMultipleOf,
  multiplesNear,
  passesFormat,
} from "./schema-facts.js";
import { UrlLanguages } from "./url-language.js";

/** A loose region of at most this many strings is settled by running every atom on each (see `#settle`). */
const MAX_SETTLED = 64;
/**
 * Words after which the runtime reads a line as running anything (shells and wrappers as operands of a program that
 * may run its operands, and the code options `-c` and `-e`), shortest first: seeds of a `command` list's maybe.
 */
const RUNNER_WORDS: readonly string[] = [
  ...[...SHELLS, ...WRAPPERS]
    .filter((w) => /^[a-z][a-z0-9]*$/.test(w))
    .sort((a, b) => a.length - b.length || a.localeCompare(b))
    .slice(0, 12),
  "-c",
  "-e",
];

/** A word of the safe subset: unquoted characters, or quoted text (`'a b'`, `"x"`), which other atoms may need. */
const COMMAND_WORD = "(?:[A-Za-z0-9_./=:,+@%-]|'[ -&(-~]*'|\"[ #%-\\[\\]-_a-~]*\")+";

/**
 * Values of a code option (`-c`, `-e`) that run anything as shell text: `r` (zsh's builtin that runs a command again)
 * and the shells, also with the leading `-` the runtime takes off shell code (`git log -c -r`), or attached to the
 * option (`git status -cr`). A value that names an unknown program (`-c -a`) runs only that program.
 */
const RUNNER_VALUES: readonly string[] = ["r", "sh", "bash"];

/** Lines with a code option whose value runs anything (see {@link RUNNER_VALUES}), after one word or more. */
const RUNNER_VALUE_LINES = (() => {
  const values = RUNNER_VALUES.map(literal).join("|");
  return `^(?:${COMMAND_WORD} )+-[ce](?: -?)?(?:${values})(?: ${COMMAND_WORD})*$`;
})();

/** The first words the safe subset refuses that are plain words: a plain line starting so is read otherwise. */
const REFUSED_PLAIN_FIRST = [...SUBSET_REFUSED_FIRST_WORDS].filter((w) => /^[A-Za-z0-9_./,:@%+-]+$/.test(w));

/**
 * For a `command` list: `lines`, the lines of one simple command of plain words without `=`, one blank between
 * them (every shell and both of the runtime's readers read such a line as those words, plain-line.ts); `starts`,
 * those whose words start with a prefix's words as written (exactly them for an exact prefix), and those whose
 * first word the safe subset refuses (read otherwise: nothing is said of them). A list is certain of a line of
 * `lines` only in `starts` (certain means every simple command starts with a prefix's words as written); outside
 * `lines`, nothing is said. Undefined for a list with an entry that does not parse.
 */
export function plainCertain(
  value: unknown,
): { readonly lines: string; readonly starts: string } | undefined {
  const alternatives: string[] = [];
  for (const spec of value as unknown[]) {
    const read = parseCommandPrefixSpec(spec);
    if (!read.ok || read.prefix.words.length === 0) return undefined;
    const words = read.prefix.words.map(literal).join(" ");
    alternatives.push(read.prefix.exact ? words : `${words}(?: ${PLAIN_WORD})*`);
  }
  if (alternatives.length === 0) return undefined;
  const refused = REFUSED_PLAIN_FIRST.map(literal).join("|");
  return {
    lines: PLAIN_COMMAND_LINE,
    starts: `^(?:${alternatives.join("|")})$${refused === "" ? "" : `|^(?:${refused})(?: |$)`}`,
  };
}

/** The automata of a field's joint alphabet (see `StringTheory`'s `#plainDecides`). */
interface JointPlain {
  readonly automata: Automata;
}

/** At most this many strings, each at most this long, are tried where a string theory is too large to build. */
const MAX_FALLBACK_STRINGS = 64;
const MAX_FALLBACK_LENGTH = 4096;
const MAX_FALLBACK_CELLS = 2_000_000;

/** One way a field can be, for the search. */
export type FieldOption =
  | {
      /** A concrete value (`undefined`: the field is missing) and each of the field's atoms' truth on it. */
      readonly kind: "value";
      readonly value: unknown;
      readonly truths: readonly Truth[];
    }
  | { readonly kind: "strings" }
  | {
      /**
       * Arrays or objects whose contents some atom reads in ways not enumerated, or numbers of a piece whose valid
       * values may not have been found: any truths (or, with `masks`, the possible truths of each of the field's
       * atoms, as masks), never a witness.
       */
      readonly kind: "opaque";
      readonly type: "array" | "object" | "number";
      readonly masks?: readonly number[];
    };

/** The schema facts of one field that the domain needs. */
export interface FieldSchema {
  readonly schema: JsonSchema;
  readonly missingAllowed: boolean;
}

/** A region of strings: an automaton and the lengths allowed. */
export interface Region {
  readonly dfa: Dfa;
  readonly lengths: LengthSet;
}

/** Where a field's string theory stands: the exact region, and the loose one (see the module comment). */
export interface TheoryState {
  readonly exact: Region | null;
  readonly loose: Region | null;
  /** The truths assigned so far, by the atom's index in the field. */
  readonly truths: ReadonlyMap<number, Truth>;
}

/** How one atom reads a string. */
type StringAtom =
  | { readonly kind: "fixed"; readonly truth: Truth }
  | { readonly kind: "lang"; readonly lang: Dfa; readonly degradable: boolean }
  | {
      readonly kind: "path";
      readonly certain: Dfa;
      readonly possible: Dfa;
      /** Every string, modelled or not, the operator may certainly match (the loose region is cut to it). */
      readonly certainAnywhere?: Dfa;
      /** Strings, modelled or not, on which the operator is never false (cut from the loose region when false). */
      readonly neverFalse?: Dfa;
    }
  /** A bound on the length (in code points): it narrows a region's lengths, never its automaton. */
  | { readonly kind: "length"; readonly lengths: LengthSet }
  /**
   * Not modelled; where it is true, the loose region may still be cut to `certainAnywhere`, and holds a string of
   * `certainLines` (checked, not cut: a `command` list's lines, a larger automaton than every later cut needs).
   */
  | {
      readonly kind: "free";
      readonly certainAnywhere?: Dfa;
      readonly certainLines?: () => Dfa;
      /** A `command` list's answer on every plain line of an inert program (facts.ts `inertAnswer`). */
      readonly inertAnswer?: (head: string) => Truth | undefined;
      /** The patterns of a `command` list's known answers on plain lines (plain-command.ts). */
      readonly plain?: PlainCommandPatterns;
    };

/**
 * Every string of the shell's safe subset, and more (`match/shell/safe-subset.ts`): unquoted word characters,
 * blanks, the separators and redirection characters, single-quoted printable ASCII, double-quoted printable ASCII
 * without `$`, a backquote, `\` or `!`, and backslash-newlines. A `command` operator is certain only on a string of
 * the subset, so never where a character outside these stands (an unquoted `~`, `$`, `*` or `#`).
 */
export const SAFE_SUBSET_SUPERSET =
  "^(?:[A-Za-z0-9_\\-./,:@%+= \\t\\n;&|<>]|'[ -&(-~]*'|\"(?:[ #%-\\[\\]-_a-~]|\\\\\\n)*\"|\\\\\\n)*$";

function literal(text: string): string {
  let out = "";
  for (const ch of text) out += `\\u{${(ch.codePointAt(0) as number).toString(16)}}`;
  return out;
}

/** Strings drawn from a source as they are first read, each once, and kept for every later reader. */
class LazyStrings implements Iterable<string> {
  readonly #items: string[] = [];
  readonly #seen = new Set<string>();
  #source: Iterator<string> | undefined;
  #failed: { readonly error: unknown } | undefined;

  constructor(source: Iterable<string>) {
    this.#source = source[Symbol.iterator]();
  }

  *[Symbol.iterator](): Generator<string> {
    for (let i = 0; i < this.#items.length || this.#pull(); i++) yield this.#items[i] as string;
  }

  /** Draws one more new string; false when the source has no more. */
  #pull(): boolean {
    // A source that threw (an automaton too large) throws the same to every later reader.
    if (this.#failed !== undefined) throw this.#failed.error;
    while (this.#source !== undefined) {
      let next: IteratorResult<string>;
      try {
        next = this.#source.next();
      } catch (error) {
        this.#failed = { error };
        this.#source = undefined;
        throw error;
      }
      if (next.done === true) {
        this.#source = undefined;
        return false;
      }
      if (!this.#seen.has(next.value)) {
        this.#seen.add(next.value);
        this.#items.push(next.value);
        return true;
      }
    }
    return false;
  }
}

function nonEmpty(region: Region): boolean {
  return shortestLength(region.dfa, region.lengths) !== undefined;
}

/** At most this many operators inside a field's `any` and `all` are read as a string field of their own. */
const MAX_ELEMENT_ATOMS = 8;

/** How far past a piece's start the multiples of each `multipleOf` are tried (see {@link numberRepresentatives}). */
export const MULTIPLES_TRIED = 64;

/**
 * The numbers that stand for every piece of the number line cut at `points`: in each piece, an integer and a
 * fraction, and the first multiples of each `multipleOf` (the schema's, or for `diff` both sides') until one of each
 * kind is found — an integer or not, a multiple of each of the others or not — so that a value valid on one side
 * only, and one valid on both, stand for the piece where there are. A multiple is a double the validator counts as
 * one ({@link multiplesNear}: `1000.0000000000001` of `0.05`, not `1000.05`). `uncertain` holds a number of each
 * piece where a kind may have been missed: the multiples were tried up to {@link MULTIPLES_TRIED} steps without
 * leaving the piece, and a kind that matters was not found: a multiple of some steps and not of the others, an
 * integer one where every side reads only integers (`integers`), an integer one and another where only some do.
 */
export function numberRepresentatives(
  points: readonly number[],
  multiples: readonly number[],
  integers: "none" | "some" | "all" = "none",
): { readonly values: number[]; readonly uncertain: number[] } {
  const sorted = [...new Set(points.filter((p) => Number.isFinite(p)))].sort((a, b) => a - b);
  const out = new Set<number>(sorted);
  const uncertain: number[] = [];
  // Whether a number is an integer matters only where a side reads only integers.
  const kind = (v: number) =>
    `${integers === "none" ? "*" : Number.isInteger(v) ? 1 : 0}${multiples.map((m) => (isMultipleOf(v, m) ? 1 : 0)).join("")}`;
  /** An integer, a fraction and multiples strictly between lo and hi (one of them may be infinite), where there are. */
  const inside = (lo: number, hi: number, numbers = true) => {
    // An open piece's integer and fraction are taken next to its finite end.
    const a = Number.isFinite(lo) ? lo : hi - 2;
    const b = Number.isFinite(hi) ? hi : lo + 2;
    const i = Math.floor(a) + 1;
    if (numbers && i < b) out.add(i);
    const half = a + Math.min(0.5, (b - a) / 2);
    if (numbers && half > a && half < b && !Number.isInteger(half)) out.add(half);
    const kinds = new Set<string>();
    let exhausted = true;
    for (const m of multiples) {
      // From the finite end inwards: up from lo, or down from hi when the piece has no lower end. The doubles
      // counted as the k-th multiple may lie either side of the product's rounding, so k starts at the end's own.
      const up = Number.isFinite(lo);
      const start = up ? Math.floor(lo / m) : Math.ceil(hi / m);
      let left = false;
      // The products themselves first (`3`, not `5e-324`, which the validator counts the 0th multiple of 3).
      const plain: number[] = [];
      const near: number[] = [];
      for (let step = 0; step <= MULTIPLES_TRIED && !left; step++) {
        const k = up ? start + step : start - step;
        // The k-th multiples lie within a few places of k × m: past the piece's other end, so is every later one.
        if (up ? k * m > hi : k * m < lo) left = true;
        for (const v of multiplesNear(k, m)) if (v > lo && v < hi) (v === k * m ? plain : near).push(v);
      }
      for (const v of [...plain, ...near]) {
        const key = kind(v);
        if (!kinds.has(key)) {
          kinds.add(key);
          out.add(v);
        }
      }
      exhausted &&= left;
    }
    // Multiples left untried: each kind that matters (a multiple of some steps and not of the others; an integer or
    // not where sides differ on integers, an integer where every side reads only integers) must have been found.
    if (!exhausted) {
      const integerBits = integers === "all" ? ["1"] : integers === "some" ? ["0", "1"] : ["*"];
      const missing = integerBits.some((i) => {
        for (let bits = 1; bits < 1 << multiples.length; bits++) {
          const pattern = multiples.map((_, j) => ((bits >> j) & 1 ? "1" : "0")).join("");
          if (!kinds.has(`${i}${pattern}`)) return true;
        }
        return false;
      });
      if (missing) uncertain.push(half);
    }
  };
  if (sorted.length === 0) {
    // No bound: every number behaves alike but for being an integer or a multiple.
    for (const v of [0, 1, 0.5]) out.add(v);
    inside(0, Number.POSITIVE_INFINITY, false);
    return { values: [...out], uncertain };
  }
  const first = sorted[0] as number;
  const last = sorted[sorted.length - 1] as number;
  // The outer pieces are open: the multiples are tried from their inner end on.
  inside(Number.NEGATIVE_INFINITY, first);
  for (let i = 0; i + 1 < sorted.length; i++) inside(sorted[i] as number, sorted[i + 1] as number);
  inside(last, Number.POSITIVE_INFINITY);
  return { values: [...out].sort((a, b) => Math.abs(a) - Math.abs(b) || a - b), uncertain };
}

/** The values of one field: concrete options and, for strings, the theory. */
export class FieldDomain {
  readonly ref: FieldRef;
  /** The atoms reading this field, in a fixed order (their index here is their index in `truths`). */
  readonly atoms: readonly Atom[];
  readonly sides: readonly FieldSchema[];
  #options: FieldOption[] | undefined;
  #strings: StringTheory | null | undefined;
  #fallback: readonly FieldOption[] | undefined;

  /**
   * @param sides - the field's schema on each side that decides (one for `verify`; for `diff` both, and a value
   *   is offered when some side allows it).
   */
  readonly #pool: AutomataPool;

  constructor(ref: FieldRef, atoms: readonly Atom[], sides: readonly FieldSchema[], pool: AutomataPool) {
    this.ref = ref;
    this.atoms = atoms;
    this.sides = sides;
    this.#pool = pool;
  }

  /** Whether a concrete value is valid on side `i`. */
  validOn(i: number, value: unknown): boolean {
    const side = this.sides[i] as FieldSchema;
    return checkValue(side.schema, value, side.missingAllowed);
  }

  #validSomewhere(value: unknown): boolean {
    return this.sides.some((_, i) => this.validOn(i, value));
  }

  #concrete(value: unknown): FieldOption {
    return { kind: "value", value, truths: this.atoms.map((a) => a.test(value)) };
  }

  /** The options, concrete values first. */
  options(): readonly FieldOption[] {
    if (this.#options !== undefined) return this.#options;
    const out: FieldOption[] = [];
    const types = new Set(this.sides.flatMap((s) => [...allowedTypes(s.schema)]));
    const finite = this.sides.map((s) => finiteValues(s.schema));
    const seen = new Set<string>();
    const add = (value: unknown) => {
      const key = value === undefined ? "missing" : canonicalJson(value);
      if (seen.has(key) || !this.#validSomewhere(value)) return;
      seen.add(key);
      out.push(this.#concrete(value));
    };
    if (this.sides.some((s) => s.missingAllowed)) add(undefined);
    if (finite.every((f) => f !== undefined)) {
      // Only the listed values are valid anywhere.
      for (const values of finite) for (const v of values as unknown[]) add(v);
      this.#options = out;
      return out;
    }
    for (const values of finite) for (const v of values ?? []) add(v);
    const literalsOf = (type: string): unknown[] =>
      this.atoms.flatMap((a) => {
        const vs = a.operator === "equals" ? [a.value] : a.operator === "in" ? (a.value as unknown[]) : [];
        return vs.filter((v) =>
          type === "array"
            ? Array.isArray(v)
            : type === "object"
              ? v !== null && typeof v === "object" && !Array.isArray(v)
              : false,
        );
      });
    if (types.has("null")) add(null);
    if (types.has("boolean")) {
      add(false);
      add(true);
    }
    if (types.has("integer") || types.has("number")) {
      const points: number[] = [];
      for (const a of this.atoms) {
        if (
          (a.operator === "min" || a.operator === "max" || a.operator === "equals") &&
          typeof a.value === "number"
        )
          points.push(a.value);
        if (a.operator === "in")
          for (const v of a.value as unknown[]) if (typeof v === "number") points.push(v);
      }
      const multiples = new Set<number>();
      for (const { schema } of this.sides) {
        for (const key of ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]) {
          if (typeof schema[key] === "number") points.push(schema[key] as number);
        }
        if (typeof schema.multipleOf === "number" && schema.multipleOf > 0) multiples.add(schema.multipleOf);
      }
      const integerOnly = this.sides.map((s) => !allowedTypes(s.schema).has("number"));
      const integers = integerOnly.every((i) => i) ? "all" : integerOnly.some((i) => i) ? "some" : "none";
      const numbers = numberRepresentatives(points, [...multiples], integers);
      for (const v of numbers.values) add(v);
      // A piece whose valid numbers may not all be among them: its truths, but no witness.
      for (const v of numbers.uncertain) {
        out.push({ kind: "opaque", type: "number", masks: this.atoms.map((atom) => 1 << atom.test(v)) });
      }
    }
    if (types.has("string")) out.push({ kind: "strings" });
    for (const type of ["array", "object"] as const) {
      if (!types.has(type)) continue;
      const before = out.length;
      for (const v of literalsOf(type)) add(v);
      add(type === "array" ? [] : {});
      if (type === "array") {
        const arrays = this.#arrays();
        for (const v of arrays.values) add(v);
        // Answers of arrays whose elements could not all be built, each with its truths.
        for (const masks of arrays.abstract ?? []) out.push({ kind: "opaque", type, masks });
        // Every set of items the schema allows is among them, and only `any`, `all` and `exists` read the field
        // (no literal to compare with): their answers depend on that set alone.
        if (arrays.exhaustive) continue;
      }
      // Contents matter to `any` and `all`, and to equality with a literal of the type: not enumerated here.
      const reads = this.atoms.some(
        (a) =>
          (type === "array" && (a.operator === "any" || a.operator === "all")) || literalsOf(type).length > 0,
      );
      if (reads || out.length === before) out.push({ kind: "opaque", type });
    }
    this.#options = out;
    return out;
  }

  /**
   * Arrays for `any` and `all`: when every side's `items` lists its values (`enum`, `const`; at most six), one array
   * per set of them (padded to each side's `minItems` with its first item), which is every set a valid array can
   * have (`exhaustive`, when only `any`, `all` and `exists` read the field); otherwise arrays of the values the
   * operators name inside `any` and `all`, to try as witnesses.
   */
  #arrays(): {
    readonly values: readonly unknown[][];
    readonly exhaustive: boolean;
    readonly abstract?: readonly (readonly number[])[];
  } {
    if (!this.atoms.some((a) => a.operator === "any" || a.operator === "all"))
      return { values: [], exhaustive: false };
    const itemValues = this.sides.map(({ schema }) => {
      const items = schema.items;
      if (items === null || typeof items !== "object" || Array.isArray(items)) return undefined;
      return finiteValues(items as JsonSchema);
    });
    const values: unknown[][] = [];
    if (itemValues.every((v) => v !== undefined)) {
      const seen = new Set<string>();
      const domain: unknown[] = [];
      for (const list of itemValues)
        for (const v of list as readonly unknown[]) {
          const key = canonicalJson(v);
          if (!seen.has(key)) {
            seen.add(key);
            domain.push(v);
          }
        }
      if (domain.length <= 6) {
        const minimums = new Set(
          this.sides.map(({ schema }) => (typeof schema.minItems === "number" ? schema.minItems : 0)),
        );
        for (let mask = 1; mask < 1 << domain.length; mask++) {
          const set = domain.filter((_, i) => (mask & (1 << i)) !== 0);
          values.push(set);
          for (const min of minimums)
            if (min > set.length) values.push([...set, ...Array(min - set.length).fill(set[0])]);
        }
        const exhaustive = this.atoms.every(
          (a) => a.operator === "any" || a.operator === "all" || a.operator === "exists",
        );
        return { values, exhaustive };
      }
    }
    const strings = this.#stringItemArrays();
    if (strings?.exhaustive) return strings;
    if (strings !== undefined) values.push(...strings.values);
    const named = new Set<string>();
    const literals: unknown[] = ["a"];
    for (const a of this.atoms) {
      if (a.operator !== "any" && a.operator !== "all") continue;
      const inner = a.value as Record<string, unknown> | null;
      if (inner === null || typeof inner !== "object") continue;
      if ("equals" in inner) literals.push(inner.equals);
      if (Array.isArray(inner.in)) literals.push(...(inner.in as unknown[]));
    }
    const distinct = literals.filter((v) => {
      const key = canonicalJson(v);
      if (named.has(key)) return false;
      named.add(key);
      return true;
    });
    for (const v of distinct.slice(0, 8)) values.push([v]);
    for (let i = 0; i < Math.min(distinct.length, 5); i++)
      for (let j = i + 1; j < Math.min(distinct.length, 5); j++) values.push([distinct[i], distinct[j]]);
    return { values, exhaustive: false };
  }

  /**
   * Arrays for `any` and `all` when every side's `items` is a string schema: the operators inside them, read on one
   * element, make a string field of their own, and each assignment of their truths an element can have gives one
   * kind of element (its witness, when one is found). The runtime's `any` is the Kleene or of its elements' answers
   * and `all` their and, so an array's answers depend on the kinds of its elements, and arrays grown one kind at a
   * time give every combination: concrete arrays, and `abstract` answers (masks per atom of the field) for those
   * with a kind that has no witness. Exhaustive when only `any`, `all` and `exists` read the field and no side has
   * `uniqueItems`.
   */
  #stringItemArrays():
    | {
        readonly values: readonly unknown[][];
        readonly exhaustive: boolean;
        readonly abstract: readonly (readonly number[])[];
      }
    | undefined {
    const items = this.sides.map(({ schema }) => schema.items);
    const isSchema = (v: unknown): v is JsonSchema =>
      v !== null && typeof v === "object" && !Array.isArray(v);
    if (!items.every(isSchema)) return undefined;
    const itemSchemas = items as JsonSchema[];
    if (!itemSchemas.every((schema) => [...allowedTypes(schema)].join() === "string")) return undefined;
    const readers = this.atoms.filter((a) => a.operator === "any" || a.operator === "all");
    const table = new AtomTable();
    for (const a of readers) table.condition({ element: a.value as OperatorSpec }, this.ref.scope);
    const elementAtoms = table.atoms;
    if (elementAtoms.length === 0 || elementAtoms.length > MAX_ELEMENT_ATOMS) return undefined;
    const element = new FieldDomain(
      fieldRef(this.ref.scope, `${this.ref.path.join(".")}[*]`),
      elementAtoms,
      itemSchemas.map((schema) => ({ schema, missingAllowed: false })),
      this.#pool,
    );
    const theory = element.strings();
    if (theory === null) return undefined;
    // The readers' answers on one element, from its operators' truths (`any` and `all` compile the operators
    // inside them as a condition does), and one element per distinct set of answers that has a witness.
    const inner = readers.map((a) => table.condition({ element: a.value as OperatorSpec }, this.ref.scope));
    const kinds = new Map<string, string | undefined>();
    const walk = (i: number, state: TheoryState, key: string, truths: Truth[]): void => {
      if (i === elementAtoms.length) {
        const profile = inner.map((f) => truthOf(f, truths)).join("");
        if (kinds.get(profile) !== undefined) return;
        const found = theory.witness(state, key);
        kinds.set(profile, found?.text);
        return;
      }
      for (const truth of [0, 1, 2] as const) {
        const next = `${key}${i}:${truth};`;
        const assigned = theory.assign(state, i, truth, next);
        if (assigned !== null) walk(i + 1, assigned, next, [...truths, truth]);
      }
    };
    walk(0, theory.initial, "", []);
    // An array's answers: the Kleene or (`any`) or and (`all`) of its elements'. Grown one kind at a time, one array
    // per set of answers; an array with an element that has no witness is abstract.
    const combine = (a: string, b: string): string =>
      [...a]
        .map((x, k) => {
          const pair = [Number(x), Number(b[k])];
          const [win, lose] = (readers[k] as Atom).operator === "any" ? [1, 0] : [0, 1];
          return pair.includes(win) ? win : pair.includes(2) ? 2 : lose;
        })
        .join("");
    const profiles = [...kinds.keys()];
    const arrays = new Map<string, (string | undefined)[]>();
    let frontier: [string, (string | undefined)[]][] = profiles.map((p) => [p, [kinds.get(p)]]);
    for (const [p, array] of frontier) arrays.set(p, array);
    while (frontier.length > 0) {
      const next: [string, (string | undefined)[]][] = [];
      for (const [answers, array] of frontier)
        for (const p of profiles) {
          const grown = combine(answers, p);
          if (arrays.has(grown)) continue;
          const elements = [...array, kinds.get(p)];
          arrays.set(grown, elements);
          next.push([grown, elements]);
        }
      frontier = next;
    }
    const values: unknown[][] = [];
    const abstract: number[][] = [];
    const minimums = new Set(
      this.sides.map(({ schema }) => (typeof schema.minItems === "number" ? schema.minItems : 0)),
    );
    for (const [answers, elements] of arrays) {
      if (elements.some((e) => e === undefined)) {
        // The field's atoms: each reader's answer; `exists` is true of any array.
        abstract.push(
          this.atoms.map((a) => {
            const k = readers.indexOf(a);
            return k >= 0 ? 1 << Number(answers[k]) : 1 << a.test([]);
          }),
        );
        continue;
      }
      const array = elements as string[];
      values.push(array);
      // Padded with its first element, which changes no answer.
      for (const min of minimums)
        if (min > array.length) values.push([...array, ...Array(min - array.length).fill(array[0])]);
    }
    // Breadth first, the array built for a set of answers has the fewest elements any array with those answers
    // has (one per kind it adds on the way, never more kinds than that array's), so a valid array's answers are had
    // by one no longer than it: within any `maxItems`. Padding repeats an element, which `uniqueItems` refuses.
    const roomy = this.sides.every(({ schema }) => schema.uniqueItems !== true);
    const onlyReaders = this.atoms.every(
      (a) => a.operator === "any" || a.operator === "all" || a.operator === "exists",
    );
    // With the abstract ones, every set of answers a valid array can have is among them.
    return { values, exhaustive: roomy && onlyReaders, abstract: roomy && onlyReaders ? abstract : [] };
  }

  /**
   * Strings to try as values where the field's string theory is too large to build ({@link strings} is null): of
   * each operator's language alone (its pattern, its text, its seed) and of its complement, on each side's valid
   * strings, the shortest and the most readable one of each length at and next to the sides' length bounds (a
   * `maxLength` raised past a pattern's window: `drop.{0,46}table` misses the longest strings of `^drop [a-z ]*table$`).
   * Each is a concrete value whose truths the runtime's operators give: a witness to try, never a proof (the
   * search keeps the abstract option beside them).
   */
  fallbackStrings(): readonly FieldOption[] {
    if (this.#fallback !== undefined) return this.#fallback;
    const out: FieldOption[] = [];
    const seen = new Set<string>();
    const add = (text: string) => {
      if (out.length >= MAX_FALLBACK_STRINGS || seen.has(text) || !this.#validSomewhere(text)) return;
      seen.add(text);
      out.push(this.#concrete(text));
    };
    const sources: { pattern: string; flags: string }[] = [];
    for (const a of this.atoms) {
      if (a.operator === "regex") sources.push(regexSource(a.value));
      if (a.operator === "prefix") sources.push({ pattern: `^${literal(a.value as string)}`, flags: "u" });
      for (const v of a.operator === "equals" || a.operator === "in" ? [a.value].flat() : [])
        if (typeof v === "string") add(v);
      for (const truth of [1, 2] as const) {
        const seed = seedPattern(a, truth);
        if (seed !== undefined) sources.push(seed);
      }
    }
    const bounds = new Set<number>();
    for (const { schema } of this.sides)
      for (const key of ["minLength", "maxLength"])
        if (typeof schema[key] === "number") bounds.add(schema[key] as number);
    const tooLarge = new Set<string>();
    for (const source of sources) {
      for (const { schema } of this.sides) {
        const key = `${source.flags}\u0000${source.pattern}`;
        if (tooLarge.has(key) || out.length >= MAX_FALLBACK_STRINGS) continue;
        try {
          const patterns = [source];
          if (typeof schema.pattern === "string") patterns.push({ pattern: schema.pattern, flags: "u" });
          const format = formatLanguage(schema.format);
          if (format !== undefined) patterns.push(format);
          const builder = new AlphabetBuilder();
          for (const { pattern, flags } of patterns) {
            const language = RegexLanguage.parse(pattern, flags);
            if (language === undefined) throw new TooComplex(`pattern ${pattern} does not parse`);
            language.addBoundaries(builder);
          }
          builder.addRanges([0x20, 0x20, 0x30, 0x39, 0x41, 0x5a, 0x61, 0x7a]);
          const automata = this.#pool.get(builder);
          let valid = constant(automata.alphabet.size, true);
          for (const { pattern, flags } of patterns.slice(1))
            valid = intersect(valid, automata.pattern(pattern, flags));
          const language = automata.pattern(source.pattern, source.flags);
          const lo = typeof schema.minLength === "number" ? schema.minLength : 0;
          const hi = typeof schema.maxLength === "number" ? schema.maxLength : Number.POSITIVE_INFINITY;
          const lengths = lengthRange(lo, hi);
          for (const region of [intersect(valid, language), subtract(valid, language)]) {
            const shortest = shortestLength(region, lengths);
            if (shortest === undefined) continue;
            const targets = [shortest];
            for (const b of bounds) targets.push(b - 1, b, b + 1);
            if (hi <= MAX_FALLBACK_LENGTH) targets.push(hi);
            for (const n of new Set(targets)) {
              // Each step of a string of length n reads every state: a large automaton gets the short ones alone.
              if (n < lo || n > hi || n > MAX_FALLBACK_LENGTH || n * region.n > MAX_FALLBACK_CELLS) continue;
              const symbols = stringOfLength(automata.alphabet, region, n);
              if (symbols !== undefined) add(automata.alphabet.spell(symbols));
            }
          }
        } catch (error) {
          if (!(error instanceof TooComplex)) throw error;
          tooLarge.add(key);
        }
      }
    }
    this.#fallback = out;
    return out;
  }

  /** The string theory of this field (built on first need), or null when strings are not modelled for it. */
  strings(): StringTheory | null {
    if (this.#strings === undefined) {
      try {
        this.#strings = new StringTheory(this, this.#pool);
      } catch (error) {
        if (!(error instanceof TooComplex)) throw error;
        this.#strings = null;
      }
    }
    return this.#strings;
  }
}

/**
 * Whether a regex operator answers exactly (never a maybe past the runtime's work bound) on every string of at most
 * `maxLength` code points; false where that cannot be shown (an automaton too large to read: `TooComplex`).
 */
export function regexExact(spec: unknown, maxLength: number): boolean {
  try {
    return regexExactOrThrow(spec, maxLength);
  } catch (error) {
    if (error instanceof TooComplex) return false;
    throw error;
  }
}

function regexExactOrThrow(spec: unknown, maxLength: number): boolean {
  const compiled = compileRegexOperator(spec as string);
  if (!compiled.ok) return false;
  const regex = compiled.regex as unknown as {
    machine?: {
      shortcut?: { literal?: unknown };
      dfaEligible?: boolean;
      ops?: Int32Array;
      unicode?: boolean;
    };
  };
  if (regex.machine?.shortcut?.literal !== undefined) return true;
  if (regex.machine?.dfaEligible !== true) {
    // The Pike VM (vm.ts `run`; `\b`, `\B`, flag `m`): one step per character at most (a code point with flag `u`,
    // a code unit without: a string of `maxLength` code points has at most twice as many), each costing 3 per live
    // thread plus 1, and a live thread is a consuming instruction, each at most once.
    const ops = regex.machine?.ops;
    if (ops === undefined) return false;
    const steps = regex.machine?.unicode === true ? maxLength : 2 * maxLength;
    return steps * (3 * consumingInstructions(ops) + 1) <= REGEX_WORK_BOUND;
  }
  const source = typeof spec === "string" ? spec : (spec as { pattern: string }).pattern;
  const flags = typeof spec === "string" ? "" : `${(spec as { flags?: string }).flags ?? ""}u`;
  const tree = parseRegexTree(source, flags);
  const ops = regex.machine.ops;
  if (tree === undefined || ops === undefined) return false;
  if (
    regexWorkUpperBound(Math.max(programSize(tree), ops.length), passedStates(ops, maxLength) - 1) <=
    REGEX_WORK_BOUND
  )
    return true;
  const key = JSON.stringify(spec);
  let all = EVERY_STATE_COST.get(key);
  if (all === undefined) {
    all = everyStateCost(regex.machine as unknown as DfaMachine, source, flags) ?? Number.POSITIVE_INFINITY;
    EVERY_STATE_COST.set(key, all);
  }
  return all <= REGEX_WORK_BOUND;
}

/** What {@link everyStateCost} reads of the runtime's machine (vm.ts `Machine`: its lazy DFA's own steps). */
interface DfaMachine {
  readonly shortcut: { readonly anchoredStart: boolean };
  readonly unicode: boolean;
  dfaClosure(
    kernel: Int32Array,
    atStart: boolean,
    atEnd: boolean,
  ): { closed: Int32Array; matched: boolean; steps: number };
  consumes(pc: number, c: number): boolean;
}

/** The cost of every state of a regex's lazy DFA, by the regex operator's value (see {@link everyStateCost}). */
const EVERY_STATE_COST = new Map<string, number>();
/** States past this many are not counted: the pattern is then read as one that may answer maybe. */
const MAX_COUNTED_STATES = 4096;

/**
 * The sum of the costs of every state the runtime's lazy DFA can reach (vm.ts `runDfa` counts each distinct state
 * once per run, at the cost `dfaState` gives it), or undefined past {@link REGEX_WORK_BOUND} or
 * {@link MAX_COUNTED_STATES}: when within the bound, no input of any length passes it. The states are found
 * as the runtime makes them, one character of each class of the pattern's alphabet (every character of a class is
 * read alike by every test of the pattern), and the lone surrogates a pattern without `u` reads as characters.
 */
function everyStateCost(machine: DfaMachine, source: string, flags: string): number | undefined {
  const language = RegexLanguage.parse(source, flags);
  if (language === undefined) return undefined;
  const builder = new AlphabetBuilder();
  language.addBoundaries(builder);
  if (!machine.unicode) {
    builder.addRanges([0xd800, 0xdbff]);
    builder.addRanges([0xdc00, 0xdfff]);
  }
  const alphabet = builder.build();
  const probes = [...alphabet.reps].filter((c) => machine.unicode || c <= 0xffff);
  const anchored = machine.shortcut.anchoredStart;
  const seen = new Set<string>();
  const queue: { kernel: Int32Array; atStart: boolean }[] = [{ kernel: Int32Array.of(0), atStart: true }];
  seen.add(`${queue[0]?.kernel.join(",")}true`);
  let total = 0;
  for (let next = 0; next < queue.length; next++) {
    if (queue.length > MAX_COUNTED_STATES) return undefined;
    const { kernel, atStart } = queue[next] as { kernel: Int32Array; atStart: boolean };
    const { closed, matched, steps } = machine.dfaClosure(kernel, atStart, false);
    total += steps + 3 * (kernel.length + closed.length) + 2 * closed.length;
    if (total > REGEX_WORK_BOUND) return undefined;
    // A run stops at a state that matched, and (anchored) at one with no thread left.
    if (matched || (anchored && closed.length === 0)) continue;
    for (const c of probes) {
      const out: number[] = anchored ? [] : [0];
      for (const pc of closed) if (machine.consumes(pc, c)) out.push(pc + 1);
      const key = `${out.join(",")}false`;
      if (seen.has(key)) continue;
      seen.add(key);
      queue.push({ kernel: Int32Array.from(out), atStart: false });
    }
  }
  return total;
}

/**
 * At most how many distinct states the runtime's lazy DFA passes on a string of at most `maxLength` code points:
 * one per code unit and the start (code points may be two units each), and never more than it has. Its budget
 * counts each distinct state once per run (vm.ts `runDfa`). A state is the set of threads before their closure,
 * each the start or the instruction after a consuming one, so there are at most 2^(consuming + 1) of them, and the
 * start again where `^` holds.
 */
/** The instructions of a program that consume a character (`char`, `set`, `any`). */
function consumingInstructions(ops: Int32Array): number {
  let consuming = 0;
  for (const op of ops)
    if (op === REGEX_OPS.char || op === REGEX_OPS.set || op === REGEX_OPS.any) consuming++;
  return consuming;
}

function passedStates(ops: Int32Array, maxLength: number): number {
  const consuming = consumingInstructions(ops);
  const byLength = 2 * maxLength + 1;
  return consuming >= 30 ? byLength : Math.min(byLength, 2 ** (consuming + 1) + 1);
}

function regexSource(spec: unknown): { pattern: string; flags: string } {
  if (typeof spec === "string") return { pattern: spec, flags: "" };
  const object = spec as { pattern: string; flags?: string };
  return { pattern: object.pattern, flags: `${object.flags ?? ""}u` };
}

/** The longest string a side's schema allows. */
export function maxLengthOf(sides: readonly FieldSchema[]): number {
  let max = 0;
  for (const { schema } of sides) {
    if (typeof schema.maxLength !== "number") return Number.POSITIVE_INFINITY;
    max = Math.max(max, schema.maxLength);
  }
  return max;
}

/** The strings of a field, as automata (see the module comment). */
export class StringTheory {
  readonly alphabet: Alphabet;
  readonly #field: FieldDomain;
  readonly #atoms: readonly StringAtom[];
  readonly #facts: FieldFacts;
  readonly #initial: TheoryState;
  readonly #automata: Automata;
  /** Every valid string (of some side), exact or not. */
  readonly #valid: Region;
  readonly #cache = new Map<string, TheoryState | null>();
  /** Per region, whether it meets each `command` atom's lines ({@link meets}). */
  readonly #lines = new WeakMap<Dfa, Map<number, boolean>>();
  /** Per region and the truths of its `command` lists, whether their known answers rule all of it out. */
  readonly #plainInside = new WeakMap<Dfa, Map<string, boolean>>();
  /** The automata of the field and of its `command` lists' plain sets, made when first needed. */
  readonly #joint: () => JointPlain;
  #jointPlain: JointPlain | undefined;
  /** The strings that are not plain lines of one command, over the field's alphabet (made when first needed). */
  #notPlain: Dfa | undefined;
  /** The inert programs an operator that narrows strings names (see `#inertAgrees`). */
  readonly #inertHeads: readonly string[];
  /** Per loose region, the inert programs whose plain lines hold every string of it, or null for none. */
  readonly #inertHeadsOf = new WeakMap<Dfa, readonly string[] | null>();
  readonly #witnesses = new Map<string, readonly { readonly text: string; readonly loose: boolean }[]>();
  /** Loose candidates by the loose region and the truths they are drawn from (many states share them). */
  readonly #looseCache = new WeakMap<Dfa, Map<string, LazyStrings>>();
  #fixed: readonly string[] | undefined;
  /** Compound commands of the field's command words, with every atom's answer on each (see `#compound`). */
  #compounds: { readonly text: string; readonly truths: readonly Truth[] }[] | undefined;
  /** Path spellings the runtime reads several ways (see `#pathCandidates`). */
  #paths: string[] | undefined;
  /** The options of the field's `command` lists (see `#commandOptions`). */
  #optionWords: string[] | undefined;
  /** The prefixes that list their options (see `#optionPrefixes`), made once. */
  #listingOptions: string[] | undefined;
  readonly #seedStrings = new Map<string, readonly string[]>();
  /** Whether some atom reads strings in a way modelled only on simple paths. */
  readonly hasPaths: boolean;
  /** Whether some atom reads strings in a way modelled only on simple URLs. */
  readonly hasUrls: boolean;

  constructor(field: FieldDomain, pool: AutomataPool) {
    this.#field = field;
    const atoms = field.atoms;
    const builder = new AlphabetBuilder();
    const globs: string[] = [];
    const prefixes: string[] = [];
    const urls: UrlSpec[] = [];
    const texts: string[] = [];
    /** Every pattern the field's automata are made from: its boundaries cut the alphabet. */
    const patterns: { pattern: string; flags: string }[] = [];
    /** The texts of the operators that narrow a region to strings (a `command` list never does). */
    const narrowing: string[] = [];
    for (const a of atoms) {
      if (a.operator === "regex" || a.operator === "equals" || a.operator === "in" || a.operator === "prefix")
        narrowing.push(JSON.stringify(a.value));
      if (a.operator === SCHEMA_OPERATOR) narrowing.push(JSON.stringify((a.value as SchemaSide).schema));
      if (a.operator === "glob")
        globs.push(...(typeof a.value === "string" ? [a.value] : (a.value as string[])));
      if (a.operator === "path_prefix") prefixes.push(a.value as string);
      if (a.operator === "regex") patterns.push(regexSource(a.value));
      if (a.operator === "equals" && typeof a.value === "string") texts.push(a.value);
      if (a.operator === "in") for (const v of a.value as unknown[]) if (typeof v === "string") texts.push(v);
      if (a.operator === "prefix") texts.push(a.value as string);
      // Seeds of candidates spell command words and URL parts: each of their characters is a symbol of its own.
      if (a.operator === "command") {
        patterns.push(
          { pattern: SAFE_SUBSET_SUPERSET, flags: "u" },
          { pattern: PLAIN_COMMAND_LINE, flags: "u" },
        );
        const plain = plainCertain(a.value);
        if (plain !== undefined)
          patterns.push({ pattern: plain.lines, flags: "u" }, { pattern: plain.starts, flags: "u" });
        const first = commandFirstWords(a.value);
        if (first !== undefined) patterns.push({ pattern: commandLinesPattern(first), flags: "u" });
        for (const spec of a.value as unknown[]) {
          const read = parseCommandPrefixSpec(spec);
          if (read.ok) texts.push(...read.prefix.words, ...(read.prefix.options ?? []));
        }
      }
      if (a.operator === "url") {
        texts.push(JSON.stringify(a.value), "://@.-_");
        urls.push(a.value as UrlSpec);
      }
      if (a.operator === SCHEMA_OPERATOR) {
        const side = a.value as SchemaSide;
        for (const v of finiteValues(side.schema) ?? []) if (typeof v === "string") texts.push(v);
        if (typeof side.schema.pattern === "string")
          patterns.push({ pattern: side.schema.pattern, flags: "u" });
        const format = formatLanguage(side.schema.format);
        if (format !== undefined) patterns.push(format);
      }
      for (const truth of [0, 1, 2] as const) {
        const seed = seedPattern(a, truth);
        if (seed !== undefined) patterns.push(seed);
      }
      const runners = seedPattern(a, 2, true);
      if (runners !== undefined && a.operator === "command") patterns.push(runners);
    }
    const sidePatterns = field.sides.map(({ schema }) =>
      typeof schema.pattern === "string" ? { pattern: schema.pattern, flags: "u" } : undefined,
    );
    for (const p of sidePatterns) if (p !== undefined) patterns.push(p);
    for (const { schema } of field.sides) {
      const format = formatLanguage(schema.format);
      if (format !== undefined) patterns.push(format);
    }
    // Inert programs an operator that narrows strings names (`regex: "^echo [a-z]+$"`, a schema's `enum`): a loose
    // region of their plain lines alone settles every `command` list at once (see `#inertAgrees`).
    for (const { schema } of field.sides) narrowing.push(JSON.stringify(schema));
    this.#inertHeads = atoms.some((a) => a.operator === "command")
      ? [...INERT_HEADS].filter((h) => narrowing.some((text) => text.includes(h)))
      : [];
    for (const h of this.#inertHeads) patterns.push({ pattern: inertLinesPattern(h), flags: "u" });
    this.hasPaths = globs.length > 0 || prefixes.length > 0;
    this.hasUrls = urls.length > 0;
    const register = (b: AlphabetBuilder, more: readonly string[]): void => {
      if (this.hasPaths) pool.addPathBoundaries(b, globs, prefixes);
      if (this.hasUrls) UrlLanguages.addBoundaries(b, urls);
      for (const { pattern, flags } of [...patterns, ...more.map((pattern) => ({ pattern, flags: "u" }))]) {
        const language = RegexLanguage.parse(pattern, flags);
        if (language === undefined) throw new TooComplex(`pattern ${pattern} does not parse`);
        language.addBoundaries(b);
      }
      for (const t of texts) b.addText(t);
      // Letters, digits and the blank: witnesses may use them.
      b.addRanges([0x20, 0x20, 0x30, 0x39, 0x41, 0x5a, 0x61, 0x7a]);
    };
    register(builder, []);
    const automata = pool.get(builder);
    // The automata over an alphabet that also cuts the plain-line patterns of every `command` list of the field
    // (#plainDecides), and the shared sets read over it.
    this.#joint = () => {
      const b = new AlphabetBuilder();
      const more = atoms.flatMap((a) => {
        const p = a.operator === "command" ? plainCommandPatterns(a.value) : undefined;
        return p === undefined ? [] : [...p.mayRun, p.covered, p.mayCover];
      });
      const runners = runnerCommandLines();
      register(b, [
        ...new Set([
          ...specialCommandLines(),
          ...runners.within,
          ...runners.outside,
          notPlainReadLines(),
          ...more,
        ]),
      ]);
      return { automata: pool.get(b) };
    };
    this.#automata = automata;
    const alphabet = automata.alphabet;
    this.alphabet = alphabet;
    const k = alphabet.size;
    const paths = this.hasPaths ? automata.paths() : undefined;
    const urlLanguages = this.hasUrls ? automata.urls() : undefined;
    const maxLength = maxLengthOf(field.sides);
    this.#atoms = atoms.map((a): StringAtom => {
      switch (a.operator) {
        case "exists":
        case "min":
        case "max":
        case "any":
        case "all":
          return { kind: "fixed", truth: a.test("") };
        case "equals":
          return typeof a.value === "string"
            ? { kind: "lang", lang: literals(alphabet, [a.value]), degradable: false }
            : { kind: "fixed", truth: 0 };
        case "in": {
          const strings = (a.value as unknown[]).filter((v): v is string => typeof v === "string");
          return { kind: "lang", lang: literals(alphabet, strings), degradable: false };
        }
        case "prefix":
          return { kind: "lang", lang: startsWith(alphabet, a.value as string), degradable: false };
        case "regex": {
          const { pattern, flags } = regexSource(a.value);
          return {
            kind: "lang",
            lang: automata.pattern(pattern, flags),
            degradable: !regexExact(a.value, maxLength),
          };
        }
        case "glob": {
          const list = typeof a.value === "string" ? [a.value] : (a.value as string[]);
          return { kind: "path", ...(paths as PathLanguages).glob(list) };
        }
        case "path_prefix":
          return { kind: "path", ...(paths as PathLanguages).pathPrefix(a.value as string) };
        case "url": {
          const languages = (urlLanguages as UrlLanguages).url(a.value as UrlSpec);
          return languages === undefined ? { kind: "free" } : { kind: "path", ...languages };
        }
        case SCHEMA_OPERATOR:
          return schemaAtom(a.value as SchemaSide, automata, k);
        case SCHEMA_LENGTH_OPERATOR: {
          const { lo, hi } = a.value as SchemaLength;
          return { kind: "length", lengths: lengthRange(lo, hi ?? Number.POSITIVE_INFINITY) };
        }
        case "command": {
          // Certain only of the safe subset, and only where every simple command starts with a prefix's word; on a
          // line of one plain command, only where its words start with a prefix's words as written (`plainCertain`).
          const plain = plainCertain(a.value);
          const safe =
            plain === undefined
              ? automata.pattern(SAFE_SUBSET_SUPERSET, "u")
              : intersect(
                  automata.pattern(SAFE_SUBSET_SUPERSET, "u"),
                  union(complement(automata.pattern(plain.lines, "u")), automata.pattern(plain.starts, "u")),
                );
          const first = commandFirstWords(a.value);
          const inert = (head: string): Truth | undefined => inertAnswer(a.value, head);
          const plainPatterns = plainCommandPatterns(a.value);
          const known = plainPatterns === undefined ? {} : { plain: plainPatterns };
          if (first === undefined)
            return { kind: "free", certainAnywhere: safe, inertAnswer: inert, ...known };
          // Made when first needed: most lists are never certain where a loose region is left.
          const lines = commandLinesPattern(first);
          return {
            kind: "free",
            certainAnywhere: safe,
            certainLines: () => automata.pattern(lines, "u"),
            inertAnswer: inert,
            ...known,
          };
        }
        default:
          return { kind: "free" };
      }
    });
    this.#facts = new FieldFacts(automata, atoms);
    // The valid strings: on some side (diff tells the sides apart with their own atoms).
    let valid = constant(k, false);
    let lengths: LengthSet = [];
    field.sides.forEach(({ schema }, i) => {
      const p = sidePatterns[i];
      let side = p === undefined ? constant(k, true) : automata.pattern(p.pattern, p.flags);
      // A format's language (a superset of what it accepts, exact for most: the validator checks witnesses).
      const format = formatLanguage(schema.format);
      if (format !== undefined) side = intersect(side, automata.pattern(format.pattern, format.flags));
      valid = union(valid, side);
      const lo = typeof schema.minLength === "number" ? schema.minLength : 0;
      const hi = typeof schema.maxLength === "number" ? schema.maxLength : Number.POSITIVE_INFINITY;
      lengths = mergeLengths(lengths, lengthRange(lo, hi));
    });
    // The strings every operator of the field is modelled on: simple paths, simple URLs, or (both) none.
    let universe: Dfa | undefined;
    if (paths !== undefined) universe = paths.simple;
    if (urlLanguages !== undefined)
      universe = universe === undefined ? urlLanguages.simple : intersect(universe, urlLanguages.simple);
    const exactDomain = universe !== undefined ? intersect(valid, universe) : valid;
    const looseDomain = universe !== undefined ? subtract(valid, universe) : valid;
    this.#valid = { dfa: valid, lengths };
    const exact = { dfa: exactDomain, lengths };
    const loose = { dfa: looseDomain, lengths };
    this.#initial = {
      exact: nonEmpty(exact) ? exact : null,
      loose: nonEmpty(loose) ? loose : null,
      truths: new Map(),
    };
  }

  get initial(): TheoryState {
    return this.#initial;
  }

  /**
   * The state after the field's atom `index` is given `truth`; null when no string can be so. Cached by the
   * sequence of assignments (the search reaches the same one from many branches of other fields).
   */
  assign(state: TheoryState, index: number, truth: Truth, key: string): TheoryState | null {
    const cached = this.#cache.get(key);
    if (cached !== undefined) return cached;
    const next = this.#assign(state, index, truth);
    this.#cache.set(key, next);
    return next;
  }

  #assign(state: TheoryState, index: number, truth: Truth): TheoryState | null {
    const atom = this.#atoms[index] as StringAtom;
    const truths = new Map(state.truths);
    truths.set(index, truth);
    let { exact, loose } = state;
    // Not minimised: the product already drops the pairs that lead nowhere, and minimising every narrowed region
    // was most of the cost of narrowing (measured on the diff of the reference policy: 0.5 s of 2.7 s).
    const narrow = (region: Region | null, lang: Dfa): Region | null => {
      if (region === null) return null;
      const r = { dfa: intersect(region.dfa, lang, false), lengths: region.lengths };
      return nonEmpty(r) ? r : null;
    };
    // The exact region's strings on which an atom is not modelled move to the loose region: they are still
    // strings of the field (dropping them would lose calls, and a `holds` could be wrong).
    const loosen = (): void => {
      if (exact !== null)
        loose = loose === null ? exact : { dfa: union(loose.dfa, exact.dfa), lengths: loose.lengths };
      exact = null;
    };
    switch (atom.kind) {
      case "fixed":
        if (truth !== atom.truth) return null;
        break;
      case "lang":
        if (truth === 2) {
          if (!atom.degradable) return null;
          loosen();
        } else {
          const lang = truth === 1 ? atom.lang : complement(atom.lang);
          exact = narrow(exact, lang);
          loose = narrow(loose, lang);
        }
        break;
      case "path": {
        const lang =
          truth === 1
            ? atom.certain
            : truth === 2
              ? subtract(atom.possible, atom.certain)
              : complement(atom.possible);
        exact = narrow(exact, lang);
        if (truth === 1 && atom.certainAnywhere !== undefined) loose = narrow(loose, atom.certainAnywhere);
        if (truth === 0 && atom.neverFalse !== undefined) loose = narrow(loose, complement(atom.neverFalse));
        break;
      }
      case "length": {
        if (truth === 2) return null;
        const lengths = truth === 1 ? atom.lengths : complementLengths(atom.lengths);
        const cut = (region: Region | null): Region | null => {
          if (region === null) return null;
          const r = { dfa: region.dfa, lengths: intersectLengths(region.lengths, lengths) };
          return nonEmpty(r) ? r : null;
        };
        exact = cut(exact);
        loose = cut(loose);
        break;
      }
      case "free":
        loosen();
        if (truth === 1 && atom.certainAnywhere !== undefined) loose = narrow(loose, atom.certainAnywhere);
        break;
    }
    if (loose !== null && !this.#facts.allows(this.#atomTruths(truths))) loose = null;
    if (loose !== null && !this.#meetsLines(loose.dfa, truths)) loose = null;
    if (loose !== null && this.#plainDecides(loose.dfa, truths)) loose = null;
    if (loose !== null) loose = this.#settle(loose, truths);
    if (loose !== null && !this.#inertAgrees(loose.dfa, truths)) loose = null;
    if (exact === null && loose === null) return null;
    return { exact, loose, truths };
  }

  /**
   * A loose region of a few strings (narrowed to them by an `equals`, `in` or literal regex), as the strings of it on
   * which every atom has its assigned truth: each is run, so the region is then known exactly, and none left means
   * the truths cannot be had there (`^npm test$` true, so `command: ["npm test --"]` is false, not a maybe).
   */
  #settle(loose: Region, truths: ReadonlyMap<number, Truth>): Region | null {
    const strings = allStrings(this.alphabet, loose.dfa, loose.lengths, MAX_SETTLED);
    if (strings === undefined) return loose;
    const kept = strings.filter((s) => this.#hasTruths(truths, s));
    if (kept.length === 0) return null;
    if (kept.length === strings.length) return loose;
    return { dfa: literals(this.alphabet, kept), lengths: loose.lengths };
  }

  /**
   * Whether the `command` lists may have their assigned truths on a loose region: when every string of it is a plain
   * line of one simple command headed by an inert program (`echo`, `ls`), each list has one answer on all of that
   * program's lines (facts.ts `inertAnswer`), and the truths can be had only on the lines of a program whose answers
   * they are.
   */
  #inertAgrees(region: Dfa, truths: ReadonlyMap<number, Truth>): boolean {
    if (this.#inertHeads.length === 0) return true;
    let heads = this.#inertHeadsOf.get(region);
    if (heads === undefined) {
      const lines = this.#inertHeads.map((h) => ({
        h,
        dfa: this.#automata.pattern(inertLinesPattern(h), "u"),
      }));
      const met = lines.filter(({ dfa }) => meets(region, dfa));
      const all = met.reduce((u, { dfa }) => union(u, dfa), constant(this.alphabet.size, false));
      heads = met.length > 0 && isSubset(region, all) ? met.map(({ h }) => h) : null;
      this.#inertHeadsOf.set(region, heads);
    }
    if (heads === null) return true;
    return heads.some((head) =>
      [...truths].every(([i, truth]) => {
        const atom = this.#atoms[i] as StringAtom;
        if (atom.kind !== "free" || atom.inertAnswer === undefined) return true;
        const answer = atom.inertAnswer(head);
        return answer === undefined || answer === truth;
      }),
    );
  }

  #atomTruths(truths: ReadonlyMap<number, Truth>): Map<number, Truth> {
    const out = new Map<number, Truth>();
    for (const [i, t] of truths) out.set((this.#field.atoms[i] as Atom).id, t);
    return out;
  }

  /**
   * A string of the state's regions that has exactly the assigned truths, checked by running every atom on it; the
   * exact region's shortest, most readable string first, then candidates from the loose region.
   */
  witness(state: TheoryState, key: string): { readonly text: string; readonly loose: boolean } | undefined {
    return this.witnesses(state, key)[0];
  }

  /**
   * {@link witness}, then a compound command of the field's command words with the same truths when there is one:
   * the controller decides its parts one by one, so it may get a decision the first string does not.
   */
  witnesses(state: TheoryState, key: string): readonly { readonly text: string; readonly loose: boolean }[] {
    const known = this.#witnesses.get(key);
    if (known !== undefined) return known;
    const found = this.#witness(state);
    const out = found === undefined ? [] : [found];
    if (state.loose !== null) {
      const compound = this.#compound(state);
      if (compound !== undefined && compound !== found?.text) out.push({ text: compound, loose: true });
    }
    this.#witnesses.set(key, out);
    return out;
  }

  /** Whether every atom has its assigned truth on a string, by the runtime's own answer. */
  #hasTruths(truths: ReadonlyMap<number, Truth>, s: string): boolean {
    return [...truths].every(([i, truth]) => (this.#field.atoms[i] as Atom).test(s) === truth);
  }

  /**
   * Whether every string of the region is a plain line on which some `command` list is known to have another answer
   * than its assigned truth (plain-command.ts), each list ruling out its own lines. Read over the joint alphabet,
   * so that the field's automata do not grow: the region is not cut, only found empty.
   */
  #plainDecides(region: Dfa, truths: ReadonlyMap<number, Truth>): boolean {
    const lists: [PlainCommandPatterns, Truth][] = [];
    const keys: string[] = [];
    for (const [i, truth] of truths) {
      const atom = this.#atoms[i] as StringAtom;
      if (atom.kind !== "free" || atom.plain === undefined) continue;
      lists.push([atom.plain, truth]);
      keys.push(`${i}:${truth}`);
    }
    if (lists.length === 0) return false;
    let known = this.#plainInside.get(region);
    if (known === undefined) {
      known = new Map();
      this.#plainInside.set(region, known);
    }
    const name = keys.join(",");
    let decided = known.get(name);
    if (decided === undefined) {
      decided = false;
      try {
        // Every known set lies in the plain lines (whose characters the field's alphabet cuts): a region with
        // another string is never ruled out whole, and the joint automata are not made (a search that stops at
        // the first such string: most regions have one, and are large).
        this.#notPlain ??= complement(this.#automata.pattern(PLAIN_COMMAND_LINE, "u"));
        if (meets(region, this.#notPlain)) {
          known.set(name, false);
          return false;
        }
        this.#jointPlain ??= this.#joint();
        const j = this.#jointPlain;
        decided = this.#ruledOut(overAlphabet(region, this.alphabet, j.automata.alphabet), j, lists);
      } catch (error) {
        if (!(error instanceof TooComplex)) throw error;
      }
      known.set(name, decided);
    }
    return decided;
  }

  /**
   * Whether the lists' known answers other than their truths cover the region (over the joint alphabet). Each
   * product starts from the region, which is small, never from the plain lines alone; a list whose automata are too
   * large rules nothing out, the others still may.
   */
  #ruledOut(region: Dfa, j: JointPlain, lists: readonly (readonly [PlainCommandPatterns, Truth])[]): boolean {
    const a = j.automata;
    const cut = (from: Dfa, parts: readonly string[]): Dfa =>
      parts.reduce((rest, part) => subtract(rest, a.pattern(part, "u")), from);
    // The region's plain lines that are not special, and (made when a list is to be false) those with a later
    // runner; the region is a set of plain lines already.
    const plainOfRegion = cut(region, specialCommandLines());
    let runnersOfRegion: Dfa | undefined;
    const runners = (): Dfa => {
      const r = runnerCommandLines();
      runnersOfRegion ??= cut(intersect(region, a.pattern(r.within[1] as string, "u")), r.outside);
      return runnersOfRegion;
    };
    let left = region;
    for (const [p, truth] of lists) {
      const before = left;
      try {
        const plain = intersect(before, plainOfRegion);
        const covered = (): Dfa => intersect(plain, a.pattern(p.covered, "u"));
        const knownFalse = (): Dfa => cut(plain, p.mayRun);
        // Never true: the lines of the region, special or not, that the plain walk reads and no prefix may cover.
        const neverTrue = (): Dfa => cut(before, [p.mayCover, notPlainReadLines()]);
        const other =
          truth === 0
            ? union(intersect(before, runners()), covered())
            : truth === 1
              ? union(knownFalse(), neverTrue())
              : union(knownFalse(), covered());
        left = subtract(before, other);
      } catch (error) {
        if (!(error instanceof TooComplex)) throw error;
      }
      if (isEmpty(left)) return true;
    }
    return false;
  }

  /** Whether the region holds a string of every `command` list's lines that the truths make certain. */
  #meetsLines(region: Dfa, truths: ReadonlyMap<number, Truth>): boolean {
    for (const [i, truth] of truths) {
      const atom = this.#atoms[i] as StringAtom;
      if (truth !== 1 || atom.kind !== "free" || atom.certainLines === undefined) continue;
      let known = this.#lines.get(region);
      if (known === undefined) {
        known = new Map();
        this.#lines.set(region, known);
      }
      let met = known.get(i);
      if (met === undefined) {
        met = meets(region, atom.certainLines());
        known.set(i, met);
      }
      if (!met) return false;
    }
    return true;
  }

  /** Whether a string is valid on some side and has every assigned truth. */
  #check(state: TheoryState, s: string): boolean {
    return this.#field.sides.some((_, i) => this.#field.validOn(i, s)) && this.#hasTruths(state.truths, s);
  }

  #witness(state: TheoryState): { readonly text: string; readonly loose: boolean } | undefined {
    for (const found of this.#witnessesInOrder(state)) return found;
    return undefined;
  }

  /**
   * Every string the witness search finds with the state's truths, in the order it tries them (the first is the
   * witness), at most `limit`, without repeats: what the engine can show for these truths. For tests, which pin it
   * on a corpus, so that a candidate dropped or a stage read out of order is seen even where another string would
   * still be the first witness.
   */
  witnessCandidates(
    state: TheoryState,
    limit: number,
  ): readonly { readonly text: string; readonly loose: boolean }[] {
    const out: { readonly text: string; readonly loose: boolean }[] = [];
    const seen = new Set<string>();
    for (const found of this.#witnessesInOrder(state)) {
      if (seen.has(found.text)) continue;
      seen.add(found.text);
      out.push(found);
      if (out.length >= limit) break;
    }
    return out;
  }

  *#witnessesInOrder(state: TheoryState): Generator<{ readonly text: string; readonly loose: boolean }> {
    const check = (s: string): boolean => this.#check(state, s);
    if (state.exact !== null) {
      // A string is a witness when some side takes it: a side without a format takes the shortest one.
      const formats = this.#field.sides.map((s) => s.schema.format);
      const candidates = formats.some((f) => f === undefined)
        ? [shortestString(this.alphabet, state.exact.dfa, state.exact.lengths)]
        : someStrings(this.alphabet, state.exact.dfa, state.exact.lengths, 200).filter((s) =>
            formats.some((f) => passesFormat(f as string, s)),
          );
      for (const s of candidates) if (s !== undefined && check(s)) yield { text: s, loose: false };
    }
    if (state.loose !== null) {
      // Command lines made of the command atoms' words, then strings of each atom's seed alone (made once per atom
      // and truth): both cheap to check. The costly candidates narrowed by every seed at once come only when none
      // of them has all the truths.
      for (const s of this.#commandCandidates(state)) if (check(s)) yield { text: s, loose: true };
      for (const s of this.#seedCandidates(state, state.loose.lengths))
        if (check(s)) yield { text: s, loose: true };
      for (const s of this.#looseCandidates(state)) if (check(s)) yield { text: s, loose: true };
      for (const s of this.#falseOperands(state)) if (check(s)) yield { text: s, loose: true };
      for (const s of this.#endOfOptions(this.#looseCandidates(state)))
        if (check(s)) yield { text: s, loose: true };
      // Then other platforms' spellings of paths, which the candidates above (shortest strings) seldom are.
      for (const s of this.#pathCandidates()) if (check(s)) yield { text: s, loose: true };
      for (const s of this.#climbCandidates(state)) if (check(s)) yield { text: s, loose: true };
    }
  }

  /**
   * Paths that enter a folder a pattern is to see and climb back out of it to one a path operator is to be certain
   * of (`.github/../src/a.ts` for `^\.github/` and `src/**`): the runtime reads the path's normal form, a pattern the
   * text as written.
   */
  #climbCandidates(state: TheoryState): string[] {
    if (!this.hasPaths) return [];
    const starts: string[] = [];
    const ends: string[] = [];
    for (const [i, truth] of state.truths) {
      const atom = this.#atoms[i] as StringAtom;
      if (truth !== 1) continue;
      try {
        if (atom.kind === "lang") starts.push(...someStrings(this.alphabet, atom.lang, ANY_LENGTH, 3));
        if (atom.kind === "path") ends.push(...someStrings(this.alphabet, atom.certain, ANY_LENGTH, 3));
      } catch (error) {
        if (!(error instanceof TooComplex)) throw error;
      }
    }
    const out: string[] = [];
    for (const start of starts.slice(0, 6)) {
      const folder = start.replace(/\/+$/, "");
      if (folder === "") continue;
      for (const end of ends.slice(0, 6)) out.push(`${folder}/../${end}`, `${folder}/a/../../${end}`);
    }
    return out;
  }

  /**
   * The words of the `command` lists that are to be false, as operands of an inert program (`ls rm`, `echo rm`,
   * `ls \<newline>rm`): the runtime runs none of them, a pattern of the line sees them.
   */
  #falseOperands(state: TheoryState): string[] {
    const out: string[] = [];
    for (const [i, truth] of state.truths) {
      const atom = this.#field.atoms[i] as Atom;
      if (truth !== 0 || atom.operator !== "command") continue;
      for (const spec of (atom.value as unknown[]).slice(0, 8)) {
        const read = parseCommandPrefixSpec(spec);
        if (read.ok && read.prefix.words.length > 0) {
          const words = read.prefix.words.join(" ");
          // Also after a line continuation, which the runtime removes and a pattern of a line's start sees.
          out.push(`ls ${words}`, `echo ${words}`, `ls \\\n${words}`);
        }
      }
    }
    return out;
  }

  /** The language candidates for an atom's truth are drawn from (see `seedPattern`). */
  #seed(index: number, truth: Truth): Dfa | undefined {
    const seed = seedPattern(this.#field.atoms[index] as Atom, truth);
    return seed === undefined ? undefined : this.#automata.pattern(seed.pattern, seed.flags);
  }

  /**
   * Command lines built from the words of the `command` atoms: a prefix the string must certainly run, followed by
   * the words of one it may run (an argument a program may run: `git status curl`, `xargs rm`), or after a word of
   * its own; and those words alone. Checked by the runtime like every candidate.
   */
  #commandCandidates(state: TheoryState): string[] {
    const words = (truth: Truth): string[] => {
      const out: string[] = [];
      for (const [i, t] of state.truths) {
        const atom = this.#field.atoms[i] as Atom;
        if (t !== truth || atom.operator !== "command") continue;
        for (const spec of atom.value as unknown[]) {
          const read = parseCommandPrefixSpec(spec);
          if (read.ok && read.prefix.words.length > 0) out.push(read.prefix.words.join(" "));
        }
      }
      return [...new Set(out)];
    };
    const certain = words(1);
    const maybe = words(2);
    // Two certain prefixes, or texts a pattern of the field holds alone (`^ls$`), joined by each separator
    // (`ls | pwd`): the runtime decides such a line by its parts, so it may be allowed where every part is, with a
    // pipe or a `;` that another operator sees, or where only the whole line was denied.
    const joined: string[] = [];
    const commandField = this.#field.atoms.some((atom) => atom.operator === "command");
    const parts = commandField
      ? [...new Set([...certain.slice(0, 4), ...this.#fixedTexts().slice(0, 4)])]
      : [];
    for (const a of parts)
      for (const b of parts)
        for (const separator of [" | ", " && ", "; ", " || ", "\n", "|"]) joined.push(`${a}${separator}${b}`);
    // Each with a redirection the runtime reads as harmless (`ls 2>&1`): a `command` list may allow it, which a
    // pattern of `>` or `&` sees.
    for (const a of parts)
      for (const redirection of HARMLESS_REDIRECTIONS) joined.push(`${a} ${redirection}`);
    // A part with a plain word in quotes, which the runtime writes back without them (`ls 'a'` is the part `ls a`):
    // a pattern of quotes sees the whole line, not that part.
    for (const a of parts.slice(0, 2)) joined.push(`${a} 'a' && ${a}`, `${a} "a" && ${a}`);
    // The same command spelt so that a pattern of its start misses it: a blank first, its first word in quotes, or a
    // redirection before it (` ls`, `'ls'`, `>/dev/null ls`), each read as that command.
    for (const a of parts.slice(0, 4)) {
      const [first, ...rest] = a.split(" ");
      joined.push(` ${a}`, [`'${first}'`, ...rest].join(" "), `>/dev/null ${a}`, `2>/dev/null ${a}`);
      // Its first word quoted from a character on, or broken there by a line continuation the runtime removes
      // (`l's'`, `rm\<newline>dir`): the same word to the runtime, another text to a pattern.
      if (first !== undefined)
        for (let i = 1; i < Math.min(first.length, 12); i++)
          joined.push(
            [`${first.slice(0, i)}'${first.slice(i)}'`, ...rest].join(" "),
            [`${first.slice(0, i)}\\\n${first.slice(i)}`, ...rest].join(" "),
          );
      // A later word quoted from a character on (`cat .'env'`): the same operand to the runtime, and a pattern of
      // its text (`\.env\b`) does not see it.
      rest.slice(0, 3).forEach((word, j) => {
        for (let i = 1; i < Math.min(word.length, 8); i++) {
          const quoted = [...rest];
          quoted[j] = `${word.slice(0, i)}'${word.slice(i)}'`;
          joined.push([first, ...quoted].join(" "));
        }
      });
    }
    // A certain prefix with a text another operator needs in a quoted word after it (`ls '&&make'` for `&&\s*make`):
    // the runtime reads the word as an operand, a pattern sees the text.
    if (certain.length > 0 && state.loose !== null) {
      const texts = this.#seedCandidates(state, state.loose.lengths)
        .filter((t) => t !== "" && t.length <= 40 && !t.includes("'"))
        .slice(0, 6);
      for (const a of certain.slice(0, 4)) for (const t of texts) joined.push(`${a} '${t}'`);
    }
    if (certain.length === 0 && maybe.length === 0) return joined;
    const out: string[] = [];
    // With no certain prefix, programs of every kind: unknown, wrappers, one that may run its operands, and inert
    // ones (`ls rm` runs no `rm`).
    const heads = certain.length === 0 ? ["a", "xargs", "env", "sudo", "git", "ls", "echo"] : certain;
    // A program that runs code, named after the first word (`git status sudo`), may run any prefix, so the
    // runtime makes every deny or ask rule a maybe there; the same name with a version after it (`sudo2`) still
    // may run the prefixes headed by that name, and nothing else.
    const versioned = maybe
      .filter((w) => isCodeRunner(w.split(" ")[0]?.toLowerCase() ?? ""))
      .map((w) => w.replace(/^\S+/, (head) => `${head}2`));
    const tails = maybe.length === 0 ? ["", "a"] : [...maybe.slice(0, 12), ...versioned.slice(0, 4)];
    for (const head of heads.slice(0, 12))
      for (const tail of tails)
        out.push(tail === "" ? head : `${head} ${tail}`, `${head} a ${tail}`.trimEnd());
    // A prefix whose program is named with a version after it (`python3-1` for `python3`): the runtime reads it as
    // that program, and as another whose name it starts with only for some separators (`python3.12` is `python`,
    // `python3-1` is not), so a list of the shorter name may miss it.
    for (const w of maybe.slice(0, 4))
      for (const version of ["-1", "_1", ".1", "1"])
        out.push(w.replace(/^\S+/, (head) => `${head}${version}`));
    out.push(...joined);

    // A prefix with the options it allows (`git log` with `-n`) is certain only where each option after it is
    // listed: its words with each option of any list of the field (`git log -p`), and with a value after it.
    for (const atom of this.#field.atoms) {
      if (atom.operator !== "command") continue;
      for (const spec of atom.value as unknown[]) {
        const read = parseCommandPrefixSpec(spec);
        if (!read.ok || read.prefix.words.length === 0 || read.prefix.options === undefined) continue;
        const prefix = read.prefix.words.join(" ");
        for (const option of this.#commandOptions) out.push(`${prefix} ${option}`, `${prefix} ${option} 1`);
        // Each option it lists quoted after its first character (`-'-silent'`): the same word to the runtime, other
        // text to a pattern.
        for (const option of [...read.prefix.options].slice(0, 8))
          if (option.length > 1) out.push(`${prefix} ${option[0]}'${option.slice(1)}'`);
      }
    }
    // A prefix of any list followed by the later words of a maybe one of the same program (`git diff push` for
    // `git diff` and `git push`): the runtime may read those words as the other's, a maybe where the first is
    // certain.
    for (const c of this.#allCommandWords().slice(0, 16))
      for (const m of maybe.slice(0, 8)) {
        const [head, ...rest] = m.split(" ");
        if (rest.length > 0 && c.split(" ")[0] === head && !m.startsWith(c))
          out.push(`${c} ${rest.join(" ")}`);
      }
    return out;
  }

  /**
   * Candidates with the words after a prefix that lists its options made operands (`git log -p` → `git log -- -p`):
   * after `--` no word is an option, so the runtime may be certain of the line where it was not.
   */
  *#endOfOptions(candidates: Iterable<string>): Generator<string> {
    const prefixes = this.#optionPrefixes;
    if (prefixes.length > 0)
      for (const s of candidates)
        for (const prefix of prefixes)
          if (s.startsWith(prefix)) yield `${prefix}-- ${s.slice(prefix.length)}`;
  }

  /** The prefixes of the field's `command` lists that list their options, each with a blank after it, once. */
  get #optionPrefixes(): readonly string[] {
    if (this.#listingOptions !== undefined) return this.#listingOptions;
    const out = new Set<string>();
    for (const atom of this.#field.atoms) {
      if (atom.operator !== "command") continue;
      for (const spec of atom.value as unknown[]) {
        const read = parseCommandPrefixSpec(spec);
        if (read.ok && read.prefix.words.length > 0 && read.prefix.options !== undefined)
          out.add(`${read.prefix.words.join(" ")} `);
      }
    }
    this.#listingOptions = [...out];
    return this.#listingOptions;
  }

  /** The options every `command` list of the field allows after a prefix, each once. */
  get #commandOptions(): readonly string[] {
    if (this.#optionWords !== undefined) return this.#optionWords;
    const out = new Set<string>();
    for (const atom of this.#field.atoms) {
      if (atom.operator !== "command") continue;
      for (const spec of atom.value as unknown[]) {
        const read = parseCommandPrefixSpec(spec);
        if (read.ok) for (const o of read.prefix.options ?? []) out.add(o);
      }
    }
    this.#optionWords = [...out].slice(0, 16);
    return this.#optionWords;
  }

  /**
   * Paths the runtime reads several ways, for a field with path operators: the spellings other platforms read
   * differently (a Windows short name `PROGRA~1` may be any folder, `C:x` is relative to a drive, `a\\b` has two
   * segments there, a trailing dot or blank is dropped, `con` is a device), dot segments and doubled slashes, home
   * paths, and the path operators' own texts spelt so (`\\etc`, `C:/etc`, `a/../etc`). Checked by the runtime like
   * every candidate.
   */
  #pathCandidates(): string[] {
    if (!this.hasPaths) return [];
    if (this.#paths !== undefined) return this.#paths;
    const out = [
      "PROGRA~1",
      "a~1/a",
      "C:a",
      "a/b:c",
      "con",
      "a.",
      "a ",
      "./a",
      "a//a",
      "a\\a",
      "..",
      "../a",
      "~",
      "~/a",
    ];
    for (const atom of this.#field.atoms) {
      // A text prefix or literal of the field's is read here as a path too (`prefix: "/etc/"`: `/etc/..` is `/`).
      const texts =
        atom.operator === "path_prefix" || atom.operator === "prefix"
          ? [atom.value as string]
          : atom.operator === "equals" || atom.operator === "in"
            ? [atom.value].flat().filter((v): v is string => typeof v === "string")
            : atom.operator === "glob"
              ? (typeof atom.value === "string" ? [atom.value] : (atom.value as string[])).map((g) =>
                  g
                    .replace(/\*\*/g, "a")
                    .replace(/[*?]/g, "a")
                    .replace(/[[\]{}!]/g, ""),
                )
              : [];
      for (const text of texts) {
        if (text === "") continue;
        const relative = text.replace(/^\/+/, "");
        // The text, then a climb back out of it: `.git/../a` starts with `.git/` and names `a`.
        const base = text.replace(/\/+$/, "");
        out.push(
          `${base}/../a`,
          `${base}/..`,
          `./${relative}`,
          `a/../${relative}`,
          relative.replaceAll("/", "\\"),
          `\\${relative.replaceAll("/", "\\")}`,
          `C:/${relative}`,
          `//${relative}`,
          `${text}/.`,
          text.toUpperCase(),
        );
      }
    }
    // A folder a glob names anywhere (`**/.ssh/**`), entered and left again under each text the operators name
    // (`src/.ssh/..` is `src`): a pattern sees the folder's name, the path's normal form does not.
    const folders = new Set<string>();
    const bases = new Set<string>(["a"]);
    for (const atom of this.#field.atoms) {
      // A prefix's folder as written (`/srv/app`): a path made relative could never be under an absolute prefix.
      if (atom.operator === "path_prefix") bases.add((atom.value as string).replace(/\/+$/, ""));
      if (atom.operator !== "glob") continue;
      for (const g of typeof atom.value === "string" ? [atom.value] : (atom.value as string[])) {
        const folder = /^(?:\*\*\/)?([^/*?[\]{}!\\]+)\/\*\*$/.exec(g)?.[1];
        if (folder !== undefined) folders.add(folder);
        const base = /^([^*?[\]{}!\\]+?)\/+\*\*?(?:\/.*)?$/.exec(g)?.[1];
        if (base !== undefined) bases.add(base.replace(/^\/+/, ""));
      }
    }
    for (const folder of [...folders].slice(0, 8))
      for (const base of [...bases].slice(0, 8))
        if (base !== "") out.push(`${base}/${folder}/..`, `${base}/${folder}/../a`);
    // Shortest first, as every witness.
    this.#paths = [...new Set(out)].filter((s) => s !== "").sort((a, b) => a.length - b.length);
    return this.#paths;
  }

  /**
   * A compound command of two of the field's command words with the state's truths, when some `command` atom is to
   * be a maybe (as it is on a compound command when some part runs its words): the controller decides each part on
   * its own, so `git status && npm test` may be allowed part by part where neither the whole string nor a rule about
   * it is. The candidates and every atom's answer on them are the field's, made once.
   */
  #compound(state: TheoryState): string | undefined {
    const atoms = this.#field.atoms;
    const maybe = [...state.truths].some(([i, t]) => t === 2 && (atoms[i] as Atom).operator === "command");
    if (!maybe) return undefined;
    if (this.#compounds === undefined) {
      const words = this.#allCommandWords().slice(0, 12);
      this.#compounds = [];
      for (const a of words) {
        for (const b of words) {
          if (a === b) continue;
          const text = `${a} && ${b}`;
          if (!this.#field.sides.some((_, i) => this.#field.validOn(i, text))) continue;
          this.#compounds.push({ text, truths: atoms.map((atom) => atom.test(text)) });
        }
      }
    }
    return this.#compounds.find((c) => [...state.truths].every(([i, t]) => c.truths[i] === t))?.text;
  }

  /** The texts of the field's `equals`, `in` and patterns of a few fixed strings (`^npm test$`), made once. */
  #fixedTexts(): readonly string[] {
    if (this.#fixed === undefined) {
      const out: string[] = [];
      for (const atom of this.#atoms) {
        if (atom.kind !== "lang") continue;
        try {
          out.push(...(allStrings(this.alphabet, atom.lang, ANY_LENGTH, 4) ?? []).filter((s) => s !== ""));
        } catch (error) {
          if (!(error instanceof TooComplex)) throw error;
        }
      }
      this.#fixed = [...new Set(out)];
    }
    return this.#fixed;
  }

  #allCommandWords(): string[] {
    const out: string[] = [];
    for (const atom of this.#field.atoms) {
      if (atom.operator !== "command") continue;
      for (const spec of atom.value as unknown[]) {
        const read = parseCommandPrefixSpec(spec);
        if (read.ok && read.prefix.words.length > 0) out.push(read.prefix.words.join(" "));
      }
    }
    return [...new Set(out)];
  }

  /** Strings of the seed languages of the state's atoms, each alone (cached by atom, truth and lengths). */
  #seedCandidates(state: TheoryState, lengths: LengthSet): string[] {
    const out: string[] = [];
    for (const [i, truth] of state.truths) {
      const key = `${i}\u0000${truth}\u0000${JSON.stringify(lengths)}`;
      let strings = this.#seedStrings.get(key);
      if (strings === undefined) {
        strings = [];
        try {
          const seed = this.#seed(i, truth);
          if (seed !== undefined) strings = someStrings(this.alphabet, seed, lengths, 20);
        } catch (error) {
          if (!(error instanceof TooComplex)) throw error;
        }
        this.#seedStrings.set(key, strings);
      }
      out.push(...strings);
    }
    return [...new Set(out)];
  }

  /** Candidates for a loose region: strings of it narrowed by each atom's seed language, then of it alone. */
  #looseCandidates(state: TheoryState): Iterable<string> {
    const loose = state.loose as Region;
    // They depend on the loose region, on the truths of the atoms that seed it and, with paths, of the exact
    // languages: states that differ in other truths share them.
    const key = [
      JSON.stringify(loose.lengths),
      ...[...state.truths]
        .filter(([i]) => {
          const kind = (this.#atoms[i] as StringAtom).kind;
          return kind !== "length" && kind !== "fixed" && (kind !== "lang" || this.hasPaths);
        })
        .map(([i, truth]) => `${i}:${truth}`),
    ].join(",");
    let known = this.#looseCache.get(loose.dfa);
    if (known === undefined) {
      known = new Map();
      this.#looseCache.set(loose.dfa, known);
    }
    let found = known.get(key);
    if (found === undefined) {
      found = new LazyStrings(this.#drawLooseCandidates(state));
      known.set(key, found);
    }
    return found;
  }

  /** The loose candidates as they are read: most witnesses are among the first few. */
  *#drawLooseCandidates(state: TheoryState): Generator<string> {
    const loose = state.loose as Region;
    // The seeds narrow the loose region (strings outside what is modelled) and, for other spellings of them (made
    // only when they are read: most witnesses are among the strings before them), the valid strings with the exact
    // languages' truths.
    let seeded = loose.dfa;
    const seeds: Dfa[] = [];
    for (const [i, truth] of state.truths) {
      // The loose region holds the exact languages' truths already: only the other atoms seed it.
      const atom = this.#atoms[i] as StringAtom;
      if (atom.kind === "length" || atom.kind === "lang" || atom.kind === "fixed") continue;
      const seed = this.#seed(i, truth);
      if (seed === undefined) continue;
      seeds.push(seed);
      const narrowed = intersect(seeded, seed, false);
      if (shortestLength(narrowed, loose.lengths) !== undefined) seeded = narrowed;
    }
    const spelt = (): Dfa => {
      let out = this.#valid.dfa;
      for (const [i, truth] of state.truths) {
        const atom = this.#atoms[i] as StringAtom;
        if (atom.kind === "lang" && truth !== 2)
          out = intersect(out, truth === 1 ? atom.lang : complement(atom.lang), false);
      }
      for (const seed of seeds) {
        const other = intersect(out, seed, false);
        if (shortestLength(other, loose.lengths) !== undefined) out = other;
      }
      return out;
    };
    try {
      yield* stringsOf(this.alphabet, seeded, loose.lengths, 40);
      yield* stringsOf(this.alphabet, loose.dfa, loose.lengths, 10);
      if (this.hasPaths) yield* spellings(someStrings(this.alphabet, spelt(), loose.lengths, 5));
      // Where a `command` list is to be a maybe: lines with a word that may run anything (the same lines for every
      // list), a code option with a value that runs anything first (`git log -c -r`): the shortest lines of a code
      // option alone seldom have one.
      const runners = [...state.truths]
        .filter(([i, truth]) => truth === 2 && (this.#field.atoms[i] as Atom).operator === "command")
        .map(([i]) => seedPattern(this.#field.atoms[i] as Atom, 2, true))
        .find((seed) => seed !== undefined);
      if (runners !== undefined) {
        const valued = this.#automata.pattern(RUNNER_VALUE_LINES, "u");
        yield* stringsOf(this.alphabet, intersect(loose.dfa, valued, false), loose.lengths, 6);
        const lines = this.#automata.pattern(runners.pattern, runners.flags);
        yield* stringsOf(this.alphabet, intersect(loose.dfa, lines, false), loose.lengths, 10);
      }
    } catch (error) {
      if (!(error instanceof TooComplex)) throw error;
    }
  }
}

/**
 * The operator name of a field's validity under one side's schema (an atom `diff` adds with `AtomTable.custom`):
 * its value is a {@link SchemaSide}, its truth on a value is `checkValue`'s.
 */
export const SCHEMA_OPERATOR = "schema";

/**
 * The operator name of a field's length bounds under one side's schema (`minLength`, `maxLength`): its value is a
 * {@link SchemaLength}. Kept apart from {@link SCHEMA_OPERATOR} so that a bound narrows the lengths of a region
 * rather than multiplying its automaton by a counter (a `maxLength` of thousands stays cheap).
 */
export const SCHEMA_LENGTH_OPERATOR = "schema-length";

/** One side's length bounds of a string field (`hi` absent: none). */
export interface SchemaLength {
  readonly side: string;
  readonly lo: number;
  readonly hi?: number;
}

/** One side's schema of a field, as the value of a {@link SCHEMA_OPERATOR} atom (lengths are read apart). */
export interface SchemaSide {
  /** `old` or `new`: only to tell the two atoms apart and to name them. */
  readonly side: string;
  readonly schema: JsonSchema;
  readonly missingAllowed: boolean;
  /** The field is not declared on this side and the object forbids other properties: only missing is valid. */
  readonly absentOnly: boolean;
}

/**
 * How a side's schema reads strings: exactly by its `enum`/`const` strings and its `pattern` (lengths are a
 * {@link SCHEMA_LENGTH_OPERATOR} atom of their own); a
 * `format` is the language of {@link formatLanguage} where it has one; otherwise the atom is left free (its strings
 * go to the loose region: `unknown`).
 */
function schemaAtom(side: SchemaSide, automata: Automata, k: number): StringAtom {
  if (side.absentOnly || !allowedTypes(side.schema).has("string")) return { kind: "fixed", truth: 0 };
  const format = side.schema.format === undefined ? undefined : formatLanguage(side.schema.format);
  if (side.schema.format !== undefined && format === undefined) return { kind: "free" };
  const finite = finiteValues(side.schema);
  let lang =
    finite === undefined
      ? constant(k, true)
      : literals(
          automata.alphabet,
          finite.filter((v): v is string => typeof v === "string"),
        );
  if (typeof side.schema.pattern === "string")
    lang = intersect(lang, automata.pattern(side.schema.pattern, "u"));
  // A format's language holds every string it accepts (more, for some): witnesses are checked by the validator.
  if (format !== undefined) lang = intersect(lang, automata.pattern(format.pattern, format.flags));
  return { kind: "lang", lang, degradable: false };
}

function mergeLengths(a: LengthSet, b: LengthSet): LengthSet {
  const all = [...a, ...b].map(([lo, hi]) => [lo, hi] as [number, number]).sort((x, y) => x[0] - y[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of all) {
    const last = out[out.length - 1];
    if (last !== undefined && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return intersectLengths(out, ANY_LENGTH);
}

/** Other spellings of paths: the forms the runtime reads several ways (DESIGN.md §4.5). */
function spellings(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const p of paths) {
    const slash = p.indexOf("/");
    out.push(
      `./${p}`,
      slash > 0 ? `${p.slice(0, slash)}/./${p.slice(slash + 1)}` : `${p}/.`,
      slash > 0 ? `${p.slice(0, slash)}//${p.slice(slash + 1)}` : `${p}/`,
      `x/../${p}`,
      `${p}/`,
      p.replaceAll("/", "\\"),
      `/${p}`,
      `../${p}`,
      `${p}.`,
      p.toUpperCase(),
    );
  }
  return out;
}

/**
 * The language a candidate for an atom's truth is drawn from, as a pattern: for a glob its own shape read over the
 * raw string (`**` anything, `*` anything but `/`), for a path prefix the text first, for a command its words at the
 * start (certain), after other words (maybe) or nowhere (false), for a URL the operator's parts.
 */
function seedPattern(
  atom: Atom,
  truth: Truth,
  runners = false,
): { pattern: string; flags: string } | undefined {
  switch (atom.operator) {
    case "glob": {
      const list = typeof atom.value === "string" ? [atom.value] : (atom.value as string[]);
      const shapes = list.map(globShape).join("|");
      return truth === 0 ? undefined : { pattern: `^(?:${shapes})$`, flags: "iu" };
    }
    case "path_prefix":
      return truth === 0 ? undefined : { pattern: `^${literal(atom.value as string)}`, flags: "u" };
    case "command": {
      const words: string[][] = [];
      for (const spec of atom.value as unknown[]) {
        const read = parseCommandPrefixSpec(spec);
        if (read.ok) words.push([...read.prefix.words]);
      }
      if (words.length === 0) return undefined;
      // A string that may run none of the prefixes is any other string: no seed narrows it usefully.
      if (truth === 0) return undefined;
      const alternatives = words.map((w) => w.map(literal).join(" ")).join("|");
      if (truth === 1) return { pattern: `^(?:${alternatives})(?: ${COMMAND_WORD})*$`, flags: "u" };
      // A maybe after other words, or with other words between the program and the prefix's later words
      // (`kubectl get pods -o delete` for `kubectl delete`: the runtime may read `delete` as its subcommand).
      const later = words
        .filter((w) => w.length > 1)
        .map((w) => `${literal(w[0] as string)}(?: ${COMMAND_WORD})* ${w.slice(1).map(literal).join(" ")}`);
      // Or (`runners`) a later word that may run anything (`find . -name sh`, `git log -c`): every prefix may match.
      if (runners)
        return {
          pattern: `^(?:${COMMAND_WORD} )+(?:${RUNNER_WORDS.map(literal).join("|")})(?: ${COMMAND_WORD})*$`,
          flags: "u",
        };
      return {
        pattern: `^(?:(?:${COMMAND_WORD} )+(?:${alternatives})${later.map((l) => `|${l}`).join("")})(?: ${COMMAND_WORD})*$`,
        flags: "u",
      };
    }
    case "url": {
      if (truth === 0) return undefined;
      const spec = atom.value as UrlSpec;
      const list = <V>(v: V | readonly V[] | undefined): readonly V[] =>
        v === undefined ? [] : Array.isArray(v) ? v : [v as V];
      const schemes = list(spec.scheme);
      const hosts = list(spec.host).map((h) => h.replace(/^\*\./, "a."));
      const ports = list(spec.port);
      const alternatives: string[] = [];
      // A maybe also where the URL names a user before the host (`https://a@host`), which the runtime reads warily.
      const user = truth === 2 ? "(?:[a-z]+@)?" : "";
      for (const scheme of schemes.length === 0 ? ["https"] : schemes) {
        for (const host of hosts.length === 0 ? ["example.com"] : hosts) {
          for (const port of ports.length === 0 ? [undefined] : ports) {
            const at = `${literal(host)}${port === undefined ? "" : literal(`:${port}`)}`;
            alternatives.push(`${literal(`${scheme}://`)}${user}${at}`);
          }
        }
      }
      // Then a path, a query or a fragment of printable ASCII (`/@types/node`, `/%40`, `?q=a`), so that other
      // atoms' seeds (a regex on the text) narrow it to a URL of these parts; a path of the operator's globs' shape
      // when it is to be certain (`/docs/@` for `/docs/**`), which the shortest strings seldom are (globs of `*`, `**`
      // and `?` alone: a brace, a class or an escape is not read).
      const globs = truth === 1 ? list(spec.path) : [];
      const paths = globs.some((g) => /[[\]{}\\]/.test(g)) ? [] : globs;
      const rest =
        paths.length === 0
          ? `(?:[/?#]${URL_TEXT_CHAR}*)?`
          : `(?:${paths.map(urlPathShape).join("|")})(?:[?#]${URL_TEXT_CHAR}*)?`;
      return { pattern: `^(?:${alternatives.join("|")})${rest}$`, flags: "u" };
    }
    default:
      return undefined;
  }
}

/**
 * Printable ASCII, with `%` only as an escape of a letter (`%41`: a bare `%` or `%zz` is read warily, a property of
 * the text `%` is best broken by a URL the runtime reads plainly), and in a query or fragment (or a path when no glob
 * shapes it) of any printable character (`?y=%2e` for a property of `%2e`); the same but `?` and `#`, what a URL's
 * path may be written with; and the same without `/`, a path segment.
 */
const URL_TEXT_CHAR = "(?:[!-$&-~]|%4[1-9]|%[2-7][0-9A-Fa-f])";
const URL_PATH_CHAR = "(?:[\\u{21}\\u{22}\\u{24}\\u{26}-\\u{3e}\\u{40}-\\u{7e}]|%4[1-9])";
const URL_SEGMENT_CHAR = "(?:[\\u{21}\\u{22}\\u{24}\\u{26}-\\u{2e}\\u{30}-\\u{3e}\\u{40}-\\u{7e}]|%4[1-9])";

/** A URL path glob's shape as a pattern over a written path of printable ASCII, for seeding candidates. */
function urlPathShape(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === "*" && glob[i + 1] === "*") {
      out += `${URL_PATH_CHAR}*`;
      i++;
    } else if (c === "*") out += `${URL_SEGMENT_CHAR}*`;
    else if (c === "?") out += URL_SEGMENT_CHAR;
    else out += literal(c);
  }
  return out;
}

/** A glob's shape as a pattern over the raw string, for seeding candidates. */
function globShape(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === "*" && glob[i + 1] === "*") {
      out += ".*";
      i++;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if ("[]{},!^\\".includes(c)) out += ".";
    else out += literal(c);
  }
  return out;
}
