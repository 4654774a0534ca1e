/**
 * `toolgate explain --host HOST NAME`: NAME read as the host's tool. A tool the configuration declares by that
 * name is decided as itself; otherwise the host's aliases read it as canonical calls (path arguments against
 * the project and the roots), each decided, the strictest being the answer. A name no alias reads exits 1 and
 * says which of the host's tools have aliases.
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, ROOT, toolgate } from "./cli-helpers.js";

const DIR = join(ROOT, "test", "fixtures", "compile", "aliases");

const explain = (...args: string[]) => toolgate(["explain", ...args], DIR);

beforeAll(() => {
  assertBuilt();
});

describe("toolgate explain --host", () => {
  it("shows the mapping first, then the canonical call and its decision", () => {
    const run = explain("--host", "claude-code", "Bash", "--args", '{"command":"git status","timeout":5}');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.split("\n").slice(0, 4)).toEqual([
      "Bash (claude-code) → shell { command ← command }",
      'call: shell {"command":"git status"} → ALLOW',
      "shell: ALLOW — Reading the repository's status changes nothing.",
      "decided by: git-status",
    ]);
  });

  it("reads a path argument against the project and gives JSON with the host's reading", () => {
    const run = explain(
      "--host",
      "claude-code",
      "Write",
      "--project",
      "/srv/project",
      "--args",
      '{"file_path":"/srv/project/config/.env","content":"A=1"}',
      "--format",
      "json",
    );
    expect(run.code, run.stderr).toBe(0);
    const json = JSON.parse(run.stdout);
    expect(json).toMatchObject({ tool: "write_file", action: "deny", ruleIds: ["no-env-files"] });
    expect(json.host).toEqual({
      name: "claude-code",
      tool: "Write",
      alias: {
        name: "Write",
        tool: "write_file",
        arguments: [
          { argument: "path", kind: "path", name: "file_path" },
          { argument: "content", kind: "argument", name: "content" },
          { argument: "operation", kind: "value", value: "update" },
        ],
        description:
          'Write (claude-code) → write_file { path ← file_path (a path), content ← content, operation ← "update" }',
        file: "aliases.yaml",
        line: 2,
      },
      calls: [
        {
          tool: "write_file",
          arguments: { path: "config/.env", content: "A=1", operation: "update" },
          action: "deny",
          reason: "Environment files hold secrets; the agent never writes them.",
          ruleIds: ["no-env-files"],
        },
      ],
    });
  });

  it("decides every reading of a path and answers with the strictest", () => {
    // Only a case-insensitive file system puts /srv/Project inside /srv/project: both readings are decided.
    const run = explain(
      "--host",
      "claude-code",
      "Write",
      "--project",
      "/srv/project",
      "--args",
      '{"file_path":"/srv/Project/.env"}',
    );
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines.slice(1, 4)).toEqual([
      'call 1 of 2: write_file {"path":"/srv/Project/.env","operation":"update"} → DENY',
      'call 2 of 2: write_file {"path":".env","operation":"update"} → DENY',
      "the strictest decides: call 1",
    ]);
    const json = JSON.parse(
      explain(
        "--host",
        "claude-code",
        "Write",
        "--project",
        "/srv/project",
        "--args",
        '{"file_path":"/srv/Project/notes.md"}',
        "--format",
        "json",
      ).stdout,
    );
    expect(json.host.calls.map((c: { arguments: unknown }) => c.arguments)).toEqual([
      { path: "/srv/Project/notes.md", operation: "update" },
      { path: "notes.md", operation: "update" },
    ]);
    expect(json.action).toBe("allow");
  });

  it("fills a name pattern's parts, the tool's name and all its arguments", () => {
    const run = explain(
      "--host",
      "claude-code",
      "mcp__github__delete_repo",
      "--args",
      '{"repo":"toolgate"}',
      "--format",
      "json",
    );
    const json = JSON.parse(run.stdout);
    expect(json.host.calls[0].arguments).toEqual({
      name: "mcp__github__delete_repo",
      server: "github",
      tool: "delete_repo",
      input: { repo: "toolgate" },
    });
    expect(json).toMatchObject({ action: "deny", ruleIds: ["no-github-delete"], outcome: "deny" });
  });

  it("reads the aliases of the host named, not another's", () => {
    const run = explain("--host", "gemini-cli", "run_shell_command", "--args", '{"command":"git status"}');
    expect(run.stdout.split("\n")[0]).toBe("run_shell_command (gemini-cli) → shell { command ← command }");
    const other = explain("--host", "gemini-cli", "Bash", "--args", '{"command":"git status"}');
    expect(other.code).toBe(1);
    expect(other.stderr).toContain(
      'no tool is declared as "Bash" and no alias reads the gemini-cli tool of that name, so the hook cannot read it (never allowed); gemini-cli tools with aliases: run_shell_command',
    );
  });

  it("decides a declared tool's name as itself", () => {
    const run = explain("--host", "codex", "shell", "--args", '{"command":"git status"}');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.split("\n").slice(0, 3)).toEqual([
      "shell (codex) is a declared tool: decided as itself",
      'call: shell {"command":"git status"} → ALLOW',
      "shell: ALLOW — Reading the repository's status changes nothing.",
    ]);
    const json = JSON.parse(
      explain("--host", "codex", "shell", "--args", '{"command":"ls"}', "--format", "json").stdout,
    );
    expect(json.host).toMatchObject({ name: "codex", tool: "shell", alias: null });
  });

  it("exits 1 for a name no alias reads, saying which host tools have aliases", () => {
    const run = explain("--host", "claude-code", "Read", "--args", "{}");
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("claude-code tools with aliases: Bash, Write, mcp__{server}__{tool}");
    const none = explain("--host", "cursor", "beforeReadFile", "--args", '{"file_path":"/srv/x"}');
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("cursor has no aliases: add one under aliases: in a tool file");
    // What the host's hook cannot read, explain cannot either: Cursor's read names its file.
    const unreadable = explain("--host", "cursor", "beforeReadFile", "--args", "{}");
    expect(unreadable.code).toBe(1);
    expect(unreadable.stderr).toContain("the cursor hook cannot read this call: file_path is");
  });

  it("refuses an unknown host, --project without --host, and arguments that are not an object", () => {
    const host = explain("--host", "claud-code", "Bash");
    expect(host.code).toBe(2);
    expect(host.stderr).toContain(
      '--host "claud-code" is not a host read through aliases; did you mean "claude-code"?',
    );
    expect(explain("Bash", "--project", "/srv").code).toBe(2);
    const args = explain("--host", "claude-code", "Bash", "--args", "[1]");
    expect(args.code).toBe(2);
    expect(args.stderr).toContain("--args must be a JSON object");
  });
});

describe("toolgate explain --host on the canonical pack: what the hook decides", () => {
  beforeAll(assertBuilt);
  const PACK = join(ROOT, "policies/packs/agents/toolgate.config.yaml");
  const run = (...args: string[]) => toolgate(["explain", "--config", PACK, ...args], ROOT);

  it("Codex's apply_patch is read per file, as the hook reads it: the secret file decides", () => {
    const patch = [
      "*** Begin Patch",
      "*** Update File: src/a.ts",
      "+x",
      "*** Add File: .env",
      "+y",
      "*** End Patch",
    ];
    const result = run(
      "--host",
      "codex",
      "apply_patch",
      "--args",
      JSON.stringify({ command: patch.join("\n") }),
      "--project",
      "/srv/p",
    );
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toBe("apply_patch (codex) → write_file { path ← path (a path), operation ← operation }");
    expect(lines[1]).toBe('call 1 of 2: write_file {"path":"src/a.ts","operation":"update"} → ASK');
    expect(lines[2]).toBe('call 2 of 2: write_file {"path":".env","operation":"add"} → DENY');
    expect(lines[3]).toBe("the strictest decides: call 2");
  });

  it("Gemini CLI's own read_file is read through its alias, although read_file is a declared (canonical) tool", () => {
    const result = run(
      "--host",
      "gemini-cli",
      "read_file",
      "--args",
      '{"file_path":"/srv/p/.env"}',
      "--project",
      "/srv/p",
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.split("\n").slice(0, 2)).toEqual([
      "read_file (gemini-cli) → read_file { path ← file_path (a path) }",
      'call: read_file {"path":".env"} → DENY',
    ]);
  });

  it("an MCP name that splits several ways is read every way Claude Code's hook reads it", () => {
    const result = run("--host", "claude-code", "mcp__a__b__c", "--args", "{}", "--format", "json");
    expect(result.code, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json.host.calls.map((call: { arguments: { server: string } }) => call.arguments.server)).toEqual([
      "a",
      "a__b",
    ]);
  });
});
