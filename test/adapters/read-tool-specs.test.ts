import fc from "fast-check";
import {
  readAnthropicToolSpecs,
  readMcpToolSpecs,
  readOpenAIToolSpecs,
  toAnthropicTools,
  toMcpListToolsResult,
  toOpenAIResponsesTools,
  toOpenAITools,
} from "toolgate/adapters";
import type { ToolSpec } from "toolgate/runtime";
import { describe, expect, it } from "vitest";

const weather: ToolSpec = {
  name: "get_weather",
  description: "Current weather for a city.",
  inputSchema: {
    type: "object",
    properties: { city: { type: "string", maxLength: 100 } },
    required: ["city"],
    additionalProperties: false,
  },
};

describe("reading provider tool definitions back into specs", () => {
  it("reads what the to* adapters write, for every provider shape", () => {
    const expected = [{ index: 0, ...weather, notes: [] }];
    expect(readMcpToolSpecs(toMcpListToolsResult([weather])).specs).toEqual(expected);
    expect(readOpenAIToolSpecs(toOpenAITools([weather])).specs).toEqual(expected);
    expect(readOpenAIToolSpecs(toOpenAIResponsesTools([weather])).specs).toEqual(expected);
    expect(readAnthropicToolSpecs(toAnthropicTools([weather])).specs).toEqual(expected);
  });

  it("round-trips any list of specs through every provider shape unchanged (property)", () => {
    const name = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,20}$/);
    const schema = fc.record({
      type: fc.constant("object"),
      properties: fc.dictionary(name, fc.record({ type: fc.constantFrom("string", "integer", "boolean") })),
    });
    const spec = fc.record({ name, description: fc.string({ minLength: 1 }), inputSchema: schema });
    fc.assert(
      fc.property(fc.array(spec, { maxLength: 5 }), (specs) => {
        const expected = specs.map((s, index) => ({ index, ...s, notes: [] }));
        for (const read of [
          readMcpToolSpecs(toMcpListToolsResult(specs)),
          readOpenAIToolSpecs(toOpenAITools(specs)),
          readAnthropicToolSpecs({ tools: toAnthropicTools(specs) }),
        ]) {
          expect(read.specs).toEqual(expected);
          expect(read.skipped).toEqual([]);
          expect(read.problems).toEqual([]);
        }
      }),
    );
  });

  it("accepts the MCP result alone, inside a JSON-RPC response, or as a bare array", () => {
    const tools = [{ name: "a", description: "A.", inputSchema: { type: "object" } }];
    for (const payload of [{ tools }, { jsonrpc: "2.0", id: 1, result: { tools } }, tools]) {
      expect(readMcpToolSpecs(payload).specs.map((s) => s.name)).toEqual(["a"]);
    }
  });

  it("keeps an absent description absent, and never invents a name", () => {
    const read = readMcpToolSpecs({
      tools: [
        { name: "no_description", inputSchema: { type: "object" } },
        { description: "no name", inputSchema: { type: "object" } },
        { name: "no_schema", description: "x" },
        "not a tool",
      ],
    });
    expect(read.specs).toEqual([
      { index: 0, name: "no_description", inputSchema: { type: "object" }, notes: [] },
    ]);
    expect(read.skipped).toEqual([
      { index: 1, reason: "tools[1] has no name (got undefined)" },
      { index: 2, name: "no_schema", reason: "it has no inputSchema" },
      { index: 3, reason: "tools[3] is a string, not an object" },
    ]);
  });

  it("keeps an MCP tool's effect annotations as hints, counting only values that are exactly true", () => {
    const read = readMcpToolSpecs({
      tools: [
        {
          name: "a",
          inputSchema: { type: "object" },
          annotations: { readOnlyHint: true, openWorldHint: true },
        },
        {
          name: "b",
          inputSchema: { type: "object" },
          annotations: { destructiveHint: true, readOnlyHint: "yes" },
        },
        {
          name: "c",
          inputSchema: { type: "object" },
          annotations: { readOnlyHint: false, destructiveHint: false },
        },
      ],
    });
    expect(read.specs.map((s) => [s.name, s.hints])).toEqual([
      ["a", ["read-only", "open-world"]],
      ["b", ["destructive"]],
      ["c", undefined],
    ]);
  });

  it("skips OpenAI tools that are not function tools, with the reason", () => {
    const read = readOpenAIToolSpecs({
      model: "gpt-5",
      tools: [
        { type: "web_search" },
        { type: "custom", name: "grammar_tool" },
        { type: "function", function: { name: "ping", description: "Ping." } },
      ],
    });
    expect(read.skipped).toEqual([
      {
        index: 0,
        reason:
          'it is a tool of type "web_search", not a function tool; toolgate gates function calls that the application runs',
      },
      {
        index: 1,
        name: "grammar_tool",
        reason:
          'it is a tool of type "custom", not a function tool; toolgate gates function calls that the application runs',
      },
    ]);
    // No parameters: OpenAI reads that as no arguments, and the schema says exactly that (nothing looser).
    expect(read.specs).toEqual([
      {
        index: 2,
        name: "ping",
        description: "Ping.",
        inputSchema: { type: "object", properties: {}, additionalProperties: false },
        notes: ["it has no parameters, which OpenAI reads as no arguments: its input_schema allows only {}"],
      },
    ]);
  });

  it("skips Anthropic's own tool types, whose schema Anthropic defines", () => {
    const read = readAnthropicToolSpecs([
      { type: "bash_20250124", name: "bash" },
      { type: "custom", name: "lookup", description: "Look up.", input_schema: { type: "object" } },
    ]);
    expect(read.specs.map((s) => s.name)).toEqual(["lookup"]);
    expect(read.skipped).toEqual([
      {
        index: 0,
        name: "bash",
        reason:
          'it is Anthropic\'s own tool type "bash_20250124", whose input schema Anthropic defines; write its spec by hand',
      },
    ]);
  });

  it("reports a payload of the wrong shape as a problem, and reads nothing", () => {
    expect(readOpenAIToolSpecs({ messages: [] })).toEqual({
      specs: [],
      skipped: [],
      problems: [
        "expected an OpenAI tools array or a request body with tools, got an object without a tools array; no tools were read",
      ],
    });
    expect(readMcpToolSpecs("tools").problems).toHaveLength(1);
  });

  it("copies schemas into fresh data and refuses what JSON cannot carry", () => {
    const schema = { type: "object", properties: { a: { type: "string" } } };
    const read = readAnthropicToolSpecs([{ name: "t", description: "T.", input_schema: schema }]);
    const copy = read.specs[0]?.inputSchema as typeof schema;
    expect(copy).toEqual(schema);
    expect(copy).not.toBe(schema);
    expect(copy.properties).not.toBe(schema.properties);
    const cyclic: Record<string, unknown> = { type: "object" };
    cyclic.self = cyclic;
    const bad = readAnthropicToolSpecs([
      { name: "cyclic", description: "C.", input_schema: cyclic },
      { name: "array", description: "A.", input_schema: [] },
    ]);
    expect(bad.specs).toEqual([]);
    expect(bad.skipped.map((s) => s.reason)).toEqual([
      "its input_schema is not JSON data: it has a cycle at /self, which JSON cannot carry",
      "its input_schema is an array, not a JSON Schema object",
    ]);
  });
});
