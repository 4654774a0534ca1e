/**
 * The conversion of Claude Code permission rules, rule by rule (the end-to-end check through `toolgate
 * explain` is test/cli/import-claude-code.test.ts).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { importClaudeCodeSettings } from "../../src/import/claude-code.js";

const PROJECT = "/home/dev/project";
const HOME = "/home/dev";

function importRules(
  permissions: Record<string, readonly string[]>,
  file = `${PROJECT}/.claude/settings.json`,
) {
  const result = importClaudeCodeSettings([{ file, text: JSON.stringify({ permissions }) }], {
    home: HOME,
    project: PROJECT,
  });
  if (!result.ok) throw new Error(result.message);
  return result;
}

/** The `when` lines of the written policy, per rule id. */
function whens(yaml: string): Map<string, string> {
  const out = new Map<string, string>();
  let id = "";
  for (const line of yaml.split("\n")) {
    const m = /^ {2}- id: (\S+)/.exec(line);
    if (m) id = m[1] as string;
    const w = /^ {4}when: (.*)$/.exec(line);
    if (w) out.set(id, w[1] as string);
  }
  return out;
}

describe("Claude Code permission rules as toolgate rules", () => {
  it("carries Bash prefixes, exact commands and the legacy :* form", () => {
    const r = importRules({ allow: ["Bash(npm run test *)", "Bash(git diff:*)", "Bash(git status)"] });
    const w = whens(r.yaml);
    expect(w.get("claude-allow-1")).toBe('{"command":{"command":["npm run test"]}}');
    expect(w.get("claude-allow-2")).toBe('{"command":{"command":["git diff"]}}');
    expect(w.get("claude-allow-3")).toBe('{"command":{"command":["git status$"]}}');
  });

  it("narrows an allow without a word boundary, drops one it cannot read, widens a deny to the leading words", () => {
    const r = importRules({
      allow: ["Bash(ls*)", "Bash(git * main)", 'Bash(git commit -m "x")'],
      deny: ["Bash(git * main)", "Bash(* --version)", 'Bash(git commit -m "x")'],
    });
    const w = whens(r.yaml);
    expect(w.get("claude-allow-1")).toBe('{"command":{"command":["ls"]}}');
    expect(r.findings.find((f) => f.list === "allow" && f.rule === "Bash(git * main)")?.carried).toBe(
      "not-carried",
    );
    expect(r.findings.find((f) => f.list === "allow" && f.rule.startsWith("Bash(git commit"))?.ids).toEqual(
      [],
    );
    expect(w.get("claude-deny-1")).toBe('{"command":{"command":["git"]}}');
    // A leading wildcard leaves no words: every Bash call.
    expect(w.has("claude-deny-2")).toBe(false);
    expect(r.yaml).toMatch(/- id: claude-deny-2\n {4}tools: \[Bash\]\n {4}decision: deny\n {4}reason/);
    expect(w.get("claude-deny-3")).toBe('{"command":{"command":["git commit -m"]}}');
  });

  it("reads path patterns by their anchor and by the list", () => {
    const r = importRules({
      allow: ["Read(src/**)", "Edit(/docs/**)", "Read(//home/dev/project/lib/**)", "Read(./README.md)"],
      deny: ["Read(secrets/**)", "Read(.env)", "Read(~/.aws/**)", "Read(//**/.npmrc)", "Edit(a{b}.ts)"],
    });
    const w = whens(r.yaml);
    expect(w.get("claude-allow-1-1")).toBe('{"file_path":{"glob":["src/**"]}}');
    expect(w.get("claude-allow-2-1")).toBe('{"file_path":{"glob":["docs/**"]}}');
    // An absolute pattern inside the project: paths there arrive relative.
    expect(w.get("claude-allow-3-1")).toBe('{"file_path":{"glob":["lib/**"]}}');
    expect(w.get("claude-allow-4-1")).toBe('{"file_path":{"glob":["README.md"]}}');
    expect(w.get("claude-deny-1-1")).toBe('{"file_path":{"glob":["**/secrets/**"]}}');
    expect(w.get("claude-deny-2-1")).toBe('{"file_path":{"glob":["**/.env","**/.env/**"]}}');
    expect(w.get("claude-deny-3-1")).toBe('{"file_path":{"glob":["/home/dev/.aws/**"]}}');
    expect(w.get("claude-deny-4-1")).toBe(
      '{"file_path":{"glob":["/**/.npmrc","**/.npmrc","/**/.npmrc/**","**/.npmrc/**"]}}',
    );
    // gitignore has no braces: they are literal.
    expect(w.get("claude-deny-5-1")).toBe(
      '{"file_path":{"glob":["**/a\\\\{b\\\\}.ts","**/a\\\\{b\\\\}.ts/**"]}}',
    );
  });

  it("a deny of a name also covers everything under a directory of that name (gitignore)", () => {
    const r = importRules({ deny: ["Read(secrets)"], allow: ["Read(docs)"] });
    const w = whens(r.yaml);
    expect(w.get("claude-deny-1-1")).toBe('{"file_path":{"glob":["**/secrets","**/secrets/**"]}}');
    expect(w.get("claude-allow-1-1")).toBe('{"file_path":{"glob":["**/docs"]}}');
  });

  it("anchors /path in user settings at ~/.claude", () => {
    const r = importRules({ deny: ["Read(/secrets/**)"] }, `${HOME}/.claude/settings.json`);
    expect(whens(r.yaml).get("claude-deny-1-1")).toBe(
      '{"file_path":{"glob":["/home/dev/.claude/secrets/**"]}}',
    );
  });

  it("reads domains, MCP names, parameters and subagents", () => {
    const r = importRules({
      allow: [
        "WebFetch(domain:*.example.com)",
        "WebFetch(domain:example.*)",
        "mcp__github__get_*",
        "mcp__fs",
      ],
      deny: ["WebFetch(domain:example.*)", "mcp__*", "Agent(isolation:worktree)", "Agent(Plan)", "*"],
    });
    const w = whens(r.yaml);
    expect(w.get("claude-allow-1")).toBe('{"url":{"url":{"host":["*.example.com"]}}}');
    expect(
      r.findings.find((f) => f.rule === "WebFetch(domain:example.*)" && f.list === "allow")?.carried,
    ).toBe("not-carried");
    expect(w.get("claude-allow-3")).toBe(
      '{"server":{"equals":"github"},"name":{"regex":"^mcp__github__get_[A-Za-z0-9_-]*$"}}',
    );
    expect(w.get("claude-allow-4")).toBe('{"server":{"equals":"fs"}}');
    expect(w.get("claude-deny-3")).toBe('{"isolation":{"equals":"worktree"}}');
    expect(w.get("claude-deny-4")).toBe('{"subagent_type":{"equals":"Plan"}}');
    const star = r.findings.find((f) => f.rule === "*");
    expect(star?.carried).toBe("stricter");
    expect(r.yaml).toMatch(
      /- id: claude-deny-5\n {4}tools: \[Bash, Read, Write, Edit, MultiEdit, NotebookEdit, Glob, Grep, WebFetch, WebSearch, Agent, MCP\]/,
    );
  });

  it("reports tools outside the pack and rules it cannot read, and writes nothing for them", () => {
    const r = importRules({ deny: ["PowerShell(Remove-Item *)", "Bash(", "Skill(deploy *)"] });
    expect(r.findings.map((f) => [f.rule, f.carried, f.ids.length])).toEqual([
      ["PowerShell(Remove-Item *)", "not-carried", 0],
      ["Bash(", "not-carried", 0],
      ["Skill(deploy *)", "not-carried", 0],
    ]);
  });

  it("refuses settings that are not an object or lists that are not strings", () => {
    const bad = importClaudeCodeSettings([{ file: "s.json", text: '{"permissions":{"allow":[1]}}' }], {
      home: HOME,
    });
    expect(bad).toEqual({ ok: false, message: "s.json: permissions.allow must be a list of strings" });
  });

  it("property: an allow rule is never widened — each written allow rule has a condition unless the Claude Code rule was a bare tool name", () => {
    const word = fc.constantFrom(
      "git",
      "npm",
      "ls",
      "run",
      "*",
      "x*",
      ":*",
      "--v",
      '"q"',
      "a/b",
      "~/c",
      "//d",
      "**",
    );
    const specifier = fc.array(word, { minLength: 1, maxLength: 4 }).map((ws) => ws.join(" "));
    const tool = fc.constantFrom(
      "Bash",
      "Read",
      "Edit",
      "Write",
      "WebFetch",
      "Agent",
      "Glob",
      "mcp__s__t",
      "mcp__*",
      "*",
    );
    const rule = fc
      .tuple(tool, fc.option(specifier, { nil: undefined }))
      .map(([t, s]) => (s === undefined ? t : `${t}(${s})`));
    fc.assert(
      fc.property(fc.array(rule, { minLength: 1, maxLength: 6 }), (rules) => {
        const r = importRules({ allow: rules });
        const w = whens(r.yaml);
        for (const f of r.findings) {
          const bare =
            /^[A-Za-z]+$/.test(f.rule) || /^[A-Za-z]+\(\s*\*\s*\)$/.test(f.rule) || /^mcp__/.test(f.rule);
          for (const id of f.ids) if (!bare) expect(w.has(id), `${f.rule} → ${id}`).toBe(true);
          if (f.carried !== "exact") expect(f.note).toBeTruthy();
        }
      }),
      { numRuns: 300 },
    );
  });
});
