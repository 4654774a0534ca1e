import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileGlob } from "../../../src/runtime/match/glob.js";
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
  ];
  it.each(cases)("refuses %j", (pattern, message, offset) => {
    expect(compileGlob(pattern)).toEqual({ ok: false, message, offset });
  });

  it("never throws on arbitrary globs (property)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 24 }), fc.string({ maxLength: 12 }), (pattern, path) => {
        const compiled = compileGlob(pattern);
        if (compiled.ok) compiled.glob.test(path);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("compileGlob: properties", () => {
  const name = fc.constantFrom("a", "b", ".env", "x.ts", ".git");
  const relativePath = fc.array(name, { minLength: 1, maxLength: 5 }).map((parts) => parts.join("/"));

  it("a path with no glob characters matches itself only (property)", () => {
    fc.assert(
      fc.property(relativePath, relativePath, (pattern, path) => {
        expect(matches(pattern, path)).toBe(pattern === path);
      }),
      { numRuns: 1000 },
    );
  });

  it("`**/name` matches exactly the paths whose last segment is name (property)", () => {
    fc.assert(
      fc.property(name, relativePath, (last, path) => {
        expect(matches(`**/${last}`, path)).toBe(path.split("/").at(-1) === last);
      }),
      { numRuns: 1000 },
    );
  });

  it("`dir/**` matches dir and everything below it (property)", () => {
    fc.assert(
      fc.property(name, relativePath, (dir, path) => {
        expect(matches(`${dir}/**`, path)).toBe(path === dir || path.startsWith(`${dir}/`));
      }),
      { numRuns: 1000 },
    );
  });
});
