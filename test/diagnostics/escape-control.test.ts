import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapeControl } from "../../src/diagnostics/escape-control.js";
import { type Diagnostic, formatStylish } from "../../src/diagnostics/index.js";
import { terminalControls } from "../cli/cli-helpers.js";

/** Every character a terminal acts on or a bidi algorithm reorders by, as the escaping promises to show. */
const UNSAFE: number[] = [
  ...Array.from({ length: 0x20 }, (_, i) => i),
  ...Array.from({ length: 0x21 }, (_, i) => 0x7f + i),
  0x061c,
  0x200e,
  0x200f,
  0x2028,
  0x2029,
  0x202a,
  0x202b,
  0x202c,
  0x202d,
  0x202e,
  0x2066,
  0x2067,
  0x2068,
  0x2069,
];
const unsafeChar = fc.constantFrom(...UNSAFE.map((c) => String.fromCharCode(c)));
const anyText = fc
  .array(fc.oneof(fc.string({ unit: "grapheme" }), unsafeChar))
  .map((parts) => parts.join(""));

describe("escapeControl", () => {
  it("shows each control, C1 and bidirectional control character as its \\uXXXX form", () => {
    for (const code of UNSAFE) {
      const hex = code.toString(16).padStart(4, "0");
      expect(escapeControl(`a${String.fromCharCode(code)}b`)).toBe(`a\\u${hex}b`);
    }
    expect(escapeControl("\u001b[2J\u001b[1;1Hls")).toBe("\\u001b[2J\\u001b[1;1Hls");
    expect(escapeControl("rm -rf /\u202e//:sptth")).toBe("rm -rf /\\u202e//:sptth");
  });

  it("keeps newlines only when asked, and everything else unchanged", () => {
    expect(escapeControl("one\ntwo\r")).toBe("one\\u000atwo\\u000d");
    expect(escapeControl("one\ntwo\r", { keepNewlines: true })).toBe("one\ntwo\\u000d");
    expect(escapeControl("ünïcødé — 日本語 ✓ 👩‍💻 \\u001b")).toBe("ünïcødé — 日本語 ✓ 👩‍💻 \\u001b");
  });

  it("property: the result holds no unsafe character, and text without one is returned as it is", () => {
    fc.assert(
      fc.property(anyText, fc.boolean(), (text, keepNewlines) => {
        const out = escapeControl(text, { keepNewlines });
        for (const ch of out) {
          const code = ch.codePointAt(0) as number;
          if (keepNewlines && code === 0x0a) continue;
          expect(UNSAFE.includes(code)).toBe(false);
        }
        const hasUnsafe = [...text].some(
          (ch) => UNSAFE.includes(ch.codePointAt(0) as number) && !(keepNewlines && ch === "\n"),
        );
        if (!hasUnsafe) expect(out).toBe(text);
      }),
    );
  });
});

describe("formatStylish shows hostile file names and messages escaped", () => {
  it("cannot be made to clear the screen, rewrite a line or reorder text", () => {
    const hostile: Diagnostic = {
      code: "config-schema",
      severity: "error",
      message: 'unknown key "x\u001b[2K\r  1:1  warning  all good\u202e"\nsecond line\u0007',
      file: "policies/\u001b]8;;http://evil\u0007policy.yaml",
      line: 1,
      column: 1,
    };
    const out = formatStylish([hostile], { color: false });
    expect(terminalControls(out)).toEqual([]);
    expect(out).toContain("policies/\\u001b]8;;http://evil\\u0007policy.yaml");
    expect(out).toContain(
      'unknown key "x\\u001b[2K\\u000d  1:1  warning  all good\\u202e"\nsecond line\\u0007',
    );
  });
});
