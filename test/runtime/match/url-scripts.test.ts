/**
 * Which internationalised host labels the `url` operator trusts: labels as the URL parser gives them (Node's
 * `domainToASCII`, the same IDNA as `URL`), and a few that only a hand-made punycode can spell.
 */
import { domainToASCII } from "node:url";
import { describe, expect, it } from "vitest";
import { hostLabelProblem } from "../../../src/runtime/match/url-scripts.js";
import { encodePunycode } from "./punycode-encoder.js";

/** The label the URL parser makes of a Unicode label. */
function parsed(unicode: string): string {
  const ascii = domainToASCII(unicode);
  if (!ascii.startsWith("xn--") || ascii.includes(".")) throw new Error(`${unicode} is not one IDNA label`);
  return ascii;
}

/** A label IDNA itself would not make (upper case, decomposed, a control): punycode spelt by hand. */
const handMade = (unicode: string) => `xn--${encodePunycode(unicode)}`;

describe("host labels: trusted", () => {
  const trusted: readonly [string, string][] = [
    ["Latin", "bücher"],
    ["Han", "例え".slice(0, 1)],
    ["Hiragana", "あい"],
    ["Katakana", "アイ"],
    ["Bopomofo", "ㄅㄆ"],
    ["Hangul", "한국"],
    ["Arabic", "مصر"],
    ["Hebrew", "עברית"],
    ["Thai", "ไทย"],
    ["Devanagari", "भारत"],
    ["Bengali", "বাংলা"],
    ["Tamil", "இந்தியா"],
    ["Georgian", "გე"],
    ["Ethiopic", "ሀለ"],
    ["Khmer, a script with no look-alikes and no name in the table", "កម្ពុជា"],
    ["Latin, Han, Hiragana and Katakana", "aあア例"],
    ["Latin, Han and Bopomofo", "aㄅ例"],
    ["Latin, Han and Hangul", "a한例"],
    ["Han and Hangul", "한例"],
    ["Latin and Hiragana", "aあ"],
    ["Katakana and Han", "ア例"],
    ["Latin and Bopomofo", "aㄅ"],
    ["Latin and Hangul", "a한"],
    ["Arabic with a digit, which is no script", "مصر1"],
    ["Thai with a digit and a hyphen", "ไทย-1"],
    ["Han with digits and hyphens", "1例-2"],
  ];
  it.each(trusted)("%s", (_name, unicode) => {
    expect(hostLabelProblem(parsed(unicode))).toBeUndefined();
  });
  it("plain ASCII that is not punycode, whatever it spells", () => {
    for (const label of ["github", "a-b", "xn-a", "x", "123", "XN--PI-6KC"])
      expect(hostLabelProblem(label), label).toBeUndefined();
  });
});

describe("host labels: refused, saying why", () => {
  it("letters of a script full of Latin look-alikes", () => {
    const lookAlikes: readonly [string, string][] = [
      ["Cyrillic", "аpple"],
      ["Greek", "αpple"],
      ["Armenian", "ապ"],
      ["Cherokee", "Ꭰ"],
      ["Coptic", "ⲁ"],
      ["Lisu", "ꓐ"],
      ["Canadian_Aboriginal", "ᐁ"],
    ];
    for (const [script, unicode] of lookAlikes) {
      const label = parsed(unicode);
      expect(hostLabelProblem(label)).toBe(
        `"${label}" (${unicode}) has ${script} letters, which look like Latin ones`,
      );
    }
    // A look-alike letter after letters of a trusted script.
    expect(hostLabelProblem(parsed("例а"))).toMatch(/has Cyrillic letters/);
  });

  it("Latin letters that imitate ASCII ones", () => {
    for (const [unicode, character] of [
      ["gıthub", "ı"],
      ["ɑpple", "ɑ"],
      ["ɡoogle", "ɡ"],
      ["ᴀpple", "ᴀ"],
      ["ꞵeta", "ꞵ"],
      ["ꭓ", "ꭓ"],
    ]) {
      const label = parsed(unicode as string);
      expect(hostLabelProblem(label)).toBe(
        `"${label}" (${unicode}) has "${character}", which looks like an ASCII letter`,
      );
    }
    // The upper-case form, which IDNA maps to lower case before the parser hands the label on.
    expect(hostLabelProblem(handMade("xƄ"))).toMatch(/has "Ƅ", which looks like an ASCII letter/);
  });

  it("symbols and combining marks, named by code point", () => {
    expect(hostLabelProblem(parsed("x♥"))).toBe(`"xn--x-n3p" (x♥) has the symbol or mark U+2665`);
    expect(hostLabelProblem(parsed("a·b"))).toBe(`"xn--ab-0ea" (a·b) has the symbol or mark U+00B7`);
    expect(hostLabelProblem(parsed("x\u030a"))).toBe(`"xn--x-gcb" (x\u030a) has the symbol or mark U+030A`);
    // U+0080, the first code point past ASCII, is a control: IDNA never makes it, punycode can.
    expect(hostLabelProblem("xn--a")).toBe(`"xn--a" (\u0080) has the symbol or mark U+0080`);
  });

  it("mixtures of scripts that are not the usual East Asian ones", () => {
    const mixtures: readonly [string, string][] = [
      ["aไทย", "Latin, Thai"],
      ["ไทยa", "Thai, Latin"],
      ["ก例", "Thai, Han"],
      ["กあ", "Thai, Hiragana"],
      ["กア", "Thai, Katakana"],
      ["กㄅ", "Thai, Bopomofo"],
      ["ก한", "Thai, Hangul"],
      ["กअ", "Thai, Devanagari"],
      ["กঅ", "Thai, Bengali"],
      ["அก", "Tamil, Thai"],
      ["กა", "Thai, Georgian"],
      ["กሀ", "Thai, Ethiopic"],
      ["بא", "Arabic, Hebrew"],
      ["aក", "Latin, Other"],
      ["한あ", "Hangul, Hiragana"],
      ["ア한", "Katakana, Hangul"],
      ["ㄅあ", "Bopomofo, Hiragana"],
      ["a한あ", "Latin, Hangul, Hiragana"],
    ];
    for (const [unicode, scripts] of mixtures) {
      const label = parsed(unicode);
      expect(hostLabelProblem(label), unicode).toBe(`"${label}" (${unicode}) mixes scripts (${scripts})`);
    }
  });

  it("punycode that is not valid, is empty, spells plain ASCII, or is not in normal form", () => {
    expect(hostLabelProblem("xn--!!")).toBe(`"xn--!!" is not valid punycode`);
    expect(hostLabelProblem("xn--")).toBe(`"xn--" is not valid punycode`);
    expect(hostLabelProblem("xn--abc-")).toBe(`"xn--abc-" is punycode for plain ASCII "abc"`);
    expect(hostLabelProblem("xn--a-b-")).toBe(`"xn--a-b-" is punycode for plain ASCII "a-b"`);
    const decomposed = handMade("bu\u0308cher");
    expect(hostLabelProblem(decomposed)).toBe(`"${decomposed}" (bu\u0308cher) is not in normal form`);
  });
});
