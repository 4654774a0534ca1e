/**
 * The finite alphabet the automata of one verification read. Every character set some language of the verification
 * tests is registered first; the code points from U+0000 to U+10FFFF are then grouped into *symbols*: two code
 * points are one symbol when every registered set holds both or neither (the alphabet compression of lexer
 * generators), so each automaton reads one symbol where it would read many characters. A symbol stands for any of
 * its code points; witnesses spell it with its most readable one (a lower-case letter before a digit before other
 * printable ASCII, and printable ASCII before anything else).
 *
 * A test given to {@link Alphabet.members} must be one of the registered sets (or a union of them): it is asked for
 * one code point per symbol.
 */
import { MAX_CODE_POINT, type Ranges } from "../runtime/match/regex/char-set.js";

/** The printable ASCII characters, most readable first: what a witness prefers to be spelt with. */
const PREFERRED =
  "abcdefghijklmnopqrstuvwxyz0123456789._-/ABCDEFGHIJKLMNOPQRSTUVWXYZ=:,+@%~#!$&'()*;<>?[]^`{|}\"\\ ";

const PREFERENCE = new Map<number, number>([...PREFERRED].map((c, i) => [c.charCodeAt(0), i]));

/** How readable a code point is in a witness: lower is better. */
function readability(cp: number): number {
  const preferred = PREFERENCE.get(cp);
  if (preferred !== undefined) return preferred;
  // Letters of other scripts before controls, surrogates and private use.
  if (cp >= 0xa0 && cp < 0xd800) return 1000 + cp;
  if (cp >= 0xf900 && cp <= MAX_CODE_POINT) return 0x20000 + cp;
  return 0x200000 + cp;
}

/** The most readable code point of `[lo, hi]`. */
function representative(lo: number, hi: number): number {
  let best = lo;
  let bestRank = readability(lo);
  for (const [cp] of PREFERENCE) {
    if (cp >= lo && cp <= hi) {
      const rank = readability(cp);
      if (rank < bestRank) {
        best = cp;
        bestRank = rank;
      }
    }
  }
  if (bestRank < 1000) return best;
  for (let cp = lo; cp <= hi && cp < lo + 256; cp++) {
    const rank = readability(cp);
    if (rank < bestRank) {
      best = cp;
      bestRank = rank;
    }
  }
  return best;
}

/** The symbols of one verification. */
export class Alphabet {
  /** Interval `i` is the code points `starts[i]` to `starts[i + 1] - 1` (the last one up to U+10FFFF). */
  readonly #starts: Int32Array;
  /** The symbol of each interval. */
  readonly #symbolOfInterval: Int32Array;
  /** The code point a witness spells each symbol with. */
  readonly reps: Int32Array;
  /** The symbols, most readable first: searches for witnesses try them in this order. */
  readonly order: Int32Array;
  /** Per symbol, 1 when it stands for one code point only (a string of such symbols is one string). */
  readonly #single: Uint8Array;

  constructor(sets: readonly Ranges[]) {
    const points = new Set<number>([0]);
    for (const ranges of sets) {
      for (let i = 0; i + 1 < ranges.length; i += 2) {
        points.add(ranges[i] as number);
        const after = (ranges[i + 1] as number) + 1;
        if (after <= MAX_CODE_POINT) points.add(after);
      }
    }
    const starts = Int32Array.from([...points].sort((a, b) => a - b));
    this.#starts = starts;
    const n = starts.length;
    // Which registered sets hold each interval.
    const holders: number[][] = Array.from({ length: n }, () => []);
    sets.forEach((ranges, setIndex) => {
      for (let i = 0; i + 1 < ranges.length; i += 2) {
        let j = this.#intervalOf(ranges[i] as number);
        const hi = ranges[i + 1] as number;
        while (j < n && (starts[j] as number) <= hi) {
          const list = holders[j] as number[];
          if (list[list.length - 1] !== setIndex) list.push(setIndex);
          j++;
        }
      }
    });
    const bySignature = new Map<string, number>();
    const symbolOfInterval = new Int32Array(n);
    const reps: number[] = [];
    for (let j = 0; j < n; j++) {
      const signature = (holders[j] as number[]).join(",");
      let symbol = bySignature.get(signature);
      const hi = j + 1 < n ? (starts[j + 1] as number) - 1 : MAX_CODE_POINT;
      const rep = representative(starts[j] as number, hi);
      if (symbol === undefined) {
        symbol = reps.length;
        bySignature.set(signature, symbol);
        reps.push(rep);
      } else if (readability(rep) < readability(reps[symbol] as number)) reps[symbol] = rep;
      symbolOfInterval[j] = symbol;
    }
    this.#symbolOfInterval = symbolOfInterval;
    // Code points per symbol, counted up to 2.
    const width = new Uint8Array(reps.length);
    for (let j = 0; j < n; j++) {
      const hi = j + 1 < n ? (starts[j + 1] as number) - 1 : MAX_CODE_POINT;
      const symbol = symbolOfInterval[j] as number;
      width[symbol] = Math.min(2, (width[symbol] as number) + Math.min(2, hi - (starts[j] as number) + 1));
    }
    this.#single = width.map((w) => (w === 1 ? 1 : 0));
    this.reps = Int32Array.from(reps);
    this.order = Int32Array.from(
      [...reps.keys()].sort(
        (a, b) => readability(reps[a] as number) - readability(reps[b] as number) || a - b,
      ),
    );
  }

  #intervalOf(cp: number): number {
    const starts = this.#starts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= cp) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /**
   * Whether a set of code points (a flat range list) is a union of symbols: every symbol's code points are all in it
   * or all outside it. An automaton over this alphabet reads such a set exactly; any other would be read by its
   * symbols' representatives, which is wrong for the rest of their code points.
   */
  refines(ranges: Ranges): boolean {
    const starts = this.#starts;
    const n = starts.length;
    const inside = new Uint8Array(n);
    for (const [lo, hi] of merged(ranges)) {
      let j = this.#intervalOf(lo);
      if (starts[j] !== lo) return false;
      const after = hi + 1;
      if (after <= MAX_CODE_POINT && starts[this.#intervalOf(after)] !== after) return false;
      while (j < n && (starts[j] as number) <= hi) inside[j++] = 1;
    }
    const state = new Int8Array(this.reps.length).fill(-1);
    for (let j = 0; j < n; j++) {
      const symbol = this.#symbolOfInterval[j] as number;
      const member = inside[j] as number;
      if (state[symbol] === -1) state[symbol] = member;
      else if (state[symbol] !== member) return false;
    }
    return true;
  }

  /** The number of symbols. */
  get size(): number {
    return this.reps.length;
  }

  /** Whether a symbol stands for exactly one code point. */
  single(symbol: number): boolean {
    return this.#single[symbol] === 1;
  }

  /**
   * The code points a symbol stands for, in order, when they are at most `max` (`[0-9]` read by no other set is
   * one symbol of ten); undefined when there are more.
   */
  codePoints(symbol: number, max: number): number[] | undefined {
    const starts = this.#starts;
    const n = starts.length;
    const out: number[] = [];
    for (let j = 0; j < n; j++) {
      if (this.#symbolOfInterval[j] !== symbol) continue;
      const hi = j + 1 < n ? (starts[j + 1] as number) - 1 : MAX_CODE_POINT;
      for (let cp = starts[j] as number; cp <= hi; cp++) {
        if (out.length === max) return undefined;
        out.push(cp);
      }
    }
    return out;
  }

  /** The symbol of a code point. */
  symbolOf(cp: number): number {
    return this.#symbolOfInterval[this.#intervalOf(cp)] as number;
  }

  /** Membership of every symbol in a registered set, given as a test of one code point. */
  members(test: (cp: number) => boolean): Uint8Array {
    const out = new Uint8Array(this.size);
    for (let s = 0; s < this.size; s++) out[s] = test(this.reps[s] as number) ? 1 : 0;
    return out;
  }

  /** The symbols of a string (one per code point). */
  symbols(text: string): number[] {
    const out: number[] = [];
    for (const ch of text) out.push(this.symbolOf(ch.codePointAt(0) as number));
    return out;
  }

  /** A string spelt from symbols with their representatives. */
  spell(symbols: readonly number[]): string {
    let out = "";
    for (const s of symbols) out += String.fromCodePoint(this.reps[s] as number);
    return out;
  }
}

/** Collects the character sets of a verification before its alphabet is made from them. */
export class AlphabetBuilder {
  readonly #sets: Ranges[] = [];
  readonly #points = new Set<number>();

  /** Registers a set given as a flat range list `[lo0, hi0, lo1, hi1, …]`. */
  addRanges(ranges: Ranges): void {
    if (ranges.length > 0) this.#sets.push(ranges);
  }

  /** Makes one code point a symbol of its own. */
  addPoint(cp: number): void {
    this.#points.add(cp);
  }

  /** Makes every code point of a text a symbol of its own. */
  addText(text: string): void {
    for (const ch of text) this.addPoint(ch.codePointAt(0) as number);
  }

  /** A key equal for two builders that make the same alphabet (the same sets, in any order). */
  key(): string {
    const sets = new Set(this.#sets.map((r) => r.join(",")));
    for (const cp of this.#points) sets.add(`${cp},${cp}`);
    return [...sets].sort().join(";");
  }

  build(): Alphabet {
    return new Alphabet([...this.#sets, ...[...this.#points].map((cp) => [cp, cp])]);
  }
}

/** A flat range list as sorted, disjoint, non-adjacent ranges (`[39, 45, 39, 39]` is `[[39, 45]]`). */
function merged(ranges: Ranges): [number, number][] {
  const pairs: [number, number][] = [];
  for (let i = 0; i + 1 < ranges.length; i += 2) pairs.push([ranges[i] as number, ranges[i + 1] as number]);
  pairs.sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of pairs) {
    const last = out[out.length - 1];
    if (last !== undefined && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}
