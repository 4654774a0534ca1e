import {
  defineTool,
  type PreparedToolCall,
  type ToolDefinition,
  ToolFailure,
  ToolRegistry,
  type ToolResult,
  ToolRuntime,
} from "toolgate";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CALCULATOR_SCHEMA, countedCalculator } from "./core-fixtures.js";

function runtimeWith(...definitions: ToolDefinition<never>[]): ToolRuntime {
  return new ToolRuntime(new ToolRegistry(definitions));
}

function prepared(runtime: ToolRuntime, args: unknown, toolName = "calculator"): PreparedToolCall {
  const outcome = runtime.prepare({ callId: "call_1", toolName, arguments: args });
  if (!("kind" in outcome)) throw new Error(`not prepared: ${outcome.content}`);
  return outcome;
}

function rejected(runtime: ToolRuntime, args: unknown, toolName = "calculator"): ToolResult {
  const outcome = runtime.prepare({ callId: "call_7", toolName, arguments: args });
  if ("kind" in outcome) throw new Error("expected an error result, the call was prepared");
  return outcome;
}

describe("ToolRuntime.prepare", () => {
  it("prepares a known tool with a deeply frozen copy of the valid arguments, which the call holds too", () => {
    const runtime = runtimeWith(countedCalculator().definition);
    const args = { a: 40, b: 2 };
    const call = prepared(runtime, args);
    expect(call.kind).toBe("prepared");
    expect(call.arguments).toEqual(args);
    expect(call.arguments).not.toBe(args);
    expect(Object.isFrozen(call.arguments)).toBe(true);
    expect(call.call.arguments).toBe(call.arguments);
    expect(Object.isFrozen(call.call)).toBe(true);
    expect(call.call.callId).toBe("call_1");
    args.a = 1;
    expect(call.arguments).toEqual({ a: 40, b: 2 });
  });

  it("turns an unknown tool into an error result with the callId", () => {
    const runtime = runtimeWith(countedCalculator().definition);
    expect(rejected(runtime, {}, "delete_everything")).toEqual({
      callId: "call_7",
      content: "unknown tool: delete_everything",
      isError: true,
    });
  });

  it("names each failing argument path, including missing and additional properties", () => {
    const runtime = runtimeWith(countedCalculator().definition);
    expect(rejected(runtime, { a: 1, b: 2.5 })).toEqual({
      callId: "call_7",
      content: "invalid arguments for calculator: /b: must be integer",
      isError: true,
    });
    const missing = rejected(runtime, { a: "x" }).content;
    expect(missing).toContain("/a: must be integer");
    expect(missing).toContain("/b: is required");
    expect(rejected(runtime, { a: 1, b: 2, c: 3 }).content).toBe(
      "invalid arguments for calculator: /c: is not allowed",
    );
    expect(rejected(runtime, "a=1").content).toBe(
      "invalid arguments for calculator: (arguments): must be object",
    );
  });

  it("names nested paths as JSON Pointers", () => {
    const tool = defineTool(
      {
        name: "nested",
        description: "Nested arguments.",
        inputSchema: {
          type: "object",
          properties: {
            options: {
              type: "object",
              properties: { "a/b": { type: "string" }, depth: { type: "integer", minimum: 0 } },
              additionalProperties: false,
            },
          },
        },
      },
      () => "ok",
    );
    const runtime = runtimeWith(tool);
    const content = rejected(runtime, { options: { "a/b": 1, depth: -1, extra: true } }, "nested").content;
    expect(content).toContain("/options/a~1b: must be string");
    expect(content).toContain("/options/depth: must be >= 0");
    expect(content).toContain("/options/extra: is not allowed");
  });
});

describe("ajv strictness of defineTool validators", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("never coerces a string to an integer", () => {
    const runtime = runtimeWith(countedCalculator().definition);
    expect(rejected(runtime, { a: 40, b: "2" }).content).toBe(
      "invalid arguments for calculator: /b: must be integer",
    );
    expect(rejected(runtime, { a: [40], b: 2 }).content).toBe(
      "invalid arguments for calculator: /a: must be integer",
    );
  });

  it("never fills in defaults", () => {
    const tool = defineTool(
      {
        name: "greet",
        description: "Greets.",
        inputSchema: {
          type: "object",
          properties: { name: { type: "string", default: "world" } },
          additionalProperties: false,
        },
      },
      () => "hi",
    );
    const args = {};
    const call = prepared(runtimeWith(tool), args, "greet");
    expect(call.arguments).toEqual({});
    expect(args).toEqual({});
  });

  it("refuses a remote $ref without fetching anything", () => {
    const fetchSpy = vi.fn(async () => new Response("{}"));
    vi.stubGlobal("fetch", fetchSpy);
    expect(() =>
      defineTool(
        {
          name: "remote",
          description: "Has a remote reference.",
          inputSchema: { type: "object", properties: { a: { $ref: "https://example.com/a.schema.json" } } },
        },
        () => "",
      ),
    ).toThrow(/invalid input schema: can't resolve reference https:\/\/example\.com\/a\.schema\.json/);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("refuses unknown keywords and a non-object input schema", () => {
    expect(() =>
      defineTool(
        { name: "typo", description: "d", inputSchema: { type: "object", requierd: ["a"] } },
        () => "",
      ),
    ).toThrow(/unknown keyword: "requierd"/);
    expect(() =>
      defineTool({ name: "str", description: "d", inputSchema: { type: "string" } }, () => ""),
    ).toThrow("tool str: inputSchema must have type: object");
  });

  it("checks draft-07 schemas as well as 2020-12", () => {
    const tool = defineTool(
      {
        name: "old",
        description: "A draft-07 schema.",
        inputSchema: { ...CALCULATOR_SCHEMA, $schema: "http://json-schema.org/draft-07/schema#" },
      },
      () => "",
    );
    expect(rejected(runtimeWith(tool), { a: 1, b: "2" }, "old").content).toBe(
      "invalid arguments for old: /b: must be integer",
    );
  });
});

describe("ToolRuntime.execute", () => {
  it("runs the handler with the validated arguments and the context", async () => {
    const seen: unknown[] = [];
    const tool = defineTool(
      { name: "calculator", description: "d", inputSchema: CALCULATOR_SCHEMA },
      (args, ctx) => {
        seen.push(args, ctx);
        return "42";
      },
    );
    const runtime = runtimeWith(tool);
    const result = await runtime.execute(prepared(runtime, { a: 40, b: 2 }), { env: "ci" });
    expect(result).toEqual({ callId: "call_1", content: "42", isError: false });
    expect(seen).toEqual([{ a: 40, b: 2 }, { env: "ci" }]);
  });

  it("turns a ToolFailure into an error result the model can read", async () => {
    const tool = defineTool(
      { name: "calculator", description: "d", inputSchema: CALCULATOR_SCHEMA },
      async () => {
        throw new ToolFailure("overflow: the sum is too large");
      },
    );
    const runtime = runtimeWith(tool);
    await expect(runtime.execute(prepared(runtime, { a: 1, b: 2 }))).resolves.toEqual({
      callId: "call_1",
      content: "overflow: the sum is too large",
      isError: true,
    });
  });

  it("re-throws any other error unchanged", async () => {
    const defect = new RangeError("index out of bounds");
    const tool = defineTool({ name: "calculator", description: "d", inputSchema: CALCULATOR_SCHEMA }, () => {
      throw defect;
    });
    const runtime = runtimeWith(tool);
    await expect(runtime.execute(prepared(runtime, { a: 1, b: 2 }))).rejects.toBe(defect);
  });

  it("treats a handler that returns a non-string as a defect", async () => {
    const sum = (({ a, b }: { a: number; b: number }) => a + b) as unknown as () => string;
    const tool = defineTool({ name: "calculator", description: "d", inputSchema: CALCULATOR_SCHEMA }, sum);
    const runtime = runtimeWith(tool);
    await expect(runtime.execute(prepared(runtime, { a: 1, b: 2 }))).rejects.toThrow(
      "handler of calculator returned number; a handler must return a string",
    );
  });
});
