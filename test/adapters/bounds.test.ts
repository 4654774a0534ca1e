/** The adapters' input bounds: a size ceiling checked before parsing, and no key twice in one object. */
import fc from "fast-check";
import {
  fromAnthropicToolUse,
  fromMcpCallToolRequest,
  fromOpenAIResponsesOutput,
  fromOpenAIToolCalls,
} from "toolgate/adapters";
import { describe, expect, it } from "vitest";
import { findDuplicateKey } from "../../src/adapters/json-data.js";
import { InvalidOptionError } from "../../src/runtime/errors.js";

const chat = (args: string) => ({
  role: "assistant",
  content: null,
  tool_calls: [{ id: "call_1", type: "function", function: { name: "read_file", arguments: args } }],
});
const responses = (args: string) => [
  { type: "function_call", call_id: "call_1", name: "read_file", arguments: args },
];
const anthropic = (input: unknown) => [{ type: "tool_use", id: "call_1", name: "read_file", input }];
const mcp = (args: unknown) => ({
  jsonrpc: "2.0",
  id: "call_1",
  method: "tools/call",
  params: { name: "read_file", arguments: args },
});

const MIB = 1024 * 1024;

describe("the argument size ceiling in the adapters", () => {
  const big = { path: "x".repeat(MIB) };
  const text = JSON.stringify(big);

  it.each([
    ["OpenAI Chat", () => fromOpenAIToolCalls(chat(text)), "arguments", "are"],
    ["OpenAI Responses", () => fromOpenAIResponsesOutput(responses(text)), "arguments", "are"],
    ["Anthropic", () => fromAnthropicToolUse(anthropic(big)), "input", "is"],
    ["MCP", () => fromMcpCallToolRequest(mcp(big)), "arguments", "are"],
  ])("%s: over 1 MiB by default becomes an error result naming the limit", (_name, read, field, verb) => {
    const result = read();
    expect(result.calls).toEqual([]);
    expect(result.errors).toEqual([
      {
        callId: "call_1",
        content:
          `${field} of call call_1 ${verb} larger than 1048576 bytes, the limit (maxArgumentBytes); ` +
          "send smaller arguments (the application can raise maxArgumentBytes)",
        isError: true,
      },
    ]);
  });

  it("measures UTF-8 bytes, and takes a ceiling of its own", () => {
    // {"path":"éééééééééé"}: 21 characters, 31 bytes in UTF-8.
    const args = JSON.stringify({ path: "é".repeat(10) });
    expect(Buffer.byteLength(args)).toBe(31);
    expect(fromOpenAIToolCalls(chat(args), { maxArgumentBytes: 31 }).calls).toHaveLength(1);
    expect(fromOpenAIToolCalls(chat(args), { maxArgumentBytes: 30 }).errors[0]?.content).toMatch(
      /larger than 30 bytes/,
    );
    const input = { path: "é".repeat(10) };
    expect(fromAnthropicToolUse(anthropic(input), { maxArgumentBytes: 31 }).calls).toHaveLength(1);
    expect(fromAnthropicToolUse(anthropic(input), { maxArgumentBytes: 30 }).errors).toHaveLength(1);
    expect(fromMcpCallToolRequest(mcp(input), { maxArgumentBytes: 30 }).errors).toHaveLength(1);
    expect(fromMcpCallToolRequest(mcp(input), { maxArgumentBytes: 31, requestId: 1 }).calls).toHaveLength(1);
  });

  it("stops copying a shared structure at the ceiling instead of expanding it", () => {
    let shared: unknown = ["x"];
    for (let i = 0; i < 40; i++) shared = [shared, shared];
    const result = fromAnthropicToolUse(anthropic({ shared }));
    expect(result.errors[0]?.content).toMatch(/larger than 1048576 bytes/);
  });

  it("refuses a ceiling that is not a positive whole number", () => {
    expect(() => fromOpenAIToolCalls(chat("{}"), { maxArgumentBytes: 0 })).toThrow(InvalidOptionError);
  });
});

describe("duplicate keys in JSON text", () => {
  it.each([
    ['{"path":"a.txt","path":"/etc/passwd"}', "path"],
    ['{"path":"a.txt","p\\u0061th":"/etc/passwd"}', "path"],
    ['{"o":{"k":1,"k":2}}', "k"],
    ['{"a":[{"x":1},{"y":1,"y":2}]}', "y"],
    [' { "a" : 1 , "b" : { "a" : 1 } , "a" : 2 } ', "a"],
  ])("%s is refused (key %s)", (text, key) => {
    expect(findDuplicateKey(text)).toBe(key);
    const result = fromOpenAIToolCalls(chat(text));
    expect(result.calls).toEqual([]);
    expect(result.errors[0]?.content).toBe(
      `arguments of call call_1 cannot be used: the key ${JSON.stringify(key)} appears twice in one object, ` +
        "and readers disagree on which one counts; send each key once",
    );
  });

  it.each([
    '{"a":1,"b":{"a":1},"c":[{"a":1},{"a":2}]}',
    '{"a":"{\\"a\\":1,\\"a\\":2}","b":"\\\\","c":"\\""}',
    '{"a":"}","a\\"":1,"[":"]"}',
    '{"":1," ":2}',
  ])("%s has no duplicate", (text) => {
    expect(findDuplicateKey(text)).toBeUndefined();
    expect(fromOpenAIToolCalls(chat(text)).calls).toHaveLength(1);
  });

  it("JSON written by JSON.stringify never has a duplicate; adding a key that exists always is one", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue(), (object, extra) => {
        const text = JSON.stringify(object);
        expect(findDuplicateKey(text)).toBeUndefined();
        const keys = Object.keys(object);
        if (keys.length === 0) return;
        const key = keys[keys.length - 1] as string;
        const twice = `${text.slice(0, -1)},${JSON.stringify(key)}:${JSON.stringify(extra) ?? "null"}}`;
        expect(findDuplicateKey(twice)).toBe(key);
      }),
      { numRuns: 500, seed: 21 },
    );
  });
});
