/**
 * The DFA operations against brute force: small hand-written automata, and random complete automata of up to five
 * states over the three symbols of the alphabet cut at `a` and `b` (`a`, `b`, everything else), compared on every
 * string of up to six symbols.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Alphabet, AlphabetBuilder } from "../../src/verify/alphabet.js";
import {
  accepts,
  complement,
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
  minimize,
  shortestLength,
  shortestString,
  someStrings,
  startsWith,
  subtract,
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

/** An even number of `a`. */
const EVEN_A = table(
  [
    [1, 0, 0],
    [0, 1, 1],
  ],
  [0],
);
/** Ends with `b`. */
const ENDS_B = table(
  [
    [0, 1, 0],
    [0, 1, 0],
  ],
  [1],
);

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
        // Within 5 * 5 symbols a product accepts something if it accepts anything; 6 covers each operand alone.
        const some = (dfa: Dfa) => ALL.some((s) => run(dfa, s));
        expect(isEmpty(a)).toBe(!some(a));
        expect(isSubset(a, b)).toBe(!ALL.some((s) => run(a, s) && !run(b, s)) && isEmpty(subtract(a, b)));
        expect(minimize(a).n).toBeLessThanOrEqual(a.n);
      }),
      { numRuns: 400 },
    );
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
