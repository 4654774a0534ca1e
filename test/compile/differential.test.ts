/**
 * Differential test (STYLE.md): the same calls through the YAML-loaded controller (`createController`
 * from `toolgate`) and through the compiled module's `createController` give identical decisions,
 * reasons, rule ids and results — for the policy tests of each config and for fast-check calls generated
 * from each tool's input schema (plus garbage arguments, unknown tools and random contexts).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import fc from "fast-check";
import {
  createController,
  loadPolicy,
  type PolicyBundle,
  type ToolCall,
  type ToolContext,
  type ToolController,
  ToolFailure,
} from "toolgate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, ROOT } from "../package/built-package.js";
import { type CompiledModule, importCompiled, tempDir, writeCompiled } from "./compiled-module.js";
import { arbitraryForSchema, policyStrings } from "./schema-arbitrary.js";

const FIXTURES = join(ROOT, "test", "fixtures", "compile");

/** The reference policy, and every folder under test/fixtures/compile/ (each must hold a config). */
function cases(): { name: string; config: string; runs: number }[] {
  const found = [{ name: "reference policy", config: join(ROOT, "toolgate.config.yaml"), runs: 600 }];
  for (const entry of readdirSync(FIXTURES, { withFileTypes: true })) {
    const config = join(FIXTURES, entry.name, "toolgate.config.yaml");
    if (!entry.isDirectory() || !existsSync(config)) {
      throw new Error(`test/fixtures/compile/${entry.name} is not a case folder with a toolgate.config.yaml`);
    }
    found.push({ name: entry.name, config, runs: 500 });
  }
  return found;
}

/** Handlers that answer deterministically and sometimes fail as a tool failure. */
function handlersFor(bundle: PolicyBundle) {
  return Object.fromEntries(
    bundle.tools.map((tool) => [
      tool.name,
      (args: unknown, ctx: ToolContext) => {
        const text = JSON.stringify({ tool: tool.name, args, ctx });
        if (text.length % 7 === 0) throw new ToolFailure(`refused by ${tool.name}`);
        return text;
      },
    ]),
  );
}

/** What must be equal between the two controllers for one call; a thrown defect must be the same too. */
async function outcome(
  controller: ToolController,
  call: ToolCall,
  context: ToolContext | undefined,
  approve: boolean,
): Promise<Awaited<ReturnType<typeof runCall>> | { threw: string }> {
  try {
    return await runCall(controller, call, context, approve);
  } catch (error) {
    return { threw: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

async function runCall(
  controller: ToolController,
  call: ToolCall,
  context: ToolContext | undefined,
  approve: boolean,
) {
  const explained = controller.explain(call, context);
  const decision =
    "callId" in explained
      ? { invalid: explained }
      : {
          action: explained.decision.action,
          reason: explained.decision.reason,
          ruleIds: explained.decision.ruleIds,
          fingerprint: explained.decision.fingerprint,
        };
  const handled = await controller.handle(call, context);
  if (!("approvalId" in handled)) return { decision, result: handled };
  const { approvalId: _id, createdAt: _created, expiresAt: _expires, ...request } = handled;
  const resolved = await controller.resolve({
    approvalId: handled.approvalId,
    approved: approve,
    approver: "test",
    ...(approve ? {} : { reason: "not now" }),
  });
  return { decision, request, resolved };
}

describe.each(cases())("compiled controller vs YAML-loaded controller: $name", ({ config, runs }) => {
  let bundle: PolicyBundle;
  let compiled: CompiledModule;
  let file: string;
  let yaml: ToolController;
  let standalone: ToolController;
  let cleanup: () => void;

  beforeAll(async () => {
    bundle = await loadPolicy({ config: relative(process.cwd(), config) });
    const temp = tempDir("differential");
    cleanup = temp.remove;
    file = await writeCompiled(bundle, temp.dir);
    compiled = await importCompiled(file);
    yaml = createController({ bundle, handlers: handlersFor(bundle) });
    standalone = compiled.createController({ handlers: handlersFor(bundle) });
  });
  afterAll(() => cleanup());

  it("carries the bundle's fingerprint, specs and statements", () => {
    expect(compiled.fingerprint).toBe(bundle.fingerprint);
    expect(compiled.specs).toEqual(
      bundle.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
    );
    expect(compiled.statements).toEqual(bundle.statements);
    expect(Object.isFrozen(compiled.specs[0]?.inputSchema)).toBe(true);
    expect(standalone.visibleSpecs()).toEqual(yaml.visibleSpecs());
  });

  it("has no require( and imports in a plain node process (toolgate/runtime from dist/)", () => {
    assertBuilt();
    expect(readFileSync(file, "utf8")).not.toContain("require(");
    const script = `
      import { readFileSync } from "node:fs";
      const file = process.argv[1];
      if (readFileSync(file, "utf8").includes("require(")) { console.error("require( found"); process.exit(1); }
      const m = await import(new URL("file://" + file).href);
      console.log(JSON.stringify({ fingerprint: m.fingerprint, tools: m.specs.map((s) => s.name), create: typeof m.createController }));
    `;
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", script, file], {
      encoding: "utf8",
      cwd: ROOT,
    });
    expect(child.stderr).toBe("");
    expect(child.status).toBe(0);
    expect(JSON.parse(child.stdout)).toEqual({
      fingerprint: bundle.fingerprint,
      tools: bundle.tools.map((t) => t.name),
      create: "function",
    });
  });

  it("decides every policy test case identically, and as the test expects", async () => {
    expect(bundle.tests.length).toBeGreaterThan(0);
    for (const [index, test] of bundle.tests.entries()) {
      const call = { callId: `t${index}`, toolName: test.tool, arguments: test.arguments };
      const a = await outcome(yaml, call, test.context, index % 2 === 0);
      const b = await outcome(standalone, call, test.context, index % 2 === 0);
      expect(b, test.name).toEqual(a);
      if (!("decision" in b)) throw new Error(`${test.name}: ${b.threw}`);
      const action = "invalid" in b.decision ? "invalid" : b.decision.action;
      expect(action, test.name).toBe(test.expect);
    }
  });

  it(`decides and answers fast-check calls identically (${runs} runs)`, async () => {
    const hints = { strings: policyStrings(bundle.statements) };
    const callArbitrary = fc.oneof(
      {
        weight: 9,
        arbitrary: fc.oneof(
          ...bundle.tools.map((tool) =>
            fc.record({
              toolName: fc.constant(tool.name),
              arguments: arbitraryForSchema(tool.inputSchema, hints),
            }),
          ),
        ),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          toolName: fc.oneof(
            fc.string({ maxLength: 10 }),
            fc.constantFrom("toString", "__proto__", "constructor"),
          ),
          arguments: fc.jsonValue({ maxDepth: 2 }),
        }),
      },
    );
    const contextArbitrary = fc.option(
      bundle.contextSchema === null
        ? fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }))
        : (arbitraryForSchema(bundle.contextSchema, hints) as fc.Arbitrary<ToolContext>),
      { nil: undefined },
    );
    let n = 0;
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(callArbitrary, contextArbitrary, fc.boolean(), async (generated, context, approve) => {
        const call = { callId: `call_${n++}`, toolName: generated.toolName, arguments: generated.arguments };
        const a = await outcome(yaml, call, context as ToolContext | undefined, approve);
        const b = await outcome(standalone, call, context as ToolContext | undefined, approve);
        expect(b).toEqual(a);
        if ("decision" in b) seen.add("invalid" in b.decision ? "invalid" : b.decision.action);
      }),
      { numRuns: runs },
    );
    // Not vacuous: the generated calls reach every kind of outcome.
    expect([...seen].sort()).toEqual(["allow", "ask", "deny", "invalid"]);
  });
});
