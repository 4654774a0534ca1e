import { spawn } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, BIN, ROOT, toolgate } from "./cli-helpers.js";

describe("toolgate explain on the repository's policies/", () => {
  beforeAll(assertBuilt);

  it("a command under a wrapper it can read is decided by what the wrapper runs", () => {
    const timed = toolgate(["explain", "run_shell", "--args", '{"command":"time ls"}'], ROOT);
    expect(timed.code).toBe(0);
    expect(timed.stdout).toMatch(/^run_shell: ASK — any other shell command needs a person's approval$/m);
    const wrappedDelete = toolgate(["explain", "run_shell", "--args", '{"command":"nohup rm -rf /"}'], ROOT);
    expect(wrappedDelete.stdout).toMatch(/^run_shell: DENY — recursive deletion is never run by the agent$/m);
  });

  it("stops quietly when the reader closes the pipe early", async () => {
    const child = spawn(process.execPath, [BIN, "explain", "run_shell", "--args", '{"command":"ls"}'], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.destroy(); // like `| head -0`: nobody reads what toolgate writes
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const code = await new Promise<number | null>((done) => child.on("close", (c) => done(c)));
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });
});
