/**
 * An automaton reads a character set exactly only when the set is a union of its alphabet's symbols: `refines`
 * says whether it is, and `Automata.pattern` refuses (TooComplex, so `unknown`) a pattern whose sets the alphabet
 * was not cut for, instead of reading them by their symbols' representatives.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AlphabetBuilder } from "../../src/verify/alphabet.js";
import { Automata, AutomataPool, newBuilder, OWN_LIMIT, patternsKept } from "../../src/verify/automata.js";
import { accepts, TooComplex } from "../../src/verify/dfa.js";
import { PathLanguages } from "../../src/verify/path-language.js";
import { RegexLanguage } from "../../src/verify/regex-language.js";
import { UrlLanguages } from "../../src/verify/url-language.js";

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
    // Overlapping ranges of one set (found by the property above in a long run): their union is one symbol.
    const builder = new AlphabetBuilder();
    builder.addRanges([39, 45]);
    expect(builder.build().refines([39, 45, 39, 39])).toBe(true);
    expect(builder.build().refines([39, 39, 40, 45])).toBe(true);
    expect(builder.build().refines([39, 39, 41, 45])).toBe(false);
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

  it("reads a pattern made once over its own alphabet over any alphabet cut for it, as built there", () => {
    const pattern = "^(?:ab|[c-e]x)+$";
    const small = new AlphabetBuilder();
    RegexLanguage.parse(pattern, "u")?.addBoundaries(small);
    const wide = new AlphabetBuilder();
    RegexLanguage.parse(pattern, "u")?.addBoundaries(wide);
    wide.addText("abcdexyz");
    const over = [new Automata(small.build()), new Automata(wide.build())];
    for (const automata of over) {
      const dfa = automata.pattern(pattern, "u");
      expect(dfa.k).toBe(automata.alphabet.size);
      for (const [text, accepted] of [
        ["ab", true],
        ["dxab", true],
        ["ex", true],
        ["fx", false],
        ["a", false],
        ["", false],
        ["abz", false],
      ] as const)
        expect(accepts(dfa, automata.alphabet.symbols(text)), text).toBe(accepted);
    }
  });

  it("keeps at most a bound of patterns' own automata, the oldest dropped first", () => {
    const builder = new AlphabetBuilder();
    RegexLanguage.parse("^[0-9]x?$", "u")?.addBoundaries(builder);
    const automata = new Automata(builder.build());
    for (let i = 0; i < OWN_LIMIT + 20; i++)
      automata.pattern(`^${"[0-9]".repeat(1 + (i % 7))}${"x?".repeat(Math.floor(i / 7))}$`, "u");
    expect(patternsKept()).toBe(OWN_LIMIT);
  });
});

const MAX = 0x10ffff;

function alphabetOf(...sets: number[][]) {
  const builder = new AlphabetBuilder();
  for (const set of sets) builder.addRanges(set);
  return builder.build();
}

/** The code point a witness spells the symbol of `cp` with. */
const repOf = (sets: number[][], cp: number) => {
  const alphabet = alphabetOf(...sets);
  return alphabet.reps[alphabet.symbolOf(cp)];
};

describe("alphabet symbols", () => {
  it("cuts the code points into the symbols of the registered sets", () => {
    const empty = new AlphabetBuilder().build();
    expect(empty.size).toBe(1);
    expect([...empty.reps]).toEqual([0x61]);
    expect([...empty.order]).toEqual([0]);
    const ab = new AlphabetBuilder();
    ab.addText("ab");
    const alphabet = ab.build();
    // The rest (below `a` and from `c` on) is symbol 0, spelt `c`; then `a` and `b`.
    expect(alphabet.size).toBe(3);
    expect([...alphabet.reps]).toEqual([0x63, 0x61, 0x62]);
    expect([...alphabet.order]).toEqual([1, 2, 0]);
    expect(alphabet.symbols("abz0a")).toEqual([1, 2, 0, 0, 1]);
    expect(alphabet.symbols("\u{1f600}b")).toEqual([0, 2]);
    expect(alphabet.spell([0, 1, 2, 2])).toBe("cabb");
    expect(alphabet.spell([])).toBe("");
    expect([...alphabet.members((cp) => cp === 0x61)]).toEqual([0, 1, 0]);
    expect([...alphabet.members((cp) => cp !== 0x61)]).toEqual([1, 0, 1]);
    // A cut above `a` only: the code points below it are still one symbol with those above `a`.
    const b = new AlphabetBuilder();
    b.addText("b");
    const onlyB = b.build();
    expect(onlyB.size).toBe(2);
    expect(onlyB.symbolOf(0x61)).toBe(onlyB.symbolOf(0x63));
    expect(onlyB.symbolOf(0x61)).not.toBe(onlyB.symbolOf(0x62));
    expect(onlyB.symbolOf(0)).toBe(onlyB.symbolOf(MAX));
  });

  it("overlapping ranges of one set make one symbol", () => {
    const alphabet = alphabetOf([0x61, 0x63, 0x62, 0x64]);
    expect(alphabet.size).toBe(2);
    expect(alphabet.symbols("abcde")).toEqual([1, 1, 1, 1, 0]);
    expect(alphabetOf([0x61, 0x63], [0x62, 0x64]).size).toBe(4);
  });

  it("cuts at the last code points", () => {
    const alphabet = alphabetOf([0x10fff0, 0x10fffe]);
    expect(alphabet.size).toBe(2);
    expect(alphabet.symbolOf(0x10fffe)).toBe(1);
    expect(alphabet.symbolOf(0x10ffff)).toBe(0);
    expect(alphabet.symbolOf(0x10ffef)).toBe(0);
    const top = alphabetOf([0x100, MAX]);
    expect(top.size).toBe(2);
    expect(top.refines([0x100, MAX])).toBe(true);
    expect(top.refines([0, 0xff])).toBe(true);
    expect(top.refines([0x101, MAX])).toBe(false);
    expect(top.refines([0, MAX])).toBe(true);
    expect(top.refines([])).toBe(true);
    expect(top.refines([0, 0x100])).toBe(false);
  });

  it("gives every code point the symbol of the sets that hold it", () => {
    const range = fc
      .tuple(fc.integer({ min: 0, max: 130 }), fc.integer({ min: 0, max: 12 }))
      .map(([lo, width]) => [lo, lo + width] as const);
    fc.assert(
      fc.property(fc.array(fc.array(range, { minLength: 1, maxLength: 3 }), { maxLength: 4 }), (sets) => {
        const alphabet = alphabetOf(...sets.map((set) => set.flat()));
        const signature = (cp: number) =>
          sets.map((set) => (set.some(([lo, hi]) => cp >= lo && cp <= hi) ? 1 : 0)).join("");
        const symbolOfSignature = new Map<string, number>();
        const signatureOfSymbol = new Map<number, string>();
        const wrong: number[] = [];
        for (let cp = 0; cp <= 150; cp++) {
          const sig = signature(cp);
          const symbol = alphabet.symbolOf(cp);
          // One symbol per signature, and the representative is one of the symbol's code points.
          if (
            (symbolOfSignature.get(sig) ?? symbol) !== symbol ||
            (signatureOfSymbol.get(symbol) ?? sig) !== sig ||
            signature(alphabet.reps[symbol] as number) !== sig
          )
            wrong.push(cp);
          symbolOfSignature.set(sig, symbol);
          signatureOfSymbol.set(symbol, sig);
        }
        expect(wrong).toEqual([]);
        expect(alphabet.size).toBe(symbolOfSignature.size);
        expect(alphabet.symbolOf(MAX)).toBe(alphabet.symbolOf(150));
      }),
      { numRuns: 300 },
    );
  });

  it("spells a symbol with its most readable code point", () => {
    // Printable ASCII in its order of preference, before any other code point.
    const text = '~Z9a. \\"_';
    const ascii = new AlphabetBuilder();
    ascii.addText(text);
    const alphabet = ascii.build();
    expect(alphabet.spell([...alphabet.order])).toBe('ab9._Z~"\\ ');
    expect(repOf([[0x30, 0x39, 0x41, 0x5a]], 0x41)).toBe(0x30);
    expect(repOf([[0x20, 0x21]], 0x20)).toBe(0x21);
    // Letters of other scripts (from U+00A0) before controls, surrogates and private use.
    expect(repOf([[0x80, MAX]], 0x80)).toBe(0xa0);
    expect(repOf([[0x80, 0x2ff]], 0x80)).toBe(0xa0);
    expect(repOf([[0x9f, 0xa0]], 0x9f)).toBe(0xa0);
    expect(repOf([[0xa0, 0xa0, 0xe9, 0xe9]], 0xe9)).toBe(0xa0);
    expect(repOf([[0xe9, 0xe9, 0xa0, 0xa0]], 0xe9)).toBe(0xa0);
    expect(repOf([[0xd7ff, 0xd800]], 0xd800)).toBe(0xd7ff);
    expect(repOf([[0xd7ff, 0xd7ff, 0xf900, 0xf900]], 0xf900)).toBe(0xd7ff);
    expect(repOf([[0xd800, 0xd800, 0xf900, 0xf900]], 0xd800)).toBe(0xf900);
    expect(repOf([[0xd800, 0xd800, 0xf8ff, 0xf8ff]], 0xf8ff)).toBe(0xd800);
    expect(repOf([[0xd800, 0xd800, MAX, MAX]], 0xd800)).toBe(MAX);
    expect(repOf([[0xf900, 0xf900, MAX, MAX]], MAX)).toBe(0xf900);
    expect(repOf([[0x01, 0x02]], 0x02)).toBe(0x01);
    expect(repOf([[0xd800, 0xd801]], 0xd801)).toBe(0xd800);
    expect(repOf([[0xf900, 0xf901]], 0xf901)).toBe(0xf900);
    // Only the first 256 code points of an interval are searched.
    expect(repOf([[0xf800, 0xf9ff]], 0xf800)).toBe(0xf800);
    expect(repOf([[0xf700, 0xf9ff]], 0xf800)).toBe(0xf700);
    expect(repOf([[0x00, 0x1f, 0x7f, 0x9f]], 0x00)).toBe(0x00);
    expect(repOf([[0x01, 0x1f, 0x7f, 0x9f]], 0x7f)).toBe(0x01);
    // A symbol of several intervals takes the most readable of them, whichever comes first.
    expect(repOf([[0x00, 0x00, 0x7a, 0x7a]], 0x00)).toBe(0x7a);
    expect(repOf([[0x41, 0x41, 0x7a, 0x7a]], 0x41)).toBe(0x7a);
    expect(repOf([[0x7a, 0x7a, 0xe9, 0xe9]], 0xe9)).toBe(0x7a);
  });

  it("keys a builder by its sets, in any order", () => {
    const key = (...steps: ((b: AlphabetBuilder) => void)[]) => {
      const b = new AlphabetBuilder();
      for (const step of steps) step(b);
      return b.key();
    };
    expect(key()).toBe("");
    expect(key((b) => b.addRanges([]))).toBe("");
    expect(key((b) => b.addPoint(97))).toBe("97,97");
    expect(key((b) => b.addText("aba"))).toBe("97,97;98,98");
    expect(key((b) => b.addRanges([97, 97]))).toBe("97,97");
    expect(
      key(
        (b) => b.addRanges([5, 6, 1, 2]),
        (b) => b.addPoint(3),
        (b) => b.addRanges([5, 6, 1, 2]),
      ),
    ).toBe("3,3;5,6,1,2");
    expect(
      key(
        (b) => b.addRanges([10, 20]),
        (b) => b.addRanges([1, 2]),
      ),
    ).toBe(
      key(
        (b) => b.addRanges([1, 2]),
        (b) => b.addRanges([10, 20]),
      ),
    );
    const b = new AlphabetBuilder();
    b.addRanges([]);
    b.addPoint(0x62);
    b.addRanges([0x30, 0x39]);
    const alphabet = b.build();
    expect(alphabet.size).toBe(3);
    expect(alphabet.symbols("ab0c")).toEqual([0, 2, 1, 0]);
  });
});

describe("automata", () => {
  it("makes each pattern's automaton once, by pattern and flags", () => {
    const cut = new AlphabetBuilder();
    RegexLanguage.parse("^a$", "u")?.addBoundaries(cut);
    RegexLanguage.parse("^a$", "iu")?.addBoundaries(cut);
    const automata = new Automata(cut.build());
    const plain = automata.pattern("^a$", "u");
    const folded = automata.pattern("^a$", "iu");
    expect(automata.pattern("^a$", "u")).toBe(plain);
    expect(automata.pattern("^a$", "iu")).toBe(folded);
    const read = (dfa: typeof plain, text: string) => accepts(dfa, automata.alphabet.symbols(text));
    expect([read(plain, "a"), read(plain, "A"), read(plain, "aa")]).toEqual([true, false, false]);
    expect([read(folded, "a"), read(folded, "A"), read(folded, "b")]).toEqual([true, true, false]);
    expect(() => automata.pattern("(", "u")).toThrow(new TooComplex("pattern ( does not parse"));
    expect(() => automata.pattern("^b$", "u")).toThrow(
      new TooComplex("the alphabet is not cut for the character sets of ^b$"),
    );
    let made = 0;
    const make = () => {
      made++;
      return plain;
    };
    expect(automata.memo("k", make)).toBe(plain);
    expect(automata.memo("k", make)).toBe(plain);
    expect(made).toBe(1);
    expect(automata.memo("other", make)).toBe(plain);
    expect(made).toBe(2);
  });

  it("makes the path and URL languages once", () => {
    const pathCut = new AlphabetBuilder();
    PathLanguages.addBoundaries(pathCut, [], []);
    const paths = new Automata(pathCut.build());
    const p = paths.paths();
    expect(p).toBeInstanceOf(PathLanguages);
    expect(paths.paths()).toBe(p);
    expect(accepts(p.simple, paths.alphabet.symbols("a/b"))).toBe(true);
    const urlCut = new AlphabetBuilder();
    UrlLanguages.addBoundaries(urlCut, []);
    const urls = new Automata(urlCut.build());
    const u = urls.urls();
    expect(u).toBeInstanceOf(UrlLanguages);
    expect(urls.urls()).toBe(u);
    expect(accepts(u.simple, urls.alphabet.symbols("https://example.com/"))).toBe(true);
  });

  it("shares the automata of one alphabet, and cuts every path field for every path operator", () => {
    const pool = new AutomataPool();
    const one = new AlphabetBuilder();
    one.addText("ab");
    const same = new AlphabetBuilder();
    same.addText("ba");
    const other = newBuilder();
    expect(other).toBeInstanceOf(AlphabetBuilder);
    expect(other.key()).toBe("");
    other.addText("c");
    const automata = pool.get(one);
    expect(pool.get(same)).toBe(automata);
    expect(pool.get(other)).not.toBe(automata);
    expect(automata.alphabet.size).toBe(3);
    expect(pool.get(other).alphabet.size).toBe(2);

    const keyOf = (globs: string[], prefixes: string[]) => {
      const b = new AlphabetBuilder();
      PathLanguages.addBoundaries(b, globs, prefixes);
      return b.key();
    };
    pool.addPathOperators(["src/**"], ["/tmp"]);
    pool.addPathOperators(["src/**", "*.md"], []);
    const cut = new AlphabetBuilder();
    pool.addPathBoundaries(cut, ["*.md", "doc/*"], ["/home"]);
    expect(cut.key()).toBe(keyOf(["src/**", "*.md", "doc/*"], ["/tmp", "/home"]));
    expect(cut.key()).not.toBe(keyOf(["*.md", "doc/*"], ["/home"]));
    const bare = new AlphabetBuilder();
    pool.addPathBoundaries(bare, [], []);
    expect(bare.key()).toBe(keyOf(["src/**", "*.md"], ["/tmp"]));
    expect(bare.key()).not.toBe(keyOf(["src/**", "*.md"], []));
    expect(bare.key()).not.toBe(keyOf(["*.md"], ["/tmp"]));
  });
});

describe("alphabet refinement at the cuts", () => {
  it("a set cut at the alphabet's own boundaries is a union of symbols exactly when no symbol is split", () => {
    const range = fc
      .tuple(fc.integer({ min: 0, max: 130 }), fc.integer({ min: 0, max: 12 }))
      .map(([lo, width]) => [lo, lo + width] as const);
    fc.assert(
      fc.property(
        fc.array(fc.array(range, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(), { minLength: 2, maxLength: 6 }),
        (sets, picks) => {
          const alphabet = alphabetOf(...sets.map((set) => set.flat()));
          // The boundaries of the sets: a probe from them passes the boundary checks, so the symbol check decides.
          const cuts = [...new Set([0, ...sets.flat().flatMap(([lo, hi]) => [lo, hi + 1])])].sort(
            (x, y) => x - y,
          );
          const chosen = [...new Set(picks.map((p) => cuts[p % cuts.length] as number))].sort(
            (x, y) => x - y,
          );
          const probe: number[] = [];
          for (let i = 0; i + 1 < chosen.length; i += 2)
            probe.push(chosen[i] as number, (chosen[i + 1] as number) - 1);
          const inProbe = (cp: number) =>
            probe.some((lo, i) => i % 2 === 0 && cp >= lo && cp <= (probe[i + 1] as number));
          const state = new Map<number, boolean>();
          let union = true;
          for (let cp = 0; cp <= 150; cp++) {
            const symbol = alphabet.symbolOf(cp);
            const known = state.get(symbol);
            if (known === undefined) state.set(symbol, inProbe(cp));
            else if (known !== inProbe(cp)) union = false;
          }
          expect(alphabet.refines(probe)).toBe(union);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("refuses sets that split a symbol of several intervals, or end inside one", () => {
    // The symbols: `a` to `c`, `x` to `z`, and the rest; `a` to `c` and `x` to `z` are one symbol.
    const alphabet = alphabetOf([0x61, 0x63, 0x78, 0x7a]);
    expect(alphabet.size).toBe(2);
    expect(alphabet.refines([0x61, 0x63, 0x78, 0x7a])).toBe(true);
    expect(alphabet.refines([0x61, 0x63])).toBe(false);
    expect(alphabet.refines([0x78, 0x7a])).toBe(false);
    expect(alphabet.refines([0, 0x60, 0x64, 0x77, 0x7b, MAX])).toBe(true);
    expect(alphabet.refines([0, 0x60])).toBe(false);
    const top = alphabetOf([0x10fff0, MAX]);
    expect(top.refines([0x10fff0, MAX])).toBe(true);
    expect(top.refines([0x10fff0, 0x10fffe])).toBe(false);
    expect(top.refines([0x10fff1, MAX])).toBe(false);
  });

  it("tells apart the signatures of many sets", () => {
    // Sets 1 and 2 hold 2000, set 12 alone holds 3000 (with 1012): different symbols.
    const sets = Array.from({ length: 13 }, (_, i) => [1000 + i, 1000 + i]);
    sets[1]?.push(2000, 2000);
    sets[2]?.push(2000, 2000);
    sets[12]?.push(3000, 3000);
    const alphabet = alphabetOf(...sets);
    expect(alphabet.size).toBe(15);
    expect(alphabet.symbolOf(3000)).toBe(alphabet.symbolOf(1012));
    expect(alphabet.symbolOf(2000)).not.toBe(alphabet.symbolOf(3000));
  });

  it("asks a membership test once per symbol, with its representative", () => {
    const b = new AlphabetBuilder();
    b.addText("ab");
    const alphabet = b.build();
    const asked: number[] = [];
    const out = alphabet.members((cp) => {
      asked.push(cp);
      return cp !== 0x62;
    });
    expect(asked).toEqual([0x63, 0x61, 0x62]);
    expect([...out]).toEqual([1, 1, 0]);
  });

  it("leaves empty sets out of a builder's key", () => {
    const b = new AlphabetBuilder();
    b.addRanges([]);
    b.addRanges([1, 2]);
    expect(b.key()).toBe("1,2");
  });
});

describe("symbols of one code point", () => {
  it("a symbol is single when it stands for exactly one code point, at any place of the code space", () => {
    const b = new AlphabetBuilder();
    b.addText("ab");
    const ab = b.build();
    // The rest (every other code point) is one symbol of many; `a` and `b` are one each.
    expect([0, 1, 2].map((s) => ab.single(s))).toEqual([false, true, true]);
    // Two code points of one set: one symbol, whether adjacent or apart.
    const pair = alphabetOf([0x61, 0x62]);
    expect(pair.single(pair.symbolOf(0x61))).toBe(false);
    const apart = alphabetOf([0x61, 0x61, 0x63, 0x63]);
    expect(apart.symbolOf(0x61)).toBe(apart.symbolOf(0x63));
    expect(apart.single(apart.symbolOf(0x61))).toBe(false);
    // The last code point alone (the last interval), and the first.
    const top = alphabetOf([MAX, MAX]);
    expect(top.size).toBe(2);
    expect(top.single(top.symbolOf(MAX))).toBe(true);
    expect(top.single(top.symbolOf(0))).toBe(false);
    const bottom = alphabetOf([0, 0]);
    expect(bottom.single(bottom.symbolOf(0))).toBe(true);
    expect(bottom.single(bottom.symbolOf(1))).toBe(false);
    // A symbol of one code point below a symbol of one code point: each single.
    const two = alphabetOf([0x10fffe, 0x10fffe], [MAX, MAX]);
    expect(two.size).toBe(3);
    expect([0x10fffe, MAX, 0x10fffd].map((cp) => two.single(two.symbolOf(cp)))).toEqual([true, true, false]);
  });

  it("lists a symbol's code points, over all its intervals and in order, up to a count", () => {
    const apart = alphabetOf([0x61, 0x61, 0x63, 0x64]);
    const ac = apart.symbolOf(0x61);
    expect(apart.codePoints(ac, 3)).toEqual([0x61, 0x63, 0x64]);
    expect(apart.codePoints(ac, 2)).toBeUndefined();
    expect(apart.codePoints(apart.symbolOf(0x62), 10)).toBeUndefined();
    const top = alphabetOf([MAX, MAX]);
    expect(top.codePoints(top.symbolOf(MAX), 1)).toEqual([MAX]);
    expect(top.codePoints(top.symbolOf(0), 1000)).toBeUndefined();
    const digits = alphabetOf([0x30, 0x39]);
    expect(
      digits
        .codePoints(digits.symbolOf(0x35), 10)
        ?.map((cp) => String.fromCodePoint(cp))
        .join(""),
    ).toBe("0123456789");
  });
});
