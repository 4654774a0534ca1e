import { describe, expect, it } from "vitest";
import { DIAGNOSTICS } from "../../src/config/diagnostic-codes.js";
import {
  diagnosticsToJunit,
  formatDiagnostics,
  formatGithub,
  formatJson,
  formatJunit,
  formatSarif,
  formatStylish,
  isOutputFormat,
  OUTPUT_FORMATS,
} from "../../src/diagnostics/index.js";
import { SAMPLE } from "./sample.js";

describe("formatDiagnostics", () => {
  it("knows exactly the five output formats", () => {
    expect(OUTPUT_FORMATS).toEqual(["stylish", "json", "sarif", "github", "junit"]);
    for (const format of OUTPUT_FORMATS) expect(isOutputFormat(format)).toBe(true);
    for (const other of ["", "JSON", "text", "sarif ", "toString"]) expect(isOutputFormat(other)).toBe(false);
  });

  it("dispatches to each formatter with the parts of the input it uses", () => {
    const input = {
      diagnostics: SAMPLE,
      fingerprint: "sha256:ab",
      color: true,
      toolVersion: "1.2.3",
      table: DIAGNOSTICS,
    };
    expect(formatDiagnostics("stylish", input)).toBe(formatStylish(SAMPLE, { color: true }));
    expect(formatDiagnostics("stylish", { ...input, color: false })).toBe(
      formatStylish(SAMPLE, { color: false }),
    );
    expect(formatDiagnostics("json", input)).toBe(
      formatJson({ fingerprint: "sha256:ab", diagnostics: SAMPLE }),
    );
    expect(formatDiagnostics("sarif", input)).toBe(
      formatSarif(SAMPLE, { toolVersion: "1.2.3", table: DIAGNOSTICS }),
    );
    expect(formatDiagnostics("github", input)).toBe(formatGithub(SAMPLE));
    expect(formatDiagnostics("junit", input)).toBe(formatJunit(diagnosticsToJunit(SAMPLE)));
  });

  it("hands readSource to stylish only: json, sarif, github and junit print no source", () => {
    const input = {
      diagnostics: SAMPLE,
      fingerprint: "sha256:ab",
      color: false,
      toolVersion: "1.2.3",
      table: DIAGNOSTICS,
    };
    const readSource = () => "version: 1\n".repeat(20);
    expect(formatDiagnostics("stylish", { ...input, readSource })).toBe(
      formatStylish(SAMPLE, { color: false, readSource }),
    );
    expect(formatDiagnostics("stylish", { ...input, readSource })).toContain("| version: 1");
    for (const format of ["json", "sarif", "github", "junit"] as const) {
      expect(formatDiagnostics(format, { ...input, readSource }), format).toBe(
        formatDiagnostics(format, input),
      );
    }
  });

  it("as exported by toolgate, fills in toolgate's own table when none is given", async () => {
    const { formatDiagnostics: publicFormat } = await import("toolgate");
    const input = { diagnostics: SAMPLE, fingerprint: null, color: false, toolVersion: "1.2.3" };
    const sarif = publicFormat("sarif", input);
    expect(sarif).toBe(formatSarif(SAMPLE, { toolVersion: "1.2.3", table: DIAGNOSTICS }));
    const rules = JSON.parse(sarif).runs[0].tool.driver.rules as { id: string; shortDescription: unknown }[];
    expect(rules.length).toBeGreaterThan(0);
    for (const rule of rules) expect(rule.shortDescription, rule.id).toBeDefined();
    expect(publicFormat("stylish", input)).toBe(formatStylish(SAMPLE, { color: false }));
  });
});
