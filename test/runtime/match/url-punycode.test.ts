/**
 * Punycode decoding (RFC 3492) against two oracles nobody here wrote: the RFC's own samples, and Node's IDNA
 * (`domainToASCII` / `domainToUnicode` of `node:url`), on labels of every script and plane and on junk.
 */
import { domainToASCII, domainToUnicode } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodePunycode } from "../../../src/runtime/match/punycode.js";
import { encodePunycode } from "./punycode-encoder.js";

describe("punycode: RFC 3492's samples (section 7.1)", () => {
  const samples: readonly [string, string, string][] = [
    ["Arabic (Egyptian)", "egbpdaj6bu4bxfgehfvwxn", "ليهمابتكلموشعربي؟"],
    ["Chinese (simplified)", "ihqwcrb4cv8a8dqg056pqjye", "他们为什么不说中文"],
    ["Chinese (traditional)", "ihqwctvzc91f659drss3x8bo0yb", "他們爲什麽不說中文"],
    ["Czech", "Proprostnemluvesky-uyb24dma41a", "Pročprostěnemluvíčesky"],
    ["Hebrew", "4dbcagdahymbxekheh6e0a7fei0b", "למההםפשוטלאמדבריםעברית"],
    ["Hindi", "i1baa7eci9glrd9b2ae1bj0hfcgg6iyaf8o0a1dig0cd", "यहलोगहिन्दीक्योंनहींबोलसकतेहैं"],
    ["Japanese", "n8jok5ay5dzabd5bym9f0cm5685rrjetr6pdxa", "なぜみんな日本語を話してくれないのか"],
    [
      "Korean",
      "989aomsvi5e83db1d2a355cv1e0vak1dwrv93d5xbh15a0dt30a5jpsd879ccm6fea98c",
      "세계의모든사람들이한국어를이해한다면얼마나좋을까",
    ],
    ["Russian", "b1abfaaepdrnnbgefbaDotcwatmq2g4l", "почемужеонинеговорятпорусски"],
    ["Spanish", "PorqunopuedensimplementehablarenEspaol-fmd56a", "PorquénopuedensimplementehablarenEspañol"],
    ["Vietnamese", "TisaohkhngthchnitingVit-kjcr8268qyxafd2f1b9g", "TạisaohọkhôngthểchỉnóitiếngViệt"],
    ["3<nen>B<gumi><kinpachi><sensei>", "3B-ww4c5e180e575a65lsy2b", "3年B組金八先生"],
    [
      "<amuro><namie>-with-SUPER-MONKEYS",
      "-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n",
      "安室奈美恵-with-SUPER-MONKEYS",
    ],
    [
      "Hello-Another-Way-<sorezore><no><basho>",
      "Hello-Another-Way--fc4qua05auwb3674vfr0b",
      "Hello-Another-Way-それぞれの場所",
    ],
    ["<hitotsu><yane><no><shita>2", "2-u9tlzr9756bt3uc0v", "ひとつ屋根の下2"],
    ["Maji<de>Koi<suru>5<byou><mae>", "MajiKoi5-783gue6qz075azm5e", "MajiでKoiする5秒前"],
    ["<pafii>de<runba>", "de-jg4avhby1noc0d", "パフィーdeルンバ"],
    ["<sono><supiido><de>", "d9juau41awczczp", "そのスピードで"],
    ["-> $1.00 <-", "-> $1.00 <--", "-> $1.00 <-"],
  ];
  it.each(samples)("%s", (_name, encoded, decoded) => {
    expect(decodePunycode(encoded)).toBe(decoded);
  });
});

/** Labels from pools of code points that exercise every branch of the decoder: ASCII, each plane, hyphens. */
const POOLS: readonly (readonly [number, number])[] = [
  [0x61, 0x7a], // a-z: basic code points copied before the delimiter
  [0x30, 0x39], // digits
  [0x2d, 0x2d], // hyphen: several of them, the last one is the delimiter
  [0xe0, 0xff], // Latin-1 letters: small deltas
  [0x100, 0x24f], // Latin Extended
  [0x3b1, 0x3c9], // Greek
  [0x430, 0x44f], // Cyrillic
  [0x5d0, 0x5ea], // Hebrew
  [0x627, 0x64a], // Arabic
  [0x905, 0x939], // Devanagari
  [0xe01, 0xe2e], // Thai
  [0x3041, 0x3096], // Hiragana
  [0x4e00, 0x9fff], // Han
  [0xac00, 0xd7a3], // Hangul syllables
  [0x1f300, 0x1f5ff], // emoji, beyond the BMP: surrogate pairs in JavaScript strings
  [0x20000, 0x2a6df], // Han extension B
  [0x30000, 0x3134a], // Han extension G, far up
];
const labelArb = fc
  .array(
    fc
      .nat(POOLS.length - 1)
      .chain((pool) => {
        const [low, high] = POOLS[pool] as readonly [number, number];
        return fc.integer({ min: low, max: high });
      })
      .map((codePoint) => String.fromCodePoint(codePoint)),
    { minLength: 1, maxLength: 24 },
  )
  .map((characters) => characters.join(""));

describe("punycode: differential against Node's IDNA", () => {
  it("decodes every label Node encodes to punycode back to what Node decodes it to", () => {
    let compared = 0;
    for (const label of fc.sample(labelArb, { seed: 3492, numRuns: 3000 })) {
      const ascii = domainToASCII(label);
      if (!ascii.startsWith("xn--") || ascii.includes(".")) continue;
      const unicode = domainToUnicode(ascii);
      if (unicode === "") continue;
      compared++;
      expect(decodePunycode(ascii.slice(4)), `${label} as ${ascii}`).toBe(unicode);
    }
    // Most labels are valid IDNA; those Node refuses (a hyphen first or last, mixed directions) are skipped.
    expect(compared).toBeGreaterThan(1500);
  });

  it("on any ASCII text agrees with Node whenever Node decodes it, and refuses only what Node refuses", () => {
    const junkArb = fc
      .array(fc.constantFrom(..."abcxyzABCXYZ0189-_!~"), { minLength: 0, maxLength: 12 })
      .map((characters) => characters.join(""));
    let decodedByNode = 0;
    for (const text of fc.sample(junkArb, { seed: 3492, numRuns: 4000 })) {
      // RFC 3492 consumes the last delimiter only after at least one basic code point, so a text that starts
      // with its only hyphen is a hyphen digit, which is invalid; Node's decoder skips it. Refusing is stricter.
      if (text.lastIndexOf("-") === 0) {
        expect(decodePunycode(text), text).toBeUndefined();
        continue;
      }
      const node = domainToUnicode(`xn--${text}`);
      const ours = decodePunycode(text.toLowerCase());
      // Node also applies IDNA's checks to the decoded label, so it may refuse more; never less.
      if (ours === undefined) expect(node, text).toBe("");
      if (node !== "" && node !== `xn--${text.toLowerCase()}`) {
        decodedByNode++;
        expect(ours, text).toBe(node);
      }
    }
    expect(decodedByNode).toBeGreaterThan(100);
  });

  it("decodes the longest labels with a code point far up, where the position number passes 4 × U+10FFFF", () => {
    for (const label of [
      `${"a".repeat(50)}\u{3134a}`,
      `${"a".repeat(30)}\u{20000}${"b".repeat(20)}`,
      `${"例".repeat(30)}\u{3134a}`,
    ]) {
      const ascii = domainToASCII(label);
      expect(ascii.length, label).toBeLessThanOrEqual(63);
      expect(domainToUnicode(ascii), label).toBe(label);
      expect(decodePunycode(ascii.slice(4)), label).toBe(label);
    }
  });

  it("reads digits in either case, as RFC 3492 says (section 5)", () => {
    expect(decodePunycode("bcher-KVA")).toBe("bücher");
    expect(decodePunycode("BCHER-kva")).toBe("BüCHER");
    expect(decodePunycode("R8JZ45G")).toBe("例え");
    expect(decodePunycode("E28H")).toBe("😀");
  });

  it("refuses what is not punycode", () => {
    // A character that is not a base-36 digit, on each side of every digit range.
    for (const text of ["!", "/", ":", "@", "[", "`", "{", "ü", "a b", "bcher-kv!", "bcher-kv@"])
      expect(decodePunycode(text), text).toBeUndefined();
    // A non-ASCII code point before the delimiter.
    expect(decodePunycode("bü-kva")).toBeUndefined();
    expect(decodePunycode("\u0080-kva")).toBeUndefined();
    expect(decodePunycode(encodePunycode("\u007fü"))).toBe("\u007fü");
    // The characters just past z, which are no digits: in place of a 0 to 3 in valid punycode.
    for (const text of [
      "ihqwcrb4cv8a8dqg{56pqjye",
      "bcher-kva|",
      "3b-ww4c5e18}e575a65lsy2b",
      "ihqwcrb4cv8a8dqg~56pqjye",
    ])
      expect(decodePunycode(text), text).toBeUndefined();
    // A number cut short: its last digit is not below the threshold.
    expect(decodePunycode("bcher-kv9")).toBeUndefined();
    expect(decodePunycode("9")).toBeUndefined();
    // A delimiter first: the text before it is empty and the hyphen is not a digit.
    expect(decodePunycode("-kva")).toBeUndefined();
    // A code point beyond U+10FFFF, and numbers far beyond it.
    expect(decodePunycode("zzzzzzzz")).toBeUndefined();
    expect(decodePunycode("aaaaaaaaaaaa-99999999999")).toBeUndefined();
    expect(decodePunycode("9".repeat(400))).toBeUndefined();
  });

  it("decodes the edges: no basic code points, only basic ones, the highest code point", () => {
    expect(decodePunycode("")).toBe("");
    expect(decodePunycode("abc-")).toBe("abc");
    expect(decodePunycode("a-b-")).toBe("a-b");
    expect(decodePunycode("tda")).toBe("ü");
    expect(decodePunycode(encodePunycode("\u{10ffff}"))).toBe("\u{10ffff}");
    expect(decodePunycode(encodePunycode("\u0080"))).toBe("\u0080");
  });
});

describe("punycode: the tests' own encoder (RFC 3492, section 6.3)", () => {
  it("agrees with Node's on the labels of the differential test", () => {
    let compared = 0;
    for (const label of fc.sample(labelArb, { seed: 3492, numRuns: 1000 })) {
      const ascii = domainToASCII(label);
      if (!ascii.startsWith("xn--") || ascii.includes(".") || domainToUnicode(ascii) !== label) continue;
      compared++;
      expect(`xn--${encodePunycode(label)}`, label).toBe(ascii);
    }
    expect(compared).toBeGreaterThan(300);
  });
});
