import { posix } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileCondition } from "../../../src/runtime/condition.js";
import { normalizeRoots, relativeToRoots, rootReadings } from "../../../src/runtime/match/roots.js";
import { TRUE } from "../../../src/runtime/truth.js";

describe("relativeToRoots", () => {
  const roots = ["/srv/src"];
  // [path, relative or null for outside]
  const cases: [string, string | null][] = [
    ["/srv/src/a.txt", "a.txt"],
    ["/srv/src/lib/b.ts", "lib/b.ts"],
    ["/srv/src", "."],
    ["/srv/src/", "."],
    ["/srv/src/.", "."],
    ["/srv/src/lib/", "lib"],
    ["//srv//src///a.txt", "a.txt"],
    ["/srv/./src/./a.txt", "a.txt"],
    ["/srv/src/lib/../a.txt", "a.txt"],
    ["/srv/src/../x", null],
    ["/srv/src/..", null],
    ["/srv/src/a/../../x", null],
    ["/srv/src2", null],
    ["/srv/src2/a.txt", null],
    ["/srv/sr", null],
    ["/srv", null],
    ["/etc/passwd", null],
    ["src/a.txt", null],
    ["a.txt", null],
    ["", null],
    ["/srv/src/a\0b", null],
  ];
  for (const [path, relative] of cases) {
    it(`${JSON.stringify(path)} is ${relative === null ? "outside" : JSON.stringify(relative)}`, () => {
      const rooted = relativeToRoots(path, roots);
      expect(rooted).toEqual(
        relative === null ? { inside: false } : { inside: true, root: "/srv/src", relative },
      );
    });
  }

  it("reads a root with a trailing slash or dots as the directory it names", () => {
    for (const root of ["/srv/src/", "/srv/src//", "/srv/./src", "/srv/lib/../src"]) {
      expect(relativeToRoots("/srv/src/a.txt", [root])).toEqual({
        inside: true,
        root: "/srv/src",
        relative: "a.txt",
      });
      expect(relativeToRoots("/srv/src2/a.txt", [root])).toEqual({ inside: false });
    }
  });

  it("takes the longest root that holds the path, whatever the order", () => {
    for (const order of [
      ["/srv", "/srv/src"],
      ["/srv/src", "/srv"],
    ]) {
      expect(relativeToRoots("/srv/src/a.txt", order)).toEqual({
        inside: true,
        root: "/srv/src",
        relative: "a.txt",
      });
      expect(relativeToRoots("/srv/lib/a.txt", order)).toEqual({
        inside: true,
        root: "/srv",
        relative: "lib/a.txt",
      });
    }
  });

  it("reads everything under the root directory / relative to it", () => {
    expect(relativeToRoots("/etc/passwd", ["/"])).toEqual({
      inside: true,
      root: "/",
      relative: "etc/passwd",
    });
  });

  it("has nothing inside with no roots, and ignores relative roots", () => {
    expect(relativeToRoots("/srv/src/a.txt", [])).toEqual({ inside: false });
    expect(relativeToRoots("/srv/src/a.txt", ["srv/src", ""])).toEqual({ inside: false });
  });

  it("normalises, deduplicates and orders the roots longest first", () => {
    expect(normalizeRoots(["/a/", "/a/b/c", "rel", "/a/./b", "/a"])).toEqual(["/a/b/c", "/a/b", "/a"]);
  });
});

describe("rootReadings", () => {
  it("is the relative path inside, the path as given outside", () => {
    expect(rootReadings("/srv/src/a.txt", ["/srv"])).toEqual(["src/a.txt"]);
    expect(rootReadings("/srv/../etc/passwd", ["/srv"])).toEqual(["/srv/../etc/passwd"]);
    expect(rootReadings("src/a.txt", ["/srv"])).toEqual(["src/a.txt"]);
  });

  it("reads both ways a path that is inside only when case is ignored", () => {
    expect(rootReadings("/SRV/src/.env", ["/srv"])).toEqual(["/SRV/src/.env", "src/.env"]);
  });

  it("lets a relative glob allow a path under a root for certain, and never one outside", () => {
    const compiled = compileCondition({ path: { glob: "src/**" } });
    if (!compiled.ok) throw new Error("does not compile");
    const decide = (path: string) =>
      rootReadings(path, ["/srv"]).map((reading) => compiled.condition({ path: reading }));
    expect(decide("/srv/src/a.txt")).toEqual([TRUE]);
    expect(decide("/srv/src/../x").every((t) => t !== TRUE)).toBe(true);
    expect(decide("/etc/passwd").every((t) => t !== TRUE)).toBe(true);
    expect(decide("/work2/src/a.txt").every((t) => t !== TRUE)).toBe(true);
  });
});

describe("relativeToRoots against node:path's posix normalize and relative", () => {
  const segment = fc.constantFrom("src", "src2", "sr", "a.txt", ".", "..", "", "work", ".env", "x y");
  const path = fc.array(segment, { minLength: 0, maxLength: 7 }).map((s) => `/${s.join("/")}`);
  const root = fc.constantFrom("/srv", "/srv/src", "/srv/src/", "/", "//srv//src", "/srv/./src");

  it("property: inside exactly when node's relative path from the root does not climb out, and equal to it", () => {
    fc.assert(
      fc.property(path, root, (p, r) => {
        const normalRoot = posix.normalize(r).replace(/(.)\/+$/, "$1");
        const relative = posix.relative(normalRoot, posix.normalize(p));
        const inside = relative !== ".." && !relative.startsWith("../") && !posix.isAbsolute(relative);
        expect(relativeToRoots(p, [r])).toEqual(
          inside
            ? { inside: true, root: normalRoot, relative: relative === "" ? "." : relative }
            : { inside: false },
        );
      }),
      { numRuns: 2000 },
    );
  });
});
