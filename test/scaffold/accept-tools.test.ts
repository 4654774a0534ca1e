import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../src/adapters/json-data.js";
import { acceptTools, placeholderDescription } from "../../src/scaffold/accept-tools.js";
import { sampleArguments } from "../../src/scaffold/sample-arguments.js";
import { ValidatorFactory } from "../../src/validation/argument-validator.js";

function spec(name: string, inputSchema: JsonObject, description: string | null = "A tool.") {
  return {
    spec: { index: 0, name, inputSchema, notes: [], ...(description === null ? {} : { description }) },
    source: "test source",
  };
}

describe("acceptTools", () => {
  it("leaves out each tool lint would refuse, with lint's reason, and keeps the rest unchanged", () => {
    const good = { type: "object", properties: { q: { type: "string" } }, required: ["q"] };
    const { accepted, rejected } = acceptTools([
      spec("search", good),
      spec("ns.search", good),
      spec("constructor", good),
      spec("dated", { type: "object", properties: { d: { type: "string", format: "dat" } } }),
      spec("remote", { type: "object", properties: { a: { $ref: "https://example.com/a.json" } } }),
      spec("scalar", { type: "string" }),
      spec("typo", { type: "object", properties: { a: { type: "strin" } } }),
      spec("search", good),
      spec("Search", good),
    ]);
    expect(accepted.map((t) => t.name)).toEqual(["search"]);
    expect(accepted[0]?.inputSchema).toEqual(good);
    expect(accepted[0]?.sample).toEqual({ q: "example" });
    expect(rejected.map((r) => [r.name, r.reasons])).toEqual([
      [
        "ns.search",
        [
          'tool name "ns.search" is not valid (it contains "."): names must match ^[A-Za-z][A-Za-z0-9_-]{0,63}$, as model providers require',
        ],
      ],
      ["constructor", ['"constructor" is reserved and can never be a tool name; rename the tool']],
      [
        "dated",
        [
          expect.stringMatching(
            /^tool "dated": input_schema is not a valid JSON Schema: unknown format "dat" \(did you mean "date"\?\);.* \(at input_schema\/properties\/d\/format\)$/,
          ),
        ],
      ],
      [
        "remote",
        [
          'tool "remote": $ref "https://example.com/a.json" points outside the schema; toolgate never fetches schemas — inline it under $defs and use "#/$defs/..." (at input_schema/properties/a/$ref)',
        ],
      ],
      ["scalar", ['"input_schema/type" must be "object"']],
      ["typo", [expect.stringContaining('"strin" is not a JSON Schema type; did you mean "string"?')]],
      ["search", ['a tool named "search" was already imported from test source; tool names must be unique']],
      [
        "Search",
        [
          'tools "search" and "Search" both become the TypeScript name SearchArgs; only "search" was imported',
        ],
      ],
    ]);
  });

  it("writes a placeholder for a missing description and says so", () => {
    const { accepted } = acceptTools([spec("ping", { type: "object" }, null)]);
    expect(accepted[0]?.description).toBe(placeholderDescription("ping"));
    expect(accepted[0]?.notes).toEqual([
      "its source gives no description: a placeholder was written, replace it",
    ]);
  });

  it("writes no sample that fails the schema: a pattern it cannot satisfy leaves the test to the person", () => {
    const { accepted } = acceptTools([
      spec("ticket", {
        type: "object",
        properties: { id: { type: "string", pattern: "^[A-Z]{3}-[0-9]+$" } },
        required: ["id"],
      }),
    ]);
    expect(accepted[0]?.sample).toBeUndefined();
    expect(accepted[0]?.notes).toEqual([
      "no arguments that pass its input_schema could be guessed, so its test is left commented out: fill in the arguments",
    ]);
  });
});

describe("sampleArguments", () => {
  const factory = new ValidatorFactory();
  const valid = (schema: JsonObject, value: unknown) => {
    const compiled = factory.compile(schema);
    if (!compiled.ok) throw new Error(compiled.message);
    return compiled.validator(value).ok;
  };

  it("fills required properties from formats, bounds, enums, refs and unions", () => {
    const schema: JsonObject = {
      type: "object",
      $defs: { mode: { enum: ["fast", "slow"] } },
      properties: {
        url: { type: "string", format: "uri" },
        when: { type: "string", format: "date-time" },
        count: { type: "integer", minimum: 5, maximum: 9, multipleOf: 3 },
        ratio: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
        mode: { $ref: "#/$defs/mode" },
        tags: { type: "array", items: { type: "string", minLength: 3 }, minItems: 2 },
        either: { anyOf: [{ type: "null" }, { type: "boolean" }] },
        code: { type: "string", minLength: 12, maxLength: 12 },
        optional: { type: "string" },
      },
      required: ["url", "when", "count", "ratio", "mode", "tags", "either", "code"],
      additionalProperties: false,
    };
    const sample = sampleArguments(schema);
    expect(sample).toEqual({
      url: "https://example.com/",
      when: "2026-01-01T12:00:00Z",
      count: 6,
      ratio: 0.5,
      mode: "fast",
      tags: ["example", "example"],
      either: false,
      code: "examplexxxxx",
    });
    expect(valid(schema, sample)).toBe(true);
  });

  it("gives arguments that pass the schema for any schema of the keywords it knows (property)", () => {
    // Invariant: for object schemas made of type, enum, const, length and number bounds, formats, arrays and
    // nested objects, the sample passes ajv's validation of that same schema.
    const leaf: fc.Arbitrary<JsonObject> = fc.oneof(
      fc
        .record({ min: fc.nat(20), extra: fc.nat(20) })
        .map(({ min, extra }) => ({ type: "string", minLength: min, maxLength: min + extra })),
      fc.constantFrom("email", "uuid", "date", "ipv4", "hostname", "uri").map((format) => ({
        type: "string",
        format,
      })),
      fc
        .record({ low: fc.integer({ min: -50, max: 50 }), span: fc.nat(20), step: fc.constantFrom(1, 2, 5) })
        .filter(({ low, span, step }) => Math.floor((low + span) / step) * step >= low)
        .map(({ low, span, step }) => ({
          type: "integer",
          minimum: low,
          maximum: low + span,
          multipleOf: step,
        })),
      fc
        .double({ min: -100, max: 100, noNaN: true })
        .map((low) => ({ type: "number", exclusiveMinimum: low })),
      fc.array(fc.string(), { minLength: 1, maxLength: 3 }).map((values) => ({ enum: values })),
      fc.jsonValue().map((value) => ({ const: value as never })),
      fc.constant({ type: "boolean" }),
      fc.constant({ type: ["null", "string"] }),
    );
    const node: fc.Arbitrary<JsonObject> = fc.letrec<{ node: JsonObject }>((tie) => ({
      node: fc.oneof(
        { depthSize: "small" },
        leaf,
        fc
          .record({ items: tie("node"), minItems: fc.nat(3) })
          .map(({ items, minItems }) => ({ type: "array", items, minItems })),
        fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), tie("node"), { maxKeys: 4 }).map((properties) => ({
          type: "object",
          properties,
          required: Object.keys(properties),
          additionalProperties: false,
        })),
      ),
    })).node;
    const root = fc
      .dictionary(fc.stringMatching(/^[a-z]{1,8}$/), node, { maxKeys: 5 })
      .map((properties): JsonObject => ({ type: "object", properties, required: Object.keys(properties) }));
    fc.assert(
      fc.property(root, (schema) => {
        const sample = sampleArguments(schema);
        expect(sample).toBeDefined();
        expect(valid(schema, sample)).toBe(true);
        factory.reset();
      }),
      { numRuns: 300 },
    );
  });
});
