/**
 * Remembered approvals (grants), stated as rules: a grant only turns an ask into a run, never a deny; it never
 * applies to other arguments, another tool or another session; expired and revoked grants are ignored; a
 * statement that asks and that the person did not see is not covered; every run by a grant is audited with
 * the grant's id.
 */
import fc from "fast-check";
import {
  type ApprovalRequest,
  defineTool,
  hashCanonical,
  MemoryApprovalStore,
  MemoryAuditSink,
  PendingApprovals,
  type PolicyDecision,
  type PolicyRule,
  ToolController,
  ToolPolicy,
  ToolRegistry,
  type ToolResult,
  ToolRuntime,
} from "toolgate";
import { describe, expect, it } from "vitest";
import { decideApproval } from "../../src/inbox/decide.js";
import { buildGrant, grantApplies, parseDuration } from "../../src/runtime/grants.js";

const HOUR = 3_600_000;
const SETTINGS = { maxMs: 24 * HOUR, sessionKey: "session_id" };

let runs: string[] = [];
const tools = ["t0", "t1"].map((name) =>
  defineTool<{ x: number }>(
    {
      name,
      description: `Tool ${name}.`,
      inputSchema: {
        type: "object",
        properties: { x: { type: "integer" } },
        required: ["x"],
        additionalProperties: false,
      },
    },
    ({ x }) => {
      runs.push(`${name}:${x}`);
      return `ran ${name} ${x}`;
    },
  ),
);
const runtime = new ToolRuntime(new ToolRegistry(tools));

function setup(policy: ToolPolicy, grantMaxMs?: number) {
  let now = 1_700_000_000_000;
  const store = new MemoryApprovalStore();
  const audit = new MemoryAuditSink();
  const controller = new ToolController({
    runtime,
    policy,
    approvals: new PendingApprovals({ store, now: () => now }),
    audit,
    ...(grantMaxMs === undefined ? {} : { grantMaxMs }),
  });
  let n = 0;
  const call = (tool: string, x: number, context?: Record<string, unknown>) =>
    controller.handle({ callId: `c${++n}`, toolName: tool, arguments: { x } }, context);
  /** Asks for a call, and approves it remembering it; returns the request's result once resolved. */
  const approveRemembering = async (
    tool: string,
    x: number,
    remember: { kind: "arguments" | "session"; durationMs: number } = {
      kind: "arguments",
      durationMs: 4 * HOUR,
    },
    context?: Record<string, unknown>,
  ) => {
    const request = (await call(tool, x, context)) as ApprovalRequest;
    expect(request.kind).toBe("approval-request");
    const decided = await decideApproval(
      store,
      { approvalId: request.approvalId, approved: true, approver: "ana", remember },
      SETTINGS,
      now,
    );
    if (decided.status !== "recorded" || decided.grant === undefined)
      throw new Error(JSON.stringify(decided));
    // The waiting application reads the recorded decision (approver included) from the store.
    const result = await controller.waitForDecision(request.approvalId, { pollMs: 1 });
    return { request, grant: decided.grant, result };
  };
  return {
    store,
    audit,
    controller,
    call,
    approveRemembering,
    advance: (ms: number) => {
      now += ms;
    },
    now: () => now,
  };
}

const isRequest = (r: ToolResult | ApprovalRequest): r is ApprovalRequest => "approvalId" in r;

const askBoth = () => new ToolPolicy({ confirmationRequiredTools: ["t0", "t1"] });

describe("grants in the controller", () => {
  it("a remembered approval runs the same call again without asking, and the audit names the grant", async () => {
    runs = [];
    const t = setup(askBoth());
    const { grant, result } = await t.approveRemembering("t0", 1);
    expect(result).toEqual({ callId: "c1", content: "ran t0 1", isError: false });
    const granted = t.audit.events.find((e) => e.type === "approval.granted");
    expect(granted).toMatchObject({ approver: "ana", grantId: grant.grantId, approvalId: grant.approvalId });

    const again = await t.call("t0", 1);
    expect(again).toEqual({ callId: "c2", content: "ran t0 1", isError: false });
    expect(runs).toEqual(["t0:1", "t0:1"]);
    const second = t.audit.events
      .filter((e) => e.callId === "c2")
      .map((e) => [e.type, e.grantId, e.approver]);
    expect(second).toEqual([
      ["call.received", undefined, undefined],
      ["policy.decided", undefined, undefined],
      ["approval.granted", grant.grantId, "ana"],
      ["tool.executed", grant.grantId, undefined],
    ]);
    expect(await t.store.list()).toEqual([]);
  });

  it("never applies to other arguments or another tool", async () => {
    runs = [];
    const t = setup(askBoth());
    await t.approveRemembering("t0", 1);
    expect(isRequest(await t.call("t0", 2))).toBe(true);
    expect(isRequest(await t.call("t1", 1))).toBe(true);
    expect(runs).toEqual(["t0:1"]);
  });

  it("a deny still wins: a deny rule for the context, or a policy changed to deny", async () => {
    runs = [];
    const rules: PolicyRule[] = [
      {
        id: "no-prod",
        tools: ["t0"],
        decision: "deny",
        context: { env: { equals: "prod" } },
        reason: "not in prod",
      },
    ];
    const t = setup(new ToolPolicy({ confirmationRequiredTools: ["t0"], rules }));
    await t.approveRemembering("t0", 1);
    const denied = await t.call("t0", 1, { env: "prod" });
    expect(denied).toMatchObject({ isError: true, content: expect.stringContaining("not in prod") });
    t.controller.reload({ policy: new ToolPolicy({ deniedTools: ["t0"] }) });
    expect(await t.call("t0", 1)).toMatchObject({
      isError: true,
      content: expect.stringContaining("denied"),
    });
    expect(runs).toEqual(["t0:1"]);
  });

  it("an ask by a statement the person did not see is not covered", async () => {
    runs = [];
    const t = setup(askBoth());
    await t.approveRemembering("t0", 1);
    const rules: PolicyRule[] = [
      { id: "night", tools: ["t0"], decision: "ask", context: { hour: { min: 22 } }, reason: "late" },
    ];
    t.controller.reload({ policy: new ToolPolicy({ confirmationRequiredTools: ["t0", "t1"], rules }) });
    expect(isRequest(await t.call("t0", 1, { hour: 23 }))).toBe(true);
    expect(await t.call("t0", 1, { hour: 9 })).toMatchObject({ isError: false });
  });

  it("an expired or revoked grant is ignored", async () => {
    runs = [];
    const t = setup(askBoth());
    const { grant } = await t.approveRemembering("t0", 1, { kind: "arguments", durationMs: HOUR });
    t.advance(HOUR - 1);
    expect(await t.call("t0", 1)).toMatchObject({ isError: false });
    t.advance(1);
    expect(isRequest(await t.call("t0", 1))).toBe(true);

    const second = await t.approveRemembering("t1", 5);
    expect(second.grant.grantId).not.toBe(grant.grantId);
    expect(await t.call("t1", 5)).toMatchObject({ isError: false });
    await t.store.revokeGrant(second.grant.grantId, "sec", t.now());
    expect(isRequest(await t.call("t1", 5))).toBe(true);
  });

  it("a session grant applies in that session only", async () => {
    runs = [];
    const t = setup(askBoth());
    await t.approveRemembering("t0", 1, { kind: "session", durationMs: 8 * HOUR }, { session_id: "s-1" });
    expect(await t.call("t0", 1, { session_id: "s-1" })).toMatchObject({ isError: false });
    expect(isRequest(await t.call("t0", 1, { session_id: "s-2" }))).toBe(true);
    expect(isRequest(await t.call("t0", 1))).toBe(true);
    expect(isRequest(await t.call("t0", 2, { session_id: "s-1" }))).toBe(true);
  });

  it("cannot remember a session the request does not name, longer than the cap, or a rejection", async () => {
    const t = setup(askBoth());
    const request = (await t.call("t0", 1)) as ApprovalRequest;
    const decide = (remember: { kind: "arguments" | "session"; durationMs: number }, approved = true) =>
      decideApproval(
        t.store,
        { approvalId: request.approvalId, approved, approver: "ana", remember },
        SETTINGS,
        t.now(),
      );
    expect(await decide({ kind: "session", durationMs: HOUR })).toMatchObject({
      status: "cannot-remember",
      message: expect.stringContaining('no session id in "session_id"'),
    });
    expect(await decide({ kind: "arguments", durationMs: 25 * HOUR })).toMatchObject({
      status: "cannot-remember",
      message: expect.stringContaining("at most 24h"),
    });
    expect(await decide({ kind: "arguments", durationMs: HOUR }, false)).toMatchObject({
      status: "cannot-remember",
    });
    expect(
      await decideApproval(
        t.store,
        {
          approvalId: request.approvalId,
          approved: true,
          approver: "ana",
          remember: { kind: "arguments", durationMs: HOUR },
        },
        { ...SETTINGS, maxMs: 0 },
        t.now(),
      ),
    ).toMatchObject({ status: "cannot-remember", message: expect.stringContaining("turned off") });
    // Nothing was recorded by the refused attempts.
    expect(
      (await t.store.get(request.approvalId)).found && (await t.store.get(request.approvalId)),
    ).toMatchObject({
      approval: { state: "pending" },
    });
  });

  it("with onAsk: deny (nobody can answer) no grant is used", async () => {
    runs = [];
    const t = setup(askBoth());
    await t.approveRemembering("t0", 1);
    const headless = new ToolController({
      runtime,
      policy: askBoth(),
      approvals: new PendingApprovals({ store: t.store, now: t.now }),
      onAsk: "deny",
    });
    expect(await headless.handle({ callId: "h", toolName: "t0", arguments: { x: 1 } })).toMatchObject({
      isError: true,
    });
    expect(runs).toEqual(["t0:1"]);
  });
});

describe("grant rules", () => {
  const request: ApprovalRequest = {
    kind: "approval-request",
    approvalId: "apr_1",
    call: { callId: "c", toolName: "t0", arguments: { x: 1 } },
    reason: "ask",
    ruleIds: ["ask-t0"],
    argumentsHash: hashCanonical({ x: 1 }),
    policyFingerprint: "sha256:p",
    createdAt: 0,
    expiresAt: HOUR,
    context: { session_id: "s" },
  };
  const ask: PolicyDecision = { action: "ask", reason: "r", ruleIds: ["ask-t0"], statements: [] };

  it("parses durations in minutes and hours only", () => {
    expect(parseDuration("4h")).toBe(4 * HOUR);
    expect(parseDuration("30m")).toBe(30 * 60_000);
    expect(parseDuration("1.5h")).toBe(1.5 * HOUR);
    expect(parseDuration("4")).toBeUndefined();
    expect(parseDuration("forever")).toBeUndefined();
    expect(parseDuration("-1h")).toBeUndefined();
  });

  it("a stored grant that claims to last longer than 24 hours is ignored", () => {
    const grant = buildGrant(request, {
      remember: { kind: "arguments", durationMs: HOUR },
      approver: "a",
      maxMs: 24 * HOUR,
      now: 0,
    });
    const check = {
      toolName: "t0",
      argumentsHash: request.argumentsHash,
      context: {},
      decision: ask,
      now: 10,
    };
    expect(grantApplies(grant, check)).toBe(true);
    expect(grantApplies({ ...grant, expiresAt: 25 * HOUR }, check)).toBe(false);
  });

  // Property: whatever the grant and the call, a grant applies only to an ask, for the same tool and the
  // same arguments (and, when scoped to a session, the same session).
  it("a grant never changes a deny or an allow, and never applies to different arguments", () => {
    const value = fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constantFrom("a", "b"));
    fc.assert(
      fc.property(
        fc.record({
          grantTool: fc.constantFrom("t0", "t1"),
          grantArgs: fc.record({ x: value }),
          session: fc.boolean(),
          grantSession: fc.constantFrom("s1", "s2"),
          callTool: fc.constantFrom("t0", "t1"),
          callArgs: fc.record({ x: value }),
          callSession: fc.option(fc.constantFrom("s1", "s2", ""), { nil: undefined }),
          action: fc.constantFrom("allow", "ask", "deny" as const),
          ruleIds: fc.subarray(["ask-t0", "ask-t1", "other"], { minLength: 1 }),
          at: fc.integer({ min: 0, max: 2 * HOUR }),
        }),
        (c) => {
          const grant = buildGrant(
            {
              ...request,
              call: { callId: "c", toolName: c.grantTool, arguments: c.grantArgs },
              argumentsHash: hashCanonical(c.grantArgs),
              ruleIds: ["ask-t0", "ask-t1"],
              context: { session_id: c.grantSession },
            },
            {
              remember: { kind: c.session ? "session" : "arguments", durationMs: HOUR },
              approver: "a",
              maxMs: 24 * HOUR,
              now: 0,
            },
          );
          const applies = grantApplies(grant, {
            toolName: c.callTool,
            argumentsHash: hashCanonical(c.callArgs),
            context: c.callSession === undefined ? {} : { session_id: c.callSession },
            decision: { action: c.action, reason: "r", ruleIds: c.ruleIds, statements: [] },
            now: c.at,
          });
          if (applies) {
            expect(c.action).toBe("ask");
            expect(c.callTool).toBe(c.grantTool);
            expect(c.callArgs).toEqual(c.grantArgs);
            expect(c.at).toBeLessThan(HOUR);
            expect(c.ruleIds).not.toContain("other");
            if (c.session) expect(c.callSession).toBe(c.grantSession);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  // Property through the controller: grants are given while every call asks; then the policy changes to any
  // assignment of allow/ask/deny plus a deny rule. A call runs exactly when the new policy allows it, or asks
  // for it and a grant was given for that tool and those arguments. No deny ever runs.
  it("after any policy change, a call runs exactly when allowed, or asked and granted for its arguments", async () => {
    const action = fc.constantFrom("allow", "ask", "deny" as const);
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.tuple(fc.constantFrom("t0", "t1"), fc.integer({ min: 10, max: 14 })), {
          maxLength: 4,
          selector: ([tool, x]) => `${tool}:${x}`,
        }),
        fc.record({ t0: action, t1: action }),
        fc.array(fc.tuple(fc.constantFrom("t0", "t1"), fc.integer({ min: 10, max: 14 })), {
          minLength: 1,
          maxLength: 8,
        }),
        async (granted, assignment, calls) => {
          runs = [];
          const t = setup(askBoth());
          for (const [tool, x] of granted) await t.approveRemembering(tool, x);
          runs = [];
          const of = (a: string) => (["t0", "t1"] as const).filter((tool) => assignment[tool] === a);
          const policy = new ToolPolicy({
            allowedTools: of("allow"),
            confirmationRequiredTools: of("ask"),
            deniedTools: of("deny"),
            rules: [
              {
                id: "no-13",
                tools: ["t0", "t1"],
                decision: "deny",
                when: { x: { equals: 13 } },
                reason: "13",
              },
            ],
          });
          t.controller.reload({ policy });
          for (const [tool, x] of calls) {
            const before = runs.length;
            const result = await t.call(tool, x);
            const decision = policy.decide({ callId: "d", toolName: tool, arguments: { x } });
            const isGranted = granted.some(([gt, gx]) => gt === tool && gx === x);
            const shouldRun = decision.action === "allow" || (decision.action === "ask" && isGranted);
            expect(runs.length - before).toBe(shouldRun ? 1 : 0);
            if (decision.action === "deny") expect(result).toMatchObject({ isError: true });
            if (decision.action === "ask" && !isGranted) expect(isRequest(result)).toBe(true);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("requestApproval: decides like handle and never runs", () => {
  it("an ask becomes a stored, audited request; nothing runs", async () => {
    runs = [];
    const t = setup(askBoth());
    const step = await t.controller.requestApproval({ callId: "r1", toolName: "t0", arguments: { x: 7 } });
    expect(isRequest(step as ApprovalRequest)).toBe(true);
    expect(runs).toEqual([]);
    expect((await t.store.list()).map((s) => s.request.call.callId)).toEqual(["r1"]);
    expect(t.audit.events.map((e) => e.type)).toEqual([
      "call.received",
      "policy.decided",
      "approval.requested",
    ]);
  });

  it("a call a remembered approval covers is reported as granted, and still not run", async () => {
    runs = [];
    const t = setup(askBoth());
    await t.approveRemembering("t0", 1);
    const step = await t.controller.requestApproval({ callId: "r2", toolName: "t0", arguments: { x: 1 } });
    expect(step).toEqual({ kind: "approval-not-needed", action: "granted" });
    expect(runs).toEqual(["t0:1"]);
  });

  it("allow, deny and invalid calls store nothing and run nothing", async () => {
    runs = [];
    const t = setup(new ToolPolicy({ allowedTools: ["t0"], deniedTools: ["t1"] }));
    const ask = (toolName: string, args: unknown) =>
      t.controller.requestApproval({ callId: "r", toolName, arguments: args });
    expect(await ask("t0", { x: 1 })).toEqual({ kind: "approval-not-needed", action: "allow" });
    expect(await ask("t1", { x: 1 })).toEqual({ kind: "approval-not-needed", action: "deny" });
    expect(await ask("t0", { x: "one" })).toEqual({ kind: "approval-not-needed", action: "invalid" });
    expect(await ask("nope", {})).toEqual({ kind: "approval-not-needed", action: "invalid" });
    expect(runs).toEqual([]);
    expect(await t.store.list()).toEqual([]);
  });
});

describe("grants.max_hours where a grant is used", () => {
  it("a grant made for longer than the setting in force is used only as long as the setting allows", async () => {
    runs = [];
    const t = setup(askBoth(), HOUR);
    await t.approveRemembering("t0", 1, { kind: "arguments", durationMs: 4 * HOUR });
    t.advance(HOUR / 2);
    expect(isRequest(await t.call("t0", 1))).toBe(false);
    t.advance(HOUR);
    expect(isRequest(await t.call("t0", 1))).toBe(true);
    expect(runs).toEqual(["t0:1", "t0:1"]);
  });

  it("max_hours 0 uses no grant, and a reload that lowers the setting shortens grants made before", async () => {
    runs = [];
    const off = setup(askBoth(), 0);
    await off.approveRemembering("t0", 1);
    expect(isRequest(await off.call("t0", 1))).toBe(true);

    const t = setup(askBoth());
    await t.approveRemembering("t0", 1, { kind: "arguments", durationMs: 4 * HOUR });
    t.advance(2 * HOUR);
    expect(isRequest(await t.call("t0", 1))).toBe(false);
    t.controller.reload({ policy: askBoth(), grantMaxMs: HOUR });
    expect(isRequest(await t.call("t0", 1))).toBe(true);
  });

  it("refuses a setting outside 0 to 24 hours", () => {
    for (const grantMaxMs of [-1, 1.5, 25 * HOUR, Number.NaN]) {
      expect(() => setup(askBoth(), grantMaxMs)).toThrow(/grantMaxMs must be a whole number/);
    }
  });
});
