import type { PolicyBundle } from "../bundle/policy-bundle.js";
import type { Diagnostic } from "../config/diagnostic-codes.js";
import {
  type LoadOptions,
  type LoadResult,
  loadPolicyResult,
  loadPolicyResultSync,
} from "../config/load-policy.js";
import { sortDiagnostics, stageValue } from "../diagnostics/diagnostic.js";
import { checkPolicyTests, type PolicyTestReport } from "../testing/run-policy-tests.js";

/** What `lintPolicy` returns: the shape `toolgate lint --format json` prints, plus the bundle when there is one. */
export interface LintReport {
  readonly fingerprint: string | null;
  readonly errorCount: number;
  readonly warningCount: number;
  readonly diagnostics: readonly Diagnostic[];
  /** False when no configuration file was found (the CLI exits 2). */
  readonly configFound: boolean;
  readonly bundle?: PolicyBundle;
  readonly tests?: PolicyTestReport;
  /** Every file the load read or tried to read (absolute paths): what `lint FILES…` maps files to. */
  readonly files: readonly string[];
}

/**
 * Loads, checks, and runs the policy tests; never throws for bad configuration: every problem is a
 * diagnostic in the report.
 */
export async function lintPolicy(options: LoadOptions = {}): Promise<LintReport> {
  return lintReport(await loadPolicyResult(options));
}

/** `lintPolicy` without the promise, for tools that need it synchronously (it holds the event loop). */
export function lintPolicySync(options: LoadOptions = {}): LintReport {
  return lintReport(loadPolicyResultSync(options));
}

function lintReport(loaded: LoadResult): LintReport {
  let diagnostics = [...loaded.diagnostics];
  let tests: PolicyTestReport | undefined;
  if (loaded.bundle !== undefined) {
    const tested = checkPolicyTests(loaded.bundle, loaded.validators);
    tests = stageValue(tested);
    diagnostics = sortDiagnostics([...diagnostics, ...tested.diagnostics]);
  }
  const errorCount = diagnostics.filter((d) => d.severity === "error").length;
  return {
    fingerprint: loaded.bundle?.fingerprint ?? null,
    errorCount,
    warningCount: diagnostics.length - errorCount,
    diagnostics,
    configFound: loaded.configFound,
    files: [...loaded.files.keys()],
    ...(loaded.bundle === undefined ? {} : { bundle: loaded.bundle }),
    ...(tests === undefined ? {} : { tests }),
  };
}
