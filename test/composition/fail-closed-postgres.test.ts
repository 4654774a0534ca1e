// Fail closed, end to end: a controller whose PostgreSQL connection is cut in the middle of a call executes
// nothing, tells the caller which store failed, and runs the call once when the server is back.
import pg from "pg";
import { afterAll, expect, it } from "vitest";
import { createController, loadPolicy } from "../../src/index.js";
import { StoreUnavailableError } from "../../src/runtime/errors.js";
import type { ApprovalRequest } from "../../src/runtime/types.js";
import { PostgresApprovalStore, PostgresAuditSink } from "../../src/stores/index.js";
import { approvalConfig, writeTree } from "../cli/cli-helpers.js";
import { describePostgres, dropTables, uniquePrefix, waitForLockWait } from "../stores/helpers.js";

describePostgres("a controller on PostgreSQL fails closed when its connection is cut", (url) => {
  const prefixes: string[] = [];
  afterAll(async () => {
    for (const prefix of prefixes) await dropTables(url, prefix);
  });

  async function setup() {
    const tablePrefix = uniquePrefix();
    prefixes.push(tablePrefix);
    const applicationName = `toolgate-cut-${tablePrefix}`;
    const approvals = new PostgresApprovalStore(url, { tablePrefix, applicationName, max: 1 });
    const audit = new PostgresAuditSink(url, { tablePrefix, applicationName, max: 1 });
    const runs: string[] = [];
    const controller = createController({
      bundle: await loadPolicy({ cwd: writeTree(approvalConfig()) }),
      approvals,
      audit,
      handlers: {
        write_note: ({ text }: { text: string }) => {
          runs.push(text);
          return `wrote ${text}`;
        },
      },
    });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    /**
     * Locks `table`, runs `work` (which must wait for that lock on the server), terminates the waiting
     * backends of this controller, releases the lock, and returns what `work` settled with.
     */
    const cutWhileWaiting = async (table: string, work: () => Promise<unknown>): Promise<unknown> => {
      const locker = new pg.Client({ connectionString: url });
      await locker.connect();
      try {
        await locker.query(`BEGIN; LOCK TABLE ${tablePrefix}${table} IN ACCESS EXCLUSIVE MODE`);
        const settled = work().catch((error: unknown) => error);
        await waitForLockWait(admin, applicationName);
        await admin.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'",
          [applicationName],
        );
        return await settled;
      } finally {
        await locker.query("ROLLBACK");
        await locker.end();
      }
    };
    const close = async () => {
      await Promise.all([approvals.close(), audit.close(), admin.end()]);
    };
    return { controller, runs, cutWhileWaiting, close };
  }

  const note = (callId: string, text: string) => ({ callId, toolName: "write_note", arguments: { text } });

  it("the approval store cut during resolve: nothing runs, the error names the store, a retry runs once", async () => {
    const { controller, runs, cutWhileWaiting, close } = await setup();
    const request = (await controller.handle(note("call-1", "hello"))) as ApprovalRequest;
    expect(request.kind).toBe("approval-request");

    const error = await cutWhileWaiting("approvals", () =>
      controller.resolve({ approvalId: request.approvalId, approved: true, approver: "ops" }),
    );
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as Error).message).toMatch(/^postgres:\/\/\S+: take failed: /);
    expect((error as Error).message).not.toMatch(/\n\s+at /);
    expect(runs).toEqual([]);

    const result = await controller.resolve({
      approvalId: request.approvalId,
      approved: true,
      approver: "ops",
    });
    expect(result).toEqual({ callId: "call-1", content: "wrote hello", isError: false });
    expect(runs).toEqual(["hello"]);
    await close();
  });

  it("the audit sink cut before the handler: nothing runs, the error names the sink", async () => {
    const { controller, runs, cutWhileWaiting, close } = await setup();
    const request = (await controller.handle(note("call-2", "again"))) as ApprovalRequest;
    const error = await cutWhileWaiting("audit", () =>
      controller.resolve({ approvalId: request.approvalId, approved: true }),
    );
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as Error).message).toMatch(/^postgres:\/\/\S+: recording an event failed: /);
    expect(runs).toEqual([]);
    // The approval was taken before the audit failed: it stays used, so the call never runs twice.
    await expect(
      controller.resolve({ approvalId: request.approvalId, approved: true }),
    ).rejects.toMatchObject({
      code: "already-used",
    });
    expect(runs).toEqual([]);
    await close();
  });
});
