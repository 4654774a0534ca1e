/** Runs the built hook command as the agent runs it: a process with the payload on stdin. */
import { spawn } from "node:child_process";
import { BIN, ROOT } from "./cli-helpers.js";

/** Runs `toolgate hook AGENT` with `input` on stdin, as a command hook of Claude Code or Gemini CLI. */
export function runHook(
  input: string,
  args: readonly string[],
  extraEnv: Readonly<Record<string, string>> = {},
  cwd = ROOT,
  agent: "claude-code" | "gemini-cli" | "codex" | "cursor" = "claude-code",
) {
  // A test run inside Claude Code or Gemini CLI must not hand its own project directory to the hook.
  const { CLAUDE_PROJECT_DIR: _claude, GEMINI_PROJECT_DIR: _gemini, ...env } = process.env;
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done, fail) => {
    const child = spawn(process.execPath, [BIN, "hook", agent, ...args], {
      cwd,
      env: { ...env, ...extraEnv, NO_COLOR: "1" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}
