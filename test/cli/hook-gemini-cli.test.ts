/**
 * `toolgate hook gemini-cli`, run as Gemini CLI runs it: the built CLI, spawned with a recorded `BeforeTool`
 * payload on stdin (test/fixtures/gemini-cli/hook/<case>/payload.json, in the shape of Gemini CLI's hooks
 * reference), against the Gemini CLI pack's starting policy. Each case's expected.json gives the exit code and
 * either the decision (with a text its reason must hold) or a text stderr must hold.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runHook } from "./claude-code-hook-process.js";
import { assertBuilt, ROOT } from "./cli-helpers.js";
import { readHookCase } from "./hook-fixtures.js";

const FIXTURES = join(ROOT, "test/fixtures/gemini-cli/hook");
const PACK_CONFIG = join(ROOT, "policies/packs/gemini-cli/toolgate.config.yaml");

const readCase = (name: string) => readHookCase(FIXTURES, name);

const gemini = (input: string, args: readonly string[], env: Readonly<Record<string, string>> = {}) =>
  runHook(input, args, env, ROOT, "gemini-cli");

const cases = readdirSync(FIXTURES).sort();

describe("toolgate hook gemini-cli on recorded BeforeTool payloads", () => {
  beforeAll(() => {
    assertBuilt();
  });

  it("has cases", () => {
    expect(cases.length).toBeGreaterThan(40);
  });

  it.each(cases)("%s", async (name) => {
    const { input, expected } = readCase(name);
    const { code, stdout, stderr } = await gemini(
      input,
      ["--config", PACK_CONFIG, ...(expected.args ?? [])],
      expected.env,
    );
    expect(code).toBe(expected.exit);
    const answer = JSON.parse(stdout) as { decision: string; reason: string; systemMessage?: string };
    if (expected.exit === 2) {
      // A blocking error: exit 2 with the reason on stderr, and on stdout a deny, since Gemini CLI reads
      // stdout first whatever the exit code. Either reading blocks the call.
      expect(answer).toEqual({ decision: "deny", reason: expect.stringMatching(/^toolgate: \S/) });
      expect(answer.reason).toContain("the tool call is blocked");
      expect(stderr).toContain(expected.stderr ?? "");
      expect(stderr).toContain("the tool call is blocked");
      return;
    }
    expect(Object.keys(answer).sort()).toEqual(
      expected.decision === "ask" ? ["decision", "reason", "systemMessage"] : ["decision", "reason"],
    );
    expect(answer.decision).toBe(expected.decision);
    expect(answer.reason).toMatch(/^toolgate: \S/);
    expect(answer.reason).toContain(expected.reason ?? "");
    if (expected.decision === "ask") expect(answer.systemMessage).toBe(answer.reason);
    expect(stdout.endsWith("}\n")).toBe(true);
    expect(stderr).toBe("");
  });

  it("blocks (exit 2) when no configuration can be found, naming what to do", async () => {
    const { input } = readCase("read-in-project");
    const { code, stdout, stderr } = await gemini(input, ["--config", join(FIXTURES, "missing.yaml")]);
    expect(code).toBe(2);
    expect(JSON.parse(stdout)).toMatchObject({ decision: "deny" });
    expect(stderr).toContain("no toolgate configuration found");
  });

  it("refuses an --ask or --unreadable value that would allow (exit 2 with a reason on stderr, which blocks)", async () => {
    const { input } = readCase("read-outside-project");
    for (const args of [
      ["--ask", "allow"],
      ["--unreadable", "allow"],
    ]) {
      const { code, stdout, stderr } = await gemini(input, ["--config", PACK_CONFIG, ...args]);
      expect(code).toBe(2);
      // Nothing on stdout: Gemini CLI then reads stderr, which is not JSON, as a deny.
      expect(stdout).toBe("");
      expect(stderr).toMatch(/must be ask or deny/);
    }
  });
});
