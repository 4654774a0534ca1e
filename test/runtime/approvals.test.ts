import {
  ApprovalError,
  type ApprovalRequest,
  ApprovalStoreFullError,
  DEFAULT_APPROVAL_TTL_MS,
  hashCanonical,
  InvalidOptionError,
  MemoryApprovalStore,
  type MemoryApprovalStoreOptions,
  MemoryAuditSink,
  PendingApprovals,
  type PolicyDecision,
  type ToolCall,
  ToolController,
  ToolPolicy,
  ToolRegistry,
  ToolRuntime,
} from "toolgate";
import { describe, expect, it } from "vitest";
import { countedCalculator } from "./core-fixtures.js";

const call: ToolCall = {
  callId: "call_1",
  toolName: "apply_patch",
  arguments: { patch: "diff", dry: false },
};
const decision: PolicyDecision = {
  action: "ask",
  reason: "patches need a person",
  ruleIds: ["ask:apply_patch"],
  statements: [],
  fingerprint: "sha256:abc",
};

describe("PendingApprovals", () => {
  it("creates a request with an unguessable id, the default one-hour TTL, a hash and the fingerprint", async () => {
    let clock = 1_700_000_000_000;
    const approvals = new PendingApprovals({ now: () => clock });
    const request = await approvals.create(call, decision);
    expect(DEFAULT_APPROVAL_TTL_MS).toBe(3_600_000);
    expect(request).toEqual({
      kind: "approval-request",
      approvalId: expect.stringMatching(/^apr_[A-Za-z0-9_-]{22}$/),
      call,
      reason: "patches need a person",
      ruleIds: ["ask:apply_patch"],
      argumentsHash: hashCanonical({ dry: false, patch: "diff" }),
      policyFingerprint: "sha256:abc",
      createdAt: clock,
      expiresAt: clock + 3_600_000,
    });
    expect(request.argumentsHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    clock += 1;
    const ids = new Set<string>();
    for (let i = 0; i < 200; i++) ids.add((await approvals.create(call, decision)).approvalId);
    expect(ids.size).toBe(200);
  });

  it("takes a custom TTL and refuses a non-positive one", async () => {
    const approvals = new PendingApprovals({ ttlMs: 5_000, now: () => 10 });
    const request = await approvals.create(call, decision);
    expect(request.expiresAt - request.createdAt).toBe(5_000);
    expect(() => new PendingApprovals({ ttlMs: 0 })).toThrow(InvalidOptionError);
  });

  it("marks a policy built by hand as unbundled", async () => {
    const { fingerprint: _fingerprint, ...unbundled } = decision;
    const request = await new PendingApprovals().create(call, unbundled);
    expect(request.policyFingerprint).toBe("unbundled");
  });

  it("takes a request once; a second take is already-used, an unknown id not-found", async () => {
    const approvals = new PendingApprovals();
    const request = await approvals.create(call, decision);
    expect((await approvals.list()).map((a) => a.request.approvalId)).toEqual([request.approvalId]);
    await expect(approvals.take(request.approvalId)).resolves.toEqual({ request });
    await expect(approvals.take(request.approvalId)).rejects.toBeInstanceOf(ApprovalError);
    await expect(approvals.take(request.approvalId)).rejects.toMatchObject({ code: "already-used" });
    await expect(approvals.take("apr_nope")).rejects.toMatchObject({
      code: "not-found",
      approvalId: "apr_nope",
    });
    expect(await approvals.list()).toEqual([]);
  });

  it("refuses a request at or after its expiry time", async () => {
    let clock = 0;
    const approvals = new PendingApprovals({ ttlMs: 1_000, now: () => clock });
    const early = await approvals.create(call, decision);
    const late = await approvals.create(call, decision);
    clock = 999;
    await expect(approvals.take(early.approvalId)).resolves.toEqual({ request: early });
    clock = 1_000;
    await expect(approvals.take(late.approvalId)).rejects.toMatchObject({ code: "expired" });
    await expect(approvals.take(late.approvalId)).rejects.toMatchObject({ code: "expired" });
  });

  it("expire() marks overdue pending requests", async () => {
    let clock = 0;
    const approvals = new PendingApprovals({ ttlMs: 100, now: () => clock });
    const request = await approvals.create(call, decision);
    clock = 50;
    expect(await approvals.expire()).toEqual([]);
    clock = 100;
    expect(await approvals.expire()).toEqual([request]);
    expect(await approvals.list()).toEqual([]);
  });
});

describe("PendingApprovals: context, responses and what each refusal says", () => {
  it("keeps a non-empty context with the request, and records none for an empty or absent one", async () => {
    const approvals = new PendingApprovals();
    const context = { tenant: "acme", user: { id: "u1" } };
    const withContext = await approvals.create(call, decision, context);
    expect(withContext.context).toEqual(context);
    expect((await approvals.take(withContext.approvalId)).request.context).toEqual(context);
    for (const none of [{}, undefined]) {
      const request = await approvals.create(call, decision, none);
      expect(Object.hasOwn(request, "context")).toBe(false);
    }
  });

  it("take returns the person's response with the request once they answered, and no response before", async () => {
    let clock = 0;
    const store = new MemoryApprovalStore();
    const approvals = new PendingApprovals({ store, now: () => clock });
    const answered = await approvals.create(call, decision);
    const response = {
      approvalId: answered.approvalId,
      approved: true,
      approver: "ana",
      reason: "looks fine",
    };
    expect(await store.respond(response, clock)).toMatchObject({ status: "recorded" });
    clock = 10;
    expect(await approvals.take(answered.approvalId)).toEqual({ request: answered, response });
    const unanswered = await approvals.create(call, decision);
    const taken = await approvals.take(unanswered.approvalId);
    expect(taken).toEqual({ request: unanswered });
    expect(Object.hasOwn(taken, "response")).toBe(false);
  });

  it("each refusal names the approval and says what to do", async () => {
    let clock = 0;
    const approvals = new PendingApprovals({ ttlMs: 1_000, now: () => clock });
    await expect(approvals.take("apr_nope")).rejects.toThrow("no approval request with id apr_nope");
    const used = await approvals.create(call, decision);
    await approvals.take(used.approvalId);
    await expect(approvals.take(used.approvalId)).rejects.toThrow(
      `approval ${used.approvalId} was already used; an approval executes at most once — ask again`,
    );
    const late = await approvals.create(call, decision);
    clock = 1_000;
    await expect(approvals.take(late.approvalId)).rejects.toThrow(
      `approval ${late.approvalId} expired at 1970-01-01T00:00:01.000Z; ask again`,
    );
    expect(() => new PendingApprovals({ ttlMs: -5 })).toThrow(
      "ttlMs must be a positive number of milliseconds, got -5",
    );
    expect(() => new PendingApprovals({ ttlMs: Number.NaN })).toThrow(InvalidOptionError);
  });
});

describe("MemoryApprovalStore bounds", () => {
  const T0 = 1_700_000_000_000;
  function approvalsWith(options: MemoryApprovalStoreOptions, clock: { now: number }) {
    return new PendingApprovals({
      store: new MemoryApprovalStore(options),
      now: () => clock.now,
      ttlMs: 1_000,
    });
  }

  it("caps open requests: when full, put fails closed with a clear error, and nothing is stored", async () => {
    const clock = { now: T0 };
    const approvals = approvalsWith({ maxOpenRequests: 2 }, clock);
    await approvals.create(call, decision);
    await approvals.create(call, decision);
    const full = await approvals.create(call, decision).catch((e: unknown) => e);
    expect(full).toBeInstanceOf(ApprovalStoreFullError);
    expect(full).toMatchObject({
      code: "store-full",
      message:
        "memory: 2 approval requests are already open (maxOpenRequests); answer or expire some, or raise maxOpenRequests",
    });
    expect(await approvals.list()).toHaveLength(2);
  });

  it("a used request frees its place, and so does an expired one when room is needed", async () => {
    const clock = { now: T0 };
    const approvals = approvalsWith({ maxOpenRequests: 2 }, clock);
    const first = await approvals.create(call, decision);
    await approvals.create(call, decision);
    await approvals.take(first.approvalId);
    await approvals.create(call, decision);
    clock.now += 1_000;
    // Both open requests are now past their expiry: they make room, and are remembered as expired.
    const fresh = await approvals.create(call, decision);
    expect((await approvals.list()).map((s) => s.request.approvalId)).toEqual([fresh.approvalId]);
    expect((await approvals.store.list(["expired"])).length).toBe(2);
  });

  it("remembers only the newest used or expired requests; an older one is dropped with its arguments", async () => {
    const clock = { now: T0 };
    const store = new MemoryApprovalStore({ maxClosedRequests: 2 });
    const approvals = new PendingApprovals({ store, now: () => clock.now });
    const requests = [];
    for (let i = 0; i < 3; i++) requests.push(await approvals.create(call, decision));
    for (const r of requests) await approvals.take(r.approvalId);
    const [oldest, middle, newest] = requests as [ApprovalRequest, ApprovalRequest, ApprovalRequest];
    expect(await store.get(oldest.approvalId)).toEqual({ found: false });
    await expect(approvals.take(oldest.approvalId)).rejects.toMatchObject({ code: "not-found" });
    await expect(approvals.take(middle.approvalId)).rejects.toMatchObject({ code: "already-used" });
    await expect(approvals.take(newest.approvalId)).rejects.toMatchObject({ code: "already-used" });
    expect((await store.list(["used"])).length).toBe(2);
  });

  it("holds a bounded amount however many requests come and go", async () => {
    const clock = { now: T0 };
    const store = new MemoryApprovalStore({ maxOpenRequests: 10, maxClosedRequests: 5 });
    const approvals = new PendingApprovals({ store, now: () => clock.now, ttlMs: 1_000 });
    for (let i = 0; i < 500; i++) {
      const request = await approvals.create(call, decision);
      if (i % 2 === 0) await approvals.take(request.approvalId);
      clock.now += 100;
    }
    const all = await store.list(["pending", "approved", "rejected", "used", "expired"]);
    expect(all.length).toBeLessThanOrEqual(15);
  });

  it("refuses caps that are not whole numbers", () => {
    expect(() => new MemoryApprovalStore({ maxOpenRequests: 0 })).toThrow(InvalidOptionError);
    expect(() => new MemoryApprovalStore({ maxClosedRequests: -1 })).toThrow(InvalidOptionError);
    expect(() => new MemoryApprovalStore({ maxOpenRequests: 1.5 })).toThrow(InvalidOptionError);
  });

  it("the controller answers a call with an error result when the store is full; nothing runs", async () => {
    const audit = new MemoryAuditSink();
    const calculator = countedCalculator();
    const controller = new ToolController({
      runtime: new ToolRuntime(new ToolRegistry([calculator.definition])),
      policy: new ToolPolicy({ confirmationRequiredTools: ["calculator"] }),
      approvals: new PendingApprovals({ store: new MemoryApprovalStore({ maxOpenRequests: 1 }) }),
      audit,
    });
    const add = { callId: "c2", toolName: "calculator", arguments: { a: 1, b: 2 } };
    expect(await controller.handle({ ...add, callId: "c1" })).toMatchObject({ kind: "approval-request" });
    expect(await controller.handle(add)).toEqual({
      callId: "c2",
      content:
        "needs a person's approval (tool calculator needs a person's approval), but memory: 1 approval requests " +
        "are already open (maxOpenRequests); answer or expire some, or raise maxOpenRequests; nothing ran",
      isError: true,
    });
    expect(audit.events.at(-1)).toMatchObject({ type: "call.rejected", callId: "c2" });
    expect(calculator.runs).toEqual([]);
  });
});
