/**
 * The verifier's automaton of a pattern accepts exactly the strings the engine's `test` matches: patterns built
 * from every construct the engine accepts (classes, negation, `.`, anchors, `\b`, `\B`, counted repetition,
 * alternation) under every flag combination, on strings of letters, digits, blanks, line terminators, a case
 * pair outside ASCII (`K`/`k`, `ſ`/`s`) and a character above U+FFFF.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
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
