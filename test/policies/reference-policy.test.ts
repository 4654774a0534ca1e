/**
 * The reference policy's own tests (`policies/tests/*.yaml`), run by `npm test` through the public API on the
 * same path as `toolgate test`: `loadPolicyResultSync` finds `toolgate.config.yaml`, and `runPolicyTests` prepares and
 * decides every case with the controller's own code. Each policy test is one vitest test, named after it, so a
 * broken matcher shows which bypass it lets through.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPolicyResultSync, type PolicyTestReport, runPolicyTests } from "toolgate";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Loads a configuration and runs its policy tests; a configuration with errors fails with its diagnostics. */
function runReferenceTests(cwd: string): PolicyTestReport {
  const loaded = loadPolicyResultSync({ cwd });
  const errors = loaded.diagnostics.filter((d) => d.severity === "error");
  if (loaded.bundle === undefined || errors.length > 0) {
    const lines = errors.map((d) => `${d.file}:${d.line}:${d.column} ${d.code}: ${d.message}`);
    throw new Error(`the reference configuration does not load:\n${lines.join("\n")}`);
  }
  return runPolicyTests(loaded.bundle, loaded.validators);
}

const report = runReferenceTests(ROOT);

describe("the reference policy's tests (policies/tests)", () => {
  it("finds the policy test files and their cases", () => {
    const files = new Set(report.results.map((r) => r.case.source.file));
    expect([...files].sort()).toEqual([
      "policies/tests/files.yaml",
      "policies/tests/shell-and-network.yaml",
      "policies/tests/shell-reads.yaml",
    ]);
    expect(report.results.length).toBeGreaterThanOrEqual(100);
  });

  it.each(
    report.results.map((r) => [`${r.case.source.file}:${r.case.source.line} ${r.case.name}`, r] as const),
  )("%s", (_name, result) => {
    // The message names the case and says what it got, as `toolgate test` does.
    expect(result.failure ?? "passed", `${result.case.name}: expected ${result.case.expect}`).toBe("passed");
    expect(result.actual).toBe(result.case.expect);
  });

  it("no test fails (the names of any that do)", () => {
    const failed = report.results.filter((r) => !r.passed).map((r) => `${r.case.name}: ${r.failure}`);
    expect(failed).toEqual([]);
    expect(report.failed).toBe(0);
  });

  it("decides every statement of the policy at least once (toolgate test --coverage is 100%)", () => {
    const uncovered = report.coverage.filter((c) => !c.covered).map((c) => c.id);
    expect(uncovered).toEqual([]);
    expect(report.coveragePercent).toBe(100);
  });
});

describe("the harness reports a policy test that fails", () => {
  const dir = mkdtempSync(join(tmpdir(), "toolgate-reference-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("names the case whose decision changed", () => {
    cpSync(join(ROOT, "toolgate.config.yaml"), join(dir, "toolgate.config.yaml"));
    cpSync(join(ROOT, "policies"), join(dir, "policies"), { recursive: true });
    // A careless edit of the ask rule for words after npm test: its pattern no longer ends at the end.
    const policyFile = join(dir, "policies", "policy.yaml");
    const policy = readFileSync(policyFile, "utf8");
    const loosened = policy.replace('not: { regex: "^npm test$" }', 'not: { regex: "^npm test" }');
    expect(loosened).not.toBe(policy);
    writeFileSync(policyFile, loosened);

    const broken = runReferenceTests(dir);
    const failed = broken.results.filter((r) => !r.passed).map((r) => r.case.name);
    expect(failed).toContain("bypass: --node-options after npm test would run any JavaScript, so it asks");
    expect(broken.failed).toBe(failed.length);
  });
});
