/**
 * Corners of the regex engine's running half that the differential in regex-vm.test.ts does not reach: surrogate
 * halves next to characters that are not their partners, programs with no instruction but MATCH, the work bound's
 * exact count where the lazy DFA's states are many and cheap and where the Pike VM meets the same thread twice,
 * unknown parts of a template that hold a word edge or a line end, and the upper bound pattern sets rely on.
 */
import { describe, expect, it } from "vitest";
import { compileRegex, type LinearRegex, REGEX_WORK_BOUND } from "../../../src/runtime/match/regex/index.js";
import { regexWorkUpperBound } from "../../../src/runtime/match/regex/vm.js";

function compiled(pattern: string, flags = ""): LinearRegex {
  const result = compileRegex(pattern, flags);
  if (!result.ok) throw new Error(`/${pattern}/${flags}: ${result.message}`);
  return result.regex;
}

describe("code points are read as RegExp reads them with flag u", () => {
  // A high surrogate joins only a low one that follows it; a low surrogate after anything else, or a character
  // at or above U+E000 after a high surrogate, stays a character of its own.
  const inputs = [
    "\ue000\udc00",
    "\ud83d\ue000",
    "/\udc00",
    "\ud800\udc00",
    "\udbff\udfff",
    "\ud83d",
    "x\ud83d",
    "\udc00\udc00",
  ];
  const patterns = [
    "^.$",
    "^..$",
    "^[\\ue000]",
    "[\\ue000]$",
    "^[\\ue000][\\udc00]$",
    "^[\\ud83d][\\ue000]$",
    "^/",
    "^[/][\\udc00]$",
    "^[\\u{10000}]$",
    "^[\\u{10FFFF}]$",
    "[\\ud83d]$",
  ];
  it.each(patterns)("/%s/u on the lazy DFA, the Pike VM and the template simulation", (pattern) => {
    const regex = compiled(pattern, "u");
    const vm = compiled(`(?:${pattern})(?:\\b|\\B)`, "u");
    const native = new RegExp(pattern, "u");
    const wrong: string[] = [];
    for (const input of inputs) {
      const expected = native.test(input);
      const answers = {
        test: regex.test(input),
        vm: vm.test(input),
        template: regex.mayMatchTemplate([input]),
        vmTemplate: vm.mayMatchTemplate([input]),
      };
      for (const [path, answer] of Object.entries(answers)) {
        if (answer !== expected)
          wrong.push(`${path} on ${JSON.stringify(input)}: ${answer}, RegExp ${expected}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe("lazy DFA states with threads of several digits", () => {
  // Programs of more than ten instructions hold sets such as {0, 1, 12} and {0, 11, 2}: different states. One
  // compiled pattern runs every input of up to 12 a's and b's, so that its cache holds all the sets they pass.
  it.each(["b(?:a|b)(?:a|b)aaaaaa", "aaab[ab][ab](?:a|b)b(?:a|b)[ab][ab]"])(
    "/%s/ agrees with RegExp on every input of a and b up to 12 long",
    (pattern) => {
      const regex = compiled(pattern);
      const native = new RegExp(pattern);
      const wrong: string[] = [];
      for (let length = 0; length <= 12; length++) {
        for (let bits = 0; bits < 1 << length; bits++) {
          let input = "";
          for (let i = 0; i < length; i++) input += bits & (1 << i) ? "b" : "a";
          if (regex.test(input) !== native.test(input)) wrong.push(input);
        }
      }
      expect(wrong).toEqual([]);
    },
  );
});

describe("a program of MATCH alone", () => {
  // A repeated empty group compiles to no instruction, but is no literal: the lazy DFA and the VM run it.
  it.each(["(?:)*", "(?:){3}", "(?:)+", "(?:){2,}"])("/%s/ matches every input", (pattern) => {
    for (const regex of [compiled(pattern), compiled(`${pattern}(?:\\b|\\B)`)]) {
      for (const input of ["", "a", "/", "\n", "abc"]) {
        expect(regex.test(input)).toBe(true);
        expect(regex.testBounded(input)).toBe(true);
        expect(regex.mayMatchTemplate([input])).toBe(true);
      }
      expect(regex.mayMatchTemplate([null])).toBe(true);
    }
  });
});

describe("the work bound's exact count", () => {
  // Three branches whose threads never meet: a run of c's, then e's, then a's passes distinct states whose costs
  // add up. These lengths were chosen so that the states cost exactly the bound, and one unit past it.
  const pattern = "(?:a|x){400}b|c{400}d|(?:e|y|z){400}f";
  const exactly = `${"c".repeat(4)}${"e".repeat(72)}${"a".repeat(195)}`;
  const onePast = `${"c".repeat(10)}${"e".repeat(146)}${"a".repeat(123)}`;

  it("the lazy DFA answers when its states cost exactly the bound, and gives up one unit past it", () => {
    const regex = compiled(pattern);
    expect(REGEX_WORK_BOUND).toBe(400_000);
    expect(regex.testBounded(exactly)).toBe(false);
    expect(regex.testBounded(onePast)).toBeUndefined();
    // The same again with every state cached, and on a new compile with none.
    expect(regex.testBounded(onePast)).toBeUndefined();
    expect(regex.testBounded(exactly)).toBe(false);
    expect(compiled(pattern).testBounded(onePast)).toBeUndefined();
    expect(regex.test(onePast)).toBe(false);
    expect(regex.test(`${onePast}${"a".repeat(400)}b`)).toBe(true);
  });

  it("an anchored pattern's states count only their own threads, to the unit", () => {
    // The same three branches after ^[^q]*: the states never hold the start thread again once past the start.
    const anchored = compiled("^[^q]*(?:(?:a|x){400}b|c{400}d|(?:e|y|z){400}f)");
    expect(anchored.testBounded(`${"c".repeat(16)}${"e".repeat(99)}${"a".repeat(176)}`)).toBe(false);
    expect(anchored.testBounded(`${"c".repeat(57)}${"e".repeat(143)}${"a".repeat(119)}`)).toBeUndefined();
  });

  it("a DFA state is a set of threads: reached in another order, it is the same state and costs once", () => {
    // Three loops of 3, 5 and 7 characters cycle through 105 thread sets, and the order in which a closure finds
    // the threads changes from one character to the next; the last branch adds a thousand threads to every set.
    // Counted as sets, 240 a's cost 80,074 units; told apart by the order they were found in, 2.6 million.
    const pattern = `(?:aaa)*b|(?:aaaaa)*c|(?:aaaaaaa)*d|[ab](?:${"a|".repeat(999)}a)*z`;
    const regex = compiled(pattern);
    expect(regex.testBounded("a".repeat(240))).toBe(false);
    expect(regex.testBounded(`${"a".repeat(240)}z`)).toBe(true);
    expect(regex.testBounded(`${"a".repeat(240)}d`)).toBe(true);
    expect(regex.testBounded(`${"a".repeat(240)}x`)).toBe(false);
  });

  it("`^` and `$` keep a pattern on the lazy DFA, and so on its count", () => {
    // On the Pike VM, 297 characters of a{400}b$ would cost about 135,000 steps, within the bound.
    expect(compiled("a{400}b$").testBounded("a".repeat(296))).toBe(false);
    expect(compiled("a{400}b$").testBounded("a".repeat(297))).toBeUndefined();
    expect(compiled("^(?:a{400}b$)").testBounded("a".repeat(297))).toBe(false);
  });

  it("the Pike VM counts a thread once however many ways lead to it", () => {
    // Five empty alternations give 32 paths to the x: still one thread, 4 units a character.
    const regex = compiled("(?:|)(?:|)(?:|)(?:|)(?:|)x\\b");
    expect(regex.testBounded("y".repeat(100_000))).toBe(false);
    expect(regex.testBounded("y".repeat(100_001))).toBeUndefined();
    expect(regex.testBounded(`${"y".repeat(99_999)}x`)).toBe(true);
  });

  it("the Pike VM stops an anchored pattern as soon as its threads are gone", () => {
    // The rest of the input is not read, so it costs nothing, however long.
    const regex = compiled("^a\\b");
    expect(regex.testBounded(`b${"x".repeat(500_000)}`)).toBe(false);
    expect(regex.testBounded(`a${"x".repeat(500_000)}`)).toBe(false);
    expect(regex.testBounded(`a-${"x".repeat(500_000)}`)).toBe(true);
    expect(compiled("^ab\\b").testBounded(`ax${"x".repeat(500_000)}`)).toBe(false);
    expect(compiled("^ab\\b").testBounded(`xab${"x".repeat(500_000)}`)).toBe(false);
    // Neither a later occurrence of its prefix nor the lack of one starts it again.
    expect(regex.testBounded(`b${"a".repeat(500_000)}`)).toBe(false);
    expect(compiled("^[a]\\b").testBounded(`b${"a".repeat(500_000)}`)).toBe(false);
  });

  it("the upper bound pattern sets use: (length + 1) states, each of at most 11 units an instruction and 4", () => {
    expect(regexWorkUpperBound(1, 0)).toBe(15);
    expect(regexWorkUpperBound(10, 2)).toBe(3 * 114);
    expect(regexWorkUpperBound(402, 89)).toBe(90 * 4426);
    // Within it, testBounded always answers: a{400}b has 402 instructions.
    const regex = compiled("a{400}b");
    expect(regexWorkUpperBound(402, 89)).toBeLessThanOrEqual(REGEX_WORK_BOUND);
    expect(regex.testBounded("a".repeat(89))).toBe(false);
    expect(regexWorkUpperBound(402, 90)).toBeGreaterThan(REGEX_WORK_BOUND);
  });
});

describe("mayMatchTemplate inside an unknown part", () => {
  // Between two characters of the same unknown part the neighbours are unknown too: `\b` and the `m` anchors
  // count as holding there, as they do at its edges (some filling makes them hold: "x-", "a\n").
  const cases: [string, string, (string | null)[], boolean][] = [
    ["x\\b-", "", [null], true],
    ["x\\b-", "", ["x", null], true],
    ["x\\b-", "", ["x-"], true],
    ["x\\b-", "", ["x", "y"], false],
    ["a$\\n", "m", [null], true],
    ["a$\\n", "", [null], false],
    ["\\n^b", "m", [null], true],
    ["\\n^b", "", [null], false],
    // The over-approximation this buys: no filling of one part puts a word edge between x and y.
    ["^x\\by$", "", [null], true],
  ];
  it.each(cases)("/%s/%s on %j is %s", (pattern, flags, template, expected) => {
    expect(compiled(pattern, flags).mayMatchTemplate(template)).toBe(expected);
  });
});

describe("a literal pattern is answered by string methods, with no bound", () => {
  // 400 a's and a b, written out: on the lazy DFA this program gives up after 297 a's (the same program as
  // a{400}b, see regex-vm.test.ts); as a literal it answers on any input.
  const text = `${"a".repeat(400)}b`;
  const astral = `${"\u{1F600}".repeat(400)}b`;
  const cases: [string, string, string, boolean][] = [
    [text, "", "a".repeat(1000), false],
    [text, "", `${"a".repeat(1000)}b`, true],
    [text, "u", "a".repeat(1000), false],
    [`${"a".repeat(200)}(?:)${"a".repeat(200)}b`, "", "a".repeat(1000), false],
    [`${"a".repeat(200)}(?:)${"a".repeat(200)}b`, "", `x${"a".repeat(1000)}bx`, true],
    [`${text}$`, "", "a".repeat(1000), false],
    [`${text}$`, "", `${"a".repeat(1000)}b`, true],
    [`${text}$`, "", `${"a".repeat(1000)}bx`, false],
    [astral, "u", "\u{1F600}".repeat(1000), false],
    [astral, "u", `${"\u{1F600}".repeat(1000)}b`, true],
  ];
  it.each(cases.map(([pattern, flags, input, expected], i) => [i, pattern, flags, input, expected] as const))(
    "literal case %d: testBounded and test answer as RegExp",
    (_, pattern, flags, input, expected) => {
      const regex = compiled(pattern, flags);
      expect(regex.testBounded(input)).toBe(expected);
      expect(regex.test(input)).toBe(expected);
      expect(new RegExp(pattern, flags).test(input)).toBe(expected);
    },
  );

  it("a pattern that only looks like one runs on the lazy DFA, bounded", () => {
    // With flag i, or an item that is not a character, the same program has no short cut.
    expect(compiled(text, "i").testBounded("a".repeat(1000))).toBeUndefined();
    expect(compiled(`${text}[b]`).testBounded("a".repeat(1000))).toBeUndefined();
  });
});

describe("classes whose ranges overlap, nest, touch or repeat", () => {
  // The ranges are merged into a sorted list before the machine searches it: a range inside another, or two that
  // overlap in any order, hold every character of either.
  const patterns: [string, string][] = [
    ["^[a-zb-cd-e]$", ""],
    ["^[d-eb-ca-z]$", ""],
    ["^[a-cb-dx]$", ""],
    ["^[b-da-cx]$", ""],
    ["^[ac-eb]$", ""],
    ["^[\\0a\\0]$", ""],
    ["^[a-a]$", ""],
    ["^[^a-zb-cd-e]$", ""],
    ["^[\\0-\\x60a-z]$", ""],
    ["^[a-zb-cd-e]$", "i"],
    ["^[k-mK]$", "i"],
    ["^[\\w\\d_]$", ""],
    ["^[\\s\\n ]$", ""],
    ["^\\D$", ""],
    ["^\\W$", "i"],
    ["^\\S$", ""],
  ];
  const inputs = [..."\0`abcdefxyz{AKZ019_ \n-/", "\u017f", "\u212a", "\u00e9", "\u2028", "\u{10FFFF}"];
  it.each(patterns)("/%s/%su agrees with RegExp", (pattern, flags) => {
    const regex = compiled(pattern, `${flags}u`);
    const native = new RegExp(pattern, `${flags}u`);
    const wrong = inputs.filter((input) => regex.test(input) !== native.test(input));
    expect(wrong).toEqual([]);
  });
});
