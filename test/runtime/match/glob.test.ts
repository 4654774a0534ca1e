import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileGlob, matchPathGlobs } from "../../../src/runtime/match/glob.js";
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

/**
 * The documented semantics (module comment of glob.ts), written directly: expand braces, split at `/` with the
 * root as a segment of its own, `**` takes zero or more segments, every other glob segment exactly one
 * non-root segment. Backtracking, for small inputs only.
 */
function referenceMatch(pattern: string, path: string): boolean {
  const ROOT = Symbol("root");
  type Segment = string | typeof ROOT;
  const split = (text: string): Segment[] => {
    if (text === "/") return [ROOT];
    return text.startsWith("/") ? [ROOT, ...text.slice(1).split("/")] : text.split("/");
  };
  const segmentRegex = (segment: string): RegExp => {
    let out = "";
    for (let i = 0; i < segment.length; i++) {
      const c = segment[i] as string;
      if (c === "*") out += "[^/]*";
      else if (c === "?") out += "[^/]";
      else if (c === "[") {
        const close = segment.indexOf("]", i + 2);
        let body = segment.slice(i + 1, close);
        if (body.startsWith("!")) body = `^${body.slice(1)}`;
        out += `[${body}]`;
        i = close;
      } else if (c === "\\") out += `\\${segment[++i]}`;
      else out += c.replace(/[.+^${}()|\\]/g, "\\$&");
    }
    return new RegExp(`^${out}$`, "u");
  };
  const matchSegments = (glob: Segment[], target: Segment[]): boolean => {
    if (glob.length === 0) return target.length === 0;
    const [head, ...rest] = glob;
    if (head === "**") {
      for (let k = 0; k <= target.length; k++) if (matchSegments(rest, target.slice(k))) return true;
      return false;
    }
    const first = target[0];
    if (first === undefined) return false;
    if (head === ROOT || first === ROOT) return head === first && matchSegments(rest, target.slice(1));
    return segmentRegex(head as string).test(first) && matchSegments(rest, target.slice(1));
  };
  // Only the glob as written decides whether it is absolute: `{,a}/x` is relative, its `/x` never matches.
  // An empty alternative leaves an empty segment (`/{,a}` is not `/`), which matches nothing.
  const globSegments = (glob: string): Segment[] => {
    if (pattern === "/") return [ROOT];
    return pattern.startsWith("/") ? [ROOT, ...glob.slice(1).split("/")] : glob.split("/");
  };
  return expandBraces(pattern).some((glob) => matchSegments(globSegments(glob), split(path)));
}

/** Brace expansion of a glob without escaped braces (the generator below never escapes one). */
function expandBraces(pattern: string): string[] {
  const open = pattern.indexOf("{");
  if (open < 0) return [pattern];
  let depth = 0;
  const cuts: number[] = [];
  let close = -1;
  for (let i = open; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "{") depth++;
    else if (c === "}" && --depth === 0) {
      close = i;
      break;
    } else if (c === "," && depth === 1) cuts.push(i);
  }
  const bounds = [open, ...cuts, close];
  const before = pattern.slice(0, open);
  const after = pattern.slice(close + 1);
  const out: string[] = [];
  for (let k = 0; k + 1 < bounds.length; k++) {
    const alternative = pattern.slice((bounds[k] as number) + 1, bounds[k + 1]);
    for (const expanded of expandBraces(before + alternative + after)) out.push(expanded);
  }
  return out;
}

describe("compileGlob agrees with the documented semantics", () => {
  const globSegment = fc.constantFrom(
    "a",
    "b",
    ".a",
    "*",
    "**",
    "?",
    "a*",
    "*b",
    "a**b",
    "[ab]",
    "[!a]",
    "\\*",
    "{a,b}",
    "{,a}",
    "{a,*}",
    "{**,a}",
    "{a/b,**}",
  );
  const glob = fc
    .tuple(fc.boolean(), fc.array(globSegment, { minLength: 1, maxLength: 4 }))
    .map(([absolute, parts]) => `${absolute ? "/" : ""}${parts.join("/")}`);
  const pathSegment = fc.constantFrom("a", "b", ".a", "ab", "ba", "a.b", "*", "aab");
  const path = fc
    .tuple(fc.boolean(), fc.array(pathSegment, { minLength: 0, maxLength: 4 }))
    .map(([absolute, parts]) => (absolute ? `/${parts.join("/")}` : parts.join("/")))
    .filter((p) => p !== "");

  it("matches exactly when the reference does (property)", () => {
    fc.assert(
      fc.property(glob, path, (pattern, target) => {
        const compiled = compileGlob(pattern);
        fc.pre(compiled.ok);
        if (!compiled.ok) return;
        expect(compiled.glob.test(target)).toBe(referenceMatch(pattern, target));
      }),
      { numRuns: 5000 },
    );
  });

  it("the reference itself reads the documented examples", () => {
    expect(referenceMatch("**/.env*", "/home/u/.env")).toBe(true);
    expect(referenceMatch("*/*.ts", "/a.ts")).toBe(false);
    expect(referenceMatch("secrets/**/**", "secrets")).toBe(true);
    expect(referenceMatch("{,a}/x", "/x")).toBe(false);
    expect(referenceMatch("a/{**,b}", "a")).toBe(true);
    expect(referenceMatch("/*", "/")).toBe(false);
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

  it("a match that needs the Windows reading of \\ is only a maybe, and a miss without it is a maybe too", () => {
    // Without the re-reading `src\..\.env` is a file named so inside `.`, which `**/.env*` does not match.
    const compiled = compileGlob("**/.env*");
    expect(compiled.ok && compiled.glob.test("src\\..\\.env")).toBe(false);
    expect(answer("**/.env*", "src\\..\\.env")).toBe("possible");
    expect(answer("src/**", "src\\..\\..\\etc\\passwd")).toBe("possible");
    expect(answer(["src/**", "docs/**"], "src\\a")).toBe("possible");
  });

  it("is certain only for plain relative paths, and never misses what the exact glob matches (property)", () => {
    const segment = fc.constantFrom(
      "a",
      "src",
      ".env",
      "x.ts",
      "A",
      "é",
      "e\u0301",
      "GIT~1",
      "a.",
      "a:b",
      "\u017F",
    );
    const path = fc
      .tuple(
        fc.constantFrom("", "/", "C:\\", "\\\\s\\h\\"),
        fc.array(segment, { minLength: 1, maxLength: 4 }),
      )
      .chain(([root, parts]) => fc.constantFrom("/", "\\").map((sep) => root + parts.join(sep)));
    const glob = fc.constantFrom("**", "src/**", "**/.env*", "/**", "**/*.ts", "a/*", "**/a", "**/GIT~1");
    fc.assert(
      fc.property(glob, path, (pattern, target) => {
        const compiled = compileGlob(pattern);
        if (!compiled.ok) throw new Error(compiled.message);
        const m = matchPathGlobs([compiled.glob], target);
        const normal = normalizePath(target);
        const plainRelative =
          /^[a-zA-Z.~1]+(?:\/[a-zA-Z.~1]+)*$/.test(target) && !/[.]$|(^|\/)[^/]*[.]\//.test(target);
        if (m.certain) {
          expect(target.startsWith("/") || target.includes("\\") || target.includes(":")).toBe(false);
          expect(target.normalize("NFC")).toBe(target);
        }
        // Whatever the exact glob matches on the POSIX reading is at least a maybe.
        if (normal.ok && !normal.escapesRoot && compiled.glob.test(normal.path))
          expect(m.possible).toBe(true);
        if (plainRelative && normal.ok && compiled.glob.test(normal.path) && !target.includes("~1"))
          expect(m.certain).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
