import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileGlob } from "../../../src/runtime/match/glob.js";
import {
  compileRegex,
  type LinearRegex,
  MAX_SET_STATES,
  RegexSet,
} from "../../../src/runtime/match/regex/index.js";

function compiled(pattern: string, flags = ""): LinearRegex {
  const result = compileRegex(pattern, flags);
  if (!result.ok) throw new Error(`${pattern}: ${result.message}`);
  return result.regex;
}

/** What each pattern answers on its own: 1 match, 0 none, 2 undecided (bounded only). */
function alone(patterns: readonly LinearRegex[], input: string, bounded: boolean): number[] {
  return patterns.map((p) => {
    if (!bounded) return p.test(input) ? 1 : 0;
    const answer = p.testBounded(input);
    return answer === undefined ? 2 : answer ? 1 : 0;
  });
}

function together(set: RegexSet, input: string): number[] {
  const { answers, hits } = set.match(input);
  const list = [...answers];
  // `hits` lists exactly the patterns whose answer is not 0.
  expect(hits).toEqual(list.flatMap((a, i) => (a === 0 ? [] : [i])));
  return list;
}

describe("RegexSet agrees with each pattern alone", () => {
  // Classes, escapes and anchors the engine treats specially (`\b` and flag `m` keep a pattern out of the
  // automaton; a plain literal is answered by string methods), and characters at their edges.
  const char = fc.constantFrom(
    "a",
    "b",
    "A",
    "k",
    "/",
    ".",
    "9",
    "_",
    "\\d",
    "\\w",
    "\\s",
    "\\W",
    "[ab]",
    "[^a]",
    "[^/]",
    "[a-c]",
    "[\\s\\S]",
    "[^]",
    "\u017f",
    "\u00e9",
    "\\u{1F600}",
  );
  const quantifier = fc.constantFrom("", "", "*", "+", "?", "{2}", "{0,2}", "*?");
  const pattern: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
    node: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      char,
      fc.constantFrom("^", "$", "\\b", "\\B"),
      fc.tuple(char, quantifier).map(([c, q]) => c + q),
      fc.tuple(tie("node"), tie("node")).map(([a, b]) => a + b),
      fc.tuple(tie("node"), tie("node")).map(([a, b]) => `${a}|${b}`),
      fc.tuple(tie("node"), quantifier).map(([a, q]) => `(?:${a})${q}`),
    ),
  })).node;
  const flags = fc.subarray(["i", "m", "s", "u"]).map((f) => f.join(""));
  const member = fc
    .tuple(pattern, flags)
    .map(([source, flagText]) => compileRegex(source, flagText))
    .filter((r) => r.ok)
    .map((r) => (r as { regex: LinearRegex }).regex);
  const inputChar = fc.constantFrom(
    ..."abABkK9_/. \t\n",
    "\r",
    "\u2028",
    "\u017f",
    "\u212a",
    "\u00e9",
    "\u00c9",
    "\u{1F600}",
    "\ud83d",
  );
  const input = fc.array(inputChar, { maxLength: 10 }).map((chars) => chars.join(""));

  it("on every pattern of a random set, for several inputs in a row (property)", () => {
    fc.assert(
      fc.property(
        fc.array(member, { minLength: 1, maxLength: 6 }),
        fc.array(input, { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        (patterns, inputs, bounded) => {
          const set = new RegexSet(patterns, bounded);
          // Twice over, so that the second pass reads states and transitions the first one cached.
          for (const text of [...inputs, ...inputs]) {
            expect(together(set, text)).toEqual(alone(patterns, text, bounded));
          }
        },
      ),
      { numRuns: 10_000 },
    );
  });

  it("on globs, compiled as the glob matcher compiles them (property)", () => {
    const glob = fc.constantFrom(
      "**/.env*",
      "**/.ssh/**",
      "**/*.pem",
      "/**",
      "~/**",
      "src/**/*.ts",
      "**/cache1*/**",
      "{a,b}/?.[!x]",
      "**/id_rsa*",
      "*/*",
    );
    const path = fc
      .array(fc.constantFrom("a", "b", "src", ".env", ".ssh", "x.pem", "cache12", "~", "id_rsa.pub", "é"), {
        minLength: 1,
        maxLength: 4,
      })
      .chain((segments) => fc.constantFrom(segments.join("/"), `\0/${segments.join("/")}`));
    fc.assert(
      fc.property(
        fc.uniqueArray(glob, { minLength: 1, maxLength: 6 }),
        fc.array(path, { maxLength: 4 }),
        (globs, paths) => {
          const patterns = globs.map((g) => {
            const c = compileGlob(g);
            if (!c.ok) throw new Error(g);
            // The glob's own pattern, exactly and ignoring case, as the glob matcher runs it.
            const source = (c.glob as unknown as { exact: LinearRegex }).exact.source;
            return [compiled(source, "u"), compiled(source, "iu")];
          });
          const flat = patterns.flat();
          const set = new RegexSet(flat, false);
          for (const p of paths) expect(together(set, p)).toEqual(alone(flat, p, false));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("matches `$` at the end of the input even where no thread waits for a character", () => {
    const patterns = [compiled("^\\W$"), compiled("a"), compiled("x$|^y")];
    const set = new RegexSet(patterns, false);
    expect(together(set, "\n")).toEqual([1, 0, 0]);
    expect(together(set, "\nb")).toEqual([0, 0, 0]);
    expect(together(set, "yax")).toEqual([0, 1, 1]);
  });

  it("falls back to each pattern alone when the state cap is reached, with the same answers", () => {
    // A pattern whose DFA has 2^15 states: a long random input passes the cap.
    const patterns = [compiled("(a|b)*a(a|b){14}x"), compiled("b{3}a"), compiled("\\bab")];
    let seed = 7;
    let text = "";
    for (let i = 0; i < 4 * MAX_SET_STATES; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      text += seed & 0x100 ? "a" : "b";
    }
    const set = new RegexSet(patterns, false);
    expect(together(set, `${text}x`)).toEqual(alone(patterns, `${text}x`, false));
    expect(together(set, text)).toEqual(alone(patterns, text, false));
    expect(together(set, "abba")).toEqual([0, 0, 1]);
  });

  it("leaves an undecided bounded answer undecided on a long input", () => {
    const patterns = [compiled("(a|b){1,1000}c"), compiled("[ab]c"), compiled("^ab")];
    const text = "ab".repeat(1 << 18);
    const answers = together(new RegexSet(patterns, true), text);
    expect(answers).toEqual(alone(patterns, text, true));
    expect(answers[0]).toBe(2);
    expect(answers[2]).toBe(1);
  });

  it("answers members of every size alike on inputs short and long enough to pass the largest one's bound", () => {
    // Sizes from a few instructions to thousands: a short input runs them all in one automaton, a longer one
    // runs the size groups, and the longest leaves the largest undecided.
    const patterns = [
      compiled("^npm test$"),
      compiled("(a|b){1,40}c"),
      compiled("(a|b){1,1000}c"),
      compiled("--no-index"),
      compiled("[ab]c", "u"),
      compiled("(a|b){1,300}c", "u"),
    ];
    const set = new RegexSet(patterns, true);
    for (const size of [0, 3, 40, 200, 2000, 40_000]) {
      for (const tail of ["", "c", "--no-index", "npm test"]) {
        const text = "ab".repeat(size) + tail;
        expect(together(set, text), `${size} ${tail}`).toEqual(alone(patterns, text, true));
      }
    }
  });
});
