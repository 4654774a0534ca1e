/**
 * `RegexSet` against JavaScript's own `RegExp`: for every pattern of a set, the set's answer on an input is what
 * `new RegExp(source, flags).test(input)` answers. The sets are chosen to drive the shared lazy DFA through what
 * a short list of inputs does not reach: states that differ only in having started at the start of the input,
 * states that differ only in the patterns already matched, patterns that can match only at the end of the
 * input, surrogate pairs and lone surrogates under flag `u`, the state cap (several inputs filling the cache, in
 * both the one-pass automaton of a bounded set and its size groups), and sets of 1 to 40 patterns in both
 * readings and both cases.
 */
import { describe, expect, it } from "vitest";
import {
  compileRegex,
  type LinearRegex,
  MAX_SET_STATES,
  RegexSet,
} from "../../../src/runtime/match/regex/index.js";

type Source = readonly [pattern: string, flags: string];

function compiled([pattern, flags]: Source): LinearRegex {
  const result = compileRegex(pattern, flags);
  if (!result.ok) throw new Error(`/${pattern}/${flags}: ${result.message}`);
  return result.regex;
}

/** The set's answers on `input`, after checking that `hits` lists exactly the patterns whose answer is not 0. */
function answersOf(set: RegexSet, input: string): number[] {
  const { answers, hits } = set.match(input);
  const list = [...answers];
  expect(hits).toEqual(list.flatMap((a, i) => (a === 0 ? [] : [i])));
  return list;
}

const ASTRAL = /[\u{10000}-\u{10FFFF}]/u;

/**
 * What `RegExp` answers for each pattern: 1 match, 0 none. Flag `i` is compared with `iu`: the engine folds
 * case with Unicode simple case folding in both modes (documented in regex/index.ts), so where `i` goes without
 * `u` and the input holds an astral character (which `iu` would read as one), the pattern's own `test` answers.
 */
function oracleOf(sources: readonly Source[]): (input: string) => number[] {
  const checks = sources.map(([pattern, flags]) => {
    if (!flags.includes("i") || flags.includes("u")) {
      const regExp = new RegExp(pattern, flags);
      return (input: string) => regExp.test(input);
    }
    const regExp = new RegExp(pattern, `${flags}u`);
    const own = compiled([pattern, flags]);
    return (input: string) => (ASTRAL.test(input) ? own.test(input) : regExp.test(input));
  });
  return (input) => checks.map((check) => (check(input) ? 1 : 0));
}

/** Runs every input through both a plain and a bounded set of `sources`, in order, and compares with `RegExp`. */
function expectLikeRegExp(sources: readonly Source[], inputs: readonly string[]): void {
  const patterns = sources.map(compiled);
  const oracle = oracleOf(sources);
  for (const bounded of [false, true]) {
    const set = new RegexSet(patterns, bounded);
    for (const input of inputs) {
      expect(answersOf(set, input), `${bounded ? "bounded " : ""}${JSON.stringify(input)}`).toEqual(
        oracle(input),
      );
    }
  }
}

/** A small deterministic generator (mulberry32): every bit is random, unlike a power-of-two LCG's low bits. */
function generator(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomText(length: number, letters: string, next: () => number): string {
  let text = "";
  for (let i = 0; i < length; i++) text += letters[Math.floor(next() * letters.length)];
  return text;
}

describe("RegexSet: what the cache of states must keep apart", () => {
  it("a state reached after the start of the input is not the start state, though it has the same threads", () => {
    // After "c" the only thread left is the pattern's start again: the same threads as at the start, where `^`
    // held; "ca" must not match.
    const sources: Source[] = [["(?:^|b)a", ""]];
    expectLikeRegExp(sources, ["a", "ca", "ba", "cca", "cba", "c", "", "ca", "a"]);
    expectLikeRegExp(
      [
        ["(?:^|b)a", ""],
        ["(?:^|[xy])[z]", "u"],
        ["^[a]", ""],
      ],
      ["za", "az", "yz", "qz", "z"],
    );
  });

  it("states with the same threads and different patterns matched so far are different states", () => {
    // Patterns 1, 2 and 12 are anchored, so after their first character they leave no thread: after "ax" and
    // after "cx" the threads are the same (pattern 0's), and only the patterns matched so far ({1, 2} or {12})
    // tell the states apart.
    const sources: Source[] = [
      ["x[yz]", ""],
      ["^[a]", ""],
      ["^[aA]", ""],
      ...Array.from({ length: 9 }, (_, i): Source => [`^[${"defghijkl"[i]}]`, ""]),
      ["^[c]", ""],
    ];
    expectLikeRegExp(sources, ["ax", "cx", "ax", "dx", "cx", "axy", "cxz", "lx", "c", "a"]);
  });

  it("states with different threads of different patterns are different states", () => {
    // After "aa" the threads are at instructions 0, 1 and 2 (pattern 0); after "ccccccc" at 0 (pattern 0 again)
    // and 12 (pattern 1's last class): the lists must not be confused.
    const sources: Source[] = [
      ["[ab][ab][c]", ""],
      ["^[c]{7}[d]", ""],
    ];
    expectLikeRegExp(sources, ["aa", "cccccccd", "aac", "ccccccc", "cccccccd", "aa", "aad"]);
  });

  it("a pattern that can match only at the end keeps the run going when no thread waits", () => {
    // `$$` and `(?:$)+`-like patterns wait for no character: a state where nothing else waits is not finished.
    expectLikeRegExp([["$$", ""]], ["", "x", "xy", "abc"]);
    expectLikeRegExp([["$$", "u"]], ["", "x", "xy", "\u{1F600}\u{1F600}"]);
    expectLikeRegExp(
      [
        ["$$", ""],
        ["^[a]", ""],
      ],
      ["ab", "abc", "a", "b", "ba", ""],
    );
    expectLikeRegExp(
      [
        ["^[a]", ""],
        ["^[b]", ""],
        ["(?:a|$)$", ""],
        ["^[ab]$", ""],
      ],
      ["ab", "ba", "bb", "aa", "a", "b", "abc", "bab", ""],
    );
  });

  it("a pattern of nothing but its MATCH instruction matches every input, the empty one too", () => {
    // `a{0}` compiles to a single instruction: the smallest automaton there is.
    expectLikeRegExp([["a{0}", ""]], ["", "x", "ab", ""]);
    expectLikeRegExp([["[^]{0}", "u"]], ["", "\u{1F600}"]);
    expectLikeRegExp(
      [
        ["a{0}", ""],
        ["^$", ""],
        ["(?:|)", ""],
      ],
      ["", "a", ""],
    );
  });

  it("a finished state stops the run only when no pattern is left that could still match", () => {
    expectLikeRegExp(
      [
        ["^[a]", ""],
        ["^[ab][b]", ""],
      ],
      ["ab", "abxxxx", "axxxx", "bb", "bbbbbb", "xab", ""],
    );
    expectLikeRegExp(
      [
        ["[a]", ""],
        ["[b]", ""],
        ["^[x]", ""],
      ],
      ["ab", "ba", "xaaaab", "aaaaab", "bbbbba", "x", ""],
    );
  });
});

describe("RegexSet: code points and code units", () => {
  const sources: Source[] = [
    ["^.$", "u"],
    ["^..$", "u"],
    ["^...$", "u"],
    ["^[^]$", "u"],
    ["^[\\ud800-\\udbff]", "u"],
    ["[\\udc00-\\udfff]$", "u"],
    ["^[\\u{10000}-\\u{10ffff}]", "u"],
    ["^.$", ""],
    ["^..$", ""],
  ];
  const inputs = [
    "\ud800\udc00",
    "\udbff\udfff",
    "\ud83d\ude00",
    "\udc00\udc00",
    "\ue000\udc00",
    "\uffff\udc00",
    "\ud7ff\udc00",
    "\ud800\ue000",
    "\ud800\uffff",
    "\udbff\ud800",
    "\ud800",
    "\udc00",
    "a\ud800",
    "\ud800a",
    "\ud800\udc00\ud800",
    "\ud800\ud800\udc00",
    "\u{10ffff}\udfff",
    "",
  ];

  it("reads a surrogate pair as one character only under flag u, and a lone surrogate as itself", () => {
    expectLikeRegExp(sources, [...inputs, ...inputs.slice().reverse()]);
  });
});

describe("RegexSet: many patterns against RegExp", () => {
  // Patterns the shared automaton runs (no `\b`, no flag `m`, not a plain literal) and some it does not, with
  // anchors inside and outside alternatives, classes, case folding and both readings.
  const pool: Source[] = [
    ["^ab", ""],
    ["a[bc]", ""],
    ["(?:a|b)*c", ""],
    ["^(?:ab)+$", ""],
    ["b$", ""],
    ["^$", ""],
    ["^b|a$", ""],
    ["[^b]b", ""],
    ["^[^a]", ""],
    ["(?:^|b)a", ""],
    ["a(?:$|b)", ""],
    ["$$", ""],
    ["x*", ""],
    ["^x*$", ""],
    ["[a-c]{2,3}$", ""],
    ["ab?c?$", "i"],
    ["^[A-C]+", "i"],
    ["k", "i"],
    ["\u212a", "iu"],
    ["^s$", "iu"],
    ["\u017f", "i"],
    [".", ""],
    ["^.{3}$", "s"],
    ["^.{3}$", ""],
    ["[\\s\\S]c", ""],
    ["\\d\\w", ""],
    ["\\W$", ""],
    ["\\bab", ""],
    ["a$", "m"],
    ["abc", ""],
    ["^abc$", ""],
    ["(?:a|b){1,6}c", "u"],
    ["^.$", "u"],
    ["\\u{1F600}+", "u"],
    ["[^a]$", "u"],
    ["^(?:a|b|c)*$", "u"],
    ["(?:xy|yx)+", ""],
    ["y{2}", ""],
    ["^(?:c|$)", ""],
    ["(?:b|^)(?:c|$)", "i"],
  ];
  const letters = [
    "a",
    "b",
    "c",
    "x",
    "y",
    "A",
    "B",
    "C",
    "K",
    "k",
    "s",
    "S",
    "\u017f",
    "\u212a",
    "1",
    "_",
    " ",
    "\n",
    "\u{1F600}",
    "\ud83d",
  ];

  function inputsFor(seed: number, count: number): string[] {
    const next = generator(seed);
    const inputs = ["", "a", "ab", "abc", "b", "c", "ba", "xy", "\n", "abab", "ca", "K", "\u{1F600}"];
    while (inputs.length < count) {
      const length = Math.floor(next() * 9);
      let text = "";
      for (let i = 0; i < length; i++) text += letters[Math.floor(next() * letters.length)];
      inputs.push(text);
    }
    // Each input again, in the other order: the second time the states and transitions come from the cache.
    return [...inputs, ...inputs.slice().reverse()];
  }

  it.each([
    [1, 11],
    [2, 12],
    [3, 13],
    [5, 14],
    [13, 15],
    [pool.length, 16],
  ])("sets of %d patterns", (size, seed) => {
    const next = generator(seed);
    // Several sets of this size, each drawn from the pool in a different order.
    for (let round = 0; round < 2; round++) {
      const order = pool.map((source) => ({ source, key: next() })).sort((x, y) => x.key - y.key);
      const sources = order.slice(0, size).map((o) => o.source);
      expectLikeRegExp(sources, inputsFor(seed * 10 + round, 40));
    }
  });
});

describe("RegexSet: the state cap", () => {
  it("answers pattern by pattern past the cap, and runs the automaton again after", () => {
    // ^[ab]{4200} counts: each position of a run of a and b is a new state, so one input of 4,300 characters
    // passes MAX_SET_STATES; the other members are answered all the same, and the next inputs run the
    // automaton again from an empty cache.
    expect(MAX_SET_STATES).toBeLessThan(4200);
    const sources: Source[] = [
      ["^[ab]{4200}", ""],
      ["[ab]x", ""],
      ["^[b]", ""],
      ["b{3}a$", "u"],
    ];
    const patterns = sources.map(compiled);
    const oracle = oracleOf(sources);
    const set = new RegexSet(patterns, false);
    for (const input of ["abx", `${"ab".repeat(2150)}x`, "bbba", "abx", "bx", ""]) {
      expect(answersOf(set, input), input.slice(0, 20)).toEqual(oracle(input));
    }
  });

  it("a bounded set whose one-pass automaton fills its cache over several short inputs answers alike", () => {
    // (a|b)*a(a|b){14}x: the state after an input is the set of its last 15 positions that hold an `a`, up to
    // 2^15 states. Inputs short enough that the bounded set runs one automaton over both size groups (this one
    // and [ab]x's); together they make more than MAX_SET_STATES states, so one of them passes the cap.
    const sources: Source[] = [
      ["(?:a|b)*a(?:a|b){14}x", ""],
      ["[ab]x", ""],
    ];
    const next = generator(9);
    const inputs: string[] = [];
    for (let i = 0; i < 10; i++) inputs.push(`${randomText(500, "ab", next)}${i % 2 === 0 ? "x" : ""}`);
    const patterns = sources.map(compiled);
    const oracle = oracleOf(sources);
    const set = new RegexSet(patterns, true);
    for (const input of [...inputs, "abx", "aaaaaaaaaaaaaaaax"]) {
      expect(answersOf(set, input), input.slice(0, 20)).toEqual(oracle(input));
    }
  });
});

describe("RegexSet: plain answers are never maybes", () => {
  it("a set that is not bounded answers a pattern tested on its own with test, whatever the input's length", () => {
    // `\b` keeps the pattern out of the automaton; on 800 characters testBounded gives up on it, test does not.
    const sources: Source[] = [
      ["(?:a|b){1,100}c\\b", ""],
      ["[ab]c", ""],
    ];
    const patterns = sources.map(compiled);
    const oracle = oracleOf(sources);
    const set = new RegexSet(patterns, false);
    for (const input of ["ab".repeat(400), `${"ab".repeat(400)}c`, "abc"]) {
      expect(answersOf(set, input)).toEqual(oracle(input));
    }
  });
});

describe("RegexSet: plain literals", () => {
  it("a bounded set decides a plain literal on any input: string methods never give up", () => {
    // On 200,000 characters the literal's own program would pass the work bound; its string-method answer does not.
    const sources: Source[] = [
      ["a".repeat(2000), ""],
      [`${"a".repeat(2000)}$`, ""],
      [`^${"a".repeat(2000)}`, ""],
      ["b".repeat(2000), ""],
    ];
    const set = new RegexSet(sources.map(compiled), true);
    // (RegExp itself backtracks too long on these to serve as the oracle: the answers are plain.)
    expect(answersOf(set, "a".repeat(200_000))).toEqual([1, 1, 1, 0]);
    expect(answersOf(set, `${"a".repeat(200_000)}b`)).toEqual([1, 0, 1, 0]);
    expect(answersOf(set, "a".repeat(1999))).toEqual([0, 0, 0, 0]);
  });
});

describe("compileRegex: stateful flags", () => {
  it("refuses g and y with the reason (test keeps no lastIndex), and other flags with the list of those supported", () => {
    expect(compileRegex("a", "y")).toEqual({
      ok: false,
      message: 'unsupported flag "y": test() keeps no lastIndex state; remove it',
      offset: 0,
    });
    expect(compileRegex("a", "ig")).toEqual({
      ok: false,
      message: 'unsupported flag "g": test() keeps no lastIndex state; remove it',
      offset: 1,
    });
    expect(compileRegex("a", "d")).toEqual({
      ok: false,
      message: 'unsupported flag "d": only i, m, s and u are supported; remove it',
      offset: 0,
    });
  });
});
