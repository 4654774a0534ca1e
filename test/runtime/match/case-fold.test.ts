import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { foldCodePoint, foldString, isFoldStable } from "../../../src/runtime/match/case-fold.js";

const single = (text: string): number => {
  const cp = text.codePointAt(0) as number;
  return text.length === (cp > 0xffff ? 2 : 1) ? cp : -1;
};
const sameIgnoringCase = (a: number, b: number): boolean =>
  new RegExp(`^\\u{${a.toString(16)}}$`, "iu").test(String.fromCodePoint(b));

describe("Unicode simple case folding", () => {
  it("puts two code points together exactly when RegExp with flags iu does, for every code point", () => {
    const wrong: string[] = [];
    for (let c = 0; c <= 0x10ffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      const ch = String.fromCodePoint(c);
      // Every other member of c's class is among these (the fold, the upper and lower case, and their folds).
      const candidates = new Set(
        [foldCodePoint(c), single(ch.toUpperCase()), single(ch.toLowerCase())].filter(
          (d) => d >= 0 && d !== c,
        ),
      );
      for (const d of candidates) {
        if ((foldCodePoint(c) === foldCodePoint(d)) !== sameIgnoringCase(c, d))
          wrong.push(`${c.toString(16)}~${d.toString(16)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("folds the letters toLowerCase gets wrong", () => {
    expect(foldString("\u017F")).toBe("s"); // ſ
    expect(foldString("\u212A")).toBe("k"); // Kelvin sign
    expect(foldString("\u1E9E")).toBe("\u00df"); // ẞ → ß, not ss
    expect(foldString("\u0131")).toBe("\u0131"); // dotless i has no simple folding
    // The three pairs whose upper case is several code points, so that neither case mapping leads to the other.
    expect(foldString("\u1FD3")).toBe(foldString("\u0390")); // ΐ, ΐ
    expect(foldString("\u1FE3")).toBe(foldString("\u03B0")); // ΰ, ΰ
    expect(foldString("\uFB05")).toBe(foldString("\uFB06")); // ﬅ, ﬆ
    expect(foldString("\u{10400}")).toBe("\u{10428}");
    expect(foldString("ReadMe.MD")).toBe("readme.md");
  });

  it("is idempotent and agrees with RegExp iu on sampled pairs (property)", () => {
    const cased = fc.oneof(
      fc.integer({ min: 0x41, max: 0x7a }),
      fc.integer({ min: 0xc0, max: 0x5ff }),
      fc.integer({ min: 0x1e00, max: 0x1fff }),
      fc.integer({ min: 0x2100, max: 0x218f }),
      fc.integer({ min: 0x10400, max: 0x1044f }),
    );
    fc.assert(
      fc.property(cased, cased, (a, b) => {
        expect(foldCodePoint(foldCodePoint(a))).toBe(foldCodePoint(a));
        expect(foldCodePoint(a) === foldCodePoint(b)).toBe(sameIgnoringCase(a, b));
      }),
      { numRuns: 5000 },
    );
  });
});

describe("isFoldStable", () => {
  // ASCII (k and s too, though the Kelvin sign and ſ fold with them), characters without case (中, →) and plain
  // pairs of the long-stable blocks (ÿ and Ÿ) fold alike everywhere.
  it.each([..."aZ09kKsS._-/ éÉçñøßΣσ中→ÿŸ"].filter((c) => !"ßΣσ".includes(c)))(
    "%j folds alike everywhere",
    (c) => {
      expect(isFoldStable(c.codePointAt(0) as number)).toBe(true);
    },
  );
  it.each([
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
    "\u0250", // ɐ: its upper case Ɐ came to Unicode later
    "\u00b5", // µ: three characters fold together (µ, μ, Μ)
    "\u01c5", // ǅ: a title-case letter, one of three
    "\u0149", // ŉ: no case pair, yet its upper case is two characters
    "\u13a0", // Ꭰ: Cherokee, cased in later Unicode versions
    "\uab70",
    "\ufb05",
  ])("%j folds differently on some file system", (c) => {
    expect(isFoldStable(c.codePointAt(0) as number)).toBe(false);
  });
});
