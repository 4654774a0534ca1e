/**
 * A `"__proto__"` key inside policy data — an `enum` or `const` value of an input schema, a `default`, the
 * context schema, the audit redaction — is data in the compiled module exactly as in the YAML-loaded
 * controller: the module reads every piece of policy data as JSON is read (`JSON.parse`), never as an
 * object literal, where such a key would set the object's prototype instead. Before, the compiled
 * controller's `enum: [{"__proto__": {…}}]` accepted `{}` (an object whose prototype was `{…}`), which
 * the loaded controller refused, and ran the handler with it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { createController, loadPolicy, type PolicyBundle, type ToolController } from "toolgate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CompiledModule, importCompiled, tempDir, writeCompiled } from "./compiled-module.js";

// JSON text, so that every "__proto__" key is an own key of the parsed data (as the YAML loader keeps it).
const TOOLS = `{"tools":[{"name":"pick","description":"d","input_schema":{"type":"object","properties":{
  "choice":{"enum":[{"__proto__":{"admin":true}},"plain"]},
  "fixed":{"const":{"__proto__":{"role":"root"}}},
  "nested":{"type":"array","items":{"enum":[[{"__proto__":[1]}],{"a":{"__proto__":null}}]}},
  "opts":{"type":"object","default":{"__proto__":{"x":1}},"examples":[{"__proto__":{"y":2}}]},
  "member":{"enum":[{"toString":"a"},{"valueOf":1},{"constructor":{}}]},
  "same":{"type":"array","uniqueItems":true}
},"additionalProperties":false}}]}`;

const CONFIG = `{"tools":["tools.yaml"],"policy":"policy.yaml","context_schema":{"type":"object",
  "properties":{"who":{"enum":[{"__proto__":{"env":"prod"}},"dev"]}},"additionalProperties":false}}`;

const POLICY = `{"version":1,"allow":["pick"]}`;

/** Arguments with the decision each must get (from both controllers). */
const CALLS: readonly { args: string; valid: boolean }[] = [
  { args: "{}", valid: true },
  { args: '{"choice":"plain"}', valid: true },
  // An empty object is not the enum value (which is an object with one own key, "__proto__").
  { args: '{"choice":{}}', valid: false },
  { args: '{"choice":{"admin":true}}', valid: false },
  { args: '{"fixed":{}}', valid: false },
  { args: '{"fixed":{"role":"root"}}', valid: false },
  { args: '{"nested":[[{}]]}', valid: false },
  { args: '{"nested":[{"a":{}}]}', valid: false },
  { args: '{"nested":[{"a":null}]}', valid: false },
  { args: '{"opts":{}}', valid: true },
  // Own keys named like Object.prototype members are data to enum and uniqueItems, as in JSON.
  { args: '{"member":{"toString":"a"}}', valid: true },
  { args: '{"member":{"valueOf":1}}', valid: true },
  { args: '{"member":{"constructor":{}}}', valid: true },
  { args: '{"member":{"toString":"b"}}', valid: false },
  { args: '{"member":{}}', valid: false },
  { args: '{"same":[{"valueOf":1},{"valueOf":2}]}', valid: true },
  { args: '{"same":[{"toString":"a"},{"toString":"a"}]}', valid: false },
];

describe('a "__proto__" key in policy data is data in the compiled module', () => {
  let bundle: PolicyBundle;
  let module: CompiledModule;
  let text: string;
  let cleanup: () => void;

  beforeAll(async () => {
    const temp = tempDir("proto-data");
    cleanup = temp.remove;
    writeFileSync(join(temp.dir, "tools.yaml"), TOOLS);
    writeFileSync(join(temp.dir, "policy.yaml"), POLICY);
    writeFileSync(join(temp.dir, "toolgate.config.yaml"), CONFIG);
    bundle = await loadPolicy({ config: relative(process.cwd(), join(temp.dir, "toolgate.config.yaml")) });
    const file = await writeCompiled(bundle, temp.dir);
    text = readFileSync(file, "utf8");
    module = await importCompiled(file);
  });
  afterAll(() => cleanup());

  it("the exported specs keep the keys as own data, with plain prototypes", () => {
    const schema = module.specs[0]?.inputSchema as { properties: { choice: { enum: object[] } } };
    const value = schema.properties.choice.enum[0] as object;
    expect(Object.keys(value)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(module.specs).toEqual(
      bundle.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
    );
  });

  it("no policy data is written as an object literal with a __proto__ key", () => {
    // Every string literal collapsed (JSON.parse arguments hold the data), except a "__proto__" of its own,
    // which, followed by a colon, is an object-literal key.
    const tokens = text.replace(/"(?:[^"\\\n]|\\.)*"/g, (s) => (s === '"__proto__"' ? "PROTO" : '""'));
    expect(tokens).not.toMatch(/(?:PROTO|__proto__)\s*:/);
    expect(text).toContain("__proto__");
  });

  it("decides and runs every call as the YAML-loaded controller", async () => {
    const ran: { which: string; args: unknown }[] = [];
    const handlersFor = (which: string) => ({
      pick: (args: unknown) => {
        ran.push({ which, args });
        return "ran";
      },
    });
    const loaded: ToolController = createController({ bundle, handlers: handlersFor("loaded") });
    const compiled: ToolController = module.createController({ handlers: handlersFor("compiled") });
    for (const [index, { args, valid }] of CALLS.entries()) {
      const call = { callId: `c${index}`, toolName: "pick", arguments: JSON.parse(args) as unknown };
      for (const context of [
        { who: "dev" },
        JSON.parse('{"who":{}}'),
        JSON.parse('{"who":{"env":"prod"}}'),
      ]) {
        ran.length = 0;
        const a = await loaded.handle(call, context);
        const b = await compiled.handle(call, context);
        expect(b, `${args} ${JSON.stringify(context)}`).toEqual(a);
        const contextValid = context.who === "dev";
        expect(a.isError, `${args} ${JSON.stringify(context)}`).toBe(!(valid && contextValid));
        expect(ran.map((r) => r.which)).toEqual(valid && contextValid ? ["loaded", "compiled"] : []);
        if (ran.length === 2) expect(ran[1]?.args).toEqual(ran[0]?.args);
      }
    }
  });
});
