/**
 * `toolgate import claude-code`: a settings file (test/fixtures/claude-code/import/project/.claude/) is
 * imported over the Claude Code pack, and every call of a table goes through `toolgate explain` (the built
 * CLI). For each call the table gives the decision Claude Code documents for it
 * (https://code.claude.com/docs/en/permissions) and the decision toolgate gives: toolgate's must be the same
 * or stricter, never looser. Arguments are as the hook passes them: paths inside the project relative to it.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, BIN, ROOT, toolgate } from "./cli-helpers.js";

const PROJECT = join(ROOT, "test/fixtures/claude-code/import/project");
const SETTINGS = join(PROJECT, ".claude/settings.json");
const PACK_TOOLS = join(ROOT, "policies/packs/claude-code/tools.yaml");

type Action = "allow" | "ask" | "deny";
const RANK: Record<Action, number> = { allow: 0, ask: 1, deny: 2 };

interface Row {
  readonly call: string;
  readonly tool: string;
  readonly args: Record<string, unknown>;
  /** What Claude Code documents for the call under these settings (its defaults where no rule matches). */
  readonly claude: Action;
  /** What the imported policy decides. */
  readonly toolgate: Action;
}

const mcp = (name: string) => {
  const [, server = "", ...tool] = name.split("__");
  return { name, server, tool: tool.join("__"), input: {} };
};

// biome-ignore format: one row per line reads as a table
const TABLE: readonly Row[] = [
  { call: "a prefix allow", tool: "Bash", args: { command: "npm run test unit" }, claude: "allow", toolgate: "allow" },
  { call: "a compound with a denied part", tool: "Bash", args: { command: "npm run test && curl https://x.example" }, claude: "deny", toolgate: "deny" },
  { call: "a redirection after an allowed prefix (Claude Code prompts; toolgate's safe subset alone would allow it)", tool: "Bash", args: { command: "npm run test unit 2>&1" }, claude: "ask", toolgate: "ask" },
  { call: "legacy :* prefix", tool: "Bash", args: { command: "git diff --stat" }, claude: "allow", toolgate: "allow" },
  { call: "a word outside the safe shell subset (~) is not certain", tool: "Bash", args: { command: "git diff HEAD~1" }, claude: "allow", toolgate: "ask" },
  { call: "an exact command", tool: "Bash", args: { command: "git status" }, claude: "allow", toolgate: "allow" },
  { call: "a built-in read-only command (Claude Code runs it unprompted; no rule covers it here)", tool: "Bash", args: { command: "git status --short" }, claude: "allow", toolgate: "ask" },
  { call: "an ask prefix", tool: "Bash", args: { command: "git push origin main" }, claude: "ask", toolgate: "ask" },
  { call: "a deny prefix", tool: "Bash", args: { command: "rm -rf build" }, claude: "deny", toolgate: "deny" },
  { call: "a deny past a leading assignment", tool: "Bash", args: { command: "FOO=bar rm -rf tmp/" }, claude: "deny", toolgate: "deny" },
  { call: "a deny behind a stripped wrapper", tool: "Bash", args: { command: "timeout 30 curl https://x.example" }, claude: "deny", toolgate: "deny" },
  { call: "a parameter deny", tool: "Bash", args: { command: "npm run test", run_in_background: true }, claude: "deny", toolgate: "deny" },
  { call: "a middle-wildcard allow toolgate cannot carry", tool: "Bash", args: { command: "git checkout main" }, claude: "allow", toolgate: "ask" },
  { call: "an exact ask", tool: "Bash", args: { command: "npm publish" }, claude: "ask", toolgate: "ask" },
  { call: "an exact ask matches longer commands too (wider)", tool: "Bash", args: { command: "npm publish --tag next" }, claude: "ask", toolgate: "ask" },
  { call: "a read under an allowed directory", tool: "Read", args: { file_path: "src/index.ts" }, claude: "allow", toolgate: "allow" },
  { call: "an allow directory is top-level only", tool: "Read", args: { file_path: "vendor/pkg/src/lib.js" }, claude: "allow", toolgate: "ask" },
  { call: "the denied dotenv", tool: "Read", args: { file_path: ".env" }, claude: "deny", toolgate: "deny" },
  { call: "a nested dotenv (./.env read at any depth: wider)", tool: "Read", args: { file_path: "config/.env" }, claude: "allow", toolgate: "deny" },
  { call: "a deny directory at any depth", tool: "Read", args: { file_path: "vendor/secrets/key.txt" }, claude: "deny", toolgate: "deny" },
  { call: "a home deny, absolute", tool: "Read", args: { file_path: "/home/dev/.ssh/id_rsa" }, claude: "deny", toolgate: "deny" },
  { call: "a read outside the project (Claude Code prompts)", tool: "Read", args: { file_path: "/etc/hosts" }, claude: "ask", toolgate: "ask" },
  { call: "an Edit allow anchored at the project", tool: "Edit", args: { file_path: "docs/guide.md", old_string: "a", new_string: "b" }, claude: "allow", toolgate: "allow" },
  { call: "an Edit allow covers Write", tool: "Write", args: { file_path: "docs/new.md", content: "x" }, claude: "allow", toolgate: "allow" },
  { call: "an Edit allow grants reading", tool: "Read", args: { file_path: "docs/guide.md" }, claude: "allow", toolgate: "allow" },
  { call: "an Edit ask", tool: "Edit", args: { file_path: "package.json", old_string: "a", new_string: "b" }, claude: "ask", toolgate: "ask" },
  { call: "an edit without a rule (acceptEdits is not carried)", tool: "Edit", args: { file_path: "src/a.ts", old_string: "a", new_string: "b" }, claude: "allow", toolgate: "ask" },
  { call: "a Read deny blocks an Edit", tool: "Edit", args: { file_path: ".env", old_string: "a", new_string: "b" }, claude: "deny", toolgate: "deny" },
  { call: "a Write(path) rule Claude Code ignores", tool: "Write", args: { file_path: "build/out.js", content: "x" }, claude: "allow", toolgate: "ask" },
  { call: "a domain allow", tool: "WebFetch", args: { url: "https://docs.python.org/3/", prompt: "p" }, claude: "allow", toolgate: "allow" },
  { call: "ask beats a matching allow", tool: "WebFetch", args: { url: "https://api.github.com/repos", prompt: "p" }, claude: "ask", toolgate: "ask" },
  { call: "a subdomain allow", tool: "WebFetch", args: { url: "https://raw.github.com/x", prompt: "p" }, claude: "allow", toolgate: "allow" },
  { call: "*. does not cover the apex", tool: "WebFetch", args: { url: "https://github.com/", prompt: "p" }, claude: "ask", toolgate: "ask" },
  { call: "a domain deny", tool: "WebFetch", args: { url: "https://evil.example/x", prompt: "p" }, claude: "deny", toolgate: "deny" },
  { call: "userinfo hides the denied host", tool: "WebFetch", args: { url: "https://docs.python.org@evil.example/", prompt: "p" }, claude: "deny", toolgate: "deny" },
  { call: "an MCP allow glob", tool: "MCP", args: mcp("mcp__github__get_issue"), claude: "allow", toolgate: "allow" },
  { call: "an MCP tool without a rule", tool: "MCP", args: mcp("mcp__github__create_issue"), claude: "ask", toolgate: "ask" },
  { call: "an MCP server deny", tool: "MCP", args: mcp("mcp__filesystem__read_file"), claude: "deny", toolgate: "deny" },
  { call: "an Agent allow", tool: "Agent", args: { subagent_type: "Explore", prompt: "find", description: "find" }, claude: "allow", toolgate: "allow" },
  { call: "an Agent parameter deny", tool: "Agent", args: { subagent_type: "Explore", model: "opus", prompt: "find", description: "find" }, claude: "deny", toolgate: "deny" },
  { call: "a Read allow reaches Grep", tool: "Grep", args: { pattern: "TODO", path: "src" }, claude: "allow", toolgate: "allow" },
  { call: "a Read deny reaches Glob", tool: "Glob", args: { pattern: "*", path: "secrets" }, claude: "deny", toolgate: "deny" },
];

function explain(config: string, tool: string, args: unknown) {
  return new Promise<{ action: string; ruleIds: string[] }>((done, fail) => {
    const child = spawn(
      process.execPath,
      [BIN, "explain", tool, "--config", config, "--format", "json", "--args", JSON.stringify(args)],
      { cwd: ROOT },
    );
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.on("error", fail);
    child.on("close", (code) => {
      if (code !== 0) fail(new Error(`explain exited ${code}: ${out}`));
      else done(JSON.parse(out) as { action: string; ruleIds: string[] });
    });
  });
}

describe("toolgate import claude-code, checked call by call through toolgate explain", () => {
  let dir: string;
  let report: {
    findings: { list: string; rule: string; carried: string; note?: string }[];
    modes: { mode: string; carried: string; note: string }[];
    notes: string[];
  };
  const decided = new Map<string, { action: string; ruleIds: string[] }>();

  beforeAll(async () => {
    assertBuilt();
    dir = mkdtempSync(join(tmpdir(), "toolgate-import-"));
    writeFileSync(
      join(dir, "toolgate.config.yaml"),
      `tools: [${JSON.stringify(PACK_TOOLS)}]\npolicy: policy.yaml\n`,
    );
    const run = toolgate(
      [
        "import",
        "claude-code",
        SETTINGS,
        "--out",
        join(dir, "policy.yaml"),
        "--home",
        "/home/dev",
        "--unreadable-deny",
        "--format",
        "json",
      ],
      ROOT,
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    report = JSON.parse(run.stdout);
    const lint = toolgate(["lint", "--config", join(dir, "toolgate.config.yaml")], ROOT);
    expect(lint.stdout).toContain("no problems");
    // Two at a time: each explain is a process start.
    for (let i = 0; i < TABLE.length; i += 2) {
      const rows = TABLE.slice(i, i + 2);
      const results = await Promise.all(
        rows.map((r) => explain(join(dir, "toolgate.config.yaml"), r.tool, r.args)),
      );
      for (const [j, r] of rows.entries()) {
        decided.set(r.call, results[j] as { action: string; ruleIds: string[] });
      }
    }
  }, 300_000);

  it.each(TABLE)("$tool, $call: Claude Code $claude, toolgate $toolgate", (row) => {
    const got = decided.get(row.call);
    expect(got?.action).toBe(row.toolgate);
    // The invariant the table exists for: never looser than Claude Code.
    expect(RANK[got?.action as Action]).toBeGreaterThanOrEqual(RANK[row.claude]);
  });

  it("lists every rule that was not carried exactly, with what was done instead", () => {
    const inexact = report.findings.filter((f) => f.carried !== "exact");
    for (const f of inexact) expect(f.note, f.rule).toMatch(/stricter|not carried|no toolgate rule/);
    const by = (rule: string) => report.findings.find((f) => f.rule === rule);
    expect(by("Bash(git * main)")?.carried).toBe("not-carried");
    expect(by("Write(build/**)")?.carried).toBe("not-carried");
    expect(by("Bash(npm publish)")?.carried).toBe("stricter");
    expect(by("PowerShell")?.note).toContain("--unreadable deny");
    expect(by("PowerShell")?.carried).toBe("stricter");
    expect(by("Read(src/**)")?.carried).toBe("exact");
    expect(by("Bash(git status)")?.carried).toBe("stricter");
    expect(by("WebFetch(domain:docs.python.org)")?.note).toContain("spelt plainly");
    expect(by("Read(./.env)")?.note).toContain("also carried to Bash");
    expect(report.modes).toEqual([expect.objectContaining({ mode: "acceptEdits", carried: "not-carried" })]);
    expect(report.findings).toHaveLength(25);
  });

  it("writes a policy whose reasons name the Claude Code rule", () => {
    const yaml = readFileSync(join(dir, "policy.yaml"), "utf8");
    expect(yaml).toContain(`reason: "Claude Code's permissions.deny rule \\"Bash(curl *)\\"`);
  });

  it("refuses the PowerShell deny without --unreadable-deny, naming the rule (never drops it)", () => {
    const run = toolgate(["import", "claude-code", SETTINGS, "--home", "/home/dev"], ROOT);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('permissions.deny rule "PowerShell"');
    expect(run.stdout).toBe("");
  });

  it("the stylish report lists each rule under its own list, and the mode", () => {
    const run = toolgate(
      [
        "import",
        "claude-code",
        SETTINGS,
        "--home",
        "/home/dev",
        "--unreadable-deny",
        "--out",
        join(dir, "p2.yaml"),
      ],
      ROOT,
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ {2}deny {3}WebFetch\(domain:evil\.example\) {2}stricter: denied/m);
    expect(run.stdout).toMatch(
      /^ {2}allow {2}Bash\(git status\) {2}stricter: .*each simple command is decided on its own/m,
    );
    expect(run.stdout).toContain('mode   defaultMode "acceptEdits"');
    // Every rule is listed, the exact ones too.
    expect(run.stdout).toMatch(
      /^25 rules read; \d+ exact, \d+ stricter, \d+ not carried, each listed below/m,
    );
    expect(run.stdout).toMatch(/^ {2}allow {2}Read\(src\/\*\*\) {2}exact/m);
  });

  it("refuses to overwrite --out without --force, and a file that is not JSON", () => {
    const again = toolgate(
      ["import", "claude-code", SETTINGS, "--unreadable-deny", "--out", join(dir, "policy.yaml")],
      ROOT,
    );
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("pass --force");
    writeFileSync(join(dir, "bad.json"), "{ not json");
    const bad = toolgate(["import", "claude-code", join(dir, "bad.json")], ROOT);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("is not JSON");
  });
});
