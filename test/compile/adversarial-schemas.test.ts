/**
 * Schema text cannot rewrite the compiled module. Each hostile string below is placed, one at a time, in a
 * tool's input schema (description, property name, enum value, `const`, `pattern`) and in the
 * `context_schema` (the same places) of a small config. For every string: the compiled module imports
 * (in vitest and in a plain node process), exports exactly its five names, contains no `require(`, and
 * decides a fixed set of calls — valid and invalid arguments, valid and invalid contexts — exactly as the
 * YAML-loaded controller does. A string that could end a string literal or comment, or that reads as an
 * export, would show up as a different decision (an invalid call allowed, a bad context accepted).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import {
  createController,
  loadPolicy,
  type PolicyBundle,
  type ToolContext,
  type ToolController,
} from "toolgate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, ROOT } from "../package/built-package.js";
import { type CompiledModule, importCompiled, tempDir, writeCompiled } from "./compiled-module.js";

/** Strings that try to break out of a string literal, a comment or a script, or that read as code. */
const HOSTILE: readonly string[] = [
  "export const v0 = Boolean;",
  "export const v1 = Boolean;",
  "export const context = Boolean;",
  '";export const v1 = Boolean;//',
  "\nexport const v1=Boolean;\nexport const context=Boolean;\n",
  "export { Boolean as v1 };",
  "export default Boolean;",
  "return { v0: Boolean, v1: Boolean, context: Boolean };",
  "})(); export const v1 = Boolean; (() => {",
  "*/ export const v1 = Boolean; /*",
  "/* unclosed",
  "*/",
  '"',
  "'",
  "\\",
  '\\"',
  "`",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a hostile string, meant literally
  "${process.exit(1)}",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a hostile string, meant literally
  "`${globalThis.x = 1}`",
  "\u2028export const v1 = Boolean;\u2029",
  "\u2028",
  "\u2029",
  "</script><script>alert(1)</script>",
  "<!--",
  "a\u0000b",
  "\u0000",
  'require("node:fs")',
  "require(",
  'import("node:fs")',
  "const schema900 = {};",
  "validate10",
  "schema31",
  "func2",
  "\r\n",
  "\ud83d\ude00 é ß",
];

/** `text` as a regular expression that matches exactly it. */
function exactly(text: string): string {
  return `^${text.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&")}$`;
}

/** The config files of one case, with `h` in every position. JSON is YAML. */
function writeCase(dir: string, h: string): string {
  const alpha = {
    name: "alpha",
    description: h,
    input_schema: {
      type: "object",
      description: h,
      properties: {
        [h]: { type: "string", description: h },
        choice: { type: "string", enum: [h, "plain"], description: h },
        fixed: { const: h },
        pat: { type: "string", pattern: exactly(h) },
      },
      required: ["choice"],
      additionalProperties: false,
    },
  };
  const beta = {
    name: "beta",
    description: "strict integers",
    input_schema: {
      type: "object",
      properties: { n: { type: "integer", minimum: 0, maximum: 3 } },
      required: ["n"],
      additionalProperties: false,
    },
  };
  const config = {
    tools: ["tools.yaml"],
    policy: "policy.yaml",
    context_schema: {
      type: "object",
      description: h,
      properties: {
        environment: { type: "string", enum: ["development", "production"], description: h },
        [h]: { const: h },
      },
      required: ["environment"],
      additionalProperties: false,
    },
  };
  const policy = {
    version: 1,
    allow: ["alpha", "beta"],
    rules: [
      {
        id: "no-three-in-production",
        tools: ["beta"],
        decision: "deny",
        when: { n: { equals: 3 } },
        context: { environment: { equals: "production" } },
        reason: `refused: ${h}`,
      },
    ],
  };
  writeFileSync(join(dir, "tools.yaml"), JSON.stringify({ tools: [alpha, beta] }));
  writeFileSync(join(dir, "policy.yaml"), JSON.stringify(policy));
  const file = join(dir, "toolgate.config.yaml");
  writeFileSync(file, JSON.stringify(config));
  return file;
}

/** Calls with what each must give (checked on both controllers); `null` = only compared. */
function callsFor(h: string): { args: unknown; tool: string; context: ToolContext; expect: string | null }[] {
  const dev = { environment: "development" };
  const prod = { environment: "production" };
  return [
    { tool: "beta", args: { n: "1" }, context: dev, expect: "invalid" },
    { tool: "beta", args: { n: 1, extra: true }, context: dev, expect: "invalid" },
    { tool: "beta", args: {}, context: dev, expect: "invalid" },
    { tool: "beta", args: { n: 1 }, context: dev, expect: "allow" },
    { tool: "beta", args: { n: 3 }, context: prod, expect: "deny" },
    { tool: "beta", args: { n: 3 }, context: { environmnt: "production" }, expect: "context" },
    { tool: "beta", args: { n: 3 }, context: { environment: "staging" }, expect: "context" },
    { tool: "beta", args: { n: 1 }, context: { ...dev, [h]: h }, expect: "allow" },
    { tool: "beta", args: { n: 1 }, context: { ...dev, [h]: `${h}x` }, expect: "context" },
    { tool: "alpha", args: { choice: h }, context: dev, expect: "allow" },
    { tool: "alpha", args: { choice: "plain", fixed: h, pat: h, [h]: "s" }, context: dev, expect: "allow" },
    { tool: "alpha", args: { choice: `${h}x` }, context: dev, expect: "invalid" },
    { tool: "alpha", args: { choice: "plain", fixed: `${h}x` }, context: dev, expect: "invalid" },
    { tool: "alpha", args: { choice: "plain", pat: `${h}x` }, context: dev, expect: "invalid" },
    { tool: "alpha", args: { choice: "plain", [h]: 5 }, context: dev, expect: "invalid" },
    { tool: "alpha", args: { choice: "plain", other: 1 }, context: dev, expect: null },
  ];
}

async function decide(controller: ToolController, tool: string, args: unknown, context: ToolContext) {
  const call = { callId: "c1", toolName: tool, arguments: args };
  const explained = controller.explain(call, context);
  const handled = await controller.handle(call, context);
  const { approvalId: _a, createdAt: _c, expiresAt: _e, ...rest } = handled as { [key: string]: unknown };
  return { explained, handled: rest };
}

function kind(result: Awaited<ReturnType<typeof decide>>): string {
  if ("callId" in result.explained) {
    return JSON.stringify(result.explained.content).includes("invalid context") ? "context" : "invalid";
  }
  return result.explained.decision.action;
}

interface Case {
  readonly hostile: string;
  readonly bundle: PolicyBundle;
  readonly file: string;
  readonly module: CompiledModule;
}

describe("hostile schema strings cannot change what the compiled module does", () => {
  const cases: Case[] = [];
  let cleanup: () => void;

  beforeAll(async () => {
    const temp = tempDir("adversarial");
    cleanup = temp.remove;
    for (const [index, hostile] of HOSTILE.entries()) {
      const dir = join(temp.dir, `case${index}`);
      mkdirSync(dir);
      const bundle = await loadPolicy({ config: relative(process.cwd(), writeCase(dir, hostile)) });
      const file = await writeCompiled(bundle, dir);
      cases.push({ hostile, bundle, file, module: await importCompiled(file) });
    }
  }, 120_000);
  afterAll(() => cleanup());

  it("compiles every case, with no require( and exactly the eight exports", () => {
    expect(cases).toHaveLength(HOSTILE.length);
    for (const { hostile, bundle, file, module } of cases) {
      const text = readFileSync(file, "utf8");
      expect(text.includes("require("), JSON.stringify(hostile)).toBe(false);
      expect(Object.keys(module).sort(), JSON.stringify(hostile)).toEqual(
        [
          "aliases",
          "createController",
          "fingerprint",
          "mode",
          "policy",
          "specs",
          "statements",
          "typesFingerprint",
        ].sort(),
      );
      expect(module.fingerprint).toBe(bundle.fingerprint);
      expect(module.specs[0]?.description).toBe(hostile);
    }
  });

  it("decides every call as the YAML-loaded controller, and as expected", async () => {
    for (const { hostile, bundle, module } of cases) {
      const handlers = { alpha: () => "ran alpha", beta: () => "ran beta" };
      const loaded = createController({ bundle, handlers });
      const compiled = module.createController({ handlers });
      for (const { tool, args, context, expect: expected } of callsFor(hostile)) {
        const label = `${JSON.stringify(hostile)}: ${tool} ${JSON.stringify(args)} ${JSON.stringify(context)}`;
        const a = await decide(loaded, tool, args, context);
        const b = await decide(compiled, tool, args, context);
        expect(b, label).toEqual(a);
        if (expected !== null) expect(kind(b), label).toBe(expected);
      }
    }
  });

  it("imports every case in a plain node process (toolgate/runtime from dist/)", () => {
    assertBuilt();
    const script = `
      const files = JSON.parse(process.argv[1]);
      const out = [];
      for (const file of files) {
        const m = await import(new URL("file://" + file).href);
        const c = m.createController({ handlers: { alpha: () => "a", beta: () => "b" } });
        const r = await c.handle({ callId: "c", toolName: "beta", arguments: { n: "1" } }, { environment: "development" });
        out.push(r.isError === true);
      }
      console.log(JSON.stringify(out));
    `;
    const files = cases.map((c) => c.file);
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", script, JSON.stringify(files)], {
      encoding: "utf8",
      cwd: ROOT,
    });
    expect(child.stderr).toBe("");
    expect(child.status).toBe(0);
    expect(JSON.parse(child.stdout)).toEqual(files.map(() => true));
  });
});
