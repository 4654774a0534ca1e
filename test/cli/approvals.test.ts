import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { approvalConfig, assertBuilt, DIST_INDEX, startScript, toolgate, writeTree } from "./cli-helpers.js";

// The application: asks, prints the approval id, then waits for a decision made in another process.
const app = `
import { createController, loadPolicy } from ${JSON.stringify(DIST_INDEX)};
const bundle = await loadPolicy();
let runs = 0;
const controller = createController({ bundle, handlers: { write_note: ({ text }) => { runs++; return "wrote " + text; } } });
const request = await controller.handle({ callId: "call_9", toolName: "write_note", arguments: { text: "hello" } });
console.log("APPROVAL " + request.approvalId);
const result = await controller.waitForDecision(request.approvalId, { pollMs: 20 });
console.log("RESULT " + JSON.stringify(result) + " RUNS " + runs);
`;

describe("toolgate approvals from a second terminal", () => {
  beforeAll(assertBuilt);

  it("approve lets the waiting application run the call exactly once", async () => {
    const dir = writeTree(approvalConfig());
    const running = startScript(app, dir);
    const [, id] = await running.waitFor(/APPROVAL (\S+)/);

    const listed = toolgate(["approvals", "list"], dir);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(id);
    expect(listed.stdout).toContain('arguments: {"text":"hello"}');
    expect(listed.stdout).toContain("notes need a person's approval");

    const approved = toolgate(["approvals", "approve", id as string, "--approver", "oncall"], dir);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain(`approved ${id}`);

    await running.waitFor(/RESULT/);
    expect(await running.exited).toBe(0);
    expect(running.output().stdout).toContain(
      'RESULT {"callId":"call_9","content":"wrote hello","isError":false} RUNS 1',
    );

    // A second decision on the same id is refused.
    const again = toolgate(["approvals", "approve", id as string], dir);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already");

    // The audit log the application wrote verifies, and an edit is caught with its line number.
    const log = join(dir, "state/audit.jsonl");
    const verified = toolgate(["audit", "verify"], dir);
    expect(verified.stdout).toMatch(/hash chain intact/);
    expect(verified.code).toBe(0);
    const lines = readFileSync(log, "utf8").split("\n");
    lines[1] = (lines[1] as string).replace('"write_note"', '"write_notes"');
    writeFileSync(log, lines.join("\n"));
    const tampered = toolgate(["audit", "verify", log], dir);
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toMatch(/audit\.jsonl:2: /);
  });

  it("reject tells the application the person's reason and runs nothing", async () => {
    const dir = writeTree(approvalConfig());
    const running = startScript(app, dir);
    const [, id] = await running.waitFor(/APPROVAL (\S+)/);
    const missingReason = toolgate(["approvals", "reject", id as string], dir);
    expect(missingReason.code).toBe(2);
    expect(missingReason.stderr).toContain("--reason");
    const rejected = toolgate(
      ["approvals", "reject", id as string, "--reason", "not today", "--approver", "ann"],
      dir,
    );
    expect(rejected.code).toBe(0);
    await running.waitFor(/RESULT/);
    expect(running.output().stdout).toContain(
      'RESULT {"callId":"call_9","content":"the person rejected this call by ann: not today","isError":true} RUNS 0',
    );
  });

  it("audit verify on a log nothing was recorded to says so, without a stack trace", () => {
    const dir = writeTree(approvalConfig());
    const missing = toolgate(["audit", "verify"], dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/audit\.jsonl: no audit log there — nothing has been recorded to it yet/);
    expect(missing.stderr).not.toMatch(/\n\s+at /);
  });

  it("an unknown id is a finding, and a memory store cannot be approved from outside", () => {
    const dir = writeTree(approvalConfig());
    const unknown = toolgate(["approvals", "approve", "apr_nope"], dir);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no approval request with id apr_nope");
    const memory = toolgate(["approvals", "list", "--store", "memory"], dir);
    expect(memory.code).toBe(2);
    expect(memory.stderr).toContain("memory");
    expect(memory.stderr).not.toMatch(/\n\s+at /);
  });
});
