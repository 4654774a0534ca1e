/**
 * `toolgate import codex`: Codex rules files (prefix_rule) as rules on the Claude Code pack's Bash tool,
 * decided call by call through the same code `toolgate explain` runs. Codex's decision for each call follows
 * its rules page (https://developers.openai.com/codex/rules): the most restrictive matching rule, and a
 * command no rule matches is left to Codex's own approval (counted here as ask). toolgate's answer must be
 * the same or stricter.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { loadPolicyResultSync } from "../../src/config/load-policy.js";
import { importCodexRules } from "../../src/import/codex.js";
import { decisionController } from "../../src/testing/run-policy-tests.js";

const RULES = resolve("test/fixtures/codex/default.rules");
const PACK_TOOLS = resolve("policies/packs/claude-code/tools.yaml");
const RANK = { allow: 0, ask: 1, deny: 2 } as const;
type Action = keyof typeof RANK;

function imported() {
  const result = importCodexRules([{ file: "default.rules", text: readFileSync(RULES, "utf8") }], {
    tool: "Bash",
    field: "command",
  });
  if (!result.ok) throw new Error(result.message);
  return result;
}

// biome-ignore format: a table
const TABLE: readonly { command: string; codex: Action; toolgate: Action }[] = [
  { command: "gh pr view 7888", codex: "ask", toolgate: "ask" },
  { command: "gh pr --repo openai/codex view 7888", codex: "ask", toolgate: "ask" },
  { command: "git status", codex: "allow", toolgate: "allow" },
  { command: "git diff --stat", codex: "allow", toolgate: "allow" },
  { command: "git push", codex: "ask", toolgate: "ask" },
  { command: "rm -rf build", codex: "deny", toolgate: "deny" },
  { command: "git status && rm x", codex: "deny", toolgate: "deny" },
  { command: "npm test", codex: "allow", toolgate: "allow" },
  { command: "npm test -- --watch", codex: "allow", toolgate: "allow" },
  { command: "sh -c 'echo $HOME'", codex: "deny", toolgate: "deny" },
  { command: "sh -c 'ls'", codex: "ask", toolgate: "deny" },
  { command: "git log $(rm -rf /)", codex: "ask", toolgate: "deny" },
  // Codex prompts for a command with a redirection; toolgate's safe subset would allow these, so an imported
  // allow refuses them (before: allowed, looser than Codex).
  { command: "git status >/dev/null", codex: "ask", toolgate: "ask" },
  { command: "git diff 2>&1", codex: "ask", toolgate: "ask" },
  { command: "npm test </dev/null", codex: "ask", toolgate: "ask" },
  { command: "git status | git diff", codex: "allow", toolgate: "allow" },
];

describe("toolgate import codex", () => {
  const dir = mkdtempSync(join(tmpdir(), "toolgate-codex-"));
  const result = imported();
  writeFileSync(join(dir, "policy.yaml"), result.yaml);
  writeFileSync(
    join(dir, "toolgate.config.yaml"),
    `tools: [${JSON.stringify(PACK_TOOLS)}]\npolicy: policy.yaml\n`,
  );
  const loaded = loadPolicyResultSync({ config: join(dir, "toolgate.config.yaml") });

  it("writes a policy that loads without errors", () => {
    expect(loaded.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

  it.each(TABLE)("$command: Codex $codex, toolgate $toolgate", ({ command, codex, toolgate }) => {
    if (loaded.bundle === undefined) throw new Error("no bundle");
    const explained = decisionController(loaded.bundle, loaded.validators).explain({
      callId: "c",
      toolName: "Bash",
      arguments: { command },
    });
    if ("callId" in explained) throw new Error(explained.content);
    expect(explained.decision.action).toBe(toolgate);
    expect(RANK[explained.decision.action]).toBeGreaterThanOrEqual(RANK[codex]);
  });

  it("reports what it could not carry exactly, keeps justifications as reasons", () => {
    expect(result.findings.map((f) => [f.line, f.carried])).toEqual([
      [2, "stricter"],
      [14, "stricter"],
      [15, "stricter"],
      [16, "stricter"],
      [17, "stricter"],
      [18, "not-carried"],
    ]);
    // An allow is not exact: the safe subset, redirections and compound commands are said.
    const allow = result.findings.find((f) => f.line === 14);
    expect(allow?.note).toContain("no redirection at all");
    expect(allow?.note).toContain("each simple command is decided on its own");
    expect(result.yaml).toContain('reason: "Use `trash` instead of `rm`."');
  });

  it("carries every forbidden and prompt rule, even one whose words toolgate's command operator cannot read", () => {
    const text = [
      'prefix_rule(pattern=["if"], decision="forbidden")',
      'prefix_rule(pattern=["git", ["push", "then"]], decision="prompt")',
      'prefix_rule(pattern=["case"], decision="allow")',
    ].join("\n");
    const r = importCodexRules([{ file: "x.rules", text }], { tool: "Bash", field: "command" });
    if (!r.ok) throw new Error(r.message);
    expect(r.findings.map((f) => [f.decision, f.carried, f.ids.length])).toEqual([
      ["deny", "stricter", 1],
      ["ask", "stricter", 1],
      ["allow", "not-carried", 0],
    ]);
    const dir = mkdtempSync(join(tmpdir(), "toolgate-codex-"));
    writeFileSync(join(dir, "policy.yaml"), r.yaml);
    writeFileSync(
      join(dir, "toolgate.config.yaml"),
      `tools: [${JSON.stringify(PACK_TOOLS)}]\npolicy: policy.yaml\n`,
    );
    const l = loadPolicyResultSync({ config: join(dir, "toolgate.config.yaml") });
    expect(l.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    if (l.bundle === undefined) throw new Error("no bundle");
    const decide = (command: string) => {
      const e = decisionController(l.bundle as NonNullable<typeof l.bundle>, l.validators).explain({
        callId: "c",
        toolName: "Bash",
        arguments: { command },
      });
      if ("callId" in e) throw new Error(e.content);
      return e.decision.action;
    };
    expect(decide("ls")).toBe("deny");
    expect(r.yaml).toContain('{"command":{"command":["git push","git then"]}}');
  });

  it.each([
    [
      'prefix_rule(pattern=["x"], decison="allow")',
      'default.rules:1:1: prefix_rule has no argument "decison"',
    ],
    [
      'prefix_rule(pattern=[], decision="allow")',
      "default.rules:1:1: pattern must be a non-empty list of tokens",
    ],
    ['prefix_rule(pattern=["x"], decision="maybe")', 'decision must be "allow", "prompt" or "forbidden"'],
    ['prefix_rule(pattern=["x"]', 'default.rules: at the end: expected ")"'],
    ['\nprefix_rule(pattern=["x], decision="allow")', "default.rules:2:42: unterminated string"],
    ["prefix_rule(pattern=[x + y])", 'default.rules:1:24: unexpected character "+"'],
    // Before: any other call was reported not-carried and the import went on, dropping what it might forbid.
    ['forbid_rule(pattern=["rm"])', "default.rules:1:1: forbid_rule(…) is not a call this import reads"],
  ])("refuses %s with its place", (text, message) => {
    const bad = importCodexRules([{ file: "default.rules", text }], { tool: "Bash", field: "command" });
    expect(bad.ok).toBe(false);
    expect(bad.ok ? "" : bad.message).toContain(message);
  });
});
