import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import type { AuditEvent } from "../../src/runtime/audit.js";
import { StoreUnavailableError } from "../../src/runtime/errors.js";
import { SqliteApprovalStore, SqliteAuditSink } from "../../src/stores/index.js";
import { SqliteWriteQueue } from "../../src/stores/sqlite-write-queue.js";
import { makeRequest, tempDir } from "./helpers.js";

const tmp = tempDir();
afterAll(() => tmp.remove());
let n = 0;

/** A WAL database with one table `t (k TEXT PRIMARY KEY, v INTEGER NOT NULL)`, and a queue over it. */
function open(busyTimeoutMs = 5000): { file: string; db: Database.Database; queue: SqliteWriteQueue } {
  const file = path.join(tmp.dir, `q${n++}.db`);
  const db = new Database(file, { timeout: busyTimeoutMs });
  db.pragma("journal_mode = WAL");
  db.exec("CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER NOT NULL)");
  return { file, db, queue: new SqliteWriteQueue(`sqlite:${file}`, db) };
}

/** The rows of `t` as another connection sees them: only what is committed. */
function committed(file: string): Record<string, number> {
  const other = new Database(file, { readonly: true });
  try {
    const rows = other.prepare("SELECT k, v FROM t ORDER BY k").all() as { k: string; v: number }[];
    return Object.fromEntries(rows.map((r) => [r.k, r.v]));
  } finally {
    other.close();
  }
}

describe("SqliteWriteQueue", () => {
  it("commits the writes of one turn in one transaction and resolves each with its own result", async () => {
    const { file, db, queue } = open();
    const insert = db.prepare("INSERT INTO t (k, v) VALUES (?, ?)");
    const inTransaction: boolean[] = [];
    const write = (k: string, v: number) =>
      queue.enqueue("insert", () => {
        inTransaction.push(db.inTransaction);
        return insert.run(k, v).changes + v;
      });
    expect(await Promise.all([write("a", 1), write("b", 2), write("c", 3)])).toEqual([2, 3, 4]);
    expect(inTransaction).toEqual([true, true, true]);
    expect(committed(file)).toEqual({ a: 1, b: 2, c: 3 });
    // A write alone needs no explicit transaction.
    await write("d", 4);
    expect(inTransaction.at(-1)).toBe(false);
    db.close();
  });

  it("settles a write only after its commit is visible to another connection", async () => {
    const { file, db, queue } = open();
    const insert = db.prepare("INSERT INTO t (k, v) VALUES (?, ?)");
    const seen = await Promise.all(
      ["a", "b"].map((k) => queue.enqueue("insert", () => insert.run(k, 1)).then(() => committed(file)[k])),
    );
    expect(seen).toEqual([1, 1]);
    db.close();
  });

  it("lets a failing write fail alone: the others of its group are committed", async () => {
    const { file, db, queue } = open();
    const insert = db.prepare("INSERT INTO t (k, v) VALUES (?, ?)");
    const results = await Promise.allSettled([
      queue.enqueue("insert a", () => insert.run("a", 1)),
      queue.enqueue("insert b", () => insert.run("b", null)),
      queue.enqueue("insert c", () => insert.run("c", 3)),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const error = (results[1] as PromiseRejectedResult).reason;
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(error.message).toMatch(/^sqlite:.*q\d+\.db: insert b failed: NOT NULL constraint failed: t\.v/);
    expect(committed(file)).toEqual({ a: 1, c: 3 });
    db.close();
  });

  it("rejects every write of a group, committing none, when the transaction cannot begin", async () => {
    const { file, db, queue } = open(50);
    const insert = db.prepare("INSERT INTO t (k, v) VALUES (?, ?)");
    const other = new Database(file);
    other.exec("BEGIN IMMEDIATE");
    try {
      const results = await Promise.allSettled([
        queue.enqueue("insert a", () => insert.run("a", 1)),
        queue.enqueue("insert b", () => insert.run("b", 2)),
      ]);
      for (const r of results) {
        expect(r.status).toBe("rejected");
        expect((r as PromiseRejectedResult).reason).toBeInstanceOf(StoreUnavailableError);
        expect((r as PromiseRejectedResult).reason.message).toMatch(/insert a failed: database is locked/);
      }
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
    expect(committed(file)).toEqual({});
    await Promise.all([
      queue.enqueue("insert a", () => insert.run("a", 1)),
      queue.enqueue("insert b", () => insert.run("b", 2)),
    ]);
    expect(committed(file)).toEqual({ a: 1, b: 2 });
    db.close();
  });

  it("refuses writes once the connection is closed", async () => {
    const { db, queue } = open();
    db.close();
    await expect(queue.enqueue("insert", () => 1)).rejects.toThrow(/: the store is closed$/);
  });

  it("commits writes still queued when the approval store or audit sink is closed", async () => {
    const file = path.join(tmp.dir, `closing${n++}.db`);
    const store = new SqliteApprovalStore(file);
    const sink = new SqliteAuditSink(file);
    const request = makeRequest(Date.now());
    const event: AuditEvent = {
      type: "call.received",
      time: new Date().toISOString(),
      callId: request.call.callId,
      toolName: request.call.toolName,
      fingerprint: "sha256:policy",
    };
    const pending = [store.put(request), sink.record(event)];
    await Promise.all([store.close(), sink.close()]);
    await Promise.all(pending);
    const reopened = new SqliteApprovalStore(file);
    expect((await reopened.get(request.approvalId)).found).toBe(true);
    await reopened.close();
    const db = new Database(file, { readonly: true });
    expect(db.prepare("SELECT call_id FROM toolgate_audit").pluck().all()).toEqual([request.call.callId]);
    db.close();
  });
});
