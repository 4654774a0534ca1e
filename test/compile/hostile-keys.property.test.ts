/**
 * Differential property: keys named like Object.prototype's members (`__proto__`, `constructor`, `toString`,
 * `valueOf`, `hasOwnProperty`, `__defineGetter__`, `prototype`) are data everywhere — in input schemas
 * (property names, `enum`, `const` and `default` values), in rule conditions and in arguments. fast-check
 * writes small policies (1–3 tools, rules with `equals` / `in` / `prefix` / `exists` on those keys), loads
 * each with the runtime loader, compiles it with the real compiler and imports the module, then makes the
 * same calls through both controllers: the decisions, results, errors and the arguments each handler gets
 * (deep-equal, the same own keys at every level, frozen, plain prototypes) must be identical.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import fc from "fast-check";
import { createController, loadPolicyResult, type ToolController } from "toolgate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importCompiled, tempDir, writeCompiled } from "./compiled-module.js";

const HOSTILE = [
  "__proto__",
  "constructor",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "__defineGetter__",
  "prototype",
] as const;
const ORDINARY = ["a", "path"] as const;
const KEYS = [...HOSTILE, ...ORDINARY];
/** A schema may not declare a property named `__proto__` (ajv would skip it): the loader refuses it. */
const PROPERTY_NAMES = KEYS.filter((k) => k !== "__proto__");
const TOOL_NAMES = ["alpha", "toString", "valueOf", "hasOwnProperty"] as const;

/** An object with these entries as own data properties, `__proto__` included (as JSON.parse makes it). */
function own(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of entries) {
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

const scalar = fc.oneof(
  fc.constantFrom(...KEYS, "", "x", "docs/a"),
  fc.integer({ min: -2, max: 2 }),
  fc.boolean(),
  fc.constant(null),
);

/** JSON values whose object keys are mostly the hostile names. */
const json: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", maxDepth: 3 },
    scalar,
    fc.array(tie("value"), { maxLength: 2 }),
    fc
      .uniqueArray(fc.tuple(fc.constantFrom(...KEYS), tie("value")), { maxLength: 3, selector: ([k]) => k })
      .map(own),
  ),
})).value;

interface PropertySpec {
  readonly name: string;
  readonly schema: Record<string, unknown>;
  /** Values worth sending (enum and const values, defaults). */
  readonly samples: readonly unknown[];
  /** Values the schema accepts (its enum and const values), as arguments may carry them: no `__proto__` key. */
  readonly valid: readonly unknown[];
  /** A nested untyped property (`name.child`), for conditions on dotted paths. */
  readonly child?: string;
}

const canonical = (v: unknown) => JSON.stringify(v);
/** The value without its `__proto__` keys (what an object literal would have made of it). */
const withoutProto = (v: unknown): unknown =>
  v === null || typeof v !== "object"
    ? v
    : Array.isArray(v)
      ? v.map(withoutProto)
      : own(
          Object.entries(v)
            .filter(([k]) => k !== "__proto__")
            .map(([k, x]) => [k, withoutProto(x)]),
        );
/** Argument values may not carry a `__proto__` key (the controllers refuse it). */
const sendable = (values: readonly unknown[]) => values.filter((v) => !canonical(v).includes('"__proto__"'));
const distinct = (values: readonly unknown[]) => [...new Map(values.map((v) => [canonical(v), v])).values()];

const propertySchema = (name: string): fc.Arbitrary<PropertySpec> =>
  fc.oneof(
    fc
      .record({
        values: fc.array(json, { minLength: 1, maxLength: 3 }),
        def: fc.option(json, { nil: undefined }),
      })
      .map(({ values, def }) => {
        const values_ = distinct(values);
        return {
          name,
          schema: own([["enum", values_], ...(def === undefined ? [] : [["default", def] as const])]),
          samples: values_,
          valid: sendable(values_),
        };
      }),
    json.map((value) => ({
      name,
      schema: own([["const", value]]),
      samples: [value],
      valid: sendable([value]),
    })),
    fc.record({ child: fc.constantFrom(...PROPERTY_NAMES), def: json }).map(({ child, def }) => ({
      name,
      schema: own([
        ["type", "object"],
        ["properties", own([[child, own([])]])],
        ["default", def],
      ]),
      samples: [own([[child, "docs/a"]]), def],
      valid: [own([[child, "docs/a"]])],
      child,
    })),
    fc.constant({
      name,
      schema: own([["type", "string"]]),
      samples: ["docs/a", "x"],
      valid: ["docs/a", "x"],
    }),
    json.map((def) => ({ name, schema: own([["default", def]]), samples: [def], valid: sendable([def]) })),
  );

const toolArbitrary = (name: string) =>
  fc
    .uniqueArray(fc.constantFrom(...PROPERTY_NAMES), { minLength: 1, maxLength: 3 })
    .chain((names) => fc.tuple(...names.map(propertySchema)))
    .chain((properties) =>
      fc.record({
        name: fc.constant(name),
        properties: fc.constant(properties),
        additional: fc.boolean(),
        set: fc.constantFrom("allow", "ask", "none"),
      }),
    );

type Tool = fc.Arbitrary<ReturnType<typeof toolArbitrary> extends fc.Arbitrary<infer T> ? T : never>;
type GeneratedTool = Tool extends fc.Arbitrary<infer T> ? T : never;

/** A condition operator fitting the property (untyped fields take every operator). */
const operatorFor = (property: PropertySpec): fc.Arbitrary<{ field: string; operator: unknown }> => {
  const sample = fc.constantFrom(...property.samples, "docs/a");
  const operators = fc.oneof(
    sample.map((v) => own([["equals", v]])),
    fc.array(sample, { minLength: 1, maxLength: 3 }).map((vs) => own([["in", distinct(vs)]])),
    fc.constantFrom("docs", "", "x").map((p) => own([["prefix", p]])),
    fc.boolean().map((b) => own([["exists", b]])),
  );
  if (property.child !== undefined) {
    // The object itself takes `exists` only; its untyped child takes every operator.
    return fc.oneof(
      fc.boolean().map((b) => ({ field: property.name, operator: own([["exists", b]]) })),
      operators.map((operator) => ({ field: `${property.name}.${property.child}`, operator })),
    );
  }
  if (property.schema.type === "string") {
    return fc.oneof(
      fc.constantFrom("docs", "x").map((p) => ({ field: property.name, operator: own([["prefix", p]]) })),
      fc.boolean().map((b) => ({ field: property.name, operator: own([["exists", b]]) })),
    );
  }
  return operators.map((operator) => ({ field: property.name, operator }));
};

const policyArbitrary = fc
  .uniqueArray(fc.constantFrom(...TOOL_NAMES), { minLength: 1, maxLength: 3 })
  .chain((names) => fc.tuple(...names.map(toolArbitrary)))
  .chain((tools) =>
    fc.record({
      tools: fc.constant(tools as GeneratedTool[]),
      rules: fc.array(
        fc.constantFrom(...tools).chain((tool) =>
          fc.record({
            tool: fc.constant(tool.name),
            decision: fc.constantFrom("allow", "ask", "deny"),
            when: fc
              .uniqueArray(fc.constantFrom(...tool.properties).chain(operatorFor), {
                minLength: 1,
                maxLength: 2,
                selector: (c) => c.field,
              })
              .map((conditions) => own(conditions.map((c) => [c.field, c.operator]))),
          }),
        ),
        { maxLength: 3 },
      ),
    }),
  );

/** Arguments for a tool: its properties with samples or hostile values, plus hostile extra keys, nested. */
const argumentsFor = (tool: GeneratedTool): fc.Arbitrary<unknown> =>
  fc
    .tuple(
      ...tool.properties.map((p) =>
        fc.option(
          fc.oneof(
            { weight: 3, arbitrary: fc.constantFrom(...p.samples) },
            // What an object literal would have made of a sample: equal to it only if `__proto__` were not data.
            { weight: 2, arbitrary: fc.constantFrom(...p.samples).map(withoutProto) },
            { weight: 1, arbitrary: json },
          ),
          { nil: undefined, freq: 3 },
        ),
      ),
      fc.uniqueArray(fc.tuple(fc.constantFrom(...KEYS), json), { maxLength: 2, selector: ([k]) => k }),
    )
    .map((parts) => {
      const extra = parts.at(-1) as [string, unknown][];
      const entries: [string, unknown][] = [];
      tool.properties.forEach((p, i) => {
        if (parts[i] !== undefined) entries.push([p.name, parts[i]]);
      });
      for (const [k, v] of extra) if (!entries.some(([e]) => e === k)) entries.push([k, v]);
      return own(entries);
    });

/** Arguments the tool's schema accepts: some of its properties, each with a value its schema allows. */
const validArgumentsFor = (tool: GeneratedTool): fc.Arbitrary<unknown> =>
  fc
    .tuple(
      ...tool.properties.map((p) =>
        p.valid.length === 0
          ? fc.constant(undefined)
          : fc.option(fc.constantFrom(...p.valid), { nil: undefined }),
      ),
    )
    .map((values) =>
      own(tool.properties.flatMap((p, i) => (values[i] === undefined ? [] : [[p.name, values[i]]]))),
    );

function configFiles(policy: {
  tools: GeneratedTool[];
  rules: { tool: string; decision: string; when: unknown }[];
}) {
  const tools = policy.tools.map((t) => ({
    name: t.name,
    description: `tool ${t.name}`,
    input_schema: own([
      ["type", "object"],
      ["properties", own(t.properties.map((p) => [p.name, p.schema]))],
      ["additionalProperties", t.additional],
    ]),
  }));
  const set = (which: string) => policy.tools.filter((t) => t.set === which).map((t) => t.name);
  const file = {
    version: 1,
    ...(set("allow").length > 0 ? { allow: set("allow") } : {}),
    ...(set("ask").length > 0 ? { ask: set("ask") } : {}),
    rules: policy.rules.map((r, i) => ({
      id: `r${i}`,
      tools: [r.tool],
      decision: r.decision,
      when: r.when,
      reason: `rule r${i}`,
    })),
  };
  return { tools: JSON.stringify({ tools }), policy: JSON.stringify(file) };
}

/** Every object and array of a value: own keys (in order), prototype and frozenness. */
function shape(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  return {
    keys: Reflect.ownKeys(value).map(String),
    proto: Object.getPrototypeOf(value) === (Array.isArray(value) ? Array.prototype : Object.prototype),
    frozen: Object.isFrozen(value),
    values: Reflect.ownKeys(value)
      .filter((k) => k !== "length" || !Array.isArray(value))
      .map((k) => shape(Object.getOwnPropertyDescriptor(value, k)?.value)),
  };
}

function stripApproval(result: object): object {
  const { approvalId: _a, createdAt: _c, expiresAt: _e, ...rest } = result as Record<string, unknown>;
  return rest;
}

async function outcome(controller: ToolController, seen: unknown[], tool: string, args: unknown, id: string) {
  const call = { callId: id, toolName: tool, arguments: args };
  try {
    const explained = controller.explain(call);
    const handled = await controller.handle(call);
    const resolved =
      "approvalId" in handled
        ? await controller.resolve({ approvalId: handled.approvalId, approved: true, approver: "test" })
        : undefined;
    return { explained, handled: stripApproval(handled), resolved, ran: seen.map(shape) };
  } catch (error) {
    return { threw: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

describe("hostile keys: compiled controller vs loaded controller (fast-check)", () => {
  let dir: string;
  let cleanup: () => void;
  let n = 0;
  const kinds = new Set<string>();
  let loadedCount = 0;
  let ran = 0;

  beforeAll(() => {
    const temp = tempDir("hostile-keys");
    dir = temp.dir;
    cleanup = temp.remove;
  });
  afterAll(() => cleanup());

  it("decides, answers and hands handlers the same arguments (40 policies)", async () => {
    await fc.assert(
      fc.asyncProperty(
        policyArbitrary.chain((policy) =>
          fc.record({
            policy: fc.constant(policy),
            calls: fc.array(
              fc.constantFrom(...policy.tools).chain((tool) =>
                fc.oneof(
                  fc.record({
                    tool: fc.constant(tool.name),
                    args: argumentsFor(tool),
                    valid: fc.constant(false),
                  }),
                  fc.record({
                    tool: fc.constant(tool.name),
                    args: validArgumentsFor(tool),
                    valid: fc.constant(true),
                  }),
                ),
              ),
              { minLength: 4, maxLength: 8 },
            ),
          }),
        ),
        async ({ policy, calls }) => {
          const caseDir = join(dir, `case${n++}`);
          mkdirSync(caseDir);
          const files = configFiles(policy);
          writeFileSync(join(caseDir, "tools.yaml"), files.tools);
          writeFileSync(join(caseDir, "policy.yaml"), files.policy);
          writeFileSync(
            join(caseDir, "toolgate.config.yaml"),
            JSON.stringify({ tools: ["tools.yaml"], policy: "policy.yaml" }),
          );
          const result = await loadPolicyResult({
            config: relative(process.cwd(), join(caseDir, "toolgate.config.yaml")),
          });
          const errors = result.diagnostics.filter((d) => d.severity === "error");
          expect(errors, `${files.tools}\n${files.policy}`).toEqual([]);
          const bundle = result.bundle;
          if (bundle === undefined) throw new Error("no bundle");
          loadedCount++;
          const file = await writeCompiled(bundle, caseDir);
          expect(readFileSync(file, "utf8")).not.toContain("require(");
          const module = await importCompiled(file);
          const seenLoaded: unknown[] = [];
          const seenCompiled: unknown[] = [];
          const handlersInto = (seen: unknown[]) =>
            Object.fromEntries(
              bundle.tools.map((t) => [
                t.name,
                (args: unknown) => {
                  seen.push(args);
                  return JSON.stringify(args);
                },
              ]),
            );
          const loaded = createController({ bundle, handlers: handlersInto(seenLoaded) });
          const compiled = module.createController({ handlers: handlersInto(seenCompiled) });
          for (const [index, { tool, args, valid }] of calls.entries()) {
            seenLoaded.length = 0;
            seenCompiled.length = 0;
            const a = await outcome(loaded, seenLoaded, tool, args, `c${index}`);
            const b = await outcome(compiled, seenCompiled, tool, args, `c${index}`);
            const label = `${files.tools}\n${files.policy}\n${tool} ${JSON.stringify(args)}`;
            expect(b, label).toEqual(a);
            expect(seenCompiled, label).toEqual(seenLoaded);
            for (const args of seenLoaded) {
              // What a handler gets is the validated, deeply frozen copy: own keys, plain prototypes.
              expect(JSON.stringify(shape(args)), label).not.toContain('"frozen":false');
              expect(JSON.stringify(shape(args)), label).not.toContain('"proto":false');
            }
            if (valid && !("threw" in a)) {
              // Arguments made of the schema's own enum and const values are valid (JSON equality).
              expect("callId" in a.explained, `${label}: ${JSON.stringify(a.explained)}`).toBe(false);
            }
            ran += seenLoaded.length;
            if ("threw" in a) kinds.add("threw");
            else if ("callId" in a.explained) kinds.add("invalid");
            else kinds.add(a.explained.decision.action);
          }
        },
      ),
      { numRuns: 40 },
    );
    // Not vacuous: policies loaded and compiled, handlers ran, and calls met every kind of decision.
    expect(loadedCount).toBe(40);
    expect(ran).toBeGreaterThan(20);
    expect([...kinds].sort()).toEqual(expect.arrayContaining(["allow", "ask", "deny", "invalid"]));
  }, 120_000);
});
