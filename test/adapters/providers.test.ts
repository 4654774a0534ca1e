import {
  fromAnthropicToolUse,
  fromMcpCallToolRequest,
  fromOpenAIResponsesOutput,
  fromOpenAIToolCalls,
  toAnthropicAssistantMessage,
  toAnthropicToolResult,
  toAnthropicToolResultMessage,
  toMcpCallToolRequest,
  toMcpCallToolResponse,
  toMcpCallToolResult,
  toOpenAIAssistantMessage,
  toOpenAIResponsesFunctionCalls,
  toOpenAIResponsesOutput,
  toOpenAIToolMessage,
} from "toolgate/adapters";
import { describe, expect, it } from "vitest";
import { loadFixture } from "./load-fixture.js";

const clean = { errors: [], problems: [] };

describe("OpenAI Chat Completions", () => {
  const completion = loadFixture("openai-chat-completion.json") as {
    choices: [{ message: { tool_calls: unknown[] } }];
  };
  const expected = [
    { callId: "call_Qm2xR8bTz1LkVp7sN4hYc0dE", toolName: "read_file", arguments: { path: "src/index.ts" } },
    { callId: "call_8HfWn3JcYq5Ue1Ka9GtBz6Lo", toolName: "list_dir", arguments: { path: "src", depth: 2 } },
  ];

  it("reads both tool calls of a chat completion and of its message", () => {
    expect(fromOpenAIToolCalls(completion)).toEqual({ calls: expected, ...clean });
    expect(fromOpenAIToolCalls(completion.choices[0].message)).toEqual({ calls: expected, ...clean });
  });

  it("writes the calls back as the same tool_calls", () => {
    const message = toOpenAIAssistantMessage(expected);
    expect(message).toEqual({
      role: "assistant",
      content: null,
      tool_calls: completion.choices[0].message.tool_calls,
    });
    expect(fromOpenAIToolCalls(message)).toEqual({ calls: expected, ...clean });
  });

  it("answers each call with a tool message carrying its id", () => {
    expect(
      toOpenAIToolMessage({ callId: "call_8HfWn3JcYq5Ue1Ka9GtBz6Lo", content: "a.ts\nb.ts", isError: false }),
    ).toEqual({ role: "tool", tool_call_id: "call_8HfWn3JcYq5Ue1Ka9GtBz6Lo", content: "a.ts\nb.ts" });
  });

  it("reads an assistant message that answers in text as no calls and no problems", () => {
    expect(fromOpenAIToolCalls({ role: "assistant", content: "Done.", tool_calls: null })).toEqual({
      calls: [],
      ...clean,
    });
    expect(fromOpenAIToolCalls({ role: "assistant", content: "Done." })).toEqual({ calls: [], ...clean });
  });
});

describe("OpenAI Responses", () => {
  const response = loadFixture("openai-responses-response.json") as { output: unknown[] };
  const expected = [
    { callId: "call_Xv4pB7nK2qL9mR1tY6wZ3sH8", toolName: "read_file", arguments: { path: "package.json" } },
    {
      callId: "call_Jd8sF2kP5wQ1nV7bX3cM9rT4",
      toolName: "run_command",
      arguments: { script: "npm test -- --run", timeout_ms: 120000 },
    },
  ];

  it("reads the function_call items (by call_id) and skips reasoning and message items", () => {
    expect(fromOpenAIResponsesOutput(response.output)).toEqual({ calls: expected, ...clean });
    expect(fromOpenAIResponsesOutput(response)).toEqual({ calls: expected, ...clean });
  });

  it("writes the calls back as function_call items with the same fields", () => {
    const items = toOpenAIResponsesFunctionCalls(expected);
    const original = response.output.filter((item) => (item as { type: string }).type === "function_call");
    expect(items).toEqual(
      original.map((item) => {
        const { call_id, name, arguments: args, type } = item as Record<string, unknown>;
        return { type, call_id, name, arguments: args };
      }),
    );
    expect(fromOpenAIResponsesOutput(items)).toEqual({ calls: expected, ...clean });
  });

  it("answers with a function_call_output item", () => {
    expect(
      toOpenAIResponsesOutput({ callId: "call_Xv4pB7nK2qL9mR1tY6wZ3sH8", content: "{}", isError: false }),
    ).toEqual({ type: "function_call_output", call_id: "call_Xv4pB7nK2qL9mR1tY6wZ3sH8", output: "{}" });
  });
});

describe("Anthropic Messages", () => {
  const message = loadFixture("anthropic-message.json") as { content: unknown[] };
  const expected = [
    {
      callId: "toolu_01A09q90qw90lq917835lq9",
      toolName: "read_file",
      arguments: { path: "test/policy.test.ts" },
    },
    {
      callId: "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
      toolName: "apply_patch",
      arguments: {
        patch: "--- a/src/policy.ts\n+++ b/src/policy.ts\n@@ -1 +1 @@\n-const x = 1;\n+const x = 2;\n",
        options: { dryRun: true, paths: ["src/policy.ts"] },
      },
    },
  ];

  it("reads the tool_use blocks of a message and of its content array, skipping text", () => {
    expect(fromAnthropicToolUse(message)).toEqual({ calls: expected, ...clean });
    expect(fromAnthropicToolUse(message.content)).toEqual({ calls: expected, ...clean });
  });

  it("writes the calls back as the same content blocks", () => {
    const text = (message.content[0] as { text: string }).text;
    const written = toAnthropicAssistantMessage(expected, text);
    expect(written).toEqual({ role: "assistant", content: message.content });
    expect(fromAnthropicToolUse(written)).toEqual({ calls: expected, ...clean });
  });

  it("copies input instead of sharing it with the payload", () => {
    const { calls } = fromAnthropicToolUse(message);
    const block = message.content[2] as { input: { options: object } };
    const args = calls[1]?.arguments as { options: object };
    expect(args).toEqual(block.input);
    expect(args).not.toBe(block.input);
    expect(args.options).not.toBe(block.input.options);
  });

  it("answers with tool_result blocks in one user message, is_error always present", () => {
    const results = [
      { callId: "toolu_01A09q90qw90lq917835lq9", content: "import ...", isError: false },
      { callId: "toolu_01T1x1fJ34qAmk2tNTrN7Up6", content: "apply_patch is denied by policy", isError: true },
    ];
    expect(toAnthropicToolResult(results[0] as (typeof results)[0])).toEqual({
      type: "tool_result",
      tool_use_id: "toolu_01A09q90qw90lq917835lq9",
      content: "import ...",
      is_error: false,
    });
    expect(toAnthropicToolResultMessage(results)).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_01A09q90qw90lq917835lq9",
          content: "import ...",
          is_error: false,
        },
        {
          type: "tool_result",
          tool_use_id: "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
          content: "apply_patch is denied by policy",
          is_error: true,
        },
      ],
    });
  });

  it("reads a message whose content is a plain string as no calls", () => {
    expect(fromAnthropicToolUse({ role: "assistant", content: "Hello" })).toEqual({ calls: [], ...clean });
  });
});

describe("MCP tools/call", () => {
  const request = loadFixture("mcp-tools-call-request.json") as { params: object };
  const expected = { callId: "2", toolName: "read_file", arguments: { path: "README.md" } };

  it("reads a request as one call whose callId is the JSON-RPC id as text", () => {
    expect(fromMcpCallToolRequest(request)).toEqual({ calls: [expected], ...clean });
  });

  it("reads just the params with the request id given separately", () => {
    expect(fromMcpCallToolRequest(request.params, { requestId: 2 })).toEqual({ calls: [expected], ...clean });
    expect(fromMcpCallToolRequest(request.params, { requestId: "req-9" }).calls[0]?.callId).toBe("req-9");
  });

  it("treats missing arguments as an empty object", () => {
    const { calls } = fromMcpCallToolRequest({
      jsonrpc: "2.0",
      id: "a",
      method: "tools/call",
      params: { name: "now" },
    });
    expect(calls).toEqual([{ callId: "a", toolName: "now", arguments: {} }]);
  });

  it("writes a call back as a request and round-trips it", () => {
    const written = toMcpCallToolRequest({ ...expected }, 2);
    expect(written).toEqual({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "read_file", arguments: { path: "README.md" } },
    });
    expect(fromMcpCallToolRequest(written)).toEqual({ calls: [expected], ...clean });
    expect(toMcpCallToolRequest(expected).id).toBe("2");
  });

  it("answers with a CallToolResult and a JSON-RPC response carrying the original id", () => {
    const result = { callId: "2", content: "# toolgate", isError: false };
    expect(toMcpCallToolResult(result)).toEqual({
      content: [{ type: "text", text: "# toolgate" }],
      isError: false,
    });
    expect(toMcpCallToolResponse(2, { ...result, isError: true })).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: { content: [{ type: "text", text: "# toolgate" }], isError: true },
    });
  });
});
