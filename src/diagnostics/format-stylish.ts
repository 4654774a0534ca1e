/** The `stylish` formatter: human-readable output grouped by file, after ESLint's formatter of that name. */

import { type Diagnostic, sortDiagnostics } from "./diagnostic.js";
import { escapeControl } from "./escape-control.js";

/** Options for {@link formatStylish}. */
export interface StylishOptions {
  /** Emit ANSI colour and emphasis (red errors, yellow warnings, dim location and code). */
  readonly color: boolean;
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
 * `✖ N problems (E errors, W warnings)` follows. No line carries trailing whitespace. File names and messages
 * come from files a person may not have written: their control, C1 and bidirectional characters are
 * shown escaped (`escapeControl`), keeping only the newlines of multi-line messages.
 *
 * @param diagnostics - The diagnostics to print, in any order.
 * @param options - `color: true` adds ANSI styling; `false` gives plain text.
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

  const byFile = new Map<string, Diagnostic[]>();
  for (const sorted of sortDiagnostics(diagnostics)) {
    const d = {
      ...sorted,
      file: escapeControl(sorted.file),
      message: escapeControl(sorted.message, { keepNewlines: true }),
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
    }
  }

  const total = errorCount + warningCount;
  const summary =
    `\u2716 ${total} ${plural("problem", total)} ` +
    `(${errorCount} ${plural("error", errorCount)}, ${warningCount} ${plural("warning", warningCount)})`;
  output += `\n${bold(errorCount > 0 ? red(summary) : yellow(summary))}\n`;
  return output;
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
