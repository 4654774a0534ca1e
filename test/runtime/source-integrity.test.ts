/**
 * `sourceIntegrity` (the hash a compiled module checks its own code against when it is imported) against a
 * character-by-character reading of its rule: a `;` or carriage return outside string literals and block
 * comments is left out, everything else counts, and unclosed literals and comments run to the end. The
 * generator draws from every character the rule treats specially.
 */
import { createHash } from "node:crypto";
import fc from "fast-check";
import { sourceIntegrity } from "toolgate/compiled";
import { describe, expect, it } from "vitest";

/** The rule, read one character at a time. */
function oracle(text: string): string {
  let kept = "";
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i] as string;
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < n && text[j] !== c) j += text[j] === "\\" ? 2 : 1;
      kept += text.slice(i, Math.min(j + 1, n));
      i = j + 1;
    } else if (c === "/" && text[i + 1] === "*") {
      const close = text.indexOf("*/", i + 2);
      const end = close < 0 ? n : close + 2;
      kept += text.slice(i, end);
      i = end;
    } else {
      if (c !== ";" && c !== "\r") kept += c;
      i++;
    }
  }
  return `sha256:${createHash("sha256").update(kept).digest("hex")}`;
}

const special = fc.constantFrom('"', "'", "\\", "/", "*", ";", "\r", "\n", "a", " ", "`", "é");

describe("sourceIntegrity", () => {
  it("hashes what the character-by-character rule keeps, for any text of the characters it reads", () => {
    fc.assert(
      fc.property(fc.array(special, { maxLength: 40 }), (chars) => {
        const text = chars.join("");
        expect(sourceIntegrity(text)).toBe(oracle(text));
      }),
      { numRuns: 5000 },
    );
  });

  it("keeps literals and comments whole and leaves out semicolons and carriage returns outside them", () => {
    const hash = (text: string) => `sha256:${createHash("sha256").update(text).digest("hex")}`;
    expect(sourceIntegrity('a;\r\nb";\\";"/*;*/c;')).toBe(hash('a\nb";\\";"/*;*/c'));
    expect(sourceIntegrity("x 'unclosed;")).toBe(hash("x 'unclosed;"));
    expect(sourceIntegrity("x /* unclosed;")).toBe(hash("x /* unclosed;"));
  });
});
