import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { type ApprovalStore, MemoryApprovalStore } from "../../src/runtime/approval-store.js";
import { StoreUnavailableError } from "../../src/runtime/errors.js";
import { PostgresApprovalStore, SqliteApprovalStore } from "../../src/stores/index.js";
import { describePostgres, dropTables, makeRequest, tempDir, uniquePrefix } from "./helpers.js";

/** The behaviour every ApprovalStore shares, whatever keeps its data. */
function contract(open: () => ApprovalStore): void {
  let store: ApprovalStore;
  const T0 = 1_700_000_000_000;
  beforeEach(async () => {
    store = open();
    return async () => {
      await store.close();
    };
  });

  it("puts a pending request and reads it back unchanged", async () => {
    const request = makeRequest(T0, 60_000, {
      call: {
        callId: "c-ü",
        toolName: "write_file",
        arguments: { text: "a\u0000b ✓", list: [1, 2.5, null, { x: true }] },
      },
      context: { role: "admin" },
    });
    await store.put(request);
    const got = await store.get(request.approvalId);
    expect(got).toEqual({ found: true, approval: { request, state: "pending", updatedAt: T0 } });
  });

  it("refuses to put an id twice", async () => {
    const request = makeRequest(T0);
    await store.put(request);
    await expect(store.put(request)).rejects.toThrow(/already exists/);
  });

  it("takes a pending request once, then says already-used", async () => {
    const request = makeRequest(T0);
    await store.put(request);
    expect(await store.take(request.approvalId, T0 + 1)).toEqual({ status: "taken", request });
    expect(await store.take(request.approvalId, T0 + 2)).toEqual({ status: "already-used", request });
    const got = await store.get(request.approvalId);
    expect(got.found && got.approval.state).toBe("used");
    expect(got.found && got.approval.updatedAt).toBe(T0 + 1);
  });

  it("takes after respond, carrying the person's response", async () => {
    const approved = makeRequest(T0);
    const rejected = makeRequest(T0);
    await store.put(approved);
    await store.put(rejected);
    const yes = { approvalId: approved.approvalId, approved: true, approver: "ana", reason: "fine" };
    const no = { approvalId: rejected.approvalId, approved: false, approver: "bo" };
    const recorded = await store.respond(yes, T0 + 5);
    expect(recorded).toEqual({
      status: "recorded",
      approval: { request: approved, state: "approved", response: yes, updatedAt: T0 + 5 },
    });
    await store.respond(no, T0 + 5);
    expect(await store.take(approved.approvalId, T0 + 6)).toEqual({
      status: "taken",
      request: approved,
      response: yes,
    });
    expect(await store.take(rejected.approvalId, T0 + 6)).toEqual({
      status: "taken",
      request: rejected,
      response: no,
    });
    expect((await store.take(approved.approvalId, T0 + 7)).status).toBe("already-used");
  });

  it("records one decision only", async () => {
    const request = makeRequest(T0);
    await store.put(request);
    await store.respond({ approvalId: request.approvalId, approved: true }, T0 + 1);
    const again = await store.respond({ approvalId: request.approvalId, approved: false }, T0 + 2);
    expect(again.status).toBe("already-decided");
    expect(again.status === "already-decided" && again.approval.state).toBe("approved");
    await store.take(request.approvalId, T0 + 3);
    const afterTake = await store.respond({ approvalId: request.approvalId, approved: true }, T0 + 4);
    expect(afterTake.status === "already-decided" && afterTake.approval.state).toBe("used");
  });

  it("answers not-found for unknown ids", async () => {
    expect(await store.take("nope", T0)).toEqual({ status: "not-found" });
    expect(await store.respond({ approvalId: "nope", approved: true }, T0)).toEqual({ status: "not-found" });
    expect(await store.get("nope")).toEqual({ found: false });
  });

  it("does not take an expired request, and marks it expired", async () => {
    const request = makeRequest(T0, 1000);
    await store.put(request);
    expect(await store.take(request.approvalId, T0 + 1000)).toEqual({ status: "expired", request });
    expect(await store.take(request.approvalId, T0 + 1)).toEqual({ status: "expired", request });
    const got = await store.get(request.approvalId);
    expect(got.found && got.approval.state).toBe("expired");
  });

  it("expires an approved request that is taken too late", async () => {
    const request = makeRequest(T0, 1000);
    await store.put(request);
    await store.respond({ approvalId: request.approvalId, approved: true }, T0 + 10);
    expect(await store.take(request.approvalId, T0 + 2000)).toEqual({ status: "expired", request });
  });

  it("refuses a response that comes too late", async () => {
    const request = makeRequest(T0, 1000);
    await store.put(request);
    const late = await store.respond({ approvalId: request.approvalId, approved: true }, T0 + 1000);
    expect(late).toEqual({
      status: "expired",
      approval: { request, state: "expired", updatedAt: T0 + 1000 },
    });
    expect((await store.take(request.approvalId, T0 + 1)).status).toBe("expired");
  });

  it("expire marks only pending requests past their time, and returns them", async () => {
    const old = makeRequest(T0, 100);
    const oldApproved = makeRequest(T0 + 1, 100);
    const fresh = makeRequest(T0 + 2, 10_000);
    for (const r of [old, oldApproved, fresh]) await store.put(r);
    await store.respond({ approvalId: oldApproved.approvalId, approved: true }, T0 + 50);
    expect(await store.expire(T0 + 500)).toEqual([old]);
    expect(await store.expire(T0 + 500)).toEqual([]);
    const states = await Promise.all([old, oldApproved, fresh].map(async (r) => store.get(r.approvalId)));
    expect(states.map((g) => g.found && g.approval.state)).toEqual(["expired", "approved", "pending"]);
  });

  it("lists open requests oldest first, or those in the given states", async () => {
    const a = makeRequest(T0 + 30);
    const b = makeRequest(T0 + 10);
    const c = makeRequest(T0 + 20);
    const d = makeRequest(T0 + 20);
    for (const r of [a, b, c, d]) await store.put(r);
    await store.respond({ approvalId: c.approvalId, approved: false }, T0 + 40);
    await store.take(a.approvalId, T0 + 40);
    expect((await store.list()).map((s) => s.request.approvalId)).toEqual([
      b.approvalId,
      c.approvalId,
      d.approvalId,
    ]);
    expect((await store.list(["used"])).map((s) => s.request.approvalId)).toEqual([a.approvalId]);
    expect((await store.list(["rejected", "used"])).map((s) => s.state)).toEqual(["rejected", "used"]);
    expect(await store.list([])).toEqual([]);
  });

  it("fails closed once closed", async () => {
    const request = makeRequest(T0);
    await store.put(request);
    await store.close();
    for (const call of [
      () => store.put(makeRequest(T0)),
      () => store.take(request.approvalId, T0),
      () => store.respond({ approvalId: request.approvalId, approved: true }, T0),
      () => store.get(request.approvalId),
      () => store.list(),
      () => store.expire(T0),
    ]) {
      await expect(call()).rejects.toBeInstanceOf(StoreUnavailableError);
    }
  });

  it("takes an id once when callers take it at the same moment", async () => {
    const request = makeRequest(T0);
    await store.put(request);
    const results = await Promise.all(
      Array.from({ length: 8 }, () => store.take(request.approvalId, T0 + 1)),
    );
    expect(results.filter((r) => r.status === "taken")).toHaveLength(1);
    expect(results.filter((r) => r.status === "already-used")).toHaveLength(7);
  });

  // Calls made together (one turn of the event loop) may share a transaction; each id is still taken at most
  // once, a taken id ends up used, and an id ends up used only through a take that answered "taken".
  it("keeps each id taken at most once under random concurrent calls", async () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant("take" as const), id: fc.nat(3) }),
      fc.record({ kind: fc.constant("respond" as const), id: fc.nat(3), approved: fc.boolean() }),
      fc.record({ kind: fc.constant("put" as const), id: fc.nat(3) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 16 }), fc.nat(3), async (ops, stored) => {
        const requests = [0, 1, 2, 3].map(() => makeRequest(T0, 1_000));
        for (const r of requests.slice(0, stored)) await store.put(r);
        const outcomes = await Promise.all(
          ops.map(async (o) => {
            const request = requests[o.id] as (typeof requests)[number];
            if (o.kind === "put") {
              return store.put(request).then(
                () => ({ id: o.id, what: "put" }),
                (error: unknown) => ({ id: o.id, what: (error as { code?: string }).code ?? "error" }),
              );
            }
            if (o.kind === "respond") {
              const result = await store.respond(
                { approvalId: request.approvalId, approved: o.approved },
                T0 + 1,
              );
              return { id: o.id, what: `respond:${result.status}` };
            }
            return { id: o.id, what: `take:${(await store.take(request.approvalId, T0 + 1)).status}` };
          }),
        );
        for (const [i, request] of requests.entries()) {
          const mine = outcomes.filter((o) => o.id === i).map((o) => o.what);
          const taken = mine.filter((w) => w === "take:taken").length;
          expect(taken).toBeLessThanOrEqual(1);
          expect(mine.filter((w) => w === "respond:recorded").length).toBeLessThanOrEqual(1);
          expect(mine.filter((w) => w === "put").length).toBeLessThanOrEqual(i < stored ? 0 : 1);
          const got = await store.get(request.approvalId);
          expect(got.found && got.approval.state === "used").toBe(taken === 1);
        }
      }),
      { numRuns: 40 },
    );
  });

  // Differential: the durable store gives the same answers as the in-memory one for any sequence of calls.
  it("answers like the in-memory store for random sequences (an id executes at most once)", async () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant("take" as const), id: fc.nat(3), at: fc.nat(300) }),
      fc.record({
        kind: fc.constant("respond" as const),
        id: fc.nat(3),
        at: fc.nat(300),
        approved: fc.boolean(),
      }),
      fc.record({ kind: fc.constant("expire" as const), at: fc.nat(300) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 12 }), async (ops) => {
        const model = new MemoryApprovalStore();
        await store.expire(Number.MAX_SAFE_INTEGER); // leftovers of earlier runs share the store
        const requests = [0, 1, 2, 3].map((i) => makeRequest(T0 + i, 100 + i * 50));
        for (const r of requests) {
          await model.put(r);
          await store.put(r);
        }
        const taken = new Map<string, number>();
        for (const o of ops) {
          const id = requests[o.kind === "expire" ? 0 : o.id]?.approvalId ?? "";
          const now = T0 + o.at;
          if (o.kind === "take") {
            const [m, s] = [await model.take(id, now), await store.take(id, now)];
            expect(s).toEqual(m);
            if (s.status === "taken") taken.set(id, (taken.get(id) ?? 0) + 1);
          } else if (o.kind === "respond") {
            const response = { approvalId: id, approved: o.approved };
            // MemoryApprovalStore rewrites updatedAt when it answers `expired` for an already-expired request;
            // the durable stores keep the time the state changed, as StoredApproval.updatedAt documents.
            const [m, s] = [await model.respond(response, now), await store.respond(response, now)];
            expect(s.status).toBe(m.status);
            if (s.status !== "not-found" && m.status !== "not-found") {
              expect(s.approval.state).toBe(m.approval.state);
              expect(s.approval.response).toEqual(m.approval.response);
              if (s.status !== "expired") expect(s.approval.updatedAt).toBe(m.approval.updatedAt);
            }
          } else {
            expect(await store.expire(now)).toEqual(await model.expire(now));
          }
        }
        expect([...taken.values()].every((n) => n === 1)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });
}

describe("MemoryApprovalStore contract", () => {
  contract(() => new MemoryApprovalStore());
});

describe("SqliteApprovalStore contract", () => {
  const tmp = tempDir();
  afterAll(() => tmp.remove());
  let n = 0;
  contract(() => new SqliteApprovalStore(path.join("nested", `state-${n++}.db`), { cwd: tmp.dir }));
});

describePostgres("PostgresApprovalStore contract", (url) => {
  const prefixes: string[] = [];
  afterAll(async () => {
    for (const prefix of prefixes) await dropTables(url, prefix);
  });
  contract(() => {
    const prefix = uniquePrefix();
    prefixes.push(prefix);
    return new PostgresApprovalStore(url, { tablePrefix: prefix, max: 2 });
  });
});
