/**
 * `toolgate diff` where the engine cannot decide: `unknown` with the reason, never "no change", and the command
 * fails `--fail-on loosened` unless `--allow-unknown` accepts it. Kept apart from engine-diff.test.ts (which the
 * verify engine's mutation run uses) because it runs the built command.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type DiffSide, diffPolicies } from "../../src/diff/diff-policies.js";
import { assertBuilt, toolgate, writeTree } from "../cli/cli-helpers.js";
import { loadFromText } from "../verify/helpers.js";

function toolsWith(tool: string, field: string, schema: string): string {
  return `tools:
  - name: ${tool}
    description: Runs a command.
    input_schema:
      type: object
      properties:
        ${field}: ${schema}
      required: [${field}]
      additionalProperties: false
`;
}

function side(label: string, tools: string, policy: string): DiffSide {
  return { label, ...loadFromText(tools, policy) };
}

describe("a command operator beyond plain words", () => {
  const tools = toolsWith("run_shell", "command", "{ type: string, maxLength: 200 }");
  const policy = (commands: string) => `version: 1
otherwise: { run_shell: ask }
rules:
- id: safe
  tools: [run_shell]
  decision: allow
  when:
    command: { command: ${commands} }
  reason: read-only commands
`;
  // A tightening (an option no longer allowed): the engine cannot decide it, yet nothing loosens.
  const before = policy('["git status", { prefix: "git log", options: [--oneline, --stat] }]');
  const after = policy('["git status", { prefix: "git log", options: [--oneline] }]');
  let dir = "";
  beforeAll(() => {
    assertBuilt();
    const config = "tools: [tools.yaml]\npolicy: policy.yaml\n";
    dir = writeTree({
      "base/toolgate.config.yaml": config,
      "base/tools.yaml": tools,
      "base/policy.yaml": before,
      "head/toolgate.config.yaml": config,
      "head/tools.yaml": tools,
      "head/policy.yaml": after,
    });
    return () => rmSync(dir, { recursive: true, force: true });
  });

  it("is unknown, with the reason, never no change", () => {
    const diff = diffPolicies(side("base", tools, before), side("head", tools, after), { generate: false });
    expect(diff.engine).toHaveLength(1);
    expect(diff.engine[0]?.status).toBe("unknown");
    expect(diff.engine[0]?.reason).toMatch(/`command` rules are not modelled exactly.*not confirmed/);
  });

  it("fails --fail-on loosened (exit 1, in every format) unless --allow-unknown accepts it", () => {
    const args = ["diff", "--base", join(dir, "base"), "--head", join(dir, "head"), "--fail-on", "loosened"];
    const json = toolgate([...args, "--format", "json"], dir);
    expect(json.code).toBe(1);
    const out = JSON.parse(json.stdout) as { engine: { tool: string; status: string; reason?: string }[] };
    expect(out.engine.map((t) => [t.tool, t.status])).toEqual([["run_shell", "unknown"]]);
    expect(typeof out.engine[0]?.reason).toBe("string");
    expect(json.stderr).toMatch(/fails closed.*--allow-unknown/);
    const text = toolgate(args, dir);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^ {2}run_shell {2}unknown: /m);
    expect(text.stdout).toMatch(/1 tool whose loosening is unknown$/m);
    for (const format of ["markdown", "github", "sarif"]) {
      const run = toolgate([...args, "--format", format], dir);
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(/unknown/);
    }
    const accepted = toolgate([...args, "--allow-unknown"], dir);
    expect(accepted.code).toBe(0);
    expect(accepted.stderr).toMatch(/^toolgate: warning: whether run_shell loosen\(s\) is unknown/m);
  });
});
