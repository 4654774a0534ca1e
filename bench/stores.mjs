// Throughput of `take` on the durable approval stores, over the built package (run `npm run build` first).
//
//   node bench/stores.mjs [n]
//   TOOLGATE_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/toolgate_test node bench/stores.mjs
//
// SQLite: put n approvals, then time n sequential takes, once per `synchronous` mode (full, the default,
// syncs the WAL on every commit and so runs at the disk's fsync rate; normal does not). PostgreSQL (when
// TOOLGATE_TEST_POSTGRES_URL is set): put n approvals, then time n takes from 8 concurrent clients.
// Targets: SQLite >= 5,000 takes/s, PostgreSQL >= 1,000 takes/s.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
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

async function benchSqlite(n, synchronous) {
  const dir = mkdtempSync(path.join(tmpdir(), "toolgate-bench-"));
  try {
    const store = new SqliteApprovalStore(path.join(dir, "state.db"), { synchronous });
    const now = Date.now();
    const ids = Array.from({ length: n }, (_, i) => `bench-${i}`);
    for (const id of ids) await store.put(request(id, now));
    const start = performance.now();
    for (const id of ids) {
      const result = await store.take(id, now + 1);
      if (result.status !== "taken") throw new Error(`take ${id}: ${result.status}`);
    }
    const seconds = (performance.now() - start) / 1000;
    await store.close();
    return { name: `sqlite take (synchronous=${synchronous})`, opsPerSecond: Math.round(n / seconds) };
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
    const slices = Array.from({ length: clients }, (_, c) => ids.filter((_, i) => i % clients === c));
    await Promise.all(
      slices.map(async (slice) => {
        for (const id of slice) await store.put(request(id, now));
      }),
    );
    const start = performance.now();
    await Promise.all(
      slices.map(async (slice) => {
        for (const id of slice) {
          const result = await store.take(id, now + 1);
          if (result.status !== "taken") throw new Error(`take ${id}: ${result.status}`);
        }
      }),
    );
    const seconds = (performance.now() - start) / 1000;
    return { name: `postgres take (${clients} concurrent clients)`, opsPerSecond: Math.round(n / seconds) };
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
 * @returns {Promise<{ name: string; opsPerSecond: number }[]>}
 */
export async function benchStores({ n = 5000, postgresUrl = process.env.TOOLGATE_TEST_POSTGRES_URL } = {}) {
  const rows = [await benchSqlite(n, "full"), await benchSqlite(n, "normal")];
  if (postgresUrl) rows.push(await benchPostgres(postgresUrl, n, 8));
  return rows;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const n = Number(process.argv[2] ?? 5000);
  const rows = await benchStores({ n });
  for (const { name, opsPerSecond } of rows)
    console.log(`${name.padEnd(40)} ${String(opsPerSecond).padStart(8)} ops/s`);
  if (!process.env.TOOLGATE_TEST_POSTGRES_URL) {
    console.log(
      "postgres: not measured (set TOOLGATE_TEST_POSTGRES_URL; scripts/start-postgres.sh starts one)",
    );
  }
}
