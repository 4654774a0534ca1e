/** Runs the built hook command as Claude Code runs it: a process with the payload on stdin. */
import { spawn } from "node:child_process";
import { BIN, ROOT } from "./cli-helpers.js";

/** Runs the hook with `input` on stdin, as a Claude Code command hook. */
export function runHook(
  input: string,
  args: readonly string[],
  extraEnv: Readonly<Record<string, string>> = {},
  cwd = ROOT,
) {
  // A test run inside Claude Code must not hand its own project directory to the hook.
  const { CLAUDE_PROJECT_DIR: _inherited, ...env } = process.env;
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done, fail) => {
    const child = spawn(process.execPath, [BIN, "hook", "claude-code", ...args], {
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
