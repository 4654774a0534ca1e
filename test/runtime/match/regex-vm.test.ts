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

describe("RegexSet agrees with each of its patterns alone", () => {
  const members = PATTERNS.flatMap(([pattern, flags]) => [
    compiled(pattern, flags),
    compiled(onVm(pattern), flags),
  ]);

  it.each([false, true])("every pattern of the list in one set (bounded %s), each input twice", (bounded) => {
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
