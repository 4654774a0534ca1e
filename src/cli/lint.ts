import { existsSync, statSync } from "node:fs";
import { dirname, relative, resolve, sep } from "node:path";
import { DIAGNOSTICS } from "../config/diagnostic-codes.js";
import { findConfig } from "../config/discover.js";
import { type Diagnostic, sortDiagnostics } from "../diagnostics/diagnostic.js";
import { formatDiagnostics, OUTPUT_FORMATS, type OutputFormat } from "../diagnostics/format.js";
import { type LintReport, lintPolicy } from "../lint/lint-policy.js";
import { countOf } from "../runtime/plural.js";
import {
  EXIT,
  parseFormat,
  parseMaxWarnings,
  print,
  printError,
  readSourceFile,
  toolVersion,
  UsageError,
  useColor,
} from "./common.js";

/** Options of `toolgate lint`. */
export interface LintCommandOptions {
  readonly config?: string;
  readonly format: string;
  readonly maxWarnings?: string;
  readonly color?: boolean;
}

/** What one run of lint found, over one configuration or (with file arguments) several. */
interface LintOutcome {
  readonly diagnostics: readonly Diagnostic[];
  readonly fingerprint: string | null;
  readonly configFound: boolean;
  /** The stylish "no problems" line. */
  readonly clean: string;
}

function relativeDisplay(absolute: string): string {
  const rel = relative(process.cwd(), absolute);
  return (rel === "" ? "." : rel).split(sep).join("/");
}

function cleanLine(report: LintReport): string {
  const tests = report.tests === undefined ? "" : `, ${countOf(report.tests.passed, "policy test")} passed`;
  return `toolgate: no problems (${countOf(report.bundle?.tools.length ?? 0, "tool")}${tests}; ${report.fingerprint})`;
}

/**
 * `lint FILE…`: each file is linted as part of the configuration it belongs to (the one found from its own
 * directory upwards, or `--config`), and only the diagnostics of the given files are reported, as ESLint
 * does for the files a pre-commit hook passes. A file that no configuration reads is skipped with a note.
 */
async function lintFiles(files: readonly string[], config: string | undefined): Promise<LintOutcome> {
  const byConfig = new Map<string, Set<string>>();
  const unowned: string[] = [];
  for (const file of files) {
    const absolute = resolve(file);
    if (!existsSync(absolute)) throw new UsageError(`${file} does not exist`);
    if (!statSync(absolute).isFile()) throw new UsageError(`${file} is not a file; pass the files to lint`);
    const location = findConfig(
      config === undefined ? { cwd: dirname(absolute) } : { cwd: process.cwd(), config },
    );
    if (!location.found) {
      if (config !== undefined) throw new UsageError(location.message);
      unowned.push(file);
      continue;
    }
    const group = byConfig.get(location.path) ?? new Set<string>();
    group.add(absolute);
    byConfig.set(location.path, group);
  }
  const diagnostics: Diagnostic[] = [];
  const fingerprints: (string | null)[] = [];
  const linted: string[] = [];
  for (const [configPath, wanted] of byConfig) {
    const report = await lintPolicy({ config: configPath });
    const read = new Set([...report.files].map((f) => resolve(f)));
    for (const file of wanted) {
      if (read.has(file)) linted.push(relativeDisplay(file));
      else unowned.push(relativeDisplay(file));
    }
    fingerprints.push(report.fingerprint);
    diagnostics.push(...report.diagnostics.filter((d) => wanted.has(resolve(d.file))));
  }
  for (const file of unowned) {
    printError(`${file} is not read by any toolgate configuration; nothing to lint in it`);
  }
  return {
    diagnostics: sortDiagnostics(diagnostics),
    fingerprint: fingerprints.length === 1 ? (fingerprints[0] ?? null) : null,
    configFound: true,
    clean: linted.length === 0 ? "" : `toolgate: no problems in ${linted.join(", ")}`,
  };
}

/**
 * `toolgate lint [FILES…]`: checks the configuration, tool files, policy and policy tests and prints every
 * finding; with file arguments, only the findings in those files.
 */
export async function runLint(files: readonly string[], options: LintCommandOptions): Promise<number> {
  const format: OutputFormat = parseFormat(options.format, OUTPUT_FORMATS);
  const maxWarnings = parseMaxWarnings(options.maxWarnings);
  let outcome: LintOutcome;
  if (files.length > 0) outcome = await lintFiles(files, options.config);
  else {
    const report = await lintPolicy(options.config === undefined ? {} : { config: options.config });
    outcome = {
      diagnostics: report.diagnostics,
      fingerprint: report.fingerprint,
      configFound: report.configFound,
      clean: cleanLine(report),
    };
  }
  const output = formatDiagnostics(format, {
    diagnostics: outcome.diagnostics,
    fingerprint: outcome.fingerprint,
    color: useColor(options.color),
    toolVersion: toolVersion(),
    table: DIAGNOSTICS,
    readSource: readSourceFile,
  });
  print(output);
  if (!outcome.configFound) {
    if (format !== "stylish") printError(outcome.diagnostics[0]?.message ?? "no configuration found");
    else if (output === "") printError("no configuration found");
    return EXIT.usage;
  }
  if (format === "stylish" && outcome.diagnostics.length === 0 && outcome.clean !== "") print(outcome.clean);
  const errorCount = outcome.diagnostics.filter((d) => d.severity === "error").length;
  const warningCount = outcome.diagnostics.length - errorCount;
  if (errorCount > 0) return EXIT.findings;
  if (warningCount > maxWarnings) {
    if (format === "stylish") {
      printError(`${countOf(warningCount, "warning")}, more than --max-warnings ${maxWarnings}`);
    }
    return EXIT.findings;
  }
  return EXIT.ok;
}
