import type { PolicyBundle } from "../bundle/policy-bundle.js";
import { DIAGNOSTICS } from "../config/diagnostic-codes.js";
import { type LoadResult, loadPolicyResultSync, loadPolicyResultSyncWith } from "../config/load-policy.js";
import { formatDiagnostics, type OutputFormat } from "../diagnostics/format.js";
import type { ValidatorFactory } from "../validation/argument-validator.js";
import { EXIT, print, printError, readSourceFile, toolVersion, useColor } from "./common.js";

/** A loaded bundle with the validators compiled while checking it. */
export interface LoadedBundle {
  readonly bundle: PolicyBundle;
  readonly validators: LoadResult["validators"];
}

/**
 * Loads the bundle for a command that needs one; when the configuration cannot be used, prints its
 * diagnostics (and what to do) and returns the exit code instead: 2 when no config was found, else 1. With a
 * `factory`, the load compiles the schemas with it and leaves it as it is (`loadPolicyResultSyncWith`). The
 * diagnostics are printed in `format` (the command's own `--format`, so that `--format json` prints JSON).
 */
export function loadBundleOrReport(
  config: string | undefined,
  color: boolean | undefined,
  what?: string,
  factory?: ValidatorFactory,
  format: OutputFormat = "stylish",
): LoadedBundle | { readonly exit: number } {
  const options = config === undefined ? {} : { config };
  const loaded =
    factory === undefined ? loadPolicyResultSync(options) : loadPolicyResultSyncWith(options, factory);
  if (loaded.bundle !== undefined) return { bundle: loaded.bundle, validators: loaded.validators };
  print(
    formatDiagnostics(format, {
      diagnostics: loaded.diagnostics,
      fingerprint: null,
      color: useColor(color),
      toolVersion: toolVersion(),
      table: DIAGNOSTICS,
      readSource: readSourceFile,
    }),
  );
  // The diagnostics above already say that no configuration was found, and where to put one.
  if (!loaded.configFound) return { exit: EXIT.usage };
  if (what !== undefined) printError(`the configuration has errors; fix them (toolgate lint) ${what}`);
  return { exit: EXIT.findings };
}
