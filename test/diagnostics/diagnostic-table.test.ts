/**
 * One table of diagnostic codes: the codes, the `DiagnosticCode` type, the SARIF rule metadata and the
 * severities all come from it, and every policy check carries its code's row as its `meta`.
 */
import { describe, expect, it } from "vitest";
import { POLICY_CHECKS } from "../../src/config/policy-checks/index.js";
import {
  DEFAULT_SEVERITIES,
  DIAGNOSTIC_CODES,
  DIAGNOSTICS,
  diagnosticMeta,
  formatSarif,
  RULE_DESCRIPTIONS,
  RULE_HELP,
} from "../../src/diagnostics/index.js";

describe("the diagnostics table", () => {
  it("lists each code once, in the order of DIAGNOSTIC_CODES", () => {
    expect(DIAGNOSTICS.map((d) => d.code)).toEqual([...DIAGNOSTIC_CODES]);
    expect(new Set(DIAGNOSTIC_CODES).size).toBe(DIAGNOSTIC_CODES.length);
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
        {
          toolVersion: "0",
        },
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

  it("gives every policy check its code's row as meta", () => {
    expect(POLICY_CHECKS.length).toBeGreaterThan(10);
    for (const check of POLICY_CHECKS) {
      expect(check.meta).toBe(diagnosticMeta(check.meta.code as (typeof DIAGNOSTIC_CODES)[number]));
    }
  });
});
