import { describe, expect, it } from "vitest";
import { compileGlob, type Glob } from "../../../src/runtime/match/glob.js";
import { GlobSet, matchPathGlobs } from "../../../src/runtime/match/glob-paths.js";
import { referenceMatch } from "./glob-reference.js";

function glob(pattern: string): Glob {
  const compiled = compileGlob(pattern);
  if (!compiled.ok) throw new Error(`${pattern}: ${compiled.message}`);
  return compiled.glob;
}

describe("compileGlob agrees with the documented semantics on a fixed grid", () => {
  // Globs of every element the reference reads (literals, `*`, `?`, classes, escapes of punctuation, `**` as a
  // whole segment and within one, braces with globs, empty and nested alternatives, absolute globs) and paths
  // of one to three segments, relative and absolute.
  const GLOBS = [
    "a",
    "a/b",
    "/a",
    "/a/*",
    "*",
    "?",
    "??",
    "a*",
    "*b",
    "a*b",
    "*a*",
    "a**b",
    "a/**b",
    "**",
    "**/a",
    "**/b/**",
    "a/**",
    "a/**/b",
    "/**",
    "/**/a",
    "**/**",
    "a/**/**",
    "*/a",
    "a/*",
    "*/*",
    "[ab]",
    "[!a]*",
    "[a-c]?",
    "[ab]/[!b]",
    "\\*",
    "a\\?b",
    "{a,b}",
    "{a,b}/*",
    "*.{a,b}",
    "{,a}b",
    "{,a}/b",
    "{a,*}",
    "{**,a}/b",
    "{**,a}",
    "a/{**,b}",
    "a/{**,b}/c",
    "{a/b,**}",
    "{a,{b,c}}",
    "x{a,b}y",
    "{**}/a",
    "a/{**}",
    "/{a,b}",
    "/{a,**}/b",
    "/a/{b,**}",
    "{a/,b}c",
    "**,a",
    "{**a,b}",
    "a/{b,c}**",
    "*{**,a}",
    "?{**,a}",
    "[ab]{**,a}",
    "a{**,b}",
    "{a,b}**",
    "{a,b}/**",
    "{**}/b",
    "x/{**,a}/b",
    "{**,a}/{**,b}/c",
    ".a",
    "*.b",
    "a.b",
  ];
  const PATHS = [
    "a",
    "b",
    "c",
    "ab",
    "ac",
    "xb",
    "ba",
    "b,a",
    "aab",
    "a.b",
    ".a",
    "*",
    "a*b",
    "a?b",
    "xay",
    "xby",
    "a/b",
    "b/a",
    "a/a",
    "b/b",
    "a/c",
    "ab/b",
    "a/xb",
    "a/bx",
    "b/xa",
    "a/b,a",
    "a/b/c",
    "a/x/c",
    "a/b/a",
    "x/a/b",
    "/",
    "/a",
    "/b",
    "/a/b",
    "/b/b",
    "/a/b/c",
    "/x/a",
  ];

  it.each(GLOBS)("%j matches exactly the paths the reference does", (pattern) => {
    const compiled = glob(pattern);
    const expected = PATHS.filter((path) => referenceMatch(pattern, path));
    expect(PATHS.filter((path) => compiled.test(path))).toEqual(expected);
  });
});

describe("compileGlob: classes, escapes and characters beyond the BMP", () => {
  // [glob, path, expected]
  const cases: [string, string, boolean][] = [
    // `!` and `^` negate and are not listed themselves; a `:` or `[` is an ordinary member
    ["[!a]x", "!x", true],
    ["[^a]x", "^x", true],
    ["[a:]", ":", true],
    ["[[a]", "[", true],
    // the closing `]` is no member; a range of one character; a range's ends are members
    ["[ab]", "]", false],
    ["[a-a]", "a", true],
    ["[b-c]", "a", false],
    ["[b-c]", "c", true],
    ['["-#]', "$", false],
    // an escaped member is the character alone: the next one is a member too
    ["[a\\-z]", "z", true],
    ["[a\\-z]", "b", false],
    ["[\\-b]", "b", true],
    // a class never matches `/` or the root, whatever its range: `/` is cut out of it
    // a `/` in a class is looked past when empty, `.` and `..` segments are looked for
    ["[a/./b]", "b", true],
    ["a[/]b", "ab", false],
    ["a[/]b", "a/b", false],
    ["[/-0]", "0", true],
    ["[/-0]", "/", false],
    ["a[/-0]b", "a/b", false],
    ["a[.-/]b", "a/b", false],
    ["a[.-/]b", "a.b", true],
    ["[\u0000-a]/x", "/x", false],
    ["[\u0000-a]/x", "a/x", true],
    // characters beyond the BMP are one character each, plain, escaped or in a class; U+FFFF is one unit
    ["x\u{1F600}", "x\u{1F600}", true],
    ["\u{1F600}?", "\u{1F600}a", true],
    ["\u{1F600}?", "\u{1F600}", false],
    ["\uffffa", "\uffffa", true],
    ["\\\uffffa", "\uffffa", true],
    ["[\uffffa]", "a", true],
    ["[\\\uffffa]", "a", true],
    ["[\u{1F600}-\u{1F601}]", "\ue000", false],
    ["[\\\u{1F600}-\u{1F601}]", "\ue000", false],
    ["[\\\u{1F600}-\u{1F601}]", "\u{1F601}", true],
    // an escaped `/` is a separator: `**` after it is a whole segment; any other escape is one character
    ["a\\/**", "a/b/c", true],
    ["\\.**", ".a/b", false],
    ["\\.**", ".ab", true],
    // sibling braces do not count as nested ones
    ["{a}{b}{c}{d}{e}{f}{g}{h}{i}{j}{k}", "abcdefghijk", true],
  ];
  it.each(cases)("%j on %j is %s", (pattern, path, expected) => {
    expect(glob(pattern).test(path)).toBe(expected);
  });

  it("refuses a glob that compiles to too large a pattern, at offset 0", () => {
    expect(compileGlob("a".repeat(10_001))).toEqual({
      ok: false,
      message:
        "the glob is too complex: pattern too large: it compiles to more than 10000 instructions (counted repetition such as {1000} is expanded); use smaller counts or * and +",
      offset: 0,
    });
  });

  it("an escaped [ starts no class when empty segments are looked for", () => {
    expect(compileGlob("x\\[//]")).toEqual({
      ok: false,
      message: "empty path segment (//): paths are compared with single slashes; remove one",
      offset: 4,
    });
  });
});

describe("Glob.mayMatchTemplate", () => {
  it("reads a template of the root alone as the path /", () => {
    expect(glob("/").mayMatchTemplate(["/"])).toBe(true);
    expect(glob("/**").mayMatchTemplate(["/"])).toBe(true);
    expect(glob("**").mayMatchTemplate(["/"])).toBe(true);
    expect(glob("/*").mayMatchTemplate(["/"])).toBe(false);
    expect(glob("*").mayMatchTemplate(["/"])).toBe(false);
  });
});

describe("matchPathGlobs: unknown segments (short names)", () => {
  function answer(pattern: string, path: string): "certain" | "possible" | "no" {
    const m = matchPathGlobs([glob(pattern)], path);
    return m.certain ? "certain" : m.possible ? "possible" : "no";
  }
  // [glob, path, answer]
  const cases: [string, string, "certain" | "possible" | "no"][] = [
    // an absolute path with a short name stays absolute
    ["/**", "C:\\PROGRA~1\\x", "possible"],
    ["x/**", "C:\\PROGRA~1\\x", "no"],
    ["/*/x", "C:\\PROGRA~1\\x", "possible"],
    // the other segments are compared ignoring case too (the POSIX reading, `docs~1/readme` folded, does not match)
    ["docs/readme", "DOCS~1/README", "possible"],
    ["docs/readme", "DOCS~1/OTHER", "no"],
    // a glob spelt differently in NFC is compared in that spelling too: `[e\u0301]` is one of two code points
    ["[e\u0301]/*", "\u00e9/GIT~1", "possible"],
    ["[e\u0301]/*", "a/GIT~1", "no"],
    // the root glob matches no relative path, whatever a short name stands for
    ["/", "GIT~1/config", "no"],
    ["/", "GIT~1", "no"],
  ];
  it.each(cases)("%j on %j is %s", (pattern, path, expected) => {
    expect(answer(pattern, path)).toBe(expected);
  });
});

describe("GlobSet on long paths", () => {
  it("answers exactly on a path too long for a bounded pass", () => {
    const set = new GlobSet([glob("**/x"), glob("**/y"), glob("a/**")]);
    const long = "a/".repeat(3_000);
    expect([...set.match(`${long}x`).answers]).toEqual([1, 0, 1]);
    expect([...set.match(`${long}y`).answers]).toEqual([0, 1, 1]);
    expect([...set.match(`b/${long}z`).answers]).toEqual([0, 0, 0]);
  });

  it("the root glob in a set matches the root only", () => {
    const set = new GlobSet([glob("/"), glob("**")]);
    expect([...set.match("x").answers]).toEqual([0, 1]);
    expect([...set.match("X.").answers]).toEqual([0, 2]);
    expect([...set.match("GIT~1").answers]).toEqual([0, 2]);
    expect([...set.match("/").answers]).toEqual([2, 2]);
  });
});

describe("matchPathGlobs: spellings that name a denied file on some file system", () => {
  const deny = ["**/.ssh/**", "**/.env", "**/.git/**", "**/.gitconfig"].map(glob);
  const everything = [glob("**")];
  it.each([
    "home/u/.\u00dfh/id_rsa",
    "home/u/.\u1e9eh/id_rsa",
    "x/.gitcon\ufb01g",
    ".s\u200dsh/id",
    ".s\u200bsh/id",
    "\u00ad.env",
    "a/.e\ufeffnv",
    ".g\u034fit/config",
    ".git\u{e0041}/config",
    "~/.ssh/id",
    "~root/.ssh/id",
    "a/..;/.env",
    "\\??\\C:\\u\\.ssh\\id",
    "/home/u/.SSH/x",
    ".\u017fsh/id",
    ".g\u0131t/config",
  ])("%j: a deny rule may match it, and an allow of ** does not certainly", (path) => {
    expect(matchPathGlobs(deny, path)).toEqual({ certain: false, possible: true });
    expect(matchPathGlobs(everything, path)).toEqual({ certain: false, possible: true });
    const set = new GlobSet(deny).match(path);
    expect(set.hits.length, path).toBeGreaterThan(0);
    expect([...set.answers].every((a) => a !== 1)).toBe(true);
  });

  it.each(["~", "~root/x", "a/..;/b", "\\??\\C:\\x"])("%j is never certainly inside **", (path) => {
    expect(matchPathGlobs(everything, path)).toEqual({ certain: false, possible: true });
    expect(new GlobSet(everything).match(path).answers[0]).toBe(2);
  });
});

describe("matchPathGlobs: a glob that full case folding reads otherwise", () => {
  it.each([
    ["**/stra\u00dfe/**", "docs/strasse/x"],
    ["**/stra\u00dfe/**", "docs/STRASSE/x"],
    ["**/.gitcon\ufb01g", "a/.gitconfig"],
    ["**/\ufb06ore", "store"],
  ])("%j may match %j, which it names in full case folding", (pattern, path) => {
    expect(matchPathGlobs([glob(pattern)], path)).toEqual({ certain: false, possible: true });
    expect(new GlobSet([glob(pattern)]).match(path).answers[0]).toBe(2);
  });

  it("still matches its own spelling exactly and nothing else", () => {
    expect(matchPathGlobs([glob("**/stra\u00dfe/**")], "a/stra\u00dfe/x").certain).toBe(false); // ß: not plain
    expect(matchPathGlobs([glob("**/stra\u00dfe/**")], "a/strase/x").possible).toBe(false);
    expect(matchPathGlobs([glob("**/\u13a0")], "\uab70").possible).toBe(true); // Cherokee: simple folding
  });
});
