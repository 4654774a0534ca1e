import {
  ApprovalError,
  DEFAULT_APPROVAL_TTL_MS,
  hashCanonical,
  PendingApprovals,
  type PolicyDecision,
  type ToolCall,
} from "toolgate";
import { describe, expect, it } from "vitest";

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
    expect(() => new PendingApprovals({ ttlMs: 0 })).toThrow(RangeError);
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
