/**
 * The check stage of `codegen --check` and `compile --check`: a generated file on disk must be exactly what
 * would be written now; each one that is not is a `codegen-stale` error that says what changed.
 */
import type { Diagnostic, StageResult } from "../diagnostics/diagnostic.js";
import type { StageDiagnosticCode } from "../diagnostics/diagnostic-table.js";
import { changeSummary, describeChange } from "./describe-change.js";

/** A generated file: what is on disk and what would be written. */
export interface GeneratedFile {
  /** The path shown in diagnostics (relative to the working directory). */
  readonly file: string;
  /** The file's contents, or `undefined` when it does not exist. */
  readonly actual: string | undefined;
  readonly expected: string;
  /** Why it differs, when that is known better than from the declarations (a changed policy). */
  readonly cause?: string;
}

/**
 * Compares each generated file with what would be written.
 * @param command - the command that writes the files again (`codegen` or `compile`), named in the message.
 * @returns the files when every one is up to date; otherwise a `codegen-stale` error per stale file.
 */
export function checkGenerated(
  files: readonly GeneratedFile[],
  command: "codegen" | "compile",
): StageResult<readonly GeneratedFile[], StageDiagnosticCode> {
  const diagnostics = files.filter((f) => f.actual !== f.expected).map((f) => staleDiagnostic(f, command));
  return diagnostics.length === 0 ? { ok: true, value: files, diagnostics } : { ok: false, diagnostics };
}

/** The `codegen-stale` diagnostic of a file, at the first line that differs, saying which declarations changed. */
function staleDiagnostic(
  generated: GeneratedFile,
  command: "codegen" | "compile",
): Diagnostic<StageDiagnosticCode> {
  const { file, actual, expected, cause } = generated;
  if (actual === undefined) {
    return {
      code: "codegen-stale",
      severity: "error",
      message: `the generated file does not exist; run \`toolgate ${command}\` and commit the result`,
      file,
      line: 1,
      column: 1,
    };
  }
  const change = describeChange(actual, expected);
  const what = cause ?? changeSummary(change);
  return {
    code: "codegen-stale",
    severity: "error",
    message: `the generated file is out of date (${what}; first difference at line ${change.line}); run \`toolgate ${command}\` and commit the result`,
    file,
    line: change.line,
    column: 1,
  };
}
