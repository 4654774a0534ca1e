/**
 * `toolgate hook claude-code` follows symbolic links as Claude Code checks them: a link is decided as itself
 * and as its target, so a link inside the project to a secret file is refused, and a link that leaves the
 * project is not a certain allow.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runHook } from "./claude-code-hook-process.js";
import { assertBuilt, ROOT, toolgate } from "./cli-helpers.js";

const PACK = join(ROOT, "policies/packs/claude-code/toolgate.config.yaml");
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function project(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "toolgate-links-")));
  dirs.push(dir);
  mkdirSync(join(dir, "project"));
  writeFileSync(join(dir, "project", ".env"), "TOKEN=x\n");
  writeFileSync(join(dir, "project", "readme.md"), "# hi\n");
  writeFileSync(join(dir, "outside.txt"), "x\n");
  symlinkSync(join(dir, "project", ".env"), join(dir, "project", "notes.txt"));
  symlinkSync(join(dir, "outside.txt"), join(dir, "project", "docs.txt"));
  symlinkSync(join(dir, "project", "readme.md"), join(dir, "project", "intro.md"));
  return join(dir, "project");
}

async function decide(cwd: string, file: string, config = PACK): Promise<string> {
  const payload = JSON.stringify({
    session_id: "s",
    transcript_path: "/tmp/t.jsonl",
    cwd,
    hook_event_name: "PreToolUse",
    tool_name: "Read",
    tool_input: { file_path: join(cwd, file) },
    tool_use_id: "toolu_1",
  });
  const { stdout } = await runHook(payload, ["--config", config], {}, ROOT, "claude-code");
  return (JSON.parse(stdout) as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput
    .permissionDecision;
}

describe("toolgate hook claude-code and symbolic links", () => {
  beforeAll(assertBuilt);

  it("a link to a secret file is denied; a link out of the project asks; a link inside to a plain file is allowed", async () => {
    const dir = project();
    expect(await decide(dir, "notes.txt")).toBe("deny");
    expect(await decide(dir, "docs.txt")).toBe("ask");
    expect(await decide(dir, "intro.md")).toBe("allow");
    expect(await decide(dir, "readme.md")).toBe("allow");
  });

  it("a policy imported from Claude Code settings checks the link and its target, as its report says", async () => {
    const dir = project();
    mkdirSync(join(dir, ".claude"));
    writeFileSync(
      join(dir, ".claude/settings.json"),
      JSON.stringify({ permissions: { allow: ["Read(*.txt)", "Read(*.md)"], deny: ["Read(./.env)"] } }),
    );
    writeFileSync(
      join(dir, "toolgate.config.yaml"),
      `tools: [${JSON.stringify(join(ROOT, "policies/packs/claude-code/tools.yaml"))}]\npolicy: policy.yaml\n`,
    );
    const run = toolgate(
      ["import", "claude-code", join(dir, ".claude/settings.json"), "--out", join(dir, "policy.yaml")],
      ROOT,
    );
    expect(run.code).toBe(0);
    const config = join(dir, "toolgate.config.yaml");
    // notes.txt is allowed by name, but leads to .env: denied. docs.txt leads out of the project: asks.
    expect(await decide(dir, "notes.txt", config)).toBe("deny");
    expect(await decide(dir, "docs.txt", config)).toBe("ask");
    expect(await decide(dir, "intro.md", config)).toBe("allow");
  });
});
