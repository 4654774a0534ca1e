import {
  fromAnthropicToolUse,
  fromOpenAIToolCalls,
  toAnthropicToolResultMessage,
  toOpenAIToolMessage,
  toOpenAITools,
} from "toolgate/adapters";
import type { ToolDefinition, ToolResult } from "toolgate/runtime";
import { ToolController, ToolPolicy, ToolRegistry, ToolRuntime } from "toolgate/runtime";
import { describe, expect, it } from "vitest";

const calculator: ToolDefinition<{ a: number; b: number }> = {
  spec: {
    name: "calculator",
    description: "Add exactly two integers named a and b.",
    inputSchema: { type: "object", properties: { a: { type: "integer" }, b: { type: "integer" } } },
  },
  validateArguments: () => ({ ok: true }),
  handler: ({ a, b }) => String(a + b),
};

const eraseDisk: ToolDefinition<never> = {
  spec: { name: "erase_disk", description: "Erase the disk.", inputSchema: { type: "object" } },
  validateArguments: () => ({ ok: true }),
  handler: () => "erased",
};

const controller = new ToolController({
  runtime: new ToolRuntime(new ToolRegistry([calculator as unknown as ToolDefinition<never>, eraseDisk])),
  policy: new ToolPolicy({ allowedTools: ["calculator"], deniedTools: ["erase_disk"] }),
});

async function answer(calls: readonly Parameters<ToolController["handle"]>[0][]): Promise<ToolResult[]> {
  const results: ToolResult[] = [];
  for (const call of calls) {
    const outcome = await controller.handle(call);
    if ("kind" in outcome) throw new Error("no approvals expected here");
    results.push(outcome);
  }
  return results;
}

describe("an agent loop turn through the adapters", () => {
  it("offers the model only the tools the controller does not deny outright", () => {
    expect(toOpenAITools(controller).map((tool) => tool.function.name)).toEqual(["calculator"]);
  });

  it("OpenAI: runs the good call and answers the malformed one with an error, each under its own id", async () => {
    const message = {
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "call_1", type: "function", function: { name: "calculator", arguments: '{"a":40,"b":2}' } },
        { id: "call_2", type: "function", function: { name: "calculator", arguments: '{"a":40,' } },
      ],
    };
    const { calls, errors, problems } = fromOpenAIToolCalls(message);
    expect(problems).toEqual([]);
    const replies = [...(await answer(calls)), ...errors].map(toOpenAIToolMessage);
    expect(replies.map((reply) => reply.tool_call_id)).toEqual(["call_1", "call_2"]);
    expect(replies[0]).toEqual({ role: "tool", tool_call_id: "call_1", content: "42" });
    expect(replies[1]?.content).toMatch(
      /^arguments of call call_2 are not valid JSON: .+; send a JSON object$/,
    );
  });

  it("Anthropic: answers every tool_use block in one user message", async () => {
    const { calls, errors } = fromAnthropicToolUse([
      { type: "text", text: "Adding." },
      { type: "tool_use", id: "toolu_1", name: "calculator", input: { a: 1, b: 2 } },
      { type: "tool_use", id: "toolu_2", name: "calculator", input: [1, 2] },
    ]);
    const message = toAnthropicToolResultMessage([...(await answer(calls)), ...errors]);
    expect(message).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_1", content: "3", is_error: false },
        {
          type: "tool_result",
          tool_use_id: "toolu_2",
          content: "input of call toolu_2 is an array, not a JSON object; send a JSON object",
          is_error: true,
        },
      ],
    });
  });
});
