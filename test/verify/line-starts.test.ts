/**
 * How a `regex` is read as the start of a command line (facts.ts `lineStartsRegex`): each case pins what a pattern
 * names, and a property checks the reading against JavaScript's own matching of generated patterns on generated
 * lines — every line the pattern matches starts as one of the starts says.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firstWordStarts, type LineStart, lineStartsRegex } from "../../src/verify/facts.js";
import { lineStartOf, partsWhere } from "../../src/verify/verify-properties.js";

const RUNS = Number(process.env.TOOLGATE_VERIFY_RUNS ?? 200);

const start = (words: string[], more: Partial<LineStart> = {}): LineStart => ({ words, ...more });

const CASES: readonly (readonly [string, readonly LineStart[] | undefined])[] = [
  // A top-level alternative: `^` names only the first one.
  ["^a b|c", undefined],
  ["^a (b)|c", undefined],
  ["^a [(]|b", undefined],
  ["git push", undefined],
  // Inside a group, a class or escaped, `|` is no top-level alternative.
  ["^a (b|c)", [start(["a"], { last: "b" }), start(["a"], { last: "c" })]],
  ["^a [|] b", [start(["a"])]],
  ["^a \\| b", [start(["a"])]],
  ["^a [\\]|] b", [start(["a"])]],
  // A group with something not read in it is not read; the pattern is cut before it.
  ["^a (b.c) d", [start(["a"])]],
  ["^a (?=b) c", [start(["a"])]],
  ["^a (?<n>b) c", [start(["a"])]],
  ["^a (b", [start(["a"])]],
  ["^ab c", [start(["ab"], { last: "c" })]],
  ["^a b c", [start(["a", "b"], { last: "c" })]],
  // Blanks: a tab, a class of blanks, `\s`, repeated spaces separate words, not one space each.
  ["^a\tb", [start(["a"], { last: "b", blanks: true })]],
  ["^a[ \\t]b", [start(["a"], { last: "b", blanks: true })]],
  ["^rm[ \\t]-rf", [start(["rm"], { last: "-rf", blanks: true })]],
  ["^git +push", [start(["git"], { last: "push", blanks: true })]],
  ["^git\\s+push", [start(["git"], { last: "push", blanks: true })]],
  ["^a\\s+b\\s+c$", [start(["a", "b", "c"], { ends: true, blanks: true })]],
  ["^a[xy] b", undefined],
  ["^ x", undefined],
  // Escaped punctuation is itself; other escapes are not read.
  ["^a \\-b", [start(["a"], { last: "-b" })]],
  ["^a \\d b", [start(["a"])]],
  ["^git log. -p", [start(["git"], { last: "log" })]],
  // Quantifiers: optional cuts before the atom, repeated after its first time, exactly once is once.
  ["^git lo{1,2}g x", [start(["git"], { last: "lo" })]],
  ["^a{2} b", undefined],
  ["^a b{1} c", [start(["a", "b"], { last: "c" })]],
  ["^a b{1}? c", [start(["a", "b"], { last: "c" })]],
  ["^a b{1,} c", [start(["a"], { last: "b" })]],
  ["^a b{x} c", [start(["a"])]],
  ["^a b?? c", [start(["a"])]],
  ["^a b+? c", [start(["a"], { last: "b" })]],
  ["^a (b|c)+ d", [start(["a"], { last: "b" }), start(["a"], { last: "c" })]],
  ["^a (b c?|d) e", [start(["a", "b"]), start(["a", "d"], { last: "e" })]],
  // A quote: optional before a word's start (as the verifier writes parts); anywhere else it cuts.
  ["^npm 'install", [start(["npm"])]],
  ["^npm '*install", [start(["npm"])]],
  ["^npm x?y", [start(["npm"])]],
  ["^npm '?install$", [start(["npm"], { last: "install" })]],
  ["^npm x'?y", [start(["npm"], { last: "x" })]],
  ["^npm '?x y", [start(["npm"], { last: "x" })]],
  ["^'?npm x", undefined],
  // `$`: the line ends there.
  ["^$", undefined],
  ["^ls$", [start(["ls"], { ends: true })]],
  // The end after a blank: the words and a blank, not the words alone.
  ["^ls $", [start(["ls"])]],
  ["^a (b|$)", [start(["a"]), start(["a"], { last: "b" })]],
  ["^a (?:b|c)$", [start(["a", "b"], { ends: true }), start(["a", "c"], { ends: true })]],
  ["^()ls x", [start(["ls"], { last: "x" })]],
  // An optional group that starts with a blank, then the end or a blank: the word before it is whole (a group not
  // read, with a class in it, as well as one read).
  ["^git push( [a-z]+)*$", [start(["git", "push"], { ends: true }), start(["git", "push"])]],
  ["^git push( -f)?$", [start(["git", "push"], { ends: true }), start(["git", "push"])]],
  ["^git push( -[a-z])? origin", [start(["git", "push"])]],
  ["^git push(\\s+[a-z]+)*$", [start(["git", "push"], { ends: true }), start(["git", "push"])]],
  ["^git push( [a-z]+| -[a-z])*$", [start(["git", "push"], { ends: true }), start(["git", "push"])]],
  // Followed by something else, or not starting with a blank there: cut before the group, as before.
  ["^git push( [a-z]+)?x", [start(["git"], { last: "push" })]],
  ["^git push( ?[a-z]+)*$", [start(["git"], { last: "push" })]],
  ["^git push([a-z ]+)*$", [start(["git"], { last: "push" })]],
  ["^git push(?= )", [start(["git"], { last: "push" })]],
  // A group not read that is there: the word before it ends with its blank.
  ["^git( [a-z]+)+$", [start(["git"])]],
];

describe("lineStartsRegex", () => {
  it.each(CASES)("%s", (regex, expected) => {
    expect(lineStartsRegex(regex)).toEqual(expected);
  });

  it("expands groups up to 64 alternatives, then cuts before the group", () => {
    const eight = "(a|b|c|d|e|f|g|h)";
    const read = lineStartsRegex(`^${eight}${eight} ${eight} x`);
    expect(read).toHaveLength(64);
    expect(read?.every((s) => s.words.length === 1 && s.words[0]?.length === 2 && s.last === undefined)).toBe(
      true,
    );
    expect(lineStartsRegex(`^${eight}${eight} x`)).toHaveLength(64);
  });

  /** A pattern that matches a line that starts as `s` says (a quote allowed before the last word). */
  function startPattern(s: LineStart): RegExp {
    const literal = (w: string): string => w.replace(/[.+*?()[\]{}|^$\\-]/g, (c) => `\\${c}`);
    const separator = s.blanks === true ? "\\s+" : " ";
    let source = `^${s.words.map(literal).join(separator)}`;
    if (s.ends === true) source += "$";
    else if (s.last !== undefined) source += `${separator}'?${literal(s.last)}`;
    else source += "(?:\\s|$)";
    return new RegExp(source);
  }

  it("every line a pattern matches starts as one of its starts says", () => {
    // Each atom and blank with texts it matches (and a few it does not), so that lines are made to match.
    const ATOMS: Readonly<Record<string, readonly string[]>> = {
      a: ["a", "b"],
      b: ["b"],
      git: ["git", "gti"],
      push: ["push"],
      "-f": ["-f"],
      "(a|b)": ["a", "b"],
      "(?:push|pull)": ["push", "pull"],
      "(a|$)": ["a", ""],
      "[ab]": ["a", "b", "c"],
      ".": ["x", "'", " "],
      ".*": ["", "x y", " "],
      "\\b": [""],
      "\\-": ["-"],
      $: [""],
      "'?": ["'", ""],
      "x?": ["x", ""],
      "(?:\\s|$)": [" ", "\n", ""],
      "( [a-z]+)*": ["", " ab", " a b"],
      "( -f)?": ["", " -f"],
      "(\\s+[a-z]+)?": ["", "  x", "\ty"],
      "( [ab])+": [" a", " a b"],
      "( x|\\ty)*": ["", " x", "\ty x"],
    };
    const BLANKS: Readonly<Record<string, readonly string[]>> = {
      " ": [" "],
      "\\s+": [" ", "\t \n", "  "],
      "\\s": [" ", "\n", "\t"],
      " +": [" ", "   "],
      "\\t": ["\t"],
      "[ \\t]": [" ", "\t"],
      "": [""],
    };
    const keys = fc.array(
      fc.tuple(fc.constantFrom(...Object.keys(ATOMS)), fc.constantFrom(...Object.keys(BLANKS))),
      { minLength: 1, maxLength: 4 },
    );
    // A pattern of those parts, and lines each made of a text of every part, then perhaps more.
    const scenario = keys.chain((pairs) => {
      const line = fc
        .tuple(
          fc.tuple(
            ...pairs.map(([a, b]) =>
              fc.tuple(
                fc.constantFrom(...(ATOMS[a] as string[])),
                fc.constantFrom(...(BLANKS[b] as string[])),
              ),
            ),
          ),
          fc.constantFrom("", " x", "\nls", "'", "a"),
        )
        .map(([texts, suffix]) => texts.map(([t, u]) => t + u).join("") + suffix);
      return fc.tuple(
        fc.constant(`^${pairs.map(([a, b]) => a + b).join("")}`),
        fc.array(line, { maxLength: 6 }),
      );
    });
    let matched = 0;
    fc.assert(
      fc.property(scenario, ([regex, lines]) => {
        let own: RegExp;
        try {
          own = new RegExp(regex);
        } catch {
          return;
        }
        const starts = lineStartsRegex(regex);
        if (starts === undefined) return;
        const patterns = starts.map(startPattern);
        for (const text of lines) {
          if (!own.test(text)) continue;
          matched++;
          expect(
            patterns.some((p) => p.test(text)),
            `${regex} ${JSON.stringify(text)} ${JSON.stringify(starts)}`,
          ).toBe(true);
        }
      }),
      { numRuns: RUNS * 5 },
    );
    expect(matched).toBeGreaterThan(RUNS);
  });
});

describe("lineStartOf and the parts' operator", () => {
  it("writes each start back as a pattern of the part: words, blanks of any kind, the end", () => {
    const written = (regex: string): string =>
      (partsWhere({ command: { regex } }, [["command"]])[0] as { command: { regex: string } }).command.regex;
    expect(written("^git\\s+push")).toBe("^git(?:$|\\s+'?push)");
    expect(written("^git\\s+log\\s+-n$")).toBe("^git(?:$|\\s+log(?:$|\\s+-n$))");
    expect(written("^ls\\s+-l\\s")).toBe("^ls(?:$|\\s+-l(?:$|\\s))");
    expect(written("^a\\s+b$")).toBe("^a(?:$|\\s+b$)");
    expect(written("^npm test$")).toBe("^npm test$");
    expect(written("^rm\\s")).toBe("^rm(?:\\s|$)");
    expect(written("^git push")).toBe("^git '?push");
    expect(written("^git push ")).toBe("^git push(?:\\s|$)");
    // The parts of `git push` alone or with more words: never `git pusha`.
    expect(written("^git push( [a-z]+)*$")).toBe("^(?:git push$|git push(?:\\s|$))");
    expect(written("^(a|b) x")).toBe("^(?:a '?x|b '?x)");
    // Only how the first word starts: written unquoted or in quotes from its start.
    expect(written("^sh")).toBe("^'?sh");
    expect(written("^(rm|sudo)\\b")).toBe("^(?:'?rm|'?sudo)");
    expect(written("^a.b\\+c")).toBe("^'?a");
  });

  it("reads one operator alone, a prefix or a regex, whose every start the parts keep", () => {
    for (const operators of [null, "x", { prefix: 5 }, { equals: "^rm x" }, { prefix: "rm x", regex: "^rm" }])
      expect(lineStartOf(operators), JSON.stringify(operators)).toBeUndefined();
    // Words the parts would not keep as they are: read by how the first word starts.
    for (const operators of [{ prefix: "a =b c" }, { prefix: "a 'b" }, { regex: "^(a =b|a c) d" }])
      expect(
        lineStartOf(operators)?.every((s) => s.words.length === 0 && s.last === "a"),
        JSON.stringify(operators),
      ).toBe(true);
    expect(lineStartOf({ prefix: "a b= c" })).toEqual([{ words: ["a", "b="], last: "c" }]);
    // A prefix or regex that names only the start of the first word; not one that may start a redirection, nor
    // one whose later words the parts would not keep but whose first word they do (read as that first word).
    expect(lineStartOf({ prefix: "python" })).toEqual([{ words: [], last: "python" }]);
    expect(lineStartOf({ regex: "^(sh|rm)\\b" })).toEqual([
      { words: [], last: "sh" },
      { words: [], last: "rm" },
    ]);
    expect(lineStartOf({ prefix: "2" })).toBeUndefined();
    expect(lineStartOf({ regex: "^2>" })).toBeUndefined();
    expect(lineStartOf({ regex: "^=a" })).toBeUndefined();
    expect(lineStartOf({ regex: "^(sh|\\d)" })).toBeUndefined();
  });
});

describe("firstWordStarts", () => {
  it("reads the plain text a prefix or an anchored regex starts with, each alternative's", () => {
    expect(firstWordStarts("prefix", "python -c")).toEqual(["python"]);
    expect(firstWordStarts("prefix", "sh")).toEqual(["sh"]);
    expect(firstWordStarts("regex", "^(rm|sudo|doas)\\b")).toEqual(["rm", "sudo", "doas"]);
    expect(firstWordStarts("regex", "^'?sh")).toEqual(["sh"]);
    expect(firstWordStarts("regex", "^(?:'?rm|'?sudo)")).toEqual(["rm", "sudo"]);
    expect(firstWordStarts("regex", "^git\\s+push")).toEqual(["git"]);
    expect(firstWordStarts("regex", "^a\\.b")).toEqual(["a.b"]);
    // An optional part both ways, a repeated one once (the text ends there), a group's alternatives each.
    expect(firstWordStarts("regex", "^(ba)?sh -c")).toEqual(["bash", "sh"]);
    expect(firstWordStarts("regex", "^(?:/usr/bin/)?(rm|sudo)\\b")).toEqual([
      "/usr/bin/rm",
      "/usr/bin/sudo",
      "rm",
      "sudo",
    ]);
    expect(firstWordStarts("regex", "^a+b")).toEqual(["a"]);
    expect(firstWordStarts("regex", "^rm'?x")).toEqual(["rm"]);
    expect(firstWordStarts("regex", "^(rm|rmdir|r)x")).toEqual(["rmx", "rmdirx", "rx"]);
    expect(firstWordStarts("regex", "^(rm|rmdir)( |$)")).toEqual(["rm"]);
    expect(firstWordStarts("regex", "^(a|b)(c|d)?e")).toEqual(["ace", "ade", "ae", "bce", "bde", "be"]);
    // No text, a digit or `=` first (a redirection, no first word), not anchored, a top-level alternative, not a
    // string, another operator.
    for (const [operator, value] of [
      ["prefix", " ls"],
      ["prefix", "'ls'"],
      ["prefix", "2>/dev/null ls"],
      ["regex", "^=x"],
      ["regex", "^[a-z]"],
      ["regex", "^(a|)"],
      ["regex", "^(ba)?"],
      ["regex", "^(a|b|c|d)(a|b|c|d)(a|b|c|d)(a|b|c|d)x"],
      ["regex", "sh"],
      ["regex", "^sh|x"],
      ["regex", { pattern: "^sh", flags: "i" }],
      ["equals", "sh"],
    ] as const)
      expect(firstWordStarts(operator, value), `${operator} ${JSON.stringify(value)}`).toBeUndefined();
  });
});
