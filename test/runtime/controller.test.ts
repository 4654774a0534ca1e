import {
  ApprovalError,
  type ApprovalRequest,
  type AuditEvent,
  defineTool,
  MemoryApprovalStore,
  MemoryAuditSink,
  PendingApprovals,
  StoreUnavailableError,
  type ToolCall,
  ToolController,
  type ToolControllerOptions,
  type ToolDefinition,
  ToolFailure,
  ToolPolicy,
  type ToolPolicyOptions,
  ToolRegistry,
  ToolRuntime,
} from "toolgate";
import { redactArguments } from "toolgate/runtime";
import { describe, expect, it } from "vitest";
import {
  asApproval,
  asResult,
  CALCULATOR_SCHEMA,
  countedCalculator,
  countedPathTool,
  FailingApprovalStore,
  FailingAuditSink,
} from "./core-fixtures.js";

const add = (callId: string, args: unknown = { a: 40, b: 2 }): ToolCall => ({
  callId,
  toolName: "calculator",
  arguments: args,
});

function setup(
  policy: ToolPolicyOptions,
  extra: Omit<ToolControllerOptions, "runtime" | "policy"> = {},
  definitions?: ToolDefinition<never>[],
) {
  const calculator = countedCalculator();
  const reader = countedPathTool();
  const registry = new ToolRegistry(definitions ?? [calculator.definition, reader.definition]);
  const controller = new ToolController({
    runtime: new ToolRuntime(registry),
    policy: new ToolPolicy(policy),
    ...extra,
  });
  return { controller, calculator, reader };
}

describe("ToolController.handle", () => {
  it("runs the seed's example: allow executes", async () => {
    const { controller, calculator } = setup({ allowedTools: ["calculator"], confirmationRequiredTools: [] });
    await expect(controller.handle(add("call_1"))).resolves.toEqual({
      callId: "call_1",
      content: "42",
      isError: false,
    });
    expect(calculator.runs).toEqual([{ a: 40, b: 2 }]);
  });

  it("answers an unknown tool and invalid arguments with error results, before the policy is asked", async () => {
    const { controller, calculator } = setup({ allowedTools: ["calculator"] });
    await expect(
      controller.handle({ callId: "call_2", toolName: "delete_everything", arguments: {} }),
    ).resolves.toEqual({ callId: "call_2", content: "unknown tool: delete_everything", isError: true });
    const invalid = asResult(await controller.handle(add("call_3", { a: 40, b: "2" })));
    expect(invalid).toEqual({
      callId: "call_3",
      content: "invalid arguments for calculator: /b: must be integer",
      isError: true,
    });
    expect(calculator.runs).toEqual([]);
  });

  it("deny returns the reason as an error result and never runs the handler", async () => {
    const { controller, calculator } = setup({
      deniedTools: ["calculator"],
      reasons: { calculator: "arithmetic is done by hand here" },
    });
    await expect(controller.handle(add("call_4"))).resolves.toEqual({
      callId: "call_4",
      content: "denied by policy: arithmetic is done by hand here (rule: deny:calculator)",
      isError: true,
    });
    expect(calculator.runs).toEqual([]);
  });

  it("denies an unlisted tool by default", async () => {
    const { controller, reader } = setup({ allowedTools: ["calculator"] });
    const result = asResult(
      await controller.handle({ callId: "c", toolName: "read_file", arguments: { path: "a" } }),
    );
    expect(result).toEqual({
      callId: "c",
      content: "denied by policy: no policy statement allows tool read_file (default deny)",
      isError: true,
    });
    expect(reader.runs).toEqual([]);
  });

  it("ask returns an ApprovalRequest and never runs the handler", async () => {
    let clock = 5_000;
    const approvals = new PendingApprovals({ now: () => clock });
    const { controller, calculator } = setup({ confirmationRequiredTools: ["calculator"] }, { approvals });
    const request = asApproval(await controller.handle(add("call_5")));
    expect(request).toMatchObject({
      kind: "approval-request",
      call: add("call_5"),
      reason: "tool calculator needs a person's approval",
      ruleIds: ["ask:calculator"],
      policyFingerprint: "unbundled",
      createdAt: 5_000,
      expiresAt: 5_000 + 60 * 60 * 1000,
      argumentsHash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
    });
    expect(request.approvalId).toMatch(/^apr_[A-Za-z0-9_-]{22}$/);
    expect(calculator.runs).toEqual([]);
    clock += 10;
    const other = asApproval(await controller.handle(add("call_6")));
    expect(other.approvalId).not.toBe(request.approvalId);
    expect(other.argumentsHash).toBe(request.argumentsHash);
  });

  it("uses a custom approval TTL", async () => {
    const approvals = new PendingApprovals({ ttlMs: 30_000, now: () => 0 });
    const { controller } = setup({ confirmationRequiredTools: ["calculator"] }, { approvals });
    const request = asApproval(await controller.handle(add("c")));
    expect(request.expiresAt).toBe(30_000);
  });

  it("onAsk: deny turns an ask decision into an error result saying nobody can approve", async () => {
    const { controller, calculator } = setup(
      { confirmationRequiredTools: ["calculator"] },
      { onAsk: "deny" },
    );
    const result = asResult(await controller.handle(add("call_7")));
    expect(result.callId).toBe("call_7");
    expect(result.isError).toBe(true);
    expect(result.content).toBe(
      "needs a person's approval (tool calculator needs a person's approval), and none is available here (onAsk: deny)",
    );
    expect(await controller.approvals.list()).toEqual([]);
    expect(calculator.runs).toEqual([]);
  });

  it("passes the caller's context to the policy and the handler", async () => {
    const seen: unknown[] = [];
    const tool = defineTool(
      { name: "calculator", description: "d", inputSchema: CALCULATOR_SCHEMA },
      (_a, ctx) => {
        seen.push(ctx);
        return "ok";
      },
    );
    const { controller } = setup(
      {
        allowedTools: ["calculator"],
        rules: [
          {
            id: "no-prod",
            tools: ["calculator"],
            decision: "deny",
            context: { env: { equals: "prod" } },
            reason: "not in production",
          },
        ],
      },
      {},
      [tool],
    );
    expect(asResult(await controller.handle(add("c1"), { env: "dev" })).content).toBe("ok");
    expect(asResult(await controller.handle(add("c2"), { env: "prod" })).content).toBe(
      "denied by policy: not in production (rule: no-prod)",
    );
    expect(seen).toEqual([{ env: "dev" }]);
  });
});

describe("ToolController error boundary", () => {
  function failing(handler: () => string | Promise<string>) {
    const tool = defineTool(
      { name: "calculator", description: "d", inputSchema: CALCULATOR_SCHEMA },
      handler,
    );
    return setup({ allowedTools: ["calculator"] }, { audit: new MemoryAuditSink() }, [tool]);
  }

  it("a ToolFailure becomes an error result with the callId", async () => {
    const { controller } = failing(() => {
      throw new ToolFailure("the sum does not fit in 53 bits");
    });
    await expect(controller.handle(add("call_8"))).resolves.toEqual({
      callId: "call_8",
      content: "the sum does not fit in 53 bits",
      isError: true,
    });
  });

  it("any other error is re-thrown as the same object, never a result, and recorded", async () => {
    const defect = new TypeError("cannot read properties of undefined");
    const audit = new MemoryAuditSink();
    const tool = defineTool(
      { name: "calculator", description: "d", inputSchema: CALCULATOR_SCHEMA },
      async () => {
        throw defect;
      },
    );
    const { controller } = setup({ allowedTools: ["calculator"] }, { audit }, [tool]);
    const outcome = await controller.handle(add("call_9")).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    expect(outcome).toEqual({ error: defect });
    expect((outcome as { error: unknown }).error).toBe(defect);
    expect(audit.events.at(-1)).toMatchObject({
      type: "tool.defect",
      callId: "call_9",
      reason: "TypeError: cannot read properties of undefined",
    });
  });

  it("the handler gets frozen arguments: a change is a defect, and the audit log keeps them as called", async () => {
    const audit = new MemoryAuditSink();
    const tool = defineTool(
      { name: "calculator", description: "d", inputSchema: CALCULATOR_SCHEMA },
      (args: { a: number; b: number }) => {
        args.a = 0;
        return String(args.a + args.b);
      },
    );
    const { controller } = setup({ allowedTools: ["calculator"] }, { audit }, [
      tool as ToolDefinition<never>,
    ]);
    await expect(controller.handle(add("call_11"))).rejects.toThrow(TypeError);
    const received = audit.events.find((e) => e.type === "call.received");
    expect(received?.arguments).toEqual({ a: 40, b: 2 });
    expect(audit.events.at(-1)).toMatchObject({ type: "tool.defect", callId: "call_11" });
    await expect(
      audit.record({ ...(received as AuditEvent), arguments: { f: () => 1 } }),
    ).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it("a thrown non-Error value is re-thrown unchanged too", async () => {
    const { controller } = failing(() => {
      throw "plain string";
    });
    await expect(controller.handle(add("c"))).rejects.toBe("plain string");
  });

  it("a handler returning a non-string is a defect", async () => {
    const audit = new MemoryAuditSink();
    const tool = defineTool(
      { name: "calculator", description: "d", inputSchema: CALCULATOR_SCHEMA },
      (() => 42) as unknown as () => string,
    );
    const { controller } = setup({ allowedTools: ["calculator"] }, { audit }, [tool]);
    await expect(controller.handle(add("c"))).rejects.toMatchObject({
      name: "ToolgateError",
      code: "invalid-handler-result",
      message: "handler of calculator returned number; a handler must return a string",
    });
    expect(audit.events.at(-1)).toMatchObject({
      type: "tool.defect",
      callId: "c",
      reason: "ToolgateError: handler of calculator returned number; a handler must return a string",
    });
  });
});

describe("ToolController.resolve", () => {
  async function asked(extra: Omit<ToolControllerOptions, "runtime" | "policy"> = {}) {
    const context = setup({ confirmationRequiredTools: ["calculator"], allowedTools: ["read_file"] }, extra);
    const request = asApproval(await context.controller.handle(add("call_10")));
    return { ...context, request };
  }

  it("an approval executes once; a second resolve of the same id is already-used", async () => {
    const { controller, calculator, request } = await asked();
    await expect(
      controller.resolve({ approvalId: request.approvalId, approved: true, approver: "oncall" }),
    ).resolves.toEqual({ callId: "call_10", content: "42", isError: false });
    expect(calculator.runs).toHaveLength(1);
    const again = await controller
      .resolve({ approvalId: request.approvalId, approved: true })
      .catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ApprovalError);
    expect(again).toMatchObject({ code: "already-used", approvalId: request.approvalId });
    await expect(
      controller.resolve({ approvalId: request.approvalId, approved: false }),
    ).rejects.toMatchObject({
      code: "already-used",
    });
    expect(calculator.runs).toHaveLength(1);
  });

  it("an unknown approval id is not-found", async () => {
    const { controller } = await asked();
    await expect(controller.resolve({ approvalId: "apr_guessed", approved: true })).rejects.toMatchObject({
      name: "ApprovalError",
      code: "not-found",
    });
  });

  it("an expired approval is refused and nothing runs", async () => {
    let clock = 1_000;
    const approvals = new PendingApprovals({ now: () => clock, ttlMs: 60_000 });
    const audit = new MemoryAuditSink();
    const { controller, calculator, request } = await asked({ approvals, audit });
    clock += 60_000;
    await expect(
      controller.resolve({ approvalId: request.approvalId, approved: true }),
    ).rejects.toMatchObject({
      code: "expired",
    });
    expect(calculator.runs).toEqual([]);
    expect(audit.events.at(-1)).toMatchObject({ type: "approval.expired", approvalId: request.approvalId });
  });

  it("a rejection by the person is an error result with the callId and the person's reason", async () => {
    const { controller, calculator, request } = await asked();
    await expect(
      controller.resolve({
        approvalId: request.approvalId,
        approved: false,
        approver: "oncall",
        reason: "not during the freeze",
      }),
    ).resolves.toEqual({
      callId: "call_10",
      content: "the person rejected this call by oncall: not during the freeze",
      isError: true,
    });
    expect(calculator.runs).toEqual([]);
    await expect(
      controller.resolve({ approvalId: request.approvalId, approved: true }),
    ).rejects.toMatchObject({
      code: "already-used",
    });
  });

  it("a rejection recorded in the store wins over a later approve", async () => {
    const { controller, calculator, request } = await asked();
    await controller.approvals.store.respond(
      { approvalId: request.approvalId, approved: false, approver: "security", reason: "no" },
      Date.now(),
    );
    const result = await controller.resolve({
      approvalId: request.approvalId,
      approved: true,
      approver: "dev",
    });
    expect(result).toEqual({
      callId: "call_10",
      content: "the person rejected this call by security: no",
      isError: true,
    });
    expect(calculator.runs).toEqual([]);
  });

  it("a deny in the current policy overrides a pending approval", async () => {
    const { controller, calculator, request } = await asked();
    controller.reload({
      policy: new ToolPolicy({ deniedTools: ["calculator"], reasons: { calculator: "frozen" } }),
    });
    await expect(controller.resolve({ approvalId: request.approvalId, approved: true })).resolves.toEqual({
      callId: "call_10",
      content: "denied by policy: frozen (rule: deny:calculator)",
      isError: true,
    });
    expect(calculator.runs).toEqual([]);
  });

  it("an approval under a policy that now allows or still asks executes", async () => {
    const { controller, calculator, request } = await asked();
    const second = asApproval(await controller.handle(add("call_11", { a: 1, b: 1 })));
    controller.reload({ policy: new ToolPolicy({ allowedTools: ["calculator"] }) });
    expect(
      asResult(await controller.resolve({ approvalId: request.approvalId, approved: true })).content,
    ).toBe("42");
    controller.reload({ policy: new ToolPolicy({ confirmationRequiredTools: ["calculator"] }) });
    expect(
      asResult(await controller.resolve({ approvalId: second.approvalId, approved: true })).content,
    ).toBe("2");
    expect(calculator.runs).toHaveLength(2);
  });

  it("re-validates against the current registry: arguments that are invalid now run nothing", async () => {
    const { controller, calculator, request } = await asked();
    const strictRuns: unknown[] = [];
    const stricter = defineTool(
      {
        name: "calculator",
        description: "Add two small integers.",
        inputSchema: {
          ...CALCULATOR_SCHEMA,
          properties: { a: { type: "integer", maximum: 10 }, b: { type: "integer" } },
        },
      },
      (args: { a: number; b: number }) => {
        strictRuns.push(args);
        return "ran";
      },
    );
    controller.reload({ policy: controller.policy, runtime: new ToolRuntime(new ToolRegistry([stricter])) });
    await expect(controller.resolve({ approvalId: request.approvalId, approved: true })).resolves.toEqual({
      callId: "call_10",
      content: "invalid arguments for calculator: /a: must be <= 10",
      isError: true,
    });
    expect(calculator.runs).toEqual([]);
    expect(strictRuns).toEqual([]);
  });

  it("a tool removed from the registry after the request is an unknown tool", async () => {
    const { controller, calculator, reader, request } = await asked();
    controller.reload({
      policy: controller.policy,
      runtime: new ToolRuntime(new ToolRegistry([reader.definition])),
    });
    await expect(controller.resolve({ approvalId: request.approvalId, approved: true })).resolves.toEqual({
      callId: "call_10",
      content: "unknown tool: calculator",
      isError: true,
    });
    expect(calculator.runs).toEqual([]);
  });

  it("the caller changing its arguments object after the request changes nothing: the approved ones run", async () => {
    const { controller, calculator } = setup({ confirmationRequiredTools: ["calculator"] });
    const args = { a: 1, b: 2 };
    const request = asApproval(await controller.handle(add("call_12", args)));
    args.a = 1000;
    expect(request.call.arguments).toEqual({ a: 1, b: 2 });
    const result = asResult(await controller.resolve({ approvalId: request.approvalId, approved: true }));
    expect(result).toEqual({ callId: "call_12", content: "3", isError: false });
    expect(calculator.runs).toEqual([{ a: 1, b: 2 }]);
  });

  it("keeps the context given to handle for the re-check", async () => {
    const { controller, calculator } = setup({
      confirmationRequiredTools: ["calculator"],
      rules: [
        {
          id: "prod-never",
          tools: ["calculator"],
          decision: "deny",
          context: { env: { equals: "prod" } },
          reason: "never in prod",
        },
      ],
    });
    const request = asApproval(await controller.handle(add("c", { a: 1, b: 2 }), { env: "staging" }));
    expect(request.context).toEqual({ env: "staging" });
    controller.reload({
      policy: new ToolPolicy({
        confirmationRequiredTools: ["calculator"],
        rules: [
          {
            id: "staging-frozen",
            tools: ["calculator"],
            decision: "deny",
            context: { env: { equals: "staging" } },
            reason: "staging is frozen",
          },
        ],
      }),
    });
    expect(
      asResult(await controller.resolve({ approvalId: request.approvalId, approved: true })).content,
    ).toBe("denied by policy: staging is frozen (rule: staging-frozen)");
    expect(calculator.runs).toEqual([]);
  });
});

describe("ToolController.reload while a call is in flight", () => {
  /** A promise the test releases by hand. */
  function gate() {
    let open = () => {};
    const opened = new Promise<void>((done) => {
      open = done;
    });
    return { opened, open };
  }

  it("a reload that lands while the approval is being taken still decides the re-check", async () => {
    const taking = gate();
    class GatedStore extends MemoryApprovalStore {
      override async take(approvalId: string, now: number) {
        await taking.opened;
        return super.take(approvalId, now);
      }
    }
    const approvals = new PendingApprovals({ store: new GatedStore() });
    const { controller, calculator } = setup({ confirmationRequiredTools: ["calculator"] }, { approvals });
    const request = asApproval(await controller.handle(add("call_13")));
    const pending = controller.resolve({ approvalId: request.approvalId, approved: true });
    controller.reload({
      policy: new ToolPolicy({ deniedTools: ["calculator"], reasons: { calculator: "frozen" } }),
    });
    taking.open();
    await expect(pending).resolves.toEqual({
      callId: "call_13",
      content: "denied by policy: frozen (rule: deny:calculator)",
      isError: true,
    });
    expect(calculator.runs).toEqual([]);
  });

  it("a reload that lands while the call is being recorded decides the call", async () => {
    const recording = gate();
    class GatedSink extends MemoryAuditSink {
      override async record(event: AuditEvent): Promise<void> {
        if (event.type === "call.received") await recording.opened;
        return super.record(event);
      }
    }
    const { controller, calculator } = setup({ allowedTools: ["calculator"] }, { audit: new GatedSink() });
    const pending = controller.handle(add("call_14"));
    controller.reload({
      policy: new ToolPolicy({ deniedTools: ["calculator"], reasons: { calculator: "frozen" } }),
    });
    recording.open();
    await expect(pending).resolves.toEqual({
      callId: "call_14",
      content: "denied by policy: frozen (rule: deny:calculator)",
      isError: true,
    });
    expect(calculator.runs).toEqual([]);
  });
});

describe("ToolController.visibleSpecs", () => {
  it("leaves out denied and unlisted tools", () => {
    const shell = defineTool(
      { name: "run_shell", description: "Run.", inputSchema: { type: "object", properties: {} } },
      () => "",
    );
    const wipe = defineTool(
      { name: "wipe", description: "Wipe.", inputSchema: { type: "object" } },
      () => "",
    );
    const { controller } = setup(
      { allowedTools: ["calculator"], confirmationRequiredTools: ["read_file"], deniedTools: ["wipe"] },
      {},
      [countedCalculator().definition, countedPathTool().definition, shell, wipe],
    );
    expect(controller.visibleSpecs().map((s) => s.name)).toEqual(["calculator", "read_file"]);
    controller.reload({ policy: new ToolPolicy({ allowedTools: ["run_shell"] }) });
    expect(controller.visibleSpecs().map((s) => s.name)).toEqual(["run_shell"]);
  });
});

describe("audit", () => {
  it("records every step in order", async () => {
    const audit = new MemoryAuditSink();
    const { controller } = setup(
      { allowedTools: ["calculator"], confirmationRequiredTools: ["read_file"] },
      { audit },
    );
    await controller.handle(add("call_1"));
    await controller.handle({ callId: "call_2", toolName: "nope", arguments: {} });
    const request = asApproval(
      await controller.handle({ callId: "call_3", toolName: "read_file", arguments: { path: "a.txt" } }),
    );
    await controller.resolve({ approvalId: request.approvalId, approved: true, approver: "oncall" });
    expect(audit.events.map((e) => [e.type, e.callId])).toEqual([
      ["call.received", "call_1"],
      ["policy.decided", "call_1"],
      ["tool.executed", "call_1"],
      ["call.received", "call_2"],
      ["call.rejected", "call_2"],
      ["call.received", "call_3"],
      ["policy.decided", "call_3"],
      ["approval.requested", "call_3"],
      ["approval.granted", "call_3"],
      ["policy.decided", "call_3"],
      ["tool.executed", "call_3"],
    ]);
    expect(audit.events[0]).toMatchObject({
      toolName: "calculator",
      fingerprint: "unbundled",
      arguments: { a: 40, b: 2 },
      time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    expect(audit.events[1]).toMatchObject({ decision: "allow", ruleIds: ["allow:calculator"] });
    expect(audit.events[7]).toMatchObject({ approvalId: request.approvalId, decision: "ask" });
    expect(audit.events[8]).toMatchObject({ approvalId: request.approvalId, approver: "oncall" });
  });

  it("records a rejection and a failure", async () => {
    const audit = new MemoryAuditSink();
    const tool = defineTool({ name: "calculator", description: "d", inputSchema: CALCULATOR_SCHEMA }, () => {
      throw new ToolFailure("nope");
    });
    const { controller } = setup(
      { allowedTools: ["calculator"], confirmationRequiredTools: ["read_file"] },
      { audit },
      [tool, countedPathTool().definition],
    );
    await controller.handle(add("c1"));
    const request = asApproval(
      await controller.handle({ callId: "c2", toolName: "read_file", arguments: { path: "a" } }),
    );
    await controller.resolve({ approvalId: request.approvalId, approved: false, reason: "no" });
    expect(audit.events.map((e) => e.type)).toEqual([
      "call.received",
      "policy.decided",
      "tool.failed",
      "call.received",
      "policy.decided",
      "approval.requested",
      "approval.rejected",
    ]);
    expect(audit.events[2]).toMatchObject({ reason: "nope" });
    expect(audit.events[6]).toMatchObject({ reason: "no" });
  });

  it("redacts the named argument fields, or all of them, without touching what the handler gets", async () => {
    const audit = new MemoryAuditSink();
    const { controller, reader } = setup(
      { allowedTools: ["calculator", "read_file"] },
      {
        audit,
        redact: new Map<string, "all" | readonly string[]>([
          ["read_file", ["path"]],
          ["calculator", "all"],
        ]),
      },
    );
    await controller.handle({ callId: "c1", toolName: "read_file", arguments: { path: "secret.txt" } });
    await controller.handle(add("c2"));
    const received = audit.events.filter((e) => e.type === "call.received");
    expect(received[0]?.arguments).toEqual({ path: "[redacted]" });
    expect(received[1]).not.toHaveProperty("arguments");
    expect(JSON.stringify(audit.events)).not.toContain("secret.txt");
    expect(reader.runs).toEqual([{ path: "secret.txt" }]);
  });

  it("a redacted path through an array redacts the field in every element, at any depth", () => {
    const args = {
      files: [
        { name: "a", content: "s1" },
        { name: "b", content: "s2", parts: [{ content: "s3" }] },
      ],
      nested: [[{ content: "s4" }]],
      keep: "visible",
    };
    expect(redactArguments(args, ["files.content", "nested.content", "files.parts.content"])).toEqual({
      files: [
        { name: "a", content: "[redacted]" },
        { name: "b", content: "[redacted]", parts: [{ content: "[redacted]" }] },
      ],
      nested: [[{ content: "[redacted]" }]],
      keep: "visible",
    });
    // A whole array field is replaced; the caller's value is never changed.
    expect(redactArguments(args, ["files"])).toEqual({ ...args, files: "[redacted]" });
    expect(args.files[0]?.content).toBe("s1");
  });
});

describe("fail closed", () => {
  it("a store that cannot put makes handle reject; nothing runs", async () => {
    const approvals = new PendingApprovals({ store: new FailingApprovalStore("put") });
    const { controller, calculator } = setup({ confirmationRequiredTools: ["calculator"] }, { approvals });
    await expect(controller.handle(add("c"))).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(calculator.runs).toEqual([]);
  });

  it("a store that cannot take makes resolve reject; nothing runs", async () => {
    const approvals = new PendingApprovals({ store: new FailingApprovalStore("take") });
    const { controller, calculator } = setup({ confirmationRequiredTools: ["calculator"] }, { approvals });
    const request = asApproval(await controller.handle(add("c")));
    await expect(
      controller.resolve({ approvalId: request.approvalId, approved: true }),
    ).rejects.toMatchObject({
      name: "StoreUnavailableError",
      code: "store-unavailable",
      message: "failing-store: connection refused",
    });
    expect(calculator.runs).toEqual([]);
  });

  it("an audit sink that rejects makes the call fail closed", async () => {
    const { controller, calculator } = setup(
      { allowedTools: ["calculator"] },
      { audit: new FailingAuditSink() },
    );
    await expect(controller.handle(add("c"))).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(calculator.runs).toEqual([]);
  });

  it.each(["policy.decided", "approval.granted"] as const)(
    "an audit sink that fails on %s stops the asked call before it runs",
    async (type) => {
      const audit = new FailingAuditSink([type]);
      const { controller, calculator } = setup({ confirmationRequiredTools: ["calculator"] }, { audit });
      const outcome = await controller.handle(add("c")).catch((e: unknown) => e);
      if (type === "policy.decided") {
        expect(outcome).toBeInstanceOf(StoreUnavailableError);
      } else {
        const request = outcome as ApprovalRequest;
        await expect(
          controller.resolve({ approvalId: request.approvalId, approved: true }),
        ).rejects.toBeInstanceOf(StoreUnavailableError);
      }
      expect(calculator.runs).toEqual([]);
    },
  );
});
