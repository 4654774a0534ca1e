/**
 * `toolgate hook claude-code`, run as Claude Code runs it: the built CLI, spawned with a recorded
 * `PreToolUse` payload on stdin (test/fixtures/claude-code/hook/<case>/payload.json, in the shape of the
 * hooks reference), against the Claude Code pack's starting policy. Each case's expected.json gives the exit
 * code and either the decision (with a text its reason must hold) or a text stderr must hold.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runHook } from "./claude-code-hook-process.js";
import { assertBuilt, ROOT } from "./cli-helpers.js";
import { readHookCase } from "./hook-fixtures.js";

const FIXTURES = join(ROOT, "test/fixtures/claude-code/hook");
const PACK_CONFIG = join(ROOT, "policies/packs/claude-code/toolgate.config.yaml");

const readCase = (name: string) => readHookCase(FIXTURES, name);

const cases = readdirSync(FIXTURES).sort();

describe("toolgate hook claude-code on recorded PreToolUse payloads", () => {
  beforeAll(() => {
    assertBuilt();
  });

  it("has cases", () => {
    expect(cases.length).toBeGreaterThan(30);
  });

  it.each(cases)("%s", async (name) => {
    const { input, expected } = readCase(name);
    const { code, stdout, stderr } = await runHook(
      input,
      ["--config", PACK_CONFIG, ...(expected.args ?? [])],
      expected.env,
    );
    expect(code).toBe(expected.exit);
    if (expected.exit === 2) {
      // A blocking error: nothing on stdout that Claude Code could read as a decision, the reason on stderr.
      expect(stdout).toBe("");
      expect(stderr).toContain(expected.stderr ?? "");
      expect(stderr).toContain("the tool call is blocked");
      return;
    }
    const answer = JSON.parse(stdout) as {
      hookSpecificOutput: {
        hookEventName: string;
        permissionDecision: string;
        permissionDecisionReason: string;
      };
    };
    expect(Object.keys(answer)).toEqual(["hookSpecificOutput"]);
    expect(Object.keys(answer.hookSpecificOutput).sort()).toEqual([
      "hookEventName",
      "permissionDecision",
      "permissionDecisionReason",
    ]);
    expect(answer.hookSpecificOutput.hookEventName).toBe("PreToolUse");
    expect(answer.hookSpecificOutput.permissionDecision).toBe(expected.decision);
    expect(answer.hookSpecificOutput.permissionDecisionReason).toMatch(/^toolgate: \S/);
    expect(answer.hookSpecificOutput.permissionDecisionReason).toContain(expected.reason ?? "");
    expect(stderr).toBe("");
  });

  it("blocks (exit 2) when no configuration can be found, naming what to do", async () => {
    const { input } = readCase("read-in-project");
    const { code, stdout, stderr } = await runHook(input, ["--config", join(FIXTURES, "missing.yaml")]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain("no toolgate configuration found");
  });

  it("refuses an --unreadable value that would allow (exit 2, which blocks)", async () => {
    const { input } = readCase("read-unknown-field");
    const { code, stdout, stderr } = await runHook(input, ["--config", PACK_CONFIG, "--unreadable", "allow"]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain("--unreadable must be ask or deny");
  });
});
