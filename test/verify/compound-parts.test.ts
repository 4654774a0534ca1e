/**
 * `never: allow` and `always: deny` with a `where` of one `command` operator are decided without modelling the parts
 * of compound commands (verify-properties.ts, `partsDecide`): a compound command that breaks such a property has a
 * part that breaks it. That rests on what the runtime does, checked here: a `command` operator that may match a
 * compound command may match one of its parts, and each part is a simple command. Then on generated shell policies
 * the verifier's answers are checked against the controller on every command line of a generated set (simple and
 * compound, quoted, with programs that run their arguments): a `holds` is never contradicted, a witness always
 * breaks the property.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bundleParts } from "../../src/bundle/bundle-parts.js";
import { assembleController } from "../../src/runtime/assemble.js";
import { splitCompound } from "../../src/runtime/compound-command.js";
import { compileCondition } from "../../src/runtime/condition.js";
import { applyMode } from "../../src/runtime/mode.js";
import type { PolicyAction } from "../../src/runtime/types.js";
import { AlphabetBuilder } from "../../src/verify/alphabet.js";
import { Automata } from "../../src/verify/automata.js";
import { COMMAND_SEPARATORS } from "../../src/verify/decision-model.js";
import { accepts } from "../../src/verify/dfa.js";
import {
  commandFirstWords,
  commandLinesPattern,
  type LineStart,
  lineStartsRegex,
  plainFirstWord,
} from "../../src/verify/facts.js";
import { SAFE_SUBSET_SUPERSET } from "../../src/verify/field-domain.js";
import { RegexLanguage } from "../../src/verify/regex-language.js";
import {
  laterPartStartOf,
  lineStartOf,
  type Property,
  partLiteral,
  partsDecide,
  partsSchema,
  partsWhere,
  Verifier,
} from "../../src/verify/verify-properties.js";
import { loadFromText } from "./helpers.js";

const RUNS = Number(process.env.TOOLGATE_COMPOUND_RUNS ?? 60);

/** A line start as text: its words, a blank, then the start of the next word (`rm `, `npm test`). */
const textOf = ({ words, last }: LineStart): string => `${words.join(" ")} ${last ?? ""}`;
/** The texts of the starts an operator selects a line by, or undefined. */
const startTexts = (operators: unknown): readonly string[] | undefined => lineStartOf(operators)?.map(textOf);
/** The first word a regex says a line starts with, when it says one. */
const firstWordRegex = (regex: string): string | undefined => {
  const words = new Set(lineStartsRegex(regex)?.map((s) => s.words[0]));
  return words.size === 1 ? [...words][0] : undefined;
};
/** The first word of the line an operator selects by its start, when it names one. */
const firstWordOf = (operators: unknown): string | undefined => {
  const words = new Set(lineStartOf(operators)?.map((s) => s.words[0]));
  return words.size === 1 ? [...words][0] : undefined;
};

const WORDS = [
  "rm",
  "ls",
  "curl",
  "git",
  "status",
  "log",
  "xargs",
  "sh",
  "-c",
  "sudo",
  "env",
  "a",
  "-rf",
  "npm",
];
const MORE_WORDS = [
  ...WORDS,
  "test",
  "time",
  "'rm -rf'",
  '"x y"',
  "./a",
  ">/dev/null",
  "-o",
  "find",
  "-delete",
  "'$x'",
  "'a|b'",
  "2>/dev/null",
];
const OPERATORS = [" ; ", " && ", " || ", " | ", "\n"];

const simple = fc
  .array(fc.constantFrom(...MORE_WORDS), { minLength: 1, maxLength: 3 })
  .map((words) => words.join(" "));
const line = fc
  .tuple(simple, fc.array(fc.tuple(fc.constantFrom(...OPERATORS), simple), { maxLength: 2 }))
  .map(([first, rest]) => first + rest.map(([op, s]) => op + s).join(""));

const PREFIXES = [
  "rm",
  "rm -rf",
  "ls",
  "curl",
  "git status",
  "git log",
  "sh",
  "npm test",
  "xargs",
  "sudo",
  "a",
];
const prefixList = fc.uniqueArray(fc.constantFrom(...PREFIXES), { minLength: 1, maxLength: 3 });

describe("compound commands decided by their parts", () => {
  it("a command operator that may match a compound command may match one of its simple commands", () => {
    let compound = 0;
    fc.assert(
      fc.property(line, prefixList, (text, prefixes) => {
        const split = splitCompound({ c: text }, [["c"]]);
        if (split === undefined) return;
        compound++;
        for (const part of split.parts) expect(splitCompound({ c: part }, [["c"]]), part).toBeUndefined();
        const compiled = compileCondition({ c: { command: prefixes } });
        if (!compiled.ok) throw new TypeError("the condition compiles");
        if (compiled.condition({ c: text }) === 0) return;
        const parts = split.parts.map((part) => compiled.condition({ c: part }));
        expect(
          parts.some((t) => t !== 0),
          `${JSON.stringify(text)} ${JSON.stringify(prefixes)}`,
        ).toBe(true);
      }),
      { numRuns: RUNS * 50 },
    );
    expect(compound).toBeGreaterThan(RUNS * 10);
  });

  it("only a string holding a separator (`;`, `&`, `|`, a newline) is split: the verifier's COMMAND_SEPARATORS", () => {
    const separators = new RegExp(COMMAND_SEPARATORS);
    // Any printable text, words and the characters around separators, with a separator or not.
    const text = fc.oneof(
      line,
      fc.string({ unit: fc.constantFrom(..."ab ;&|\n\\'\"$()<>=-/".split("")), maxLength: 12 }),
    );
    let split = 0;
    fc.assert(
      fc.property(text, (value) => {
        if (splitCompound({ c: value }, [["c"]]) === undefined) return;
        split++;
        expect(separators.test(value), JSON.stringify(value)).toBe(true);
      }),
      { numRuns: RUNS * 50 },
    );
    expect(split).toBeGreaterThan(RUNS * 5);
  });

  it("a command operator is certain only on a string the verifier's superset of the safe subset holds", () => {
    const superset = new RegExp(SAFE_SUBSET_SUPERSET, "u");
    const text = fc.oneof(
      line,
      fc
        .tuple(line, fc.constantFrom("~", "$x", "*", "#", "!", "`a`", "(a)", "{a}", "\\x", '"$"', "é", "\r"))
        .map(([l, odd]) => `${l} ${odd}`),
      fc.string({ unit: fc.constantFrom(..."ls a;&|'\"$~\\\n\t#>".split("")), maxLength: 10 }),
      // Lines that start with a listed prefix (when the list has it), so that certain ones are not rare.
      fc.tuple(fc.constantFrom(...PREFIXES), line).map(([prefix, l]) => `${prefix} ${l}`),
    );
    let certain = 0;
    fc.assert(
      fc.property(text, prefixList, (value, prefixes) => {
        const compiled = compileCondition({ c: { command: prefixes } });
        if (!compiled.ok) throw new TypeError("the condition compiles");
        if (compiled.condition({ c: value }) !== 1) return;
        certain++;
        expect(superset.test(value), JSON.stringify(value)).toBe(true);
      }),
      { numRuns: RUNS * 50 },
    );
    // About one run in sixty is certain (54 of 3,000 here): every simple command starts with a listed prefix.
    expect(certain).toBeGreaterThan(RUNS / 3);
  });

  it("a command operator is certain only where every simple command starts with a prefix's first word", () => {
    // First words spelt in quotes or after redirections, glued operators, line continuations, odd redirections.
    const odd = fc.constantFrom(
      "'ls'",
      "l's'",
      '"git" status',
      "ls''",
      "l\\\ns",
      ">/dev/null ls",
      "2>&1 git status",
      "ls >&2",
      "ls >&1x",
      "ls 2>&1",
      "ls>/dev/null",
      "sh'x'",
      "'rm' -rf a",
      "a\\\n",
      "",
    );
    const text = fc.oneof(
      line,
      fc
        .tuple(odd, fc.constantFrom(...OPERATORS, "&&", "|", ";", "||"), fc.oneof(odd, simple))
        .map(([a, op, b]) => `${a}${op}${b}`),
      fc.string({ unit: fc.constantFrom(..."ls a;&|'\"\\\n\t>12".split("")), maxLength: 10 }),
    );
    let certain = 0;
    const made = new Map<string, Automata>();
    fc.assert(
      fc.property(text, prefixList, (value, prefixes) => {
        const compiled = compileCondition({ c: { command: prefixes } });
        if (!compiled.ok) throw new TypeError("the condition compiles");
        const pattern = commandLinesPattern(commandFirstWords(prefixes) as string[]);
        const lines = new RegExp(pattern, "u");
        // The engine's automaton of the pattern reads the value as the regex does.
        let automata = made.get(pattern);
        if (automata === undefined) {
          const builder = new AlphabetBuilder();
          RegexLanguage.parse(pattern, "u")?.addBoundaries(builder);
          automata = new Automata(builder.build());
          made.set(pattern, automata);
        }
        const dfa = automata.pattern(pattern, "u");
        expect(accepts(dfa, automata.alphabet.symbols(value)), JSON.stringify(value)).toBe(lines.test(value));
        if (compiled.condition({ c: value }) !== 1) return;
        certain++;
        expect(lines.test(value), `${JSON.stringify(value)} ${JSON.stringify(prefixes)}`).toBe(true);
      }),
      { numRuns: RUNS * 50 },
    );
    expect(certain).toBeGreaterThan(RUNS / 5);
    // What it leaves out: a simple command of another first word, wherever it stands.
    const lines = new RegExp(commandLinesPattern(["ls", "git"]), "u");
    for (const value of ["sh", "ls | sh", "ls&&sh", "git status\nsh", "ls >&x", "lsx", "ls; 'x'y"])
      expect(lines.test(value), JSON.stringify(value)).toBe(value === "ls; 'x'y");
    expect(commandFirstWords(["ls", { prefix: "git log", options: ["-n"] }])).toEqual(["ls", "git"]);
    for (const list of [[], [""], ["ls", 3], "ls"])
      expect(commandFirstWords(list), JSON.stringify(list)).toBeUndefined();
  });

  it("a regex of a separator, blanks and a text selects a line whose part after the separator starts with it", () => {
    const patterns = [
      "\\| *sh",
      "\\|\\s*sh",
      ";\\s*rm(\\s|$)",
      "&&\\s*curl",
      "curl.*\\|\\s*sh",
      "[;&|]\\s*git",
      "\\|\\| *npm",
      "\\|sh ",
      "^sh",
      "^rm(?:\\s|$)",
      "\\| *a\\.b",
      "\\|\\s*(ba)?sh",
      "[;&]\\s*(rm|curl)(\\s|$)",
      "^(cu|s)",
      "\\n *git",
      "\\n\\s*sh",
      "\\|\\s*(ba)?sh\\b",
      "^sh\\b",
    ];
    const tails = fc.constantFrom(
      "sh",
      "sh -c x",
      "shx",
      "sh-x",
      "bash.y z",
      "'sh x'",
      "rm",
      "rm -rf a",
      "curl a",
      "git status",
      "npm test",
      "a.b",
    );
    const joined = fc
      .tuple(
        fc.oneof(line, tails),
        fc.constantFrom(" | ", "|", " || ", " && ", "; ", ";", "\n", " |\n ", " '| ", "&"),
        tails,
      )
      .map(([a, op, b]) => `${a}${op}${b}`);
    let compound = 0;
    fc.assert(
      fc.property(fc.oneof(line, joined, tails), fc.constantFrom(...patterns), (text, regex) => {
        const read = laterPartStartOf({ regex });
        expect(read, regex).toBeDefined();
        const whole = compileCondition({ c: { regex } });
        if (!whole.ok) throw new TypeError("the condition compiles");
        if (whole.condition({ c: text }) !== 1) return;
        const wheres = partsWhere({ command: { regex } }, [["command"]]) as { command: { regex: string } }[];
        const tests = wheres.map((w) => new RegExp(w.command.regex));
        const split = splitCompound({ c: text }, [["c"]]);
        const parts = split === undefined ? [text] : split.parts;
        if (split !== undefined) compound++;
        expect(
          parts.some((part) => tests.some((t) => t.test(part))),
          `${JSON.stringify(text)} ${regex} ${JSON.stringify(parts)}`,
        ).toBe(true);
      }),
      { numRuns: RUNS * 50 },
    );
    expect(compound).toBeGreaterThan(RUNS / 2);
    expect(laterPartStartOf({ regex: "\\| *sh" })).toEqual({
      run: "(?:\\| *)(?:sh)",
      text: "sh",
      end: false,
    });
    expect(laterPartStartOf({ regex: "^sh\\s" })).toEqual({ text: "sh", end: true });
    expect(laterPartStartOf({ regex: "\\|\\s*(ba)?sh(\\s|$)" })).toEqual({
      run: "(?:\\|\\s*)(?:(ba)?sh)(?:\\s|$)",
      text: "(ba)?sh",
      end: true,
    });
    // Not a separator before the text, a text that may be digits alone (a descriptor) or reads other characters
    // than a word's, an alternative of the whole: not read.
    for (const regex of [
      "a *sh",
      "\\| *2",
      "\\| *[0-9]+",
      "\\| *(a)?2",
      "\\| *s.",
      "\\| *s[^x]",
      "\\| *s'h",
      "x|\\| *sh",
      "\\|\\s*",
      "^",
      "sh",
      "^(a|$)",
    ])
      expect(laterPartStartOf({ regex }), regex).toBeUndefined();
    expect(laterPartStartOf({ prefix: "| sh" })).toBeUndefined();
    expect(laterPartStartOf({ regex: { pattern: "\\| *sh" } })).toBeUndefined();
  });

  it("a regex of a fixed text that selects a compound command selects the simple command holding it", () => {
    const literals = ["rm", "$", "$x", "sudo", "-rf", "/dev/null", "2", "a|b", "x", "'"];
    let compound = 0;
    fc.assert(
      fc.property(line, fc.constantFrom(...literals), (text, literal) => {
        const regex = literal.replace(/[$|]/g, (c) => `\\${c}`);
        const read = partLiteral(regex);
        if (read === undefined) return;
        expect(read).toBe(literal);
        const split = splitCompound({ c: text }, [["c"]]);
        if (split === undefined || !text.includes(literal)) return;
        compound++;
        expect(
          split.parts.some((part) => part.includes(literal)),
          `${JSON.stringify(text)} ${literal}`,
        ).toBe(true);
      }),
      { numRuns: RUNS * 50 },
    );
    expect(compound).toBeGreaterThan(RUNS);
  });

  it("a command line that starts with plain words has a first part the parts' operator selects", () => {
    const starts = [
      "rm ",
      "ls ",
      "git ",
      "sudo ",
      "a ",
      "./a ",
      "npm test",
      "npm te",
      "git status ",
      "rm -",
      "rm -rf",
      "git log --",
    ];
    // Lines whose words go on in quotes right after the start (`npm test'a b'`), which the runtime writes quoted.
    const quoted = fc
      .tuple(
        fc.constantFrom("npm test", "rm -rf", "git status", "rm -", "git log --"),
        fc.constantFrom("'a b'", '"x"', "'it''s'", "", "x"),
        fc.constantFrom(" ; ls", " && rm a", " | sh", "\nls", ""),
      )
      .map(([a, b, c]) => a + b + c);
    let compound = 0;
    fc.assert(
      fc.property(
        fc.oneof(line, quoted),
        fc.constantFrom(...starts),
        fc.boolean(),
        (text, start, asRegex) => {
          const operator =
            asRegex && !/[.+]/.test(start) ? { regex: `^${start.replace(/-/g, "\\-")}` } : { prefix: start };
          expect(startTexts(operator), JSON.stringify(operator)).toEqual([start]);
          if (!text.startsWith(start)) return;
          const [where] = partsWhere({ command: operator }, [["command"]]) as [
            { command: { regex: string } },
          ];
          expect(firstWordRegex(where.command.regex)).toBe(start.split(" ")[0]);
          const first = compileCondition({ c: where.command });
          if (!first.ok) throw new TypeError("the condition compiles");
          // The whole line is selected as the operator selects it, and so is its first part.
          expect(first.condition({ c: text }), text).toBe(1);
          const split = splitCompound({ c: text }, [["c"]]);
          if (split === undefined) return;
          compound++;
          expect(first.condition({ c: split.parts[0] as string }), `${JSON.stringify(text)} ${start}`).toBe(
            1,
          );
        },
      ),
      { numRuns: RUNS * 50 },
    );
    expect(compound).toBeGreaterThan(RUNS / 2);
  });

  it("a regex that names a line's start selects lines whose first part the parts' operator selects", () => {
    // Alternatives, blanks of any kind and number between words, `$`, and patterns read only by their start.
    const regexes = [
      "^git\\s+(status|log)\\b",
      "^(rm|ls)\\s",
      "^(?:rm|sudo) +-",
      "^git log.* -n",
      "^npm (test|te)$",
      "^git\\s+log\\s+-n$",
      "^(curl|sh|xargs) ",
      "^rm\\t-rf",
      "^rm\\s+-rf\\s",
      "^git  status",
      "^a(?:\\s|$)",
      "^ls (-l|-a)+",
      // Only how the first word starts.
      "^(rm|sudo|doas)\\b",
      "^sh",
      "^l",
      "^r",
    ];
    // Lines with blanks of other kinds and numbers between the words.
    const spaced = fc
      .tuple(
        fc.oneof(
          fc.constantFrom(
            ["git", "log", "-n"],
            ["git", "status"],
            ["rm", "-rf", "a"],
            ["npm", "test"],
            ["ls", "-l"],
          ),
          fc.array(
            fc.constantFrom(
              "git",
              "log",
              "status",
              "-n",
              "rm",
              "-rf",
              "npm",
              "test",
              "ls",
              "-l",
              "'x y'",
              "rm'a b'",
              "'ls'x",
              "l's'",
            ),
            {
              minLength: 1,
              maxLength: 3,
            },
          ),
        ),
        fc.array(fc.constantFrom(" ", "  ", "\t", "\n", " \n "), { minLength: 2, maxLength: 2 }),
        fc.constantFrom(" ; ls", " && rm a", "\nls", ""),
      )
      .map(
        ([words, blanks, rest]) =>
          words.map((w, i) => (i === 0 ? w : `${blanks[i % 2]}${w}`)).join("") + rest,
      );
    let selected = 0;
    fc.assert(
      fc.property(fc.oneof(line, spaced), fc.constantFrom(...regexes), (text, regex) => {
        const own = compileCondition({ c: { regex } });
        const [where] = partsWhere({ command: { regex } }, [["command"]]) as [{ command: unknown }];
        const parts = compileCondition({ c: where.command });
        if (!own.ok || !parts.ok) throw new TypeError("the conditions compile");
        if (own.condition({ c: text }) !== 1) return;
        selected++;
        // Every whole string the regex selects, and the first part of each compound command it selects.
        expect(parts.condition({ c: text }), `${JSON.stringify(text)} ${regex}`).toBe(1);
        const split = splitCompound({ c: text }, [["c"]]);
        if (split === undefined) return;
        expect(
          parts.condition({ c: split.parts[0] as string }),
          `${JSON.stringify(text)} ${JSON.stringify(split.parts)} ${regex}`,
        ).toBe(1);
      }),
      { numRuns: RUNS * 100 },
    );
    expect(selected).toBeGreaterThan(RUNS);
  });

  it("a command line whose first word is plain is certain for a list only when a prefix's first word meets it", () => {
    // First words the runtime may read as another program (case, versions, paths) among the usual ones.
    const odd = fc
      .tuple(
        fc.constantFrom("LS", "ls2", "/bin/ls", "./ls", "Rm", "rm.exe", "git-status", "sudo", "time", "A=1"),
        fc.constantFrom("", " a", " status", " -la", " && ls", " ; git status"),
      )
      .map(([w, rest]) => w + rest);
    let certain = 0;
    fc.assert(
      fc.property(fc.oneof(line, odd), prefixList, (text, prefixes) => {
        const word = /^([^\s;&|]+)(?:\s|$)/.exec(text)?.[1];
        if (word === undefined || !plainFirstWord(word)) return;
        const compiled = compileCondition({ c: { command: prefixes } });
        if (!compiled.ok) throw new TypeError("the condition compiles");
        if (compiled.condition({ c: text }) !== 1) return;
        certain++;
        const firsts = prefixes.map((p) => (p.split(" ")[0] as string).toLowerCase());
        const w = word.toLowerCase();
        expect(
          firsts.some((f) => w.includes(f) || f.includes(w)),
          `${JSON.stringify(text)} ${JSON.stringify(prefixes)}`,
        ).toBe(true);
      }),
      { numRuns: RUNS * 50 },
    );
    expect(certain).toBeGreaterThan(RUNS / 5);
  });

  it("reads the first word of a prefix or anchored regex, and writes it back as a regex the facts know", () => {
    expect(firstWordOf({ prefix: "rm " })).toBe("rm");
    expect(firstWordOf({ prefix: "npm install" })).toBe("npm");
    expect(firstWordOf({ regex: "^rm\\s" })).toBe("rm");
    expect(firstWordOf({ regex: "^rm[ \\t]" })).toBe("rm");
    // A word alone may continue (`rmdir`), a pattern's `.` is any character, reserved words and assignments start
    // no plain command, a regex not anchored may match anywhere, flags are not read.
    for (const operators of [
      { prefix: "rm" },
      { regex: "^rm" },
      { regex: "^a.b " },
      { prefix: "time ls" },
      { prefix: "if x" },
      { prefix: "A=1 ls" },
      { prefix: "'rm' x" },
      { regex: "rm " },
      { regex: { pattern: "^rm ", flags: "i" } },
      { prefix: "rm ", regex: "x" },
      { command: ["rm"] },
    ])
      expect(firstWordOf(operators), JSON.stringify(operators)).toBeUndefined();
    const [where] = partsWhere({ command: { prefix: "a.b+c " }, cwd: { prefix: "rm " } }, [["command"]]) as [
      { command: { regex: string }; cwd: unknown },
    ];
    expect(where.cwd).toEqual({ prefix: "rm " });
    expect(firstWordRegex(where.command.regex)).toBe("a.b+c");
    const compiled = compileCondition({ c: where.command });
    if (!compiled.ok) throw new TypeError("the condition compiles");
    expect(["a.b+c", "a.b+c x", "a.b+c\tx"].map((c) => compiled.condition({ c }))).toEqual([1, 1, 1]);
    expect(["a.b+cx", "aXb+c", "a.bbc x", " a.b+c"].map((c) => compiled.condition({ c }))).toEqual([
      0, 0, 0, 0,
    ]);
    expect(firstWordRegex("^time(?:\\s|$)")).toBeUndefined();
    expect(firstWordRegex("^npm '?install")).toBe("npm");
    // An optional blank, a top-level alternative or a repeated blank that may be none says nothing of where the
    // line starts; alternatives inside a group are each a start.
    for (const regex of ["^npm ?x", "^npm x|y", "^npm *x", "^(npm|x)", "^npm\\s*x"])
      expect(firstWordRegex(regex), regex).toBeUndefined();
    expect(lineStartsRegex("^npm x(?:a|b)")).toEqual([
      { words: ["npm"], last: "xa" },
      { words: ["npm"], last: "xb" },
    ]);
    expect(startTexts({ prefix: "npm install" })).toEqual(["npm install"]);
    expect(startTexts({ regex: "^git push" })).toEqual(["git push"]);
    expect(startTexts({ regex: "^rm \\-rf" })).toEqual(["rm -rf"]);
    expect(startTexts({ regex: "^git\\s+(push|commit)" })).toEqual(["git push", "git commit"]);
    expect(startTexts({ regex: "^(curl|wget)[ \\t]" })).toEqual(["curl ", "wget "]);
    expect(lineStartOf({ regex: "^npm test$" })).toEqual([{ words: ["npm", "test"], ends: true }]);
    // A pattern read only by its start (`.`, an optional word) selects lines by more: its start selects them all.
    expect(startTexts({ regex: "^git log.* -p" })).toEqual(["git log"]);
    expect(startTexts({ regex: "^git push( -f)?" })).toEqual(["git push"]);
    expect(startTexts({ regex: "^git \\*" })).toEqual(["git "]);
    expect(lineStartOf({ regex: "^git\\s+push" })).toEqual([{ words: ["git"], last: "push", blanks: true }]);
    for (const operators of [{ regex: "^ *git " }, { regex: "^.git " }, { regex: "^(git|'x') " }])
      expect(lineStartOf(operators), JSON.stringify(operators)).toBeUndefined();
    // Read by how the first word starts alone: later words the parts do not keep as they are, or glued.
    for (const operators of [{ prefix: "npm  install" }, { prefix: "npm 'i'" }, { regex: "^npm\\s*install" }])
      expect(lineStartOf(operators), JSON.stringify(operators)).toEqual([{ words: [], last: "npm" }]);
    const [words] = partsWhere({ command: { prefix: "git push origin" } }, [["command"]]) as [
      { command: { regex: string } },
    ];
    const parts = compileCondition({ c: words.command });
    if (!parts.ok) throw new TypeError("the condition compiles");
    expect(
      ["git push origin", "git push 'origin x'", "git push originals"].map((c) => parts.condition({ c })),
    ).toEqual([1, 1, 1]);
    expect(["git push", "git  push origin", "git pull origin"].map((c) => parts.condition({ c }))).toEqual([
      0, 0, 0,
    ]);
    // `$` then more text matches nothing; read as a line that ends, which holds that.
    expect(lineStartsRegex("^rm(?:\\s|$)x")).toEqual([
      { words: ["rm"], ends: true },
      { words: ["rm"], last: "x", blanks: true },
    ]);
    expect(partsWhere(undefined, [["command"]])).toEqual([undefined]);
  });

  it("a compound command whose every part a command operator certainly matches is certainly matched whole", () => {
    const covered = fc.constantFrom(
      "ls",
      "ls a",
      "pwd",
      "git status",
      "git log --oneline",
      "npm test",
      "a b",
      "git",
    );
    const compound = fc
      .tuple(
        covered,
        fc.array(fc.tuple(fc.constantFrom(...OPERATORS), covered), { minLength: 1, maxLength: 2 }),
      )
      .map(([first, rest]) => first + rest.map(([op, s]) => op + s).join(""));
    let certain = 0;
    fc.assert(
      fc.property(compound, prefixList, (text, prefixes) => {
        const split = splitCompound({ c: text }, [["c"]]);
        if (split === undefined) return;
        const compiled = compileCondition({ c: { command: prefixes } });
        if (!compiled.ok) throw new TypeError("the condition compiles");
        if (!split.parts.every((part) => compiled.condition({ c: part }) === 1)) return;
        certain++;
        expect(compiled.condition({ c: text }), `${JSON.stringify(text)} ${JSON.stringify(prefixes)}`).toBe(
          1,
        );
      }),
      { numRuns: RUNS * 50 },
    );
    // About one run in fifty makes every part certain (57 to 67 of 3,000 here): enough to make the clause real.
    expect(certain).toBeGreaterThan(RUNS / 3);
  });

  it("drops the command fields' lengths for the parts, only where the fields say nothing else of their text", () => {
    const schema = {
      type: "object",
      properties: {
        command: { type: "string", minLength: 1, maxLength: 10, description: "a line" },
        job: { type: "object", properties: { script: { type: "string", maxLength: 5 } } },
        cwd: { type: "string", maxLength: 3 },
      },
    };
    expect(partsSchema(schema, [["command"], ["job", "script"]])).toEqual({
      type: "object",
      properties: {
        command: { type: "string", description: "a line" },
        job: { type: "object", properties: { script: { type: "string" } } },
        cwd: { type: "string", maxLength: 3 },
      },
    });
    expect(partsSchema(schema, [])).toEqual(schema);
    // A pattern, a format or an enum says something of a part's text; a field not declared is not known.
    for (const field of [
      { type: "string", pattern: "^a" },
      { type: "string", format: "uri" },
      { enum: ["a"] },
    ])
      expect(partsSchema({ type: "object", properties: { command: field } }, [["command"]])).toBeUndefined();
    expect(partsSchema(schema, [["missing"]])).toBeUndefined();
    expect(partsSchema(schema, [["job", "missing"]])).toBeUndefined();
    expect(partsSchema({ type: "object" }, [["command"]])).toBeUndefined();
    expect(
      partsSchema({ type: "object", properties: { command: true } } as never, [["command"]]),
    ).toBeUndefined();
  });

  it("applies only to never allow and always deny on a plain command field", () => {
    const schema = {
      type: "object",
      properties: { command: { type: "string", maxLength: 10 }, cwd: { type: "string" } },
    };
    const property = (p: Partial<Property>): Property => ({
      id: "p",
      tools: ["shell"],
      kind: "never",
      action: "allow",
      ...p,
    });
    const paths = [["command"]];
    expect(partsDecide(property({ where: { command: { command: ["rm"] } } }), schema, paths)).toBe(true);
    expect(partsDecide(property({ kind: "always", action: "deny" }), schema, paths)).toBe(true);
    expect(partsDecide(property({ where: { cwd: { equals: "a" } } }), schema, paths)).toBe(true);
    expect(partsDecide(property({ kind: "never", action: "deny" }), schema, paths)).toBe(false);
    expect(partsDecide(property({ kind: "always", action: "allow" }), schema, paths)).toBe(false);
    expect(partsDecide(property({ kind: "never", action: "ask" }), schema, paths)).toBe(false);
    // A regex of a fixed text that stays in one word: the part holding it is selected too.
    expect(partsDecide(property({ where: { command: { regex: "rm" } } }), schema, paths)).toBe(true);
    expect(partsDecide(property({ where: { command: { regex: "\\$" } } }), schema, paths)).toBe(true);
    for (const regex of ["^.rm +x", "rm -rf", "a|b", "a'b", "[$]", "\\d", "", "a>b", "\\| *2"])
      expect(partsDecide(property({ where: { command: { regex } } }), schema, paths), regex).toBe(false);
    // A line's start or a later part's start: the part that starts with the text is selected.
    for (const regex of ["^rm", "^rm +x", "^(rm|mv)\\s", "a;b", "\\| *sh", "&&\\s*curl(\\s|$)"])
      expect(partsDecide(property({ where: { command: { regex } } }), schema, paths), regex).toBe(true);
    expect(
      partsDecide(property({ where: { command: { regex: { pattern: "rm", flags: "i" } } } }), schema, paths),
    ).toBe(false);
    expect(partsDecide(property({ where: { command: { not: { command: ["ls"] } } } }), schema, paths)).toBe(
      true,
    );
    expect(partsDecide(property({ where: { command: { not: { regex: "ls" } } } }), schema, paths)).toBe(
      false,
    );
    expect(
      partsDecide(property({ where: { command: { not: { command: ["ls"], regex: "a" } } } }), schema, paths),
    ).toBe(false);
    expect(
      partsDecide(property({ where: { command: { command: ["rm"], prefix: "rm" } } }), schema, paths),
    ).toBe(false);
    expect(partsDecide(property({ where: { command: { prefix: "rm " } } }), schema, paths)).toBe(true);
    expect(partsDecide(property({ where: { command: { regex: "^rm " } } }), schema, paths)).toBe(true);
    // The start of the first word alone: the first part's first word starts with it.
    expect(partsDecide(property({ where: { command: { prefix: "rm" } } }), schema, paths)).toBe(true);
    expect(partsDecide(property({ where: { command: { prefix: "2" } } }), schema, paths)).toBe(false);
    const patterned = { type: "object", properties: { command: { type: "string", pattern: "^[a-z ]*$" } } };
    expect(partsDecide(property({}), patterned, paths)).toBe(false);
    expect(partsDecide(property({}), schema, [])).toBe(false);
    expect(partsDecide(property({}), schema, [["command"], ["cwd"]])).toBe(false);
  });

  const TOOLS = `tools:
  - name: shell
    description: Run a shell command.
    input_schema:
      type: object
      properties:
        command: { type: string, minLength: 1, maxLength: 200 }
      required: [command]
      additionalProperties: false
`;

  const rule = fc.record({
    decision: fc.constantFrom("allow", "ask", "deny"),
    prefixes: prefixList,
    regex: fc.option(fc.constantFrom("^ls$", "sudo", "&&", "-o"), { nil: undefined }),
  });
  const scenario = fc.record({
    rules: fc.array(rule, { minLength: 1, maxLength: 4 }),
    otherwise: fc.option(fc.constantFrom("allow", "ask", "deny"), { nil: undefined }),
    properties: fc.array(
      fc.record({
        kind: fc.constantFrom("never-allow", "always-deny", "never-deny", "always-allow"),
        where: fc.option(prefixList, { nil: undefined }),
        negated: fc.boolean(),
        literal: fc.option(fc.constantFrom("rm", "\\$", "sudo", "-rf", "curl"), { nil: undefined }),
        first: fc.option(
          fc.constantFrom(
            { prefix: "rm " },
            { regex: "^rm " },
            { prefix: "ls " },
            { regex: "^git\\s" },
            { prefix: "sudo " },
            { prefix: "npm test" },
            { prefix: "a " },
            { regex: "^git status" },
            { prefix: "rm -r" },
            { prefix: "git log " },
            { regex: "\\| *sh" },
            { regex: "&&\\s*rm(\\s|$)" },
            { regex: ";\\s*curl" },
            { regex: "^cu" },
            { regex: "[;|]\\s*git" },
            { regex: "\\|\\s*(ba)?sh" },
            { regex: "(;|&&)\\s*(rm|curl)(\\s|$)" },
            { regex: "^git (status|log)" },
            { regex: "^(rm|curl)\\s" },
            { regex: "^git\\s+(push|status)\\b" },
            { regex: "^ls$" },
            { regex: "^git log.* -n" },
            { regex: "^(?:sudo|a) +rm" },
            { regex: "\\|\\s*(ba)?sh\\b" },
            { regex: "^rm\\b" },
          ),
          { nil: undefined },
        ),
      }),
      { minLength: 1, maxLength: 3 },
    ),
  });

  function policyOf(s: {
    rules: readonly { decision: string; prefixes: readonly string[]; regex?: string | undefined }[];
    otherwise?: string | undefined;
  }): string {
    const rules = s.rules
      .map((r, i) => {
        const when =
          r.regex === undefined || i % 2 === 0
            ? `command: { command: ${JSON.stringify(r.prefixes)} }`
            : `command: { regex: ${JSON.stringify(r.regex)} }`;
        return `  - id: r${i}\n    tools: [shell]\n    decision: ${r.decision}\n    when:\n      ${when}\n    reason: rule ${i}\n`;
      })
      .join("");
    const otherwise =
      s.otherwise === undefined
        ? ""
        : `otherwise:\n  shell:\n    decision: ${s.otherwise}\n    reason: fallback\n`;
    return `version: 1\n${otherwise}rules:\n${rules}`;
  }

  it("never says holds where a command line breaks the property; every witness breaks it", () => {
    const lines = fc.sample(line, { numRuns: 1500, seed: 7 });
    lines.push(
      "ls && curl",
      "git status curl",
      "ls; rm -rf a",
      "xargs rm",
      "a rm",
      "rm",
      "curl | sh",
      "ls",
      "ls '$x' && ls",
      "ls; echo '$'",
      "ls 'a$b'",
      "ls | curl",
      "ls '| sh'",
      "ls && rm",
      "ls ; curl x",
      "curl; curl",
      "ls|git status",
      "git status | git log",
    );
    let decided = 0;
    fc.assert(
      fc.property(scenario, (s) => {
        let loaded: ReturnType<typeof loadFromText>;
        try {
          loaded = loadFromText(TOOLS, policyOf(s));
        } catch {
          return;
        }
        const { bundle, validators } = loaded;
        const controller = assembleController(bundleParts(bundle, validators), {
          handlers: { shell: () => 1 },
        });
        const decide = (command: string): PolicyAction | "invalid" => {
          const explained = controller.explain(
            { callId: "c", toolName: "shell", arguments: { command } },
            {},
          );
          if ("callId" in explained) return "invalid";
          return applyMode(explained.decision, bundle.mode).decision.action;
        };
        const properties: Property[] = s.properties.map((p, i) => ({
          id: `p${i}`,
          tools: ["shell"],
          ...(p.first !== undefined
            ? { where: { command: p.first } }
            : p.literal !== undefined
              ? { where: { command: { regex: p.literal } } }
              : p.where === undefined
                ? {}
                : { where: { command: p.negated ? { not: { command: p.where } } : { command: p.where } } }),
          kind: p.kind.startsWith("never") ? "never" : "always",
          action: p.kind.endsWith("allow") ? "allow" : "deny",
        }));
        const results = new Verifier(bundle, validators).verify(properties);
        results.forEach((result, i) => {
          const property = properties[i] as Property;
          const selects = (command: string) => {
            if (property.where === undefined) return true;
            const compiled = compileCondition(property.where);
            return compiled.ok && compiled.condition({ command }) !== 0;
          };
          const breaks = (command: string) => {
            const d = decide(command);
            if (d === "invalid" || !selects(command)) return false;
            return property.kind === "never" ? d === property.action : d !== property.action;
          };
          if (result.status === "holds") {
            decided++;
            for (const l of lines)
              expect(breaks(l), `${l} breaks ${JSON.stringify(property)} under\n${policyOf(s)}`).toBe(false);
          }
          if (result.status === "fails") {
            decided++;
            const command = (result.witness?.arguments as { command?: string } | undefined)?.command ?? "";
            expect(breaks(command), `${command}: ${JSON.stringify(property)}\n${policyOf(s)}`).toBe(true);
          }
        });
      }),
      { numRuns: RUNS },
    );
    expect(decided).toBeGreaterThan(RUNS / 2);
  });
});
