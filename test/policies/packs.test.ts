/**
 * The shipped tool packs lint clean through the public API, as `toolgate lint --config
 * policies/packs/<pack>/toolgate.config.yaml` does: no diagnostic at all, and every policy test of the pack
 * runs and passes.
 */
import { lintPolicy } from "toolgate";
import { describe, expect, it } from "vitest";

describe("the shipped tool packs", () => {
  it.each([
    ["claude-code", 20],
    ["gemini-cli", 30],
  ])("%s lints clean and its policy tests pass", async (pack, minimumCases) => {
    const report = await lintPolicy({ config: `policies/packs/${pack}/toolgate.config.yaml` });
    expect(report.diagnostics).toEqual([]);
    expect(report.configFound).toBe(true);
    expect(report.tests?.results.length).toBeGreaterThanOrEqual(minimumCases);
    expect(report.tests?.results.every((result) => result.passed)).toBe(true);
  });
});
