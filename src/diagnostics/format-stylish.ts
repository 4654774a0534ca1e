/** The `stylish` formatter: human-readable output grouped by file, after ESLint's formatter of that name. */

import { frameLine } from "./code-frame.js";
import { type Diagnostic, sortDiagnostics } from "./diagnostic.js";
import { escapeControl } from "./escape-control.js";

/** Options for {@link formatStylish}. */
export interface StylishOptions {
  /** Emit ANSI colour and emphasis (red errors, yellow warnings, dim location and code). */
  readonly color: boolean;
  /**
   * The text of a diagnostic's file (as the diagnostic names it), or `undefined` when it cannot be read. When
   * given, each diagnostic is followed by its source line with a caret under the column, as ESLint's
   * codeframe and rustc show it.
   */
  readonly readSource?: (file: string) => string | undefined;
}

type Style = (text: string) => string;

const ansi =
  (open: number, close: number): Style =>
  (text) =>
    `\u001b[${open}m${text}\u001b[${close}m`;

const plain: Style = (text) => text;

/** Shown in place of the file name for a diagnostic that is not tied to a file. */
const NO_FILE = "(no file)";

/**
 * Formats diagnostics for a terminal, grouped by file (files in sorted order, then by position).
 *
 * Each file gets a header line, then one line per diagnostic: `  line:column  severity  message  code`, with the
 * columns aligned within the file (line numbers right-aligned at the colon). A summary line
 * `✖ N problems (E errors, W warnings)` follows. With `readSource`, each diagnostic is followed by its source line
 * and a caret under its column (in plain text too, as ESLint's codeframe formatter does). No line carries
 * trailing whitespace. File names, messages and source lines come from files a person may not have written:
 * their control, C1 and bidirectional characters are shown escaped (`escapeControl`), keeping only the
 * newlines of multi-line messages.
 *
 * @param diagnostics - The diagnostics to print, in any order.
 * @param options - `color: true` adds ANSI styling; `false` gives plain text. `readSource` adds the excerpts.
 * @returns The report ending in a newline, or the empty string when there are no diagnostics.
 */
export function formatStylish(diagnostics: readonly Diagnostic[], options: StylishOptions): string {
  if (diagnostics.length === 0) return "";
  const color = options.color;
  const red = color ? ansi(31, 39) : plain;
  const yellow = color ? ansi(33, 39) : plain;
  const dim = color ? ansi(2, 22) : plain;
  const bold = color ? ansi(1, 22) : plain;
  const underline = color ? ansi(4, 24) : plain;

  // Each diagnostic as printed, with its file as named (`source`), which is what `readSource` is asked for.
  const byFile = new Map<string, (Diagnostic & { readonly source: string })[]>();
  const texts = new Map<string, string[] | undefined>();
  const lines = (file: string): string[] | undefined => {
    if (options.readSource === undefined || file === "") return undefined;
    // Columns count from after a byte order mark, as the parser reads the file.
    if (!texts.has(file))
      texts.set(
        file,
        options
          .readSource(file)
          ?.replace(/^\ufeff/, "")
          .split(/\r?\n/),
      );
    return texts.get(file);
  };
  for (const given of sortDiagnostics(diagnostics)) {
    const d = {
      ...given,
      file: escapeControl(given.file),
      message: escapeControl(given.message, { keepNewlines: true }),
      source: given.file,
    };
    const group = byFile.get(d.file);
    if (group) group.push(d);
    else byFile.set(d.file, [d]);
  }

  let errorCount = 0;
  let warningCount = 0;
  let output = "";
  for (const [file, group] of byFile) {
    const lineWidth = Math.max(...group.map((d) => String(d.line).length));
    const columnWidth = Math.max(...group.map((d) => String(d.column).length));
    const severityWidth = Math.max(...group.map((d) => d.severity.length));
    const messageWidth = Math.max(...group.map((d) => lastLine(d.message).length));
    output += `\n${underline(file === "" ? NO_FILE : file)}\n`;
    for (const d of group) {
      if (d.severity === "error") errorCount++;
      else warningCount++;
      const location = `${String(d.line).padStart(lineWidth)}:${d.column}`;
      const severity = d.severity === "error" ? red(d.severity) : yellow(d.severity);
      const line =
        `  ${dim(location)}${pad(String(d.column), columnWidth)}  ${severity}${pad(d.severity, severityWidth)}` +
        `  ${d.message}${pad(lastLine(d.message), messageWidth)}  ${dim(d.code)}`;
      // A multi-line message may end its own lines in spaces; strip them so no line trails whitespace.
      output += `${line.replace(/[ \t]+$/gm, "")}\n`;
      const source = lines(d.source);
      if (source !== undefined)
        output += codeFrame(source, d, lineWidth, dim, d.severity === "error" ? red : yellow);
    }
  }

  const total = errorCount + warningCount;
  const summary =
    `\u2716 ${total} ${plural("problem", total)} ` +
    `(${errorCount} ${plural("error", errorCount)}, ${warningCount} ${plural("warning", warningCount)})`;
  output += `\n${bold(errorCount > 0 ? red(summary) : yellow(summary))}\n`;
  return output;
}

/**
 * The diagnostic's source line and a caret line under it (see `frameLine` for how the line is shown):
 * ```
 *       3 | deny: [read_file]
 *         |        ^^^^^^^^^
 * ```
 * Nothing when the file has no such line.
 */
function codeFrame(
  source: readonly string[],
  d: Diagnostic,
  width: number,
  dim: Style,
  caret: Style,
): string {
  const text = d.line >= 1 ? source[d.line - 1] : undefined;
  if (text === undefined) return "";
  const frame = frameLine(text, d.column, d.endLine === d.line ? d.endColumn : undefined);
  const gutter = (label: string) => dim(`${label.padStart(width + 4)} |`);
  return (
    `${gutter(String(d.line))}${frame.text === "" ? "" : ` ${frame.text}`}\n` +
    `${gutter("")} ${" ".repeat(frame.caret)}${caret("^".repeat(frame.carets))}\n`
  );
}

/** The spaces that bring `text` up to `width`. */
function pad(text: string, width: number): string {
  return " ".repeat(Math.max(0, width - text.length));
}

/** A multi-line message's code goes after its last line, so that is the part that is aligned. */
function lastLine(text: string): string {
  return text.slice(text.lastIndexOf("\n") + 1);
}

function plural(word: string, count: number): string {
  return count === 1 ? word : `${word}s`;
}
