import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalizePath } from "../../../src/runtime/match/path.js";

describe("normalizePath", () => {
  // [input, path, absolute, escapesRoot]
  const cases: [string, string, boolean, boolean][] = [
    ["./src/../.env", ".env", false, false],
    ["a//b", "a/b", false, false],
    ["a/./b", "a/b", false, false],
    ["a/b/", "a/b", false, false],
    ["a/b/.", "a/b", false, false],
    ["a/b/..", "a", false, false],
    ["a/..", ".", false, false],
    [".", ".", false, false],
    ["./", ".", false, false],
    ["..", "..", false, true],
    ["../x", "../x", false, true],
    ["a/../../x", "../x", false, true],
    ["../../x/y", "../../x/y", false, true],
    ["x/../../../y", "../../y", false, true],
    ["/", "/", true, false],
    ["//", "/", true, false],
    ["/a/b", "/a/b", true, false],
    ["/a//b/", "/a/b", true, false],
    ["/a/../b", "/b", true, false],
    ["/..", "/", true, true],
    ["/../etc/passwd", "/etc/passwd", true, true],
    ["/a/../../etc", "/etc", true, true],
    ["src/.env", "src/.env", false, false],
    ["...", "...", false, false],
    ["..a/b", "..a/b", false, false],
    ["a\\..\\b", "a\\..\\b", false, false],
    ["A/B", "A/B", false, false],
    ["with space/é", "with space/é", false, false],
  ];
  it.each(cases)("%j → %j", (input, path, absolute, escapesRoot) => {
    expect(normalizePath(input)).toEqual({ ok: true, path, absolute, escapesRoot });
  });

  it("refuses an empty path", () => {
    expect(normalizePath("")).toEqual({ ok: false, message: "the path is empty" });
  });

  it("refuses NUL bytes", () => {
    expect(normalizePath("a\0b")).toEqual({
      ok: false,
      message: "the path contains a NUL byte, which no file name may hold",
    });
  });

  const segment = fc.constantFrom("a", "b", ".env", ".", "..", "", "c d");
  const path = fc
    .tuple(fc.boolean(), fc.array(segment, { minLength: 1, maxLength: 8 }))
    .map(([abs, parts]) => (abs ? "/" : "") + parts.join("/"))
    .filter((p) => p.length > 0);

  it("is idempotent and leaves no empty or . segments (property)", () => {
    fc.assert(
      fc.property(path, (input) => {
        const once = normalizePath(input);
        if (!once.ok) throw new Error(once.message);
        const twice = normalizePath(once.path);
        expect(twice.ok && twice.path).toBe(once.path);
        expect(once.absolute).toBe(input.startsWith("/"));
        if (once.path !== "/" && once.path !== ".") {
          const parts = (once.absolute ? once.path.slice(1) : once.path).split("/");
          expect(parts.every((p) => p !== "" && p !== ".")).toBe(true);
          // `..` only as leading segments of a relative path
          const firstOther = parts.findIndex((p) => p !== "..");
          if (firstOther >= 0) expect(parts.slice(firstOther).includes("..")).toBe(false);
          if (once.absolute) expect(parts.includes("..")).toBe(false);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("escapesRoot exactly when some prefix climbs above the start (property)", () => {
    fc.assert(
      fc.property(path, (input) => {
        const result = normalizePath(input);
        if (!result.ok) throw new Error(result.message);
        let level = 0;
        let escaped = false;
        for (const part of input.split("/")) {
          if (part === "..") {
            if (level === 0) escaped = true;
            else level--;
          } else if (part !== "" && part !== ".") level++;
        }
        expect(result.escapesRoot).toBe(escaped);
      }),
      { numRuns: 1000 },
    );
  });
});
