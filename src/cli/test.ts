import { formatJunit, type JunitSuite } from "../diagnostics/format-junit.js";
import { countOf } from "../runtime/plural.js";
import { type PolicyTestReport, runPolicyTests } from "../testing/run-policy-tests.js";
import { EXIT, parseFormat, print, printError, UsageError, useColor } from "./common.js";
import { loadBundleOrReport } from "./load-bundle.js";

/** Options of `toolgate test`. */
export interface TestCommandOptions {
  readonly config?: string;
  readonly format: string;
  readonly coverage?: boolean;
  readonly minCoverage?: string;
  readonly color?: boolean;
}

const TEST_FORMATS = ["stylish", "json", "junit"] as const;

function toJunit(report: PolicyTestReport): JunitSuite[] {
  const byFile = new Map<string, JunitSuite["cases"][number][]>();
  for (const r of report.results) {
    const file = r.case.source.file;
    const cases = byFile.get(file) ?? [];
    cases.push({
      name: r.case.name,
      classname: file.replace(/\.[^.]+$/, "").replaceAll("/", "."),
      file,
      line: r.case.source.line,
      ...(r.passed
        ? {}
        : {
            failure: {
              message: r.failure ?? "failed",
              type: "test-failed",
              text: `${file}:${r.case.source.line}: ${r.failure}`,
            },
          }),
    });
    byFile.set(file, cases);
  }
  return [...byFile].map(([name, cases]) => ({ name, cases }));
}

/** `toolgate test`: runs the policy test files through the controller's own decide code. */
export async function runTest(options: TestCommandOptions): Promise<number> {
  const format = parseFormat(options.format, TEST_FORMATS);
  let minCoverage: number | undefined;
  if (options.minCoverage !== undefined) {
    minCoverage = Number(options.minCoverage);
    if (!/^\d+(\.\d+)?$/.test(options.minCoverage) || minCoverage > 100) {
      throw new UsageError(
        `--min-coverage needs a percentage between 0 and 100, got "${options.minCoverage}"`,
      );
    }
  }
  const loaded = loadBundleOrReport(
    options.config,
    options.color,
    "before running policy tests",
    undefined,
    format === "json" ? "json" : "stylish",
  );
  if ("exit" in loaded) return loaded.exit;
  const report = runPolicyTests(loaded.bundle, loaded.validators);
  const uncovered = report.coverage.filter((c) => !c.covered);
  if (format === "json") {
    print(
      JSON.stringify(
        {
          fingerprint: loaded.bundle.fingerprint,
          passed: report.passed,
          failed: report.failed,
          results: report.results.map((r) => ({
            name: r.case.name,
            file: r.case.source.file,
            line: r.case.source.line,
            expect: r.case.expect,
            actual: r.actual,
            ruleIds: r.ruleIds,
            reason: r.reason,
            passed: r.passed,
            ...(r.failure === undefined ? {} : { failure: r.failure }),
          })),
          coverage: {
            percent: report.coveragePercent,
            uncovered: uncovered.map((c) => ({ id: c.id, ...c.source })),
          },
        },
        null,
        2,
      ),
    );
  } else if (format === "junit") {
    print(formatJunit(toJunit(report)));
  } else {
    const color = useColor(options.color);
    const red = (s: string) => (color ? `\u001b[31m${s}\u001b[39m` : s);
    const green = (s: string) => (color ? `\u001b[32m${s}\u001b[39m` : s);
    for (const r of report.results) {
      if (!r.passed)
        print(
          `${red("FAIL")} ${r.case.source.file}:${r.case.source.line}  ${r.case.name}\n     ${r.failure}`,
        );
    }
    const summary = `${report.passed} passed, ${report.failed} failed (${countOf(report.results.length, "policy test")})`;
    print(report.failed === 0 ? green(summary) : red(summary));
    if (options.coverage) {
      print(`coverage: ${report.coveragePercent}% of ${report.coverage.length} statements`);
      for (const c of uncovered) {
        print(
          `  not exercised: ${c.id} (${c.kind})${c.source === undefined ? "" : ` ${c.source.file}:${c.source.line}`}`,
        );
      }
    }
  }
  if (report.failed > 0) return EXIT.findings;
  if (minCoverage !== undefined && report.coveragePercent < minCoverage) {
    printError(`rule coverage ${report.coveragePercent}% is below --min-coverage ${minCoverage}`);
    return EXIT.findings;
  }
  return EXIT.ok;
}
