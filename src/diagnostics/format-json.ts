/** The `json` formatter: the machine-readable lint report (DESIGN.md section 7). */

import { type Diagnostic, sortDiagnostics } from "./diagnostic.js";

/** What {@link formatJson} prints: the bundle fingerprint (null when no bundle was built) and the diagnostics. */
export interface JsonReportInput {
  readonly fingerprint: string | null;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Formats a lint report as JSON: `{ fingerprint, errorCount, warningCount, diagnostics: [...] }`.
 *
 * Diagnostics are sorted with `sortDiagnostics` and written with a fixed key order (`code`, `severity`,
 * `message`, `file`, `line`, `column`, then `endLine`, `endColumn` and `path` when present), so equal input gives
 * byte-identical output.
 *
 * @param report - The fingerprint and the diagnostics, in any order.
 * @returns Pretty-printed JSON (2-space indent) ending in a newline.
 */
export function formatJson(report: JsonReportInput): string {
  const diagnostics = sortDiagnostics(report.diagnostics).map(normalizeDiagnostic);
  const errorCount = diagnostics.filter((d) => d.severity === "error").length;
  const output = {
    fingerprint: report.fingerprint,
    errorCount,
    warningCount: diagnostics.length - errorCount,
    diagnostics,
  };
  return `${JSON.stringify(output, null, 2)}\n`;
}

/** A copy with the documented keys only, in the documented order. */
function normalizeDiagnostic(d: Diagnostic): Diagnostic {
  return {
    code: d.code,
    severity: d.severity,
    message: d.message,
    file: d.file,
    line: d.line,
    column: d.column,
    ...(d.endLine === undefined ? {} : { endLine: d.endLine }),
    ...(d.endColumn === undefined ? {} : { endColumn: d.endColumn }),
    ...(d.path === undefined ? {} : { path: d.path }),
  };
}
