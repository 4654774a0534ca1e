/** `toolgate approvals serve` as a user runs it: the built CLI in its own process, stopped with SIGTERM. */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { PendingApprovals } from "../../src/runtime/approvals.js";
import { SqliteApprovalStore } from "../../src/stores/index.js";
import { approvalConfig, assertBuilt, BIN, writeTree } from "../cli/cli-helpers.js";

function serve(args: readonly string[], cwd: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [BIN, "approvals", "serve", ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: "1", TOOLGATE_INBOX_TOKEN: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => {
    stdout += d;
  });
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((done) => child.on("close", (code) => done(code)));
  const started = async (): Promise<string> => {
    for (let i = 0; i < 400; i++) {
      const match = /inbox at (http:\/\/\S+\/)/.exec(stdout);
      if (match !== null) return match[1] as string;
      if (child.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`the inbox did not start: ${stdout}${stderr}`);
  };
  return { child, exited, started, output: () => ({ stdout, stderr }) };
}

describe("toolgate approvals serve", () => {
  beforeAll(assertBuilt);

  it("serves the configured store on loopback, logs each decision, and stops on SIGTERM", async () => {
    const dir = writeTree(approvalConfig());
    const store = new SqliteApprovalStore(join(dir, "state/approvals.db"));
    const request = await new PendingApprovals({ store }).create(
      { callId: "c1", toolName: "write_note", arguments: { text: "from the cli" } },
      { action: "ask", reason: "notes need a person's approval", ruleIds: ["write_note"], statements: [] },
    );
    await store.close();
    const running = serve(["--listen", "127.0.0.1:0"], dir);
    const url = await running.started();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await fetch(url);
    const text = await page.text();
    expect(text).toContain(request.approvalId);
    expect(text).toContain("from the cli");
    const cookie = (page.headers.get("set-cookie") ?? "").split(";")[0] as string;
    const csrf = /name="csrf" value="([^"]+)"/.exec(text)?.[1] as string;
    const decided = await fetch(`${url}approvals/${request.approvalId}/decision`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin: url.slice(0, -1) },
      body: `decision=reject&approver=ops&reason=${encodeURIComponent("not today")}&csrf=${encodeURIComponent(csrf)}`,
    });
    expect(decided.status).toBe(200);
    running.child.kill("SIGTERM");
    expect(await running.exited).toBe(0);
    expect(running.output().stderr).toMatch(
      new RegExp(`rejected ${request.approvalId} \\(write_note, call c1\\) by ops: not today`),
    );
  });

  it("refuses another address without a token, and serves it with TOOLGATE_INBOX_TOKEN", async () => {
    const dir = writeTree(approvalConfig());
    const refused = serve(["--listen", "0.0.0.0:0"], dir);
    expect(await refused.exited).toBe(2);
    expect(refused.output().stderr).toContain("refusing to serve approvals on 0.0.0.0");
    const withToken = serve(["--listen", "0.0.0.0:0"], dir, {
      TOOLGATE_INBOX_TOKEN: "a-long-enough-random-token",
    });
    const url = await withToken.started();
    expect(withToken.output().stdout).toContain("token sign-in");
    const page = await fetch(url.replace("0.0.0.0", "127.0.0.1"));
    expect(await page.text()).toContain("Sign in");
    withToken.child.kill("SIGTERM");
    expect(await withToken.exited).toBe(0);
  });
});
