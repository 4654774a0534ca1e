/**
 * `toolgate init --agent codex|cursor|opencode|claude-code|gemini-cli`: a project over the canonical coding-agent pack
 * (Claude Code and Gemini CLI: over their own packs) (as installed
 * under node_modules/toolgate) whose policy extends the pack's, with the host's hook registration written to
 * fail closed where the host allows; the result passes lint and its tests, and the hook it registers answers.
 */
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, ROOT, toolgate } from "./cli-helpers.js";

// biome-ignore lint/suspicious/noTemplateCurlyInString: the variable Claude Code expands in a hook's args
const DIR = "${CLAUDE_PROJECT_DIR}";

const temporary: string[] = [];
afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

/** An empty project with toolgate installed (a link to this package). */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), "toolgate-init-agent-"));
  temporary.push(dir);
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(ROOT, join(dir, "node_modules", "toolgate"));
  return dir;
}

describe("toolgate init --agent", () => {
  beforeAll(assertBuilt);

  it("codex: .codex/hooks.json registers both events, each ending in `|| exit 2` so that a hook that cannot start blocks", () => {
    const dir = project();
    const run = toolgate(["init", "--agent", "codex"], dir);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const hooks = JSON.parse(readFileSync(join(dir, ".codex/hooks.json"), "utf8"));
    expect(hooks).toEqual({
      hooks: {
        PreToolUse: [
          {
            hooks: [
              {
                type: "command",
                command: "npx --no-install toolgate hook codex --event PreToolUse || exit 2",
                timeout: 30,
              },
            ],
          },
        ],
        PermissionRequest: [
          {
            hooks: [
              {
                type: "command",
                command: "npx --no-install toolgate hook codex --event PermissionRequest || exit 2",
                timeout: 30,
              },
            ],
          },
        ],
      },
    });
    expect(readFileSync(join(dir, "toolgate.config.yaml"), "utf8")).toContain(
      "tools:\n  [\n    node_modules/toolgate/policies/packs/agents/tools.yaml,\n    node_modules/toolgate/policies/packs/agents/aliases.yaml,\n  ]",
    );
    expect(toolgate(["lint"], dir).code).toBe(0);
    expect(toolgate(["test"], dir).code).toBe(0);
    // The state folder (approvals, audit, the hook cache) stays out of git.
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toBe(".toolgate/\n");
  });

  it("cursor: .cursor/hooks.json sets failClosed on every event it registers", () => {
    const dir = project();
    expect(toolgate(["init", "--agent", "cursor"], dir).code).toBe(0);
    const hooks = JSON.parse(readFileSync(join(dir, ".cursor/hooks.json"), "utf8")) as {
      version: number;
      hooks: Record<string, { command: string; failClosed: boolean }[]>;
    };
    expect(hooks.version).toBe(1);
    expect(Object.keys(hooks.hooks).sort()).toEqual([
      "beforeMCPExecution",
      "beforeReadFile",
      "beforeShellExecution",
    ]);
    for (const entries of Object.values(hooks.hooks)) {
      expect(entries).toEqual([
        { command: "npx --no-install toolgate hook cursor", failClosed: true, timeout: 30 },
      ]);
    }
    // The hook it registers answers from the project's policy.
    const answer = spawnSync(process.execPath, [join(ROOT, "bin/toolgate.js"), "hook", "cursor"], {
      cwd: dir,
      input: JSON.stringify({
        hook_event_name: "beforeShellExecution",
        workspace_roots: [dir],
        command: "rm -rf /",
        cwd: dir,
      }),
      encoding: "utf8",
    });
    expect(JSON.parse(answer.stdout)).toMatchObject({ permission: "deny" });
  });

  it("opencode: the plugin file re-exports toolgate's plugin", () => {
    const dir = project();
    expect(toolgate(["init", "--agent", "opencode"], dir).code).toBe(0);
    expect(readFileSync(join(dir, ".opencode/plugin/toolgate.ts"), "utf8")).toContain(
      'export { ToolgatePlugin } from "toolgate/opencode";',
    );
    expect(toolgate(["lint"], dir).code).toBe(0);
  });

  it("claude-code: .claude/settings.json registers the documented exec-form hook with onFailure block, keeping the file's other settings", () => {
    const dir = project();
    mkdirSync(join(dir, ".claude"));
    writeFileSync(
      join(dir, ".claude/settings.json"),
      JSON.stringify({ permissions: { deny: ["Read(./.env)"] }, hooks: { Stop: [{ hooks: [] }] } }),
    );
    const run = toolgate(["init", "--agent", "claude-code"], dir);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const settings = JSON.parse(readFileSync(join(dir, ".claude/settings.json"), "utf8"));
    expect(settings.permissions).toEqual({ deny: ["Read(./.env)"] });
    expect(settings.hooks.Stop).toEqual([{ hooks: [] }]);
    expect(settings.hooks.PreToolUse).toEqual([
      {
        matcher: "*",
        hooks: [
          {
            type: "command",
            command: "node",
            args: [
              `${DIR}/node_modules/toolgate/bin/toolgate.js`,
              "hook",
              "claude-code",
              "--config",
              `${DIR}/toolgate.config.yaml`,
              "--project",
              DIR,
            ],
            timeout: 30,
            onFailure: "block",
          },
        ],
      },
    ]);
    expect(readFileSync(join(dir, "toolgate.config.yaml"), "utf8")).toContain(
      "tools: [node_modules/toolgate/policies/packs/claude-code/tools.yaml]",
    );
    expect(toolgate(["lint"], dir).code).toBe(0);
    expect(toolgate(["test"], dir).code).toBe(0);
    // Again with --force: the hook is not registered twice.
    expect(toolgate(["init", "--agent", "claude-code", "--force"], dir).code).toBe(0);
    expect(
      JSON.parse(readFileSync(join(dir, ".claude/settings.json"), "utf8")).hooks.PreToolUse,
    ).toHaveLength(1);
    // The hook it registers answers from the project's policy.
    const answer = spawnSync(
      process.execPath,
      [join(ROOT, "bin/toolgate.js"), "hook", "claude-code", "--project", dir],
      {
        cwd: dir,
        input: JSON.stringify({
          session_id: "s",
          transcript_path: "/t",
          cwd: dir,
          hook_event_name: "PreToolUse",
          tool_name: "Read",
          tool_input: { file_path: join(dir, ".env") },
          tool_use_id: "t1",
        }),
        encoding: "utf8",
      },
    );
    expect(JSON.parse(answer.stdout)).toMatchObject({
      hookSpecificOutput: { permissionDecision: "deny" },
    });
  });

  it("gemini-cli: .gemini/settings.json registers the documented BeforeTool hook ending in `|| exit 2`", () => {
    const dir = project();
    const run = toolgate(["init", "--agent", "gemini-cli"], dir);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const settings = JSON.parse(readFileSync(join(dir, ".gemini/settings.json"), "utf8"));
    expect(settings).toEqual({
      hooks: {
        BeforeTool: [
          {
            matcher: "*",
            hooks: [
              {
                name: "toolgate",
                type: "command",
                command:
                  "node $GEMINI_PROJECT_DIR/node_modules/toolgate/bin/toolgate.js hook gemini-cli --config $GEMINI_PROJECT_DIR/toolgate.config.yaml || exit 2",
                timeout: 30000,
              },
            ],
          },
        ],
      },
    });
    expect(settings.hooks.BeforeTool[0].hooks[0].command).toMatch(/ \|\| exit 2$/);
    expect(readFileSync(join(dir, "toolgate.config.yaml"), "utf8")).toContain(
      "tools: [node_modules/toolgate/policies/packs/gemini-cli/tools.yaml]",
    );
    expect(toolgate(["lint"], dir).code).toBe(0);
    expect(toolgate(["test"], dir).code).toBe(0);
  });

  it("claude-code: refuses a .claude/settings.json that is not JSON rather than overwrite it", () => {
    const dir = project();
    mkdirSync(join(dir, ".claude"));
    writeFileSync(join(dir, ".claude/settings.json"), "{ nope");
    const run = toolgate(["init", "--agent", "claude-code", "--force"], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(".claude/settings.json is not JSON");
    expect(readFileSync(join(dir, ".claude/settings.json"), "utf8")).toBe("{ nope");
  });

  it("one project, five agents: the first init writes the canonical policy, each later one adds only its registration", () => {
    const dir = project();
    expect(toolgate(["init", "--agent", "codex"], dir).code).toBe(0);
    const config = readFileSync(join(dir, "toolgate.config.yaml"), "utf8");
    const policy = readFileSync(join(dir, "policies/policy.yaml"), "utf8");
    mkdirSync(join(dir, ".claude"));
    writeFileSync(join(dir, ".claude/settings.json"), '{ "model": "opus" }\n');
    for (const agent of ["cursor", "opencode", "claude-code", "gemini-cli"]) {
      const run = toolgate(["init", "--agent", agent], dir);
      expect(run.stderr, agent).toBe("");
      expect(run.code, agent).toBe(0);
      expect(run.stdout).toContain("kept: the project is already on the canonical tools");
    }
    expect(readFileSync(join(dir, "toolgate.config.yaml"), "utf8")).toBe(config);
    expect(readFileSync(join(dir, "policies/policy.yaml"), "utf8")).toBe(policy);
    for (const file of [
      ".codex/hooks.json",
      ".cursor/hooks.json",
      ".opencode/plugin/toolgate.ts",
      ".gemini/settings.json",
    ]) {
      expect(existsSync(join(dir, file)), file).toBe(true);
    }
    const claude = JSON.parse(readFileSync(join(dir, ".claude/settings.json"), "utf8"));
    expect(claude.model).toBe("opus");
    expect(claude.hooks.PreToolUse[0].hooks[0].args).toContain("claude-code");
    expect(toolgate(["lint"], dir).code).toBe(0);
    expect(toolgate(["test"], dir).code).toBe(0);
    expect(toolgate(["fmt", "--check"], dir).code).toBe(0);
    // Claude Code's hook decides its own Read through the canonical read_file rule.
    const hook = spawnSync(
      process.execPath,
      [
        join(ROOT, "bin/toolgate.js"),
        "hook",
        "claude-code",
        "--config",
        join(dir, "toolgate.config.yaml"),
        "--project",
        dir,
      ],
      {
        input: JSON.stringify({
          session_id: "s",
          transcript_path: join(dir, "t.jsonl"),
          cwd: dir,
          hook_event_name: "PreToolUse",
          tool_name: "Read",
          tool_input: { file_path: join(dir, ".env") },
          tool_use_id: "toolu_1",
        }),
        encoding: "utf8",
      },
    );
    expect(hook.status, hook.stderr).toBe(0);
    expect(JSON.parse(hook.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: "deny" });
    expect(JSON.parse(hook.stdout).hookSpecificOutput.permissionDecisionReason).toContain(
      "agents-no-secret-files",
    );
  });

  it("claude-code and gemini-cli --canonical start a project on the canonical tools; --canonical is theirs alone", () => {
    for (const agent of ["claude-code", "gemini-cli"]) {
      const dir = project();
      const run = toolgate(["init", "--agent", agent, "--canonical"], dir);
      expect(run.code, run.stderr).toBe(0);
      const config = readFileSync(join(dir, "toolgate.config.yaml"), "utf8");
      expect(config).toContain("the canonical coding-agent tools, one policy for every agent");
      expect(config).toContain("packs/agents/aliases.yaml");
      expect(toolgate(["lint"], dir).code).toBe(0);
      expect(toolgate(["fmt", "--check"], dir).code).toBe(0);
    }
    const dir = project();
    const wrong = toolgate(["init", "--agent", "codex", "--canonical"], dir);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("--canonical is for claude-code and gemini-cli");
  });

  it("refuses an unknown agent, a --from-* source, and overwriting without --force", () => {
    const dir = project();
    const unknown = toolgate(["init", "--agent", "vscode"], dir);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      "--agent must be one of codex, cursor, opencode, claude-code, gemini-cli",
    );
    expect(existsSync(join(dir, "toolgate.config.yaml"))).toBe(false);
    expect(toolgate(["init", "--agent", "codex", "--from-openai", "tools.json"], dir).code).toBe(2);
    expect(toolgate(["init", "--agent", "codex"], dir).code).toBe(0);
    const again = toolgate(["init", "--agent", "codex"], dir);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("pass --force");
    expect(toolgate(["init", "--agent", "codex", "--force"], dir).code).toBe(0);
  });
});
