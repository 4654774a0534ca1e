/**
 * The regex parser (src/runtime/match/regex/syntax.ts) through what a user sees: the syntax tree that
 * `parseRegexTree` hands to `toolgate diff`, the exact message and offset of every refusal, and what a pattern
 * then matches. Each refusal names what is wrong and what to write instead; the offset points at the construct
 * (for a quantifier problem, at the quantifier; for a class problem, at the class item).
 */
import { describe, expect, it } from "vitest";
import {
  compileRegex,
  type LinearRegex,
  parseRegexTree,
  type RegexNode,
  RegexSet,
} from "../../../src/runtime/match/regex/index.js";

function matches(pattern: string, input: string, flags = ""): boolean {
  const compiled = compileRegex(pattern, flags);
  if (!compiled.ok) throw new Error(`/${pattern}/${flags}: ${compiled.message}`);
  return compiled.regex.test(input);
}

function refusal(pattern: string, flags = ""): { message: string; offset: number } {
  const compiled = compileRegex(pattern, flags);
  if (compiled.ok) throw new Error(`/${pattern}/${flags} compiled`);
  return { message: compiled.message, offset: compiled.offset };
}

const char = (cp: number): RegexNode => ({ kind: "char", cp });
const concat = (...items: RegexNode[]): RegexNode => ({ kind: "concat", items });
const set = (ranges: number[], negated = false): RegexNode => ({ kind: "set", ranges, negated });
const repeat = (child: RegexNode, min: number, max: number, offset: number): RegexNode => ({
  kind: "repeat",
  child,
  min,
  max,
  offset,
});
const INF = Number.POSITIVE_INFINITY;
const a = char(0x61);
const b = char(0x62);

describe("parseRegexTree: the syntax tree of a pattern", () => {
  // [pattern, flags, tree]
  const cases: [string, string, RegexNode][] = [
    ["", "", { kind: "empty" }],
    ["a", "", a],
    ["ab", "", concat(a, b)],
    ["a|b", "", { kind: "alt", items: [a, b] }],
    ["a|", "", { kind: "alt", items: [a, { kind: "empty" }] }],
    ["|a|b", "", { kind: "alt", items: [{ kind: "empty" }, a, b] }],
    // groups only group: capturing, non-capturing and named groups give their content
    ["(a)", "", a],
    ["(?:ab)", "", concat(a, b)],
    ["(?<name>a)b", "", concat(a, b)],
    ["(a|b)", "", { kind: "alt", items: [a, b] }],
    ["()", "", { kind: "empty" }],
    // quantifiers: min, max and the offset of the repeated atom (a pattern too large points there)
    ["a*", "", repeat(a, 0, INF, 0)],
    ["ba+", "", concat(b, repeat(a, 1, INF, 1))],
    ["a?", "", repeat(a, 0, 1, 0)],
    ["a{2}", "", repeat(a, 2, 2, 0)],
    ["a{2,}", "", repeat(a, 2, INF, 0)],
    ["a{2,5}", "", repeat(a, 2, 5, 0)],
    ["a{0,0}", "", repeat(a, 0, 0, 0)],
    ["a{12,345}", "", repeat(a, 12, 345, 0)],
    // lazy quantifiers match the same language: the same tree
    ["a*?", "", repeat(a, 0, INF, 0)],
    ["a+?", "", repeat(a, 1, INF, 0)],
    ["a??", "", repeat(a, 0, 1, 0)],
    ["a{2,5}?", "", repeat(a, 2, 5, 0)],
    ["b(?:ab){3}", "", concat(b, repeat(concat(a, b), 3, 3, 1))],
    ["b[ab]*", "", concat(b, repeat(set([0x61, 0x61, 0x62, 0x62]), 0, INF, 1))],
    ["b\\d+", "", concat(b, repeat(set([0x30, 0x39]), 1, INF, 1))],
    [
      "^$\\b\\B",
      "",
      concat(
        { kind: "assert", which: "bol" },
        { kind: "assert", which: "eol" },
        { kind: "assert", which: "word" },
        { kind: "assert", which: "nonword" },
      ),
    ],
    // `.`: every character but a line terminator; with s every character
    [".", "", set([0x0a, 0x0a, 0x0d, 0x0d, 0x2028, 0x2029], true)],
    [".", "s", set([0, 0x10ffff])],
    // class escapes
    ["\\d", "", set([0x30, 0x39])],
    ["\\D", "", set([0, 0x2f, 0x3a, 0x10ffff])],
    ["\\w", "", set([0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a])],
    ["\\W", "", set([0, 0x2f, 0x3a, 0x40, 0x5b, 0x5e, 0x60, 0x60, 0x7b, 0x10ffff])],
    // with i, \W also leaves out ſ and the Kelvin sign, which fold to word characters
    [
      "\\W",
      "i",
      set([0, 0x2f, 0x3a, 0x40, 0x5b, 0x5e, 0x60, 0x60, 0x7b, 0x17e, 0x180, 0x2129, 0x212b, 0x10ffff]),
    ],
    [
      "\\s",
      "",
      set([
        0x09, 0x0d, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x202f,
        0x205f, 0x205f, 0x3000, 0x3000, 0xfeff, 0xfeff,
      ]),
    ],
    [
      "\\S",
      "",
      set([
        0, 0x08, 0x0e, 0x1f, 0x21, 0x9f, 0xa1, 0x167f, 0x1681, 0x1fff, 0x200b, 0x2027, 0x202a, 0x202e, 0x2030,
        0x205e, 0x2060, 0x2fff, 0x3001, 0xfefe, 0xff00, 0x10ffff,
      ]),
    ],
    // classes: items in the order written, negation kept as a flag
    ["[abc]", "", set([0x61, 0x61, 0x62, 0x62, 0x63, 0x63])],
    ["[^a-c]", "", set([0x61, 0x63], true)],
    ["[\\d_]", "", set([0x30, 0x39, 0x5f, 0x5f])],
    ["[a-]", "", set([0x61, 0x61, 0x2d, 0x2d])],
    ["[-a]", "", set([0x2d, 0x2d, 0x61, 0x61])],
    ["[a\\-z]", "", set([0x61, 0x61, 0x2d, 0x2d, 0x7a, 0x7a])],
    ["[]", "", set([])],
    ["[^]", "", set([], true)],
    ["[\\b]", "", set([0x08, 0x08])],
    ["[^^]", "", set([0x5e, 0x5e], true)],
    ["[a^]", "", set([0x61, 0x61, 0x5e, 0x5e])],
    [
      "[.*+?(){}|$/]",
      "",
      set([..."[.*+?(){}|$/]"].slice(1, -1).flatMap((c) => [c.charCodeAt(0), c.charCodeAt(0)])),
    ],
    // escapes of one character
    ["\\t\\n\\r\\f\\v\\0", "", concat(char(9), char(10), char(13), char(12), char(11), char(0))],
    ["\\x41\\xfF\\x0a", "", concat(char(0x41), char(0xff), char(0x0a))],
    ["\\u00e9\\u{1F}", "", concat(char(0xe9), char(0x1f))],
    ["\\cA\\cZ\\ca\\cz\\cJ", "", concat(char(1), char(26), char(1), char(26), char(10))],
    ["\\-\\/\\!\\~\\:\\@\\`\\_\\{\\}", "", concat(...[..."-/!~:@`_{}"].map((c) => char(c.charCodeAt(0))))],
    // above U+FFFF: two code units without u, one code point with u
    ["\u{1F600}", "", concat(char(0xd83d), char(0xde00))],
    ["\u{1F600}", "u", char(0x1f600)],
    ["\u{1F600}a", "u", concat(char(0x1f600), a)],
    ["\\u{1F600}", "", concat(char(0xd83d), char(0xde00))],
    ["\\u{1F600}", "u", char(0x1f600)],
    ["\\u{10FFFF}", "u", char(0x10ffff)],
    ["\\u{1F600}+", "", repeat(concat(char(0xd83d), char(0xde00)), 1, INF, 0)],
    ["[\\u{1F600}-\\u{1F64F}]", "u", set([0x1f600, 0x1f64f])],
    ["[\u{1F600}-\u{1F64F}]", "u", set([0x1f600, 0x1f64f])],
    // a surrogate pair of \u escapes is one code point with u, and only a high then a low surrogate
    ["\\uD83D\\uDE00+", "u", repeat(char(0x1f600), 1, INF, 0)],
    ["\\uD83D\\uDE00+", "", concat(char(0xd83d), repeat(char(0xde00), 1, INF, 6))],
    ["\\uD800\\uDC00", "u", char(0x10000)],
    ["\\uDBFF\\uDFFF", "u", char(0x10ffff)],
    ["\\uD7FF\\uDC00", "u", concat(char(0xd7ff), char(0xdc00))],
    ["\\uDC00\\uDC00", "u", concat(char(0xdc00), char(0xdc00))],
    ["\\uD800\\uDBFF", "u", concat(char(0xd800), char(0xdbff))],
    ["\\uD800\\uE000", "u", concat(char(0xd800), char(0xe000))],
    ["\\uD800\\u{DC00}", "u", concat(char(0xd800), char(0xdc00))],
    ["\\uD800x", "u", concat(char(0xd800), char(0x78))],
  ];
  it.each(cases)("/%s/%s", (pattern, flags, tree) => {
    expect(parseRegexTree(pattern, flags)).toEqual(tree);
  });

  it("is undefined for a pattern that does not parse, whatever the problem", () => {
    for (const pattern of ["(", "a)", "[", "\\", "a**", "(?=a)", "\\1", "[\\d-z]"]) {
      expect(parseRegexTree(pattern)).toBeUndefined();
    }
  });

  it("does not check the program size, which only compiling does", () => {
    expect(parseRegexTree("a{10001}")).toEqual(repeat(a, 10001, 10001, 0));
    expect(compileRegex("a{10001}").ok).toBe(false);
  });
});

const NOTHING_TO_REPEAT_AFTER_QUANTIFIER =
  "nothing to repeat: a quantifier cannot follow another quantifier; group the first one with (?:...)";
const LONE_BRACE = "lone {: a { must start a quantifier such as {2,5}; escape a literal { as \\{";
const OCTAL = "octal escapes are not supported: write \\xHH instead";
const HEX2 = "\\x must be followed by exactly two hex digits, as in \\x41";
const HEX4 = "\\u must be followed by four hex digits or {hex}, as in \\u00e9 or \\u{1F600}";
const BRACED_HEX = "\\u{...} must hold hex digits, as in \\u{1F600}";
const CONTROL = "\\c must be followed by a letter A-Z, as in \\cJ";
const ENDPOINT =
  "a class escape such as \\d cannot be a range endpoint: escape the - as \\- to mean a literal -";
const UNTERMINATED_CLASS = "unterminated character class: add the closing ] or escape the [ as \\[";
const LONE_BACKSLASH = "the pattern ends with a lone \\: escape a literal backslash as \\\\";
const UNKNOWN_GROUP =
  "unknown group syntax (?: use (...), (?:...) or (?<name>...); lookaround and inline modifiers are not supported";
const UNCLOSED_GROUP = "unbalanced parenthesis: this ( is never closed; add a ) or escape it as \\(";
const UNOPENED_GROUP = "unbalanced parenthesis: this ) has no matching (; escape it as \\)";

function assertion(what: string): string {
  return `nothing to repeat: the assertion ${what} cannot take a quantifier; remove the quantifier`;
}
function unknownEscape(c: string): string {
  return `unknown escape \\${c}: escape only punctuation; for the letter itself drop the backslash`;
}
function invalidName(name: string): string {
  return `invalid group name "${name}": use letters, digits, _ or $, not starting with a digit`;
}

describe("refusals: the message and the offset of the construct at fault", () => {
  // [pattern, flags, message, offset]
  const cases: [string, string, string, number][] = [
    // quantifiers with nothing before them
    ["?a", "", "nothing to repeat: the quantifier ? follows no character or group; escape it as \\?", 0],
    ["a(*)", "", "nothing to repeat: the quantifier * follows no character or group; escape it as \\*", 2],
    ["a|+", "", "nothing to repeat: the quantifier + follows no character or group; escape it as \\+", 2],
    [
      "a|{2,3}",
      "",
      "nothing to repeat: the quantifier {...} follows no character or group; escape it as \\{",
      2,
    ],
    ["x{,3}", "", LONE_BRACE, 1],
    ["{,3}", "", LONE_BRACE, 0],
    ["a|{x", "", LONE_BRACE, 2],
    // assertions take no quantifier, also not a braced one; a lone { after them is a lone {
    ["a$*", "", assertion("$"), 2],
    ["^?", "", assertion("^"), 1],
    ["^+", "", assertion("^"), 1],
    ["^{2}", "", assertion("^"), 1],
    ["^{2,}", "", assertion("^"), 1],
    ["x\\b*", "", assertion("\\b"), 3],
    ["\\B?", "", assertion("\\B"), 2],
    ["\\B{1,2}", "", assertion("\\B"), 2],
    ["^{", "", LONE_BRACE, 1],
    ["$}", "", "lone }: escape a literal } as \\}", 1],
    ["^{x}", "", LONE_BRACE, 1],
    // braces that do not close a quantifier
    ["a{", "", LONE_BRACE, 1],
    ["a{2", "", LONE_BRACE, 1],
    ["a{2,", "", LONE_BRACE, 1],
    ["a{2,5", "", LONE_BRACE, 1],
    ["a{2,x}", "", LONE_BRACE, 1],
    ["a{2x}", "", LONE_BRACE, 1],
    ["a{x}", "", LONE_BRACE, 1],
    ["a{-1}", "", LONE_BRACE, 1],
    ["xa{ 2}", "", LONE_BRACE, 2],
    // a quantifier after a quantifier, lazy or not
    ["a+*", "", NOTHING_TO_REPEAT_AFTER_QUANTIFIER, 2],
    ["a?+", "", NOTHING_TO_REPEAT_AFTER_QUANTIFIER, 2],
    ["a*?+", "", NOTHING_TO_REPEAT_AFTER_QUANTIFIER, 3],
    ["a???", "", NOTHING_TO_REPEAT_AFTER_QUANTIFIER, 3],
    ["a{2}??", "", NOTHING_TO_REPEAT_AFTER_QUANTIFIER, 5],
    ["a*{2,}", "", NOTHING_TO_REPEAT_AFTER_QUANTIFIER, 2],
    ["a*?{1,2}", "", NOTHING_TO_REPEAT_AFTER_QUANTIFIER, 3],
    ["a*{", "", LONE_BRACE, 2],
    ["a{2}{", "", LONE_BRACE, 4],
    // the numbers of a quantifier: the offset is the quantifier's, not the atom's
    ["xa{3,2}", "", "numbers out of order in quantifier {3,2}: the minimum must not exceed the maximum", 2],
    [
      "(?:ab){10,9}",
      "",
      "numbers out of order in quantifier {10,9}: the minimum must not exceed the maximum",
      6,
    ],
    // lone brackets and braces
    ["]", "", "lone ]: escape a literal ] as \\]", 0],
    ["}", "", "lone }: escape a literal } as \\}", 0],
    ["a|]", "", "lone ]: escape a literal ] as \\]", 2],
    // groups
    ["((a)", "", UNCLOSED_GROUP, 0],
    ["a(b(c)", "", UNCLOSED_GROUP, 1],
    ["(a))", "", UNOPENED_GROUP, 3],
    [")", "", UNOPENED_GROUP, 0],
    ["a|b)c", "", UNOPENED_GROUP, 3],
    ["x(?a)", "", UNKNOWN_GROUP, 1],
    ["(?<", "", "unterminated group name: (?<name> needs a closing >", 0],
    ["x(?<ab", "", "unterminated group name: (?<name> needs a closing >", 1],
    ["(?<>a)", "", invalidName(""), 3],
    ["(?<a-b>x)", "", invalidName("a-b"), 3],
    ["(?<-ab>x)", "", invalidName("-ab"), 3],
    ["(?<a b>x)", "", invalidName("a b"), 3],
    ["x(?<9>a)", "", invalidName("9"), 4],
    ["(?<a>x)(?<b>y)(?<a>z)", "", 'duplicate group name "a": give each named group its own name', 17],
    [
      "(?<!",
      "",
      "lookbehind (?<! is not supported: regex rules run on a linear-time engine; rewrite the pattern without lookaround",
      0,
    ],
    // classes
    ["[", "", UNTERMINATED_CLASS, 0],
    ["a[^", "", UNTERMINATED_CLASS, 1],
    ["[a-", "", UNTERMINATED_CLASS, 0],
    ["x[a-b", "", UNTERMINATED_CLASS, 1],
    ["[\\]", "", UNTERMINATED_CLASS, 0],
    ["[a-\\d]", "", ENDPOINT, 3],
    ["x[ab-\\s]", "", ENDPOINT, 5],
    ["[\\w-a]", "", ENDPOINT, 1],
    ["x[a\\W-\\d]", "", ENDPOINT, 3],
    ["x[ab-a]", "", "range out of order in character class: write the smaller character first", 3],
    ["[\\x62-\\x61]", "", "range out of order in character class: write the smaller character first", 1],
    ["x[\\B]", "", "\\B is not allowed inside a character class", 2],
    ["[\\", "", LONE_BACKSLASH, 1],
    ["x[\\u{10000}]", "", "a character above U+FFFF in a class needs flag u", 2],
    ["[a-\\u{10000}]", "", "a character above U+FFFF in a class needs flag u", 3],
    // escapes
    ["x\\00", "", OCTAL, 1],
    ["\\09", "", OCTAL, 0],
    ["[\\00]", "", OCTAL, 1],
    ["[\\9]", "", OCTAL, 1],
    [
      "\\9",
      "",
      "backreferences are not supported: regex rules run on a linear-time engine; rewrite without \\9",
      0,
    ],
    [
      "x\\5",
      "",
      "backreferences are not supported: regex rules run on a linear-time engine; rewrite without \\5",
      1,
    ],
    [
      "x\\k",
      "",
      "backreferences are not supported: regex rules run on a linear-time engine; rewrite without \\k<name>",
      1,
    ],
    [
      "[\\k]",
      "",
      "backreferences are not supported: regex rules run on a linear-time engine; rewrite without \\k<name>",
      1,
    ],
    [
      "x\\P{L}",
      "",
      "Unicode property escapes (\\P{...}) are not supported: list the characters in a class instead",
      1,
    ],
    ["\\x", "", HEX2, 0],
    ["\\x4", "", HEX2, 0],
    ["x\\xg1", "", HEX2, 1],
    ["\\x1g", "", HEX2, 0],
    ["\\x/0", "", HEX2, 0],
    ["\\x0:", "", HEX2, 0],
    ["\\x@0", "", HEX2, 0],
    ["\\x0G", "", HEX2, 0],
    ["\\x`0", "", HEX2, 0],
    ["\\x0g", "", HEX2, 0],
    ["[\\xz]", "", HEX2, 1],
    ["\\u", "", HEX4, 0],
    ["\\u123", "", HEX4, 0],
    ["x\\u123g", "", HEX4, 1],
    ["\\ug123", "", HEX4, 0],
    ["\\u{", "", BRACED_HEX, 0],
    ["x\\u{12", "", BRACED_HEX, 1],
    ["\\u{12g}", "", BRACED_HEX, 0],
    ["\\u{g12}", "", BRACED_HEX, 0],
    ["\\u{ 12}", "", BRACED_HEX, 0],
    ["\\u{}", "u", BRACED_HEX, 0],
    ["x\\u{1000000}", "u", "\\u{...} is above U+10FFFF", 1],
    ["\\c", "", CONTROL, 0],
    ["x\\c@", "", CONTROL, 1],
    ["\\c[", "", CONTROL, 0],
    ["\\c`", "", CONTROL, 0],
    ["\\c{", "", CONTROL, 0],
    ["\\c0", "", CONTROL, 0],
    ["[\\c]", "", CONTROL, 1],
    // any ASCII punctuation may be escaped; letters, digits, space and the rest may not
    ["\\A", "", unknownEscape("A"), 0],
    ["x\\Z", "", unknownEscape("Z"), 1],
    ["\\a", "", unknownEscape("a"), 0],
    ["\\z", "", unknownEscape("z"), 0],
    ["\\ ", "", unknownEscape(" "), 0],
    ["\\\u007f", "", unknownEscape("\u007f"), 0],
    ["\\\u00e9", "", unknownEscape("\u00e9"), 0],
    ["[\\e]", "", unknownEscape("e"), 1],
    ["\\\t", "", unknownEscape("\t"), 0],
  ];
  it.each(cases)("refuses /%s/%s", (pattern, flags, message, offset) => {
    expect(refusal(pattern, flags)).toEqual({ message, offset });
  });

  it("reports the first problem of a pattern that has several", () => {
    expect(refusal("(?=a)\\1")).toEqual({
      message:
        "lookahead (?= is not supported: regex rules run on a linear-time engine; rewrite the pattern without lookaround",
      offset: 0,
    });
    expect(refusal("a**[")).toEqual({ message: NOTHING_TO_REPEAT_AFTER_QUANTIFIER, offset: 2 });
  });
});

describe("groups: nesting depth", () => {
  it("accepts 200 nested groups and refuses 201, at the group that is one too deep", () => {
    const nested = (n: number) => `${"(".repeat(n)}a${")".repeat(n)}`;
    expect(matches(`^${nested(200)}$`, "a")).toBe(true);
    expect(refusal(nested(201))).toEqual({
      message: "groups nested more than 200 deep: simplify the pattern",
      offset: 200,
    });
    expect(refusal(`x(?:${nested(200)})`)).toEqual({
      message: "groups nested more than 200 deep: simplify the pattern",
      offset: 203,
    });
  });

  it("counts the depth, not the number of groups: 300 groups side by side are fine", () => {
    expect(matches(`^${"(a)".repeat(300)}$`, "a".repeat(300))).toBe(true);
    expect(matches(`^${"(?:(a)|b)".repeat(150)}$`, "ab".repeat(75))).toBe(true);
  });
});

describe("what a parsed pattern matches", () => {
  // [pattern, flags, input, expected]
  const cases: [string, string, string, boolean][] = [
    // escaped punctuation is the character itself, in and out of a class
    ["^\\-\\/\\!\\~\\:\\@\\`\\_\\{\\}\\,\\#\\%\\&\\'\\<\\=\\>\\;\\\"$", "", "-/!~:@`_{},#%&'<=>;\"", true],
    ["^[\\-\\]\\[\\\\\\^]+$", "", "-][\\^", true],
    ["^[\\-]$", "", "a", false],
    // \0 is NUL, and a letter after it is a letter
    ["^\\0a$", "", "\0a", true],
    ["^[\\0]$", "", "\0", true],
    // control letters, upper or lower case
    ["^\\cI\\ci$", "", "\t\t", true],
    ["^\\cZ$", "", "\u001a", true],
    ["^[\\cJ]$", "", "\n", true],
    // hex escapes of either case
    ["^\\x7e\\x7E\\xAf$", "", "~~\u00af", true],
    ["^[\\x41-\\x43]+$", "", "ABC", true],
    ["^[\\x41-\\x43]+$", "", "ABD", false],
    ["^\\u00E9\\u00e9$", "", "\u00e9\u00e9", true],
    ["^\\u{000041}$", "u", "A", true],
    ["^\\u{10FFFF}$", "u", "\u{10FFFF}", true],
    // a pair of \u escapes is one character with u: a quantifier repeats the whole pair
    ["^\\uD83D\\uDE00{2}$", "u", "\u{1F600}\u{1F600}", true],
    ["^\\uD83D\\uDE00{2}$", "", "\u{1F600}\uDE00", true],
    ["^\\uD83D\\uDE00{2}$", "", "\u{1F600}\u{1F600}", false],
    // a literal above U+FFFF is one character with u, two code units without
    ["^\u{1F600}+$", "u", "\u{1F600}\u{1F600}", true],
    ["^\u{1F600}+$", "", "\u{1F600}\uDE00", true],
    ["^\u{1F600}+$", "", "\u{1F600}\u{1F600}", false],
    ["^\\u{1F600}{2}$", "", "\u{1F600}\u{1F600}", true],
    ["^[\u{1F600}]$", "", "\uD83D", true],
    ["^[\u{1F600}]$", "u", "\uD83D", false],
    ["^[\u{1F600}]$", "u", "\u{1F600}", true],
    // [\b] is a backspace; \b outside a class is a word boundary
    ["^[\\b]$", "", "b", false],
    ["a\\b", "", "a\b", true],
    ["a\\b", "", "ab", false],
    // quantifier braces: exact, open-ended and bounded counts
    ["^a{12}$", "", "a".repeat(12), true],
    ["^a{12}$", "", "a".repeat(11), false],
    ["^a{10,}$", "", "a".repeat(9), false],
    ["^a{10,}$", "", "a".repeat(30), true],
    ["^a{0,0}b$", "", "b", true],
    ["^a{0,0}b$", "", "ab", false],
    ["^a{1,2}?$", "", "aa", true],
    ["^(?:ab){2}$", "", "abab", true],
    ["^(?:ab){2}$", "", "abb", false],
    // classes: ranges, items after a range, negation, a - at either end, a ^ not first
    ["^[a-cx]+$", "", "abcx", true],
    ["^[a-cx]+$", "", "abcd", false],
    ["^[a-zc]$", "", "x", true],
    ["^[^^]$", "", "^", false],
    ["^[^^]$", "", "a", true],
    ["^[a^]+$", "", "^a", true],
    ["^[\\w.-]+$", "", "a.b-c_9", true],
    ["^[\\w.-]+$", "", "a b", false],
    ["^[\\W]$", "", "a", false],
    ["^[\\D]$", "", "a", true],
    ["^[^\\S]$", "", " ", true],
    ["^[^\\S]$", "", "a", false],
    // \D, \W and \S reach past the Basic Multilingual Plane
    ["^\\D$", "u", "\u{1F600}", true],
    ["^\\W$", "u", "\u{1F600}", true],
    ["^\\S$", "u", "\u{10FFFF}", true],
    ["^\\W$", "iu", "\u{10FFFF}", true],
    ["^.$", "su", "\u{10FFFF}", true],
    // \W with i leaves out what folds to a word character
    ["^\\W$", "", "\u017f", true],
    ["^\\W$", "i", "\u017f", false],
    ["^\\W$", "i", "\u212a", false],
    ["^\\W$", "i", "\u017e", true],
    ["^\\W$", "i", "\u0180", true],
    ["^\\W$", "i", "\u2129", true],
    ["^\\W$", "i", "\u212b", true],
    // named groups only group
    ["^(?<a>x)(?<b>y)$", "", "xy", true],
    ["^(?<$_9>x)+$", "", "xx", true],
    // assertions in the middle of alternatives
    ["^a$|^b$", "", "b", true],
    ["^a$|^b$", "", "ab", false],
  ];
  it.each(cases)("/%s/%s on %j is %s", (pattern, flags, input, expected) => {
    expect(matches(pattern, input, flags)).toBe(expected);
  });
});

describe("compileRegex: flags", () => {
  // [flags, message, offset]
  const cases: [string, string, number][] = [
    ["gg", 'unsupported flag "g": test() keeps no lastIndex state; remove it', 0],
    ["sis", 'flag "s" is given twice; give it once', 2],
    ["muu", 'flag "u" is given twice; give it once', 2],
    ["imsd", 'unsupported flag "d": only i, m, s and u are supported; remove it', 3],
    ["I", 'unsupported flag "I": only i, m, s and u are supported; remove it', 0],
  ];
  it.each(cases)("refuses %j", (flags, message, offset) => {
    expect(refusal("a", flags)).toEqual({ message, offset });
  });

  it("checks the flags before the pattern", () => {
    expect(refusal("(", "x").message).toBe(
      'unsupported flag "x": only i, m, s and u are supported; remove it',
    );
  });

  it("accepts all four flags in any order", () => {
    for (const flags of ["imsu", "usmi", "su", ""]) {
      const compiled = compileRegex("^a.b$", flags);
      expect(compiled.ok && compiled.regex.flags).toBe(flags);
      expect(compiled.ok && compiled.regex.test("A\nB")).toBe(flags.includes("i") && flags.includes("s"));
    }
  });
});

describe("RegexSet with a pattern that is not one of the engine's own", () => {
  /** A LinearRegex written by hand: true for inputs longer than two characters, undecided past ten. */
  const longerThanTwo: LinearRegex = {
    source: "...",
    flags: "",
    test: (input) => input.length > 2,
    testBounded: (input) => (input.length > 10 ? undefined : input.length > 2),
    mayMatchTemplate: () => true,
  };

  it("answers it with its own test, next to compiled patterns", () => {
    const compiled = compileRegex("^a[bc]");
    if (!compiled.ok) throw new Error(compiled.message);
    const unbounded = new RegexSet([longerThanTwo, compiled.regex], false);
    expect([...unbounded.match("abx").answers]).toEqual([1, 1]);
    expect([...unbounded.match("ab").answers]).toEqual([0, 1]);
    expect([...unbounded.match(`ab${"x".repeat(20)}`).answers]).toEqual([1, 1]);
    const bounded = new RegexSet([compiled.regex, longerThanTwo], true);
    expect([...bounded.match("xyz").answers]).toEqual([0, 1]);
    expect([...bounded.match(`ac${"x".repeat(20)}`).answers]).toEqual([1, 2]);
  });
});

describe("\\u{...}: any number of hex digits, up to U+10FFFF", () => {
  it("accepts leading zeros, as RegExp with u does", () => {
    expect(matches("^\\u{0000041}$", "A", "u")).toBe(true);
    expect(matches("^\\u{000000000010FFFF}$", "\u{10FFFF}", "u")).toBe(true);
    expect(matches("^\\u{0000041}$", "A")).toBe(true);
    expect(parseRegexTree("\\u{00000000}", "u")).toEqual(char(0));
  });

  it("refuses a value above U+10FFFF however it is written", () => {
    for (const pattern of ["\\u{110000}", "\\u{0000110000}", `\\u{1${"0".repeat(40)}}`, "\\u{FFFFFFFF}"]) {
      expect(refusal(pattern, "u")).toEqual({ message: "\\u{...} is above U+10FFFF", offset: 0 });
    }
  });
});

describe("edges of the parser's character tests", () => {
  it("reads 9 as a hex digit and 1 as a backreference", () => {
    expect(parseRegexTree("\\x39\\x99")).toEqual(concat(char(0x39), char(0x99)));
    expect(refusal("\\1")).toEqual({
      message:
        "backreferences are not supported: regex rules run on a linear-time engine; rewrite without \\1",
      offset: 0,
    });
  });

  it("keeps U+FFFF one code unit, in and out of a class, with or without u", () => {
    expect(parseRegexTree("\\uFFFF")).toEqual(char(0xffff));
    expect(parseRegexTree("\\u{FFFF}")).toEqual(char(0xffff));
    expect(parseRegexTree("[\\uFFFF]")).toEqual(set([0xffff, 0xffff]));
    expect(parseRegexTree("[\\u{FFFF}]")).toEqual(set([0xffff, 0xffff]));
    expect(parseRegexTree("[\uFFFF]")).toEqual(set([0xffff, 0xffff]));
    expect(parseRegexTree("[\\u{10000}]", "u")).toEqual(set([0x10000, 0x10000]));
    expect(matches("^[\\uFFFF]$", "\uFFFF")).toBe(true);
    // a literal above U+FFFF in a class is its two code units without u, as in RegExp
    expect(parseRegexTree("[\u{1F600}]")).toEqual(set([0xd83d, 0xd83d, 0xde00, 0xde00]));
  });

  it("accepts a range of one character and a count of at most one", () => {
    expect(parseRegexTree("[a-a]")).toEqual(set([0x61, 0x61]));
    expect(parseRegexTree("a{0,1}")).toEqual(repeat(a, 0, 1, 0));
    expect(parseRegexTree("a{1,1}")).toEqual(repeat(a, 1, 1, 0));
    expect(parseRegexTree("a{1}")).toEqual(repeat(a, 1, 1, 0));
  });

  it("joins a high surrogate only with a following \\u escape of a low one", () => {
    expect(parseRegexTree("\\uD800xxDC00", "u")).toEqual(
      concat(char(0xd800), ...[..."xxDC00"].map((c) => char(c.charCodeAt(0)))),
    );
    expect(parseRegexTree("\\uD800\\\\uDC00", "u")).toEqual(
      concat(char(0xd800), char(0x5c), ...[..."uDC00"].map((c) => char(c.charCodeAt(0)))),
    );
  });

  it("tells lookbehind from an unknown group by the < before the = or !", () => {
    expect(refusal("(?a=b)")).toEqual({ message: UNKNOWN_GROUP, offset: 0 });
    expect(refusal("(?a!b)")).toEqual({ message: UNKNOWN_GROUP, offset: 0 });
    expect(refusal("x(?<=a)b")).toEqual({
      message:
        "lookbehind (?<= is not supported: regex rules run on a linear-time engine; rewrite the pattern without lookaround",
      offset: 1,
    });
  });

  it("parses without flags when none are given", () => {
    expect(parseRegexTree(".")).toEqual(set([0x0a, 0x0a, 0x0d, 0x0d, 0x2028, 0x2029], true));
    expect(parseRegexTree("\u{1F600}")).toEqual(concat(char(0xd83d), char(0xde00)));
    expect(parseRegexTree("\\W")).toEqual(set([0, 0x2f, 0x3a, 0x40, 0x5b, 0x5e, 0x60, 0x60, 0x7b, 0x10ffff]));
  });
});
