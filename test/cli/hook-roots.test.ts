/**
 * Roots in the hooks, in process: `--root` and the config's `roots:` make an absolute path under them relative
 * before the policy decides, so a relative glob (`src/**`) allows it for certain; a path above a root, beside
 * it, or through a link out of every root is never a certain allow.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runHookClaudeCode, runHookCursor, runHookGeminiCli } from "../../src/cli/hook.js";
import { ROOT } from "./cli-helpers.js";

let scratch: string;
let project: string;
let shared: string;
let config: string;
let configWithRoots: string;
let configAbsoluteDeny: string;

const POLICY = `version: 1
rules:
  - id: read-src
    tools: [Read]
    decision: allow
    when: { file_path: { glob: "src/**" } }
    reason: reads inside src/ run
otherwise:
  Read: { decision: ask, reason: other reads need a person }
`;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "toolgate-hook-roots-"));
  project = join(scratch, "project");
  shared = join(scratch, "shared");
  mkdirSync(join(project, "src"), { recursive: true });
  mkdirSync(join(shared, "src"), { recursive: true });
  writeFileSync(join(scratch, "outside.txt"), "outside\n");
  writeFileSync(join(shared, "src/util.ts"), "export {};\n");
  symlinkSync(join(scratch, "outside.txt"), join(shared, "src/link.ts"));
  symlinkSync(join(scratch, "outside.txt"), join(project, "src/link.ts"));
  const configDir = join(scratch, "config");
  mkdirSync(configDir);
  copyFileSync(join(ROOT, "policies/packs/claude-code/tools.yaml"), join(configDir, "tools.yaml"));
  writeFileSync(join(configDir, "policy.yaml"), POLICY);
  config = join(configDir, "toolgate.config.yaml");
  writeFileSync(config, "tools: [tools.yaml]\npolicy: policy.yaml\n");
  configWithRoots = join(configDir, "with-roots.yaml");
  writeFileSync(configWithRoots, "tools: [tools.yaml]\npolicy: policy.yaml\nroots: [../shared]\n");
  writeFileSync(
    join(configDir, "policy-absolute.yaml"),
    `${POLICY}  - id: no-shared-keys
    tools: [Read]
    decision: deny
    when: { file_path: { glob: "${shared}/src/keys/**" } }
    reason: the shared keys are never read
`.replace("otherwise:\n  Read: { decision: ask, reason: other reads need a person }\n", "") +
      "otherwise:\n  Read: { decision: ask, reason: other reads need a person }\n",
  );
  configAbsoluteDeny = join(configDir, "absolute-deny.yaml");
  writeFileSync(configAbsoluteDeny, "tools: [tools.yaml]\npolicy: policy-absolute.yaml\n");
});
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

function claudeRead(filePath: string, options: { config?: string; root?: string[]; project?: string } = {}) {
  const payload = {
    session_id: "s",
    transcript_path: "/t.jsonl",
    cwd: project,
    hook_event_name: "PreToolUse",
    tool_name: "Read",
    tool_input: { file_path: filePath },
    tool_use_id: "toolu_1",
  };
  let out = "";
  let err = "";
  const code = runHookClaudeCode(
    {
      config: options.config ?? config,
      unreadable: "ask",
      ...(options.project === undefined ? {} : { project: options.project }),
      ...(options.root === undefined ? {} : { root: options.root }),
    },
    {
      readInput: () => Buffer.from(JSON.stringify(payload)),
      write: (text) => {
        out += text;
      },
      writeError: (text) => {
        err += text;
      },
    },
  );
  expect(code, err).toBe(0);
  const answer = JSON.parse(out).hookSpecificOutput as {
    permissionDecision: string;
    permissionDecisionReason: string;
  };
  return { decision: answer.permissionDecision, reason: answer.permissionDecisionReason };
}

describe("toolgate hook claude-code with roots", () => {
  it("allows a Read of an absolute path in the project root by a relative glob", () => {
    expect(claudeRead(join(project, "src/index.ts"))).toMatchObject({ decision: "allow" });
  });

  it("allows a Read under a --root by a relative glob, and not without it", () => {
    const path = join(shared, "src/util.ts");
    expect(claudeRead(path, { root: [shared] })).toEqual({
      decision: "allow",
      reason: "toolgate: reads inside src/ run [read-src]",
    });
    expect(claudeRead(path).decision).toBe("ask");
  });

  it("allows a Read under a root of the config's roots: (relative to the config file)", () => {
    expect(claudeRead(join(shared, "src/util.ts"), { config: configWithRoots }).decision).toBe("allow");
  });

  it("never allows a path above a root, beside it, or outside every root", () => {
    for (const path of [
      `${shared}/../outside.txt`,
      `${shared}/src/../../outside.txt`,
      `${shared}2/src/util.ts`,
      "/etc/passwd",
    ]) {
      expect(claudeRead(path, { root: [shared] }).decision, path).toBe("ask");
    }
  });

  it("keeps a rule on the absolute path as sent (an absolute glob) where it is stricter", () => {
    expect(
      claudeRead(join(shared, "src/keys/id_ed25519"), { config: configAbsoluteDeny, root: [shared] }),
    ).toEqual({
      decision: "deny",
      reason: "toolgate: the shared keys are never read [no-shared-keys] (on the path as sent)",
    });
    expect(
      claudeRead(join(shared, "src/util.ts"), { config: configAbsoluteDeny, root: [shared] }).decision,
    ).toBe("allow");
  });

  it("never allows a link whose target leaves every root", () => {
    expect(claudeRead(join(shared, "src/link.ts"), { root: [shared] }).decision).toBe("ask");
    expect(claudeRead(join(project, "src/link.ts")).decision).toBe("ask");
  });

  it("the longest root holding the path wins", () => {
    // Relative to the scratch directory the path is shared/src/util.ts; relative to shared, src/util.ts.
    expect(claudeRead(join(shared, "src/util.ts"), { root: [scratch, shared] }).decision).toBe("allow");
    expect(claudeRead(join(shared, "src/util.ts"), { root: [scratch] }).decision).toBe("ask");
  });

  it("the other hooks take --root too", () => {
    const io = (payload: object, sink: { out: string }) => ({
      readInput: () => Buffer.from(JSON.stringify(payload)),
      write: (text: string) => {
        sink.out += text;
      },
      writeError: () => undefined,
    });
    // Gemini CLI: the pack's read_file is allowed by "**" in the project; under a --root likewise.
    const gemini = { out: "" };
    const geminiConfig = join(ROOT, "policies/packs/gemini-cli/toolgate.config.yaml");
    runHookGeminiCli(
      { config: geminiConfig, unreadable: "ask", ask: "ask", root: [shared] },
      io(
        {
          session_id: "s",
          transcript_path: "/t",
          cwd: project,
          hook_event_name: "BeforeTool",
          timestamp: "2026-01-01T00:00:00Z",
          tool_name: "read_file",
          tool_input: { file_path: join(shared, "src/util.ts") },
        },
        gemini,
      ),
    );
    expect(JSON.parse(gemini.out).decision).toBe("allow");
    // Cursor: beforeReadFile under a --root that is not a workspace root.
    const cursor = { out: "" };
    runHookCursor(
      { config: join(ROOT, "policies/packs/agents/toolgate.config.yaml"), unreadable: "ask", root: [shared] },
      io(
        {
          hook_event_name: "beforeReadFile",
          conversation_id: "c",
          generation_id: "g",
          workspace_roots: [project],
          file_path: join(shared, "src/util.ts"),
          content: "",
        },
        cursor,
      ),
    );
    const without = { out: "" };
    runHookCursor(
      { config: join(ROOT, "policies/packs/agents/toolgate.config.yaml"), unreadable: "ask" },
      io(
        {
          hook_event_name: "beforeReadFile",
          conversation_id: "c",
          generation_id: "g",
          workspace_roots: [project],
          file_path: join(shared, "src/util.ts"),
          content: "",
        },
        without,
      ),
    );
    expect(JSON.parse(without.out).permission).toBe("deny");
    expect(JSON.parse(cursor.out).permission).toBe("allow");
  });
});
