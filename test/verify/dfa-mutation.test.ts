/**
 * DFA edge cases the broader tests do not reach: a shortest-length search whose layers of states, written without
 * separators, would read the same, and one that must find a repeating layer rather than walk its length bound.
 */
import { describe, expect, it } from "vitest";
import { AlphabetBuilder } from "../../src/verify/alphabet.js";
import {
  ANY_LENGTH,
  allStrings,
  DfaBuilder,
  lengthRange,
  literals,
  shortestLength,
} from "../../src/verify/dfa.js";

const builder = new AlphabetBuilder();
builder.addText("ab");
const ALPHABET = builder.build();
const K = ALPHABET.size;
const [A, B, C] = ["a", "b", "c"].map((c) => ALPHABET.symbolOf(c.codePointAt(0) as number)) as [
  number,
  number,
  number,
];

describe("shortestLength, at the edges", () => {
  it("tells layers {1, 213} and {12, 13} apart (their states read 1213 both, unseparated)", () => {
    const b = new DfaBuilder(K);
    for (let s = 0; s < 214; s++) b.add(s === 14);
    const all = (s: number, t: number) => {
      for (const c of [A, B, C]) b.set(s, c, t);
    };
    for (let s = 0; s < 214; s++) all(s, s);
    b.set(0, A, 1);
    b.set(0, B, 213);
    b.set(0, C, 213);
    all(1, 12);
    all(213, 13);
    all(12, 14);
    all(13, 14);
    const dfa = b.build(0);
    expect(shortestLength(dfa)).toBe(3);
    expect(shortestLength(dfa, lengthRange(3, 3))).toBe(3);
  });

  it("answers an odd length far past its bound of layers from the period", () => {
    const b = new DfaBuilder(K);
    b.add(false);
    b.add(true);
    for (const c of [A, B, C]) {
      b.set(0, c, 1);
      b.set(1, c, 0);
    }
    const odd = b.build(0);
    expect(shortestLength(odd, [[200_000, Number.POSITIVE_INFINITY]])).toBe(200_001);
    expect(shortestLength(odd, [])).toBeUndefined();
  });
});

describe("allStrings, at the edges", () => {
  it("lists the strings of an automaton of exactly maxStates states, and not of one more", () => {
    const dfa = literals(ALPHABET, ["a", "ab"]);
    expect(allStrings(ALPHABET, dfa, ANY_LENGTH, 10, dfa.n)?.sort()).toEqual(["a", "ab"]);
    expect(allStrings(ALPHABET, dfa, ANY_LENGTH, 10, dfa.n - 1)).toBeUndefined();
  });

  it("gives up on a cycle that accepts nothing on the way (a*b)", () => {
    const b = new DfaBuilder(K);
    b.add(false);
    b.add(true);
    b.set(0, A, 0);
    b.set(0, B, 1);
    expect(allStrings(ALPHABET, b.build(0), ANY_LENGTH, 10)).toBeUndefined();
  });
});
