/**
 * The language of a pattern of toolgate's linear-time regex engine, as a DFA: the syntax tree the engine's own
 * parser makes (`parseRegexTree`) becomes a Thompson NFA, and the subset construction runs it with the engine's
 * `test` semantics — a match anywhere in the input (anchored only by `^` and `$`), flag `i` as Unicode simple case
 * folding of both sides, `m` for line anchors, `\b`/`\B` over ASCII word characters, and without `u` the input
 * read as UTF-16 code units (a character above U+FFFF is two of them).
 */
import { getFoldTable } from "../runtime/match/case-fold.js";
import {
  FOLDED_WORD_RANGES,
  LINE_TERMINATOR_RANGES,
  type Ranges,
  WORD_RANGES,
} from "../runtime/match/regex/char-set.js";
import { parseRegexTree, type RegexNode } from "../runtime/match/regex/index.js";
import type { Alphabet, AlphabetBuilder } from "./alphabet.js";
import { type Dfa, DfaBuilder, minimize, TooComplex } from "./dfa.js";

/** Past this many NFA states a pattern is not turned into an automaton here. */
const MAX_NFA_STATES = 20_000;

/** Sorted, merged ranges. */
function normalize(ranges: Ranges): Ranges {
  const pairs: [number, number][] = [];
  for (let i = 0; i + 1 < ranges.length; i += 2) pairs.push([ranges[i] as number, ranges[i + 1] as number]);
  pairs.sort((a, b) => a[0] - b[0]);
  const out: Ranges = [];
  for (const [lo, hi] of pairs) {
    const last = out.length - 1;
    if (last > 0 && lo <= (out[last] as number) + 1) {
      if (hi > (out[last] as number)) out[last] = hi;
    } else out.push(lo, hi);
  }
  return out;
}

function inRanges(ranges: Ranges, cp: number): boolean {
  let lo = 0;
  let hi = (ranges.length >> 1) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < (ranges[2 * mid] as number)) hi = mid - 1;
    else if (cp > (ranges[2 * mid + 1] as number)) lo = mid + 1;
    else return true;
  }
  return false;
}

/** Whether `ranges` holds all or none of `[lo, hi]`. */
function uniformOn(ranges: Ranges, lo: number, hi: number): boolean {
  let covered = 0;
  for (let i = 0; i + 1 < ranges.length; i += 2) {
    const a = Math.max(lo, ranges[i] as number);
    const b = Math.min(hi, ranges[i + 1] as number);
    if (a <= b) covered += b - a + 1;
  }
  return covered === 0 || covered === hi - lo + 1;
}

/** Per fold value, every code point that folds to it (itself included). */
let foldClasses:
  | { readonly targets: Int32Array; readonly members: ReadonlyMap<number, readonly number[]> }
  | undefined;

function getFoldClasses(): NonNullable<typeof foldClasses> {
  if (foldClasses === undefined) {
    const table = getFoldTable();
    const members = new Map<number, number[]>();
    for (const key of table.keys) {
      const target = table.map.get(key) as number;
      const list = members.get(target);
      if (list === undefined) members.set(target, [target, key]);
      else list.push(key);
    }
    foldClasses = { targets: Int32Array.from(members.keys()), members };
  }
  return foldClasses;
}

const matchedCache = new Map<string, Ranges>();

/**
 * The input characters a class (or a literal, as a one-character class) matches, as ranges: without `i` its own
 * ranges; with `i` every character whose fold is in the class or the fold of the class (as the engine's `CharSet`
 * tests `fold(input)` against `S ∪ fold(S)`): the classes of case-equivalent characters that meet the class.
 * Negation is applied by the caller.
 */
function matchedRanges(ranges: Ranges, ignoreCase: boolean): Ranges {
  const base = normalize(ranges);
  if (!ignoreCase) return base;
  const key = base.join(",");
  const cached = matchedCache.get(key);
  if (cached !== undefined) return cached;
  const { targets, members } = getFoldClasses();
  const extra: Ranges = [];
  // A class of case-equivalent characters matches wholly when one of its members is in S.
  for (const target of targets) {
    const list = members.get(target) as readonly number[];
    if (list.some((cp) => inRanges(base, cp))) for (const cp of list) extra.push(cp, cp);
  }
  const out = normalize([...base, ...extra]);
  matchedCache.set(key, out);
  return out;
}

const KIND_START = 0;
const KIND_WORD = 1;
const KIND_LINE = 2;
const KIND_OTHER = 3;
const KIND_END = 4;

/** A code point's kind around an assertion; with flag `i`, `ſ` and the Kelvin sign are word characters (vm.ts). */
function kindOf(cp: number, ignoreCase: boolean): number {
  if ((cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) || cp === 0x5f)
    return KIND_WORD;
  if (ignoreCase && (cp === 0x17f || cp === 0x212a)) return KIND_WORD;
  if (cp === 0x0a || cp === 0x0d || cp === 0x2028 || cp === 0x2029) return KIND_LINE;
  return KIND_OTHER;
}

const OP_SYM = 0;
const OP_SPLIT = 1;
const OP_ASSERT = 2;
const OP_MATCH = 3;

type AssertWhich = "bol" | "eol" | "word" | "nonword";

/** One character test of the NFA: the ranges it matches (after folding) and whether it is negated. */
interface CharTest {
  readonly ranges: Ranges;
  readonly negated: boolean;
}

/** A pattern that the verifier can read as an automaton. */
export class RegexLanguage {
  readonly #ops: number[] = [];
  readonly #outs: number[][] = [];
  readonly #tests: (CharTest | undefined)[] = [];
  readonly #asserts: (AssertWhich | undefined)[] = [];
  readonly #start: number;
  readonly #unicode: boolean;
  readonly #multiline: boolean;
  readonly #ignoreCase: boolean;

  private constructor(node: RegexNode, flags: string) {
    this.#unicode = flags.includes("u");
    this.#multiline = flags.includes("m");
    this.#ignoreCase = flags.includes("i");
    const match = this.#add(OP_MATCH, []);
    this.#start = this.#build(node, match);
  }

  /** The pattern's language, or undefined when the engine's parser refuses it. */
  static parse(pattern: string, flags = ""): RegexLanguage | undefined {
    const node = parseRegexTree(pattern, flags);
    return node === undefined ? undefined : new RegexLanguage(node, flags);
  }

  #add(op: number, outs: number[], test?: CharTest, which?: AssertWhich): number {
    if (this.#ops.length >= MAX_NFA_STATES) throw new TooComplex("a pattern is too large to verify");
    this.#ops.push(op);
    this.#outs.push(outs);
    this.#tests.push(test);
    this.#asserts.push(which);
    return this.#ops.length - 1;
  }

  #charTest(ranges: Ranges, negated: boolean): CharTest {
    const matched = matchedRanges(ranges, this.#ignoreCase);
    // Without `u` a class tests code units: a character above U+FFFF is read as two of them, so the class must
    // say the same for every high surrogate and for every low one for the automaton to read it as one symbol.
    if (!this.#unicode && (!uniformOn(matched, 0xd800, 0xdbff) || !uniformOn(matched, 0xdc00, 0xdfff))) {
      throw new TooComplex("a pattern without flag u that tests surrogate halves is not verified");
    }
    return { ranges: matched, negated };
  }

  /** The state that matches `node` and then goes on to `next`. */
  #build(node: RegexNode, next: number): number {
    switch (node.kind) {
      case "empty":
        return next;
      case "char":
        return this.#add(OP_SYM, [next], this.#charTest([node.cp, node.cp], false));
      case "set":
        return this.#add(OP_SYM, [next], this.#charTest(node.ranges, node.negated));
      case "assert":
        return this.#add(OP_ASSERT, [next], undefined, node.which);
      case "concat": {
        let current = next;
        for (let i = node.items.length - 1; i >= 0; i--)
          current = this.#build(node.items[i] as RegexNode, current);
        return current;
      }
      case "alt":
        return this.#add(
          OP_SPLIT,
          node.items.map((item) => this.#build(item, next)),
        );
      case "repeat": {
        let current = next;
        if (node.max === Number.POSITIVE_INFINITY) {
          const loop = this.#add(OP_SPLIT, []);
          const body = this.#build(node.child, loop);
          (this.#outs[loop] as number[]).push(body, next);
          current = loop;
        } else {
          for (let i = node.min; i < node.max; i++) {
            current = this.#add(OP_SPLIT, [this.#build(node.child, current), next]);
          }
        }
        for (let i = 0; i < node.min; i++) current = this.#build(node.child, current);
        return current;
      }
    }
  }

  /** Cuts the alphabet at every boundary this pattern's character tests have. */
  /** Whether every character set of the pattern is a union of the alphabet's symbols (see `Alphabet.refines`). */
  fits(alphabet: Alphabet): boolean {
    for (const test of this.#tests) if (test !== undefined && !alphabet.refines(test.ranges)) return false;
    return alphabet.refines(this.#wordRanges) && alphabet.refines(LINE_TERMINATOR_RANGES);
  }

  addBoundaries(builder: AlphabetBuilder): void {
    for (const test of this.#tests) if (test !== undefined) builder.addRanges(test.ranges);
    builder.addRanges(this.#wordRanges);
    builder.addRanges(LINE_TERMINATOR_RANGES);
    builder.addRanges([0, 0xffff]);
    if (!this.#unicode) builder.addRanges([0xd800, 0xdbff, 0xdc00, 0xdfff]);
  }

  /** The word characters of `\b` and `\B`: with flag `i` also `ſ` and the Kelvin sign. */
  get #wordRanges(): Ranges {
    return this.#ignoreCase ? FOLDED_WORD_RANGES : WORD_RANGES;
  }

  #holds(which: AssertWhich, prev: number, next: number): boolean {
    switch (which) {
      case "bol":
        return prev === KIND_START || (this.#multiline && prev === KIND_LINE);
      case "eol":
        return next === KIND_END || (this.#multiline && next === KIND_LINE);
      case "word":
        return (prev === KIND_WORD) !== (next === KIND_WORD);
      case "nonword":
        return (prev === KIND_WORD) === (next === KIND_WORD);
    }
  }

  /** The states reachable from `from` without reading, given the kinds around the position. */
  #closure(from: Iterable<number>, prev: number, next: number): { syms: number[]; match: boolean } {
    const seen = new Set<number>();
    const stack = [...from];
    const syms: number[] = [];
    let match = false;
    while (stack.length > 0) {
      const s = stack.pop() as number;
      if (seen.has(s)) continue;
      seen.add(s);
      const op = this.#ops[s];
      if (op === OP_MATCH) match = true;
      else if (op === OP_SYM) syms.push(s);
      else if (op === OP_SPLIT) for (const t of this.#outs[s] as number[]) stack.push(t);
      // The one op left is OP_ASSERT.
      else if (this.#holds(this.#asserts[s] as AssertWhich, prev, next))
        stack.push((this.#outs[s] as number[])[0] as number);
    }
    return { syms, match };
  }

  /**
   * The DFA of the strings this pattern matches somewhere (the engine's `test`).
   * @throws TooComplex when the automaton grows too large.
   */
  toDfa(alphabet: Alphabet): Dfa {
    const k = alphabet.size;
    // Per NFA character state: whether it matches each symbol.
    const member = new Map<number, Uint8Array>();
    const unitMember = new Map<number, [boolean, boolean]>();
    this.#tests.forEach((test, s) => {
      if (test === undefined) return;
      member.set(
        s,
        alphabet.members((cp) => inRanges(test.ranges, cp) !== test.negated),
      );
      unitMember.set(s, [
        inRanges(test.ranges, 0xd800) !== test.negated,
        inRanges(test.ranges, 0xdc00) !== test.negated,
      ]);
    });
    const kinds = Array.from(alphabet.reps, (cp) => kindOf(cp, this.#ignoreCase));
    const astral = Array.from(alphabet.reps, (cp) => !this.#unicode && cp > 0xffff);
    const builder = new DfaBuilder(k);
    const ids = new Map<string, number>();
    const pending: { id: number; kernel: number[]; prev: number }[] = [];
    let acceptAll = -1;
    const sink = (): number => {
      if (acceptAll === -1) {
        acceptAll = builder.add(true);
        for (let c = 0; c < k; c++) builder.set(acceptAll, c, acceptAll);
      }
      return acceptAll;
    };
    const stateOf = (kernel: number[], prev: number): number => {
      const sorted = [...new Set(kernel)].sort((a, b) => a - b);
      const key = `${sorted.join(",")}|${prev}`;
      let id = ids.get(key);
      if (id === undefined) {
        id = builder.add(this.#closure([...sorted, this.#start], prev, KIND_END).match);
        ids.set(key, id);
        pending.push({ id, kernel: sorted, prev });
      }
      return id;
    };
    const step = (syms: readonly number[], test: (s: number) => boolean): number[] => {
      const out: number[] = [];
      for (const s of syms) if (test(s)) out.push((this.#outs[s] as number[])[0] as number);
      return out;
    };
    // Symbols that every character test, their kind and their code units treat alike go from every state to the
    // same state: the target is found for the first of them (in order, so states are numbered as symbol by symbol).
    const columnOf = new Int32Array(k);
    const firsts: number[] = [];
    const columns = new Map<string, number>();
    const memberRows = [...member.values()];
    for (let c = 0; c < k; c++) {
      let key = `${kinds[c]}${astral[c] === true ? "+" : "-"}`;
      for (const row of memberRows) key += row[c] === 1 ? "1" : "0";
      let column = columns.get(key);
      if (column === undefined) {
        column = firsts.length;
        columns.set(key, column);
        firsts.push(c);
      }
      columnOf[c] = column;
    }
    const targets = new Int32Array(firsts.length);
    const start = stateOf([], KIND_START);
    while (pending.length > 0) {
      const { id, kernel, prev } = pending.pop() as { id: number; kernel: number[]; prev: number };
      // The states reachable before the next character depend on its kind alone.
      const closures = new Map<number, { syms: number[]; match: boolean }>();
      const closureBefore = (kind: number) => {
        let closure = closures.get(kind);
        if (closure === undefined) {
          closure = this.#closure([...kernel, this.#start], prev, kind);
          closures.set(kind, closure);
        }
        return closure;
      };
      for (let column = 0; column < firsts.length; column++) {
        const c = firsts[column] as number;
        let target: number;
        if (astral[c] === true) {
          // Two code units, each a character of its own to the pattern.
          const first = closureBefore(KIND_OTHER);
          if (first.match) target = sink();
          else {
            const middle = step(first.syms, (s) => (unitMember.get(s) as [boolean, boolean])[0]);
            const second = this.#closure([...middle, this.#start], KIND_OTHER, KIND_OTHER);
            if (second.match) target = sink();
            else
              target = stateOf(
                step(second.syms, (s) => (unitMember.get(s) as [boolean, boolean])[1]),
                KIND_OTHER,
              );
          }
        } else {
          const kind = kinds[c] as number;
          const closure = closureBefore(kind);
          target = closure.match
            ? sink()
            : stateOf(
                step(closure.syms, (s) => (member.get(s) as Uint8Array)[c] === 1),
                kind,
              );
        }
        targets[column] = target;
      }
      builder.setRow(id, columnOf, targets);
    }
    return minimize(builder.build(start));
  }
}
