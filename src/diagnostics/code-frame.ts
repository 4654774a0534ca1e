/**
 * The source excerpt the `stylish` formatter prints under a diagnostic: its line, and a caret line under the
 * column, as ESLint's codeframe formatter and rustc show them.
 */
import { escapeControl } from "./escape-control.js";

/** At most this many terminal columns of a source line are shown; a longer line is cut around the caret. */
export const FRAME_WIDTH = 100;

/** A tab shows as this many spaces, as rustc shows it, so the caret lines up whatever the terminal's tab stops. */
const TAB_WIDTH = 4;

/** Marks where a long line was cut. */
const CUT = "\u2026";

/** One character of the line as shown: its text, how many terminal columns it takes, and where it was read. */
interface Cell {
  readonly text: string;
  readonly width: number;
  /** The terminal column it starts at (0-based) in the whole line as shown. */
  readonly at: number;
  /** Its offset in the line, in UTF-16 code units (what a diagnostic's column counts). */
  readonly offset: number;
}

/** A source line as shown, and where its caret goes. */
export interface FrameLine {
  /** The line as shown: control characters escaped, tabs as spaces, cut around the caret when long. */
  readonly text: string;
  /** The terminal column (0-based) of the first caret, counted from the start of `text`. */
  readonly caret: number;
  /** How many carets: the span's width when it ends on this line, else 1. */
  readonly carets: number;
}

/**
 * Lays out one source line for a code frame, with the caret under `column`.
 *
 * A diagnostic's columns count UTF-16 code units from 1 (as the YAML parser gives them). What a terminal shows
 * differs: a tab shows as {@link TAB_WIDTH} spaces; a control, C1 or bidirectional character is shown escaped
 * (`\u001b`, see `escapeControl`), six columns wide; a wide character (CJK, emoji) takes two columns and a
 * combining mark none. The caret is placed by those widths, so it stays under its character. A line longer than
 * {@link FRAME_WIDTH} columns is cut to that width around the caret, each cut marked with `…`.
 *
 * @param line - The source line, without its line break.
 * @param column - The diagnostic's 1-based column.
 * @param endColumn - The 1-based column just after the span, when the span ends on this line.
 */
export function frameLine(line: string, column: number, endColumn?: number): FrameLine {
  const cells: Cell[] = [];
  let width = 0;
  for (let offset = 0; offset < line.length; ) {
    const code = line.codePointAt(offset) as number;
    const char = String.fromCodePoint(code);
    const escaped = escapeControl(char);
    const text = char === "\t" ? " ".repeat(TAB_WIDTH) : escaped;
    const cellWidth = text !== char ? text.length : charWidth(code);
    cells.push({ text, width: cellWidth, at: width, offset });
    width += cellWidth;
    offset += char.length;
  }

  // The caret starts at the character holding the column, and the span ends before the one holding endColumn.
  const startAt = (offset: number): number => {
    if (offset >= line.length) return width;
    let found = 0;
    for (const cell of cells) if (cell.offset <= offset) found = cell.at;
    return found;
  };
  const endAt = (offset: number): number => cells.find((cell) => cell.offset >= offset)?.at ?? width;
  const start = startAt(Math.max(0, column - 1));
  const end = endColumn === undefined ? start + 1 : Math.max(start + 1, endAt(endColumn - 1));

  if (width <= FRAME_WIDTH) {
    return {
      text: cells
        .map((c) => c.text)
        .join("")
        .trimEnd(),
      caret: start,
      carets: end - start,
    };
  }
  // Cut around the caret, keeping a third of the room before it (less when the line ends sooner).
  const room = FRAME_WIDTH - 2 * CUT.length;
  const from = Math.max(0, Math.min(start - Math.floor(room / 3), width - room));
  const shown = cells.filter((c) => c.at >= from && c.at + c.width <= from + room);
  const first = shown[0];
  const last = shown[shown.length - 1];
  if (first === undefined || last === undefined) return { text: "", caret: 0, carets: 1 };
  const left = first.at > 0 ? CUT : "";
  const right = last.at + last.width < width ? CUT : "";
  const caret = left.length + start - first.at;
  const carets = Math.max(1, Math.min(end, last.at + last.width + right.length) - start);
  return { text: `${left}${shown.map((c) => c.text).join("")}${right}`.trimEnd(), caret, carets };
}

/** Combining marks, variation selectors, zero-width joiners and spaces, and the byte order mark take no column. */
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\u200b-\u200d\u2060\ufeff]$/u;

/** Emoji shown as pictures by default take two columns. */
const EMOJI = /^\p{Emoji_Presentation}$/u;

/** The East Asian wide and fullwidth blocks: Hangul jamo, CJK, kana, Hangul syllables, fullwidth forms. */
const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1b000, 0x1b2ff],
  [0x1f200, 0x1f2ff],
  [0x20000, 0x3fffd],
];

/** How many terminal columns a (printable) character takes: 0, 1 or 2. */
function charWidth(code: number): number {
  const char = String.fromCodePoint(code);
  if (ZERO_WIDTH.test(char)) return 0;
  if (EMOJI.test(char) || WIDE.some(([low, high]) => code >= low && code <= high)) return 2;
  return 1;
}
