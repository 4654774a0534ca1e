/**
 * The DFA operations against brute force: small hand-written automata, and random complete automata of up to five
 * states over the three symbols of the alphabet cut at `a` and `b` (`a`, `b`, everything else), compared on every
 * string of up to six symbols.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { type Alphabet, AlphabetBuilder } from "../../src/verify/alphabet.js";
import {
  ANY_LENGTH,
  accepts,
  afterSymbol,
  complement,
  complementLengths,
  constant,
  type Dfa,
  DfaBuilder,
  intersect,
  intersectLengths,
  isEmpty,
  isSubset,
  type LengthSet,
  lengthRange,
  literals,
  MAX_DFA_STATES,
  meets,
  minimize,
  product,
  shortestLength,
  shortestString,
  someStrings,
  startsWith,
  stringOfLength,
  stringsOf,
  subtract,
  TooComplex,
  union,
} from "../../src/verify/dfa.js";

function alphabetOf(text: string): Alphabet {
  const builder = new AlphabetBuilder();
  builder.addText(text);
  return builder.build();
}

const ALPHABET = alphabetOf("ab");
const K = ALPHABET.size;
/** The strings the tests enumerate: over `a`, `b` and `c` (a character of the third symbol). */
const LETTERS = ["a", "b", "c"];

function strings(max: number): string[] {
  const out = [""];
  let layer = [""];
  for (let n = 1; n <= max; n++) {
    layer = layer.flatMap((s) => LETTERS.map((c) => s + c));
    out.push(...layer);
  }
  return out;
}
const ALL = strings(6);

const SYMBOLS = new Map(ALL.map((s) => [s, ALPHABET.symbols(s)]));
const run = (dfa: Dfa, text: string): boolean => accepts(dfa, SYMBOLS.get(text) ?? ALPHABET.symbols(text));

/** A DFA from a table: `table[state][symbol of "a" | "b" | "c"]`, with accepting states. */
function table(rows: readonly (readonly number[])[], accepting: readonly number[], start = 0): Dfa {
  const b = new DfaBuilder(K);
  for (let s = 0; s < rows.length; s++) b.add(accepting.includes(s));
  const symbolOf = LETTERS.map((c) => ALPHABET.symbolOf(c.codePointAt(0) as number));
  rows.forEach((row, s) => {
    row.forEach((t, i) => {
      b.set(s, symbolOf[i] as number, t);
    });
  });
  return b.build(start);
}

/** An even number of `a`; ends with `b` (made before the tests, not as the module loads, so that each test sees
 * any fault in building them). */
let EVEN_A: Dfa;
let ENDS_B: Dfa;
/** Strings over `a` only. */
let A_STAR: Dfa;
beforeAll(() => {
  EVEN_A = table(
    [
      [1, 0, 0],
      [0, 1, 1],
    ],
    [0],
  );
  ENDS_B = table(
    [
      [0, 1, 0],
      [0, 1, 0],
    ],
    [1],
  );
  A_STAR = table(
    [
      [0, 1, 1],
      [1, 1, 1],
    ],
    [0],
  );
});

/**
 * Whether some string takes `a` and `b` to states where `both` holds: a walk over the pairs of states, written here
 * apart from dfa.ts (a shortest such string may be longer than the strings of `ALL`).
 */
function somePair(a: Dfa, b: Dfa, both: (x: boolean, y: boolean) => boolean): boolean {
  const seen = new Set<number>([a.start * b.n + b.start]);
  const queue = [[a.start, b.start] as const];
  for (let i = 0; i < queue.length; i++) {
    const [p, q] = queue[i] as readonly [number, number];
    if (both(a.accept[p] === 1, b.accept[q] === 1)) return true;
    for (let c = 0; c < a.k; c++) {
      const next = [a.trans[p * a.k + c] as number, b.trans[q * b.k + c] as number] as const;
      const key = next[0] * b.n + next[1];
      if (!seen.has(key)) {
        seen.add(key);
        queue.push(next);
      }
    }
  }
  return false;
}

const randomDfa: fc.Arbitrary<Dfa> = fc.integer({ min: 1, max: 5 }).chain((n) =>
  fc
    .tuple(
      fc.array(fc.array(fc.integer({ min: 0, max: n - 1 }), { minLength: 3, maxLength: 3 }), {
        minLength: n,
        maxLength: n,
      }),
      fc.array(fc.boolean(), { minLength: n, maxLength: n }),
      fc.integer({ min: 0, max: n - 1 }),
    )
    .map(([rows, acc, start]) =>
      table(
        rows,
        acc.flatMap((x, i) => (x ? [i] : [])),
        start,
      ),
    ),
);

const lengthSet: fc.Arbitrary<LengthSet> = fc
  .array(fc.tuple(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 8 })), { maxLength: 3 })
  .map((pairs) => {
    let out: LengthSet = [];
    for (const [a, b] of pairs) {
      const lo = Math.min(a, b);
      const hi = Math.max(a, b);
      // A union of intervals, built from the complement of the complement of each.
      const merged = [...out, [lo, hi] as const].sort((x, y) => x[0] - y[0]);
      const next: [number, number][] = [];
      for (const [l, h] of merged) {
        const last = next[next.length - 1];
        if (last !== undefined && l <= last[1] + 1) last[1] = Math.max(last[1], h);
        else next.push([l, h]);
      }
      out = next;
    }
    return out;
  });

const inLengths = (lengths: LengthSet, n: number) => lengths.some(([lo, hi]) => lo <= n && n <= hi);

describe("dfa", () => {
  it("runs hand-written automata", () => {
    expect(run(EVEN_A, "")).toBe(true);
    expect(run(EVEN_A, "aba")).toBe(true);
    expect(run(EVEN_A, "ab")).toBe(false);
    expect(run(ENDS_B, "ab")).toBe(true);
    expect(run(ENDS_B, "ba")).toBe(false);
  });

  it("combines hand-written automata as sets", () => {
    const both = intersect(EVEN_A, ENDS_B);
    const either = union(EVEN_A, ENDS_B);
    const minus = subtract(EVEN_A, ENDS_B);
    const not = complement(EVEN_A);
    for (const s of ALL) {
      const e = run(EVEN_A, s);
      const b = run(ENDS_B, s);
      expect(run(both, s), s).toBe(e && b);
      expect(run(either, s), s).toBe(e || b);
      expect(run(minus, s), s).toBe(e && !b);
      expect(run(not, s), s).toBe(!e);
    }
    expect(shortestString(ALPHABET, both)).toBe("b");
    expect(shortestString(ALPHABET, intersect(complement(EVEN_A), ENDS_B))).toBe("ab");
    expect(shortestString(ALPHABET, both, lengthRange(2, 2))).toBe("bb");
    expect(isEmpty(intersect(ENDS_B, table([[0, 0, 0]], [])))).toBe(true);
    expect(isEmpty(both)).toBe(false);
    expect(isSubset(intersect(EVEN_A, ENDS_B), ENDS_B)).toBe(true);
    expect(isSubset(ENDS_B, EVEN_A)).toBe(false);
    expect(minimize(EVEN_A).n).toBe(2);
  });

  it("builds literals and prefixes", () => {
    const lit = literals(ALPHABET, ["ab", "b", ""]);
    const pre = startsWith(ALPHABET, "ab");
    for (const s of ALL) {
      expect(run(lit, s), s).toBe(["ab", "b", ""].includes(s));
      expect(run(pre, s), s).toBe(s.startsWith("ab"));
    }
    expect(isEmpty(literals(ALPHABET, []))).toBe(true);
    expect(isEmpty(constant(K, false))).toBe(true);
    expect(isEmpty(constant(K, true))).toBe(false);
  });

  it("gives the set operations of random automata", () => {
    fc.assert(
      fc.property(randomDfa, randomDfa, (a, b) => {
        const ops: [Dfa, (x: boolean, y: boolean) => boolean][] = [
          [intersect(a, b), (x, y) => x && y],
          [intersect(a, b, false), (x, y) => x && y],
          [union(a, b), (x, y) => x || y],
          [subtract(a, b), (x, y) => x && !y],
          [complement(a), (x) => !x],
          [minimize(a), (x) => x],
        ];
        const wrong: string[] = [];
        for (const s of ALL) {
          const x = run(a, s);
          const y = run(b, s);
          ops.forEach(([dfa, op], i) => {
            if (run(dfa, s) !== op(x, y)) wrong.push(`op ${i} on ${s}`);
          });
        }
        expect(wrong).toEqual([]);
        // Within 5 symbols an operand accepts something if it accepts anything; a product may need 24.
        const some = (dfa: Dfa) => ALL.some((s) => run(dfa, s));
        expect(isEmpty(a)).toBe(!some(a));
        expect(isSubset(a, b)).toBe(!somePair(a, b, (x, y) => x && !y));
        expect(isEmpty(subtract(a, b))).toBe(isSubset(a, b));
        expect(meets(a, b)).toBe(somePair(a, b, (x, y) => x && y));
        if (ALL.some((s) => run(a, s) && run(b, s))) expect(meets(a, b)).toBe(true);
        expect(meets(a, complement(b))).toBe(!isSubset(a, b));
        expect(minimize(a).n).toBeLessThanOrEqual(a.n);
      }),
      { numRuns: 400 },
    );
  });

  it("finds where two automata meet on a shortest common string of eight symbols", () => {
    // Found by the property above: the strings of ALL (up to six symbols) have none in common.
    const a = table(
      [
        [1, 0, 0],
        [0, 0, 4],
        [0, 0, 3],
        [4, 0, 2],
        [0, 2, 0],
      ],
      [2],
    );
    const b = table(
      [
        [1, 3, 3],
        [0, 2, 0],
        [0, 0, 3],
        [0, 1, 0],
      ],
      [0],
    );
    expect(ALL.some((s) => run(a, s) && run(b, s))).toBe(false);
    const common = shortestString(ALPHABET, intersect(a, b)) as string;
    expect([common.length, run(a, common), run(b, common)]).toEqual([8, true, true]);
    expect(meets(a, b)).toBe(true);
    expect(isEmpty(intersect(a, b))).toBe(false);
    expect(isSubset(intersect(a, b), a)).toBe(true);
  });

  it("combines automata of thousands of states (over four million pairs: pairs numbered through a map)", () => {
    const words: string[] = [""];
    for (let n = 0; n < 8; n++)
      words.splice(0, words.length, ...words.flatMap((w) => LETTERS.map((c) => w + c)));
    const startsA = words.filter((w) => w.startsWith("a"));
    const endsB = words.filter((w) => w.endsWith("b") || w.startsWith("b"));
    const a = literals(ALPHABET, startsA);
    const b = literals(ALPHABET, endsB);
    expect(a.n * b.n).toBeGreaterThan(1 << 22);
    const both = intersect(a, b);
    const either = union(a, b);
    const only = subtract(a, b);
    for (const w of words) {
      const x = w.startsWith("a");
      const y = w.endsWith("b") || w.startsWith("b");
      expect([run(both, w), run(either, w), run(only, w)], w).toEqual([x && y, x || y, x && !y]);
    }
    expect(run(both, "a")).toBe(false);
    expect(someStrings(ALPHABET, both, ANY_LENGTH, 2)).toEqual(["aaaaaaab", "aaaaaabb"]);
    // Searched without a product, its pairs seen through a set: they meet; and not beside what starts with `c`.
    expect(meets(a, b)).toBe(true);
    const startsC = literals(
      ALPHABET,
      words.filter((w) => w.startsWith("c")),
    );
    expect(meets(a, startsC)).toBe(false);
    expect(isSubset(both, a)).toBe(true);
    expect(isSubset(a, b)).toBe(false);
  });

  it("finds the shortest accepted string and length, also under a set of lengths", () => {
    fc.assert(
      fc.property(randomDfa, lengthSet, (a, lengths) => {
        // Every length up to 8 + 5 is enumerated on the symbol level: strings of up to 6 letters, and beyond by
        // the automaton's own reachability (the brute force below is over sets of states).
        let states = new Set([a.start]);
        let expected: number | undefined;
        for (let n = 0; n <= 13 && expected === undefined; n++) {
          if (inLengths(lengths, n) && [...states].some((s) => a.accept[s] === 1)) expected = n;
          const next = new Set<number>();
          for (const s of states) for (let c = 0; c < a.k; c++) next.add(a.trans[s * a.k + c] as number);
          states = next;
        }
        const bounded =
          lengths.length === 0 || (lengths[lengths.length - 1] as readonly [number, number])[1] <= 8;
        if (bounded) expect(shortestLength(a, lengths)).toBe(expected);
        const found = shortestString(ALPHABET, a, lengths);
        if (expected === undefined) {
          if (bounded) expect(found).toBeUndefined();
        } else {
          expect(found).toBeDefined();
          const text = found as string;
          expect([...text].length).toBe(expected);
          expect(accepts(a, ALPHABET.symbols(text)), text).toBe(true);
        }
        const some = someStrings(ALPHABET, a, lengths, 5);
        expect(new Set(some).size).toBe(some.length);
        for (const s of some) {
          expect(accepts(a, ALPHABET.symbols(s)), s).toBe(true);
          expect(inLengths(lengths, [...s].length), s).toBe(true);
        }
        if (expected !== undefined) expect(some.length).toBeGreaterThan(0);
      }),
      { numRuns: 400 },
    );
  });

  it("intersects length sets", () => {
    expect(intersectLengths(lengthRange(0, 5), lengthRange(3, 9))).toEqual([[3, 5]]);
    expect(intersectLengths(lengthRange(0, 2), lengthRange(3, 9))).toEqual([]);
  });
});

/** The number of states of the minimal DFA of `a`'s language (Moore's refinement, reachable states only). */
function minimalSize(a: Dfa): number {
  const reach = [a.start];
  const seen = new Set(reach);
  for (let i = 0; i < reach.length; i++) {
    for (let c = 0; c < a.k; c++) {
      const t = a.trans[(reach[i] as number) * a.k + c] as number;
      if (!seen.has(t)) {
        seen.add(t);
        reach.push(t);
      }
    }
  }
  let cls = new Map(reach.map((s) => [s, String(a.accept[s])]));
  for (;;) {
    const signature = (s: number) =>
      `${cls.get(s)}|${Array.from({ length: a.k }, (_, c) => cls.get(a.trans[s * a.k + c] as number)).join(",")}`;
    const names = new Map<string, string>();
    const next = new Map(
      reach.map((s) => {
        const sig = signature(s);
        if (!names.has(sig)) names.set(sig, String(names.size));
        return [s, names.get(sig) as string];
      }),
    );
    const before = new Set(cls.values()).size;
    cls = next;
    if (names.size === before) return before;
  }
}

/** The reachable pairs of states of two DFAs read together. */
function reachablePairs(a: Dfa, b: Dfa): number {
  const seen = new Set([`${a.start},${b.start}`]);
  const queue: [number, number][] = [[a.start, b.start]];
  for (let i = 0; i < queue.length; i++) {
    const [x, y] = queue[i] as [number, number];
    for (let c = 0; c < a.k; c++) {
      const pair: [number, number] = [a.trans[x * a.k + c] as number, b.trans[y * b.k + c] as number];
      const key = pair.join(",");
      if (!seen.has(key)) {
        seen.add(key);
        queue.push(pair);
      }
    }
  }
  return queue.length;
}

/** Whether an accepting state is reachable from `s` (a search forward from it alone). */
function live(a: Dfa, s: number): boolean {
  const seen = new Set([s]);
  const queue = [s];
  for (let i = 0; i < queue.length; i++) {
    const x = queue[i] as number;
    if (a.accept[x] === 1) return true;
    for (let c = 0; c < a.k; c++) {
      const t = a.trans[x * a.k + c] as number;
      if (!seen.has(t)) {
        seen.add(t);
        queue.push(t);
      }
    }
  }
  return false;
}

/**
 * The states of an unminimised intersection: the pairs reachable through pairs of two live states, and one dead
 * state for every other pair reached (a pair with a state that accepts nothing after it accepts nothing).
 */
function livePairs(a: Dfa, b: Dfa): number {
  const isLive = (x: number, y: number) => live(a, x) && live(b, y);
  if (!isLive(a.start, b.start)) return 1;
  const seen = new Set([`${a.start},${b.start}`]);
  const queue: [number, number][] = [[a.start, b.start]];
  let dead = 0;
  for (let i = 0; i < queue.length; i++) {
    const [x, y] = queue[i] as [number, number];
    for (let c = 0; c < a.k; c++) {
      const pair: [number, number] = [a.trans[x * a.k + c] as number, b.trans[y * b.k + c] as number];
      if (!isLive(...pair)) {
        dead = 1;
        continue;
      }
      const key = pair.join(",");
      if (!seen.has(key)) {
        seen.add(key);
        queue.push(pair);
      }
    }
  }
  return queue.length + dead;
}

/** The lengths up to `max` of the strings `a` accepts, by sets of states. */
function acceptedLengths(a: Dfa, max: number): boolean[] {
  const out: boolean[] = [];
  let states = new Set([a.start]);
  for (let n = 0; n <= max; n++) {
    out.push([...states].some((s) => a.accept[s] === 1));
    const next = new Set<number>();
    for (const s of states) for (let c = 0; c < a.k; c++) next.add(a.trans[s * a.k + c] as number);
    states = next;
  }
  return out;
}

/** Length sets with bounds up to 120, the last interval possibly unbounded. */
const longLengthSet: fc.Arbitrary<LengthSet> = fc
  .tuple(fc.uniqueArray(fc.integer({ min: 0, max: 120 }), { maxLength: 6 }), fc.boolean())
  .map(([bounds, open]) => {
    const sorted = [...bounds].sort((x, y) => x - y);
    const out: [number, number][] = [];
    for (let i = 0; i + 1 < sorted.length; i += 2) {
      const lo = sorted[i] as number;
      const hi = sorted[i + 1] as number;
      const last = out[out.length - 1];
      if (last !== undefined && lo <= last[1] + 1) last[1] = hi;
      else out.push([lo, hi]);
    }
    if (open) {
      const from = sorted.length % 2 === 1 ? (sorted[sorted.length - 1] as number) : 121;
      const last = out[out.length - 1];
      if (last !== undefined && from <= last[1] + 1) last[1] = Number.POSITIVE_INFINITY;
      else out.push([from, Number.POSITIVE_INFINITY]);
    }
    return out;
  });

const symbolOfLetter = (c: string) => ALPHABET.symbolOf(c.codePointAt(0) as number);
describe("dfa, exactly", () => {
  it("reports a limit of states as TooComplex, with the internal code", () => {
    const error = new TooComplex("too big");
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("TooComplex");
    expect(error.code).toBe("internal");
    expect(error.message).toBe("too big");
    expect(MAX_DFA_STATES).toBe(20_000);
    const b = new DfaBuilder(0);
    let ids = 0;
    for (let i = 0; i < MAX_DFA_STATES; i++) if (b.add(i % 2 === 0) === i) ids++;
    expect(ids).toBe(MAX_DFA_STATES);
    expect(b.size).toBe(MAX_DFA_STATES);
    expect(() => b.add(false)).toThrow(TooComplex);
    expect(() => b.add(false)).toThrow("an automaton has more than 20000 states");
  });

  it("builds a complete automaton, with a dead state only when a transition is missing", () => {
    const full = new DfaBuilder(2);
    expect(full.size).toBe(0);
    expect(full.add(true)).toBe(0);
    expect(full.add(false)).toBe(1);
    expect(full.size).toBe(2);
    full.set(0, 0, 1);
    full.set(0, 1, 0);
    full.set(1, 0, 1);
    full.set(1, 1, 0);
    const built = full.build(1);
    expect(built).toEqual({
      k: 2,
      n: 2,
      trans: Int32Array.from([1, 0, 1, 0]),
      accept: Uint8Array.from([1, 0]),
      start: 1,
    });
    const partial = new DfaBuilder(2);
    partial.add(false);
    partial.add(true);
    partial.set(0, 1, 1);
    partial.set(1, 0, 0);
    expect(partial.build()).toEqual({
      k: 2,
      n: 3,
      trans: Int32Array.from([2, 1, 0, 2, 2, 2]),
      accept: Uint8Array.from([0, 1, 0]),
      start: 0,
    });
  });

  it("gives constants and literals their exact automata", () => {
    expect(constant(2, true)).toEqual({
      k: 2,
      n: 1,
      trans: Int32Array.from([0, 0]),
      accept: Uint8Array.from([1]),
      start: 0,
    });
    expect(constant(3, false).accept).toEqual(Uint8Array.from([0]));
    // The trie of "ab", "b" and "": the root, "a", "ab", "b", and a dead state.
    const lit = literals(ALPHABET, ["ab", "b", ""]);
    expect(lit.n).toBe(5);
    expect(lit.start).toBe(0);
    expect([...lit.accept]).toEqual([1, 0, 1, 1, 0]);
    const shared = literals(ALPHABET, ["ab", "aa", "a"]);
    expect(shared.n).toBe(5);
    for (const s of ALL) expect(run(shared, s), s).toBe(["ab", "aa", "a"].includes(s));
    expect(minimize(literals(ALPHABET, ["abc", "abc"])).n).toBe(5);
    const none = startsWith(ALPHABET, "");
    for (const s of ALL) expect(run(none, s), s).toBe(true);
    expect(none.n).toBe(1);
    const pre = startsWith(ALPHABET, "ba");
    expect(pre.n).toBe(4);
    expect(pre.start).toBe(0);
    for (const s of ALL) expect(run(pre, s), s).toBe(s.startsWith("ba"));
    const long = startsWith(ALPHABET, "abc");
    for (const s of ALL) expect(run(long, s), s).toBe(s.startsWith("abc"));
  });

  it("minimises to exactly the minimal automaton, a product unminimised to its reachable pairs, an intersection to its live ones", () => {
    fc.assert(
      fc.property(randomDfa, randomDfa, (a, b) => {
        const m = minimize(a);
        expect(m.n).toBe(minimalSize(a));
        expect(m.k).toBe(a.k);
        const raw = intersect(a, b, false);
        expect(raw.n).toBe(livePairs(a, b));
        expect(product(a, b, (x, y) => x && y, false).n).toBe(reachablePairs(a, b));
        expect(raw.start).toBe(0);
        const both = intersect(a, b);
        expect(both.n).toBe(minimalSize(raw));
        expect(union(a, b).n).toBe(minimalSize(product(a, b, (x, y) => x || y, false)));
        expect(subtract(a, b).n).toBe(minimalSize(product(a, b, (x, y) => x && !y, false)));
        // Every state of a minimal automaton is reachable, and its transitions stay inside it.
        expect(reachablePairs(both, constant(both.k, true))).toBe(both.n);
        for (const t of both.trans) expect(t >= 0 && t < both.n).toBe(true);
        expect(both.start >= 0 && both.start < both.n).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it("minimises hand-written automata to their known sizes", () => {
    // Ends with "b" over an alphabet of three symbols, spelt with a redundant copy of each state.
    const redundant = table(
      [
        [2, 1, 0],
        [2, 3, 2],
        [0, 3, 2],
        [0, 1, 2],
      ],
      [1, 3],
    );
    expect(minimize(redundant).n).toBe(2);
    for (const s of ALL) expect(run(minimize(redundant), s), s).toBe(s.endsWith("b"));
    // The strings whose length is a multiple of 4 need all four states; with an unreachable fifth.
    const mod4 = table(
      [
        [1, 1, 1],
        [2, 2, 2],
        [3, 3, 3],
        [0, 0, 0],
        [4, 4, 4],
      ],
      [0, 4],
    );
    const m = minimize(mod4);
    expect(m.n).toBe(4);
    expect(m.accept.reduce((x, y) => x + y, 0)).toBe(1);
    for (const s of ALL) expect(run(m, s), s).toBe([...s].length % 4 === 0);
    expect(minimize(constant(K, false)).n).toBe(1);
    expect(minimize(constant(K, true)).n).toBe(1);
  });

  it("starts an automaton one symbol later", () => {
    fc.assert(
      fc.property(randomDfa, (a) => {
        for (const letter of LETTERS) {
          const after = afterSymbol(a, symbolOfLetter(letter));
          expect(after.n).toBe(a.n);
          for (const s of strings(4)) expect(run(after, s), letter + s).toBe(run(a, letter + s));
        }
      }),
      { numRuns: 100 },
    );
  });

  it("gives the exact length sets", () => {
    expect(lengthRange(2, 2)).toEqual([[2, 2]]);
    expect(lengthRange(3, 2)).toEqual([]);
    expect(ANY_LENGTH).toEqual([[0, Number.POSITIVE_INFINITY]]);
    expect(Object.isFrozen(ANY_LENGTH)).toBe(true);
    expect(Object.isFrozen(ANY_LENGTH[0])).toBe(true);
    expect(
      intersectLengths(
        [
          [2, 3],
          [10, 12],
        ],
        ANY_LENGTH,
      ),
    ).toEqual([
      [2, 3],
      [10, 12],
    ]);
    expect(
      intersectLengths(
        [
          [0, 4],
          [8, 20],
        ],
        [
          [3, 9],
          [15, Number.POSITIVE_INFINITY],
        ],
      ),
    ).toEqual([
      [3, 4],
      [8, 9],
      [15, 20],
    ]);
    expect(intersectLengths(lengthRange(0, 3), lengthRange(3, 9))).toEqual([[3, 3]]);
    expect(complementLengths([])).toEqual([[0, Number.POSITIVE_INFINITY]]);
    expect(complementLengths(ANY_LENGTH)).toEqual([]);
    expect(complementLengths([[0, 3]])).toEqual([[4, Number.POSITIVE_INFINITY]]);
    expect(complementLengths([[3, 3]])).toEqual([
      [0, 2],
      [4, Number.POSITIVE_INFINITY],
    ]);
    expect(
      complementLengths([
        [2, 2],
        [3, 3],
        [6, Number.POSITIVE_INFINITY],
      ]),
    ).toEqual([
      [0, 1],
      [4, 5],
    ]);
  });

  it("finds the shortest length also far out and under unbounded length sets", () => {
    fc.assert(
      fc.property(randomDfa, longLengthSet, (a, lengths) => {
        // Past 121 + 2^5 lengths the sets of states have repeated, so an answer lies within 400.
        const accepted = acceptedLengths(a, 400);
        const expected = accepted.findIndex((yes, n) => yes && inLengths(lengths, n));
        expect(shortestLength(a, lengths)).toBe(expected === -1 ? undefined : expected);
        expect(shortestLength(a)).toBe(accepted.indexOf(true) === -1 ? undefined : accepted.indexOf(true));
        // Asked first, an automaton is searched forwards to its first accepting state; once it has layers (a
        // length past its shortest string makes them), they answer: both ways agree.
        const layered = { ...a };
        shortestLength(layered, [[401, 401]]);
        expect(shortestLength(layered, lengths)).toBe(expected === -1 ? undefined : expected);
      }),
      { numRuns: 400 },
    );
  });

  it("finds far lengths of periodic languages", () => {
    // Lengths 3 mod 7 with at least one "b": the shortest from 100 on is 101, from 102 on 108.
    const mod7 = product(
      table(
        Array.from({ length: 7 }, (_, s) => [(s + 1) % 7, (s + 1) % 7, (s + 1) % 7]),
        [3],
      ),
      table(
        [
          [0, 1, 0],
          [1, 1, 1],
        ],
        [1],
      ),
      (x, y) => x && y,
    );
    expect(shortestLength(mod7)).toBe(3);
    expect(shortestLength(mod7, [[100, Number.POSITIVE_INFINITY]])).toBe(101);
    expect(shortestLength(mod7, [[102, Number.POSITIVE_INFINITY]])).toBe(108);
    expect(shortestLength(mod7, [[102, 107]])).toBeUndefined();
    expect(shortestLength(mod7, [[102, 108]])).toBe(108);
    expect(
      shortestLength(mod7, [
        [4, 9],
        [50, 51],
        [60, Number.POSITIVE_INFINITY],
      ]),
    ).toBe(66);
    expect(shortestLength(mod7, [])).toBeUndefined();
    expect(shortestLength(constant(K, false))).toBeUndefined();
    expect(shortestLength(A_STAR, [[40, 50]])).toBe(40);
    expect(shortestString(ALPHABET, A_STAR, [[3, 50]])).toBe("aaa");
    expect(shortestString(ALPHABET, mod7, [[9, 12]])).toBe("aaaaaaaaab");
    expect(shortestString(ALPHABET, mod7, [[11, 12]])).toBeUndefined();
  });

  it("spells the most readable shortest string, and lists strings in that order", () => {
    fc.assert(
      fc.property(randomDfa, lengthSet, (a, lengths) => {
        // ALL is ordered by length, then by the readability of `a`, `b`, `c`: the order witnesses follow.
        const found = ALL.filter((s) => inLengths(lengths, [...s].length) && run(a, s));
        const shortest = shortestString(ALPHABET, a, lengths);
        if (found.length > 0) expect(shortest).toBe(found[0]);
        const some = someStrings(ALPHABET, a, lengths, 5);
        expect(some.filter((s) => s.length <= 6)).toEqual(found.slice(0, 5));
        if (found.length >= 5) expect(some).toHaveLength(5);
        expect(someStrings(ALPHABET, a, lengths, 1)).toEqual(some.slice(0, 1));
        expect(someStrings(ALPHABET, a, lengths, 0)).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });

  it("draws the same strings one at a time: every one accepted, in the lengths, shortest first, none twice", () => {
    fc.assert(
      fc.property(randomDfa, lengthSet, fc.integer({ min: 0, max: 30 }), (a, lengths, count) => {
        const all = someStrings(ALPHABET, a, lengths, count);
        const drawn: string[] = [];
        for (const s of stringsOf(ALPHABET, a, lengths, count)) drawn.push(s);
        expect(drawn).toEqual(all);
        expect(new Set(all).size).toBe(all.length);
        expect(all.length).toBeLessThanOrEqual(count);
        for (const [i, s] of all.entries()) {
          expect(run(a, s)).toBe(true);
          expect(inLengths(lengths, s.length)).toBe(true);
          if (i > 0) expect(s.length).toBeGreaterThanOrEqual((all[i - 1] as string).length);
        }
        // Fewer than asked only when no other string of a length in the set (up to six symbols here) is accepted.
        if (all.length < count) {
          const more = ALL.filter((s) => run(a, s) && inLengths(lengths, s.length) && !all.includes(s));
          expect(more.filter((s) => s.length <= 6 && s.length < 64)).toEqual([]);
        }
        // A reader that stops early gets the first strings.
        const first = stringsOf(ALPHABET, a, lengths, count).next();
        expect(first.done === true ? undefined : first.value).toBe(all[0]);
      }),
      { numRuns: 300 },
    );
  });

  it("lists strings shortest first, in at most 64 lengths", () => {
    const every = constant(K, true);
    expect(someStrings(ALPHABET, every, ANY_LENGTH, 5)).toEqual(["", "a", "b", "c", "aa"]);
    expect(someStrings(ALPHABET, every, lengthRange(2, 2), 4)).toEqual(["aa", "ab", "ac", "ba"]);
    expect(shortestString(ALPHABET, every, lengthRange(2, 2))).toBe("aa");
    expect(someStrings(ALPHABET, EVEN_A, lengthRange(1, 2), 3)).toEqual(["b", "c", "aa"]);
    const as = someStrings(ALPHABET, A_STAR, ANY_LENGTH, 100);
    expect(as).toHaveLength(64);
    expect(as[63]).toBe("a".repeat(63));
    expect(someStrings(ALPHABET, A_STAR, lengthRange(5, 7), 100)).toEqual(["aaaaa", "aaaaaa", "aaaaaaa"]);
  });
});

/**
 * Three cycles of 97, 89 and 83 states, entered on `a`, `b` and `c` from the start; every state of the first is
 * accepting, so every length from 1 on is. The sets of states repeat only after 97 * 89 * 83 lengths.
 */
function cycles(): Dfa {
  const b = new DfaBuilder(K);
  const start = b.add(false);
  const entries: number[] = [];
  for (const [i, size] of [97, 89, 83].entries()) {
    const first = b.size;
    for (let j = 0; j < size; j++) b.add(i === 0 || j === 0);
    for (let j = 0; j < size; j++)
      for (const letter of LETTERS) b.set(first + j, symbolOfLetter(letter), first + ((j + 1) % size));
    entries.push(first);
  }
  LETTERS.forEach((letter, i) => {
    b.set(start, symbolOfLetter(letter), entries[i] as number);
  });
  return b.build(start);
}

describe("dfa, exactly, at the edges", () => {
  it("gives every automaton exactly n * k transitions", () => {
    for (const dfa of [
      startsWith(ALPHABET, "ab"),
      startsWith(ALPHABET, ""),
      literals(ALPHABET, ["ab", "c"]),
      constant(K, true),
      EVEN_A,
      minimize(ENDS_B),
      intersect(EVEN_A, ENDS_B, false),
    ])
      expect(dfa.trans.length).toBe(dfa.n * dfa.k);
    expect(startsWith(ALPHABET, "ab").start).toBe(0);
  });

  it("complements by flipping 0 and 1", () => {
    expect([...complement(EVEN_A).accept]).toEqual([0, 1]);
    const m = minimize(complement(ENDS_B));
    expect(m.n).toBe(2);
    for (const s of ALL) expect(run(m, s), s).toBe(!s.endsWith("b"));
  });

  it("answers the shortest length under every small length set, against brute force", () => {
    const mod4 = table(
      [
        [1, 1, 1],
        [2, 2, 2],
        [3, 3, 3],
        [0, 0, 0],
      ],
      [0],
    );
    const automata = [mod4, EVEN_A, ENDS_B, A_STAR, literals(ALPHABET, ["abc", "a"]), complement(mod4)];
    const sets: LengthSet[] = [[]];
    for (let lo = 0; lo <= 9; lo++) {
      for (let hi = lo; hi <= 9; hi++) {
        sets.push([[lo, hi]]);
        sets.push([[lo, Number.POSITIVE_INFINITY]]);
        for (let lo2 = hi + 2; lo2 <= 11; lo2++) {
          sets.push([
            [lo, hi],
            [lo2, lo2],
          ]);
          sets.push([
            [lo, hi],
            [lo2, Number.POSITIVE_INFINITY],
          ]);
        }
      }
    }
    const wrong: string[] = [];
    for (const [i, a] of automata.entries()) {
      const accepted = acceptedLengths(a, 20);
      for (const lengths of sets) {
        const n = accepted.findIndex((yes, len) => yes && inLengths(lengths, len));
        const expected = n === -1 ? undefined : n;
        if (shortestLength(a, lengths) !== expected) wrong.push(`${i} ${JSON.stringify(lengths)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("answers far lengths from the period, not by walking to them", () => {
    expect(shortestLength(A_STAR, [[200_000, Number.POSITIVE_INFINITY]])).toBe(200_000);
    const mod7 = table(
      Array.from({ length: 7 }, (_, s) => [(s + 1) % 7, (s + 1) % 7, (s + 1) % 7]),
      [3],
    );
    expect(shortestLength(mod7, [[1_000_000, Number.POSITIVE_INFINITY]])).toBe(1_000_002);
    expect(shortestString(ALPHABET, A_STAR, [[150_000, Number.POSITIVE_INFINITY]])).toBe("a".repeat(150_000));
  });

  it("gives up on a search longer than its bound of layers", () => {
    const a = cycles();
    expect(shortestLength(a)).toBe(1);
    expect(shortestLength(a, [[99_999, 99_999]])).toBe(99_999);
    expect(() => shortestLength(a, [[100_000, 100_000]])).toThrow(TooComplex);
    expect(() => shortestLength(a, [[100_000, 100_000]])).toThrow(
      "the shortest string of an automaton is too long to find",
    );
    // Once it has its strings, a listing stops before a search that would give up.
    expect(
      someStrings(
        ALPHABET,
        a,
        [
          [1, 1],
          [150_000, 150_000],
        ],
        1,
      ),
    ).toEqual(["a"]);
  });

  it("spells no string of a length the automaton has none of", () => {
    const lit = literals(ALPHABET, ["ab"]);
    expect(stringOfLength(ALPHABET, lit, 3)).toBeUndefined();
    expect(stringOfLength(ALPHABET, lit, 1)).toBeUndefined();
    expect(stringOfLength(ALPHABET, lit, 2)).toEqual(ALPHABET.symbols("ab"));
  });
});
