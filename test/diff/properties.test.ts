import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { diffPolicies } from "../../src/diff/diff-policies.js";
import { expectEveryChangeFlips, loadSide } from "./diff-helpers.js";

const REPO = new URL("../../", import.meta.url).pathname;
const FIXTURE = join(REPO, "test/fixtures/diff/raised-max/base");
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function copyOf(files: readonly [string, string][]): string {
  const dir = mkdtempSync(join(tmpdir(), "toolgate-diff-prop-"));
  made.push(dir);
  for (const [from, to] of files) cpSync(from, join(dir, to), { recursive: true });
  return dir;
}

/** How a file is written again: style only, never content. */
const styleArbitrary = fc.record({
  indent: fc.constantFrom(2, 4),
  flowLevel: fc.constantFrom(0, 1, 2, 3),
  defaultStringType: fc.constantFrom("PLAIN", "QUOTE_DOUBLE", "QUOTE_SINGLE"),
  seed: fc.integer(),
  comment: fc.boolean(),
});
type Style = typeof styleArbitrary extends fc.Arbitrary<infer S> ? S : never;

/** Shuffles the keys of every mapping, and the order of rules and of allow/ask/deny entries. */
function reorder(value: unknown, random: () => number, key = ""): unknown {
  if (Array.isArray(value)) {
    const items = value.map((v) => reorder(v, random));
    // Statement order means nothing; the order inside an operator's list is left alone.
    if (["rules", "allow", "ask", "deny", "tools"].includes(key)) items.sort(() => random() - 0.5);
    return items;
  }
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value).map(([k, v]) => [k, reorder(v, random, k)] as const);
  entries.sort(() => random() - 0.5);
  return Object.fromEntries(entries);
}

function rewrite(path: string, style: Style): void {
  let state = style.seed;
  const random = () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
  const data = reorder(parse(readFileSync(path, "utf8")), random);
  const text = stringify(data, {
    indent: style.indent,
    flowLevel: style.flowLevel === 0 ? undefined : style.flowLevel,
    defaultStringType: style.defaultStringType as "PLAIN",
    lineWidth: 0,
  } as never);
  writeFileSync(path, `${style.comment ? "# rewritten\n\n" : ""}${text}`);
}

describe("toolgate diff: properties", () => {
  it("a policy diffed with itself, or with a reformatted copy, reports nothing (reference policy)", () => {
    const original = copyOf([
      [join(REPO, "toolgate.config.yaml"), "toolgate.config.yaml"],
      [join(REPO, "policies"), "policies"],
    ]);
    const base = loadSide(original);
    const itself = diffPolicies(base, base);
    expect(itself.decisions).toEqual([]);
    expect(itself.statements).toEqual({ added: [], removed: [], changed: [] });
    fc.assert(
      fc.property(styleArbitrary, styleArbitrary, (a, b) => {
        const copy = copyOf([
          [join(REPO, "toolgate.config.yaml"), "toolgate.config.yaml"],
          [join(REPO, "policies"), "policies"],
        ]);
        rewrite(join(copy, "policies/policy.yaml"), a);
        rewrite(join(copy, "policies/org/baseline.yaml"), b);
        rewrite(join(copy, "policies/tools/files.yaml"), a);
        const diff = diffPolicies(base, loadSide(copy));
        expect(diff.statements).toEqual({ added: [], removed: [], changed: [] });
        expect(diff.decisions).toEqual([]);
        expect(diff.summary).toEqual({ loosened: 0, tightened: 0, changed: 0 });
      }),
      { numRuns: 6 },
    );
  });

  /** A change to the fixture policy: what it does, in words, and the edit. */
  const mutation = fc.oneof(
    fc
      .integer({ min: 1, max: 5000 })
      .map((max) => ({ what: `max ${max}`, edit: (p: Policy) => setMax(p, max) })),
    fc.subarray(["git status", "ls", "npm test", "cat", "git diff --stat"], { minLength: 1 }).map((list) => ({
      what: `commands ${list.join(", ")}`,
      edit: (p: Policy) => setRule(p, "shell-safe", { when: { command: { command: list } } }),
    })),
    fc.constantFrom("allow", "ask", "deny").map((decision) => ({
      what: `shell-safe decides ${decision}`,
      edit: (p: Policy) => setRule(p, "shell-safe", { decision }),
    })),
    fc.subarray(["development", "staging", "production"], { minLength: 1 }).map((envs) => ({
      what: `deploys in ${envs.join(", ")}`,
      edit: (p: Policy) =>
        setRule(p, "deploy-outside-production", { context: { environment: { in: envs } } }),
    })),
    fc.constantFrom("allow", "ask", "deny").map((list) => ({
      what: `write_file in ${list}`,
      edit: (p: Policy) => {
        for (const k of ["allow", "ask", "deny"] as const)
          p[k] = (p[k] ?? []).filter((t) => t !== "write_file");
        p[list] = [...(p[list] ?? []), "write_file"];
      },
    })),
    fc.constant({ what: "no extends", edit: (p: Policy) => delete p.extends }),
  );

  it("every reported decision change really flips when both controllers decide it again", () => {
    const base = loadSide(FIXTURE);
    let reported = 0;
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 3 }), (mutations) => {
        const dir = copyOf([[FIXTURE, "."]]);
        const policy = parse(readFileSync(join(dir, "policy.yaml"), "utf8")) as Policy;
        for (const m of mutations) m.edit(policy);
        writeFileSync(join(dir, "policy.yaml"), stringify(policy));
        const head = loadSide(dir);
        const diff = diffPolicies(base, head);
        expectEveryChangeFlips(diff, base, head);
        reported += diff.decisions.length;
        // Exit code 1 with --fail-on loosened exactly when something loosened.
        expect(diff.summary.loosened > 0).toBe(diff.decisions.some((d) => d.change === "loosened"));
      }),
      { numRuns: 12 },
    );
    // The edits do change decisions: the property was checked on real reports, not on empty ones.
    expect(reported).toBeGreaterThan(0);
  });
});

interface Policy {
  extends?: string[];
  allow?: string[];
  ask?: string[];
  deny?: string[];
  rules: { id: string; [key: string]: unknown }[];
}

function setRule(policy: Policy, id: string, fields: Record<string, unknown>): void {
  const rule = policy.rules.find((r) => r.id === id);
  if (rule === undefined) throw new Error(`no rule ${id}`);
  Object.assign(rule, fields);
}

function setMax(policy: Policy, max: number): void {
  setRule(policy, "small-transfers", { when: { amount: { max } } });
}
