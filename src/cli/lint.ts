import { lintPolicy } from "../config/lint-policy.js";
import { formatDiagnostics, OUTPUT_FORMATS, type OutputFormat } from "../diagnostics/format.js";
import { EXIT, parseFormat, parseMaxWarnings, print, printError, toolVersion, useColor } from "./common.js";

/** Options of `toolgate lint`. */
export interface LintCommandOptions {
  readonly config?: string;
  readonly format: string;
  readonly maxWarnings?: string;
  readonly color?: boolean;
}

/** `toolgate lint`: checks the configuration, tool files, policy and policy tests; prints every finding. */
export async function runLint(options: LintCommandOptions): Promise<number> {
  const format: OutputFormat = parseFormat(options.format, OUTPUT_FORMATS);
  const maxWarnings = parseMaxWarnings(options.maxWarnings);
  const report = await lintPolicy(options.config === undefined ? {} : { config: options.config });
  const output = formatDiagnostics(format, {
    diagnostics: report.diagnostics,
    fingerprint: report.fingerprint,
    color: useColor(options.color),
    toolVersion: toolVersion(),
  });
  print(output);
  if (!report.configFound) {
    if (format !== "stylish") printError(report.diagnostics[0]?.message ?? "no configuration found");
    else if (output === "") printError("no configuration found");
    return EXIT.usage;
  }
  if (format === "stylish" && report.diagnostics.length === 0) {
    const tests = report.tests === undefined ? "" : `, ${report.tests.passed} policy test(s) passed`;
    print(`toolgate: no problems (${report.bundle?.tools.length ?? 0} tools${tests}; ${report.fingerprint})`);
  }
  if (report.errorCount > 0) return EXIT.findings;
  if (report.warningCount > maxWarnings) {
    if (format === "stylish") {
      printError(`${report.warningCount} warning(s), more than --max-warnings ${maxWarnings}`);
    }
    return EXIT.findings;
  }
  return EXIT.ok;
}
