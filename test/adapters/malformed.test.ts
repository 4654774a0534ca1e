import {
  fromAnthropicToolUse,
  fromMcpCallToolRequest,
  fromOpenAIResponsesOutput,
  fromOpenAIToolCalls,
  InvalidToolCallError,
  MAX_ARGUMENT_DEPTH,
  toAnthropicAssistantMessage,
  toOpenAIAssistantMessage,
} from "toolgate/adapters";
import { describe, expect, it } from "vitest";

/** An assistant message with the given tool_calls. */
function chat(...toolCalls: unknown[]): unknown {
  return { role: "assistant", content: null, tool_calls: toolCalls };
}

function fnCall(id: unknown, name: unknown, args: unknown): unknown {
  return { id, type: "function", function: { name, arguments: args } };
}

const error = (callId: string, content: string) => ({ callId, content, isError: true });

describe("malformed OpenAI Chat tool calls", () => {
  it("answers arguments that are not valid JSON with an error under the call's id", () => {
    const result = fromOpenAIToolCalls(chat(fnCall("call_7", "read_file", '{"path": "a.txt"')));
    expect(result.calls).toEqual([]);
    expect(result.problems).toEqual([]);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]?.callId).toBe("call_7");
    expect(result.errors[0]?.isError).toBe(true);
    expect(result.errors[0]?.content).toMatch(
      /^arguments of call call_7 are not valid JSON: .+; send a JSON object$/,
    );
  });

  it("answers JSON that is not an object (array, string, number, null)", () => {
    const result = fromOpenAIToolCalls(
      chat(
        fnCall("c1", "read_file", "[1,2]"),
        fnCall("c2", "read_file", '"a.txt"'),
        fnCall("c3", "read_file", "42"),
        fnCall("c4", "read_file", "null"),
      ),
    );
    expect(result.errors).toEqual([
      error("c1", "arguments of call c1 are an array, not a JSON object; send a JSON object"),
      error("c2", "arguments of call c2 are a string, not a JSON object; send a JSON object"),
      error("c3", "arguments of call c3 are a number, not a JSON object; send a JSON object"),
      error("c4", "arguments of call c4 are null, not a JSON object; send a JSON object"),
    ]);
  });

  it("answers arguments that are empty or not a string", () => {
    const result = fromOpenAIToolCalls(
      chat(fnCall("c1", "read_file", ""), fnCall("c2", "read_file", { path: "a" })),
    );
    expect(result.errors).toEqual([
      error("c1", "arguments of call c1 are empty; send a JSON object ({} for no arguments)"),
      error("c2", "arguments of call c2 are an object, not a string; send a JSON object as a string"),
    ]);
  });

  it("answers a call without a name, and one without a function object", () => {
    const result = fromOpenAIToolCalls(chat(fnCall("c1", undefined, "{}"), { id: "c2", type: "function" }));
    expect(result.errors).toEqual([
      error("c1", "call c1 has no tool name; send the name of one of the offered tools"),
      error("c2", "call c2 has no tool name; send the name of one of the offered tools"),
    ]);
  });

  it("reports a call without an id as a problem, since it cannot be answered", () => {
    const result = fromOpenAIToolCalls(
      chat(fnCall(undefined, "read_file", "{}"), fnCall("", "x", "{}"), "call_3"),
    );
    expect(result.calls).toEqual([]);
    expect(result.errors).toEqual([]);
    expect(result.problems).toEqual([
      {
        code: "missing-call-id",
        index: 0,
        message:
          'tool_calls[0] (tool "read_file") has no usable id (got undefined; expected a non-empty string), ' +
          "so it cannot be answered; it was not run",
      },
      {
        code: "missing-call-id",
        index: 1,
        message:
          'tool_calls[1] (tool "x") has no usable id (got ""; expected a non-empty string), ' +
          "so it cannot be answered; it was not run",
      },
      {
        code: "missing-call-id",
        index: 2,
        message:
          "tool_calls[2] is a string, not an object, so it has no id and cannot be answered; it was not run",
      },
    ]);
  });

  it("answers a repeated call id with an error for the later call and keeps the first", () => {
    const result = fromOpenAIToolCalls(
      chat(fnCall("c1", "read_file", '{"path":"a"}'), fnCall("c1", "read_file", "{}")),
    );
    expect(result.calls).toEqual([{ callId: "c1", toolName: "read_file", arguments: { path: "a" } }]);
    expect(result.errors).toEqual([
      error(
        "c1",
        "call id c1 is used by an earlier call in the same message; this call was not run, send it again with an id of its own",
      ),
    ]);
  });

  it("answers a tool call that is not a function call", () => {
    const result = fromOpenAIToolCalls(chat({ id: "c1", type: "custom", custom: { name: "x", input: "y" } }));
    expect(result.errors).toEqual([
      error("c1", 'call c1 has type "custom"; only function tool calls are supported'),
    ]);
  });

  it("refuses __proto__ keys at any depth, and nothing is polluted", () => {
    const result = fromOpenAIToolCalls(
      chat(
        fnCall("c1", "read_file", '{"__proto__":{"polluted":true}}'),
        fnCall("c2", "read_file", '{"a":[{"b":{"__proto__":{"polluted":true}}}]}'),
        fnCall("c3", "read_file", '{"constructor":{"prototype":{"polluted":true}}}'),
      ),
    );
    expect(result.errors).toEqual([
      error(
        "c1",
        'arguments of call c1 cannot be used: found the key "__proto__" at /__proto__, which is refused ' +
          "(prototype pollution); send a JSON object of plain data",
      ),
      error(
        "c2",
        'arguments of call c2 cannot be used: found the key "__proto__" at /a/0/b/__proto__, which is refused ' +
          "(prototype pollution); send a JSON object of plain data",
      ),
    ]);
    // "constructor" is an ordinary key: kept as plain data.
    expect(result.calls).toEqual([
      { callId: "c3", toolName: "read_file", arguments: { constructor: { prototype: { polluted: true } } } },
    ]);
    const args = result.calls[0]?.arguments as object;
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it("refuses arguments nested deeper than the limit instead of overflowing the stack", () => {
    const deep = `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`;
    const result = fromOpenAIToolCalls(chat(fnCall("c1", "f", deep)));
    expect(result.errors[0]?.content).toMatch(
      new RegExp(
        `^arguments of call c1 cannot be used: found nesting deeper than ${MAX_ARGUMENT_DEPTH} levels at /a/a`,
      ),
    );
    const ok = `${'{"a":'.repeat(MAX_ARGUMENT_DEPTH)}1${"}".repeat(MAX_ARGUMENT_DEPTH)}`;
    expect(fromOpenAIToolCalls(chat(fnCall("c2", "f", ok))).calls).toHaveLength(1);
  });

  it("keeps the good calls of a message that also has bad ones, in order", () => {
    const result = fromOpenAIToolCalls(
      chat(
        fnCall("c1", "a", "{}"),
        fnCall("c2", "b", "nope"),
        fnCall(undefined, "c", "{}"),
        fnCall("c4", "d", '{"x":1}'),
      ),
    );
    expect(result.calls.map((call) => call.callId)).toEqual(["c1", "c4"]);
    expect(result.errors.map((e) => e.callId)).toEqual(["c2"]);
    expect(result.problems.map((p) => p.index)).toEqual([2]);
  });
});

describe("wrong top-level shapes never throw", () => {
  const shapes: [string, unknown][] = [
    ["undefined", undefined],
    ["null", null],
    ["a string", "tool_calls"],
    ["a number", 1],
    ["an array", [fnCall("c1", "a", "{}")]],
    ["an object with neither role nor tool_calls", { foo: 1 }],
  ];

  it.each(shapes)("OpenAI Chat: %s gives no calls and one invalid-shape problem", (_label, input) => {
    const result = fromOpenAIToolCalls(input);
    expect(result.calls).toEqual([]);
    expect(result.errors).toEqual([]);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]?.code).toBe("invalid-shape");
  });

  it("OpenAI Chat: names the problem exactly", () => {
    expect(fromOpenAIToolCalls([]).problems).toEqual([
      {
        code: "invalid-shape",
        message:
          'expected an assistant message ({ role: "assistant", tool_calls: [...] }) or a chat completion, ' +
          "got an array; no calls were read",
      },
    ]);
    expect(fromOpenAIToolCalls({ role: "user", tool_calls: [] }).problems[0]?.message).toBe(
      'expected an assistant message ({ role: "assistant", tool_calls: [...] }) or a chat completion, ' +
        'got a message with role "user"; no calls were read',
    );
    expect(fromOpenAIToolCalls({ role: "assistant", tool_calls: {} }).problems[0]?.message).toBe(
      "tool_calls is an object, not an array; no calls were read",
    );
    expect(fromOpenAIToolCalls({ choices: [{}, {}] }).problems[0]?.message).toBe(
      "the chat completion has 2 choices; pass the message of the one choice you use (choices[i].message)",
    );
  });

  it.each(shapes)("OpenAI Responses, Anthropic, MCP: %s gives no calls and a problem", (_label, input) => {
    for (const read of [fromOpenAIResponsesOutput, fromAnthropicToolUse, fromMcpCallToolRequest]) {
      const result = read(input);
      if (Array.isArray(input) && read !== fromMcpCallToolRequest) continue; // a list is their own shape
      expect(result.calls).toEqual([]);
      expect(result.errors).toEqual([]);
      expect(result.problems.length).toBeGreaterThan(0);
    }
  });

  it("turns a throwing getter or proxy into an unreadable-input problem, keeping what was read", () => {
    const hostile = {
      role: "assistant",
      tool_calls: [
        fnCall("c1", "a", "{}"),
        {
          get id(): string {
            throw new Error("boom");
          },
        },
      ],
    };
    const result = fromOpenAIToolCalls(hostile);
    expect(result.calls.map((call) => call.callId)).toEqual(["c1"]);
    const hostileInput = {
      get x(): string {
        throw new Error("getter");
      },
    };
    expect(
      fromAnthropicToolUse([{ type: "tool_use", id: "t1", name: "f", input: hostileInput }]).errors,
    ).toEqual([error("t1", "the arguments of call t1 could not be read: getter")]);
    expect(result.problems).toEqual([
      { code: "unreadable-input", index: 1, message: "reading tool_calls[1] failed: boom; it was skipped" },
    ]);
    const proxy = new Proxy(
      {},
      {
        get() {
          throw new Error("trap");
        },
        has() {
          throw new Error("trap");
        },
        getOwnPropertyDescriptor() {
          throw new Error("trap");
        },
      },
    );
    for (const read of [
      fromOpenAIToolCalls,
      fromOpenAIResponsesOutput,
      fromAnthropicToolUse,
      fromMcpCallToolRequest,
    ]) {
      expect(read(proxy).problems[0]?.code).toBe("unreadable-input");
    }
  });
});

describe("malformed OpenAI Responses items", () => {
  it("answers by call_id and reports items without call_id", () => {
    const result = fromOpenAIResponsesOutput([
      { type: "function_call", id: "fc_1", call_id: "call_1", name: "read_file", arguments: "{bad" },
      { type: "function_call", id: "fc_2", name: "read_file", arguments: "{}" },
      { type: "function_call", call_id: "call_3", arguments: "{}" },
      { type: "message", role: "assistant", content: [] },
    ]);
    expect(result.calls).toEqual([]);
    expect(result.errors.map((e) => e.callId)).toEqual(["call_1", "call_3"]);
    expect(result.errors[0]?.content).toMatch(/^arguments of call call_1 are not valid JSON: /);
    expect(result.errors[1]?.content).toBe(
      "call call_3 has no tool name; send the name of one of the offered tools",
    );
    expect(result.problems).toEqual([
      {
        code: "missing-call-id",
        index: 1,
        message:
          'output[1] (tool "read_file") has no usable call_id (got undefined; expected a non-empty string), ' +
          "so it cannot be answered; it was not run",
      },
    ]);
  });
});

describe("malformed Anthropic tool_use blocks", () => {
  it("answers bad input and a missing name, reports a missing id, and refuses __proto__", () => {
    const content = JSON.parse(
      JSON.stringify([
        { type: "tool_use", id: "toolu_1", name: "read_file", input: "a.txt" },
        { type: "tool_use", id: "toolu_2", input: {} },
        { type: "tool_use", name: "read_file", input: {} },
        { type: "tool_use", id: "toolu_4", name: "read_file" },
        { type: "tool_use", id: "toolu_1", name: "read_file", input: {} },
      ]),
    ) as unknown[];
    content.push(JSON.parse('{"type":"tool_use","id":"toolu_6","name":"w","input":{"__proto__":{"x":1}}}'));
    const result = fromAnthropicToolUse({ role: "assistant", content });
    expect(result.calls).toEqual([]);
    expect(result.errors).toEqual([
      error("toolu_1", "input of call toolu_1 is a string, not a JSON object; send a JSON object"),
      error("toolu_2", "call toolu_2 has no tool name; send the name of one of the offered tools"),
      error("toolu_4", "input of call toolu_4 is missing; send a JSON object"),
      error(
        "toolu_1",
        "call id toolu_1 is used by an earlier call in the same message; this call was not run, send it again with an id of its own",
      ),
      error(
        "toolu_6",
        'input of call toolu_6 cannot be used: found the key "__proto__" at /__proto__, which is refused ' +
          "(prototype pollution); send a JSON object of plain data",
      ),
    ]);
    expect(result.problems.map((p) => [p.code, p.index])).toEqual([["missing-call-id", 2]]);
  });

  it("refuses input that is not JSON data (a function, a Date, a cycle, a non-finite number)", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const result = fromAnthropicToolUse([
      { type: "tool_use", id: "t1", name: "f", input: { f: () => 1 } },
      { type: "tool_use", id: "t2", name: "f", input: { at: new Date(0) } },
      { type: "tool_use", id: "t3", name: "f", input: cyclic },
      { type: "tool_use", id: "t4", name: "f", input: { n: Number.NaN } },
    ]);
    expect(result.errors.map((e) => e.content)).toEqual([
      "input of call t1 cannot be used: found a function at /f, which JSON cannot carry; send a JSON object of plain data",
      "input of call t2 cannot be used: found a non-plain object at /at, which JSON cannot carry; send a JSON object of plain data",
      "input of call t3 cannot be used: found a cycle at /self, which JSON cannot carry; send a JSON object of plain data",
      "input of call t4 cannot be used: found the number NaN at /n, which JSON cannot carry; send a JSON object of plain data",
    ]);
  });
});

describe("malformed MCP tools/call requests", () => {
  const request = (fields: Record<string, unknown>) => ({
    jsonrpc: "2.0",
    id: 5,
    method: "tools/call",
    ...fields,
  });

  it("answers a missing name or non-object arguments under the stringified id", () => {
    expect(fromMcpCallToolRequest(request({ params: { arguments: {} } })).errors).toEqual([
      error("5", "call 5 has no tool name; send the name of one of the offered tools"),
    ]);
    expect(fromMcpCallToolRequest(request({ params: { name: "f", arguments: [1] } })).errors).toEqual([
      error("5", "arguments of call 5 are an array, not a JSON object; send a JSON object"),
    ]);
    expect(
      fromMcpCallToolRequest(request({ id: "abc", params: { name: "f", arguments: "x" } })).errors,
    ).toEqual([error("abc", "arguments of call abc are a string, not a JSON object; send a JSON object")]);
  });

  it("reports a request without id (a notification) or with a null id as a problem", () => {
    for (const id of [undefined, null, "", true]) {
      const result = fromMcpCallToolRequest(request({ id, params: { name: "f" } }));
      expect(result.calls).toEqual([]);
      expect(result.errors).toEqual([]);
      expect(result.problems[0]?.code).toBe("missing-call-id");
    }
    expect(fromMcpCallToolRequest({ name: "f", arguments: {} }).problems).toEqual([
      {
        code: "missing-call-id",
        index: 0,
        message:
          'the tools/call request (tool "f") has no usable id (got undefined; expected a non-empty string or a ' +
          "finite number; a request without id is a notification), so it cannot be answered; it was not run",
      },
    ]);
  });

  it("reports a request for another method or JSON-RPC version", () => {
    expect(fromMcpCallToolRequest(request({ method: "tools/list" })).problems).toEqual([
      {
        code: "invalid-shape",
        message:
          'expected a JSON-RPC 2.0 tools/call request, got jsonrpc "2.0" and method "tools/list"; no call was read',
      },
    ]);
    expect(fromMcpCallToolRequest(request({ jsonrpc: "1.0", params: { name: "f" } })).problems[0]?.code).toBe(
      "invalid-shape",
    );
  });
});

describe("writing calls that are not plain data is a programmer error", () => {
  it("throws InvalidToolCallError", () => {
    const call = { callId: "c1", toolName: "f", arguments: [1] };
    expect(() => toOpenAIAssistantMessage([call])).toThrow(InvalidToolCallError);
    expect(() => toAnthropicAssistantMessage([{ ...call, arguments: { n: 1n } }])).toThrow(
      "arguments of call c1 cannot be used: found a bigint at /n, which JSON cannot carry; send a JSON object of plain data",
    );
  });
});
