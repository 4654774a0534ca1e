import {
  InvalidToolSpecError,
  toAnthropicTools,
  toMcpListToolsResult,
  toMcpTools,
  toOpenAIResponsesTools,
  toOpenAITools,
} from "toolgate/adapters";
import type { ToolSpec } from "toolgate/runtime";
import { describe, expect, it } from "vitest";
import { loadFixture } from "./load-fixture.js";

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

const specs = deepFreeze(loadFixture("tool-specs.json") as ToolSpec[]);
const [readFile, listDir] = specs as [ToolSpec, ToolSpec];

/** Stands in for a controller whose policy denies list_dir outright (agent-loop.test.ts uses a real one). */
const controller = { visibleSpecs: () => specs.filter((spec) => spec.name !== "list_dir") };

describe("tool specs for providers", () => {
  it("offers only the controller's visible specs: a denied tool is never shown", () => {
    const source = controller;
    expect(toOpenAITools(source).map((tool) => tool.function.name)).toEqual(["read_file"]);
    expect(toOpenAIResponsesTools(source).map((tool) => tool.name)).toEqual(["read_file"]);
    expect(toAnthropicTools(source).map((tool) => tool.name)).toEqual(["read_file"]);
    expect(toMcpTools(source).map((tool) => tool.name)).toEqual(["read_file"]);
  });

  it("writes each provider's published tool shape", () => {
    expect(toOpenAITools([readFile])).toEqual([
      {
        type: "function",
        function: { name: "read_file", description: readFile.description, parameters: readFile.inputSchema },
      },
    ]);
    expect(toOpenAIResponsesTools([readFile])).toEqual([
      {
        type: "function",
        name: "read_file",
        description: readFile.description,
        parameters: readFile.inputSchema,
        strict: false,
      },
    ]);
    expect(toAnthropicTools([readFile])).toEqual([
      { name: "read_file", description: readFile.description, input_schema: readFile.inputSchema },
    ]);
    expect(toMcpListToolsResult([readFile, listDir])).toEqual({
      tools: [
        { name: "read_file", description: readFile.description, inputSchema: readFile.inputSchema },
        { name: "list_dir", description: listDir.description, inputSchema: listDir.inputSchema },
      ],
    });
  });

  it("deep-copies schemas: the output is mutable and shares nothing with frozen specs", () => {
    const [tool] = toOpenAITools([readFile]);
    const parameters = tool?.function.parameters as { properties: { path: { maxLength: number } } };
    expect(Object.isFrozen(parameters)).toBe(false);
    parameters.properties.path.maxLength = 1;
    expect(readFile.inputSchema).toEqual((specs as ToolSpec[])[0]?.inputSchema);
    expect((readFile.inputSchema.properties as { path: { maxLength: number } }).path.maxLength).toBe(4096);
    const [again] = toAnthropicTools([readFile]);
    expect(again?.input_schema).not.toBe(readFile.inputSchema);
    expect(again?.input_schema.properties).not.toBe(readFile.inputSchema.properties);
  });

  it("keeps a schema property named __proto__ as an own property without touching prototypes", () => {
    const schema = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"}}}',
    ) as ToolSpec["inputSchema"];
    const [tool] = toMcpTools([{ name: "odd", description: "odd", inputSchema: schema }]);
    const properties = tool?.inputSchema.properties as object;
    expect(Object.keys(properties)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
  });

  it("throws InvalidToolSpecError for a schema that is not JSON data", () => {
    const cyclic: Record<string, unknown> = { type: "object" };
    cyclic.self = cyclic;
    expect(() => toOpenAITools([{ name: "loop", description: "d", inputSchema: cyclic }])).toThrow(
      InvalidToolSpecError,
    );
    expect(() => toOpenAITools([{ name: "loop", description: "d", inputSchema: cyclic }])).toThrow(
      'the input schema of tool "loop" is not JSON data: it has a cycle at /self, which JSON cannot carry',
    );
  });
});
