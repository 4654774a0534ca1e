import { describe, expect, it } from "vitest";
import { compileGlob } from "../../../src/runtime/match/glob.js";
import { matchPathGlobs } from "../../../src/runtime/match/glob-paths.js";
import { normalizePath } from "../../../src/runtime/match/path.js";

function matches(pattern: string, path: string): boolean {
  const compiled = compileGlob(pattern);
  if (!compiled.ok) throw new Error(`${pattern}: ${compiled.message}`);
  return compiled.glob.test(path);
}

describe("compileGlob: matching", () => {
  // [glob, path, expected]
  const cases: [string, string, boolean][] = [
    // DESIGN.md: `**/.env*` matches `.env` and `a/.env.local`
    ["**/.env*", ".env", true],
    ["**/.env*", "a/.env.local", true],
    ["**/.env*", "a/b/.env", true],
    ["**/.env*", "config/.env", true],
    ["**/.env*", "/home/u/.env", true],
    ["**/.env*", "a/env", false],
    ["**/.env*", "a/x.env", false],
    ["**/.env*", ".env/x", false],
    // `**` at the start, middle and end
    ["**/*.ts", "a.ts", true],
    ["**/*.ts", "src/a/b.ts", true],
    ["**/*.ts", "src/a/b.tsx", false],
    ["src/**/*.ts", "src/a.ts", true],
    ["src/**/*.ts", "src/a/b/c.ts", true],
    ["src/**/*.ts", "lib/a.ts", false],
    ["src/**/*.ts", "srcx/a.ts", false],
    ["a/**/b", "a/b", true],
    ["a/**/b", "a/x/y/b", true],
    ["a/**/b", "a/xb", false],
    ["src/**", "src", true],
    ["src/**", "src/a", true],
    ["src/**", "src/a/b/.hidden", true],
    ["src/**", "srcx", false],
    ["src/**", "x/src/a", false],
    ["**", "anything/at/all", true],
    ["**", "/abs/path", true],
    ["**/**/x", "x", true],
    ["**/**/x", "a/b/x", true],
    // `**` inside a segment is `*`
    ["a**b", "axxb", true],
    ["a**b", "ax/xb", false],
    ["**.js", "a.js", true],
    ["**.js", "d/a.js", false],
    // `*` and `?` stay within a segment and match dot files
    ["*.md", "README.md", true],
    ["*.md", ".hidden.md", true],
    ["*.md", "docs/a.md", false],
    ["*", ".env", true],
    ["*", "a/b", false],
    ["src/*", "src/.env", true],
    ["?", "a", true],
    ["?", "/", false],
    ["???", "abc", true],
    ["a?c", "a/c", false],
    ["?", "\u{1F600}", true],
    // classes
    ["[abc].txt", "b.txt", true],
    ["[abc].txt", "d.txt", false],
    ["[a-c]x", "bx", true],
    ["[!a]x", "bx", true],
    ["[!a]x", "ax", false],
    ["[^a]x", "ax", false],
    ["a[!b]c", "a/c", false],
    ["a[+-0]c", "a/c", false],
    ["a[+-0]c", "a.c", true],
    ["[]]", "]", true],
    ["[!]]", "a", true],
    ["[\\]]", "]", true],
    ["[a\\-z]", "-", true],
    // braces
    ["{a,b}.txt", "a.txt", true],
    ["{a,b}.txt", "c.txt", false],
    ["src/{lib,bin}/*.ts", "src/bin/x.ts", true],
    ["*.{js,ts}", "x.ts", true],
    ["*.{js,ts}", "x.css", false],
    ["{,.}env", "env", true],
    ["{,.}env", ".env", true],
    ["{a,{b,c}d}", "cd", true],
    ["{a}", "a", true],
    ["{**/.env*,secrets/**}", "x/.env", true],
    ["{**/.env*,secrets/**}", "secrets/k", true],
    ["a,b", "a,b", true],
    // escapes and literal metacharacters
    ["\\*", "*", true],
    ["\\*", "a", false],
    ["a\\?", "a?", true],
    ["\\{a,b\\}", "{a,b}", true],
    ["a.b", "axb", false],
    ["a+b", "a+b", true],
    ["(a)|b", "(a)|b", true],
    ["$x^", "$x^", true],
    // anchoring and absolute globs
    ["src/*.ts", "src/a.ts", true],
    ["src/*.ts", "/src/a.ts", false],
    ["src/*.ts", "x/src/a.ts", false],
    ["/etc/*", "/etc/passwd", true],
    ["/etc/*", "etc/passwd", false],
    ["/**", "/etc", true],
    ["/**", "etc", false],
    ["/", "/", true],
    // a relative glob crosses the root only through a leading **
    ["*/*.ts", "/a.ts", false],
    ["*/*.ts", "a/b.ts", true],
    ["*/*", "/a", false],
    ["?/x", "/x", false],
    ["[!a]/x", "/x", false],
    ["*", "/", false],
    ["/*", "/", false],
    ["/**", "/", true],
    ["**", "/", true],
    ["{**/.env,x}", "/h/.env", true],
    ["{,a}/x", "/x", false],
    ["{,a}/x", "x", false],
    ["{**,a}/b", "b", true],
    ["{**,a}/b", "x/y/b", true],
    ["{**,a}/b", "a/b", true],
    ["{**,a}/b", "/h/b", true],
    ["{,a}/x", "a/x", true],
    ["a/{**,b}", "a", true],
    ["a/{**,b}/c", "a/c", true],
    ["a/{**,b}/c", "a/x/y/c", true],
    ["a/{b,c}d", "a/cd", true],
    // a final run of /** matches the directory itself
    ["secrets/**/**", "secrets", true],
    ["secrets/**/**", "secrets/a/b", true],
    ["secrets/**/**", "secretsx", false],
    ["a/**/**/b", "a/b", true],
    ["{a/**/**,b}", "a", true],
    // `[^` negates like `[!`, and a `]` right after it is literal
    ["[^]]x", "ax", true],
    ["[^]]x", "]x", false],
    // a `-` at the end of a class is literal; a range over `/` leaves `/` out
    ["[a-]", "-", true],
    ["[a-]", "b", false],
    ["[--0]", "/", false],
    ["[--0]", ".", true],
    // characters beyond the BMP, plain, escaped and in classes
    ["\\\u{1F600}x", "\u{1F600}x", true],
    ["[\\\u{1F600}]x", "\u{1F600}x", true],
    ["[\u{1F600}]x", "\u{1F600}x", true],
    ["[\u{1F600}-\u{1F601}]", "\u{1F601}", true],
    ["[\u{1F600}-\u{1F601}]", "\u{1F602}", false],
    // an escaped `/` is a separator all the same
    ["a\\/b", "a/b", true],
    // `**` not alone in its segment stays within it, even after a `/`
    ["a/**b", "a/x/yb", false],
    ["a/**b", "a/xb", true],
    // a brace alternative starting with `/` after a `/` makes an empty segment, which matches nothing
    ["a/{/b}", "a/b", false],
    // `**` alone in braces is a whole segment
    ["{**}/b", "x/y/b", true],
    ["a/{**}", "a/x/y", true],
    ["{a,**}", "x/y", true],
    // a literal tail after the last wildcard that holds a `/` of its own
    ["*.d/x", "a.d/x", true],
    ["*.d/x/y", "b.d/x/y", true],
    ["*.d/x", "a.d/y", false],
    // case-sensitive
    [".env", ".ENV", false],
    ["*.MD", "a.md", false],
  ];
  it.each(cases)("%j on %j is %s", (pattern, path, expected) => {
    expect(matches(pattern, path)).toBe(expected);
  });

  it("keeps its source", () => {
    const compiled = compileGlob("**/*.ts");
    expect(compiled.ok && compiled.glob.source).toBe("**/*.ts");
  });

  it("matches what normalizePath produces", () => {
    const normal = normalizePath("./config/../secrets//.env.local");
    expect(normal.ok && matches("**/.env*", normal.path)).toBe(true);
  });
});

describe("compileGlob: refusals", () => {
  // [glob, message, offset]
  const cases: [string, string, number][] = [
    ["", "the glob is empty: write a pattern such as **/*.ts", 0],
    ["[abc", "unterminated [: add the closing ] or escape the [ as \\[", 0],
    ["a/[", "unterminated [: add the closing ] or escape the [ as \\[", 2],
    ["{a,b", "unterminated {: add the closing } or escape the { as \\{", 0],
    ["a}", "lone }: escape a literal } as \\}", 1],
    ["a\\", "the glob ends with a lone \\: escape a literal backslash as \\\\", 1],
    ["[z-a]", "range out of order in [...]: write the smaller character first", 1],
    ["[[:alpha:]]", "POSIX classes such as [:alpha:] are not supported: list the characters", 1],
    ["a//b", "empty path segment (//): paths are compared with single slashes; remove one", 2],
    ["a/", "the glob ends with /: paths are compared without a trailing /; remove it", 2],
    [
      "./src/*",
      'a "." segment never matches a normalised path (paths are normalised before matching): remove it',
      0,
    ],
    [
      "src/../x",
      'a ".." segment never matches a normalised path (paths are normalised before matching): remove it',
      4,
    ],
    [`${"{".repeat(12)}a${"}".repeat(12)}`, "braces nested more than 10 deep: simplify the glob", 10],
    [
      "{/etc/**,x}",
      "a brace alternative at the start of the glob starts with /: an absolute glob starts with / outside braces; write /{a,b}/** or one glob per alternative",
      1,
    ],
  ];
  it.each(cases)("refuses %j", (pattern, message, offset) => {
    expect(compileGlob(pattern)).toEqual({ ok: false, message, offset });
  });
});

describe("matchPathGlobs: conservative across platforms", () => {
  function answer(globs: string | string[], path: string): "certain" | "possible" | "no" {
    const compiled = (typeof globs === "string" ? [globs] : globs).map((g) => {
      const c = compileGlob(g);
      if (!c.ok) throw new Error(c.message);
      return c.glob;
    });
    const m = matchPathGlobs(compiled, path);
    return m.certain ? "certain" : m.possible ? "possible" : "no";
  }

  // [glob, path, answer]
  const cases: [string, string, "certain" | "possible" | "no"][] = [
    // plain relative POSIX paths are certain
    ["src/**", "src/a.ts", "certain"],
    ["src/**", "./src/../src/a.ts", "certain"],
    ["docs/**", "docs/résumé.md", "certain"],
    ["**/.env*", "config/.env", "certain"],
    ["src/**", "lib/a.ts", "no"],
    // absolute POSIX paths are read alike only on POSIX systems: at most a maybe
    ["/etc/**", "/etc/passwd", "possible"],
    ["**/.env", "/home/u/.env", "possible"],
    ["src/**", "/src/a.ts", "no"],
    // drive letters and UNC prefixes are absolute
    ["/**", "C:\\Windows\\system.ini", "possible"],
    ["/**", "c:/x", "possible"],
    ["/**", "\\\\server\\share\\x", "possible"],
    ["/**", "//server/share/x", "possible"],
    ["/**", "\\\\?\\C:\\x", "possible"],
    ["/**", "\\\\.\\pipe\\x", "possible"],
    ["**/.ssh/**", "C:\\Users\\u\\.ssh\\id_rsa", "possible"],
    ["/etc/**", "\\\\localhost\\c$\\etc\\passwd", "possible"],
    ["src/**", "C:\\src\\a.ts", "no"],
    ["src/**", "C:src\\a.ts", "possible"],
    ["**/x.md", "C:x.md", "possible"],
    // the Windows reading of `\`
    ["**/.env*", "src\\..\\.env", "possible"],
    ["src/**", "src\\a.ts", "possible"],
    ["src/*.ts", "src\\..\\..\\x.ts", "possible"],
    ["**/a\\\\b", "a\\b", "possible"],
    // trailing dots and spaces, streams
    ["**/.env*", ".env.", "possible"],
    ["**/.env*", ".env ", "possible"],
    ["**/.env*", ".env::$DATA", "possible"],
    ["**/.env*", "x/.env:secret", "possible"],
    ["**/.git/**", ".git./config", "possible"],
    ["docs/**", "docs/a.md.", "possible"],
    ["**/.env", "notes.txt.", "no"],
    ["**/.env", "...", "possible"],
    ["**/.env", "x/.env. .", "possible"],
    ["**/a/b", "x/a\\.\\b", "possible"],
    // 8.3 short names may be any long name
    ["**/.git/**", "GIT~1/config", "possible"],
    ["**/*.pem", "SECRET~2.PEM", "possible"],
    ["src/**", "SRC~1/a.ts", "possible"],
    ["/etc/**", "GIT~1/config", "no"],
    ["**/*.pem", "a/GIT~1/config", "no"],
    // device names are no plain file
    ["docs/**", "docs/con.txt", "possible"],
    // Unicode: NFD spellings and case folding
    ["**/café/**", "cafe\u0301/x", "possible"],
    ["**/cafe\u0301", "café", "possible"],
    ["**/.ENV", ".env", "possible"],
    ["**/.env", ".ENV", "possible"],
    ["x/**/.ENV", "x/a/.env", "possible"],
    ["X/**/.env", "x/a/.env", "possible"],
    ["x/*.ENV", "x/a.env", "possible"],
    ["**/secrets/**", "\u017Fecrets/key", "possible"],
    ["**/kube/**", "\u212Aube/config", "possible"],
    ["**/ssh/**", "\u017F\u017Fh/id", "possible"],
    ["**/file", "f\u0131le", "possible"],
    ["docs/**", "docs/\u017F.md", "possible"],
    ["docs/**", "DOCS/a.md", "possible"],
    ["docs/**", "Docs/a.md", "possible"],
    // not a string the file system can hold, or climbing out: anywhere
    ["src/**", "../x", "possible"],
    ["src/**", "a\u0000b", "possible"],
  ];
  it.each(cases)("%j on %j is %s", (glob, path, expected) => {
    expect(answer(glob, path)).toBe(expected);
  });

  it("answers certain, possible or no match as whole answers", () => {
    const env = compileGlob("**/.env*");
    if (!env.ok) throw new Error(env.message);
    expect(matchPathGlobs([env.glob], "config/.env")).toEqual({ certain: true, possible: true });
    expect(matchPathGlobs([env.glob], "config/.ENV")).toEqual({ certain: false, possible: true });
    expect(matchPathGlobs([env.glob], "config/app.ts")).toEqual({ certain: false, possible: false });
  });

  it("a match that needs the Windows reading of \\ is only a maybe, and a miss without it is a maybe too", () => {
    // Without the re-reading `src\..\.env` is a file named so inside `.`, which `**/.env*` does not match.
    const compiled = compileGlob("**/.env*");
    expect(compiled.ok && compiled.glob.test("src\\..\\.env")).toBe(false);
    expect(answer("**/.env*", "src\\..\\.env")).toBe("possible");
    expect(answer("src/**", "src\\..\\..\\etc\\passwd")).toBe("possible");
    expect(answer(["src/**", "docs/**"], "src\\a")).toBe("possible");
  });
});

describe("compileGlob: an escaped / is the separator", () => {
  // A path has no `/` but its separator, so `\/` reads as `/` everywhere, `**` after it included.
  it.each([
    ["secrets\\/**", "secrets", true],
    ["secrets\\/**", "secrets/a/b", true],
    ["secrets\\/**", "secretsx", false],
    ["a\\/b", "a/b", true],
    ["**\\/.env", ".env", true],
    ["**\\/.env", "x/y/.env", true],
    ["a\\/{b,c}\\/*.ts", "a/c/x.ts", true],
    ["a\\\\/b", "a\\/b", true],
    ["[\\/x]", "x", true],
  ])("%s on %s: %s", (pattern, path, expected) => {
    expect(matches(pattern, path)).toBe(expected);
    // Written with a plain `/`, the glob answers alike.
    if (!pattern.includes("\\\\") && !pattern.startsWith("[")) {
      expect(matches(pattern.replaceAll("\\/", "/"), path)).toBe(expected);
    }
  });

  it("refuses what the glob with a plain / refuses, at the offset in the glob as written", () => {
    expect(compileGlob("a\\//b")).toEqual({
      ok: false,
      message: "empty path segment (//): paths are compared with single slashes; remove one",
      offset: 3,
    });
    expect(compileGlob("a\\/b\\/")).toEqual({
      ok: false,
      message: "the glob ends with /: paths are compared without a trailing /; remove it",
      offset: 6,
    });
    expect(compileGlob("a\\/b/[")).toMatchObject({ ok: false, offset: 5 });
    // Escaped slashes after the problem do not move it; one at the problem is reported at its backslash.
    expect(compileGlob("[z-a]\\/b")).toMatchObject({ ok: false, offset: 1 });
    expect(compileGlob("a/\\/b")).toEqual({
      ok: false,
      message: "empty path segment (//): paths are compared with single slashes; remove one",
      offset: 2,
    });
  });
});
