import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileRegex, MAX_REGEX_PROGRAM_SIZE } from "../../../src/runtime/match/regex/index.js";

function test(pattern: string, input: string, flags = ""): boolean {
  const compiled = compileRegex(pattern, flags);
  if (!compiled.ok) throw new Error(`${pattern}: ${compiled.message}`);
  return compiled.regex.test(input);
}

function refusal(pattern: string, flags = ""): { message: string; offset: number } {
  const compiled = compileRegex(pattern, flags);
  if (compiled.ok) throw new Error(`${pattern} compiled`);
  return { message: compiled.message, offset: compiled.offset };
}

describe("compileRegex: matching", () => {
  // [pattern, flags, input, expected]
  const cases: [string, string, string, boolean][] = [
    ["abc", "", "xxabcxx", true],
    ["abc", "", "xxabxcx", false],
    ["^abc", "", "abcdef", true],
    ["^abc", "", "xabc", false],
    ["abc$", "", "xxabc", true],
    ["abc$", "", "abcx", false],
    ["^abc$", "", "abc", true],
    ["^abc$", "", "abcc", false],
    ["^abc", "m", "x\nabc", true],
    ["abc$", "m", "abc\nx", true],
    ["^abc$", "", "x\nabc", false],
    // without m, $ is the end of the input only: not before a final or inner newline
    ["^(ls|pwd)$", "", "ls\nrm", false],
    ["^(ls|pwd)$", "", "ls\n", false],
    ["^(ls|pwd)$", "m", "ls\nrm", true],
    ["^rm", "", "ls\nrm", false],
    ["^rm", "m", "ls\nrm", true],
    ["^\\s$", "", "\t", true],
    ["^\\s+$", "", " \t\n\r\v\f", true],
    ["^\\S$", "", "\t", false],
    ["^\\d+$", "", "0123456789", true],
    ["^\\d$", "", "9", true],
    ["^\\D$", "", "9", false],
    ["^[0-9]$", "", "9", true],
    ["", "", "", true],
    ["", "", "anything", true],
    ["^$", "", "", true],
    ["^$", "", "a", false],
    ["a|b", "", "xbx", true],
    ["a|b", "", "xcx", false],
    ["^(?:ab|cd)+$", "", "abcdab", true],
    ["^(?:ab|cd)+$", "", "abca", false],
    ["colou?r", "", "color", true],
    ["colou?r", "", "colour", true],
    ["colou?r", "", "colouur", false],
    ["^a{3}$", "", "aaa", true],
    ["^a{3}$", "", "aa", false],
    ["^a{2,}$", "", "aaaaa", true],
    ["^a{2,}$", "", "a", false],
    ["^a{2,3}$", "", "aaa", true],
    ["^a{2,3}$", "", "aaaa", false],
    ["^a{0}$", "", "", true],
    ["^a{0,1}b$", "", "b", true],
    ["^a*?b+?c??$", "", "aabb", true],
    ["^a{2,3}?$", "", "aa", true],
    ["^.$", "", "\n", false],
    ["^.$", "s", "\n", true],
    ["^.$", "", "\u2028", false],
    ["^.$", "", "x", true],
    ["\\d+", "", "abc123", true],
    ["^\\D+$", "", "abc1", false],
    ["^\\w+$", "", "foo_Bar9", true],
    ["^\\W$", "", "-", true],
    ["^\\s$", "", "\u00a0", true],
    ["^\\S$", "", " ", false],
    ["\\bfoo\\b", "", "a foo b", true],
    ["\\bfoo\\b", "", "afoo b", false],
    ["\\Bfoo", "", "afoo", true],
    ["\\Bfoo", "", "a foo", false],
    ["^[abc]+$", "", "cab", true],
    ["^[a-c]+$", "", "abd", false],
    ["^[^a-c]+$", "", "xyz", true],
    ["^[^a-c]+$", "", "xaz", false],
    ["^[\\d.]+$", "", "1.2.3", true],
    ["^[\\w-]+$", "", "a-b_c", true],
    ["^[a\\-z]+$", "", "-", true],
    ["^[-a]$", "", "-", true],
    ["^[a-]$", "", "-", true],
    ["^[]$", "", "a", false],
    ["^[^]$", "", "\n", true],
    ["^[\\b]$", "", "\b", true],
    ["^\\t\\n\\r\\f\\v\\0$", "", "\t\n\r\f\v\0", true],
    ["^\\x41\\u0042\\u{43}$", "", "ABC", true],
    ["^\\cJ$", "", "\n", true],
    ["^\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\^\\$\\\\\\/$", "", ".*+?()[]{}|^$\\/", true],
    ["^(?<year>\\d{4})-(?<month>\\d{2})$", "", "2024-05", true],
    ["^(a)(b)(c)$", "", "abc", true],
    ["^()$", "", "", true],
    ["^(?:)*$", "", "", true],
    ["^(a*)*$", "", "aaa", true],
    ["^(a|)+b$", "", "aab", true],
    ["(?:^)*a", "", "ba", true],
    // case-insensitive matching
    ["ABC", "i", "xabcx", true],
    ["^[a-z]+$", "i", "HeLLo", true],
    ["^[^a-z]+$", "i", "HELLO", false],
    ["^\\u00e9$", "i", "\u00c9", true],
    ["^\u03c3$", "i", "\u03a3", true],
    ["^\u03c3$", "i", "\u03c2", true],
    ["^k$", "i", "\u212a", true],
    // With i, \b and \B count ſ and the Kelvin sign as word characters (they fold to s and k), as iu does.
    ["a\\b", "i", "a\u017f", false],
    ["a\\B", "i", "a\u212a", true],
    ["\\b\u017f", "i", "a\u017f", false],
    ["a\\b", "", "a\u017f", true],
    ["^k$", "", "K", false],
    // code units without u, code points with u
    ["^.$", "", "\u{1F600}", false],
    ["^..$", "", "\u{1F600}", true],
    ["^.$", "u", "\u{1F600}", true],
    ["^\\u{1F600}$", "u", "\u{1F600}", true],
    ["^\\u{1F600}$", "", "\u{1F600}", true],
    ["^\\uD83D\\uDE00$", "u", "\u{1F600}", true],
    ["^[\u{1F600}-\u{1F64F}]$", "u", "\u{1F610}", true],
    ["\\uDE00", "u", "\u{1F600}", false],
    ["\\uDE00", "", "\u{1F600}", true],
  ];
  it.each(cases)("/%s/%s on %j is %s", (pattern, flags, input, expected) => {
    expect(test(pattern, input, flags)).toBe(expected);
  });

  it("keeps source and flags, and holds no state between calls", () => {
    const compiled = compileRegex("a+", "i");
    expect(compiled.ok).toBe(true);
    if (!compiled.ok) return;
    expect(compiled.regex.source).toBe("a+");
    expect(compiled.regex.flags).toBe("i");
    expect(compiled.regex.test("xA")).toBe(true);
    expect(compiled.regex.test("xA")).toBe(true);
    expect(compiled.regex.test("x")).toBe(false);
  });
});

describe("mayMatchTemplate: unknown segments", () => {
  function may(pattern: string, template: (string | null)[], flags = "u"): boolean {
    const compiled = compileRegex(pattern, flags);
    if (!compiled.ok) throw new Error(compiled.message);
    return compiled.regex.mayMatchTemplate(template);
  }
  // [pattern, template, expected]
  const cases: [string, (string | null)[], boolean][] = [
    ["^\\.git/config$", [null, "/config"], true],
    ["^\\.git/config$", [null, "/other"], false],
    ["^a/b$", [null], false],
    ["^[^/]+$", [null], true],
    ["^x[^/]*y$", ["x", null, "y"], true],
    ["^x/y$", ["x", null, "y"], false],
    ["^abc$", ["abc"], true],
    ["^abc$", ["abd"], false],
    ["^\\u{0}$", [null], false],
    ["^a{3}$", [null], true],
    ["^$", [null], false],
    ["b", ["a", null], true],
    // \b next to an unknown part counts as holding (an over-approximation)
    ["^a\\bc$", ["a", null], true],
  ];
  it.each(cases)("/%s/ on %j is %s", (pattern, template, expected) => {
    expect(may(pattern, template)).toBe(expected);
  });

  it("agrees with test() on templates without unknown parts (property)", () => {
    const pattern = fc.constantFrom("^a", "b$", "^a[^/]*$", "a|b/c", "^(?:ab)+$", "\\bb", "^.$", "[^]");
    const text = fc.array(fc.constantFrom("a", "b", "/", "\n", "ab"), { maxLength: 5 });
    fc.assert(
      fc.property(pattern, text, fc.constantFrom("", "u", "i", "m"), (source, parts, flags) => {
        const compiled = compileRegex(source, flags);
        if (!compiled.ok) throw new Error(compiled.message);
        expect(compiled.regex.mayMatchTemplate(parts)).toBe(compiled.regex.test(parts.join("")));
      }),
      { numRuns: 1000 },
    );
  });
});

describe("compileRegex: linear time", () => {
  const long = "a".repeat(50_000);
  // Patterns that take exponential time on a backtracking engine; here they simply answer.
  const cases: [string, string, boolean][] = [
    ["(a+)+$", `${long}b`, false],
    ["(a+)+b", `${long}b`, true],
    ["^(a+)+$", `${long}b`, false],
    ["^(a|a)*$", `${long}b`, false],
    ["^(a*)*b$", long, false],
    ["^(a|aa)+$", `${long}!`, false],
    ["^(\\w+\\s?)*$", `${"word ".repeat(10_000)}!`, false],
    ["(x+x+)+y", "x".repeat(50_000), false],
    ["^(a?){30}a{30}$", "a".repeat(30), true],
    ["^[a-z]+@[a-z]+\\.com$", `${long}@`, false],
  ];
  it.each(cases)("/%s/ answers on a long input", (pattern, input, expected) => {
    expect(test(pattern, input)).toBe(expected);
  });
});

describe("compileRegex: refusals", () => {
  // [pattern, flags, message, offset]
  const cases: [string, string, string, number][] = [
    [
      "(a)\\1",
      "",
      "backreferences are not supported: regex rules run on a linear-time engine; rewrite without \\1",
      3,
    ],
    [
      "(?<x>a)\\k<x>",
      "",
      "backreferences are not supported: regex rules run on a linear-time engine; rewrite without \\k<name>",
      7,
    ],
    [
      "a(?=b)",
      "",
      "lookahead (?= is not supported: regex rules run on a linear-time engine; rewrite the pattern without lookaround",
      1,
    ],
    [
      "a(?!b)",
      "",
      "lookahead (?! is not supported: regex rules run on a linear-time engine; rewrite the pattern without lookaround",
      1,
    ],
    [
      "(?<=a)b",
      "",
      "lookbehind (?<= is not supported: regex rules run on a linear-time engine; rewrite the pattern without lookaround",
      0,
    ],
    [
      "(?<!a)b",
      "",
      "lookbehind (?<! is not supported: regex rules run on a linear-time engine; rewrite the pattern without lookaround",
      0,
    ],
    [
      "(?i:a)",
      "",
      "unknown group syntax (?: use (...), (?:...) or (?<name>...); lookaround and inline modifiers are not supported",
      0,
    ],
    ["(a", "", "unbalanced parenthesis: this ( is never closed; add a ) or escape it as \\(", 0],
    ["a)", "", "unbalanced parenthesis: this ) has no matching (; escape it as \\)", 1],
    ["*a", "", "nothing to repeat: the quantifier * follows no character or group; escape it as \\*", 0],
    ["a|+", "", "nothing to repeat: the quantifier + follows no character or group; escape it as \\+", 2],
    [
      "(?",
      "",
      "unknown group syntax (?: use (...), (?:...) or (?<name>...); lookaround and inline modifiers are not supported",
      0,
    ],
    ["{2}", "", "nothing to repeat: the quantifier {...} follows no character or group; escape it as \\{", 0],
    [
      "a**",
      "",
      "nothing to repeat: a quantifier cannot follow another quantifier; group the first one with (?:...)",
      2,
    ],
    [
      "a{2}{3}",
      "",
      "nothing to repeat: a quantifier cannot follow another quantifier; group the first one with (?:...)",
      4,
    ],
    ["^*", "", "nothing to repeat: the assertion ^ cannot take a quantifier; remove the quantifier", 1],
    ["\\b+", "", "nothing to repeat: the assertion \\b cannot take a quantifier; remove the quantifier", 2],
    ["a{3,2}", "", "numbers out of order in quantifier {3,2}: the minimum must not exceed the maximum", 1],
    ["a{", "", "lone {: a { must start a quantifier such as {2,5}; escape a literal { as \\{", 1],
    ["{", "", "lone {: a { must start a quantifier such as {2,5}; escape a literal { as \\{", 0],
    ["a}", "", "lone }: escape a literal } as \\}", 1],
    ["a]", "", "lone ]: escape a literal ] as \\]", 1],
    ["[abc", "", "unterminated character class: add the closing ] or escape the [ as \\[", 0],
    ["[z-a]", "", "range out of order in character class: write the smaller character first", 1],
    [
      "[\\d-z]",
      "",
      "a class escape such as \\d cannot be a range endpoint: escape the - as \\- to mean a literal -",
      1,
    ],
    ["[\\B]", "", "\\B is not allowed inside a character class", 1],
    ["\\01", "", "octal escapes are not supported: write \\xHH instead", 0],
    ["[\\1]", "", "octal escapes are not supported: write \\xHH instead", 1],
    ["\\x4", "", "\\x must be followed by exactly two hex digits, as in \\x41", 0],
    ["\\u12", "", "\\u must be followed by four hex digits or {hex}, as in \\u00e9 or \\u{1F600}", 0],
    ["\\u{}", "", "\\u{...} must hold hex digits, as in \\u{1F600}", 0],
    ["\\u{110000}", "", "\\u{...} is above U+10FFFF", 0],
    ["[\\u{1F600}]", "", "a character above U+FFFF in a class needs flag u", 1],
    ["\\c1", "", "\\c must be followed by a letter A-Z, as in \\cJ", 0],
    [
      "\\p{L}",
      "u",
      "Unicode property escapes (\\p{...}) are not supported: list the characters in a class instead",
      0,
    ],
    ["\\a", "", "unknown escape \\a: escape only punctuation; for the letter itself drop the backslash", 0],
    ["a\\", "", "the pattern ends with a lone \\: escape a literal backslash as \\\\", 1],
    ["(?<1x>a)", "", 'invalid group name "1x": use letters, digits, _ or $, not starting with a digit', 3],
    ["(?<x>a)(?<x>b)", "", 'duplicate group name "x": give each named group its own name', 10],
    ["(?<xa)", "", "unterminated group name: (?<name> needs a closing >", 0],
    [
      "a{10001}",
      "",
      `pattern too large: it compiles to more than ${MAX_REGEX_PROGRAM_SIZE} instructions (counted repetition such as {1000} is expanded); use smaller counts or * and +`,
      0,
    ],
    [
      "x(?:a{100}){200}",
      "",
      `pattern too large: it compiles to more than ${MAX_REGEX_PROGRAM_SIZE} instructions (counted repetition such as {1000} is expanded); use smaller counts or * and +`,
      1,
    ],
    [
      "a{0,99999999999}",
      "",
      `pattern too large: it compiles to more than ${MAX_REGEX_PROGRAM_SIZE} instructions (counted repetition such as {1000} is expanded); use smaller counts or * and +`,
      0,
    ],
    [
      `${"(".repeat(300)}a${")".repeat(300)}`,
      "",
      "groups nested more than 200 deep: simplify the pattern",
      200,
    ],
  ];
  it.each(cases)("refuses /%s/%s", (pattern, flags, message, offset) => {
    expect(refusal(pattern, flags)).toEqual({ message, offset });
  });

  const flagCases: [string, string, number][] = [
    ["g", 'unsupported flag "g": test() keeps no lastIndex state; remove it', 0],
    ["iy", 'unsupported flag "y": test() keeps no lastIndex state; remove it', 1],
    ["v", 'unsupported flag "v": only i, m, s and u are supported; remove it', 0],
    ["ix", 'unsupported flag "x": only i, m, s and u are supported; remove it', 1],
    ["ii", 'flag "i" is given twice; give it once', 1],
  ];
  it.each(flagCases)("refuses flags %j (offset into the flags)", (flags, message, offset) => {
    expect(refusal("a", flags)).toEqual({ message, offset });
  });

  it("accepts a counted repetition just under the bound", () => {
    expect(test("^a{9000}$", "a".repeat(9000))).toBe(true);
    expect(test("^a{9000}$", "a".repeat(8999))).toBe(false);
  });

  it("never throws on arbitrary patterns and flags", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), fc.string({ maxLength: 4 }), (pattern, flags) => {
        const compiled = compileRegex(pattern, flags);
        if (compiled.ok) compiled.regex.test(pattern);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("the character classes agree with RegExp on every character of the Basic Multilingual Plane", () => {
  const classes = [
    "\\d",
    "\\D",
    "\\w",
    "\\W",
    "\\s",
    "\\S",
    ".",
    "[^]",
    "[\\s\\S]",
    "[^\\d\\s]",
    "\\t",
    "\\n",
  ];
  it.each(classes.flatMap((c) => ["", "i", "s", "m", "iu"].map((f): [string, string] => [c, f])))(
    "/^%s$/%s",
    (cls, flags) => {
      const compiled = compileRegex(`^${cls}$`, flags);
      if (!compiled.ok) throw new Error(compiled.message);
      const native = new RegExp(`^${cls}$`, flags.includes("i") ? `${flags.replace("u", "")}u` : flags);
      const wrong: string[] = [];
      for (let c = 0; c <= 0xffff; c++) {
        if (c >= 0xd800 && c <= 0xdfff) continue;
        const ch = String.fromCharCode(c);
        if (compiled.regex.test(ch) !== native.test(ch)) wrong.push(c.toString(16));
      }
      expect(wrong).toEqual([]);
    },
  );
});

describe("compileRegex agrees with RegExp on safe patterns", () => {
  // Every class and escape the engine treats specially, and the characters at their edges.
  const char = fc.constantFrom(
    "a",
    "b",
    "c",
    "A",
    "k",
    "s",
    "9",
    "0",
    "_",
    ".",
    "\\d",
    "\\D",
    "\\w",
    "\\s",
    "\\S",
    "\\W",
    "\\t",
    "\\n",
    "\\r",
    "\\.",
    "[ab]",
    "[^a]",
    "[a-c]",
    "[^\\s]",
    "[0-9]",
    "[^\\d]",
    "[\\s\\S]",
    "[\\w-]",
    "[^]",
    "\u017f",
    "\u00e9",
  );
  const quantifier = fc.constantFrom("*", "+", "?", "{2}", "{1,}", "{0,2}", "*?", "+?", "??", "{1,2}?");
  const pattern: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
    node: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      char,
      fc.constantFrom("^", "$", "\\b", "\\B"),
      fc.tuple(char, quantifier).map(([c, q]) => c + q),
      fc.tuple(tie("node"), tie("node")).map(([a, b]) => a + b),
      fc.tuple(tie("node"), tie("node")).map(([a, b]) => `${a}|${b}`),
      fc.tuple(tie("node"), quantifier).map(([a, q]) => `(?:${a})${q}`),
      tie("node").map((a) => `(${a})`),
    ),
  })).node;
  // Tabs, newlines and the other line terminators, every digit, word and non-word edges, letters whose case
  // folding is special, non-ASCII white space and an astral character.
  const inputChar = fc.constantFrom(
    ..."abcABCksKS_- \t\n\r\v\f0123456789",
    "\u2028",
    "\u00a0",
    "\ufeff",
    "\u017f",
    "\u212a",
    "\u00e9",
    "\u00c9",
    "\u{1F600}",
  );
  const input = fc.array(inputChar, { maxLength: 12 }).map((chars) => chars.join(""));
  const flags = fc.subarray(["i", "m", "s", "u"]).map((f) => f.join(""));

  /**
   * The oracle: `RegExp` with the same flags, except that flag `i` is compared with `iu` (the engine always
   * folds with Unicode simple case folding, see regex/index.ts) — so without `u` the input keeps to one code unit
   * per character; `\b` with `i` counts `ſ` and `K` as word characters, as `iu` does.
   */
  it("gives the same answer as the native engine (property)", () => {
    fc.assert(
      fc.property(pattern, input, flags, (source, text, flagText) => {
        const ignoreCase = flagText.includes("i");
        const unicode = flagText.includes("u");
        fc.pre(!(ignoreCase && !unicode && /[\u{10000}-\u{10FFFF}]/u.test(text)));
        // V8 also tries \B between the two halves of a surrogate pair under u; the engine (and the spec) do not.
        fc.pre(!(unicode && /\\B/.test(source) && /[\u{10000}-\u{10FFFF}]/u.test(text)));
        const compiled = compileRegex(source, flagText);
        if (!compiled.ok) throw new Error(`refused /${source}/${flagText}: ${compiled.message}`);
        const oracle = new RegExp(source, ignoreCase && !unicode ? `${flagText}u` : flagText);
        expect(compiled.regex.test(text)).toBe(oracle.test(text));
      }),
      { numRuns: 5000 },
    );
  });
});

describe("testBounded: a bound on the work of one answer", () => {
  const MiB = 1 << 20;

  it("decides an ordinary pattern on a 1 MiB input", () => {
    const compiled = compileRegex("^[a-z0-9._-]+@[a-z0-9.-]+\\.[a-z]{2,10}$", "i");
    if (!compiled.ok) throw new Error(compiled.message);
    expect(compiled.regex.testBounded(`${"a".repeat(MiB)}@example.com`)).toBe(true);
    expect(compiled.regex.testBounded(`${"a".repeat(MiB)}@example`)).toBe(false);
  });

  it("answers undefined past the bound, the same on every call, and test() still answers", () => {
    const compiled = compileRegex("(?:a|b){1,1000}c");
    if (!compiled.ok) throw new Error(compiled.message);
    const input = "ab".repeat(MiB / 16);
    const first = compiled.regex.testBounded(input);
    expect(first).toBeUndefined();
    // Cached states make later calls cheaper, not different.
    expect(compiled.regex.testBounded(input)).toBeUndefined();
    expect(compiled.regex.testBounded("abc")).toBe(true);
  });

  it("bounds the VM too (\\b keeps a pattern off the DFA)", () => {
    const compiled = compileRegex("(?:a|b){1,1000}c\\b");
    if (!compiled.ok) throw new Error(compiled.message);
    expect(compiled.regex.testBounded("ab".repeat(MiB / 16))).toBeUndefined();
    expect(compiled.regex.testBounded("x abc y")).toBe(true);
  });

  it("agrees with test() whenever it answers (property)", () => {
    const pattern = fc.constantFrom(
      "^a+$",
      "(a|b)*a(a|b){3}",
      "a{3,}b",
      "^(?:ab|a)*$",
      "\\bab",
      "b$",
      "(?:x|a){2,5}",
    );
    const input = fc.array(fc.constantFrom("a", "b", "x", " "), { maxLength: 40 }).map((c) => c.join(""));
    fc.assert(
      fc.property(pattern, input, (source, text) => {
        const compiled = compileRegex(source);
        if (!compiled.ok) throw new Error(compiled.message);
        const bounded = compiled.regex.testBounded(text);
        expect(bounded).toBe(compiled.regex.test(text));
      }),
      { numRuns: 2000 },
    );
  });
});
