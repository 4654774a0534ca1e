import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileGlob } from "../../../src/runtime/match/glob.js";
import { matchPathGlobs } from "../../../src/runtime/match/glob-paths.js";
import { normalizePath } from "../../../src/runtime/match/path.js";
import { referenceMatch } from "./glob-reference.js";

// The property suites of the glob matcher (the examples are in glob.test.ts).

function matches(pattern: string, path: string): boolean {
  const compiled = compileGlob(pattern);
  if (!compiled.ok) throw new Error(`${pattern}: ${compiled.message}`);
  return compiled.glob.test(path);
}

describe("compileGlob: arbitrary globs", () => {
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
