import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { diffPolicies } from "../../src/diff/diff-policies.js";
import { expectEveryChangeFlips, loadSide } from "./diff-helpers.js";

const ROOT = new URL("../fixtures/diff/", import.meta.url).pathname;

interface Expected {
  readonly loosened: boolean;
  readonly tightened: boolean;
  readonly statements: { readonly added: number; readonly removed: number; readonly changed: number };
  /** Each must be witnessed by at least one generated call that flips this way. */
  readonly flips: readonly { readonly tool: string; readonly change: "loosened" | "tightened" }[];
}

const cases = readdirSync(ROOT).sort();

describe("toolgate diff on pairs of policy versions (test/fixtures/diff)", () => {
  it("every folder is a case: base/, head/ and expected.json", () => {
    for (const name of cases) {
      for (const part of ["base", "head", "expected.json"]) {
        expect(existsSync(join(ROOT, name, part)), `${name}/${part}`).toBe(true);
      }
    }
    expect(cases.length).toBeGreaterThanOrEqual(8);
  });

  for (const name of cases) {
    it(name, () => {
      const expected = JSON.parse(readFileSync(join(ROOT, name, "expected.json"), "utf8")) as Expected;
      const base = loadSide(join(ROOT, name, "base"));
      const head = loadSide(join(ROOT, name, "head"));
      const diff = diffPolicies(base, head);
      expect({
        loosened: diff.summary.loosened > 0,
        tightened: diff.summary.tightened > 0,
        statements: {
          added: diff.statements.added.length,
          removed: diff.statements.removed.length,
          changed: diff.statements.changed.length,
        },
      }).toEqual({
        loosened: expected.loosened,
        tightened: expected.tightened,
        statements: expected.statements,
      });
      for (const flip of expected.flips) {
        expect(
          diff.decisions.some(
            (d) => d.tool === flip.tool && d.change === flip.change && d.source === "generated",
          ),
          `a generated ${flip.change} witness for ${flip.tool}`,
        ).toBe(true);
      }
      if (expected.flips.length === 0) expect(diff.decisions).toEqual([]);
      expectEveryChangeFlips(diff, base, head);
    });
  }

  it("names the witness a narrowed deny glob no longer covers, with the deciding statements on both sides", () => {
    const diff = diffPolicies(
      loadSide(join(ROOT, "narrowed-deny-glob/base")),
      loadSide(join(ROOT, "narrowed-deny-glob/head")),
    );
    expect(diff.decisions).toContainEqual({
      tool: "read_file",
      arguments: { path: ".envx" },
      context: {},
      before: { action: "deny", statementIds: ["no-secret-files"] },
      after: { action: "allow", statementIds: ["allow:read_file"] },
      change: "loosened",
      source: "generated",
    });
    expect(diff.statements.changed).toEqual([
      {
        id: "no-secret-files",
        kind: "rule",
        fields: ["when"],
        base: expect.objectContaining({ file: "baseline.yaml", line: 5, layer: 1 }),
        head: expect.objectContaining({ file: "baseline.yaml", line: 5, layer: 1 }),
      },
    ]);
  });

  it("a raised max is witnessed by an amount between the old and the new bound", () => {
    const diff = diffPolicies(
      loadSide(join(ROOT, "raised-max/base")),
      loadSide(join(ROOT, "raised-max/head")),
    );
    const amounts = diff.decisions.map((d) => (d.arguments as { amount: number }).amount);
    expect(amounts.some((a) => a > 100 && a < 1000)).toBe(true);
    expect(amounts.every((a) => a > 100 && a <= 1000)).toBe(true);
  });

  it("a tool moved from ask to allow is one changed set entry, with both lines", () => {
    const diff = diffPolicies(
      loadSide(join(ROOT, "ask-to-allow/base")),
      loadSide(join(ROOT, "ask-to-allow/head")),
    );
    expect(diff.statements.changed).toEqual([
      expect.objectContaining({
        id: "allow:write_file",
        kind: "set",
        fields: ["action", "reason"],
        base: expect.objectContaining({ id: "ask:write_file", action: "ask", file: "policy.yaml", line: 5 }),
        head: expect.objectContaining({
          id: "allow:write_file",
          action: "allow",
          file: "policy.yaml",
          line: 4,
        }),
      }),
    ]);
  });

  it("recorded calls are replayed and reported with source recorded", () => {
    const diff = diffPolicies(
      loadSide(join(ROOT, "widened-allow-commands/base")),
      loadSide(join(ROOT, "widened-allow-commands/head")),
      { recorded: [{ tool: "run_shell", arguments: { command: "npm run lint -- --fix" } }], generate: false },
    );
    expect(diff.decisions).toEqual([
      {
        tool: "run_shell",
        arguments: { command: "npm run lint -- --fix" },
        context: {},
        before: { action: "ask", statementIds: ["otherwise:run_shell"] },
        after: { action: "allow", statementIds: ["shell-safe"] },
        change: "loosened",
        source: "recorded",
      },
    ]);
  });
});
