/**
 * `codeOutsideStrings` (what the `__proto__` check of a compiled module reads) jumps between quotes and comment
 * starts; it answers as the character-by-character walk it replaced, on random text made of the characters
 * that matter (quotes, backslashes, slashes, stars, `__proto__`) and on compiled modules.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codeOutsideStrings } from "../../src/compile/compile-controller.js";

/** The walk it replaced, kept as the oracle. */
function oracle(text: string): string {
  let out = "";
  let from = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"' || c === "'") {
      out += text.slice(from, i);
      i++;
      while (i < text.length && text[i] !== c) i += text[i] === "\\" ? 2 : 1;
      i++;
      from = i;
    } else if (c === "/" && text[i + 1] === "*") {
      out += text.slice(from, i);
      const close = text.indexOf("*/", i + 2);
      i = close < 0 ? text.length : close + 2;
      from = i;
    } else i++;
  }
  return out + text.slice(from);
}

const piece = fc.constantFrom('"', "'", "\\", "/", "*", "/*", "*/", "__proto__", "a", " ", "\n", "`");

describe("codeOutsideStrings", () => {
  it("answers as the character-by-character walk", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const text = pieces.join("");
        expect(codeOutsideStrings(text)).toBe(oracle(text));
      }),
      { numRuns: 20000 },
    );
  });
});
