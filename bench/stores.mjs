// Throughput of `take` on the durable approval stores, over the built package (run `npm run build` first).
//
//   node bench/stores.mjs [n]
//   TOOLGATE_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/toolgate_test node bench/stores.mjs
//
// SQLite: put n approvals, then time n takes, from 1 caller (each take awaited before the next) and from 8
// concurrent callers in one process, once per `synchronous` mode. With full (the default) every commit syncs
// the WAL, so one caller runs at the disk's sync rate; concurrent takes share a commit (group commit). With
// normal nothing is synced on commit. PostgreSQL (when TOOLGATE_TEST_POSTGRES_URL is set): put n approvals,
// then time n takes from 8 concurrent clients.
// Targets: SQLite >= 5,000 takes/s, PostgreSQL >= 1,000 takes/s.
import { randomBytes } from "node:crypto";
import { closeSync, fdatasyncSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { PostgresApprovalStore, SqliteApprovalStore } from "../dist/stores/index.js";

function request(id, now) {
  return {
    kind: "approval-request",
    approvalId: id,
    call: { callId: `call-${id}`, toolName: "delete_file", arguments: { path: `/tmp/${id}` } },
    reason: "deleting needs a person",
    ruleIds: ["ask-delete"],
    argumentsHash: `sha256:${"0".repeat(64)}`,
    policyFingerprint: "sha256:bench",
    createdAt: now,
    expiresAt: now + 3_600_000,
  };
}

/** The disk's own ceiling for one durable commit at a time: 4 KiB written in place, then fdatasync. */
function diskSyncsPerSecond(n) {
  const dir = mkdtempSync(path.join(tmpdir(), "toolgate-bench-"));
  try {
    const fd = openSync(path.join(dir, "sync"), "w");
    const page = Buffer.alloc(4096, 1);
    const start = performance.now();
    for (let i = 0; i < n; i++) {
      writeSync(fd, page, 0, page.length, (i % 8) * page.length);
      fdatasyncSync(fd);
    }
    const opsPerSecond = n / ((performance.now() - start) / 1000);
    closeSync(fd);
    return { name: "disk: 4 KiB write + fdatasync", opsPerSecond: Math.round(opsPerSecond) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Splits ids round-robin among `callers` and awaits each caller's `work` over its share, all at once. */
function inParallel(ids, callers, work) {
  const shares = Array.from({ length: callers }, (_, c) => ids.filter((_, i) => i % callers === c));
  return Promise.all(
    shares.map(async (share) => {
      for (const id of share) await work(id);
    }),
  );
}

async function takeAll(store, ids, callers, now) {
  const start = performance.now();
  await inParallel(ids, callers, async (id) => {
    const result = await store.take(id, now + 1);
    if (result.status !== "taken") throw new Error(`take ${id}: ${result.status}`);
  });
  return ids.length / ((performance.now() - start) / 1000);
}

async function benchSqlite(n, synchronous, callers) {
  const dir = mkdtempSync(path.join(tmpdir(), "toolgate-bench-"));
  try {
    const store = new SqliteApprovalStore(path.join(dir, "state.db"), { synchronous });
    const now = Date.now();
    const ids = Array.from({ length: n }, (_, i) => `bench-${i}`);
    await inParallel(ids, 64, (id) => store.put(request(id, now)));
    const opsPerSecond = await takeAll(store, ids, callers, now);
    await store.close();
    const who = callers === 1 ? "1 caller" : `${callers} concurrent callers`;
    return {
      name: `sqlite take (synchronous=${synchronous}, ${who})`,
      opsPerSecond: Math.round(opsPerSecond),
      target: 5000,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function benchPostgres(url, n, clients) {
  const tablePrefix = `tg_bench_${randomBytes(4).toString("hex")}_`;
  const store = new PostgresApprovalStore(url, { tablePrefix, max: clients });
  try {
    const now = Date.now();
    const ids = Array.from({ length: n }, (_, i) => `bench-${i}`);
    await inParallel(ids, clients, (id) => store.put(request(id, now)));
    const opsPerSecond = await takeAll(store, ids, clients, now);
    return {
      name: `postgres take (${clients} concurrent clients)`,
      opsPerSecond: Math.round(opsPerSecond),
      target: 1000,
    };
  } finally {
    await store.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DROP TABLE IF EXISTS ${tablePrefix}approvals, ${tablePrefix}meta`);
    await client.end();
  }
}

/**
 * Runs the store benchmarks.
 * @param {{ n?: number; postgresUrl?: string }} [options] n: approvals per run (default 5000); postgresUrl
 *   (default TOOLGATE_TEST_POSTGRES_URL): when absent, PostgreSQL is not measured.
 * @returns {Promise<{ name: string; opsPerSecond: number; target?: number; vsDisk?: number }[]>} target: the
 *   least ops/s asked for; the disk's sync rate, measured first, has none (it bounds a single caller with
 *   synchronous=full); vsDisk: a SQLite figure as a multiple of the disk's sync rate.
 */
export async function benchStores({ n = 5000, postgresUrl = process.env.TOOLGATE_TEST_POSTGRES_URL } = {}) {
  const disk = diskSyncsPerSecond(n);
  const rows = [disk];
  for (const synchronous of ["full", "normal"]) {
    for (const callers of [1, 8]) {
      const r = await benchSqlite(n, synchronous, callers);
      rows.push({ ...r, vsDisk: r.opsPerSecond / disk.opsPerSecond });
    }
  }
  if (postgresUrl) rows.push(await benchPostgres(postgresUrl, n, 8));
  return rows;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const n = Number(process.argv[2] ?? 5000);
  const rows = await benchStores({ n });
  for (const { name, opsPerSecond } of rows)
    console.log(`${name.padEnd(54)} ${String(opsPerSecond).padStart(8)} ops/s`);
  if (!process.env.TOOLGATE_TEST_POSTGRES_URL) {
    console.log(
      "postgres: not measured (set TOOLGATE_TEST_POSTGRES_URL; scripts/start-postgres.sh starts one)",
    );
  }
}
