import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import type { AuditEvent } from "../../src/runtime/audit.js";
import { StoreUnavailableError } from "../../src/runtime/errors.js";
import { PostgresAuditSink, SqliteApprovalStore, SqliteAuditSink } from "../../src/stores/index.js";
import { describePostgres, dropTables, makeRequest, tempDir, uniquePrefix } from "./helpers.js";

const events: AuditEvent[] = [
  {
    type: "call.received",
    time: "2026-01-01T00:00:00.000Z",
    callId: "c1",
    toolName: "rm",
    fingerprint: "fp",
  },
  {
    type: "policy.decided",
    time: "2026-01-01T00:00:01.000Z",
    callId: "c1",
    toolName: "rm",
    fingerprint: "fp",
    decision: "ask",
    ruleIds: ["ask-rm", "log"],
    reason: "needs a person",
    arguments: { path: "/x\u0000y" },
  },
];

const expectedRows = [
  {
    time: events[0]?.time,
    type: "call.received",
    call_id: "c1",
    tool: "rm",
    fingerprint: "fp",
    decision: null,
    rule_ids: null,
  },
  {
    time: events[1]?.time,
    type: "policy.decided",
    call_id: "c1",
    tool: "rm",
    fingerprint: "fp",
    decision: "ask",
    rule_ids: '["ask-rm","log"]',
  },
];

describe("SqliteAuditSink", () => {
  const tmp = tempDir();
  afterAll(() => tmp.remove());

  it("writes one row per event, sharing the file with the approval store", async () => {
    const file = path.join(tmp.dir, "state.db");
    const store = new SqliteApprovalStore(file);
    await store.put(makeRequest(Date.now()));
    const sink = new SqliteAuditSink(file);
    for (const e of events) await sink.record(e);
    await Promise.all([sink.close(), store.close()]);
    const db = new Database(file, { readonly: true });
    const rows = db.prepare("SELECT * FROM toolgate_audit ORDER BY id").all() as Record<string, unknown>[];
    expect(rows.map(({ id: _, event: __, ...rest }) => rest)).toEqual(expectedRows);
    expect(rows.map((r) => JSON.parse(String(r.event)))).toEqual(events);
    expect(db.prepare("SELECT key FROM toolgate_meta ORDER BY key").pluck().all()).toEqual([
      "approvals.schema_version",
      "audit.schema_version",
    ]);
    db.close();
  });

  it("fails with StoreUnavailableError once closed", async () => {
    const sink = new SqliteAuditSink(path.join(tmp.dir, "closed.db"));
    await sink.close();
    await expect(sink.record(events[0] as AuditEvent)).rejects.toBeInstanceOf(StoreUnavailableError);
  });
});

it("PostgresAuditSink fails with StoreUnavailableError when the server cannot be reached", async () => {
  const sink = new PostgresAuditSink("postgres://u:pw@127.0.0.1:1/db", { connectionTimeoutMillis: 1000 });
  const error = await sink.record(events[0] as AuditEvent).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(StoreUnavailableError);
  expect((error as Error).message).toMatch(/^postgres:\/\/u@127\.0\.0\.1:1\/db: /);
  await sink.close();
});

describePostgres("PostgresAuditSink", (url) => {
  const tablePrefix = uniquePrefix();
  afterAll(() => dropTables(url, tablePrefix));

  it("writes one row per event", async () => {
    const sink = new PostgresAuditSink(url, { tablePrefix });
    for (const e of events) await sink.record(e);
    await sink.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query(`SELECT * FROM ${tablePrefix}audit ORDER BY id`);
    await client.end();
    expect(rows.map(({ id: _, event: __, ...rest }) => rest)).toEqual(expectedRows);
    expect(rows.map((r) => JSON.parse(String(r.event)))).toEqual(events);
  });
});
