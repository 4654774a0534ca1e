import fc from "fast-check";
import {
  type ConversionResult,
  fromAnthropicToolUse,
  fromMcpCallToolRequest,
  fromOpenAIResponsesOutput,
  fromOpenAIToolCalls,
  InvalidToolCallError,
  toAnthropicAssistantMessage,
  toAnthropicToolResult,
  toMcpCallToolRequest,
  toMcpCallToolResult,
  toOpenAIAssistantMessage,
  toOpenAIResponsesFunctionCalls,
  toOpenAIResponsesOutput,
  toOpenAIToolMessage,
} from "toolgate/adapters";
import type { ToolCall } from "toolgate/runtime";
import { describe, expect, it } from "vitest";

const RUNS = 1_000;

/** Round trips per provider: ToolCalls → provider payload → ToolCalls. */
const roundTrips: [string, (calls: ToolCall[]) => ConversionResult[]][] = [
  ["OpenAI Chat", (calls) => [fromOpenAIToolCalls(toOpenAIAssistantMessage(calls))]],
  ["OpenAI Responses", (calls) => [fromOpenAIResponsesOutput(toOpenAIResponsesFunctionCalls(calls))]],
  ["Anthropic", (calls) => [fromAnthropicToolUse(toAnthropicAssistantMessage(calls, "text first"))]],
  // A tools/call request carries one call, so each call is its own request.
  ["MCP", (calls) => calls.map((call) => fromMcpCallToolRequest(toMcpCallToolRequest(call)))],
];

// Keys are sometimes "__proto__" or "constructor", which fc.string() alone almost never produces.
const keyArb = fc.oneof({ weight: 20, arbitrary: fc.string() }, fc.constantFrom("__proto__", "constructor"));
const argumentsArb = fc.dictionary(keyArb, fc.jsonValue({ maxDepth: 4 }), { maxKeys: 6 });
const callArb = fc.record({
  callId: fc.string({ minLength: 1 }),
  toolName: fc.string({ minLength: 1 }),
  arguments: argumentsArb as fc.Arbitrary<unknown>,
});
const callsArb = fc.uniqueArray(callArb, { minLength: 1, maxLength: 5, selector: (call) => call.callId });

function hasProtoKey(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  return Object.keys(value).some(
    (key) => key === "__proto__" || hasProtoKey((value as Record<string, unknown>)[key]),
  );
}

describe("property: a call written to a provider shape and read back is the same call", () => {
  it.each(roundTrips)(
    "%s: same callId, toolName and arguments (as JSON carries them)",
    (_provider, roundTrip) => {
      fc.assert(
        fc.property(callsArb, (calls) => {
          if (calls.some((call) => hasProtoKey(call.arguments))) {
            // Such arguments are refused on the way out as they would be on the way in.
            expect(() => roundTrip(calls)).toThrow(InvalidToolCallError);
            return;
          }
          const results = roundTrip(calls);
          expect(results.flatMap((result) => result.errors)).toEqual([]);
          expect(results.flatMap((result) => result.problems)).toEqual([]);
          const expected = calls.map((call) => ({
            ...call,
            arguments: JSON.parse(JSON.stringify(call.arguments)),
          }));
          expect(results.flatMap((result) => result.calls)).toEqual(expected);
        }),
        { numRuns: RUNS },
      );
    },
  );

  it("every result written for a provider carries its call's id", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string(), fc.boolean(), (callId, content, isError) => {
        const result = { callId, content, isError };
        expect(toOpenAIToolMessage(result).tool_call_id).toBe(callId);
        expect(toOpenAIResponsesOutput(result).call_id).toBe(callId);
        expect(toAnthropicToolResult(result)).toEqual({
          type: "tool_result",
          tool_use_id: callId,
          content,
          is_error: isError,
        });
        expect(toMcpCallToolResult(result)).toEqual({ content: [{ type: "text", text: content }], isError });
      }),
      { numRuns: RUNS },
    );
  });

  it("arguments with a __proto__ key anywhere are never passed on as a call", () => {
    const payload = fc
      .tuple(fc.array(fc.string(), { maxLength: 3 }), fc.jsonValue({ maxDepth: 2 }))
      .map(([path, leaf]) =>
        path.reduceRight(
          (inner, key) => `{${JSON.stringify(key)}:${inner}}`,
          `{"__proto__":${JSON.stringify(leaf)}}`,
        ),
      );
    fc.assert(
      fc.property(payload, (text) => {
        const result = fromOpenAIToolCalls({
          role: "assistant",
          tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: text } }],
        });
        expect(result.calls).toEqual([]);
        expect(result.errors).toHaveLength(1);
        expect(result.errors[0]?.content).toContain('found the key "__proto__"');
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
      { numRuns: RUNS },
    );
  });
});

// Inputs that are close to each provider's shape, with every field sometimes wrong or missing, plus anything.
const anything = fc.anything({ maxDepth: 3 });
/** Mostly `good`, sometimes missing, sometimes anything at all. */
const maybe = <T>(good: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 12, arbitrary: good }, fc.constant(undefined), anything) as fc.Arbitrary<unknown>;
const idArb = maybe(
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom("call_1", "call_2", "toolu_1") },
    fc.string(),
    fc.integer(),
  ),
);
const nameArb = maybe(fc.oneof({ weight: 4, arbitrary: fc.constant("read_file") }, fc.string()));
const argumentsTextArb = maybe(
  fc.oneof(
    { weight: 4, arbitrary: argumentsArb.map((args) => JSON.stringify(args)) },
    fc.json({ maxDepth: 3 }),
    fc.constantFrom("{}", '{"__proto__":{"x":1}}', "[]", "{", "", "null"),
    fc.string(),
  ),
);
const argumentsValueArb = maybe(
  fc.oneof(
    { weight: 4, arbitrary: argumentsArb },
    fc.jsonValue({ maxDepth: 3 }),
    fc.constant(JSON.parse('{"a":{"__proto__":{"x":1}}}') as unknown),
  ),
);
const partial = <T>(model: { [K in keyof T]: fc.Arbitrary<T[K]> }) => fc.record(model);

const chatCall = maybe(
  partial({
    id: idArb,
    type: maybe(fc.constant("function")),
    function: maybe(partial({ name: nameArb, arguments: argumentsTextArb })),
  }),
);
const chatMessage = partial({
  role: maybe(fc.constant("assistant")),
  tool_calls: maybe(fc.array(chatCall, { maxLength: 6 })),
});
const chatInput = maybe(
  fc.oneof(
    { weight: 3, arbitrary: chatMessage },
    partial({ choices: fc.array(partial({ message: chatMessage }), { minLength: 1, maxLength: 2 }) }),
  ),
);

const responsesItem = maybe(
  partial({
    type: maybe(fc.constantFrom("function_call", "function_call", "message")),
    id: maybe(fc.string()),
    call_id: idArb,
    name: nameArb,
    arguments: argumentsTextArb,
  }),
);
const responsesItems = fc.array(responsesItem, { maxLength: 6 });
const responsesInput = maybe(fc.oneof(responsesItems, partial({ output: maybe(responsesItems) })));

const anthropicBlock = maybe(
  partial({
    type: maybe(fc.constantFrom("tool_use", "tool_use", "text")),
    id: idArb,
    name: nameArb,
    input: argumentsValueArb,
  }),
);
const anthropicBlocks = fc.array(anthropicBlock, { maxLength: 6 });
const anthropicInput = maybe(
  fc.oneof(
    anthropicBlocks,
    partial({ role: maybe(fc.constant("assistant")), content: maybe(anthropicBlocks) }),
  ),
);

const mcpParams = maybe(partial({ name: nameArb, arguments: argumentsValueArb }));
const mcpInput = maybe(
  fc.oneof(
    {
      weight: 3,
      arbitrary: partial({
        jsonrpc: maybe(fc.constant("2.0")),
        id: idArb,
        method: maybe(fc.constant("tools/call")),
        params: mcpParams,
      }),
    },
    mcpParams,
  ),
);
const mcpRequestId = fc.option(fc.oneof(fc.string(), fc.integer()), { nil: undefined });

/** Every value of an id field anywhere in `input`, as a callId would carry it. */
function idsIn(input: unknown, fields: readonly string[], found = new Set<string>()): Set<string> {
  if (typeof input !== "object" || input === null) return found;
  for (const [key, value] of Object.entries(input)) {
    if (fields.includes(key) && (typeof value === "string" || typeof value === "number"))
      found.add(String(value));
    idsIn(value, fields, found);
  }
  return found;
}

function checkFromInput(result: ConversionResult, ids: Set<string>): void {
  for (const call of result.calls) expect(ids).toContain(call.callId);
  for (const error of result.errors) {
    expect(ids).toContain(error.callId);
    expect(error.callId).not.toBe("");
    expect(error.isError).toBe(true);
    expect(error.content.length).toBeGreaterThan(0);
  }
  for (const problem of result.problems) expect(problem.message.length).toBeGreaterThan(0);
}

describe("property: reading arbitrary input never throws, and every id comes from the input", () => {
  it("OpenAI Chat", () => {
    fc.assert(
      fc.property(chatInput, (input) => checkFromInput(fromOpenAIToolCalls(input), idsIn(input, ["id"]))),
      { numRuns: RUNS },
    );
  });

  it("OpenAI Responses", () => {
    fc.assert(
      fc.property(responsesInput, (input) =>
        checkFromInput(fromOpenAIResponsesOutput(input), idsIn(input, ["call_id"])),
      ),
      { numRuns: RUNS },
    );
  });

  it("Anthropic", () => {
    fc.assert(
      fc.property(anthropicInput, (input) =>
        checkFromInput(fromAnthropicToolUse(input), idsIn(input, ["id"])),
      ),
      { numRuns: RUNS },
    );
  });

  it("MCP", () => {
    fc.assert(
      fc.property(mcpInput, mcpRequestId, (input, requestId) => {
        const ids = idsIn(input, ["id"]);
        if (requestId !== undefined) ids.add(String(requestId));
        const result = fromMcpCallToolRequest(input, requestId === undefined ? {} : { requestId });
        checkFromInput(result, ids);
        expect(result.calls.length + result.errors.length).toBeLessThanOrEqual(1);
      }),
      { numRuns: RUNS },
    );
  });
});
