import fc from "fast-check";
import { compileCondition } from "toolgate/runtime";
import { describe, expect, it } from "vitest";
import { compileGlob } from "../../src/runtime/match/glob.js";
import { normalizePath } from "../../src/runtime/match/path.js";

// The `glob` operator checks a literal prefix and suffix before running the matcher. That check is an
// optimisation only: it must never change an answer.
const segment = fc.constantFrom("a", "b", "src", ".env", ".env.local", "x.ts", "key.pem", ".git", "secrets");
const globSegment = fc.constantFrom(
  "a",
  "b",
  "src",
  "*",
  "**",
  "?",
  "*.ts",
  ".env*",
  "{a,b}",
  "[ab]",
  ".git",
  "secrets",
  "*.pem",
);

describe("glob prefix/suffix prefilter", () => {
  it("gives exactly the answer of the glob matcher on the normalised path", () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(globSegment, { minLength: 1, maxLength: 5 }),
        fc.array(segment, { minLength: 1, maxLength: 6 }),
        (absolute, globParts, pathParts) => {
          const pattern = `${absolute ? "/" : ""}${globParts.join("/")}`;
          const compiled = compileGlob(pattern);
          fc.pre(compiled.ok);
          if (!compiled.ok) return;
          const path = pathParts.join("/");
          const condition = compileCondition({ path: { glob: pattern } });
          expect(condition.ok).toBe(true);
          if (!condition.ok) return;
          const normal = normalizePath(path);
          const expected = normal.ok && compiled.glob.test(normal.path) ? 1 : 0;
          expect(condition.condition({ path })).toBe(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("keeps the edge cases where ** absorbs a slash", () => {
    const truth = (pattern: string, path: string) => {
      const c = compileCondition({ path: { glob: pattern } });
      if (!c.ok) throw new Error("bad glob");
      return c.condition({ path });
    };
    expect(truth("secrets/**", "secrets")).toBe(1);
    expect(truth("**/.git", ".git")).toBe(1);
    expect(truth("a/**/b", "a/b")).toBe(1);
    expect(truth("**/*.pem", "deploy/key.pem")).toBe(1);
    expect(truth("**/*.pem", "deploy/key.pem.txt")).toBe(0);
    // An absolute path is read alike only on POSIX systems: a maybe.
    expect(truth("/etc/**", "/etc")).toBe(2);
    expect(truth("/etc/**", "/etcx")).toBe(0);
    expect(truth("src/**", "srcx/a")).toBe(0);
  });
});
