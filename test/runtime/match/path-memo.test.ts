import { describe, expect, it } from "vitest";
import {
  normalizePath,
  type PathReadings,
  PathReadMemo,
  readingText,
  readPath,
} from "../../../src/runtime/match/path.js";

// Paths of every kind the memo may hold in a row: simple ones (read by the shortcut, whose first reading's text
// is the input itself), plain ones that need normalising, maybes with several readings, and "anywhere".
const PATHS = [
  "src/index.ts",
  "./a/../b",
  "docs/résumé.md",
  "C:\\Users\\u\\.ssh",
  "\\\\srv\\share\\x",
  "../x",
  "src/index.ts",
  "src/index.ts",
  "lib/a.ts",
  "./a/../b",
];

/** Every reading's text, through the memo. */
function texts(memo: PathReadMemo, read: PathReadings): string[] {
  return read.readings.map((_, i) => memo.text(read, i));
}

describe("PathReadMemo answers exactly as a fresh reading", () => {
  it("read: the readings of each path of a sequence, repeats included", () => {
    const memo = new PathReadMemo();
    for (const path of PATHS) expect(memo.read(path), path).toEqual(readPath(path));
  });

  it("text: the text of each reading, asked twice, for paths in a row", () => {
    const memo = new PathReadMemo();
    for (const path of PATHS) {
      const read = memo.read(path);
      const expected = readPath(path).readings.map(readingText);
      expect(texts(memo, read), path).toEqual(expected);
      expect(texts(memo, read), path).toEqual(expected);
    }
  });

  it("text: a normalised path's first reading is its normal form, not the input", () => {
    const memo = new PathReadMemo();
    expect(memo.text(memo.read("./a/../b"), 0)).toBe("b");
    expect(memo.text(memo.read("src/index.ts"), 0)).toBe("src/index.ts");
    expect(memo.text(memo.read("a//b/"), 0)).toBe("a/b");
    const windows = memo.read("C:\\Users\\u\\.ssh");
    expect(texts(memo, windows)).toEqual(["C:\\Users\\u\\.ssh", "/Users/u/.ssh"]);
  });

  it("text: readings the memo did not make last are read afresh, not from its cache", () => {
    const memo = new PathReadMemo();
    // Before any path was read too.
    expect(memo.text(readPath("./x/../z"), 0)).toBe("z");
    const older = memo.read("./x/../y");
    expect(memo.text(older, 0)).toBe("y");
    const current = memo.read("src/index.ts");
    expect(memo.text(current, 0)).toBe("src/index.ts");
    // `older` is no longer what the memo holds: its text is its own, not the current path's.
    expect(memo.text(older, 0)).toBe("y");
    expect(memo.text(readPath("lib/a.ts"), 0)).toBe("lib/a.ts");
    expect(memo.text(readPath("\\\\srv\\share\\x"), 2)).toBe("/x");
  });

  it("reads a path once while it is the last one asked for, and afresh after another", () => {
    const memo = new PathReadMemo();
    for (const path of ["src/index.ts", "./a/../b", "C:\\Users\\u\\.ssh"]) {
      const first = memo.read(path);
      expect(memo.read(path), path).toBe(first);
      const normal = memo.normalize(path);
      expect(memo.normalize(path), path).toBe(normal);
      // Another path in between: the first is read again, to equal readings in a new object.
      memo.read("lib/other.ts");
      memo.normalize("lib/other.ts");
      const again = memo.read(path);
      expect(again, path).not.toBe(first);
      expect(again, path).toEqual(first);
      expect(memo.normalize(path), path).not.toBe(normal);
      expect(memo.normalize(path), path).toEqual(normal);
    }
  });

  it("normalize: the normal form of each path of a sequence, repeats included", () => {
    const memo = new PathReadMemo();
    for (const path of [...PATHS, "", "a\0b", "/../etc", "/../etc", "x"]) {
      expect(memo.normalize(path), path).toEqual(normalizePath(path));
    }
  });
});

describe("readingText", () => {
  it("spells a reading as a path: `/` before an absolute one, `.` for no segment", () => {
    expect(readingText({ absolute: false, segments: [] })).toBe(".");
    expect(readingText({ absolute: true, segments: [] })).toBe("/");
    expect(readingText({ absolute: false, segments: ["a", "b"] })).toBe("a/b");
    expect(readingText({ absolute: true, segments: ["etc", "passwd"] })).toBe("/etc/passwd");
  });
});

describe("readPath: Windows device names are never plain", () => {
  it.each(["aux", "AUX.txt", "prn", "docs/prn.log", "nul", "lpt1", "com2.md", "con"])("%j", (path) => {
    expect(readPath(path).plain).toBe(false);
  });
});

describe("readPath: names that are no device, and a \\\\.\\ prefix only at the start", () => {
  it.each(["coma.txt", "lpta", "docs/comx", "com", "lpt"])("%j is plain", (path) => {
    expect(readPath(path).plain).toBe(true);
  });

  it("reads x\\\\.\\y as relative on every platform: \\\\.\\ is a device prefix only at the start", () => {
    const read = readPath("x\\\\.\\y");
    expect(read.anywhere).toBe(false);
    expect(read.readings.map(readingText)).toEqual(["x\\\\.\\y", "x/y"]);
  });
});
