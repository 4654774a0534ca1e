/**
 * The conversion of Claude Code permission rules, rule by rule (the end-to-end check through `toolgate
 * explain` is test/cli/import-claude-code.test.ts).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadPolicyResultSync } from "../../src/config/load-policy.js";
import { importClaudeCodeSettings } from "../../src/import/claude-code.js";
import { decisionController } from "../../src/testing/run-policy-tests.js";

const PROJECT = "/home/dev/project";
const HOME = "/home/dev";

function importRules(
  permissions: Record<string, unknown>,
  file = `${PROJECT}/.claude/settings.json`,
  unreadableDeny = false,
) {
  const result = importClaudeCodeSettings([{ file, text: JSON.stringify({ permissions }) }], {
    home: HOME,
    project: PROJECT,
    unreadableDeny,
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
    // An allow also refuses redirections (before: `npm run test 2>&1` was allowed, where Claude Code prompts).
    const noRedirection = ',"not":{"regex":"[<>]"}';
    expect(w.get("claude-allow-1")).toBe(`{"command":{"command":["npm run test"]${noRedirection}}}`);
    expect(w.get("claude-allow-2")).toBe(`{"command":{"command":["git diff"]${noRedirection}}}`);
    expect(w.get("claude-allow-3")).toBe(`{"command":{"command":["git status$"]${noRedirection}}}`);
  });

  it("narrows an allow without a word boundary, drops one it cannot read, widens a deny to the leading words", () => {
    const r = importRules({
      allow: ["Bash(ls*)", "Bash(git * main)", 'Bash(git commit -m "x")'],
      deny: ["Bash(git * main)", "Bash(* --version)", 'Bash(git commit -m "x")'],
    });
    const w = whens(r.yaml);
    expect(w.get("claude-allow-1")).toBe('{"command":{"command":["ls"],"not":{"regex":"[<>]"}}}');
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
    const r = importRules(
      {
        allow: [
          "WebFetch(domain:*.example.com)",
          "WebFetch(domain:example.*)",
          "mcp__github__get_*",
          "mcp__fs",
        ],
        deny: ["WebFetch(domain:example.*)", "mcp__*", "Agent(isolation:worktree)", "Agent(Plan)", "*"],
      },
      undefined,
      true,
    );
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

  it("refuses a deny of a tool outside the pack unless the hook runs with --unreadable deny; never drops it", () => {
    // Before: Skill and PowerShell denies were reported "not-carried" and the import went on, leaving the hook's
    // default --unreadable ask: looser than the deny.
    for (const rule of ["PowerShell(Remove-Item *)", "Skill(deploy *)", "PowerShell", "*"]) {
      const refused = importClaudeCodeSettings(
        [{ file: "s.json", text: JSON.stringify({ permissions: { deny: [rule] } }) }],
        { home: HOME, project: PROJECT },
      );
      expect(refused.ok, rule).toBe(false);
      expect(refused.ok ? "" : refused.message).toContain(
        `s.json: permissions.deny rule ${JSON.stringify(rule)}`,
      );
      expect(refused.ok ? "" : refused.message).toContain("--unreadable deny");
    }
    const r = importRules(
      { deny: ["PowerShell(Remove-Item *)", "Bash(", "Skill(deploy *)"], ask: ["Skill"] },
      undefined,
      true,
    );
    expect(r.findings.map((f) => [f.rule, f.carried, f.ids.length])).toEqual([
      ["PowerShell(Remove-Item *)", "stricter", 0],
      ["Bash(", "not-carried", 0],
      ["Skill(deploy *)", "stricter", 0],
      ["Skill", "stricter", 0],
    ]);
    expect(r.findings[0]?.note).toContain(
      "every call of PowerShell, and of any other tool outside the pack, is denied",
    );
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

/** Decides calls with an imported policy over the Claude Code pack. */
function decider(yaml: string) {
  const dir = mkdtempSync(join(tmpdir(), "toolgate-cc-import-"));
  writeFileSync(join(dir, "policy.yaml"), yaml);
  writeFileSync(
    join(dir, "toolgate.config.yaml"),
    `tools: [${JSON.stringify(resolve("policies/packs/claude-code/tools.yaml"))}]\npolicy: policy.yaml\n`,
  );
  const loaded = loadPolicyResultSync({ config: join(dir, "toolgate.config.yaml") });
  expect(loaded.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  if (loaded.bundle === undefined) throw new Error("no bundle");
  const controller = decisionController(loaded.bundle, loaded.validators);
  return (tool: string, args: Record<string, unknown>) => {
    const explained = controller.explain({ callId: "c", toolName: tool, arguments: args });
    if ("callId" in explained) throw new Error(explained.content);
    return explained.decision.action;
  };
}

describe("Read and Edit denies reach the shell's file commands", () => {
  const r = importRules({
    allow: ["Bash(cat:*)", "Bash(head:*)", "Bash(sed:*)", "Bash(tee:*)", "Bash(ls:*)", "Bash(git diff:*)"],
    deny: ["Read(./.env)", "Read(~/.ssh/**)", "Edit(docs/**)", "Read(*.pem)"],
    ask: ["Edit(package.json)"],
  });
  const decide = decider(r.yaml);
  const bash = (command: string) => decide("Bash", { command });

  it.each([
    ["cat .env", "deny"],
    ["cat ./.env", "deny"],
    ["cat config/.env", "deny"],
    ["cat '.e'nv", "deny"],
    ['cat ".env"', "deny"],
    ["cat .ENV", "deny"],
    ["head -n 1 .env", "deny"],
    ["cd config && cat .env", "deny"],
    ["cat /home/dev/.ssh/id_rsa", "deny"],
    ["cat key.pem", "deny"],
    ["sed -i s/a/b/ docs/guide.md", "deny"],
    ["tee docs/new.md", "deny"],
    ["sed -i s/a/b/ package.json", "ask"],
    ["cat README.md", "allow"],
    ["ls src", "allow"],
    ["git diff --stat", "allow"],
  ])("%s: %s", (command, expected) => {
    expect(bash(command)).toBe(expected);
  });

  it("says in the report that the shell is reached by name, and what is not caught", () => {
    const env = r.findings.find((f) => f.rule === "Read(./.env)");
    expect(env?.carried).toBe("stricter");
    expect(env?.note).toContain('mentions ".env"');
    expect(env?.note).toContain("a symbolic link under another name");
    expect(env?.note).toContain("the hook decides a symbolic link as itself and as its target");
    expect(r.findings.find((f) => f.rule === "Edit(docs/**)")?.carried).toBe("stricter");
  });

  it("a deny of a file under a directory also reaches a recursive read that names only the directory", () => {
    const nested = decider(
      importRules({
        allow: ["Bash(grep:*)", "Bash(cp:*)", "Bash(cat:*)"],
        deny: ["Read(secrets/key.txt)", "Read(//home/dev/project/lib/x.ts)"],
      }).yaml,
    );
    expect(nested("Bash", { command: "grep -r TODO secrets" })).toBe("deny");
    expect(nested("Bash", { command: "cp -r secrets /tmp/s" })).toBe("deny");
    expect(nested("Bash", { command: "cat lib/x.ts" })).toBe("deny");
    // The project directory's own path is not a name to look for.
    expect(nested("Bash", { command: "cat project.md" })).toBe("allow");
    expect(nested("Bash", { command: "cat notes/key.md" })).toBe("allow");
  });

  it("a bare Read deny denies every file command", () => {
    const bare = decider(importRules({ allow: ["Bash(cat:*)", "Bash(npm test)"], deny: ["Read"] }).yaml);
    expect(bare("Bash", { command: "cat README.md" })).toBe("deny");
    expect(bare("Bash", { command: "npm test" })).toBe("allow");
  });
});

describe("permissions.defaultMode", () => {
  it("dontAsk: ask rules and the fallback deny", () => {
    const r = importRules({ allow: ["Bash(git status)"], ask: ["Bash(git push *)"], defaultMode: "dontAsk" });
    const decide = decider(r.yaml);
    expect(decide("Bash", { command: "git status" })).toBe("allow");
    expect(decide("Bash", { command: "git push origin main" })).toBe("deny");
    expect(decide("Bash", { command: "npm test" })).toBe("deny");
    expect(decide("Read", { file_path: "src/a.ts" })).toBe("deny");
    expect(r.modes).toEqual([expect.objectContaining({ mode: "dontAsk", carried: "stricter" })]);
    expect(r.findings.find((f) => f.list === "ask")?.note).toContain(
      'written as deny: defaultMode "dontAsk"',
    );
  });

  it("default, acceptEdits, auto and bypassPermissions leave the policy asking, and say so", () => {
    for (const mode of ["default", "acceptEdits", "auto", "bypassPermissions"]) {
      const r = importRules({ allow: ["Bash(git status)"], defaultMode: mode });
      expect(r.modes.map((m) => m.mode)).toEqual([mode]);
      expect(r.modes[0]?.carried).toBe(mode === "default" ? "exact" : "not-carried");
      expect(decider(r.yaml)("Bash", { command: "npm test" })).toBe("ask");
    }
    expect(importRules({ defaultMode: "bypassPermissions" }).modes[0]?.note).toContain(
      "keeps every ask rule",
    );
  });

  it("refuses plan and modes it does not know, naming the file", () => {
    for (const mode of ["plan", "yolo", 3]) {
      const r = importClaudeCodeSettings(
        [{ file: "s.json", text: JSON.stringify({ permissions: { defaultMode: mode } }) }],
        { home: HOME, project: PROJECT },
      );
      expect(r.ok).toBe(false);
      expect(r.ok ? "" : r.message).toContain("s.json: permissions.defaultMode");
    }
  });
});

describe("the report is truthful about composition and redirections", () => {
  it("a Bash allow is stricter, not exact, and says how compound commands and redirections are read", () => {
    const r = importRules({ allow: ["Bash(npm run test *)", "Bash(git status)"] });
    for (const f of r.findings) {
      expect(f.carried).toBe("stricter");
      expect(f.note).toContain("each simple command is decided on its own");
      expect(f.note).toContain("no redirection at all");
    }
    const decide = decider(r.yaml);
    expect(decide("Bash", { command: "npm run test" })).toBe("allow");
    expect(decide("Bash", { command: "npm run test 2>&1" })).toBe("ask");
    expect(decide("Bash", { command: "git status >/dev/null" })).toBe("ask");
    // Claude Code allows a compound whose parts each match an allow rule; so does toolgate, part by part.
    expect(decide("Bash", { command: "npm run test && git status" })).toBe("allow");
    expect(decide("Bash", { command: "npm run test && make" })).toBe("ask");
  });

  it("a WebFetch deny is reported as a deny, and not as exact", () => {
    const r = importRules({
      deny: ["WebFetch(domain:evil.example)"],
      allow: ["WebFetch(domain:ok.example)"],
    });
    expect(r.findings.map((f) => [f.list, f.carried])).toEqual([
      ["deny", "stricter"],
      ["allow", "stricter"],
    ]);
    expect(r.findings[0]?.note).toMatch(/^denied for every spelling/);
  });
});

describe("property: a file command naming a denied path is never allowed, however it is quoted or cased", () => {
  const names = [".env", "secrets", "id_rsa", "key.pem"] as const;
  const deciders = new Map(
    names.map((name) => [
      name,
      decider(
        importRules({
          allow: ["Bash(cat:*)", "Bash(head:*)", "Bash(grep:*)", "Bash(cp:*)"],
          deny: [`Read(${name === "key.pem" ? "*.pem" : name})`],
        }).yaml,
      ),
    ]),
  );
  /** The name with some runs of it quoted ('…' or "…") and some letters upper-cased. */
  const spelled = (name: string) =>
    fc
      .array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.boolean()), {
        minLength: name.length,
        maxLength: name.length,
      })
      .map((marks) =>
        [...name]
          .map((c, i) => {
            const [quote, upper] = marks[i] as [number, boolean];
            const letter = upper ? c.toUpperCase() : c;
            return quote === 0 ? letter : quote === 1 ? `'${letter}'` : `"${letter}"`;
          })
          .join(""),
      );
  it("holds", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...names).chain((name) =>
          fc.record({
            name: fc.constant(name),
            spelling: spelled(name),
            dir: fc.constantFrom("", "./", "config/", "/home/dev/project/", "a/b/"),
            command: fc.constantFrom("cat", "head -n 1", "grep -r x", "cp", "cd x && cat"),
            after: fc.constantFrom("", "/x", " out.txt"),
          }),
        ),
        ({ name, spelling, dir, command, after }) => {
          const decide = deciders.get(name) as ReturnType<typeof decider>;
          const line = `${command} ${dir}${spelling}${after}`;
          expect(decide("Bash", { command: line }), line).not.toBe("allow");
        },
      ),
      { numRuns: 300 },
    );
  });
});
