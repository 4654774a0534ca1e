/**
 * An automaton reads a character set exactly only when the set is a union of its alphabet's symbols: `refines`
 * says whether it is, and `Automata.pattern` refuses (TooComplex, so `unknown`) a pattern whose sets the alphabet
 * was not cut for, instead of reading them by their symbols' representatives.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AlphabetBuilder } from "../../src/verify/alphabet.js";
import { Automata } from "../../src/verify/automata.js";
import { accepts, TooComplex } from "../../src/verify/dfa.js";
import { RegexLanguage } from "../../src/verify/regex-language.js";

describe("alphabet refinement", () => {
  it("a set is a union of symbols exactly when every symbol is wholly in it or wholly out", () => {
    const range = fc
      .tuple(fc.integer({ min: 0, max: 130 }), fc.integer({ min: 0, max: 12 }))
      .map(([lo, width]) => [lo, lo + width] as const);
    fc.assert(
      fc.property(
        fc.array(fc.array(range, { maxLength: 3 }), { maxLength: 4 }),
        fc.array(range, { maxLength: 3 }),
        (sets, probe) => {
          const builder = new AlphabetBuilder();
          for (const set of sets) builder.addRanges(set.flat());
          const alphabet = builder.build();
          const inProbe = (cp: number) => probe.some(([lo, hi]) => cp >= lo && cp <= hi);
          // The definition, on every code point up to 150 (the sets stay below 143, so the rest is one symbol).
          const state = new Map<number, boolean>();
          let union = true;
          for (let cp = 0; cp <= 150; cp++) {
            const symbol = alphabet.symbolOf(cp);
            const known = state.get(symbol);
            if (known === undefined) state.set(symbol, inProbe(cp));
            else if (known !== inProbe(cp)) union = false;
          }
          expect(alphabet.refines(probe.flat())).toBe(union);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("a pattern over an alphabet not cut for it is refused, not read by representatives", () => {
    const cut = new AlphabetBuilder();
    RegexLanguage.parse("^[a-c]+$", "u")?.addBoundaries(cut);
    const automata = new Automata(cut.build());
    const abc = automata.pattern("^[a-c]+$", "u");
    expect(accepts(abc, automata.alphabet.symbols("cab"))).toBe(true);
    // `b` alone was never cut out of `[a-c]`: an automaton of `^b$` here would accept `a` and `c` too.
    expect(() => automata.pattern("^b$", "u")).toThrow(TooComplex);
  });
});
