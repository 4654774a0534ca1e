/**
 * The controller's error boundary: `handle` and `resolve` never throw synchronously, every defect is recorded
 * as `tool.defect` with a safe description, and the original value is re-thrown unchanged. Also: the re-check
 * of an approval reads the policy after its last await, and the handler timeout.
 */
import {
  ApprovalError,
  type AuditEvent,
  defineTool,
  InvalidInputError,
  InvalidOptionError,
  MemoryAuditSink,
  type ToolCall,
  ToolController,
  type ToolControllerOptions,
  ToolPolicy,
  type ToolPolicyOptions,
  ToolRegistry,
  ToolRuntime,
} from "toolgate";
import { describe, expect, it } from "vitest";
import { describeThrown } from "../../src/runtime/plain-data.js";
import { asApproval, asResult, CALCULATOR_SCHEMA, countedCalculator } from "./core-fixtures.js";

const add = (callId = "c"): ToolCall => ({ callId, toolName: "calculator", arguments: { a: 1, b: 2 } });

function throwing(
  value: () => unknown,
  policy: ToolPolicyOptions = { allowedTools: ["calculator"] },
  extra: Omit<ToolControllerOptions, "runtime" | "policy"> = {},
) {
  const audit = new MemoryAuditSink();
  const tool = defineTool({ name: "calculator", description: "d", inputSchema: CALCULATOR_SCHEMA }, () => {
    throw value();
  });
  const controller = new ToolController({
    runtime: new ToolRuntime(new ToolRegistry([tool])),
    policy: new ToolPolicy(policy),
    audit,
    ...extra,
  });
  return { controller, audit };
}

/** An object that throws on every proxy trap, including the ones `instanceof` and `String` use. */
function hostileProxy(): object {
  return new Proxy(
    {},
    new Proxy(
      {},
      {
        get() {
          return () => {
            throw new Error("trap");
          };
        },
      },
    ),
  );
}

const errorWithThrowingGetters = () => {
  const error = new Error("hidden");
  Object.defineProperty(error, "message", {
    get() {
      throw new Error("message getter");
    },
  });
  Object.defineProperty(error, "name", {
    get() {
      throw new Error("name getter");
    },
  });
  return error;
};

describe("hostile thrown values", () => {
  const proxy = hostileProxy();
  const nullProto = Object.assign(Object.create(null) as object, { code: "E_NULL" });
  const symbol = Symbol("thrown");
  const getters = errorWithThrowingGetters();
  const cases: [string, unknown, string][] = [
    ["an object without a prototype", nullProto, 'an object: {"code":"E_NULL"}'],
    ["an Error whose message and name getters throw", getters, "Error (unreadable message)"],
    ["a proxy that throws on every trap", proxy, "an unreadable object"],
    ["a symbol", symbol, "Symbol(thrown)"],
    ["null", null, "null"],
    ["undefined", undefined, "undefined"],
  ];

  it.each(cases)(
    "%s: recorded as tool.defect and re-thrown unchanged, on allow and after approval",
    async (_n, value, reason) => {
      const allowed = throwing(() => value);
      const outcome = await allowed.controller.handle(add()).then(
        () => ({ threw: false, value: undefined as unknown }),
        (error: unknown) => ({ threw: true, value: error }),
      );
      expect(outcome.threw).toBe(true);
      // Compared by identity in plain JS: the test framework itself would read properties of a hostile value.
      expect(outcome.value === value).toBe(true);
      expect(allowed.audit.events.map((e) => e.type)).toEqual([
        "call.received",
        "policy.decided",
        "tool.defect",
      ]);
      expect(allowed.audit.events.at(-1)).toMatchObject({ type: "tool.defect", callId: "c", reason });

      const asked = throwing(() => value, { confirmationRequiredTools: ["calculator"] });
      const request = asApproval(await asked.controller.handle(add()));
      const rejected = await asked.controller
        .resolve({ approvalId: request.approvalId, approved: true })
        .then(
          () => ({ value: "resolved" as unknown }),
          (error: unknown) => ({ value: error }),
        );
      expect(rejected.value === value).toBe(true);
      expect(asked.audit.events.at(-1)).toMatchObject({
        type: "tool.defect",
        approvalId: request.approvalId,
        reason,
      });
      expect(asked.audit.events.filter((e) => e.type === "tool.defect")).toHaveLength(1);
    },
  );

  it("without an audit sink, a hostile value is re-thrown unchanged as well", async () => {
    for (const [, value] of cases) {
      const tool = defineTool(
        { name: "calculator", description: "d", inputSchema: CALCULATOR_SCHEMA },
        () => {
          throw value;
        },
      );
      const controller = new ToolController({
        runtime: new ToolRuntime(new ToolRegistry([tool])),
        policy: new ToolPolicy({ allowedTools: ["calculator"] }),
      });
      // Wrapped: resolving a promise with a hostile proxy would read its `then`.
      const caught = await controller.handle(add()).then(
        () => ({ error: "resolved" as unknown }),
        (error: unknown) => ({ error }),
      );
      expect(caught.error === value).toBe(true);
    }
  });

  it("describes any value without throwing", () => {
    expect(describeThrown(new TypeError("boom"))).toBe("TypeError: boom");
    expect(describeThrown("plain")).toBe("plain");
    expect(describeThrown(42n)).toBe("42");
    expect(describeThrown({ message: "like an error" })).toBe("like an error");
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(describeThrown(cyclic)).toBe("an unreadable object");
    expect(describeThrown("x".repeat(1000))).toHaveLength(501);
  });

  it("never calls anything found on the thrown value: no toJSON, toString, valueOf or getter", () => {
    const called: string[] = [];
    const methods = {
      toJSON: () => called.push("toJSON"),
      toString: () => called.push("toString"),
      valueOf: () => called.push("valueOf"),
      code: "E_X",
    };
    expect(describeThrown(methods)).toBe("an unreadable object");
    const getter = Object.defineProperty({}, "message", {
      enumerable: true,
      get: () => called.push("message getter"),
    });
    expect(describeThrown(getter)).toBe("an unreadable object");
    const error = Object.defineProperty(new Error("m"), "name", { get: () => called.push("name getter") });
    expect(describeThrown(error)).toBe("Error: m");
    // Own data members named like methods are data.
    expect(describeThrown({ toJSON: "x", toString: 1, code: "E" })).toBe(
      'an object: {"toJSON":"x","toString":1,"code":"E"}',
    );
    expect(called).toEqual([]);
  });

  it("a defect outside the handler (a validator that throws) is recorded and re-thrown too", async () => {
    const audit = new MemoryAuditSink();
    const defect = new RangeError("validator bug");
    const controller = new ToolController({
      runtime: new ToolRuntime(
        new ToolRegistry([
          {
            spec: { name: "calculator", description: "d", inputSchema: CALCULATOR_SCHEMA },
            validateArguments: () => {
              throw defect;
            },
            handler: () => "never",
          },
        ]),
      ),
      policy: new ToolPolicy({ allowedTools: ["calculator"] }),
      audit,
    });
    await expect(controller.handle(add())).rejects.toBe(defect);
    expect(audit.events.at(-1)).toMatchObject({ type: "tool.defect", reason: "RangeError: validator bug" });
  });

  it("an audit sink that fails while recording the defect does not replace the original value", async () => {
    const defect = new Error("handler bug");
    class FailsOnDefect extends MemoryAuditSink {
      override async record(event: AuditEvent): Promise<void> {
        if (event.type === "tool.defect") throw new Error("disk full");
        return super.record(event);
      }
    }
    const { controller } = throwing(
      () => defect,
      { allowedTools: ["calculator"] },
      { audit: new FailsOnDefect() },
    );
    await expect(controller.handle(add())).rejects.toBe(defect);
  });
});

describe("never a synchronous throw", () => {
  const { controller } = throwing(() => new Error("x"));
  const unreadable = new Proxy({} as ToolCall, {
    get() {
      throw new Error("unreadable call");
    },
  });

  it.each([
    ["a call whose fields throw when read", () => controller.handle(unreadable)],
    [
      "a call without a callId",
      () => controller.handle({ toolName: "calculator", arguments: {} } as unknown as ToolCall),
    ],
    ["a null call", () => controller.handle(null as unknown as ToolCall)],
    ["a response without an approvalId", () => controller.resolve({ approved: true } as never)],
    ["a null response", () => controller.resolve(null as never)],
    ["a response whose fields throw when read", () => controller.resolve(unreadable as never)],
  ])("%s: a rejected promise with InvalidInputError", async (_name, run) => {
    let promise: Promise<unknown> | undefined;
    expect(() => {
      promise = run();
    }).not.toThrow();
    await expect(promise).rejects.toBeInstanceOf(InvalidInputError);
  });

  it("without an audit sink too", async () => {
    const bare = new ToolController({
      runtime: new ToolRuntime(new ToolRegistry([countedCalculator().definition])),
      policy: new ToolPolicy({ allowedTools: ["calculator"] }),
    });
    let promise: Promise<unknown> | undefined;
    expect(() => {
      promise = bare.handle(unreadable);
    }).not.toThrow();
    await expect(promise).rejects.toMatchObject({ code: "invalid-call" });
    expect(
      asResult(await bare.handle({ callId: "c", toolName: 7 as unknown as string, arguments: {} })),
    ).toEqual({
      callId: "c",
      content: "call c has no tool name; send the name of one of the offered tools",
      isError: true,
    });
  });
});

describe("refused approvals are audited", () => {
  it("a second resolve of the same id is already-used, and the refusal is recorded", async () => {
    const audit = new MemoryAuditSink();
    const calculator = countedCalculator();
    const controller = new ToolController({
      runtime: new ToolRuntime(new ToolRegistry([calculator.definition])),
      policy: new ToolPolicy({ confirmationRequiredTools: ["calculator"] }),
      audit,
    });
    const request = asApproval(await controller.handle(add("call_1")));
    await controller.resolve({ approvalId: request.approvalId, approved: true });
    const again = await controller
      .resolve({ approvalId: request.approvalId, approved: true })
      .catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ApprovalError);
    expect(again).toMatchObject({ code: "already-used" });
    expect(audit.events.at(-1)).toMatchObject({
      type: "call.rejected",
      callId: "call_1",
      toolName: "calculator",
      approvalId: request.approvalId,
      reason: expect.stringContaining("was already used"),
    });
    expect(calculator.runs).toHaveLength(1);
  });
});

describe("the re-check reads the policy after its last await", () => {
  /** A promise the test releases by hand. */
  function gate() {
    let open = () => {};
    const opened = new Promise<void>((done) => {
      open = done;
    });
    return { opened, open };
  }

  it("a reload that lands while approval.granted is being written decides the re-check", async () => {
    const writing = gate();
    const reached = gate();
    class GatedSink extends MemoryAuditSink {
      override async record(event: AuditEvent): Promise<void> {
        if (event.type === "approval.granted") {
          reached.open();
          await writing.opened;
        }
        return super.record(event);
      }
    }
    const audit = new GatedSink();
    const calculator = countedCalculator();
    const controller = new ToolController({
      runtime: new ToolRuntime(new ToolRegistry([calculator.definition])),
      policy: new ToolPolicy({ confirmationRequiredTools: ["calculator"] }),
      audit,
    });
    const request = asApproval(await controller.handle(add("call_2")));
    const pending = controller.resolve({ approvalId: request.approvalId, approved: true });
    await reached.opened;
    controller.reload({
      policy: new ToolPolicy({ deniedTools: ["calculator"], reasons: { calculator: "frozen" } }),
    });
    writing.open();
    expect(await pending).toEqual({
      callId: "call_2",
      content: "denied by policy: frozen (rule: deny:calculator)",
      isError: true,
    });
    expect(calculator.runs).toEqual([]);
    expect(audit.events.at(-1)).toMatchObject({ type: "policy.decided", decision: "deny" });
  });
});

describe("handlerTimeoutMs", () => {
  function slow(ms: number, extra: Omit<ToolControllerOptions, "runtime" | "policy"> = {}) {
    const audit = new MemoryAuditSink();
    let finished = false;
    const tool = defineTool(
      { name: "calculator", description: "d", inputSchema: CALCULATOR_SCHEMA },
      () =>
        new Promise<string>((done) =>
          setTimeout(() => {
            finished = true;
            done("late");
          }, ms),
        ),
    );
    const controller = new ToolController({
      runtime: new ToolRuntime(new ToolRegistry([tool])),
      policy: new ToolPolicy({ allowedTools: ["calculator"] }),
      audit,
      ...extra,
    });
    return { controller, audit, finished: () => finished };
  }

  it("a handler that does not settle in time gives an error result, recorded as tool.failed", async () => {
    const { controller, audit } = slow(1_000, { handlerTimeoutMs: 20 });
    const content =
      "the handler of calculator did not finish within 20 ms (handlerTimeoutMs); its result will be ignored, " +
      "and it may still be running";
    expect(await controller.handle(add())).toEqual({ callId: "c", content, isError: true });
    expect(audit.events.at(-1)).toMatchObject({ type: "tool.failed", reason: content });
  });

  it("a handler that settles in time is not affected; without the option nothing times out", async () => {
    const quick = slow(5, { handlerTimeoutMs: 2_000 });
    expect(asResult(await quick.controller.handle(add())).content).toBe("late");
    const none = slow(50);
    expect(asResult(await none.controller.handle(add())).content).toBe("late");
  });

  it("a late defect after the timeout is ignored, never an unhandled rejection", async () => {
    const tool = defineTool(
      { name: "calculator", description: "d", inputSchema: CALCULATOR_SCHEMA },
      () => new Promise<string>((_done, fail) => setTimeout(() => fail(new Error("late defect")), 30)),
    );
    const controller = new ToolController({
      runtime: new ToolRuntime(new ToolRegistry([tool])),
      policy: new ToolPolicy({ allowedTools: ["calculator"] }),
      handlerTimeoutMs: 5,
    });
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", listener);
    try {
      expect(asResult(await controller.handle(add())).isError).toBe(true);
      await new Promise((done) => setTimeout(done, 80));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", listener);
    }
  });

  it("refuses a timeout that is not a positive whole number of milliseconds", () => {
    for (const handlerTimeoutMs of [0, -5, 1.5, 2 ** 31]) {
      expect(() => slow(1, { handlerTimeoutMs })).toThrow(InvalidOptionError);
    }
  });
});
