import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/main.js";
import { SqliteApprovalStore } from "../../src/stores/index.js";
import { makeRequest, tempDir } from "../stores/helpers.js";
import { terminalControls } from "./cli-helpers.js";

const tmp = tempDir();
afterAll(() => tmp.remove());
let n = 0;

async function run(args: readonly string[]) {
  let stdout = "";
  let stderr = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  try {
    return { code: await main(args), stdout, stderr };
  } finally {
    vi.restoreAllMocks();
  }
}

describe("the approver's view cannot be forged", () => {
  it("list and approve show escape sequences in call ids, tools, arguments, context, approvers and reasons", async () => {
    const db = join(tmp.dir, `view-${n++}.db`);
    const store = new SqliteApprovalStore(db);
    // A call id that erases its line and prints harmless-looking arguments; the real ones follow, hidden.
    const forged = makeRequest(Date.now(), 60_000, {
      call: {
        callId: 'c1\r\u001b[2K  arguments: {"path":"/tmp/notes.txt"}\u001b[8m',
        toolName: "delete\u009b2Kfile",
        arguments: { path: "/home/alice/.ssh\u202e/txt.notes", mode: "\u007f\u001b[0m" },
      },
      context: { user: "bob\u2066admin\u2069" },
    });
    await store.put(forged);
    await store.close();
    const url = `sqlite:${db}`;

    const listed = await run(["approvals", "list", "--store", url]);
    expect(listed.code).toBe(0);
    expect(terminalControls(listed.stdout)).toEqual([]);
    expect(listed.stdout).toContain(
      '(call c1\\u000d\\u001b[2K  arguments: {"path":"/tmp/notes.txt"}\\u001b[8m)',
    );
    expect(listed.stdout).toContain("delete\\u009b2Kfile");
    expect(listed.stdout).toContain(
      '  arguments: {"path":"/home/alice/.ssh\\u202e/txt.notes","mode":"\\u007f\\u001b[0m"}',
    );
    expect(listed.stdout).toContain('  context:   {"user":"bob\\u2066admin\\u2069"}');

    const approved = await run([
      "approvals",
      "approve",
      forged.approvalId,
      "--store",
      url,
      "--approver",
      "eve\u001b]0;root\u0007",
      "--reason",
      "fine\n  decided:   rejected",
    ]);
    expect(approved.code).toBe(0);
    expect(terminalControls(approved.stdout)).toEqual([]);
    expect(approved.stdout).toContain("as eve\\u001b]0;root\\u0007");
    expect(approved.stdout).toContain("by eve\\u001b]0;root\\u0007: fine\\u000a  decided:   rejected");

    const unknown = await run(["approvals", "approve", "apr_\u001b[31mx", "--store", url]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no approval request with id apr_\\u001b[31mx");
  });
});
