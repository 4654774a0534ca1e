/**
 * How a `regex` that selects a command line by a later simple command is read (verify-properties.ts,
 * `laterPartStartOf`, `partsWhere`): which patterns are read so, and the operators the parts are searched with.
 * Soundness against the runtime is checked in compound-parts.test.ts; here each rule of the reading has a case.
 */
import { describe, expect, it } from "vitest";
import { laterPartStartOf, partsWhere } from "../../src/verify/verify-properties.js";

const read = (regex: unknown) => laterPartStartOf({ regex });

describe("laterPartStartOf", () => {
  it("reads each separator character, alone or repeated, before blanks and a word's start", () => {
    for (const [regex, run] of [
      [";\\s*rm", "(?:;\\s*)(?:rm)"],
      ["& *rm", "(?:& *)(?:rm)"],
      ["\\| *rm", "(?:\\| *)(?:rm)"],
      ["\\n *rm", "(?:\\n *)(?:rm)"],
      // The longest end of separators (a quoted match is held whole by its part).
      ["\\|\\|rm", "(?:\\|\\|)(?:rm)"],
      ["&&\\s*rm", "(?:&&\\s*)(?:rm)"],
      ["[;|] *rm", "(?:[;|] *)(?:rm)"],
      ["(?:;|&&)\\s*rm", "(?:(?:;|&&)\\s*)(?:rm)"],
    ] as const)
      expect(read(regex), regex).toEqual({ run, text: "rm", end: false });
  });

  it("keeps only the separator, blanks and word of the pattern in the run (what precedes may be anything)", () => {
    expect(read("curl.*\\|\\s*sh")).toEqual({ run: "(?:\\|\\s*)(?:sh)", text: "sh", end: false });
    expect(read("a;b")).toEqual({ run: "(?:;)(?:b)", text: "b", end: false });
  });

  it("compares the pattern's pieces without the offsets the parser notes (a quantifier in the word)", () => {
    expect(read("\\| *s+h")).toEqual({ run: "(?:\\| *)(?:s+h)", text: "s+h", end: false });
    expect(read("^s+h")).toEqual({ text: "s+h", end: false });
  });

  it("reads a word end after the word in the forms people write, as blank or end", () => {
    for (const end of ["(?:\\s|$)", "(\\s|$)", "(?: |$)", "( |$)", "\\s", " "]) {
      expect(read(`\\| *sh${end}`), end).toEqual({ run: "(?:\\| *)(?:sh)(?:\\s|$)", text: "sh", end: true });
      expect(read(`^sh${end}`), end).toEqual({ text: "sh", end: true });
    }
  });

  it("reads a word boundary last as nothing: the word may go on (`sh-x` has one after `sh`)", () => {
    expect(read("\\|\\s*(ba)?sh\\b")).toEqual({ run: "(?:\\|\\s*)(?:(ba)?sh)", text: "(ba)?sh", end: false });
    expect(read("^sh\\b")).toEqual({ text: "sh", end: false });
    // An escaped backslash then `b` is text, not a boundary; a boundary after a word end is not read.
    for (const regex of ["\\| *sh\\\\b", "\\| *sh(\\s|$)\\b", "\\b"])
      expect(read(regex), regex).toBeUndefined();
  });

  it("refuses a pattern whose separators may read nothing, or something other than a separator", () => {
    for (const regex of [
      "\\s*sh",
      "(?:;)? *sh",
      "(?:;|) *sh",
      "[^a] *sh",
      "[;a] *sh",
      "(?:;|$) *sh",
      "x *sh",
      "; x *sh",
    ])
      expect(read(regex), regex).toBeUndefined();
  });

  it("refuses a word that may be digits alone, read nothing, or hold other characters than a word's", () => {
    for (const regex of [
      "\\| *0",
      "\\| *9",
      "\\| *[0-9]",
      "\\| *s*",
      "\\| *s?",
      "\\| *s'h",
      "\\| *s\\bx",
      "\\| *0\\b",
      "^0",
      "^",
    ])
      expect(read(regex), regex).toBeUndefined();
    for (const regex of ["\\| *0a", "\\| *a9", "\\| *(ba)?sh", "\\| *[a-z]x", "\\| *a\\.b"])
      expect(read(regex), regex).toBeDefined();
  });

  it("reads only one `regex` string, whole", () => {
    for (const operators of [
      null,
      "x",
      3,
      {},
      { regex: 3 },
      { regex: "\\| *sh", prefix: "a" },
      { glob: "\\| *sh" },
    ])
      expect(laterPartStartOf(operators), JSON.stringify(operators)).toBeUndefined();
    for (const regex of ["\\| *sh(", "s", "x|\\| *sh", { pattern: "\\| *sh" }])
      expect(read(regex)).toBeUndefined();
  });
});

describe("partsWhere for a later part", () => {
  it("searches the parts that hold the run or start with the word, the word end kept", () => {
    expect(partsWhere({ command: { regex: "\\| *sh(\\s|$)" }, cwd: { equals: "a" } }, [["command"]])).toEqual(
      [
        { command: { regex: "(?:\\| *)(?:sh)(?:\\s|$)" }, cwd: { equals: "a" } },
        { command: { regex: "^'?(?:sh)(?:\\s|$)" }, cwd: { equals: "a" } },
      ],
    );
    // A line's start read as the start of its first word (`lineStartOf`): the same parts.
    expect(partsWhere({ command: { regex: "^sh" } }, [["command"]])).toEqual([
      { command: { regex: "^'?sh" } },
    ]);
  });

  it("reads a later part only on a command field, and leaves other operators as they are", () => {
    expect(partsWhere({ cwd: { regex: "\\| *sh" } }, [["command"]])).toEqual([{ cwd: { regex: "\\| *sh" } }]);
    expect(partsWhere({ command: { regex: "rm" } }, [["command"]])).toEqual([{ command: { regex: "rm" } }]);
    expect(partsWhere({ "opts.command": { regex: "; *rm" } }, [["opts", "command"]])).toEqual([
      { "opts.command": { regex: "(?:; *)(?:rm)" } },
      { "opts.command": { regex: "^'?(?:rm)" } },
    ]);
  });
});
