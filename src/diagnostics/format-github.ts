/** The `github` formatter: GitHub Actions workflow commands, which annotate the pull request diff. */

import { type Diagnostic, sortDiagnostics } from "./diagnostic.js";

/**
 * Formats diagnostics as GitHub Actions workflow commands, one per line:
 * `::error file=F,line=L,col=C,endLine=EL,endColumn=EC,title=CODE::MESSAGE` (`::warning` for warnings),
 * grouped by file (`::group::FILE (N problems)` … `::endgroup::`, which the log shows folded), then a summary
 * line `toolgate: N problems (E errors, W warnings)`.
 *
 * Escaping follows `@actions/core`: in the message `%`, CR and LF become `%25`, `%0D`, `%0A`; property values
 * additionally escape `:` and `,` as `%3A` and `%2C`. Position properties are left out when unknown (below 1),
 * and `file` when the diagnostic has no file; backslashes in file paths become forward slashes.
 *
 * @param diagnostics - The diagnostics to report, in any order (output is sorted).
 * @returns The groups and the summary, each line ending in a newline; the empty string for no diagnostics.
 */
export function formatGithub(diagnostics: readonly Diagnostic[]): string {
  if (diagnostics.length === 0) return "";
  const byFile = new Map<string, Diagnostic[]>();
  for (const d of sortDiagnostics(diagnostics)) {
    const group = byFile.get(d.file);
    if (group === undefined) byFile.set(d.file, [d]);
    else group.push(d);
  }
  let output = "";
  for (const [file, group] of byFile) {
    const name = file === "" ? "(no file)" : file.replace(/\\/g, "/");
    output += `::group::${escapeData(name)} (${count(group.length, "problem")})\n`;
    for (const d of group) output += `${command(d)}\n`;
    output += "::endgroup::\n";
  }
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.length - errors;
  output += `toolgate: ${count(diagnostics.length, "problem")} (${count(errors, "error")}, ${count(warnings, "warning")})\n`;
  return output;
}

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** One workflow command for a diagnostic. */
function command(d: Diagnostic): string {
  const properties: [string, string][] = [];
  if (d.file !== "") properties.push(["file", d.file.replace(/\\/g, "/")]);
  if (d.line >= 1) {
    properties.push(["line", String(d.line)]);
    if (d.column >= 1) properties.push(["col", String(d.column)]);
    if (d.endLine !== undefined && d.endLine >= d.line) properties.push(["endLine", String(d.endLine)]);
    if (d.endColumn !== undefined && d.endColumn >= 1) properties.push(["endColumn", String(d.endColumn)]);
  }
  properties.push(["title", d.code]);
  const list = properties.map(([key, value]) => `${key}=${escapeProperty(value)}`).join(",");
  return `::${d.severity} ${list}::${escapeData(d.message)}`;
}

/**
 * Escapes a workflow command's data (the message), as `@actions/core` does.
 *
 * @param value - Any string.
 * @returns The value with `%`, CR and LF percent-encoded.
 */
export function escapeData(value: string): string {
  return value.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/**
 * Escapes a workflow command property value, as `@actions/core` does.
 *
 * @param value - Any string.
 * @returns The value with `%`, CR, LF, `:` and `,` percent-encoded.
 */
export function escapeProperty(value: string): string {
  return escapeData(value).replace(/:/g, "%3A").replace(/,/g, "%2C");
}
