/**
 * The verifier's automaton of a pattern accepts exactly the strings the engine's `test` matches: patterns built
 * from every construct the engine accepts (classes, negation, `.`, anchors, `\b`, `\B`, counted repetition,
 * alternation) under every flag combination, on strings of letters, digits, blanks, line terminators, a case
 * pair outside ASCII (`K`/`k`, `ſ`/`s`) and a character above U+FFFF.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  FOLDED_WORD_RANGES,
  LINE_TERMINATOR_RANGES,
  WORD_RANGES,
} from "../../src/runtime/match/regex/char-set.js";
import { compileRegex } from "../../src/runtime/match/regex/index.js";
import { AlphabetBuilder } from "../../src/verify/alphabet.js";
import { accepts, TooComplex } from "../../src/verify/dfa.js";
import { RegexLanguage } from "../../src/verify/regex-language.js";

const ATOMS = [
  "a",
  "b",
  "A",
  "k",
  "s",
  "\\d",
  "\\w",
  "\\s",
  "\\W",
  ".",
  "[ab]",
  "[^a]",
  "[a-c]",
  "\\n",
  "K",
  "ſ",
  "😀",
  "[^\\n]",
  "\\.",
  " ",
];
const ASSERTS = ["^", "$", "\\b", "\\B"];

const pattern: fc.Arbitrary<string> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(...ATOMS),
    fc.constantFrom(...ASSERTS),
    fc.tuple(tie("node"), tie("node")).map(([a, b]) => `${a}${b}`),
    fc.tuple(tie("node"), tie("node")).map(([a, b]) => `(?:${a}|${b})`),
    fc
      .tuple(tie("atomish"), fc.constantFrom("*", "+", "?", "{2}", "{0,2}", "{1,}"))
      .map(([a, q]) => `${a}${q}`),
  ),
  atomish: fc.oneof(
    fc.constantFrom(...ATOMS),
    tie("node").map((n) => `(?:${n})`),
  ),
})).node as fc.Arbitrary<string>;

const CHARS = ["a", "b", "A", "B", "k", "K", "K", "s", "S", "ſ", "1", " ", "\n", "\r", ".", "_", "😀", "é"];
const input = fc.array(fc.constantFrom(...CHARS), { maxLength: 7 }).map((cs) => cs.join(""));

describe("RegexLanguage", () => {
  for (const flags of ["", "u", "i", "iu", "m", "mu", "s", "imsu"]) {
    it(`accepts what the engine matches (flags "${flags}")`, () => {
      fc.assert(
        fc.property(pattern, fc.array(input, { minLength: 1, maxLength: 12 }), (source, inputs) => {
          const compiled = compileRegex(source, flags);
          if (!compiled.ok) return;
          let language: RegexLanguage | undefined;
          try {
            language = RegexLanguage.parse(source, flags);
          } catch (error) {
            // Without u, a literal above U+FFFF tests surrogate halves: refused (the verifier says unknown).
            expect(error).toBeInstanceOf(TooComplex);
            expect(flags).not.toContain("u");
            return;
          }
          expect(language).toBeDefined();
          const builder = new AlphabetBuilder();
          (language as RegexLanguage).addBoundaries(builder);
          for (const text of inputs) builder.addText(text);
          const alphabet = builder.build();
          const dfa = (language as RegexLanguage).toDfa(alphabet);
          for (const text of inputs) {
            expect(
              accepts(dfa, alphabet.symbols(text)),
              `${JSON.stringify(source)} /${flags} on ${JSON.stringify(text)}`,
            ).toBe(compiled.regex.test(text));
          }
        }),
        { numRuns: 300 },
      );
    });
  }
});

/** Every string over `letters` of at most `max` characters. */
function allStrings(letters: readonly string[], max: number): string[] {
  const out = [""];
  let layer = [""];
  for (let n = 1; n <= max; n++) {
    layer = layer.flatMap((s) => letters.map((c) => s + c));
    out.push(...layer);
  }
  return out;
}

describe("RegexLanguage on every short string", () => {
  const LETTERS = ["a", "b", "A", "\n", " ", "_"];
  const ALL = allStrings(LETTERS, 4);
  for (const flags of ["", "i", "m", "s", "imsu"]) {
    it(`agrees with compileRegex on every string of up to 4 of a, b, A, newline, blank, _ (flags "${flags}")`, () => {
      fc.assert(
        fc.property(pattern, (source) => {
          const compiled = compileRegex(source, flags);
          if (!compiled.ok) return;
          let language: RegexLanguage | undefined;
          try {
            language = RegexLanguage.parse(source, flags);
          } catch (error) {
            expect(error).toBeInstanceOf(TooComplex);
            expect(flags).not.toContain("u");
            return;
          }
          expect(language, source).toBeDefined();
          const builder = new AlphabetBuilder();
          (language as RegexLanguage).addBoundaries(builder);
          for (const c of LETTERS) builder.addText(c);
          const alphabet = builder.build();
          const dfa = (language as RegexLanguage).toDfa(alphabet);
          const wrong = ALL.filter(
            (text) => accepts(dfa, alphabet.symbols(text)) !== compiled.regex.test(text),
          );
          expect(wrong.slice(0, 5), `${JSON.stringify(source)} /${flags}`).toEqual([]);
        }),
        { numRuns: 150 },
      );
    });
  }
});

/**
 * The verifier's automaton of one pattern, on an alphabet cut for that pattern alone (`addBoundaries`): the cuts
 * must be enough for every text, whatever characters it holds.
 */
function ownAlphabetDfa(source: string, flags: string) {
  const language = RegexLanguage.parse(source, flags);
  if (language === undefined) throw new Error(`${source} does not parse`);
  const builder = new AlphabetBuilder();
  language.addBoundaries(builder);
  const alphabet = builder.build();
  expect(language.fits(alphabet), `${source} fits its own alphabet`).toBe(true);
  return { alphabet, dfa: language.toDfa(alphabet) };
}

/** The texts (of `all`) on which the automaton and the engine disagree, a few of them. */
function disagreements(source: string, flags: string, all: readonly string[]): string[] {
  const compiled = compileRegex(source, flags);
  if (!compiled.ok) throw new Error(`${source} /${flags} does not compile: ${compiled.message}`);
  const { alphabet, dfa } = ownAlphabetDfa(source, flags);
  return all
    .filter((text) => accepts(dfa, alphabet.symbols(text)) !== compiled.regex.test(text))
    .slice(0, 5)
    .map((text) => JSON.stringify(text));
}

describe("RegexLanguage on an alphabet cut for the pattern alone", () => {
  // Both ends of every range of word characters, the line terminators, the last code unit, a character above
  // U+FFFF and its two halves alone, and the case pairs outside ASCII.
  const WIDE = [
    "a",
    "z",
    "A",
    "Z",
    "0",
    "9",
    "_",
    "/",
    ":",
    "@",
    "[",
    "`",
    "{",
    "\n",
    "\r",
    "\u2028",
    "\u2029",
    " ",
    "\uffff",
    "\u{1f600}",
    "\ud800",
    "\udc00",
    "k",
    "\u212a",
    "s",
    "\u017f",
    "~",
  ];
  const SHORT = allStrings(WIDE, 2);

  const CASES: [string, string[]][] = [
    ["\\b", ["", "u", "i"]],
    ["\\B", ["", "u"]],
    ["^\\b", ["", "m"]],
    ["\\b$", ["", "m"]],
    ["\\Ba", [""]],
    ["a\\b", ["", "i"]],
    ["^", ["", "m"]],
    ["$", ["", "m"]],
    ["^a", ["", "m", "mu"]],
    ["a$", ["", "m", "mu"]],
    ["^$", ["", "m", "mu"]],
    ["^.$", ["", "s", "u", "su", "m"]],
    ["^..$", ["", "s", "u", "su"]],
    [".", ["", "s", "u"]],
    ["[^a]", ["", "u", "i"]],
    ["^[^a]$", ["", "u", "i", "iu"]],
    ["^[^a][^a]$", ["", "u"]],
    ["[\\ud800-\\udbff]", ["", "u", "i"]],
    ["[\\udc00-\\udfff]", ["", "u"]],
    ["^[\\ud800-\\udbff][\\udc00-\\udfff]$", ["", "u"]],
    ["[^\\ud800-\\udfff]", ["", "u"]],
    ["^[^\\ud800-\\udbff]$", ["", "u"]],
    ["^[\\ud800-\\udfff]$", ["", "u"]],
    ["\\uffff", ["", "u"]],
    // Each of 0, 9 and Z a symbol of its own (and its representative): each is a word character.
    ["^(?:0|9|Z)\\b", ["", "u"]],
    ["^(?:0|9|Z)\\B", [""]],
    // A carriage return and U+2029 each a symbol of their own: each ends a line.
    ["\\r^a", ["m"]],
    ["\\u2029^a", ["m"]],
    ["a$\\r", ["m"]],
    ["[a-~]", ["", "i", "iu"]],
    ["[a-cb]", ["", "i"]],
    ["[x-z9a]", ["", "i"]],
    ["[b-za]", ["", "i"]],
    ["[0-9a-zA-Z_]", ["", "i"]],
    ["[@-Z]", ["", "i", "iu"]],
    ["[`-z]", ["i", "iu"]],
    ["k", ["i", "iu"]],
    ["s", ["i", "iu"]],
    ["[k-s]", ["i", "iu"]],
    ["[^k]", ["i", "iu"]],
    ["\\u212a", ["i", "iu"]],
    ["\\u017f", ["i", "iu"]],
    ["\\w", ["", "i", "iu"]],
    ["\\W", ["", "i", "iu"]],
    ["^\\s$", ["", "u"]],
    ["(?:)", ["", "u"]],
    ["a|", [""]],
    ["^(?:a|b|)$", [""]],
    ["^(?:a|)*b$", [""]],
    ["^a{2,3}$", ["", "i"]],
    ["^(?:a{0,2}){2}$", [""]],
    ["^a{1,}$", [""]],
    ["^a{0}$", [""]],
    ["^(?:a\\b|\\Bz)+$", ["", "i"]],
    ["\\u{1f600}", ["u"]],
    ["^\\u{1f600}$", ["u"]],
  ];

  for (const [source, flagList] of CASES) {
    for (const flags of flagList) {
      it(`agrees with compileRegex on every text of up to 2 wide characters: /${source}/${flags}`, () => {
        expect(disagreements(source, flags, SHORT)).toEqual([]);
      });
    }
  }

  const NARROW = allStrings(["a", "b", "A", "\n", "\u{1f600}"], 4);
  const DEEP: [string, string][] = [
    ["^(?:a|b)*$", ""],
    ["^(?:ab|a)*b$", "i"],
    ["a(?:b|$)", "m"],
    ["^(?:a{2})*$", ""],
    ["^.{2,3}$", ""],
    ["^.{2,3}$", "u"],
    ["(?:^|b)a", "m"],
    ["\\ba\\b", ""],
    ["^[^b]*$", ""],
    ["[^b]\\n", "s"],
    ["^a{2,3}$", ""],
    ["^a{0,2}$", "i"],
    ["^(?:a|b){1,2}b$", ""],
    ["^(?:ab?){2}$", ""],
  ];
  for (const [source, flags] of DEEP) {
    it(`agrees with compileRegex on every text of up to 4 of a, b, A, newline and U+1F600: /${source}/${flags}`, () => {
      expect(disagreements(source, flags, NARROW)).toEqual([]);
    });
  }
});

describe("RegexLanguage.parse", () => {
  it("gives undefined for a pattern the engine's parser refuses", () => {
    expect(RegexLanguage.parse("(")).toBeUndefined();
    expect(RegexLanguage.parse("a{2,1}", "u")).toBeUndefined();
  });

  it("reads no flag when none is given: `.` stops at a line terminator, case counts", () => {
    const { alphabet, dfa } = (() => {
      const language = RegexLanguage.parse("^.a$") as RegexLanguage;
      const builder = new AlphabetBuilder();
      language.addBoundaries(builder);
      const built = builder.build();
      return { alphabet: built, dfa: language.toDfa(built) };
    })();
    expect(accepts(dfa, alphabet.symbols("xa"))).toBe(true);
    expect(accepts(dfa, alphabet.symbols("\na"))).toBe(false);
    expect(accepts(dfa, alphabet.symbols("xA"))).toBe(false);
    // Without u a character above U+FFFF is two characters to `.`.
    expect(accepts(dfa, alphabet.symbols("\u{1f600}a"))).toBe(false);
  });

  it("refuses, without flag u, a class that holds some but not all of the high or of the low surrogates", () => {
    for (const source of [
      "[\\ud800]",
      "[\\udbff]",
      "[\\udc00]",
      "[\\udfff]",
      "[\\udbff-\\udc00]",
      "[\\ud801-\\udbff]",
    ]) {
      expect(() => RegexLanguage.parse(source, ""), source).toThrow(/surrogate halves/);
      expect(() => RegexLanguage.parse(source, "i"), source).toThrow(TooComplex);
      expect(RegexLanguage.parse(source, "u"), source).toBeInstanceOf(RegexLanguage);
    }
    for (const source of [
      "[\\ud800-\\udbff]",
      "[\\udc00-\\udfff]",
      "[\\ud800-\\udfff]",
      "[^\\ud800-\\udfff]",
      "\\uffff",
    ]) {
      expect(RegexLanguage.parse(source, ""), source).toBeInstanceOf(RegexLanguage);
    }
  });

  it("refuses, without flag u, a character above U+FFFF spelt as its two halves", () => {
    expect(() => RegexLanguage.parse("\\ud83d\\ude00", "")).toThrow(TooComplex);
    expect(RegexLanguage.parse("\\ud83d\\ude00", "u")).toBeInstanceOf(RegexLanguage);
  });

  it("builds up to 20,000 NFA states and refuses more", () => {
    // `a{19999}` is 19,999 character states and the final match state.
    expect(RegexLanguage.parse("a{19999}")).toBeInstanceOf(RegexLanguage);
    expect(() => RegexLanguage.parse("a{20000}")).toThrow(TooComplex);
    expect(() => RegexLanguage.parse("(?:a{10}){2000}")).toThrow(/too large to verify/);
  });
});

describe("RegexLanguage ignoring case, class after class", () => {
  // Two classes whose ranges are spelt with the same digits (9 to 797, and 97 to 97): each keeps its own
  // case-folded ranges, in whichever order they are read.
  for (const order of [
    ["[\\t-\\u031d]", "a"],
    ["a", "[\\t-\\u031d]"],
  ]) {
    it(`reads ${order.join(" then ")} each as itself`, () => {
      for (const source of order) RegexLanguage.parse(source, "i");
      expect(
        disagreements("^[\\t-\\u031d]$", "i", ["a", "b", "B", "\u031d", "\u031e", "\t", "\u0008"]),
      ).toEqual([]);
      expect(disagreements("^a$", "i", ["a", "A", "b", "\t"])).toEqual([]);
    });
  }
});

describe("RegexLanguage.fits", () => {
  const built = (ranges: readonly (readonly number[])[]) => {
    const builder = new AlphabetBuilder();
    for (const r of ranges) builder.addRanges([...r]);
    return builder.build();
  };
  const parsed = (source: string, flags: string) => RegexLanguage.parse(source, flags) as RegexLanguage;

  it("holds on an alphabet cut at the pattern's classes, the word characters and the line terminators", () => {
    const language = parsed("[b-d]", "u");
    expect(language.fits(built([[0x62, 0x64], WORD_RANGES, LINE_TERMINATOR_RANGES]))).toBe(true);
  });

  it("holds when a class ignoring case is a union of cut ranges: [a-c] is A to C and a to c", () => {
    const language = parsed("[a-c]", "i");
    expect(
      language.fits(built([[0x41, 0x43], [0x61, 0x63], FOLDED_WORD_RANGES, LINE_TERMINATOR_RANGES])),
    ).toBe(true);
    expect(
      language.fits(built([[0x41, 0x42], [0x61, 0x63], FOLDED_WORD_RANGES, LINE_TERMINATOR_RANGES])),
    ).toBe(false);
    // Ignoring case, `\b` counts `ſ` and the Kelvin sign as word characters: the alphabet must tell them apart.
    expect(language.fits(built([[0x41, 0x43], [0x61, 0x63], WORD_RANGES, LINE_TERMINATOR_RANGES]))).toBe(
      false,
    );
  });

  it("holds when a class of adjacent ranges is one cut range: [a-cd-f] is a to f", () => {
    for (const source of ["[a-cd-f]", "[d-fa-c]", "[a-ce-fd]"]) {
      const language = parsed(source, "u");
      expect(language.fits(built([[0x61, 0x66], WORD_RANGES, LINE_TERMINATOR_RANGES])), source).toBe(true);
    }
  });

  it("fails when a class, the word characters or the line terminators are not cut", () => {
    const language = parsed("[b-d]", "u");
    expect(language.fits(built([[0x62, 0x63], WORD_RANGES, LINE_TERMINATOR_RANGES]))).toBe(false);
    expect(language.fits(built([[0x62, 0x64], LINE_TERMINATOR_RANGES]))).toBe(false);
    expect(language.fits(built([[0x62, 0x64], WORD_RANGES]))).toBe(false);
  });
});
