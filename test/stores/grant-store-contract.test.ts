import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { type ApprovalStore, MemoryApprovalStore } from "../../src/runtime/approval-store.js";
import { type ApprovalGrant, buildGrant, type GrantStore } from "../../src/runtime/grants.js";
import type { ApprovalRequest } from "../../src/runtime/types.js";
import { PostgresApprovalStore, SqliteApprovalStore } from "../../src/stores/index.js";
import { describePostgres, dropTables, makeRequest, tempDir, uniquePrefix } from "./helpers.js";

const T0 = 1_700_000_000_000;
const HOUR = 3_600_000;

function grantOn(request: ApprovalRequest, approver = "ana", hours = 4): ApprovalGrant {
  return buildGrant(request, {
    remember: { kind: "arguments", durationMs: hours * HOUR },
    approver,
    maxMs: 24 * HOUR,
    now: T0 + 1,
  });
}

/** What every store that keeps grants shares. */
function grantContract(open: () => ApprovalStore & GrantStore): void {
  let store: ApprovalStore & GrantStore;
  beforeEach(async () => {
    store = open();
    return async () => {
      await store.close();
    };
  });

  it("records the approval and its grant in one step; the response names the grant", async () => {
    const request = makeRequest(T0);
    await store.put(request);
    const grant = grantOn(request);
    const response = {
      approvalId: request.approvalId,
      approved: true,
      approver: "ana",
      grantId: grant.grantId,
    };
    const result = await store.respondAndGrant(response, grant, T0 + 1);
    expect(result.status).toBe("recorded");
    expect(result.status === "recorded" && result.approval.response).toEqual(response);
    expect(await store.findGrants("delete_file", request.argumentsHash, T0 + 2)).toEqual([grant]);
    expect(await store.listGrants({ now: T0 + 2 })).toEqual([grant]);
  });

  it("stores no grant when the decision is not recorded: decided, expired or unknown", async () => {
    const decided = makeRequest(T0);
    const expired = makeRequest(T0, 10);
    await store.put(decided);
    await store.put(expired);
    await store.respond(
      { approvalId: decided.approvalId, approved: false, approver: "bo", reason: "no" },
      T0 + 1,
    );
    const g1 = grantOn(decided);
    expect(
      (
        await store.respondAndGrant(
          { approvalId: decided.approvalId, approved: true, approver: "ana", grantId: g1.grantId },
          g1,
          T0 + 2,
        )
      ).status,
    ).toBe("already-decided");
    const g2 = grantOn(expired);
    expect(
      (
        await store.respondAndGrant(
          { approvalId: expired.approvalId, approved: true, approver: "ana", grantId: g2.grantId },
          g2,
          T0 + 20,
        )
      ).status,
    ).toBe("expired");
    const unknown = makeRequest(T0);
    const g3 = grantOn(unknown);
    expect(
      (
        await store.respondAndGrant(
          { approvalId: unknown.approvalId, approved: true, approver: "ana", grantId: g3.grantId },
          g3,
          T0 + 2,
        )
      ).status,
    ).toBe("not-found");
    expect(await store.listGrants({ now: T0, all: true })).toEqual([]);
  });

  it("of two approvers remembering one request at once, exactly one is recorded with exactly one grant", async () => {
    for (let round = 0; round < 5; round++) {
      const request = makeRequest(T0);
      await store.put(request);
      const grants = ["ana", "bo", "cy"].map((who) => grantOn(request, who));
      const results = await Promise.all([
        ...grants.map((g) =>
          store.respondAndGrant(
            { approvalId: request.approvalId, approved: true, approver: g.approver, grantId: g.grantId },
            g,
            T0 + 1,
          ),
        ),
        store.respond(
          { approvalId: request.approvalId, approved: false, approver: "dee", reason: "no" },
          T0 + 1,
        ),
      ]);
      const recorded = results.filter((r) => r.status === "recorded");
      expect(recorded).toHaveLength(1);
      expect(results.filter((r) => r.status === "already-decided")).toHaveLength(3);
      const stored = (await store.listGrants({ now: T0, all: true })).filter(
        (g) => g.approvalId === request.approvalId,
      );
      const winner = recorded[0]?.status === "recorded" ? recorded[0].approval.response : undefined;
      if (winner?.approved === true) {
        expect(stored.map((g) => g.grantId)).toEqual([winner.grantId]);
      } else {
        expect(stored).toEqual([]);
      }
    }
  });

  it("finds only unrevoked, unexpired grants for the same tool and arguments hash", async () => {
    const request = makeRequest(T0);
    const other = makeRequest(T0, 60_000, { argumentsHash: `sha256:${"cd".repeat(32)}` });
    await store.put(request);
    await store.put(other);
    const grant = grantOn(request, "ana", 1);
    await store.respondAndGrant(
      { approvalId: request.approvalId, approved: true, approver: "ana", grantId: grant.grantId },
      grant,
      T0 + 1,
    );
    expect(await store.findGrants("delete_file", request.argumentsHash, grant.expiresAt - 1)).toHaveLength(1);
    expect(await store.findGrants("delete_file", request.argumentsHash, grant.expiresAt)).toEqual([]);
    expect(await store.findGrants("delete_file", other.argumentsHash, T0 + 2)).toEqual([]);
    expect(await store.findGrants("read_file", request.argumentsHash, T0 + 2)).toEqual([]);
    expect(await store.listGrants({ now: grant.expiresAt })).toEqual([]);
    expect(await store.listGrants({ now: grant.expiresAt, all: true })).toEqual([grant]);
  });

  it("revokes a grant once; a revoked grant is found no more and lists with who revoked it", async () => {
    const request = makeRequest(T0);
    await store.put(request);
    const grant = grantOn(request);
    await store.respondAndGrant(
      { approvalId: request.approvalId, approved: true, approver: "ana", grantId: grant.grantId },
      grant,
      T0 + 1,
    );
    const revoked = await store.revokeGrant(grant.grantId, "sec-team", T0 + 10);
    expect(revoked).toEqual({
      status: "revoked",
      grant: { ...grant, revokedAt: T0 + 10, revokedBy: "sec-team" },
    });
    expect(await store.revokeGrant(grant.grantId, "other", T0 + 11)).toEqual({
      status: "already-revoked",
      grant: { ...grant, revokedAt: T0 + 10, revokedBy: "sec-team" },
    });
    expect(await store.revokeGrant("grt_nope", "other", T0 + 11)).toEqual({ status: "not-found" });
    expect(await store.findGrants("delete_file", request.argumentsHash, T0 + 12)).toEqual([]);
    expect(await store.listGrants({ now: T0 + 12 })).toEqual([]);
    expect(await store.listGrants({ now: T0 + 12, all: true })).toEqual([
      { ...grant, revokedAt: T0 + 10, revokedBy: "sec-team" },
    ]);
  });
}

describe("MemoryApprovalStore grants", () => {
  grantContract(() => new MemoryApprovalStore());
});

describe("SqliteApprovalStore grants", () => {
  const tmp = tempDir();
  afterAll(() => tmp.remove());
  let n = 0;
  grantContract(() => new SqliteApprovalStore(path.join("grants", `state-${n++}.db`), { cwd: tmp.dir }));

  it("migrates a database written before grants existed, keeping its requests", async () => {
    const file = path.join(tmp.dir, "old.db");
    const first = new SqliteApprovalStore(file);
    const request = makeRequest(T0);
    await first.put(request);
    await first.close();
    // Back to the first schema version, as an older toolgate left it.
    const db = new Database(file);
    db.exec("DROP TABLE toolgate_grants");
    db.prepare("UPDATE toolgate_meta SET value = 1 WHERE key = 'approvals.schema_version'").run();
    db.close();
    const store = new SqliteApprovalStore(file);
    expect((await store.get(request.approvalId)).found).toBe(true);
    const grant = grantOn(request);
    const result = await store.respondAndGrant(
      { approvalId: request.approvalId, approved: true, approver: "ana", grantId: grant.grantId },
      grant,
      T0 + 1,
    );
    expect(result.status).toBe("recorded");
    expect(await store.listGrants({ now: T0 + 2 })).toEqual([grant]);
    await store.close();
  });
});

describePostgres("PostgresApprovalStore grants", (url) => {
  const prefixes: string[] = [];
  afterAll(async () => {
    for (const prefix of prefixes) await dropTables(url, prefix);
  });
  grantContract(() => {
    const prefix = uniquePrefix();
    prefixes.push(prefix);
    return new PostgresApprovalStore(url, { tablePrefix: prefix, max: 4 });
  });
});
