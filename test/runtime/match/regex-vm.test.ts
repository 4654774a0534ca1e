/**
 * The running half of the regex engine (the emitted program, the Pike VM, the lazy DFA and the pattern set)
 * against an oracle nobody here wrote: `RegExp`. A fixed list of patterns, each run on a fixed pool of inputs
 * that sit on the edges the engine treats specially (anchors next to every line terminator, word edges, case
 * folding, surrogate pairs and lone surrogates), through every path that can answer it: the literal short cut
 * or the lazy DFA (`test`), the Pike VM (the same pattern kept off the DFA by an assertion that always holds),
 * the bounded forms, the template simulation and a `RegexSet` of all of them.
 */
import { describe, expect, it } from "vitest";
import { compileRegex, type LinearRegex, RegexSet } from "../../../src/runtime/match/regex/index.js";

function compiled(pattern: string, flags = ""): LinearRegex {
  const result = compileRegex(pattern, flags);
  if (!result.ok) throw new Error(`/${pattern}/${flags}: ${result.message}`);
  return result.regex;
}

const ASTRAL = /[\u{10000}-\u{10FFFF}]/u;

/**
 * The oracle: `RegExp` with the same flags, except that flag `i` is compared with `iu` (the engine folds with
 * Unicode simple case folding in both modes), so where `i` goes without `u` the input keeps to characters of one
 * code unit; and `\b` with `i` never meets `ſ` or `K` (the engine's `\b` is ASCII only), nor `\B` with `u` an
 * astral character (V8 also tries `\B` between the halves of a pair).
 */
function oracle(pattern: string, flags: string, input: string): boolean | undefined {
  const ignoreCase = flags.includes("i");
  const unicode = flags.includes("u");
  if (ignoreCase && !unicode && ASTRAL.test(input)) return undefined;
  if (ignoreCase && /\\[bB]/.test(pattern) && /[\u017f\u212a]/.test(input)) return undefined;
  if (unicode && /\\B/.test(pattern) && ASTRAL.test(input)) return undefined;
  return new RegExp(pattern, ignoreCase && !unicode ? `${flags}u` : flags).test(input);
}

// Inputs at the edges: every line terminator before and after a character, word and non-word neighbours,
// letters whose case folding is special, astral characters (lowest, highest, in between), lone surrogates, NUL,
// `/`, and the last ASCII and first non-ASCII characters.
const INPUTS = [
  "",
  "a",
  "b",
  "c",
  "ab",
  "ba",
  "abc",
  "abcabc",
  "xabcx",
  "xabx",
  "abd",
  "aab",
  "aaa",
  "aaaa",
  "aaab",
  "abab",
  "abba",
  "bbba",
  "aabb",
  "acb",
  "A",
  "AB",
  "ABC",
  "Abc",
  "aBc",
  "k",
  "K",
  "\u212a",
  "s",
  "S",
  "\u017f",
  "\u00e9",
  "\u00c9",
  "\u03c3",
  "\u03a3",
  "\u03c2",
  "\n",
  "a\n",
  "\na",
  "a\nb",
  "b\na",
  "a\rb",
  "a\u2028b",
  "a\u2029b",
  "a\u2027b",
  "a\u000bb",
  "\r\n",
  "a b",
  " a ",
  "a_b",
  "a-b",
  "a.b",
  "_",
  "-",
  " ",
  "\t",
  "1",
  "a1",
  "9a",
  "foo",
  "foo bar",
  "foobar",
  "a foo",
  "afoo",
  "foo_",
  "/",
  "a/b",
  "\0",
  "a\0",
  "\u007f",
  "\u0080",
  "\u00ff",
  "\u0100",
  "\uffff",
  "\u{1F600}",
  "a\u{1F600}b",
  "\u{10000}",
  "\u{10FFFF}",
  "\ud83d",
  "\ude00",
  "\ud83dx",
  "x\ude00",
  "\ude00\ud83d",
  "xyz",
  "yab",
];

// [pattern, flags]: what each path of the engine handles, and a few more of each.
const PATTERNS: [string, string][] = [
  // Literals that string methods answer (`^?text$?` without `i` or `m`), and near misses.
  ["abc", ""],
  ["^abc", ""],
  ["abc$", ""],
  ["^abc$", ""],
  ["^", ""],
  ["$", ""],
  ["^$", ""],
  ["", ""],
  ["a", ""],
  ["^a$", ""],
  ["^ab$c", ""],
  ["a$b", ""],
  ["a^b", ""],
  ["^^a", ""],
  ["a$$", ""],
  ["^abc", "m"],
  ["abc$", "m"],
  ["^$", "m"],
  ["abc", "u"],
  ["^\\u{1F600}", "u"],
  ["\\u{1F600}$", "u"],
  ["^\\ud83d", "u"],
  ["^\\ud800", "u"],
  ["\\udfff$", "u"],
  ["^\\ud7ff", "u"],
  ["\\ue000$", "u"],
  ["\\ude00$", "u"],
  ["\\ud83d", ""],
  ["^\\ude00", ""],
  ["^\\u{10000}$", "u"],
  ["^\\u{10FFFF}$", "u"],
  ["abc", "s"],
  ["ab(?:c)?", ""],
  ["^ab(?:c|d)", ""],
  ["^ab[cd]", ""],
  ["^ab.", ""],
  ["ab.", "s"],
  // The lazy DFA: no `\b`, `\B`, no `m`.
  ["a+b", ""],
  ["^a+b", ""],
  ["^a*?b$", ""],
  ["^a+?$", ""],
  ["^a{2}$", ""],
  ["^a{2,}$", ""],
  ["^a{1,3}$", ""],
  ["^a{0,2}b", ""],
  ["^(?:a|b)*$", ""],
  ["^(?:ab|ba)+$", ""],
  ["(?:a|b)*a(?:a|b)", ""],
  ["^(?:a|ab|abc)$", ""],
  ["^(?:|a)b", ""],
  ["x|^a", ""],
  ["a$|^b", ""],
  ["c$|^$", ""],
  ["$|$", ""],
  ["^$|$", ""],
  ["^(?:$|$)", ""],
  ["^(?:a*)*$", ""],
  ["^(?:a?){2}a{2}$", ""],
  ["[^a]", ""],
  ["^[^a]+$", ""],
  ["^[a-c]+$", ""],
  ["^[^\\n]*$", ""],
  [".", ""],
  ["^.$", ""],
  ["^.$", "s"],
  ["^..$", ""],
  ["^.$", "u"],
  ["^..$", "u"],
  ["^.+$", "su"],
  ["^[\\s\\S]$", ""],
  ["^[\\s\\S]$", "u"],
  ["^[^]$", ""],
  ["^[\\0-\\u{10FFFF}]$", "u"],
  ["^[\\x01-\\u{10FFFF}]$", "u"],
  ["^[\\0-\\uffff]$", "u"],
  ["^[^\\s\\S]$", ""],
  ["^\\s$", ""],
  ["^\\S+$", ""],
  ["^\\w+$", ""],
  ["^\\W$", ""],
  ["^\\d$", ""],
  ["^\\D$", ""],
  ["^[\\u{1F600}-\\u{1F64F}]$", "u"],
  ["[\\u{10000}\\u{10FFFF}]", "u"],
  ["^[\\ud800-\\udbff]$", ""],
  ["^[\\udc00-\\udfff]", ""],
  ["^\\uffff$", ""],
  ["\\0", ""],
  // Case: upper-case pattern characters, with and without `i`.
  ["AB", ""],
  ["^A+", ""],
  ["^[A-C]+$", ""],
  ["\u00c9", ""],
  ["a|B", ""],
  // Case folding.
  ["abc", "i"],
  ["^abc$", "i"],
  ["^[a-z]+$", "i"],
  ["^[^a-z]+$", "i"],
  ["^k$", "i"],
  ["^[k]$", "i"],
  ["^s$", "i"],
  ["^\\u00e9$", "i"],
  ["^\u03c3$", "i"],
  ["^\\w$", "i"],
  ["^\\W$", "i"],
  ["^[^k]$", "i"],
  ["^.$", "iu"],
  ["^a.c$", "is"],
  ["a|B", "i"],
  // The Pike VM: `\b`, `\B` and flag `m`.
  ["\\bfoo\\b", ""],
  ["\\Bfoo", ""],
  ["foo\\B", ""],
  ["\\b", ""],
  ["\\B", ""],
  ["^\\B$", ""],
  ["^\\b", ""],
  ["\\b$", ""],
  ["^a\\b", ""],
  ["a\\b", "i"],
  ["\\bb", ""],
  ["\\b.", ""],
  [".\\b", "u"],
  ["^ab\\b", ""],
  ["^abc\\b", "i"],
  ["ab\\b", ""],
  ["^[ab]\\b", ""],
  ["^a", "m"],
  ["^b", "m"],
  ["a$", "m"],
  ["b$", "m"],
  ["^a$", "m"],
  ["^b$", "m"],
  ["^$", "m"],
  ["^", "m"],
  ["$", "m"],
  ["x$|^b", "m"],
  ["^[ab]+$", "m"],
  ["^.$", "m"],
  ["^.$", "ms"],
  ["^.$", "mu"],
  ["a.", "m"],
  ["a[^x]", "m"],
  ["a\\S", "m"],
  ["a[^\\0-\\uffff]", "m"],
  ["a[^\\0-\\u{10FFFF}]", "mu"],
  ["^(?:a|b)*a(?:a|b)$", "m"],
  ["^(?:a|b)+?b", "m"],
  ["(?:^|b)a", "m"],
  ["^\\b\\B", ""],
  ["(?:\\b|\\B)*a", ""],
];

/** The same pattern on the Pike VM, kept off the lazy DFA by an assertion that always holds (`\b|\B`). */
function onVm(pattern: string): string {
  return `(?:${pattern})(?:\\b|\\B)`;
}

describe("the regex engine agrees with RegExp on every path", () => {
  it.each(PATTERNS)(
    "/%s/%s through test, testBounded, the VM and the template simulation",
    (pattern, flags) => {
      const regex = compiled(pattern, flags);
      const vm = compiled(onVm(pattern), flags);
      const wrong: string[] = [];
      for (const input of INPUTS) {
        const expected = oracle(pattern, flags, input);
        if (expected === undefined) continue;
        const head = Array.from(input)[0] ?? "";
        const answers = {
          test: regex.test(input),
          testBounded: regex.testBounded(input),
          vm: vm.test(input),
          vmBounded: vm.testBounded(input),
          template: regex.mayMatchTemplate([input]),
          // Two parts, cut at a character (a template part is read on its own).
          vmTemplate: vm.mayMatchTemplate([head, input.slice(head.length)]),
        };
        for (const [path, answer] of Object.entries(answers)) {
          if (answer !== expected)
            wrong.push(`${path} on ${JSON.stringify(input)}: ${answer}, RegExp ${expected}`);
        }
      }
      expect(wrong).toEqual([]);
    },
  );

  it.each(PATTERNS.filter(([pattern, flags]) => !flags.includes("m") && !/[\^$]/.test(pattern)))(
    "/%s/%s with flag m added (no anchor: the same language, on the Pike VM)",
    (pattern, flags) => {
      const regex = compiled(pattern, `${flags}m`);
      const wrong: string[] = [];
      for (const input of INPUTS) {
        const expected = oracle(pattern, flags, input);
        if (expected !== undefined && regex.test(input) !== expected) wrong.push(JSON.stringify(input));
      }
      expect(wrong).toEqual([]);
    },
  );

  it("answers as often as asked: the DFA's cached states and the VM's reused buffers change nothing", () => {
    const regexes = PATTERNS.map(([pattern, flags]) => [
      compiled(pattern, flags),
      compiled(onVm(pattern), flags),
    ]);
    const first = regexes.map((pair) => pair.map((r) => INPUTS.map((input) => r.test(input))));
    const second = regexes.map((pair) =>
      pair.map((r) =>
        [...INPUTS]
          .reverse()
          .map((input) => r.test(input))
          .reverse(),
      ),
    );
    expect(second).toEqual(first);
  });
});

// Patterns are compiled inside the tests, never while the file is collected: a compile that throws must fail a
// test, not the loading of the file.
describe("RegexSet agrees with each of its patterns alone", () => {
  it.each([false, true])("every pattern of the list in one set (bounded %s), each input twice", (bounded) => {
    const members = PATTERNS.flatMap(([pattern, flags]) => [
      compiled(pattern, flags),
      compiled(onVm(pattern), flags),
    ]);
    const set = new RegexSet(members, bounded);
    const wrong: string[] = [];
    for (const input of [...INPUTS, ...INPUTS]) {
      const { answers, hits } = set.match(input);
      members.forEach((member, i) => {
        const alone = member.test(input) ? 1 : 0;
        if (answers[i] !== alone) wrong.push(`/${member.source}/${member.flags} on ${JSON.stringify(input)}`);
      });
      expect(hits).toEqual([...answers].flatMap((a, i) => (a === 0 ? [] : [i])));
    }
    expect(wrong).toEqual([]);
  });
});

describe("the program size bound, for every kind of node", () => {
  const TOO_LARGE =
    "pattern too large: it compiles to more than 10000 instructions (counted repetition such as {1000} is expanded); use smaller counts or * and +";
  // [pattern, instructions]: at the bound of 10,000 instructions, where each node kind adds its own count.
  const atBound: [string, string][] = [
    ["a{10000}", "a character: one each"],
    ["a{5000}b{5000}", "a sequence: the sum"],
    ["a{5000}|b{4998}", "an alternation: the branches and two per extra branch"],
    ["(?:a|b|c){1428}x{4}", "three branches: four more"],
    ["(?:a|b){2500}", "a counted repetition: the child that many times"],
    ["a{0,5000}", "optional copies: the child and a split each"],
    ["a{2,5001}", "both"],
    ["(?:a{9998})*", "a star: the child and two"],
    ["(?:a{9999})+", "at least once: the child and one"],
    ["(?:ab){4999,}c", "at least n times: n children and one"],
    ["(?:\\b){9999}^", "assertions: one each"],
    ["[ab]{10000}", "a class: one each"],
    ["a{9999}(?:){50000}(?:)*(?:){3,}", "an empty group: none, however repeated"],
    ["a{9999}(?:(?:)*)+", "a repeated empty star: none"],
  ];
  it.each(atBound)("accepts /%s/ at exactly the bound (%s)", (pattern) => {
    expect(compileRegex(pattern).ok).toBe(true);
  });

  // [pattern, offset]: one instruction more; a repetition is blamed at its atom, a sequence or an alternation
  // at the start.
  const pastBound: [string, number][] = [
    ["a{10001}", 0],
    ["a{5000}b{5001}", 0],
    ["xyza{5000}b{4998}", 0],
    ["a{5000}|b{4999}", 0],
    ["(?:a|b|c){1428}x{5}", 0],
    ["xy(?:a|b){2501}", 2],
    ["xya{0,5001}", 2],
    ["xya{1,5001}", 2],
    ["xy(?:a{9999})*", 2],
    ["xy(?:a{10000})+", 2],
    ["xy(?:ab){5000,}", 2],
    ["xy(?:ab){4999,}c{2}", 0],
    ["x(?:\\b){10000}", 0],
    ["xy[ab]{10001}", 2],
    ["x.{10000}", 0],
    ["a{10000}(?:\\b)*", 0],
  ];
  it.each(pastBound)("refuses /%s/ one instruction past it, at offset %d", (pattern, offset) => {
    expect(compileRegex(pattern)).toEqual({ ok: false, message: TOO_LARGE, offset });
  });

  it("runs a pattern at the bound", () => {
    expect(compiled("^a{0,4999}$").test("a".repeat(4999))).toBe(true);
    expect(compiled("^a{0,4999}$").test("a".repeat(5000))).toBe(false);
  });
});

describe("mayMatchTemplate: a template with unknown segments", () => {
  // Exact wherever no assertion but `^` and `$` (without `m`) is involved: true exactly when some string the
  // template stands for matches. Checked by trying every unknown part of one or two characters from an alphabet
  // that holds every character these patterns tell apart.
  const patterns: [string, string][] = [
    ["^a", ""],
    ["b$", ""],
    ["^a$", ""],
    ["^[^/]+$", ""],
    ["^[^/]$", "u"],
    ["^..$", ""],
    ["^..$", "u"],
    ["^a[^/]$", ""],
    ["^a.$", ""],
    ["^x/", ""],
    ["/x$", ""],
    ["^a/b$", ""],
    ["ab", ""],
    ["^(?:ab)+$", ""],
    ["^\\0", ""],
    ["[^a]", ""],
    ["^[/\\0]", ""],
    ["^[ab/]$", ""],
    ["^A$", "i"],
    ["^[^b]$", "i"],
    ["^\\n$", "s"],
    ["^a$|^b/", ""],
    ["^(?:a|b)(?:x|/)$", ""],
    ["^x*$", ""],
    ["^a+x$", ""],
  ];
  const alphabet = ["a", "b", "x", "\n", "\u00e9", "\u{1F600}"];
  const fills = [...alphabet, ...alphabet.flatMap((c) => alphabet.map((d) => c + d))];
  const templates: (string | null)[][] = [
    [null],
    ["a", null],
    [null, "b"],
    ["a", null, "b"],
    [null, "/", null],
    ["/", null],
    [null, "/"],
    [null, null],
    ["x", null, "/b"],
    ["a/", null],
    [null, "x"],
  ];
  it.each(patterns)("/%s/%s is exact over unknown parts", (pattern, flags) => {
    const regex = compiled(pattern, flags);
    const native = new RegExp(pattern, flags);
    const wrong: string[] = [];
    for (const template of templates) {
      const unknowns = template.filter((part) => part === null).length;
      let some = false;
      const fill = (k: number, parts: (string | null)[], done: string): void => {
        if (some) return;
        if (k === parts.length) {
          some = native.test(done);
          return;
        }
        const part = parts[k];
        if (part !== null && part !== undefined) fill(k + 1, parts, done + part);
        else for (const f of fills) fill(k + 1, parts, done + f);
      };
      if (unknowns <= 2) fill(0, template, "");
      const may = regex.mayMatchTemplate(template);
      if (may !== some) wrong.push(`${JSON.stringify(template)}: ${may}, some string ${some}`);
    }
    expect(wrong).toEqual([]);
  });

  // [pattern, flags, template, answer]: `\b`, `\B` and the `m` anchors next to an unknown part count as holding.
  const approximations: [string, string, (string | null)[], boolean][] = [
    ["^/", "", [null, "/"], false],
    ["^/", "m", [null, "/"], true],
    ["^b", "m", ["a", "b"], false],
    ["^b", "m", ["a\n", "b"], true],
    ["^b", "m", ["a\r", "b"], true],
    ["^b", "m", ["a\u2028", "b"], true],
    ["/$", "", ["/", null], false],
    ["/$", "m", ["/", null], true],
    ["a$", "m", ["a", "b"], false],
    ["a$", "m", ["a", "\u2029"], true],
    ["a$", "m", ["a", "\n"], true],
    ["^a$", "m", [null], true],
    ["^a$", "", [null], true],
    ["^ab$", "m", ["x", null, "y"], true],
    ["a\\bb", "", ["a", null, "b"], true],
    ["a\\bb", "", ["a", "b"], false],
    ["a\\Bb", "", ["a", null, "b"], true],
    ["a\\Bb", "", ["a", "b"], true],
    ["a\\B-", "", ["a", "-"], false],
    ["a\\b-", "", ["a", "-"], true],
    ["a\\b", "", ["a\0"], true],
    ["a\\B", "", ["a\0"], false],
    ["\\ba", "", ["\0a"], true],
    ["\\b\u00e9", "", ["a\u00e9"], true],
    ["\\B\u00e9", "", ["a\u00e9"], false],
    ["\\B\\u{1F600}", "u", ["\u{1F600}\u{1F600}"], true],
    ["\\b\\u{1F600}", "u", ["a\u{1F600}"], true],
    ["\\b\\u{1F600}", "u", ["\u{1F600}\u{1F600}"], false],
    ["^x\\by$", "", ["x", null, "y"], false],
    ["^x\\b[^/]*y$", "", ["x", null, "y"], true],
    ["^x\\B[^/]*y$", "", ["x", null, "y"], true],
    ["^x\\b$", "", ["x"], true],
    ["^x\\B$", "", ["x"], false],
    ["^\\b", "", [""], false],
    ["^\\B", "", [""], true],
    ["^\\B$", "", [], true],
    ["^x$", "", [], false],
    ["a$\\n^b", "m", ["a", null, "b"], true],
    ["a$\\n^b", "", ["a", null, "b"], false],
    ["a(?:$|/)[^]^b", "m", ["a", null, "b"], true],
    ["a[^]+^b", "", ["a", null, "b"], false],
    ["a[^]+^b", "m", ["a", null, "b"], true],
    ["a[^]+$b", "m", ["a", null, "b"], true],
    ["a[^]+\\bb", "", ["a", null, "b"], true],
    ["^\\0$", "", [null], false],
    ["^/$", "", [null], false],
    ["^[/\\0]$", "", [null], false],
    ["^[\\0-/]$", "", [null], true],
    ["^[\\0/a]$", "", [null], true],
    ["^[^]$", "", [null], true],
    ["^.$", "s", [null], true],
    ["^\\u{10FFFF}$", "u", [null], true],
    ["^\\u{1F600}$", "u", ["\u{1F600}"], true],
    ["^\\u{1F600}$", "u", ["\ud83d", "\ude00"], false],
    ["^\\u{10000}x$", "u", ["\u{10000}", null], true],
    ["^..$", "u", ["\u{10FFFF}\u{10000}"], true],
    ["^.$", "u", ["\ud83d"], true],
    ["^..$", "u", ["\ud83dx"], true],
    ["^..$", "u", ["x\ude00"], true],
    ["^.$", "u", ["\ud83d\ud83d"], false],
    ["^A$", "i", ["a"], true],
    ["^[a-c]$", "i", ["B"], true],
    ["\\bab", "i", ["AB"], true],
    ["^(?:a/)+$", "", ["a/", null, "/"], true],
    ["^(?:a/)+$", "", ["a/", null, "/", null, "/"], true],
    ["^(?:a/)+$", "", ["a/", null, "/b/"], false],
    ["^[^/]*/[^/]*$", "", [null, null, "/", null], true],
    ["^[^/]*/[^/]*$", "", [null, "/", null, "/"], false],
    ["^ab*c$", "", ["a", null, "c"], true],
    ["^ab*c$", "", ["a", null, "d"], false],
  ];
  it.each(approximations)("/%s/%s on %j is %s", (pattern, flags, template, expected) => {
    expect(compiled(pattern, flags).mayMatchTemplate(template)).toBe(expected);
  });
});

describe("the work bound: counted, not timed, so every machine decides alike", () => {
  // On `a{400}b` each `a` read adds one thread to the lazy DFA's state, so the j-th state costs 9(j + 1) and
  // L characters cost 9(L + 1)(L + 2) / 2 in all: 398,277 for 296 characters, 400,959 for 297.
  it("the lazy DFA gives up on the first state past the bound, on every run alike", () => {
    const regex = compiled("a{400}b");
    expect(regex.testBounded("a".repeat(296))).toBe(false);
    expect(regex.testBounded("a".repeat(297))).toBeUndefined();
    expect(regex.testBounded("a".repeat(297))).toBeUndefined();
    expect(regex.testBounded("a".repeat(296))).toBe(false);
    expect(regex.testBounded(`${"a".repeat(296)}`)).toBe(false);
    expect(regex.testBounded(`${"a".repeat(400)}b`)).toBeUndefined();
    expect(regex.test(`${"a".repeat(400)}b`)).toBe(true);
    expect(regex.test("a".repeat(297))).toBe(false);
    // A new compile with no cached state answers the same.
    expect(compiled("a{400}b").testBounded("a".repeat(297))).toBeUndefined();
    expect(compiled("a{400}b").testBounded("a".repeat(296))).toBe(false);
    // An empty group, however repeated, adds no instruction and so no work.
    expect(compiled("(?:)*(?:)*(?:)*a{400}b(?:){5}").testBounded("a".repeat(296))).toBe(false);
    expect(compiled("(?:){2,}(?:){2,}(?:){2,}(?:){2,}a{400}b").testBounded("a".repeat(296))).toBe(false);
    expect(compiled("(?:)*a{400}b(?:){2,}").testBounded("a".repeat(297))).toBeUndefined();
    // Cached states cost again in every run that passes them.
    expect(regex.testBounded(`${"a".repeat(296)}b`)).toBe(false);
    expect(regex.testBounded(`b${"a".repeat(296)}`)).toBe(false);
    expect(regex.testBounded(`${"a".repeat(100)}b${"a".repeat(296)}`)).toBe(false);
  });

  // On `a{600}b\b` (kept on the Pike VM by `\b`) the p-th character finds p + 1 threads and costs 3(p + 1) + 1:
  // 399,125 for 515 characters, 400,674 for 516.
  it("the Pike VM gives up on the first character past the bound", () => {
    const regex = compiled("a{600}b\\b");
    expect(regex.testBounded("a".repeat(515))).toBe(false);
    expect(regex.testBounded("a".repeat(516))).toBeUndefined();
    expect(regex.testBounded(`${"a".repeat(600)}b`)).toBeUndefined();
    expect(regex.test(`${"a".repeat(600)}b`)).toBe(true);
    expect(regex.test(`${"a".repeat(600)}bc`)).toBe(false);
    // One thread on each character costs 4: 100,000 characters are within the bound, one more is not.
    expect(regex.testBounded("b".repeat(100_000))).toBe(false);
    expect(regex.testBounded("b".repeat(100_001))).toBeUndefined();
  });

  it("a literal pattern needs no bound", () => {
    expect(compiled("^abc").testBounded(`abc${"x".repeat(1 << 20)}`)).toBe(true);
    expect(compiled("x$").testBounded(`${"a".repeat(1 << 20)}`)).toBe(false);
  });
});

describe("the lazy DFA's memory cap", () => {
  it("answers as RegExp on an input that passes thousands of distinct states, and again afterwards", () => {
    // (a|b)*a(a|b){13} has 2^14 states: a long random input passes the cap of 4,096 several times.
    const pattern = "(?:a|b)*a(?:a|b){13}x";
    const regex = compiled(pattern);
    let seed = 11;
    let text = "";
    for (let i = 0; i < 30_000; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      text += seed & 0x100 ? "a" : "b";
    }
    // RegExp backtracks on this one: the answer is whether the 14th character before the x is an a.
    const expected = (input: string): boolean => /a[ab]{13}x/.test(input.slice(-15));
    for (const input of [
      text,
      `${text}x`,
      `${text.slice(0, 14)}x`,
      `a${text.slice(0, 13)}x`,
      `${text}bx`,
      text,
    ]) {
      expect(regex.test(input), input.slice(-15)).toBe(input.endsWith("x") && expected(input));
    }
    expect(regex.test(`a${"b".repeat(13)}x`)).toBe(true);
    expect(regex.test(`b${"b".repeat(13)}x`)).toBe(false);
  });
});
