// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the demo patches a TypeScript template literal into the workspace
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, BIN, ROOT, toolgate } from "../cli/cli-helpers.js";

function demo(args: readonly string[]) {
  const state = mkdtempSync(join(tmpdir(), "toolgate-demo-"));
  const run = spawnSync(process.execPath, ["examples/coding-agent/main.mjs", "--state", state, ...args], {
    cwd: ROOT,
    encoding: "utf8",
    input: "",
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr, state };
}

describe("examples/coding-agent", () => {
  beforeAll(() => {
    assertBuilt();
    const compiled = spawnSync(
      process.execPath,
      [BIN, "compile", "--config", "examples/coding-agent/toolgate.config.yaml"],
      {
        cwd: ROOT,
        encoding: "utf8",
      },
    );
    expect(compiled.status, compiled.stderr + compiled.stdout).toBe(0);
  });

  for (const provider of ["openai", "anthropic"]) {
    it(`${provider}: allow, deny and ask → approve in one run, with a verified audit log`, () => {
      const run = demo(["--provider", provider, "--approve", "all"]);
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      const out = run.stdout;
      expect(out).toContain(
        "tools offered to the model: read_file, list_dir, search_text, write_file, apply_patch, run_shell, http_fetch, git_commit",
      );
      expect(out).not.toMatch(/offered.*delete_path/);
      expect(out).toContain('→ read_file {"path":"src/greet.ts"}\n  allow → ran: 4 lines returned');
      expect(out).toContain(
        '→ read_file {"path":"./src/../.env"}\n  deny: denied by policy: secret files (environment files, private keys, credentials) are never read or written by the agent (rule: no-secret-files)',
      );
      // The deny goes back to the model with the rule and the reason, in the provider's shape.
      expect(out).toMatch(
        provider === "openai"
          ? /"role":"tool","tool_call_id":"call_read_env","content":"denied by policy/
          : /"type":"tool_result","tool_use_id":"toolu_read_env","content":"denied by policy/,
      );
      expect(out).toContain(
        "  │ reason:    patches change the workspace, so a person confirms each one [ask:apply_patch]",
      );
      expect(out).toContain("  │            +  return `Hello ${name}!`;");
      expect(out).toContain("  ask → ran: patched src/greet.ts");
      expect(out).toContain("model: Done: greet() now returns `Hello ${name}!`.");
      expect(out).toContain("src/greet.ts now returns: `Hello ${name}!`");
      expect(out).toContain("summary: allow 1, deny 1, ask 1 (approved 1, rejected 0)");
      expect(out).toMatch(/audit: .*audit\.jsonl — 11 events, hash chain intact/);
      const verified = toolgate(["audit", "verify", join(run.state, "audit.jsonl")], ROOT);
      expect(verified.code).toBe(0);
    });
  }

  it("--approve none: the patch is rejected, nothing changes, and the model is told", () => {
    const run = demo(["--approve", "none"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      "ask → error: the person rejected this call by --approve none: the person declined the change",
    );
    expect(run.stdout).toContain("model: The patch was not approved, so src/greet.ts is unchanged.");
    expect(run.stdout).toContain('src/greet.ts now returns: "Hello " + name');
    expect(run.stdout).toContain("summary: allow 1, deny 1, ask 1 (approved 0, rejected 1)");
  });

  it("without a terminal and without --approve, an ask fails closed", () => {
    const run = demo([]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("no terminal to ask and no --approve given: rejected (fail closed)");
    expect(run.stdout).toContain("summary: allow 1, deny 1, ask 1 (approved 0, rejected 1)");
  });

  it("--mcp: a real MCP server behind toolgate mcp-proxy; allow, deny and ask → approve through elicitation", () => {
    const run = demo(["--mcp", "--approve", "all"]);
    expect(run.code, run.stderr).toBe(0);
    const out = run.stdout;
    expect(out).toContain(
      "tools offered to the model: read_text_file, write_file, edit_file, create_directory, list_directory, search_files, get_file_info, list_allowed_directories",
    );
    expect(out).toContain('→ read_text_file {"path":"src/greet.ts"}\n  allow → ran: 4 lines returned');
    expect(out).toContain(
      '→ read_text_file {"path":".env"}\n  deny: denied by policy: secret files (environment files) are never read or written by the agent (rule: no-secret-files)',
    );
    expect(out).not.toContain("not-a-real-password");
    expect(out).toContain("  ┌ the proxy asks (MCP elicitation):");
    expect(out).toContain(
      "It needs your approval: edits change the workspace, so a person confirms each one.",
    );
    expect(out).toContain("src/greet.ts now returns: `Bonjour ${name}`");
    expect(out).toContain("summary: allow 2, deny 1, ask 1 (approved 1, rejected 0); approvals used: 1");
    expect(out).toMatch(/audit: .*audit\.jsonl — \d+ events, hash chain intact/);
  });

  it("--mcp --approve none: the edit is declined, the file is unchanged", () => {
    const run = demo(["--mcp", "--approve", "none"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      'ask → error: the person rejected this call by mcp-client: the person chose decline (the client calls itself "toolgate-demo")',
    );
    expect(run.stdout).toContain('src/greet.ts now returns: "Hello " + name');
    expect(run.stdout).toContain("summary: allow 2, deny 1, ask 1 (approved 0, rejected 1)");
  });
});
