/**
 * The controller's input boundary: arguments and context become own, plain, deeply frozen JSON data before
 * validation, and the validator, the policy, the approval request and the handler all see that one value.
 */
import {
  type ApprovalRequest,
  type ArgumentValidator,
  type AuditEvent,
  compileArgumentValidator,
  defineTool,
  InvalidOptionError,
  MemoryApprovalStore,
  MemoryAuditSink,
  PendingApprovals,
  type ToolCall,
  ToolController,
  type ToolControllerOptions,
  type ToolDefinition,
  ToolPolicy,
  type ToolPolicyOptions,
  ToolRegistry,
  ToolRuntime,
} from "toolgate";
import { describe, expect, it } from "vitest";
import { copyPlainData } from "../../src/runtime/plain-data.js";
import { asApproval, asResult, countedCalculator, countedPathTool } from "./core-fixtures.js";

const SSH_KEY = "/home/alice/.ssh/id_rsa";

/** Reads files, except under /home (deny), and asks for anything in production. */
const READ_POLICY: ToolPolicyOptions = {
  allowedTools: ["read_file"],
  rules: [
    {
      id: "no-home",
      tools: ["read_file"],
      decision: "deny",
      when: { path: { glob: "/home/**" } },
      reason: "home directories are private",
    },
    {
      id: "no-prod",
      tools: ["read_file"],
      decision: "deny",
      context: { environment: { equals: "production" } },
      reason: "nothing is read in production",
    },
  ],
};

function setup(
  policy: ToolPolicyOptions = READ_POLICY,
  extra: Omit<ToolControllerOptions, "runtime" | "policy"> = {},
  definitions?: ToolDefinition<never>[],
) {
  const reader = countedPathTool();
  const calculator = countedCalculator();
  const controller = new ToolController({
    runtime: new ToolRuntime(new ToolRegistry(definitions ?? [reader.definition, calculator.definition])),
    policy: new ToolPolicy(policy),
    ...extra,
  });
  return { controller, reader, calculator };
}

const read = (args: unknown, callId = "c1"): ToolCall => ({ callId, toolName: "read_file", arguments: args });

/** A promise the test releases by hand. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((done) => {
    open = done;
  });
  return { opened, open };
}

describe("arguments that hide data from some readers never reach a handler", () => {
  const hidden: [string, () => unknown][] = [
    // Object.assign sets the prototype from an own "__proto__" key: the path is inherited, not own.
    [
      "an inherited path from Object.assign({}, JSON.parse(…__proto__…))",
      () => Object.assign({}, JSON.parse(`{"__proto__":{"path":"${SSH_KEY}"}}`)),
    ],
    ["an own __proto__ key from JSON.parse", () => JSON.parse(`{"__proto__":{"path":"${SSH_KEY}"}}`)],
    ["Object.create({ path })", () => Object.create({ path: SSH_KEY })],
    [
      "a nested own __proto__ key",
      () => ({ path: "a.txt", extra: JSON.parse(`{"__proto__":{"path":"${SSH_KEY}"}}`) }),
    ],
  ];

  it.each(hidden)("%s: refused with an error result, never allowed, never run", async (_name, make) => {
    for (const audit of [undefined, new MemoryAuditSink()]) {
      const { controller, reader } = setup(READ_POLICY, audit === undefined ? {} : { audit });
      const result = asResult(await controller.handle(read(make())));
      expect(result.isError).toBe(true);
      expect(result.callId).toBe("c1");
      expect(result.content).toMatch(/^invalid arguments for read_file: found /);
      expect(reader.runs).toEqual([]);
      if (audit !== undefined) {
        expect(audit.events.map((e) => e.type)).toEqual(["call.received", "call.rejected"]);
        expect(JSON.stringify(audit.events)).not.toContain(SSH_KEY);
      }
    }
  });

  it("names what is wrong and where", () => {
    expect(copyPlainData(Object.create({ path: SSH_KEY }))).toEqual({
      ok: false,
      reason: "an object with a non-plain prototype, not plain data at the top level",
      tooLarge: false,
    });
    expect(copyPlainData(JSON.parse('{"a":[1,{"__proto__":{}}]}'))).toMatchObject({
      reason: 'the key "__proto__", which is refused (prototype pollution) at /a/1/__proto__',
    });
  });

  it("an inherited environment: production in the context cannot skip the production deny", async () => {
    const { controller, reader } = setup();
    const inherited = Object.create({ environment: "production" }) as Record<string, unknown>;
    const result = asResult(await controller.handle(read({ path: "a.txt" }), inherited));
    expect(result).toMatchObject({ callId: "c1", isError: true });
    expect(result.content).toMatch(/^invalid context for read_file: found .*not plain data/);
    const assigned = Object.assign({}, JSON.parse('{"__proto__":{"environment":"production"}}'));
    expect(asResult(await controller.handle(read({ path: "a.txt" }), assigned)).isError).toBe(true);
    expect(reader.runs).toEqual([]);
    // The same fact as own data denies as it should.
    expect(asResult(await controller.handle(read({ path: "a.txt" }), { environment: "production" }))).toEqual(
      {
        callId: "c1",
        content: "denied by policy: nothing is read in production (rule: no-prod)",
        isError: true,
      },
    );
  });

  it("a getter is refused without being called", async () => {
    const { controller, reader } = setup();
    let reads = 0;
    const args = {
      get path() {
        reads++;
        return reads === 1 ? "a.txt" : SSH_KEY;
      },
    };
    const result = asResult(await controller.handle(read(args)));
    expect(result.content).toBe(
      "invalid arguments for read_file: found a getter or setter at /path; send a JSON object of plain data",
    );
    expect(reads).toBe(0);
    expect(reader.runs).toEqual([]);
  });

  class Box {
    constructor(readonly path: string) {}
  }
  const cyclic: Record<string, unknown> = { path: "a.txt" };
  cyclic.self = cyclic;
  let deep: unknown = "x";
  for (let i = 0; i < 101; i++) deep = [deep];

  it.each([
    ["a function", { path: "a", f: () => 1 }, "a function, which JSON cannot carry at /f"],
    ["a symbol", { path: "a", s: Symbol("s") }, "a symbol, which JSON cannot carry at /s"],
    ["a bigint", { path: "a", n: 1n }, "a bigint, which JSON cannot carry at /n"],
    ["NaN", { path: "a", n: Number.NaN }, "the number NaN, which JSON cannot carry at /n"],
    [
      "Infinity",
      { path: "a", n: [1, Number.POSITIVE_INFINITY] },
      "the number Infinity, which JSON cannot carry at /n/1",
    ],
    ["a Date", { path: "a", d: new Date(0) }, "an instance of Date, not plain data at /d"],
    ["a Map", { path: "a", m: new Map() }, "an instance of Map, not plain data at /m"],
    ["a class instance", new Box(SSH_KEY), "an instance of Box, not plain data at the top level"],
    [
      "undefined in an array",
      { path: "a", l: [1, undefined] },
      "undefined in an array, which JSON cannot carry at /l/1",
    ],
    // biome-ignore lint/suspicious/noSparseArray: the hole is the point
    ["a hole in an array", { path: "a", l: [1, , 3] }, "a hole in an array, which JSON cannot carry at /l/1"],
    ["a cycle", cyclic, "a cycle or nesting deeper than 100 levels at /self/self"],
    [
      "nesting deeper than 100 levels",
      { path: "a", deep },
      "a cycle or nesting deeper than 100 levels at /deep/0/0",
    ],
    ["undefined arguments", undefined, "undefined, which JSON cannot carry at the top level"],
  ])("%s is refused with an error result", async (_name, args, where) => {
    const { controller, reader } = setup();
    const result = asResult(await controller.handle(read(args)));
    expect(result.isError).toBe(true);
    expect(
      result.content.startsWith(`invalid arguments for read_file: found ${where.split(" at ")[0]}`),
    ).toBe(true);
    if (!["a cycle", "nesting deeper than 100 levels"].includes(_name)) {
      expect(result.content).toContain(where);
    }
    expect(reader.runs).toEqual([]);
  });

  it("a proxy that throws on every trap gives an error result, never an exception", async () => {
    const { controller, reader } = setup();
    const hostile = new Proxy(
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
    const result = asResult(await controller.handle(read(hostile)));
    expect(result.content).toMatch(
      /^invalid arguments for read_file: found a value that could not be read \(Error: trap\)/,
    );
    expect(reader.runs).toEqual([]);
  });

  it("an array element is read once: a getter there runs once, and its value is what everyone sees", async () => {
    const seen: unknown[] = [];
    const tool = defineTool(
      {
        name: "read_file",
        description: "Read.",
        inputSchema: { type: "object", properties: { paths: { type: "array", items: { type: "string" } } } },
      },
      (a: { paths: string[] }) => {
        seen.push(a.paths);
        return "ok";
      },
    );
    const { controller } = setup(
      {
        allowedTools: ["read_file"],
        rules: [
          {
            id: "no-home",
            tools: ["read_file"],
            decision: "deny",
            when: { paths: { any: { glob: "/home/**" } } },
            reason: "private",
          },
        ],
      },
      {},
      [tool],
    );
    let reads = 0;
    const paths = ["a.txt"];
    Object.defineProperty(paths, 0, {
      get: () => (reads++ === 0 ? SSH_KEY : "a.txt"),
      enumerable: true,
    });
    expect(asResult(await controller.handle(read({ paths }))).content).toBe(
      "denied by policy: private (rule: no-home)",
    );
    expect(reads).toBe(1);
    expect(seen).toEqual([]);
  });

  it("properties whose value is undefined, symbol keys and non-enumerable properties are not data", async () => {
    const { controller, reader } = setup();
    const args: Record<string | symbol, unknown> = { path: "a.txt", extra: undefined, [Symbol("s")]: 1 };
    Object.defineProperty(args, "hidden", { value: SSH_KEY, enumerable: false });
    expect(asResult(await controller.handle(read(args))).content).toBe("contents of a.txt");
    expect(reader.runs).toEqual([{ path: "a.txt" }]);
    expect(Object.keys(reader.runs[0] as object)).toEqual(["path"]);
  });
});

describe("one value for the validator, the policy and the handler", () => {
  it("they see the same frozen copy, not the caller's object", async () => {
    const seen: unknown[] = [];
    const inner = compileArgumentValidator({
      type: "object",
      properties: { path: { type: "string" }, opts: { type: "object" } },
      required: ["path"],
    });
    const validateArguments: ArgumentValidator = (args) => {
      seen.push(args);
      return inner(args);
    };
    const handled: unknown[] = [];
    const tool: ToolDefinition<never> = {
      spec: { name: "read_file", description: "Read.", inputSchema: { type: "object" } },
      validateArguments,
      handler: (args: never, context) => {
        handled.push(args, context);
        return "ok";
      },
    };
    const { controller } = setup(READ_POLICY, { audit: new MemoryAuditSink() }, [tool]);
    const args = { path: "a.txt", opts: { deep: [1, { x: "y" }] } };
    const context = { team: "core" };
    expect(asResult(await controller.handle(read(args), context)).content).toBe("ok");
    expect(seen).toHaveLength(1);
    expect(handled[0]).toBe(seen[0]);
    expect(handled[0]).not.toBe(args);
    expect(handled[0]).toEqual(args);
    expect(handled[1]).toEqual(context);
    expect(handled[1]).not.toBe(context);
    const copy = handled[0] as typeof args;
    expect(Object.isFrozen(copy)).toBe(true);
    expect(Object.isFrozen(copy.opts.deep)).toBe(true);
    expect(Object.isFrozen(copy.opts.deep[1])).toBe(true);
    expect(Object.isFrozen(handled[1])).toBe(true);
  });

  it("a change the caller makes while the call waits on the audit log changes nothing", async () => {
    const recording = gate();
    class GatedSink extends MemoryAuditSink {
      override async record(event: AuditEvent): Promise<void> {
        if (event.type === "call.received") await recording.opened;
        return super.record(event);
      }
    }
    const { controller, reader } = setup(READ_POLICY, { audit: new GatedSink() });
    const args = { path: "a.txt" };
    const context: Record<string, string> = { environment: "development" };
    const pending = controller.handle(read(args), context);
    args.path = SSH_KEY;
    context.environment = "staging";
    recording.open();
    expect(asResult(await pending).content).toBe("contents of a.txt");
    expect(reader.runs).toEqual([{ path: "a.txt" }]);
  });
});

describe("an approval binds the exact arguments", () => {
  const ASK: ToolPolicyOptions = { confirmationRequiredTools: ["read_file"] };

  it("the handler receives the approved arguments, whatever the caller did to its object meanwhile", async () => {
    const { controller, reader } = setup(ASK);
    const args = { path: "a.txt" };
    const request = asApproval(await controller.handle(read(args)));
    args.path = SSH_KEY;
    expect(request.call.arguments).toEqual({ path: "a.txt" });
    expect(() => {
      (request.call.arguments as { path: string }).path = SSH_KEY;
    }).toThrow(TypeError);
    expect(() => {
      (request as { call: unknown }).call = read({ path: SSH_KEY });
    }).toThrow(TypeError);
    expect(await controller.resolve({ approvalId: request.approvalId, approved: true })).toEqual({
      callId: "c1",
      content: "contents of a.txt",
      isError: false,
    });
    expect(reader.runs).toEqual([{ path: "a.txt" }]);
  });

  it("a change made while the request is being stored changes nothing", async () => {
    const putting = gate();
    class GatedStore extends MemoryApprovalStore {
      override async put(request: ApprovalRequest): Promise<void> {
        await putting.opened;
        return super.put(request);
      }
    }
    const approvals = new PendingApprovals({ store: new GatedStore() });
    const { controller, calculator } = setup({ confirmationRequiredTools: ["calculator"] }, { approvals });
    const args = { a: 1, b: 2 };
    const pending = controller.handle({ callId: "c", toolName: "calculator", arguments: args });
    await Promise.resolve();
    args.a = 1000;
    putting.open();
    const request = asApproval(await pending);
    args.b = 1000;
    expect(
      asResult(await controller.resolve({ approvalId: request.approvalId, approved: true })).content,
    ).toBe("3");
    expect(calculator.runs).toEqual([{ a: 1, b: 2 }]);
  });
});

describe("resolve(response, { context })", () => {
  const POLICY: ToolPolicyOptions = {
    confirmationRequiredTools: ["read_file"],
    rules: [
      {
        id: "no-prod",
        tools: ["read_file"],
        decision: "deny",
        context: { environment: { equals: "production" } },
        reason: "nothing is read in production",
      },
    ],
  };
  const contextValidator = compileArgumentValidator({
    type: "object",
    properties: { environment: { enum: ["development", "staging", "production"] } },
    additionalProperties: false,
  });

  async function asked(extra: Omit<ToolControllerOptions, "runtime" | "policy"> = {}) {
    const s = setup(POLICY, { contextValidator, ...extra });
    const request = asApproval(
      await s.controller.handle(read({ path: "a.txt" }), { environment: "staging" }),
    );
    return { ...s, request };
  }

  it("the stricter of the decisions with the stored and with the current context holds", async () => {
    const { controller, reader, request } = await asked();
    expect(
      await controller.resolve(
        { approvalId: request.approvalId, approved: true },
        { context: { environment: "production" } },
      ),
    ).toEqual({
      callId: "c1",
      content: "denied by policy: nothing is read in production (rule: no-prod)",
      isError: true,
    });
    expect(reader.runs).toEqual([]);
  });

  it("the stored context still decides when the current one is harmless", async () => {
    const s = setup({ confirmationRequiredTools: ["read_file"] }, { contextValidator });
    const request = asApproval(
      await s.controller.handle(read({ path: "a.txt" }), { environment: "production" }),
    );
    expect(request.context).toEqual({ environment: "production" });
    s.controller.reload({ policy: new ToolPolicy(POLICY) });
    const result = await s.controller.resolve(
      { approvalId: request.approvalId, approved: true },
      { context: { environment: "development" } },
    );
    expect(result).toEqual({
      callId: "c1",
      content: "denied by policy: nothing is read in production (rule: no-prod)",
      isError: true,
    });
    expect(s.reader.runs).toEqual([]);
  });

  it("allows with a current context that is fine, and the handler gets the stored (approved) context", async () => {
    const seen: unknown[] = [];
    const tool = defineTool(
      {
        name: "read_file",
        description: "Read.",
        inputSchema: { type: "object", properties: { path: { type: "string" } } },
      },
      (_a, context) => {
        seen.push(context);
        return "ok";
      },
    );
    const controller = new ToolController({
      runtime: new ToolRuntime(new ToolRegistry([tool])),
      policy: new ToolPolicy(POLICY),
      contextValidator,
    });
    const request = asApproval(await controller.handle(read({ path: "a.txt" }), { environment: "staging" }));
    expect(
      asResult(
        await controller.resolve(
          { approvalId: request.approvalId, approved: true },
          { context: { environment: "development" } },
        ),
      ).content,
    ).toBe("ok");
    expect(seen).toEqual([{ environment: "staging" }]);
  });

  it.each([
    [
      "fails the context schema",
      { environment: "prod" },
      "invalid current context for read_file: /environment: must be equal to one of the allowed values; nothing ran",
    ],
    [
      "is not plain data",
      Object.create({ environment: "production" }),
      "invalid current context for read_file: found an object with a non-plain prototype, not plain data at the top level; pass the context as a JSON object of plain data; nothing ran",
    ],
    [
      "is not an object",
      ["production"],
      "invalid current context for read_file: the context must be an object of facts; nothing ran",
    ],
  ])("a current context that %s is an error result; nothing runs", async (_name, context, content) => {
    const audit = new MemoryAuditSink();
    const { controller, reader, request } = await asked({ audit });
    expect(await controller.resolve({ approvalId: request.approvalId, approved: true }, { context })).toEqual(
      { callId: "c1", content, isError: true },
    );
    expect(reader.runs).toEqual([]);
    expect(audit.events.at(-1)).toMatchObject({ type: "call.rejected", reason: content });
  });

  it("a current context changed by the caller during the take changes nothing", async () => {
    const taking = gate();
    class GatedStore extends MemoryApprovalStore {
      override async take(approvalId: string, now: number) {
        await taking.opened;
        return super.take(approvalId, now);
      }
    }
    const { controller, reader, request } = await asked({
      approvals: new PendingApprovals({ store: new GatedStore() }),
    });
    const current: Record<string, string> = { environment: "production" };
    const pending = controller.resolve(
      { approvalId: request.approvalId, approved: true },
      { context: current },
    );
    current.environment = "development";
    taking.open();
    expect(asResult(await pending).content).toContain("no-prod");
    expect(reader.runs).toEqual([]);
  });
});

describe("the argument size ceiling", () => {
  it("prepare refuses arguments over 1 MiB by default, naming the limit and how to raise it", async () => {
    const { controller, reader } = setup();
    const big = { path: "x".repeat(1024 * 1024) };
    expect(asResult(await controller.handle(read(big)))).toEqual({
      callId: "c1",
      content:
        "the arguments for read_file are larger than 1048576 bytes, the limit (maxArgumentBytes); " +
        "send smaller arguments, or raise maxArgumentBytes in the controller's options",
      isError: true,
    });
    const runtime = new ToolRuntime(new ToolRegistry([countedPathTool().definition]));
    expect(runtime.prepare(read(big))).toMatchObject({ isError: true });
    expect(runtime.prepare(read(big), { maxArgumentBytes: 2 * 1024 * 1024 })).toMatchObject({
      kind: "prepared",
    });
    expect(reader.runs).toEqual([]);
  });

  it("counts compact JSON with strings in UTF-8, and is configurable", async () => {
    // {"path":"é…"}: 2 braces + 7 for "path": + 2 quotes + 2 bytes per é.
    const args = { path: "é".repeat(10) };
    expect(copyPlainData(args)).toMatchObject({ ok: true, bytes: 2 + 7 + 2 + 20 });
    expect(copyPlainData({ k: "😀" })).toMatchObject({ bytes: 2 + 4 + 2 + 4 });
    expect(copyPlainData([1, 22, true, null, -0.5])).toMatchObject({ bytes: "[1,22,true,null,-0.5]".length });
    const exact = 2 + 7 + 2 + 20;
    const fits = setup(READ_POLICY, { maxArgumentBytes: exact });
    expect(asResult(await fits.controller.handle(read(args))).isError).toBe(false);
    const over = setup(READ_POLICY, { maxArgumentBytes: exact - 1 });
    expect(asResult(await over.controller.handle(read(args))).content).toMatch(
      /larger than 30 bytes, the limit \(maxArgumentBytes\)/,
    );
    expect(over.reader.runs).toEqual([]);
  });

  it("stops walking at the ceiling: a value that shares one array a billion times over is refused fast", async () => {
    let shared: unknown = ["x"];
    for (let i = 0; i < 30; i++) shared = [shared, shared];
    const { controller } = setup();
    const started = performance.now();
    expect(asResult(await controller.handle(read({ path: "a", shared }))).content).toMatch(
      /larger than 1048576/,
    );
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("bounds the context too", async () => {
    const { controller } = setup(READ_POLICY, { maxArgumentBytes: 64 });
    expect(asResult(await controller.handle(read({ path: "a" }), { note: "n".repeat(100) })).content).toBe(
      "invalid context for read_file: the context is larger than 64 bytes (maxArgumentBytes)",
    );
  });

  it("refuses a ceiling that is not a positive whole number", () => {
    for (const maxArgumentBytes of [0, -1, 1.5, Number.NaN]) {
      expect(() => setup(READ_POLICY, { maxArgumentBytes })).toThrow(InvalidOptionError);
    }
  });
});

describe("waitForDecision(id, { context })", () => {
  it("re-checks with the current context as resolve does", async () => {
    const reader = countedPathTool();
    const controller = new ToolController({
      runtime: new ToolRuntime(new ToolRegistry([reader.definition])),
      policy: new ToolPolicy({
        confirmationRequiredTools: ["read_file"],
        rules: [
          {
            id: "no-prod",
            tools: ["read_file"],
            decision: "deny",
            context: { environment: { equals: "production" } },
            reason: "nothing is read in production",
          },
        ],
      }),
    });
    const request = asApproval(await controller.handle(read({ path: "a.txt" }), { environment: "staging" }));
    await controller.approvals.store.respond({ approvalId: request.approvalId, approved: true }, Date.now());
    expect(
      await controller.waitForDecision(request.approvalId, {
        pollMs: 5,
        context: { environment: "production" },
      }),
    ).toMatchObject({ isError: true, content: expect.stringContaining("no-prod") });
    expect(reader.runs).toEqual([]);
  });
});
