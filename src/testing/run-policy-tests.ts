/**
 * Runs policy test cases through the very code the controller uses: `ToolRuntime.prepare` (tool and
 * argument validation) and then `ToolPolicy.explain`, whose decision is `decide`'s.
 */

import { bundleParts } from "../bundle/bundle-parts.js";
import type { PolicyBundle, PolicyTestCase } from "../bundle/policy-bundle.js";
import { type Diagnostic, type StageResult, stageResult } from "../diagnostics/diagnostic.js";
import type { StageDiagnosticCode } from "../diagnostics/diagnostic-table.js";
import { assembleController } from "../runtime/assemble.js";
import type { ToolController } from "../runtime/controller.js";
import { InternalError } from "../runtime/errors.js";
import type { StatementKind } from "../runtime/policy.js";
import type { ArgumentValidator, PolicyAction, StatementSource, ToolResult } from "../runtime/types.js";

/** How one case came out. */
export interface PolicyTestResult {
  readonly case: PolicyTestCase;
  readonly passed: boolean;
  readonly actual: PolicyAction | "invalid";
  readonly reason: string;
  readonly ruleIds: readonly string[];
  /** Why it failed, when it failed. */
  readonly failure?: string;
}

/** A statement and whether any case was decided by it. */
export interface CoverageEntry {
  readonly id: string;
  readonly kind: StatementKind;
  readonly source?: StatementSource;
  readonly covered: boolean;
}

/** All results, with coverage of statements. */
export interface PolicyTestReport {
  readonly results: readonly PolicyTestResult[];
  readonly passed: number;
  readonly failed: number;
  readonly coverage: readonly CoverageEntry[];
  /** Covered statements in percent (100 when the policy has none). */
  readonly coveragePercent: number;
}

/** A controller over the bundle whose handlers never run: tests only prepare and decide. */
export function decisionController(
  bundle: PolicyBundle,
  validators?: ReadonlyMap<string, ArgumentValidator>,
): ToolController {
  const never = () => {
    throw new InternalError("policy tests never run handlers");
  };
  const handlers = Object.fromEntries(bundle.tools.map((tool) => [tool.name, never]));
  return assembleController(bundleParts(bundle, validators), { handlers });
}

/** Runs every test case of the bundle. */
export function runPolicyTests(
  bundle: PolicyBundle,
  validators?: ReadonlyMap<string, ArgumentValidator>,
): PolicyTestReport {
  // Building the decision controller compiles every condition again: only do it when there is a case to run.
  const controller = bundle.tests.length === 0 ? undefined : decisionController(bundle, validators);
  const covered = new Set<string>();
  const cases = controller === undefined ? [] : bundle.tests.map((testCase) => ({ testCase, controller }));
  const results: PolicyTestResult[] = cases.map(({ testCase, controller }, index) => {
    const explained = controller.explain(
      { callId: `test_${index + 1}`, toolName: testCase.tool, arguments: testCase.arguments },
      testCase.context ?? {},
    );
    let actual: PolicyAction | "invalid";
    let reason: string;
    let ruleIds: readonly string[];
    if ("callId" in explained) {
      actual = "invalid";
      reason = (explained as ToolResult).content;
      ruleIds = [];
    } else {
      actual = explained.decision.action;
      reason = explained.decision.reason;
      ruleIds = explained.decision.ruleIds;
      // A statement covers a case when it decided it for certain (for a compound command: some part of it), or
      // when the case names it as the rule that decides (`rule:`) and it did: one that only may match (a maybe,
      // which a deny or ask rule takes) shows nothing the rule was written for unless the test says so. (A rule
      // on absolute or home paths is never certain: the test naming it is what covers it.)
      const certain = new Set<string>();
      for (const { evaluations } of [explained, ...(explained.parts ?? [])]) {
        for (const e of evaluations) if (e.match === "certain") certain.add(e.statement.id);
      }
      for (const id of ruleIds) if (certain.has(id) || testCase.rule === id) covered.add(id);
    }
    const failures: string[] = [];
    if (actual !== testCase.expect) failures.push(`expected ${testCase.expect}, got ${actual} (${reason})`);
    if (testCase.rule !== undefined && !ruleIds.includes(testCase.rule)) {
      failures.push(
        `expected rule "${testCase.rule}" to decide it, but ${ruleIds.length === 0 ? "no rule did" : `${ruleIds.join(", ")} did`}`,
      );
    }
    return {
      case: testCase,
      passed: failures.length === 0,
      actual,
      reason,
      ruleIds,
      ...(failures.length === 0 ? {} : { failure: failures.join("; ") }),
    };
  });
  const coverage: CoverageEntry[] = bundle.statements.map((s) => ({
    id: s.id,
    kind: s.kind,
    ...(s.source === undefined ? {} : { source: s.source }),
    covered: covered.has(s.id),
  }));
  const coveredCount = coverage.filter((c) => c.covered).length;
  const passed = results.filter((r) => r.passed).length;
  return {
    results,
    passed,
    failed: results.length - passed,
    coverage,
    coveragePercent: coverage.length === 0 ? 100 : Math.floor((coveredCount / coverage.length) * 1000) / 10,
  };
}

/**
 * The policy-test stage of `lint`: runs every case of the bundle.
 * @returns the report when every case passed; otherwise a `test-failed` error per failed case, with the
 * report as `partial`.
 */
export function checkPolicyTests(
  bundle: PolicyBundle,
  validators?: ReadonlyMap<string, ArgumentValidator>,
): StageResult<PolicyTestReport, StageDiagnosticCode> {
  const report = runPolicyTests(bundle, validators);
  return stageResult(report, testFailureDiagnostics(report));
}

/** Failed cases as `test-failed` diagnostics at the case's line. */
export function testFailureDiagnostics(report: PolicyTestReport): Diagnostic<StageDiagnosticCode>[] {
  return report.results
    .filter((r) => !r.passed)
    .map((r) => ({
      code: "test-failed" as const,
      severity: "error" as const,
      message: `policy test "${r.case.name}" failed: ${r.failure ?? "unexpected decision"}`,
      file: r.case.source.file,
      line: r.case.source.line,
      column: r.case.source.column ?? 1,
    }));
}
