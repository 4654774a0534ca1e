/**
 * Character classes as compiled sets (src/runtime/match/regex/char-set.ts), through what a pattern matches:
 * overlapping and adjacent class items, case folding of a class under flag `i` (a set holds an input character
 * when it holds the character's fold), characters on both sides of the ASCII table, the word characters `\b`
 * looks at, the line terminators of flag `m`, and which classes can match a character of an unknown path
 * segment (`mayMatchTemplate`).
 */
import { describe, expect, it } from "vitest";
import { compileRegex } from "../../../src/runtime/match/regex/index.js";

function matches(pattern: string, input: string, flags = ""): boolean {
  const compiled = compileRegex(pattern, flags);
  if (!compiled.ok) throw new Error(`/${pattern}/${flags}: ${compiled.message}`);
  return compiled.regex.test(input);
}

describe("classes: overlapping, adjacent and nested items", () => {
  // [pattern, flags, input, expected]
  const cases: [string, string, string, boolean][] = [
    // an item inside an earlier range does not shrink it
    ["^[a-zc]$", "", "x", true],
    ["^[a-zc]$", "", "c", true],
    ["^[ca-z]$", "", "x", true],
    ["^[a-mf-z]+$", "", "amz", true],
    ["^[a-cd-f]+$", "", "acdf", true],
    ["^[a-cd-f]+$", "", "g", false],
    ["^[a-ce-g]$", "", "d", false],
    ["^[a-cc-e]+$", "", "abcde", true],
    ["^[\\d0-5]$", "", "7", true],
    ["^[\\w\\d]$", "", "_", true],
    ["^[^\\d\\s]$", "", "5", false],
    ["^[^\\d\\s]$", "", "x", true],
    // the first character past the ASCII table, in and out of sets
    ["^[\\x80]$", "", "\u0080", true],
    ["^[\\x7f]$", "", "\u0080", false],
    ["^[^a]$", "", "\u0080", true],
    ["^[^\\x80]$", "", "\u0080", false],
    ["^\\D$", "", "\u0080", true],
    ["^[\\x00-\\x80]$", "", "\u0080", true],
    ["^[\\x00-\\x7f]$", "", "\u0080", false],
    // sets above U+FFFF and at the top of the code space
    ["^[\\u{10000}-\\u{10FFFF}]$", "u", "\u{10FFFF}", true],
    ["^[^\\u{10000}-\\u{10FFFF}]$", "u", "\u{10FFFF}", false],
    ["^[a\\u{1F600}]$", "u", "\u{1F601}", false],
  ];
  it.each(cases)("/%s/%s on %j is %s", (pattern, flags, input, expected) => {
    expect(matches(pattern, input, flags)).toBe(expected);
  });
});

describe("classes with flag i hold the other case of each member, and nothing else", () => {
  // [pattern, input, expected]
  const cases: [string, string, boolean][] = [
    ["^[A-Z]+$", "abcxyz", true],
    ["^[A-Z]+$", "ABCXYZ", true],
    ["^[a-z]+$", "ABCXYZ", true],
    ["^[A-Z]$", "1", false],
    ["^[A-Z]$", "@", false],
    ["^[A-Z]$", "[", false],
    ["^[A-Z]$", "`", false],
    ["^[A-Z]$", "{", false],
    ["^[A-Z]$", "\u212a", true],
    ["^[A-Z]$", "\u017f", true],
    ["^[Z]$", "z", true],
    ["^[A]$", "a", true],
    ["^[K]$", "k", true],
    ["^[K]$", "\u212a", true],
    ["^[\u212a]$", "k", true],
    ["^[\u212a]$", "K", true],
    ["^[\u212a]$", "j", false],
    ["^[s]$", "\u017f", true],
    ["^[\u017f]$", "S", true],
    ["^[X-Z]$", "x", true],
    ["^[X-Z]$", "z", true],
    ["^[X-Z]$", "w", false],
    ["^[\u00c0-\u00de]$", "\u00e9", true],
    ["^[\u0391-\u03a9]$", "\u03c2", true],
    ["^[\u03c3]$", "\u03a3", true],
    ["^[\\d]$", "1", true],
    ["^[\\dA]$", "a", true],
    ["^[0-9a]$", "A", true],
    ["^[0-9a]$", "B", false],
    ["^[^A-Z]$", "a", false],
    ["^[^A-Z]$", "\u212a", false],
    ["^[^A-Z]$", "1", true],
    ["^[^a]$", "A", false],
    ["^[^k]$", "\u212a", false],
    ["^[\u0100-\u0101]$", "\u0100", true],
    ["^[\u0100]$", "\u0101", true],
    ["^[\u0101]$", "\u0100", true],
    ["^[\\u{10400}]$", "\u{10428}", true],
    ["^[\\u{10428}]$", "\u{10400}", true],
  ];
  it.each(cases)("/%s/i on %j is %s", (pattern, input, expected) => {
    expect(matches(pattern, input, "iu")).toBe(expected);
    // without u, every character here is one code unit but the two Deseret letters
    if (!/[\u{10000}-\u{10FFFF}]/u.test(pattern + input)) expect(matches(pattern, input, "i")).toBe(expected);
  });
});

describe("\\b looks at the ASCII word characters", () => {
  const word = [..."azAZ09_", "m", "Q", "5"];
  const other = [..."`{@[/:- \n", "\u00e9", "\u017f", "\u212a", "\u0080"];
  it.each(word)("%j is a word character", (c) => {
    expect(matches("\\b", c)).toBe(true);
    expect(matches("\\B", c)).toBe(false);
    expect(matches(`^${c === "_" ? "_" : c}\\b`, `${c}`)).toBe(true);
  });
  it.each(other)("%j is not", (c) => {
    expect(matches("\\b", c)).toBe(false);
    expect(matches("\\B", c)).toBe(true);
    expect(matches("a\\b", `a${c}`)).toBe(true);
    expect(matches("\\ba", `${c}a`)).toBe(true);
  });
});

describe("flag m: ^ and $ hold next to each line terminator and nowhere else", () => {
  const terminators = ["\n", "\r", "\u2028", "\u2029"];
  const others = [" ", "\t", "\v", "\f", "\u0085", "x", "\u2027", "\u202a", "\u000b", "\u000e"];
  it.each(terminators)("%j ends a line", (t) => {
    expect(matches("^a", `x${t}a`, "m")).toBe(true);
    expect(matches("a$", `a${t}x`, "m")).toBe(true);
    expect(matches("^a$", `x${t}a${t}x`, "m")).toBe(true);
    expect(matches("^a", `x${t}a`)).toBe(false);
    expect(matches("a$", `a${t}x`)).toBe(false);
  });
  it.each(others)("%j does not", (c) => {
    expect(matches("^a", `x${c}a`, "m")).toBe(false);
    expect(matches("a$", `a${c}x`, "m")).toBe(false);
    expect(matches("^a$", `${c}a`, "m")).toBe(false);
  });
});

describe("mayMatchTemplate: a class matches an unknown path segment when it holds a character other than / and NUL", () => {
  function may(pattern: string, template: (string | null)[]): boolean {
    const compiled = compileRegex(pattern, "u");
    if (!compiled.ok) throw new Error(compiled.message);
    return compiled.regex.mayMatchTemplate(template);
  }
  // [pattern, expected on one unknown segment]
  const cases: [string, boolean][] = [
    ["^[a]+$", true],
    ["^[/]+$", false],
    ["^[\\0]+$", false],
    ["^[\\0/]+$", false],
    ["^[/\\0]+$", false],
    ["^[\\0-/]+$", true],
    ["^[.-/]+$", true],
    ["^[/-0]+$", true],
    ["^[\\0\\x01]+$", true],
    ["^[/a]+$", true],
    ["^[\\0/\\u{10FFFF}]+$", true],
    ["^[^a]+$", true],
    ["^[^/]+$", true],
    ["^[]+$", false],
    ["^\\d+$", true],
    ["^.+$", true],
  ];
  it.each(cases)("/%s/u on [unknown] is %s", (pattern, expected) => {
    expect(may(pattern, [null])).toBe(expected);
  });
});
