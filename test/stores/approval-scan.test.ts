import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApprovalState, StoredApproval } from "../../src/runtime/approval-store.js";
import { InvalidOptionError } from "../../src/runtime/errors.js";
import type { ApprovalRequest } from "../../src/runtime/types.js";
import { PostgresApprovalStore, SqliteApprovalStore } from "../../src/stores/index.js";
import { describePostgres, dropTables, makeRequest, tempDir, uniquePrefix } from "./helpers.js";

type Store = SqliteApprovalStore | PostgresApprovalStore;
const T0 = 1_700_000_000_000;
/** More than two scan pages, so that paging and its keys are exercised. */
const COUNT = 1234;

async function collect(iterable: AsyncIterable<StoredApproval>): Promise<StoredApproval[]> {
  const out: StoredApproval[] = [];
  for await (const entry of iterable) out.push(entry);
  return out;
}

/** What every durable store's `scan` promises: `list` of the states, filtered by tool, cut at the limit. */
function scanContract(open: () => Store): void {
  let store: Store;
  const requests: ApprovalRequest[] = [];
  beforeAll(async () => {
    store = open();
    for (let i = 0; i < COUNT; i++) {
      requests.push(
        makeRequest(T0 + i, 60_000, {
          call: {
            callId: `scan-${i}`,
            toolName: i % 3 === 0 ? "write_file" : "delete_file",
            arguments: { i },
          },
        }),
      );
    }
    // In batches: a pool of two connections must not queue a thousand waiters past its connect timeout.
    const BATCH = 20;
    for (let i = 0; i < COUNT; i += BATCH)
      await Promise.all(requests.slice(i, i + BATCH).map((r) => store.put(r)));
    // Every 11th taken, else every 5th approved and every 7th rejected; the rest pending.
    for (let i = 0; i < COUNT; i += BATCH) {
      await Promise.all(
        requests.slice(i, i + BATCH).map(async (r, j) => {
          const k = i + j;
          if (k % 11 === 0) await store.take(r.approvalId, T0 + COUNT);
          else if (k % 5 === 0) await store.respond({ approvalId: r.approvalId, approved: true }, T0 + COUNT);
          else if (k % 7 === 0)
            await store.respond({ approvalId: r.approvalId, approved: false }, T0 + COUNT);
        }),
      );
    }
    return async () => {
      await store.close();
    };
  }, 120_000); // about 2,500 writes: seconds, or a minute on a busy machine

  const ids = (entries: readonly StoredApproval[]): string[] => entries.map((e) => e.request.approvalId);

  it("reads the same requests as list, in the same order, across pages", async () => {
    for (const states of [
      undefined,
      ["pending"],
      ["approved", "rejected"],
      ["used"],
      ["pending", "approved", "rejected", "used", "expired"],
    ] as (ApprovalState[] | undefined)[]) {
      const listed = await store.list(states);
      const scanned = await collect(store.scan(states === undefined ? {} : { states }));
      expect(scanned.length).toBe(listed.length);
      expect(ids(scanned)).toEqual(ids(listed));
      expect(scanned).toEqual(listed);
    }
    expect((await collect(store.scan({}))).length).toBe(COUNT - Math.ceil(COUNT / 11));
  });

  it("filters by tool and stops at the limit", async () => {
    const writes = (await store.list()).filter((e) => e.request.call.toolName === "write_file");
    expect(ids(await collect(store.scan({ tool: "write_file" })))).toEqual(ids(writes));
    expect(ids(await collect(store.scan({ tool: "write_file", limit: 7 })))).toEqual(ids(writes.slice(0, 7)));
    expect(ids(await collect(store.scan({ limit: 501 })))).toEqual(ids((await store.list()).slice(0, 501)));
    expect(await collect(store.scan({ limit: 0 }))).toEqual([]);
    expect(await collect(store.scan({ tool: "no_such_tool" }))).toEqual([]);
    await expect(collect(store.scan({ limit: -1 }))).rejects.toThrow(InvalidOptionError);
  });

  it("can be left early, and the store stays usable (and writable meanwhile)", async () => {
    for (let round = 0; round < 3; round++) {
      for await (const entry of store.scan({})) {
        expect(entry.state).not.toBe("used");
        const extra = makeRequest(T0 + COUNT + round);
        await store.put(extra); // a write while a scan is open
        break;
      }
    }
    expect((await store.list(["pending"])).length).toBeGreaterThan(0);
  });

  it("expireQuietly marks pending requests past their time and says how many, without returning them", async () => {
    const pending = (await store.list(["pending"])).filter((e) => e.request.expiresAt <= T0 + 60_000 + 100);
    const count = await store.expireQuietly(T0 + 60_000 + 100);
    expect(count).toBe(pending.length);
    expect(count).toBeGreaterThan(0);
    expect(ids(await collect(store.scan({ states: ["expired"] })))).toEqual(ids(pending));
    expect(await store.expireQuietly(T0 + 60_000 + 100)).toBe(0);
  });
}

describe("SqliteApprovalStore scan", () => {
  const tmp = tempDir();
  afterAll(() => tmp.remove());
  scanContract(() => new SqliteApprovalStore(path.join(tmp.dir, "scan.db"), { synchronous: "normal" }));
});

describePostgres("PostgresApprovalStore scan", (url) => {
  const prefix = uniquePrefix();
  afterAll(async () => {
    await dropTables(url, prefix);
  });
  // Two connections: a scan holds one until it ends, so a leak would block the third round.
  scanContract(() => new PostgresApprovalStore(url, { tablePrefix: prefix, max: 2 }));
});
