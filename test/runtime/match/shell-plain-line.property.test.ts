import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readPlainLine } from "../../../src/runtime/match/shell/plain-line.js";
import { plainReading, ShellReadMemo } from "../../../src/runtime/match/shell/read-memo.js";
import { readShellCommand } from "../../../src/runtime/match/shell/reader.js";
import { readSafeSubset } from "../../../src/runtime/match/shell/safe-subset.js";

/** Words a plain line may hold, words that make a line not plain, and words either reader treats specially. */
const WORDS = [
  "git",
  "status",
  "--short",
  "--format=%h",
  "ls",
  "src/index.ts",
  "-la",
  "a,b",
  "user@host:path",
  "%1",
  "+x",
  "a=b",
  "=cmd",
  "x=",
  "if",
  "then",
  "fi",
  "time",
  "function",
  "alias",
  "set",
  "setopt",
  "source",
  ".",
  "exec",
  "'q'",
  '"d"',
  "$x",
  "a*",
  "~",
  "a#b",
  "!",
  "{",
  "}",
  "(",
  "x\\y",
  "é",
  "a\u200bb",
];

/** What may stand between words: blanks, operators, and what is not plain. */
const GLUE = [
  " ",
  "  ",
  "\t",
  " && ",
  "&&",
  " || ",
  "||",
  "; ",
  ";",
  " | ",
  "|",
  " & ",
  "&",
  ";;",
  "|&",
  "\n",
  " > ",
  "",
];

/** Lines of any words and glue, and lines mostly of plain ones (so that many are plain). */
function lineOf(words: readonly string[], glue: readonly string[]) {
  return fc
    .tuple(
      fc.constantFrom("", " ", "&& ", ";"),
      fc.array(fc.tuple(fc.constantFrom(...words), fc.constantFrom(...glue)), { minLength: 1, maxLength: 8 }),
    )
    .map(([lead, pairs]) => lead + pairs.map(([word, glue]) => word + glue).join(""));
}

const PLAIN_WORDS = WORDS.slice(0, 12);
const PLAIN_GLUE = GLUE.slice(0, 10);
/** Plain words and glue, ending in a word: mostly plain lines. */
const plainish = fc
  .tuple(lineOf(PLAIN_WORDS, PLAIN_GLUE), fc.constantFrom(...PLAIN_WORDS))
  .map(([start, last]) => start + last);
const line = fc.oneof(lineOf(WORDS, GLUE), plainish, lineOf([...PLAIN_WORDS, "if", "a=b"], GLUE));

describe("plain command lines (plain-line.ts)", () => {
  it("reads a plain line as both readers do, and leaves every other line to them (property)", () => {
    let plainLines = 0;
    fc.assert(
      fc.property(line, (source) => {
        const plain = readPlainLine(source);
        if (plain === undefined) return;
        plainLines++;
        expect(plainReading(plain)).toStrictEqual(readShellCommand(source));
        expect(plain.map((words) => ({ words, redirections: [] }))).toStrictEqual(readSafeSubset(source));
      }),
      { numRuns: 5000 },
    );
    // The generator reaches plain lines often enough for the comparison to mean something.
    expect(plainLines).toBeGreaterThan(250);
  });

  it("the shared read of a policy gives what the readers give, plain line or not (property)", () => {
    const memo = new ShellReadMemo();
    fc.assert(
      fc.property(line, (source) => {
        expect(memo.read(source)).toStrictEqual(readShellCommand(source));
        expect(memo.safeSubset(source)).toStrictEqual(readSafeSubset(source));
      }),
      { numRuns: 3000 },
    );
  });

  it("reads everyday lines in one pass", () => {
    expect(readPlainLine("git status --short && git diff --stat && ls src")).toEqual([
      ["git", "status", "--short"],
      ["git", "diff", "--stat"],
      ["ls", "src"],
    ]);
    expect(readPlainLine("ls -la | wc -l; pwd || true")).toEqual([
      ["ls", "-la"],
      ["wc", "-l"],
      ["pwd"],
      ["true"],
    ]);
    expect(readPlainLine("git log --format=%h -n 5")).toEqual([["git", "log", "--format=%h", "-n", "5"]]);
  });

  it("is not a plain line when a shell could read more into it", () => {
    for (const source of [
      "",
      "   ",
      "ls;",
      "ls &&",
      "&& ls",
      "ls & pwd",
      "ls |& cat",
      "ls;; pwd",
      "a=b ls",
      "=ls",
      "ls =x",
      "if true",
      "time ls",
      "alias ls=rm",
      "set -o noglob",
      "ls\npwd",
      "ls > out",
      "ls 'a b'",
      "ls $HOME",
      "ls *.ts",
      "ls ~",
      "ls é",
      "ls a\u200bb",
    ]) {
      expect(readPlainLine(source), source).toBeUndefined();
    }
  });
});
