/**
 * The formatted emitter (src/codegen/formatted-types.ts) writes what json-schema-to-typescript followed by
 * prettier writes: for random tools whose schemas are near its subset (plain objects of scalars, string
 * enums, arrays and nested objects, with awkward keys, descriptions, enum values and lengths around the print
 * width mixed in), `toolgate codegen`'s file and `toolgate compile`'s declarations are the same bytes on
 * both paths, and a schema outside the subset falls back instead of being written differently.
 */
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import type { PolicyBundle } from "../../src/bundle/policy-bundle.js";
import { generateTypesWith, typeDeclarations } from "../../src/codegen/generate-types.js";
import { compiledDeclarationsWith } from "../../src/compile/compile-controller.js";

const TEXTS = [
  "Plain words.",
  "Two\nlines",
  "Para one.\n\nPara two.",
  "trailing space  ",
  "  leading space",
  "tab\there",
  "\n",
  " ",
  "ends */ a comment",
  "ünïcödé — dash “quotes”",
  "emoji 😀",
  "no-break\u00a0space",
  "carriage\r\nreturn",
  "@deprecated use another",
  "backslash \\ and `code`",
  "x".repeat(130),
];

const KEYS = [
  "path",
  "max_bytes",
  "a",
  "$dollar",
  "_under",
  "default",
  "class",
  "constructor",
  "toString",
  "__proto__",
  "with-dash",
  "1digit",
  "",
  "k".repeat(100),
];

const ENUM_VALUES = [
  "fast",
  "exact",
  "with space",
  "a/b:c",
  "",
  'quote"',
  "it's",
  "back\\slash",
  "ü",
  "v".repeat(60),
];

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });

function withoutUndefined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));
}

const scalar = fc
  .record({
    type: fc.constantFrom("string", "integer", "number", "boolean", "null", ["string", "null"]),
    description: maybe(fc.constantFrom(...TEXTS)),
    enum: maybe(fc.uniqueArray(fc.constantFrom(...ENUM_VALUES), { minLength: 1, maxLength: 6 })),
    maxLength: maybe(fc.integer({ min: 0, max: 4096 })),
    pattern: maybe(fc.constant("^[a-z]+$")),
    minimum: maybe(fc.integer({ min: -5, max: 5 })),
    format: maybe(fc.constantFrom("uri", "email")),
    default: maybe(fc.constant("d")),
    const: maybe(fc.constant("c")),
  })
  .map(withoutUndefined);

const array = fc
  .record({
    type: fc.constant("array"),
    items: maybe(scalar),
    minItems: maybe(fc.integer({ min: 0, max: 5 })),
    maxItems: maybe(fc.integer({ min: 0, max: 50 })),
    uniqueItems: maybe(fc.boolean()),
    description: maybe(fc.constantFrom(...TEXTS)),
  })
  .map(withoutUndefined);

const { node } = fc.letrec<{ node: Record<string, unknown>; object: Record<string, unknown> }>((tie) => ({
  node: fc.oneof({ depthSize: "small", withCrossShrink: true }, scalar, array, tie("object")),
  object: fc
    .record({
      type: fc.constantFrom("object", "object", "object", undefined),
      description: maybe(fc.constantFrom(...TEXTS)),
      properties: maybe(fc.dictionary(fc.constantFrom(...KEYS), tie("node"), { maxKeys: 4 })),
      required: maybe(fc.uniqueArray(fc.constantFrom(...KEYS), { maxLength: 3 })),
      additionalProperties: maybe(fc.constantFrom<unknown>(false, true, {}, { type: "string" })),
    })
    .map(withoutUndefined),
}));

const inputSchema = fc
  .record({
    type: fc.constant("object"),
    description: maybe(fc.constantFrom(...TEXTS)),
    properties: fc.dictionary(fc.constantFrom(...KEYS), node, { maxKeys: 5 }),
    required: maybe(fc.uniqueArray(fc.constantFrom(...KEYS), { maxLength: 3 })),
    additionalProperties: maybe(fc.constantFrom<unknown>(false, true)),
  })
  .map(withoutUndefined);

const TOOL_NAMES = [
  "read_file",
  "write_file",
  "a",
  "Zeta",
  "tool_0001",
  "ec2list",
  "3d_view",
  "with-dash",
  `long_${"n".repeat(45)}`,
];

const tools = fc.uniqueArray(
  fc.record({
    name: fc.constantFrom(...TOOL_NAMES),
    description: fc.constantFrom(...TEXTS, ""),
    inputSchema,
  }),
  { selector: (t) => t.name, maxLength: 4 },
);

function bundleOf(
  list: readonly { name: string; description: string; inputSchema: unknown }[],
): PolicyBundle {
  return {
    tools: list,
    fingerprint: `sha256:${"0".repeat(64)}`,
    mode: "enforce",
  } as unknown as PolicyBundle;
}

/** A promise's value, or the message of what it threw (both paths must refuse a tool alike). */
async function settle<T>(promise: Promise<T>): Promise<{ value?: T; error?: string }> {
  try {
    return { value: await promise };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

describe("the formatted emitter", () => {
  it("writes the bytes json-schema-to-typescript and prettier write, or leaves the file to them", async () => {
    let formatted = 0;
    // json-schema-to-typescript prints each schema it refuses (minItems above maxItems) before throwing.
    const quiet = vi.spyOn(console, "error").mockImplementation(() => undefined);
    await fc.assert(
      fc.asyncProperty(tools, async (list) => {
        const bundle = bundleOf(list);
        if ((await settle(typeDeclarations(bundle))).value?.formatted === true) formatted++;
        expect(await settle(generateTypesWith(bundle))).toEqual(
          await settle(generateTypesWith(bundle, { formatted: false })),
        );
        expect(await settle(compiledDeclarationsWith(bundle, {}))).toEqual(
          await settle(compiledDeclarationsWith(bundle, { formatted: false })),
        );
      }),
      { numRuns: Number(process.env.FORMATTED_RUNS ?? 300) },
    );
    quiet.mockRestore();
    if (process.env.FORMATTED_RUNS !== undefined) console.log(`formatted: ${formatted}`);
    // The property is only worth something if the formatted path is taken often enough.
    expect(formatted).toBeGreaterThan(30);
  }, 120_000);

  it.each([
    ["a ToolName union of 109 characters", [39, 39]],
    ["a ToolName union of exactly 110 characters", [39, 40]],
    ["a ToolName union of 111 characters", [40, 40]],
    ["a ToolName union much too long", Array.from({ length: 12 }, () => 8)],
    ["one long tool name", [80]],
    ["no tools at all", []],
  ])("writes %s as prettier does", async (_label, lengths) => {
    const list = lengths.map((length, i) => ({
      name: `${"abcdefghijkl"[i]}${"x".repeat(length - 1)}`,
      description: "",
      inputSchema: { type: "object", properties: {}, additionalProperties: false },
    }));
    const bundle = bundleOf(list);
    expect((await typeDeclarations(bundle)).formatted).toBe(true);
    expect(await generateTypesWith(bundle)).toBe(await generateTypesWith(bundle, { formatted: false }));
  });
});
