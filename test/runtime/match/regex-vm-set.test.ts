/**
 * `RegexSet` on what its one-pass automaton must get right beyond a list of short inputs (see regex-vm.test.ts):
 * answers that change from one input to the next, members of every size and of both readings on inputs long
 * enough to pass the work bound, and the memory cap. The expected answers are each pattern's own.
 */
import { describe, expect, it } from "vitest";
import {
  compileRegex,
  type LinearRegex,
  MAX_SET_STATES,
  RegexSet,
} from "../../../src/runtime/match/regex/index.js";

function compiled(pattern: string, flags = ""): LinearRegex {
  const result = compileRegex(pattern, flags);
  if (!result.ok) throw new Error(`/${pattern}/${flags}: ${result.message}`);
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
  expect(hits).toEqual(list.flatMap((a, i) => (a === 0 ? [] : [i])));
  return list;
}

function randomText(length: number, seed: number, letters = "ab"): string {
  let text = "";
  let s = seed;
  for (let i = 0; i < length; i++) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    text += letters[(s >> 8) % letters.length];
  }
  return text;
}

describe("RegexSet: answers from one input to the next", () => {
  it("clears the answers of the previous input and keeps them for the same input", () => {
    const patterns = [
      compiled("^a"),
      compiled("b+"),
      compiled("c$"),
      compiled("\\bd"),
      compiled("e", "m"),
      compiled("^[ab]c"),
      compiled("x|y"),
    ];
    const set = new RegexSet(patterns, false);
    expect(together(set, "ab")).toEqual([1, 1, 0, 0, 0, 0, 0]);
    expect(together(set, "ab")).toEqual([1, 1, 0, 0, 0, 0, 0]);
    expect(together(set, "d e")).toEqual([0, 0, 0, 1, 1, 0, 0]);
    expect(together(set, "bc")).toEqual([0, 1, 1, 0, 0, 1, 0]);
    expect(together(set, "")).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(together(set, "yx")).toEqual([0, 0, 0, 0, 0, 0, 1]);
    expect(together(set, "ab")).toEqual([1, 1, 0, 0, 0, 0, 0]);
  });

  it("starts an anchored member only at the start, a floating one everywhere, and stops each once it matched", () => {
    const patterns = [
      compiled("^ab"),
      compiled("ab"),
      compiled("^(?:ab)+$"),
      compiled("(?:ab)+c"),
      compiled("b$"),
      compiled("^$"),
      compiled("^b|a$"),
      compiled("[^b]b"),
      compiled("^[^a]"),
    ];
    const set = new RegexSet(patterns, false);
    for (const input of [
      "ab",
      "xab",
      "abab",
      "ababc",
      "abx",
      "ba",
      "b",
      "",
      "aab",
      "bab",
      "ababab",
      "abcab",
    ]) {
      expect(together(set, input), input).toEqual(alone(patterns, input, false));
    }
  });

  it("keeps members of both readings and of both cases apart", () => {
    const patterns = [
      compiled("^.$", "u"),
      compiled("^.$"),
      compiled("^..$"),
      compiled("^[\\u{1F600}]", "u"),
      compiled("\\ud83d"),
      compiled("^K$", "i"),
      compiled("^K$"),
      compiled("^[k-l]$", "i"),
      compiled("^[k-l]$", "iu"),
      compiled("\u00e9", "i"),
      compiled("[\u00c9]$"),
      compiled("^s$", "iu"),
    ];
    const set = new RegexSet(patterns, false);
    for (const input of [
      "\u{1F600}",
      "a",
      "ab",
      "k",
      "K",
      "\u212a",
      "L",
      "\u00c9",
      "\u00e9",
      "\u017f",
      "S",
    ]) {
      expect(together(set, input), input).toEqual(alone(patterns, input, false));
    }
  });
});

describe("RegexSet: bounded answers on long inputs", () => {
  // Members from a few instructions to thousands in both readings, so that several size groups and both whole
  // automata exist; inputs from short to long enough that the largest members' bounds are passed.
  // Compiled inside each test: a compile that throws must fail a test, not the loading of the file.
  const members = (): LinearRegex[] => [
    compiled("^npm test$"),
    compiled("a+b"),
    compiled("(?:a|b){1,5}c"),
    compiled("(?:a|b){1,40}c"),
    compiled("(?:a|b){1,300}c"),
    compiled("(?:a|b){1,1000}c"),
    compiled("--no-index"),
    compiled("[ab]c", "u"),
    compiled("(?:a|b){1,20}c", "u"),
    compiled("(?:a|b){1,300}c", "u"),
    compiled("^(?:ab)+$", "u"),
    compiled("\\bab"),
    compiled("b$"),
  ];

  it.each([0, 1, 3, 10, 30, 60, 120, 200, 400, 1000, 4000, 20_000])(
    "on inputs of about %d characters",
    (size) => {
      const patterns = members();
      const set = new RegexSet(patterns, true);
      for (const tail of ["", "c", "--no-index", "npm test", "x"]) {
        const text = "ab".repeat(size) + tail;
        expect(together(set, text), `${size} ${tail}`).toEqual(alone(patterns, text, true));
      }
    },
  );

  it("gives the same answers whatever the set answered before", () => {
    const patterns = members();
    const set = new RegexSet(patterns, true);
    const inputs = ["ab".repeat(4000), "abc", "ab".repeat(30), `${"ab".repeat(4000)}c`, "abc", ""];
    for (const text of [...inputs, ...inputs.reverse()]) {
      expect(together(set, text)).toEqual(alone(patterns, text, true));
    }
  });

  it("a set of one size group answers as a set of many", () => {
    const small = [compiled("a+b"), compiled("[ab]c"), compiled("^(?:ab)+$")];
    const set = new RegexSet(small, true);
    for (const text of ["ab", "abc", "ab".repeat(50_000), `${"ab".repeat(50_000)}c`]) {
      expect(together(set, text)).toEqual(alone(small, text, true));
    }
  });
});

describe("RegexSet: the memory cap", () => {
  it("answers pattern by pattern when a run would pass the state cap, and runs the automaton again after", () => {
    // (a|b)*a(a|b){14}x has 2^15 states: a long random input passes the cap of MAX_SET_STATES.
    const patterns = [
      compiled("(?:a|b)*a(?:a|b){14}x"),
      compiled("b{3}a"),
      compiled("\\bab"),
      compiled("^b"),
      compiled("x$", "u"),
    ];
    const text = randomText(4 * MAX_SET_STATES, 7);
    for (const bounded of [false, true]) {
      const set = new RegexSet(patterns, bounded);
      for (const input of ["abba", `${text}x`, text, "abbba", `b${text}`, "abbbax", "bbbabx"]) {
        expect(together(set, input), input.slice(0, 20)).toEqual(alone(patterns, input, bounded));
      }
    }
  });

  it("answers a set of many members over a long input", () => {
    const patterns = Array.from({ length: 40 }, (_, i) => compiled(`(?:a|b)*a(?:a|b){${i % 8}}x${i}`));
    const set = new RegexSet(patterns, false);
    const text = randomText(1000, 3);
    for (const input of [`${text}x3`, "ax0", `${text}x17`, "abx9"]) {
      expect(together(set, input)).toEqual(alone(patterns, input, false));
    }
  });
});
