/** The one shape every stage reports problems in (DESIGN.md section 7). */

/** How bad a finding is. */
export type Severity = "error" | "warning";

/**
 * A finding at a place in a file. `file` is relative to the working directory; line and column are 1-based.
 * `code` is a stable diagnostic code, also the SARIF `ruleId`. The codes (`DiagnosticCode`) are composed above
 * this module, from the stages' rows and the policy checks' `meta`; `src/config/diagnostic-codes.ts` names
 * this shape with them (`Diagnostic<DiagnosticCode>`), which is what the public API returns.
 */
export interface Diagnostic<Code extends string = string> {
  readonly code: Code;
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

/**
 * What every stage of the pipeline returns (parse, schema, tools, policy, tests, codegen, compile): a value
 * with the warnings found on the way, or the diagnostics that stopped it, at least one of them an error.
 *
 * A stage that checks many independent things (every tool, every rule, every test case) hands what did check
 * out to the stages after it as `partial`, so that one run reports every problem at once, as tsc and ESLint
 * do; nothing is ever built from a `partial` (a bundle exists only when every stage was `ok`).
 */
export type StageResult<T, Code extends string = string> =
  | { readonly ok: true; readonly value: T; readonly diagnostics: readonly Diagnostic<Code>[] }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic<Code>[]; readonly partial?: T };

/**
 * The result of a stage that found `diagnostics` and produced `value`: `ok` when none of them is an error;
 * otherwise not, with `value` as its `partial`.
 */
export function stageResult<T, Code extends string>(
  value: T,
  diagnostics: readonly Diagnostic<Code>[],
): StageResult<T, Code> {
  return hasErrors(diagnostics)
    ? { ok: false, diagnostics, partial: value }
    : { ok: true, value, diagnostics };
}

/** What a stage hands on to the stages after it: its value, or its `partial` one when it failed. */
export function stageValue<T>(result: StageResult<T, string>): T | undefined {
  return result.ok ? result.value : result.partial;
}

/** True when any diagnostic is an error. */
export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === "error");
}

/**
 * Sorts diagnostics by file, line, column and code, so that output is deterministic, and keeps one of each that is
 * repeated exactly (a rule for several tools compiles its condition once per tool, and a bad operand would
 * otherwise be reported once per tool).
 */
export function sortDiagnostics<D extends Diagnostic>(diagnostics: readonly D[]): D[] {
  const seen = new Set<string>();
  const unique = diagnostics.filter((d) => {
    const key = JSON.stringify([
      d.code,
      d.severity,
      d.message,
      d.file,
      d.line,
      d.column,
      d.endLine,
      d.endColumn,
      d.path,
    ]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return unique.sort(
    (a, b) =>
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
      a.line - b.line ||
      a.column - b.column ||
      (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
  );
}
