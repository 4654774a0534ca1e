import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createController, loadPolicy } from "../../src/index.js";
import type { ApprovalRequest, ToolResult } from "../../src/runtime/types.js";
import { approvalConfig, runCli, writeTree } from "./cli-helpers.js";

const isRequest = (r: ToolResult | ApprovalRequest): r is ApprovalRequest => "approvalId" in r;

async function app(extraConfig = "") {
  const files = approvalConfig();
  files["toolgate.config.yaml"] = `${files["toolgate.config.yaml"]}${extraConfig}`;
  const dir = writeTree(files);
  const config = join(dir, "toolgate.config.yaml");
  const bundle = await loadPolicy({ config });
  const written: string[] = [];
  const controller = createController({
    bundle,
    handlers: {
      write_note: ({ text }: { text: string }) => {
        written.push(text);
        return `wrote ${text}`;
      },
    },
  });
  let n = 0;
  const call = (text: string, context?: Record<string, unknown>) =>
    controller.handle({ callId: `c${++n}`, toolName: "write_note", arguments: { text } }, context);
  return { dir, config, controller, written, call };
}

describe("toolgate approvals approve --remember-for / --remember-session, grants list|revoke", () => {
  it("remembers an approval for the same arguments, lists it, and revoking it makes calls ask again", async () => {
    const a = await app();
    const request = (await a.call("hello")) as ApprovalRequest;
    const approved = await runCli([
      "approvals",
      "approve",
      request.approvalId,
      "--config",
      a.config,
      "--approver",
      "ana",
      "--remember-for",
      "2h",
    ]);
    expect(approved.stderr).toBe("");
    expect(approved.code).toBe(0);
    const grantId = /remembered as (grt_\S+) for 2h: same arguments/.exec(approved.stdout)?.[1];
    expect(grantId).toBeDefined();
    expect(await a.controller.waitForDecision(request.approvalId, { pollMs: 5 })).toMatchObject({
      isError: false,
    });

    expect(await a.call("hello")).toMatchObject({ isError: false, content: "wrote hello" });
    expect(isRequest(await a.call("hello again"))).toBe(true);
    expect(a.written).toEqual(["hello", "hello"]);

    const listed = await runCli(["approvals", "grants", "list", "--config", a.config]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`${grantId}  write_note  same arguments  until `);
    expect(listed.stdout).toContain(`given by:  ana`);

    const revoked = await runCli([
      "approvals",
      "grants",
      "revoke",
      grantId as string,
      "--config",
      a.config,
      "--approver",
      "sec",
    ]);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(`revoked ${grantId} as sec`);
    expect(isRequest(await a.call("hello"))).toBe(true);
    expect(a.written).toEqual(["hello", "hello"]);

    const again = await runCli(["approvals", "grants", "revoke", grantId as string, "--config", a.config]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already revoked");
    const none = await runCli(["approvals", "grants", "list", "--config", a.config]);
    expect(none.stdout).toBe("no remembered approvals in force\n");
    const all = await runCli([
      "approvals",
      "grants",
      "list",
      "--all",
      "--format",
      "json",
      "--config",
      a.config,
    ]);
    expect(JSON.parse(all.stdout)).toMatchObject([{ grantId, revokedBy: "sec", approver: "ana" }]);
  });

  it("refuses a grant longer than grants.max_hours, a session grant without a session, and leaves the request pending", async () => {
    const a = await app("grants: { max_hours: 1 }\n");
    const request = (await a.call("x")) as ApprovalRequest;
    const long = await runCli([
      "approvals",
      "approve",
      request.approvalId,
      "--config",
      a.config,
      "--remember-for",
      "2h",
    ]);
    expect(long.code).toBe(2);
    expect(long.stderr).toContain("at most 1h (grants.max_hours)");
    const session = await runCli([
      "approvals",
      "approve",
      request.approvalId,
      "--config",
      a.config,
      "--remember-session",
    ]);
    expect(session.code).toBe(2);
    expect(session.stderr).toContain('no session id in "session_id"');
    const bad = await runCli([
      "approvals",
      "approve",
      request.approvalId,
      "--config",
      a.config,
      "--remember-for",
      "always",
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--remember-for needs a duration");
    const listed = await runCli(["approvals", "list", "--config", a.config]);
    expect(listed.stdout).toContain(`${request.approvalId}  pending`);
  });

  it("remembers for the request's session only", async () => {
    const a = await app(
      "grants: { session_key: conversation }\ncontext_schema: { type: object, properties: { conversation: { type: string } } }\n",
    );
    const request = (await a.call("s", { conversation: "conv-1" })) as ApprovalRequest;
    const approved = await runCli([
      "approvals",
      "approve",
      request.approvalId,
      "--config",
      a.config,
      "--remember-session",
    ]);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toMatch(
      /remembered as grt_\S+ for 24h: same arguments in session conversation=conv-1/,
    );
    await a.controller.waitForDecision(request.approvalId, { pollMs: 5 });
    expect(await a.call("s", { conversation: "conv-1" })).toMatchObject({ isError: false });
    expect(isRequest(await a.call("s", { conversation: "conv-2" }))).toBe(true);
    expect(a.written).toEqual(["s", "s"]);
  });
});
