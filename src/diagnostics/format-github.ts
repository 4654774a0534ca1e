/** The `github` formatter: GitHub Actions workflow commands, which annotate the pull request diff. */

import { type Diagnostic, sortDiagnostics } from "./diagnostic.js";

/**
 * Formats diagnostics as GitHub Actions workflow commands, one per line:
 * `::error file=F,line=L,col=C,endLine=EL,endColumn=EC,title=CODE::MESSAGE` (`::warning` for warnings).
 *
 * Escaping follows `@actions/core`: in the message `%`, CR and LF become `%25`, `%0D`, `%0A`; property values
 * additionally escape `:` and `,` as `%3A` and `%2C`. Position properties are left out when unknown (below 1),
 * and `file` when the diagnostic has no file; backslashes in file paths become forward slashes.
 *
 * @param diagnostics - The diagnostics to report, in any order (output is sorted).
 * @returns One command per line, each ending in a newline; the empty string for no diagnostics.
 */
export function formatGithub(diagnostics: readonly Diagnostic[]): string {
  let output = "";
  for (const d of sortDiagnostics(diagnostics)) {
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
    output += `::${d.severity} ${list}::${escapeData(d.message)}\n`;
  }
  return output;
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
