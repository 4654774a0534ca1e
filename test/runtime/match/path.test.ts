import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { foldString, fullFoldString } from "../../../src/runtime/match/case-fold.js";
import {
  normalizePath,
  type PathReading,
  readEveryWay,
  readingText,
  readPath,
  readSimplePath,
} from "../../../src/runtime/match/path.js";

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

describe("readPath", () => {
  const text = (r: { absolute: boolean; segments: readonly (string | null)[] }) =>
    (r.absolute ? "/" : "") + r.segments.map((s) => (s === null ? "<any>" : s)).join("/");

  it.each([
    ["src/index.ts", "src/index.ts"],
    ["./a/../b", "b"],
    ["docs/résumé.md", "docs/résumé.md"],
    ["A/B", "A/B"],
  ])("reads the plain relative path %j one way: %j", (input, reading) => {
    const read = readPath(input);
    expect(read.plain).toBe(true);
    expect(read.anywhere).toBe(false);
    expect(read.readings.map(text)).toEqual([reading]);
  });

  // [input, readings after the POSIX one]
  const cases: [string, string[]][] = [
    ["/etc/passwd", ["/etc/passwd"]],
    ["src\\..\\.env", ["src\\..\\.env", ".env"]],
    ["C:\\Users\\u\\.ssh", ["C:\\Users\\u\\.ssh", "/Users/u/.ssh"]],
    ["c:/x", ["c:/x", "/x"]],
    ["\\\\srv\\share\\x", ["\\\\srv\\share\\x", "/srv/share/x", "/x"]],
    ["//srv/share/x", ["/srv/share/x", "/x"]],
    ["\\\\?\\C:\\x", ["\\\\?\\C:\\x", "/x"]],
    ["\\\\?\\UNC\\srv\\share\\x", ["\\\\?\\UNC\\srv\\share\\x", "/srv/share/x", "/x"]],
    // only a leading UNC after \\?\ names a server: a later `unc` directory is a directory
    ["\\\\?\\C:\\unc\\x", ["\\\\?\\C:\\unc\\x", "/unc/x"]],
    // Windows drops `.` segments between backslashes as it drops `..` ones
    ["a\\.\\b", ["a\\.\\b", "a/b"]],
    [".env.", [".env.", ".env"]],
    [".env ", [".env ", ".env"]],
    // every trailing dot and space goes, not only the last
    [".env. .", [".env. .", ".env"]],
    ["id_rsa..", ["id_rsa..", "id_rsa"]],
    ["a/.env::$DATA", ["a/.env::$DATA", "a/.env"]],
    ["name:stream", ["name:stream", "name"]],
    ["GIT~1/config", ["GIT~1/config", "<any>/config"]],
    ["x/SECRET~2.PEM", ["x/SECRET~2.PEM", "x/<any>"]],
    ["docs/con.txt", ["docs/con.txt"]],
    ["cafe\u0301", ["cafe\u0301", "café"]],
    ["f\u0131le", ["f\u0131le", "file"]],
    ["\u017Fecrets", ["\u017Fecrets"]],
    ["\u212Aube", ["\u212Aube", "Kube"]], // NFC reads the Kelvin sign as K
  ];
  it.each(cases)("reads %j as a maybe: %j", (input, readings) => {
    const read = readPath(input);
    expect(read.plain).toBe(false);
    expect(read.anywhere).toBe(false);
    expect(read.readings.map(text)).toEqual(readings);
  });

  it("reads a maybe that climbs back to where it started as the one empty relative reading", () => {
    // `ı` folds differently across file systems, so this is no plain path; every spelling resolves to `.`.
    expect(readPath("\u0131/..")).toEqual({
      plain: false,
      anywhere: false,
      readings: [{ absolute: false, segments: [] }],
    });
  });

  it.each(["", "a\u0000b", "../x", "a/../../x", "/../etc", "C:x", "C:", "a:b", "...", "C:\\..\\x", "x/:s"])(
    "reads %j as possibly anywhere",
    (input) => {
      expect(readPath(input)).toEqual({ plain: false, anywhere: true, readings: [] });
    },
  );

  it("a plain path has no backslash, colon, trailing dot or space, short name, device name, NFD or unstable case (property)", () => {
    const segment = fc.constantFrom(
      "a",
      "B",
      ".env",
      "x.ts",
      "é",
      "\u00c9",
      "a.",
      "a ",
      "a~1",
      "nul",
      "a\\b",
      "a:b",
      "\u017F",
      "\u212A",
      "\u00df",
      "e\u0301",
    );
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), (parts) => {
        const input = parts.join("/");
        const read = readPath(input);
        const weird = /[\\:]|[. ]$|[. ]\/|~[0-9]|(^|\/)nul($|\/)|\u017F|\u212A|\u00df|\u0301/.test(input);
        expect(read.plain).toBe(!weird);
        if (read.plain) expect(read.readings).toHaveLength(1);
      }),
      { numRuns: 1000 },
    );
  });
});

describe("readPath: names a file system may read as another name", () => {
  const text = (r: { absolute: boolean; segments: readonly (string | null)[] }) =>
    (r.absolute ? "/" : "") + r.segments.map((s) => (s === null ? "<any>" : s)).join("/");

  // [input, a reading it must have]: full case folding (APFS, NTFS), default-ignorable code points (HFS+ and
  // APFS drop or ignore them), `..;` segments (Tomcat, Spring) and the NT prefix `\??\`.
  const cases: [string, string][] = [
    ["home/.\u00dfh/id", "home/.ssh/id"],
    ["home/.\u1e9eh/id", "home/.ssh/id"],
    ["x/.gitcon\ufb01g", "x/.gitconfig"],
    ["a/\ufb06uff", "a/stuff"],
    ["\u01f0ar", "j\u030car"],
    [".s\u200dsh/id", ".ssh/id"],
    [".s\u200bsh/id", ".ssh/id"],
    ["\u00ad.env", ".env"],
    [".e\ufeffnv", ".env"],
    [".g\u034fit/config", ".git/config"],
    [".git\u{e0041}/config", ".git/config"],
    [".en\ufe0fv", ".env"],
    ["a/..;/b", "b"],
    ["a/..;jsessionid=x/.env", ".env"],
    ["a/.;/b", "a/b"],
    ["a\\..;\\.env", ".env"],
    ["\\??\\C:\\x\\.env", "/x/.env"],
    ["\\??\\UNC\\srv\\share\\x", "/x"],
  ];
  it.each(cases)("%j is not plain and is also read as %j", (input, reading) => {
    const read = readPath(input);
    expect(read.plain).toBe(false);
    expect(read.anywhere).toBe(false);
    expect(read.readings.map(text)).toContain(reading);
  });

  it("reads a `..;` that climbs out of its root as possibly anywhere", () => {
    expect(readPath("..;/etc/passwd").anywhere).toBe(true);
    expect(readPath("a/..;/..;/x").anywhere).toBe(true);
  });

  it.each(["~", "~/.ssh/id", "~root/x", "~/", "~u"])("%j (a home directory) is not plain", (input) => {
    const read = readPath(input);
    expect(read.plain).toBe(false);
    expect(read.anywhere).toBe(false);
    expect(readingText(read.readings[0] as PathReading)).toBe(
      (normalizePath(input) as { path: string }).path,
    );
  });

  it("a ~ later in a path, and a `;` that is not after a dot segment, stay plain", () => {
    expect(readPath("a/~/b").plain).toBe(true);
    expect(readPath("a/b;c").plain).toBe(true);
    expect(readPath("a/...;/b").plain).toBe(true);
  });

  // Tricky code points: full folding, simple folding, Turkic i, ignorables, NFD, tilde, `;`, Windows syntax.
  const tricky = fc.constantFrom(
    "a",
    "s",
    "S",
    "i",
    "t",
    ".",
    "..",
    "/",
    "/",
    "~",
    ";",
    "\u00df",
    "\u1e9e",
    "\ufb01",
    "\ufb06",
    "\u017f",
    "\u0131",
    "\u0130",
    "\u01f0",
    "\u0149",
    "\u212a",
    "\u200d",
    "\u00ad",
    "\ufeff",
    "\u034f",
    "\u{e0041}",
    "\u3164",
    "\ufe0f",
    "e\u0301",
    "\\",
    ":",
    " ",
  );
  /** A name a file system may compare this spelling as: full case fold, no ignorables, NFC, normalised. */
  const comparedAs = (spelling: string): string | undefined => {
    const stripped = fullFoldString(
      // biome-ignore lint/suspicious/noMisleadingCharacterClass: each code point is meant on its own.
      spelling.replace(/[\u00ad\u034f\u200b-\u200f\u3164\ufe0f\ufeff\u{e0041}]/gu, ""),
    );
    const normal = normalizePath(stripped.normalize("NFC"));
    return normal.ok && !normal.escapesRoot ? normal.path : undefined;
  };

  it("a plain path never hides another name: its spellings all compare as its one reading (property)", () => {
    fc.assert(
      fc.property(fc.array(tricky, { minLength: 1, maxLength: 8 }), (parts) => {
        const input = parts.join("");
        const read = readEveryWay(input);
        if (!read.plain) return;
        expect(read.readings).toHaveLength(1);
        const reading = readingText(read.readings[0] as PathReading);
        // No ignorable, full folding is simple folding, NFC, no home directory, no dot segment with a parameter.
        expect(foldString(fullFoldString(input))).toBe(foldString(input));
        expect(input.normalize("NFC")).toBe(input);
        expect(input.startsWith("~")).toBe(false);
        expect(/(^|\/)\.\.?;/.test(input)).toBe(false);
        for (const spelling of [input, input.normalize("NFD"), reading])
          expect(comparedAs(spelling), JSON.stringify(spelling)).toBe(comparedAs(reading));
      }),
      { numRuns: 5_000 },
    );
  });

  it("every name a path may be compared as is among its readings, compared the same way (property)", () => {
    fc.assert(
      fc.property(fc.array(tricky, { minLength: 1, maxLength: 8 }), (parts) => {
        const input = parts.join("");
        const read = readEveryWay(input);
        const name = comparedAs(input);
        if (read.anywhere || name === undefined) return;
        const names = read.readings
          .filter((r) => !r.segments.includes(null))
          .map((r) => comparedAs(readingText(r)));
        expect(names, JSON.stringify(input)).toContain(name);
      }),
      { numRuns: 5_000 },
    );
  });
});

describe("readPath's shortcut for simple paths", () => {
  it("gives exactly the readings of the full reading (property)", () => {
    const text = fc
      .array(fc.constantFrom(..."aZ09_-./~: \\", "con", "LPT1", "nul.txt", "PROGRA~1", ".env", "..", "é"), {
        maxLength: 8,
      })
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(text, (input) => {
        expect(readPath(input)).toEqual(readEveryWay(input));
      }),
      { numRuns: 5_000 },
    );
  });

  // The short cut keeps the common case cheap (read_file's paths): it must take every path of that case itself,
  // and leave every other path to the full reading.
  it.each([
    "a",
    "z",
    "A",
    "Z",
    "0",
    "9",
    "_",
    "-",
    ".env",
    "src/a-b_c.ts",
    "AZ/az/09/_-.x",
    "a.b/c",
    "co/pr/au/nu/lp/x",
    "console.txt",
  ])("reads %j itself: plain, one reading of its own segments", (input) => {
    expect(readSimplePath(input)).toEqual({
      plain: true,
      anywhere: false,
      readings: [{ absolute: false, segments: input.split("/") }],
    });
  });

  it.each([
    "",
    "/a",
    "a/",
    "a//b",
    "a./b",
    "a.",
    "..",
    "a/../b",
    "con",
    "AUX/x",
    "x/nul.txt",
    "lpt1",
    "a b",
    "a\\b",
    "a:b",
    "a~1",
    "é",
    "`",
    "{",
    "@",
    "[",
    ",",
    "^",
  ])("leaves %j to the full reading", (input) => {
    expect(readSimplePath(input)).toBeUndefined();
  });
});

describe("readEveryWay: readings kept apart", () => {
  it.each([
    ["ı", [["ı"], ["i"]]],
    ["a\\b", [["a\\b"], ["a", "b"]]],
    [
      "x/ab~1",
      [
        ["x", "ab~1"],
        ["x", null],
      ],
    ],
  ])("%j has every reading once", (input, segments) => {
    const read = readEveryWay(input);
    expect(read.readings.map((r) => r.segments)).toEqual(segments);
  });

  it("keeps a relative and an absolute reading of one path apart", () => {
    expect(readEveryWay("\\a").readings).toEqual([
      { absolute: false, segments: ["\\a"] },
      { absolute: true, segments: ["a"] },
    ]);
  });
});
