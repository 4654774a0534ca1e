/** The one shape every stage reports problems in (DESIGN.md section 7). */

/** Stable diagnostic codes: extend, never rename. They are also the SARIF `ruleId`. */
export const DIAGNOSTIC_CODES = [
  "yaml-syntax",
  "duplicate-key",
  "yaml-alias",
  "file-too-large",
  "file-not-found",
  "config-not-found",
  "invalid-encoding",
  "config-schema",
  "invalid-tool-name",
  "duplicate-tool",
  "invalid-input-schema",
  "unknown-tool",
  "overlap",
  "duplicate-rule-id",
  "unknown-argument",
  "operator-type-mismatch",
  "invalid-regex",
  "invalid-glob",
  "invalid-command",
  "unknown-rule",
  "extends-cycle",
  "missing-handler",
  "unknown-handler",
  "reload-refused",
  "identifier-collision",
  "unlisted-tool",
  "unreachable-rule",
  "test-failed",
  "codegen-stale",
  "prefix-on-path",
  "invalid-url",
  "unbounded-string",
] as const;

/** One of the stable diagnostic codes. */
export type DiagnosticCode = (typeof DIAGNOSTIC_CODES)[number];

/** How bad a finding is. */
export type Severity = "error" | "warning";

/** A finding at a place in a file. `file` is relative to the working directory; line and column are 1-based. */
export interface Diagnostic {
  readonly code: DiagnosticCode;
  readonly severity: Severity;
  readonly message: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly endLine?: number;
  readonly endColumn?: number;
  /** JSON Pointer of the offending node inside the file's document, when there is one. */
  readonly path?: string;
}

/** A stage's outcome: a value with its (warning) diagnostics, or the diagnostics that stopped it. */
export type StageResult<T> =
  | { readonly ok: true; readonly value: T; readonly diagnostics: readonly Diagnostic[] }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** True when any diagnostic is an error. */
export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === "error");
}

/** Sorts diagnostics by file, line, column and code, so that output is deterministic. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) =>
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
      a.line - b.line ||
      a.column - b.column ||
      (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
  );
}
