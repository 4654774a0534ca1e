import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  buildFoldTable,
  type FoldTable,
  foldCodePoint,
  foldString,
  fullFoldString,
  isFoldStable,
} from "../../../src/runtime/match/case-fold.js";
import { CharSet } from "../../../src/runtime/match/regex/char-set.js";
import { compileRegex } from "../../../src/runtime/match/regex/index.js";

// The process keeps one fold table once it is built; each test here builds its own, so that what it checks is
// the table the code builds now (a change to the builder cannot hide behind a table built by an earlier test).
let table: FoldTable;
const freshTable = (): void => {
  table = buildFoldTable();
};

const single = (text: string): number => {
  const cp = text.codePointAt(0) as number;
  return text.length === (cp > 0xffff ? 2 : 1) ? cp : -1;
};
const sameIgnoringCase = (a: number, b: number): boolean =>
  new RegExp(`^\\u{${a.toString(16)}}$`, "iu").test(String.fromCodePoint(b));

describe("Unicode simple case folding", () => {
  it("puts two code points together exactly when RegExp with flags iu does, for every code point", () => {
    freshTable();
    const wrong: string[] = [];
    for (let c = 0; c <= 0x10ffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      const ch = String.fromCodePoint(c);
      // Every other member of c's class is among these (the fold, the upper and lower case, and their folds).
      const candidates = new Set(
        [foldCodePoint(c, table), single(ch.toUpperCase()), single(ch.toLowerCase())].filter(
          (d) => d >= 0 && d !== c,
        ),
      );
      for (const d of candidates) {
        if ((foldCodePoint(c, table) === foldCodePoint(d, table)) !== sameIgnoringCase(c, d))
          wrong.push(`${c.toString(16)}~${d.toString(16)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("folds the letters toLowerCase gets wrong", () => {
    freshTable();
    // foldString (with the table the process keeps) and the fold of each code point by a table built now.
    const folds = (text: string, expected: string): void => {
      expect(foldString(text)).toBe(expected);
      const fresh = [...text].map((ch) =>
        String.fromCodePoint(foldCodePoint(ch.codePointAt(0) as number, table)),
      );
      expect(fresh.join("")).toBe(expected);
    };
    folds("\u017F", "s"); // ſ
    folds("\u212A", "k"); // Kelvin sign
    folds("\u1E9E", "\u00df"); // ẞ → ß, not ss
    folds("\u0131", "\u0131"); // dotless i has no simple folding
    folds("\u0130", "\u0130"); // nor has İ (its lower case is two code points, i and a combining dot)
    // The three pairs whose upper case is several code points, so that neither case mapping leads to the other.
    folds("\u1FD3", foldString("\u0390")); // ΐ, ΐ
    folds("\u1FE3", foldString("\u03B0")); // ΰ, ΰ
    folds("\uFB05", foldString("\uFB06")); // ﬅ, ﬆ
    folds("\u{10400}", "\u{10428}");
    folds("ReadMe.MD", "readme.md");
    folds("\u0080K\u00C9", "\u0080k\u00e9");
  });

  it("is idempotent and agrees with RegExp iu on sampled pairs (property)", () => {
    freshTable();
    const cased = fc.oneof(
      fc.integer({ min: 0x41, max: 0x7a }),
      fc.integer({ min: 0xc0, max: 0x5ff }),
      fc.integer({ min: 0x1e00, max: 0x1fff }),
      fc.integer({ min: 0x2100, max: 0x218f }),
      fc.integer({ min: 0x10400, max: 0x1044f }),
    );
    fc.assert(
      fc.property(cased, cased, (a, b) => {
        expect(foldCodePoint(foldCodePoint(a, table), table)).toBe(foldCodePoint(a, table));
        expect(foldCodePoint(a, table) === foldCodePoint(b, table)).toBe(sameIgnoringCase(a, b));
      }),
      { numRuns: 5000 },
    );
  });
});

describe("case-insensitive classes, which read the fold table by ranges", () => {
  // Every code point that has a case outside ASCII lies in one of these blocks (the fold table's own list).
  const blocks: [number, number][] = [
    [0x0, 0x7f],
    [0x80, 0x5ff],
    [0x1000, 0x13ff],
    [0x1c00, 0x1fff],
    [0x2100, 0x2cff],
    [0xa600, 0xa7ff],
    [0xab00, 0xabff],
    [0xfb00, 0xfb06],
    [0xff00, 0xffff],
    [0x10400, 0x105ff],
    [0x10c00, 0x10dff],
    [0x11800, 0x118ff],
    [0x16e00, 0x16eff],
    [0x1e900, 0x1e9ff],
  ];
  const everyCased: number[] = [];
  for (const [lo, hi] of blocks)
    for (let c = lo; c <= hi; c++) if (c < 0xd800 || c > 0xdfff) everyCased.push(c);
  const hex = (c: number): string => `\\u{${c.toString(16)}}`;

  // Whole blocks, single letters whose class crosses blocks (s, k, ß, σ, µ, ΐ, ﬆ) and ranges that start or end
  // inside a class, so that the scan of the sorted keys must find both its first and its last key.
  const ranges: [number, number][] = [
    ...blocks,
    [0x41, 0x5a],
    [0x61, 0x7a],
    [0x73, 0x73],
    [0x6b, 0x6b],
    [0xdf, 0xdf],
    [0x3c3, 0x3c3],
    [0xb5, 0xb5],
    [0x390, 0x390],
    [0x1fd3, 0x1fd3],
    [0x1fd0, 0x1fe3],
    [0xfb05, 0xfb05],
    [0xfb06, 0xfb06],
    [0x17f, 0x17f],
    [0x212a, 0x212a],
    [0x10428, 0x1044f],
    [0x1e922, 0x1e943],
  ];
  it("holds in [lo-hi] with flags iu what RegExp's class holds, for ranges that cross classes and blocks", () => {
    freshTable();
    const wrong: string[] = [];
    for (const [lo, hi] of ranges) {
      const ours = compileRegex(`^[${hex(lo)}-${hex(hi)}]$`, "iu");
      if (!ours.ok) throw new Error(ours.message);
      // The same class over the table built now: a character is in it when its fold is.
      const fresh = new CharSet([lo, hi], false, table);
      const theirs = new RegExp(`^[${hex(lo)}-${hex(hi)}]$`, "iu");
      for (const c of everyCased) {
        const expected = theirs.test(String.fromCodePoint(c));
        if (
          ours.regex.test(String.fromCodePoint(c)) !== expected ||
          fresh.has(foldCodePoint(c, table)) !== expected
        )
          wrong.push(`[${lo.toString(16)}-${hi.toString(16)}] ${c.toString(16)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe("isFoldStable", () => {
  // ASCII (k and s too, though the Kelvin sign and ſ fold with them), characters without case (中, →) and plain
  // pairs of the long-stable blocks (ÿ and Ÿ) fold alike everywhere.
  it("is true for ASCII, characters without case and plain pairs of the long-stable blocks", () => {
    freshTable();
    // k and s too, though the Kelvin sign and ſ fold with them; 中 and → have no case; ÿ Ÿ, Ԯ ԯ are plain pairs.
    const stable = [..."aZ09kKsS._-/ éÉçñø中→ÿŸԮԯ"].filter(
      (c) => !isFoldStable(c.codePointAt(0) as number, table),
    );
    expect(stable).toEqual([]);
  });
  it("is false for characters that fold differently on some file system", () => {
    freshTable();
    const unstable = [
      "\u017F",
      "\u212A",
      "\u00df",
      "\u0131",
      "\u0130",
      "\u03c2",
      "\u03a3",
      "\u1E9E",
      "\u10D0",
      "\u{10400}",
      "\u0561", // ա: Armenian, past the last block whose pairs every table has always had (up to U+052F)
      "\u0250", // ɐ: its upper case Ɐ came to Unicode later
      "\u023a", // Ⱥ: its lower case ⱥ lies past the long-stable blocks (it came to Unicode later)
      "\u00b5", // µ: three characters fold together (µ, μ, Μ)
      "\u01c5", // ǅ: a title-case letter, one of three
      "\u0149", // ŉ: no case pair, yet its upper case is two characters
      "\u13a0", // Ꭰ: Cherokee, cased in later Unicode versions
      "\uab70",
      "\ufb05",
    ].filter((c) => isFoldStable(c.codePointAt(0) as number, table));
    expect(unstable).toEqual([]);
  });
});

describe("fullFoldString", () => {
  it.each([
    ["\u00df", "ss"],
    ["\u1e9e", "ss"],
    ["\ufb01", "fi"],
    ["\ufb06", "st"],
    ["\u01f0", "j\u030c"],
    ["\u0130", "i\u0307"],
    ["\u0149", "\u02bcn"],
    ["\u017f", "s"],
    ["\u212a", "k"],
    ["ABC.env", "abc.env"],
    ["\u03a3\u0391\u03a3", "\u03c3\u03b1\u03c3"],
  ])("folds %j to %j", (input, folded) => {
    expect(fullFoldString(input)).toBe(folded);
  });
});
