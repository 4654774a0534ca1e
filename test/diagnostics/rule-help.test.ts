/** Every diagnostic code has help, and the reference's table says the same as the code table. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_SEVERITIES, DIAGNOSTIC_CODES, RULE_HELP } from "../../src/config/diagnostic-codes.js";
import { helpUri } from "../../src/diagnostics/index.js";

const reference = readFileSync(new URL("../../docs/policy-reference.md", import.meta.url), "utf8");

describe("RULE_HELP", () => {
  it("has a meaning and a fix for every code", () => {
    expect(Object.keys(RULE_HELP).sort()).toEqual([...DIAGNOSTIC_CODES].sort());
    for (const code of DIAGNOSTIC_CODES) {
      expect(RULE_HELP[code].meaning, code).toMatch(/\S.*\.$/);
      expect(RULE_HELP[code].fix, code).toMatch(/\S/);
    }
  });

  it("matches the table of docs/policy-reference.md row by row, and each helpUri anchor is there", () => {
    for (const code of DIAGNOSTIC_CODES) {
      const row = `| <a id="diagnostic-${code}"></a>\`${code}\` | ${DEFAULT_SEVERITIES[code]} | ${RULE_HELP[code].meaning} | ${RULE_HELP[code].fix} |`;
      expect(reference.split("\n"), code).toContain(row);
      expect(helpUri(code)).toBe(`https://toolgate.dev/docs/policy-reference.md#diagnostic-${code}`);
    }
  });
});
