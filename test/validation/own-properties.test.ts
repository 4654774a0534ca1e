/**
 * Validators read own properties only. An argument named like a member of Object.prototype (`toString`,
 * `constructor`, `__proto__`, …) declared optional is absent when the caller did not send it — not
 * Object.prototype's function — and required means sent. Checked through `defineTool`, the YAML-loaded
 * controller and the compiled module, which must agree.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { createController, defineTool, loadPolicy, type ToolController } from "toolgate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importCompiled, tempDir, writeCompiled } from "../compile/compiled-module.js";

/**
 * Every own property name of Object.prototype but `__proto__`: ajv never validates a property of that name,
 * so a schema that declares one is refused (tested below).
 */
const NAMES = Object.getOwnPropertyNames(Object.prototype)
  .filter((name) => name !== "__proto__")
  .sort();

function optionalSchema(names: readonly string[]) {
  return {
    type: "object",
    properties: Object.fromEntries(names.map((name) => [name, { type: "string" }])),
    additionalProperties: false,
  } as const;
}

const OPTIONAL_SCHEMA = optionalSchema(NAMES);

// json-schema-to-typescript, which writes the compiled module's declarations, fails on a property named
// `hasOwnProperty` (it calls `schema.hasOwnProperty`); the compiled module is checked with the others.
const COMPILABLE = NAMES.filter((name) => name !== "hasOwnProperty");

const REQUIRED_SCHEMA = {
  type: "object",
  properties: { toString: { type: "string" }, constructor: { type: "string" } },
  required: ["toString", "constructor"],
} as const;

/** An object as JSON text gives it (so that `__proto__` is an own property). */
function jsonObject(entries: readonly [string, unknown][]): unknown {
  return JSON.parse(`{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(",")}}`);
}

describe("arguments named like Object.prototype members", () => {
  it("has the names to test", () => {
    expect(NAMES).toEqual(expect.arrayContaining(["constructor", "hasOwnProperty", "toString", "valueOf"]));
  });

  it("defineTool: optional means absent unless sent, required means sent", () => {
    const optional = defineTool(
      { name: "opt", description: "optional names", inputSchema: OPTIONAL_SCHEMA },
      () => "ok",
    );
    expect(optional.validateArguments({})).toEqual({ ok: true });
    for (const name of NAMES) {
      expect(optional.validateArguments(jsonObject([[name, "x"]])), name).toEqual({ ok: true });
      expect(optional.validateArguments(jsonObject([[name, 1]])), name).toEqual({
        ok: false,
        issues: [{ path: `/${name}`, message: "must be string" }],
      });
    }
    const required = defineTool(
      { name: "req", description: "required names", inputSchema: REQUIRED_SCHEMA },
      () => "ok",
    );
    expect(required.validateArguments({})).toEqual({
      ok: false,
      issues: [
        { path: "/toString", message: "is required" },
        { path: "/constructor", message: "is required" },
      ],
    });
    expect(required.validateArguments({ toString: "a", constructor: "b" })).toEqual({ ok: true });
  });

  it("refuses a schema that declares __proto__, which ajv would skip without a word", () => {
    for (const text of [
      '{"type":"object","properties":{"__proto__":{"type":"string"}}}',
      '{"type":"object","properties":{"a":{"type":"object","properties":{"__proto__":{"const":1}}}}}',
      '{"type":"object","required":["__proto__"]}',
    ]) {
      expect(
        () => defineTool({ name: "p", description: "proto", inputSchema: JSON.parse(text) }, () => "ok"),
        text,
      ).toThrow(/"__proto__" is never validated/);
    }
  });

  it("enum, const and uniqueItems compare values with own toString / valueOf / constructor keys as data", () => {
    // ajv's own equality (fast-deep-equal) called an own `toString`/`valueOf` (a TypeError: the argument was
    // refused as "could not be validated") and compared `constructor` members by identity.
    const tool = defineTool(
      {
        name: "members",
        description: "members as data",
        inputSchema: {
          type: "object",
          properties: {
            v: { enum: [{ toString: "a" }, { valueOf: 1 }, { constructor: {} }, [{ hasOwnProperty: 2 }]] },
            w: { const: { toString: { x: 1 }, valueOf: null } },
            u: { type: "array", uniqueItems: true },
          },
          additionalProperties: false,
        },
      },
      () => "ok",
    );
    const valid = (args: unknown) => tool.validateArguments(args).ok;
    for (const v of [{ toString: "a" }, { valueOf: 1 }, { constructor: {} }, [{ hasOwnProperty: 2 }]]) {
      expect(valid({ v }), JSON.stringify(v)).toBe(true);
    }
    for (const v of [
      { toString: "b" },
      { valueOf: 2 },
      { constructor: { a: 1 } },
      {},
      [{}],
      { toString: null },
    ]) {
      expect(tool.validateArguments({ v }), JSON.stringify(v)).toEqual({
        ok: false,
        issues: [{ path: "/v", message: "must be equal to one of the allowed values" }],
      });
    }
    expect(valid({ w: { toString: { x: 1 }, valueOf: null } })).toBe(true);
    expect(valid({ w: { valueOf: null, toString: { x: 1 } } })).toBe(true);
    expect(valid({ w: { toString: { x: 2 }, valueOf: null } })).toBe(false);
    expect(valid({ u: [{ valueOf: 1 }, { valueOf: 2 }] })).toBe(true);
    expect(valid({ u: [{ toString: "a" }, { toString: "a" }] })).toBe(false);
    expect(valid({ u: [{ constructor: {} }, { constructor: {} }] })).toBe(false);
  });

  describe("through the YAML-loaded and the compiled controller", () => {
    const handlers = { opt: () => "ran", req: () => "ran" };
    let all: ToolController;
    let loaded: ToolController;
    let compiled: ToolController;
    let cleanup: () => void;

    async function bundleWith(dir: string, names: readonly string[]) {
      const tools = [
        { name: "opt", description: "optional names", input_schema: optionalSchema(names) },
        { name: "req", description: "required names", input_schema: REQUIRED_SCHEMA },
      ];
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "tools.yaml"), JSON.stringify({ tools }));
      writeFileSync(join(dir, "policy.yaml"), JSON.stringify({ version: 1, allow: ["opt", "req"] }));
      const config = join(dir, "toolgate.config.yaml");
      writeFileSync(config, JSON.stringify({ tools: ["tools.yaml"], policy: "policy.yaml" }));
      const bundle = await loadPolicy({ config: relative(process.cwd(), config) });
      expect(Object.keys(bundle.tools[0]?.inputSchema.properties as object).sort()).toEqual(names);
      return bundle;
    }

    beforeAll(async () => {
      const temp = tempDir("own-properties");
      cleanup = temp.remove;
      all = createController({ bundle: await bundleWith(join(temp.dir, "all"), NAMES), handlers });
      const bundle = await bundleWith(join(temp.dir, "compilable"), COMPILABLE);
      loaded = createController({ bundle, handlers });
      const module = await importCompiled(await writeCompiled(bundle, join(temp.dir, "compilable")));
      compiled = module.createController({ handlers });
    });
    afterAll(() => cleanup());

    /** The call through the loaded controller of every name, and (but for `hasOwnProperty`) compiled vs loaded. */
    async function both(tool: string, value: unknown, name?: string) {
      const call = { callId: "c", toolName: tool, arguments: value };
      const a = await all.handle(call);
      if (name === undefined || COMPILABLE.includes(name)) {
        expect(await loaded.handle(call)).toEqual(a);
        expect(await compiled.handle(call)).toEqual(a);
      }
      return a;
    }

    it("an optional member name not sent is absent", async () => {
      expect(await both("opt", {})).toEqual({ callId: "c", content: "ran", isError: false });
    });

    it("each member name sent as a string is accepted, and as a number refused at its path", async () => {
      for (const name of NAMES) {
        expect(await both("opt", jsonObject([[name, "x"]]), name), name).toEqual({
          callId: "c",
          content: "ran",
          isError: false,
        });
        const refused = await both("opt", jsonObject([[name, 1]]), name);
        expect(refused.isError, name).toBe(true);
        expect(String(refused.content), name).toContain(`/${name}`);
      }
    });

    it("a required member name is required", async () => {
      const refused = await both("req", {});
      expect(refused.isError).toBe(true);
      expect(String(refused.content)).toContain("/toString");
      expect(String(refused.content)).toContain("/constructor");
      expect(await both("req", { toString: "a", constructor: "b" })).toEqual({
        callId: "c",
        content: "ran",
        isError: false,
      });
    });
  });
});
