import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SqliteApprovalStore } from "../../src/stores/index.js";
import { makeRequest, tempDir } from "../stores/helpers.js";
import { runCli, terminalControls } from "./cli-helpers.js";

const tmp = tempDir();
afterAll(() => tmp.remove());
let n = 0;

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

    const listed = await runCli(["approvals", "list", "--store", url]);
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

    const approved = await runCli([
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

    const unknown = await runCli(["approvals", "approve", "apr_\u001b[31mx", "--store", url]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no approval request with id apr_\\u001b[31mx");
  });
});

describe("toolgate approvals list: filters, limit and streamed output", () => {
  async function storeOf(count: number) {
    const db = join(tmp.dir, `list-${n++}.db`);
    const store = new SqliteApprovalStore(db);
    const now = Date.now();
    const requests = Array.from({ length: count }, (_, i) =>
      makeRequest(now + i, 600_000, {
        call: { callId: `call-${i}`, toolName: i % 2 === 0 ? "write_file" : "delete_file", arguments: { i } },
        ...(i === 0 ? { context: { environment: "production" } } : {}),
      }),
    );
    await Promise.all(requests.map((r) => store.put(r)));
    await store.respond(
      { approvalId: requests[1]?.approvalId as string, approved: true, approver: "ann" },
      now,
    );
    await store.take(requests[2]?.approvalId as string, now);
    return { url: `sqlite:${db}`, store, requests };
  }

  it("--format json writes one JSON array, as before, however it is streamed", async () => {
    const { url, store } = await storeOf(1200);
    const expected = await store.list();
    await store.close();
    const listed = await runCli(["approvals", "list", "--store", url, "--format", "json"]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toBe(`${JSON.stringify(expected, null, 2)}\n`);
    const none = await runCli(["approvals", "list", "--store", url, "--format", "json", "--tool", "nothing"]);
    expect(none.stdout).toBe("[]\n");
  });

  it("filters by --tool and --status, stops at --limit, and shows the context", async () => {
    const { url, store, requests } = await storeOf(10);
    await store.close();
    const json = async (...args: string[]) =>
      JSON.parse(
        (await runCli(["approvals", "list", "--store", url, "--format", "json", ...args])).stdout,
      ) as {
        request: { approvalId: string; call: { toolName: string } };
        state: string;
      }[];
    const writes = await json("--tool", "write_file");
    expect(writes.map((e) => e.request.call.toolName)).toEqual(Array(4).fill("write_file")); // 0,4,6,8 (2 used)
    expect((await json("--status", "used")).map((e) => e.request.approvalId)).toEqual([
      requests[2]?.approvalId,
    ]);
    expect((await json("--status", "approved,used")).map((e) => e.state)).toEqual(["approved", "used"]);
    expect((await json("--limit", "3")).map((e) => e.request.approvalId)).toEqual(
      [0, 1, 3].map((i) => requests[i]?.approvalId),
    );
    const text = await runCli(["approvals", "list", "--store", url, "--limit", "1"]);
    expect(text.stdout).toContain('  context:   {"environment":"production"}');
    expect(text.stdout.match(/^\S+ {2}pending/gm)).toHaveLength(1);
    const none = await runCli(["approvals", "list", "--store", url, "--status", "expired"]);
    expect(none.stdout).toBe("no approval requests match\n");
  });

  it("refuses a bad --limit or --status with a usage error", async () => {
    const { url, store } = await storeOf(1);
    await store.close();
    const limit = await runCli(["approvals", "list", "--store", url, "--limit", "-3"]);
    expect(limit.code).toBe(2);
    expect(limit.stderr).toContain('--limit needs a non-negative integer, got "-3"');
    const status = await runCli(["approvals", "list", "--store", url, "--status", "pending,done"]);
    expect(status.code).toBe(2);
    expect(status.stderr).toContain('unknown --status "done"');
  });
});
