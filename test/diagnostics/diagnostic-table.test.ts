/**
 * One table of diagnostic codes, composed from the rows the stages declare and the `meta` each policy check
 * declares: the codes, the `DiagnosticCode` type, the SARIF rule metadata and the severities all come from
 * it, and its order is the order of the reference's table.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_SEVERITIES,
  DIAGNOSTIC_CODES,
  DIAGNOSTICS,
  diagnosticMeta,
  RULE_DESCRIPTIONS,
  RULE_HELP,
} from "../../src/config/diagnostic-codes.js";
import { POLICY_CHECKS } from "../../src/config/policy-checks/index.js";
import { formatSarif, STAGE_DIAGNOSTICS } from "../../src/diagnostics/index.js";

const reference = readFileSync(new URL("../../docs/policy-reference.md", import.meta.url), "utf8");

describe("the diagnostics table", () => {
  it("lists each code once, in the order of DIAGNOSTIC_CODES", () => {
    expect(DIAGNOSTICS.map((d) => d.code)).toEqual([...DIAGNOSTIC_CODES]);
    expect(new Set(DIAGNOSTIC_CODES).size).toBe(DIAGNOSTIC_CODES.length);
  });

  it("is composed of exactly the stages' rows and the policy checks' meta, each row taken as declared", () => {
    const declared = new Set([...STAGE_DIAGNOSTICS, ...POLICY_CHECKS.map((check) => check.meta)]);
    expect(new Set(DIAGNOSTICS)).toEqual(declared);
    for (const row of declared) expect(diagnosticMeta(row.code)).toBe(row);
  });

  it("gives every policy check a row, declared by the check or, for a stage's code, by the stage", () => {
    expect(POLICY_CHECKS.length).toBeGreaterThan(10);
    const stageCodes = new Set(STAGE_DIAGNOSTICS.map((d) => d.code));
    const checkCodes = new Set(POLICY_CHECKS.map((c) => c.meta.code).filter((code) => !stageCodes.has(code)));
    // Codes that no stage reports are declared by a check: at least the checks' own findings.
    expect([...checkCodes]).toEqual(expect.arrayContaining(["unknown-tool", "overlap", "unbounded-string"]));
    for (const check of POLICY_CHECKS) expect(check.meta).toBe(diagnosticMeta(check.meta.code));
  });

  it("has the order of the reference's table", () => {
    const rows = reference
      .split("\n")
      .flatMap((line) => /^\| <a id="diagnostic-([a-z-]+)"><\/a>/.exec(line)?.slice(1) ?? []);
    expect(rows).toEqual([...DIAGNOSTIC_CODES]);
  });

  it("is what the SARIF formatter and the severity defaults read", () => {
    for (const row of DIAGNOSTICS) {
      expect(RULE_DESCRIPTIONS[row.code]).toBe(row.description);
      expect(DEFAULT_SEVERITIES[row.code]).toBe(row.severity);
      expect(RULE_HELP[row.code]).toEqual({ meaning: row.meaning, fix: row.fix });
    }
    const log = JSON.parse(
      formatSarif(
        [{ code: "overlap", severity: "error", message: "m", file: "p.yaml", line: 1, column: 1 }],
        { toolVersion: "0", table: DIAGNOSTICS },
      ),
    );
    const overlap = diagnosticMeta("overlap");
    expect(log.runs[0].tool.driver.rules[0]).toMatchObject({
      id: "overlap",
      shortDescription: { text: overlap.description },
      fullDescription: { text: overlap.meaning },
      defaultConfiguration: { level: overlap.severity },
    });
  });
});
