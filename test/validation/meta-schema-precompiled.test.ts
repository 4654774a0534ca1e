/**
 * The build compiles the JSON Schema 2020-12 meta-schema's validator ahead of time
 * (`scripts/compile-meta-schema.mjs`), and the built validator factory checks input schemas with it instead of
 * compiling the meta-schema in every load. A schema must then be accepted or refused exactly as before, with
 * the same message: the built factory against the sources' (which compiles the meta-schema as ajv always has),
 * on every input schema and context schema in the repository's YAML, on every subschema of those and of
 * toolgate's own file schemas, and on schemas broken in each way the meta-schema checks.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { fileSchema } from "../../src/config/validate-schema.js";
import type { JsonSchema } from "../../src/runtime/types.js";
import { ValidatorFactory } from "../../src/validation/argument-validator.js";
import { assertBuilt, ROOT } from "../cli/cli-helpers.js";

type Factory = { compile(schema: JsonSchema): { ok: boolean; message?: string } };
type FactoryClass = new (extra?: object) => Factory & { ajvFor(draft: string): unknown };

let Built: FactoryClass;

beforeAll(async () => {
  assertBuilt();
  const url = pathToFileURL(join(ROOT, "dist/validation/argument-validator.js")).href;
  Built = ((await import(url)) as { ValidatorFactory: FactoryClass }).ValidatorFactory;
});

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(entry.name) ? [path] : [];
  });
}

/** Every object and boolean below a value (a schema's subschemas and more: each is checked as a schema). */
function nodes(value: unknown): unknown[] {
  if (value === null || typeof value !== "object") return typeof value === "boolean" ? [value] : [];
  return [value, ...Object.values(value).flatMap(nodes)];
}

/** Input and context schemas of every YAML file in the repository that parses. */
function repositorySchemas(): unknown[] {
  return ["test/fixtures", "policies", "examples"].flatMap((dir) =>
    yamlFiles(join(ROOT, dir)).flatMap((file) => {
      let data: unknown;
      try {
        data = parse(readFileSync(file, "utf8"), { logLevel: "error" });
      } catch {
        return [];
      }
      const tools = (data as { tools?: unknown } | null)?.tools;
      const inputs = Array.isArray(tools)
        ? tools.map((tool) => (tool as { input_schema?: unknown } | null)?.input_schema)
        : [];
      const context = (data as { context_schema?: unknown } | null)?.context_schema;
      return [...inputs, context].filter((schema) => schema !== undefined);
    }),
  );
}

/** Schemas broken in the ways the meta-schema checks: each keyword with a value of the wrong kind. */
const BROKEN: unknown[] = [
  { type: 5 },
  { type: "strin" },
  { type: ["string", "string"] },
  { properties: [] },
  { properties: { a: 3 } },
  { required: "a" },
  { required: [1] },
  { required: ["a", "a"] },
  { $id: 5 },
  { $id: "a#b" },
  { $anchor: "1bad" },
  { $dynamicAnchor: "-x" },
  { $ref: 5 },
  { pattern: 5 },
  { minLength: -1 },
  { maxItems: 1.5 },
  { enum: "a" },
  { items: 3 },
  { prefixItems: [] },
  { $defs: { a: 3 } },
  { format: 7 },
  { uniqueItems: "yes" },
  { additionalProperties: "no" },
  { allOf: [] },
  { anyOf: {} },
  { dependentRequired: { a: [1] } },
  { minimum: "0" },
  { multipleOf: 0 },
  { title: 1, description: 2, deprecated: "no" },
  { contentEncoding: 1 },
  JSON.parse(`{ "if": 1, "then": 2, "else": 3 }`),
  { unevaluatedProperties: 1 },
  { $comment: 1 },
  { $vocabulary: { x: "yes" } },
  { type: "object", properties: { a: { type: "string", minLength: "1" } }, required: ["a"] },
];

describe("the meta-schema validator compiled at build time", () => {
  it("is what the built factory checks 2020-12 schemas with (no meta-schema compile)", () => {
    const ajv = new Built().ajvFor("2020-12") as {
      schemas: Record<string, { validate?: unknown }>;
    };
    expect(typeof ajv.schemas["https://json-schema.org/draft/2020-12/schema"]?.validate).toBe("function");
  });

  it("accepts and refuses every schema as the run-time compile does, with the same message", () => {
    const schemas = [
      ...repositorySchemas().flatMap(nodes),
      ...(["config", "tools", "policy", "tests"] as const).flatMap((kind) => nodes(fileSchema(kind))),
      ...BROKEN,
    ];
    expect(schemas.length).toBeGreaterThan(1000);
    let refused = 0;
    const sources = new ValidatorFactory();
    const built = new Built();
    for (const [index, schema] of schemas.entries()) {
      const expected = sources.compile(schema as JsonSchema);
      const actual = built.compile(schema as JsonSchema);
      expect({ ok: actual.ok, message: actual.message }, `${index}: ${JSON.stringify(schema)}`).toEqual({
        ok: expected.ok,
        message: expected.ok ? undefined : expected.message,
      });
      if (!expected.ok) refused++;
    }
    expect(refused).toBeGreaterThan(BROKEN.length - 3);
  });
});
