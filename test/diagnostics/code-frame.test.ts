import { describe, expect, it } from "vitest";
import { FRAME_WIDTH, frameLine } from "../../src/diagnostics/code-frame.js";
import { escapeControl } from "../../src/diagnostics/escape-control.js";

describe("frameLine", () => {
  it("puts the caret at the column of a plain line, one caret or the span's width", () => {
    expect(frameLine("deny: [read_file]", 8, 17)).toEqual({ text: "deny: [read_file]", caret: 7, carets: 9 });
    expect(frameLine("deny: [read_file]", 8)).toEqual({ text: "deny: [read_file]", caret: 7, carets: 1 });
    // A span that ends where it starts still gets a caret.
    expect(frameLine("deny: [read_file]", 8, 8)).toEqual({ text: "deny: [read_file]", caret: 7, carets: 1 });
  });

  it("shows a tab as four spaces and counts it so", () => {
    expect(frameLine("\tx: 1", 2)).toEqual({ text: "    x: 1", caret: 4, carets: 1 });
    expect(frameLine("a\t\tb", 4)).toEqual({ text: "a        b", caret: 9, carets: 1 });
  });

  it("counts a wide character two columns, an accent or a combining mark by what it shows", () => {
    // 日本 are one UTF-16 unit (three UTF-8 bytes) each, two terminal columns each.
    expect(frameLine("日本: x", 5)).toEqual({ text: "日本: x", caret: 6, carets: 1 });
    // é precomposed (one unit) and e + U+0301 (two units, one column).
    expect(frameLine("café: x", 7)).toEqual({ text: "café: x", caret: 6, carets: 1 });
    expect(frameLine("cafe\u0301: x", 8)).toEqual({ text: "cafe\u0301: x", caret: 6, carets: 1 });
    // An emoji is two UTF-16 units and two columns; a span ending inside it covers all of it.
    expect(frameLine("a🔒b", 2, 3)).toEqual({ text: "a🔒b", caret: 1, carets: 2 });
    expect(frameLine("a🔒b", 4)).toEqual({ text: "a🔒b", caret: 3, carets: 1 });
  });

  it("escapes control, C1 and bidirectional characters and moves the caret past what they show as", () => {
    const line = "a\u001b[2Jb\u009b1m\u202ec";
    const frame = frameLine(line, line.indexOf("c") + 1);
    expect(frame.text).toBe("a\\u001b[2Jb\\u009b1m\\u202ec");
    expect(frame.text.slice(frame.caret, frame.caret + 1)).toBe("c");
    // Nothing left that escaping would change: no raw control character reaches the terminal.
    expect(escapeControl(frame.text)).toBe(frame.text);
  });

  it("marks the end of the line one column past its last character", () => {
    expect(frameLine("allow: [a", 10)).toEqual({ text: "allow: [a", caret: 9, carets: 1 });
    expect(frameLine("allow: [a", 10, 40)).toEqual({ text: "allow: [a", caret: 9, carets: 1 });
    expect(frameLine("", 1)).toEqual({ text: "", caret: 0, carets: 1 });
  });

  it("cuts a long line to the frame's width around the caret, marking each cut with …", () => {
    const line = `k: ${"a".repeat(150)} BAD ${"b".repeat(50)}`;
    const bad = line.indexOf("BAD") + 1;

    const middle = frameLine(line, bad, bad + 3);
    expect(middle.text.startsWith("\u2026a")).toBe(true);
    expect(middle.text.endsWith("b")).toBe(true);
    expect([...middle.text].length).toBeLessThanOrEqual(FRAME_WIDTH);
    expect(middle.text.slice(middle.caret, middle.caret + middle.carets)).toBe("BAD");

    const start = frameLine(line, 1, 2);
    expect(start.text.startsWith("k: aaa")).toBe(true);
    expect(start.text.endsWith("a\u2026")).toBe(true);
    expect([...start.text].length).toBeLessThanOrEqual(FRAME_WIDTH);
    expect(start).toMatchObject({ caret: 0, carets: 1 });

    const end = frameLine(line, line.length + 1);
    expect(end.text.endsWith("bbb")).toBe(true);
    expect(end.caret).toBe(end.text.length);

    const both = frameLine(`${"x".repeat(300)}Y${"z".repeat(300)}`, 301);
    expect(both.text).toMatch(/^\u2026x+Yz+\u2026$/);
    expect(both.text[both.caret]).toBe("Y");
  });

  it("cuts a long line of wide characters by columns, not characters", () => {
    const line = `${"日".repeat(80)}X${"本".repeat(80)}`;
    const frame = frameLine(line, 81);
    // Each 日 or 本 is two columns: at most FRAME_WIDTH columns, so about half as many characters.
    const columns = [...frame.text].reduce((n, c) => n + (c === "日" || c === "本" ? 2 : 1), 0);
    expect(columns).toBeLessThanOrEqual(FRAME_WIDTH);
    const before = frame.text.slice(0, frame.text.indexOf("X"));
    const beforeColumns = [...before].reduce((n, c) => n + (c === "日" ? 2 : 1), 0);
    expect(frame.caret).toBe(beforeColumns);
  });
});
