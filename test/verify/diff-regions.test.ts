/**
 * `diffRegions` and `schemaChanges` (src/verify/diff-regions.ts), the engine behind `toolgate diff`, through their
 * exported functions: which schema changes are read per field and which make a tool `unknown` (with the reason),
 * which tools are compared, how a region's condition reads, and every status and reason of a tool. Each witness is
 * decided again by both real controllers. test/diff/engine-diff.test.ts holds the diff-level and property tests.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { applyMode } from "../../src/runtime/mode.js";
import { decisionController } from "../../src/testing/run-policy-tests.js";
import {
  type DiffRegionsOptions,
  diffRegions,
  type RegionChange,
  type RegionSide,
  schemaChanges,
  type ToolRegions,
} from "../../src/verify/diff-regions.js";
import { ROOT } from "../cli/cli-helpers.js";
import { loadFromText } from "./helpers.js";

const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties,
  ...extra,
});

describe("schemaChanges: which fields' validity differs, and what the engine cannot read", () => {
  it("annotations are keywords of a schema, not the contents of a value or of a property's name", () => {
    // `const` holds a value: its keys named like annotations are data, and a change of them a change.
    expect(
      schemaChanges(
        object({ a: { const: { k: { description: "x" } } } }),
        object({ a: { const: { k: { description: "y" } } } }),
        "input_schema",
      ),
    ).toEqual({ fields: [{ path: ["a"], absentOnly: [false, false] }], problems: [] });
    // Required on one side only, an object whose properties differ in annotations only: its validity is read as
    // the same schema on both sides (no problem with its keywords).
    const o = (description: string) => object({ q: { type: "string", description } });
    expect(
      schemaChanges(object({ o: o("one") }, { required: ["o"] }), object({ o: o("two") }), "input_schema"),
    ).toEqual({ fields: [{ path: ["o"], absentOnly: [false, false] }], problems: [] });
    expect(
      schemaChanges(
        object({ o: o("one") }, { required: ["o"] }),
        object({ o: object({ q: { type: "integer" } }) }),
        "input_schema",
      ).problems,
    ).toEqual(["input_schema: o uses `properties`, not modelled here"]);
  });

  it("a problem deep down names its dotted path", () => {
    const deep = (q: unknown) => object({ o: object({ p: object({ q }) }) });
    expect(
      schemaChanges(
        deep({ type: "array", items: {} }),
        deep({ type: "array", items: {}, maxItems: 1 }),
        "input_schema",
      ),
    ).toEqual({ fields: [], problems: ["input_schema at o.p.q: uses `items`, not modelled here"] });
    expect(
      schemaChanges(deep({ type: "string" }), deep({ type: "string", maxLength: 1 }), "input_schema"),
    ).toEqual({ fields: [{ path: ["o", "p", "q"], absentOnly: [false, false] }], problems: [] });
  });

  it("equal schemas, or schemas differing in annotations only (at any depth), change nothing", () => {
    const s = object({ a: { type: "string", maxLength: 3 } }, { required: ["a"] });
    expect(schemaChanges(s, structuredClone(s), "input_schema")).toEqual({ fields: [], problems: [] });
    const annotated = object(
      {
        a: { type: "string", maxLength: 3, description: "the a", examples: ["x"] },
        b: object({ c: { type: "integer", title: "C" } }, { description: "an object" }),
      },
      { required: ["a"], title: "T", $comment: "c" },
    );
    const plain = object(
      { a: { type: "string", maxLength: 3 }, b: object({ c: { type: "integer" } }) },
      {
        required: ["a"],
      },
    );
    expect(schemaChanges(annotated, plain, "input_schema")).toEqual({ fields: [], problems: [] });
    expect(schemaChanges(plain, annotated, "input_schema")).toEqual({ fields: [], problems: [] });
    // No schema and a null schema are alike.
    expect(schemaChanges(undefined, null, "context_schema")).toEqual({ fields: [], problems: [] });
    expect(schemaChanges(null, undefined, "context_schema")).toEqual({ fields: [], problems: [] });
  });

  it("a changed leaf is one field, nested fields are dotted paths", () => {
    const before = object({
      a: { type: "string", maxLength: 3 },
      b: object({ c: { type: "integer", maximum: 5 }, d: { type: "boolean" } }),
      e: { type: "string" },
    });
    const after = object({
      a: { type: "string", maxLength: 4, description: "longer" },
      b: object({ c: { type: "integer", maximum: 6 }, d: { type: "boolean" } }),
      e: { type: "string" },
    });
    expect(schemaChanges(before, after, "input_schema")).toEqual({
      fields: [
        { path: ["a"], absentOnly: [false, false] },
        { path: ["b", "c"], absentOnly: [false, false] },
      ],
      problems: [],
    });
    // A leaf with a null schema on one side (anything) is read as such.
    expect(schemaChanges(object({ a: null }), object({ a: { type: "string" } }), "input_schema")).toEqual({
      fields: [{ path: ["a"], absentOnly: [false, false] }],
      problems: [],
    });
  });

  it("a changed root that is not an object of properties is not modelled", () => {
    expect(schemaChanges({ type: "string" }, { type: "string", maxLength: 2 }, "input_schema")).toEqual({
      fields: [],
      problems: ["input_schema: changed in a way the engine does not model"],
    });
    // A context schema added where there was none: its keywords are not those of a leaf.
    expect(
      schemaChanges(
        undefined,
        object({ env: { type: "string" } }, { additionalProperties: false }),
        "context_schema",
      ),
    ).toEqual({
      fields: [],
      problems: ["context_schema: uses `properties`, `additionalProperties`, not modelled here"],
    });
    expect(schemaChanges(undefined, { type: "string" }, "context_schema")).toEqual({
      fields: [],
      problems: ["context_schema: changed in a way the engine does not model"],
    });
    expect(schemaChanges(true as never, false as never, "input_schema")).toEqual({
      fields: [],
      problems: ["input_schema: has a schema the engine does not read"],
    });
  });

  it("an object's type or additionalProperties schema that changed is a problem; other object keywords make it a leaf", () => {
    const props = { a: { type: "string" } };
    // Undeclared properties refused on one side only: one of them stands for all, refused there alone.
    expect(
      schemaChanges(
        object(props, { additionalProperties: false }),
        object(props, { additionalProperties: true }),
        "input_schema",
      ),
    ).toEqual({ fields: [{ path: ["undeclared"], absentOnly: [true, false] }], problems: [] });
    expect(
      schemaChanges(
        object({ ...props, undeclared: { type: "string" } }),
        object({ ...props, undeclared: { type: "string" } }, { additionalProperties: false }),
        "input_schema",
      ),
    ).toEqual({ fields: [{ path: ["undeclared_1"], absentOnly: [false, true] }], problems: [] });
    // Absent and `true` are alike.
    expect(
      schemaChanges(object(props), object(props, { additionalProperties: true }), "input_schema"),
    ).toEqual({
      fields: [],
      problems: [],
    });
    // A schema for them is not read.
    expect(
      schemaChanges(
        object(props, { additionalProperties: false }),
        object(props, { additionalProperties: { type: "string" } }),
        "input_schema",
      ).problems,
    ).toEqual(["input_schema: `additionalProperties` changed"]);
    expect(
      schemaChanges(object(props), { ...object(props), type: ["object", "null"] }, "input_schema").problems,
    ).toEqual(["input_schema: `type` changed"]);
    // The dialect alike on both sides is read past; another dialect is not read.
    const draft7 = { $schema: "http://json-schema.org/draft-07/schema#" };
    expect(
      schemaChanges(
        object(props, draft7),
        object({ a: { type: "string", maxLength: 2 } }, draft7),
        "input_schema",
      ),
    ).toEqual({ fields: [{ path: ["a"], absentOnly: [false, false] }], problems: [] });
    expect(schemaChanges(object(props), object(props, draft7), "input_schema").problems).toEqual([
      "input_schema: `$schema` changed",
    ]);
    expect(schemaChanges({ properties: props }, object(props), "input_schema").problems).toEqual([
      "input_schema: `type` changed",
    ]);
    // Nested: the field is inside the object, the problem names where.
    expect(
      schemaChanges(
        object({ o: object(props, { additionalProperties: false }) }),
        object({ o: object(props) }),
        "input_schema",
      ).fields,
    ).toEqual([{ path: ["o", "undeclared"], absentOnly: [true, false] }]);
    expect(
      schemaChanges(
        object({ o: object(props, { additionalProperties: false }) }),
        object({ o: object(props, { additionalProperties: { type: "number" } }) }),
        "input_schema",
      ).problems,
    ).toEqual(["input_schema at o: `additionalProperties` changed"]);
    // `minProperties` is not an object keyword the walk reads: the object is a leaf it cannot read.
    expect(
      schemaChanges(
        object({ o: object(props, { minProperties: 1 }) }),
        object({ o: object({ a: { type: "string", maxLength: 1 } }, { minProperties: 1 }) }),
        "input_schema",
      ),
    ).toEqual({
      fields: [],
      problems: ["input_schema at o: uses `properties`, `minProperties`, not modelled here"],
    });
    // `properties` that is not an object: a leaf too.
    expect(
      schemaChanges(
        { type: "object", properties: true },
        { type: "object", properties: false },
        "input_schema",
      ).problems,
    ).toEqual(["input_schema: uses `properties`, not modelled here"]);
  });

  it("leaf keywords the per-field model does not read make the change a problem, multipleOf only when it changed", () => {
    expect(
      schemaChanges(
        object({ a: { type: "array", items: { type: "string" } } }),
        object({ a: { type: "array", items: { type: "integer" }, maxItems: 2 } }),
        "input_schema",
      ),
    ).toEqual({ fields: [], problems: ["input_schema at a: uses `items`, not modelled here"] });
    expect(
      schemaChanges(
        object({ a: { type: "string" } }),
        object({ a: { anyOf: [{ type: "string" }], $ref: "#/x" } }),
        "input_schema",
      ).problems,
    ).toEqual(["input_schema at a: uses `anyOf`, `$ref`, not modelled here"]);
    expect(
      schemaChanges(
        object({ n: { type: "number", multipleOf: 0.5 } }),
        object({ n: { type: "number", multipleOf: 0.25 } }),
        "input_schema",
      ),
    ).toEqual({ fields: [{ path: ["n"], absentOnly: [false, false] }], problems: [] });
    // A common multiple more than 64 steps away (lcm(65, 66) = 65 × 66), or a fraction on an integer field.
    expect(
      schemaChanges(
        object({ n: { type: "number", multipleOf: 65 } }),
        object({ n: { type: "number", multipleOf: 66 } }),
        "input_schema",
      ),
    ).toEqual({ fields: [], problems: ["input_schema at n: changes `multipleOf`, not modelled here"] });
    expect(
      schemaChanges(
        object({ n: { type: "integer", multipleOf: 0.5 } }),
        object({ n: { type: "integer", multipleOf: 2 } }),
        "input_schema",
      ).problems,
    ).toEqual(["input_schema at n: changes `multipleOf`, not modelled here"]);
    expect(
      schemaChanges(
        object({ n: { type: "number", multipleOf: 64 } }),
        object({ n: { type: "number", multipleOf: 65 } }),
        "input_schema",
      ).problems,
    ).toEqual([]);
    expect(
      schemaChanges(
        object({ n: { type: "number" } }),
        object({ n: { type: "number", multipleOf: 2 } }),
        "input_schema",
      ).problems,
    ).toEqual(["input_schema at n: changes `multipleOf`, not modelled here"]);
    // An unchanged multipleOf is read with the rest of the leaf.
    expect(
      schemaChanges(
        object({ n: { type: "number", multipleOf: 0.5, maximum: 2 } }),
        object({ n: { type: "number", multipleOf: 0.5, maximum: 3 } }),
        "input_schema",
      ),
    ).toEqual({ fields: [{ path: ["n"], absentOnly: [false, false] }], problems: [] });
    expect(
      schemaChanges(object({ a: { type: "string" } }), object({ a: true }), "input_schema").problems,
    ).toEqual(["input_schema at a: has a schema the engine does not read"]);
  });

  it("a changed multipleOf is modelled only between two positive numbers, integers on an integer field, in either direction", () => {
    const change = (before: Record<string, unknown>, after: Record<string, unknown>) =>
      schemaChanges(object({ n: before }), object({ n: after }), "input_schema").problems;
    const notModelled = ["input_schema at n: changes `multipleOf`, not modelled here"];
    // Not a positive number on one side (a schema no validator accepts): never read as one.
    expect(change({ multipleOf: "3" }, { multipleOf: 6 })).toEqual(notModelled);
    expect(change({ multipleOf: 6 }, { multipleOf: "3" })).toEqual(notModelled);
    expect(change({ multipleOf: -2 }, { multipleOf: 4 })).toEqual(notModelled);
    expect(change({ multipleOf: 4 }, { multipleOf: -2 })).toEqual(notModelled);
    expect(change({ multipleOf: 0 }, { multipleOf: 2 })).toEqual(notModelled);
    // An integer field on one side only is enough to refuse a fractional multiple.
    expect(change({ type: "integer", multipleOf: 2 }, { type: "number", multipleOf: 0.5 })).toEqual(
      notModelled,
    );
    expect(change({ type: "number", multipleOf: 0.5 }, { type: "integer", multipleOf: 2 })).toEqual(
      notModelled,
    );
    expect(change({ type: "number", multipleOf: 0.5 }, { type: "number", multipleOf: 2 })).toEqual([]);
    // The common multiple is one step of the larger (65), whichever side holds it.
    expect(change({ multipleOf: 65 }, { multipleOf: 1 })).toEqual([]);
    expect(change({ multipleOf: 1 }, { multipleOf: 65 })).toEqual([]);
  });

  it("a property required on one side only is a field (its presence), a problem only if its schema is not a leaf", () => {
    const list = { type: "array", items: { type: "string" } };
    expect(
      schemaChanges(object({ a: list }), object({ a: list }, { required: ["a"] }), "input_schema"),
    ).toEqual({ fields: [{ path: ["a"], absentOnly: [false, false] }], problems: [] });
    expect(
      schemaChanges(
        object({ a: list }, { required: ["a"] }),
        object({ a: { ...list, description: "the list" } }),
        "input_schema",
      ),
    ).toEqual({ fields: [{ path: ["a"], absentOnly: [false, false] }], problems: [] });
    expect(
      schemaChanges(
        object({ a: list }, { required: ["a"] }),
        object({ a: { ...list, maxItems: 2 } }),
        "input_schema",
      ),
    ).toEqual({
      fields: [{ path: ["a"], absentOnly: [false, false] }],
      problems: ["input_schema: a uses `items`, not modelled here"],
    });
    expect(
      schemaChanges(
        object({ a: { type: "string" } }, { required: "a" }),
        object({ a: { type: "string" } }, { required: ["a"] }),
        "input_schema",
      ).fields,
    ).toEqual([{ path: ["a"], absentOnly: [false, false] }]);
  });

  it("required on one side only inside an object that may be missing is a problem: its absence is read only where the object is", () => {
    const inner = (required: string[], declared = true) =>
      object(declared ? { p: { type: "string" } } : {}, { required });
    // `o` required on both sides: a call always has it, so the field's absence is read exactly.
    expect(
      schemaChanges(
        object({ o: inner([]) }, { required: ["o"] }),
        object({ o: inner(["p"]) }, { required: ["o"] }),
        "input_schema",
      ),
    ).toEqual({ fields: [{ path: ["o", "p"], absentOnly: [false, false] }], problems: [] });
    const problem = "input_schema at o: p is required on one side only, in an object that may be missing";
    expect(schemaChanges(object({ o: inner(["p"]) }), object({ o: inner([]) }), "input_schema")).toEqual({
      fields: [{ path: ["o", "p"], absentOnly: [false, false] }],
      problems: [problem],
    });
    expect(
      schemaChanges(object({ o: inner([], false) }), object({ o: inner(["p"]) }), "input_schema").problems,
    ).toEqual([problem]);
    // Two levels down: every object on the way must be required on both sides.
    const two = (outer: boolean, middle: boolean, required: string[]) =>
      object(
        { a: object({ b: inner(required) }, middle ? { required: ["b"] } : {}) },
        outer ? { required: ["a"] } : {},
      );
    const deep = "input_schema at a.b: p is required on one side only, in an object that may be missing";
    expect(schemaChanges(two(true, true, []), two(true, true, ["p"]), "input_schema").problems).toEqual([]);
    expect(schemaChanges(two(true, false, []), two(true, false, ["p"]), "input_schema").problems).toEqual([
      deep,
    ]);
    expect(schemaChanges(two(false, true, []), two(false, true, ["p"]), "input_schema").problems).toEqual([
      deep,
    ]);
  });

  it("a required property that a side does not declare is a problem, unless alike on both sides", () => {
    expect(
      schemaChanges(
        object({ a: { type: "string" } }, { required: ["a"] }),
        object({}, { required: ["a"] }),
        "input_schema",
      ),
    ).toEqual({ fields: [], problems: ["input_schema: a is required but not declared"] });
    expect(
      schemaChanges(object({}, { required: ["a"] }), object({ a: { type: "string" } }), "input_schema")
        .problems,
    ).toEqual(["input_schema: a is required but not declared"]);
    expect(
      schemaChanges(
        object({ b: { type: "string" } }, { required: ["x"] }),
        object({ b: { type: "string", maxLength: 2 } }, { required: ["x"] }),
        "input_schema",
      ),
    ).toEqual({ fields: [{ path: ["b"], absentOnly: [false, false] }], problems: [] });
    expect(schemaChanges(object({}, { required: ["x"] }), object({}), "input_schema").problems).toEqual([
      "input_schema: x is required but not declared",
    ]);
  });

  it("a property declared on one side only: absent-only where additionalProperties is false, a problem under a schema", () => {
    expect(
      schemaChanges(
        object({}, { additionalProperties: false }),
        object({ a: { type: "string" } }, { additionalProperties: false }),
        "input_schema",
      ),
    ).toEqual({ fields: [{ path: ["a"], absentOnly: [true, false] }], problems: [] });
    expect(
      schemaChanges(
        object({ a: { type: "string" } }, { additionalProperties: false }),
        object({}, { additionalProperties: false }),
        "input_schema",
      ),
    ).toEqual({ fields: [{ path: ["a"], absentOnly: [false, true] }], problems: [] });
    expect(schemaChanges(object({}), object({ a: { type: "string" } }), "input_schema")).toEqual({
      fields: [{ path: ["a"], absentOnly: [false, false] }],
      problems: [],
    });
    expect(schemaChanges(object({ a: { type: "string" } }), object({}), "input_schema")).toEqual({
      fields: [{ path: ["a"], absentOnly: [false, false] }],
      problems: [],
    });
    expect(
      schemaChanges(
        object({}, { additionalProperties: true }),
        object({ a: { type: "string" } }, { additionalProperties: true }),
        "input_schema",
      ),
    ).toEqual({ fields: [{ path: ["a"], absentOnly: [false, false] }], problems: [] });
    const rest = { additionalProperties: { type: "string" } };
    expect(schemaChanges(object({}, rest), object({ a: { type: "string" } }, rest), "input_schema")).toEqual({
      fields: [{ path: ["a"], absentOnly: [false, false] }],
      problems: ["input_schema: a is read by `additionalProperties` on one side"],
    });
    expect(
      schemaChanges(object({ a: { type: "string" } }, rest), object({}, rest), "input_schema").problems,
    ).toEqual(["input_schema: a is read by `additionalProperties` on one side"]);
    expect(
      schemaChanges(
        object({ o: object({}) }),
        object({ o: object({ a: { type: "array", items: {} } }) }),
        "context_schema",
      ),
    ).toEqual({
      fields: [{ path: ["o", "a"], absentOnly: [false, false] }],
      problems: ["context_schema at o: a uses `items`, not modelled here"],
    });
  });
});

type Outcome = "allow" | "ask" | "deny" | "invalid";
const RANK: Readonly<Record<Outcome, number>> = { allow: 0, ask: 1, deny: 2, invalid: 2 };

/** A tool whose arguments are these properties (no others). */
function tool(name: string, properties: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    name,
    description: "A tool.",
    input_schema: { type: "object", properties, additionalProperties: false, ...extra },
  };
}

/** A side from tools, a policy (without its version) and extra configuration text (YAML). */
function load(tools: readonly object[], policy: Record<string, unknown>, config = ""): RegionSide {
  return loadFromText(JSON.stringify({ tools }), JSON.stringify({ version: 1, ...policy }), config);
}

function rule(id: string, decision: string, when: unknown, extra: Record<string, unknown> = {}) {
  return { id, tools: ["t"], decision, ...(when === undefined ? {} : { when }), reason: id, ...extra };
}

/** What a side's real controller does with a call (its mode applied). */
function outcomeOf(s: RegionSide, name: string, args: unknown, context: object): Outcome {
  const controller = decisionController(s.bundle, s.validators);
  const r = controller.explain({ callId: "oracle", toolName: name, arguments: args }, context as never);
  return "callId" in r ? "invalid" : applyMode(r.decision, controller.mode).decision.action;
}

/** The engine's answer, with every witness decided again by both controllers. */
function regions(base: RegionSide, head: RegionSide, options: DiffRegionsOptions = {}): ToolRegions[] {
  const result = diffRegions(base, head, options);
  for (const t of result) {
    for (const c of t.changes) {
      expect(c.tool).toBe(t.tool);
      const b = outcomeOf(base, c.tool, c.arguments, c.context);
      const a = outcomeOf(head, c.tool, c.arguments, c.context);
      expect([b, a]).toEqual([c.before, c.after]);
      // Between deny and invalid (both refuse): changed.
      expect(c.change).toBe(RANK[a] < RANK[b] ? "loosened" : RANK[a] > RANK[b] ? "tightened" : "changed");
    }
    // Loosened first, then tightened, then changed.
    const order = { loosened: 0, tightened: 1, changed: 2 };
    const kinds = t.changes.map((c) => c.change);
    expect(kinds).toEqual([...kinds].sort((x, y) => order[x] - order[y]));
  }
  return result;
}

/** A region as one line: kind, outcomes, the witness, then the condition. */
function line(c: RegionChange): string {
  return [
    c.change,
    `${c.before}→${c.after}`,
    JSON.stringify(c.arguments),
    JSON.stringify(c.context),
    ...c.condition,
  ].join(" | ");
}

/** One tool `t` on both sides with these properties, a deny rule on each side, every other call allowed. */
function denyDiff(
  before: unknown,
  after: unknown,
  options: DiffRegionsOptions = {},
  properties: Record<string, unknown> = {
    p: { type: "string", maxLength: 8 },
    n: { type: "integer", minimum: 0, maximum: 9 },
  },
): ToolRegions {
  const tools = [tool("t", properties)];
  const [result] = regions(
    load(tools, { allow: ["t"], rules: [rule("r", "deny", before)] }),
    load(tools, { allow: ["t"], rules: [rule("r", "deny", after)] }),
    options,
  );
  return result as ToolRegions;
}

describe("diffRegions: the tools compared", () => {
  it("tools the new side declares alone, and those whose statements, schema, context schema or mode differ, by name", () => {
    const tools = (...names: string[]) => names.map((name) => tool(name, { p: { type: "string" } }));
    const deny = (name: string, prefix: string, id = `no-${name}`, reason = "no") => ({
      id,
      tools: [name],
      decision: "deny",
      when: { p: { prefix } },
      reason,
    });
    const base = load(tools("zeta", "alpha", "same", "gone", "renamed", "reworded"), {
      allow: ["zeta", "alpha", "same", "gone", "renamed", "reworded"],
      rules: [
        deny("zeta", "a"),
        deny("alpha", "a"),
        deny("same", "a"),
        deny("gone", "a"),
        deny("renamed", "a"),
        deny("reworded", "a"),
      ],
    });
    const head = load(tools("alpha", "zeta", "same", "added", "renamed", "reworded"), {
      allow: ["zeta", "alpha", "same", "added", "renamed", "reworded"],
      rules: [
        deny("zeta", "b"),
        deny("alpha", "b"),
        deny("same", "a"),
        deny("added", "b"),
        deny("renamed", "a", "no-renamed-2"),
        deny("reworded", "a", "no-reworded", "never"),
      ],
    });
    const result = regions(base, head);
    // `gone` is refused on the new side: nothing of it loosens.
    expect(result.map((t) => t.tool)).toEqual(["added", "alpha", "renamed", "reworded", "zeta"]);
    // Added: every call it allows was refused before (the old side knows no such tool).
    expect(result[0]?.status).toBe("complete");
    expect(result[0]?.changes.map((c) => [c.change, c.before, c.after])).toEqual([
      ["loosened", "invalid", "allow"],
    ]);
    // A statement's id or reason changes no decision.
    expect(result[2]).toEqual({ tool: "renamed", status: "complete", changes: [] });
    expect(result[3]).toEqual({ tool: "reworded", status: "complete", changes: [] });
    for (const t of [result[1], result[4]]) {
      expect(t?.status).toBe("complete");
      expect(t?.changes.map((c) => [c.change, c.before, c.after, c.arguments])).toEqual([
        ["loosened", "deny", "allow", { p: "a" }],
        ["tightened", "allow", "deny", { p: "b" }],
      ]);
    }
    expect(regions(base, base)).toEqual([]);
    expect(regions(head, head)).toEqual([]);
  });

  it("a tool's own schema and statements, in any order, decide whether it is compared", () => {
    const two = (b: Record<string, unknown>) => [tool("a", { p: { type: "string" } }), tool("b", b)];
    const allow = { allow: ["a", "b"] };
    // Only the second tool's schema changed.
    expect(
      regions(
        load(two({ p: { type: "string" } }), allow),
        load(two({ p: { type: "string", maxLength: 2 } }), allow),
      ).map((t) => [t.tool, t.status, t.changes.map(line)]),
    ).toEqual([
      [
        "b",
        "complete",
        [
          `tightened | allow→invalid | {"p":"aaa"} | {} | p valid under the old schema: true | p valid under the new schema: true | p length within the new schema's 0..2: false`,
        ],
      ],
    ]);
    // The same statements in another order: nothing to compare.
    const tools = [tool("t", { p: { type: "string" } })];
    const first = rule("first", "deny", { p: { prefix: "a" } });
    const second = rule("second", "ask", { p: { prefix: "b" } });
    expect(
      regions(
        load(tools, { allow: ["t"], rules: [first, second] }),
        load(tools, { allow: ["t"], rules: [second, first] }),
      ),
    ).toEqual([]);
    // Only a statement's context condition changed.
    const context =
      "context_schema:\n  type: object\n  properties:\n    env: { type: string, enum: [dev, prod] }\n  additionalProperties: false\n";
    const onlyIn = (env: string) => ({
      allow: ["t"],
      rules: [rule("r", "deny", undefined, { context: { env: { equals: env } } })],
    });
    expect(
      regions(load(tools, onlyIn("prod"), context), load(tools, onlyIn("dev"), context))[0]?.changes.map(
        line,
      ),
    ).toEqual([
      'loosened | deny→allow | {} | {"env":"prod"} | context.env equals "prod": true | context.env equals "dev": false',
      'tightened | allow→deny | {} | {"env":"dev"} | context.env equals "prod": false | context.env equals "dev": true',
    ]);
  });

  it("statements renamed and reordered, decisions alike: complete with no change, even where the engine could not confirm candidates", () => {
    // `command` rules: a search over them meets compound commands it cannot confirm (see the status tests), so only
    // knowing the decisions are alike answers `complete` here.
    // Another tool `u` changes its decisions: they are not `t`'s.
    const tools = [
      tool("t", { c: { type: "string", maxLength: 200 } }, { required: ["c"] }),
      tool("u", { p: { type: "string" } }),
    ];
    const policy = (ids: [string, string], order: "as-is" | "reversed", denyU: string) => {
      const rules = [
        rule(ids[0], "allow", { c: { command: ["git status", { prefix: "git log", options: ["--stat"] }] } }),
        rule(ids[1], "deny", { c: { command: ["rm"] } }, { reason: "never" }),
      ];
      return {
        otherwise: { t: "ask" },
        allow: ["u"],
        rules: [
          ...(order === "as-is" ? rules : rules.reverse()),
          rule("u", "deny", { p: { prefix: denyU } }, { tools: ["u"] }),
        ],
      };
    };
    const base = load(tools, policy(["safe", "rm"], "as-is", "a"));
    for (const head of [
      load(tools, policy(["git", "rm"], "as-is", "a")),
      load(tools, policy(["git", "no-rm"], "reversed", "a")),
    ]) {
      expect(regions(base, head)).toStrictEqual([{ tool: "t", status: "complete", changes: [] }]);
    }
    const [t, u] = regions(base, load(tools, policy(["git", "rm"], "as-is", "b")));
    expect(t).toStrictEqual({ tool: "t", status: "complete", changes: [] });
    expect(u?.changes.map((c) => [c.change, c.arguments])).toEqual([
      ["loosened", { p: "a" }],
      ["tightened", { p: "b" }],
    ]);
  });

  it("a changed mode compares every shared tool: observe lets through, ci refuses what asked", () => {
    const tools = [tool("t", { p: { type: "string", maxLength: 8 } }), tool("u", { p: { type: "string" } })];
    const policy = {
      allow: ["t", "u"],
      rules: [rule("no-a", "deny", { p: { prefix: "a" } }), rule("ask-b", "ask", { p: { prefix: "b" } })],
    };
    const enforce = load(tools, policy);
    const observe = load(tools, policy, "mode: observe\n");
    const ci = load(tools, policy, "mode: ci\n");
    const loose = regions(enforce, observe);
    expect(loose.map((t) => [t.tool, t.status, t.changes.map(line)])).toEqual([
      [
        "t",
        "complete",
        [
          'loosened | ask→allow | {"p":"b"} | {} | p starts with "a": false | p starts with "b": true',
          'loosened | deny→allow | {"p":"a"} | {} | p starts with "a": true',
        ],
      ],
      ["u", "complete", []],
    ]);
    const strict = regions(enforce, ci);
    expect(strict.map((t) => [t.tool, t.status, t.changes.map(line)])).toEqual([
      [
        "t",
        "complete",
        ['tightened | ask→deny | {"p":"b"} | {} | p starts with "a": false | p starts with "b": true'],
      ],
      ["u", "complete", []],
    ]);
    expect(regions(ci, enforce)[0]?.changes.map(line)).toEqual([
      'loosened | deny→ask | {"p":"b"} | {} | p starts with "a": false | p starts with "b": true',
    ]);
  });
});

describe("diffRegions: a region's condition, in words", () => {
  it("reads each operator with its verb and value, and a truth the engine cannot decide as maybe", () => {
    const lines = (before: unknown, after: unknown) => {
      const t = denyDiff(before, after);
      expect(t.status).toBe("complete");
      return t.changes.map(line);
    };
    expect(lines({ p: { path_prefix: "a/" } }, { p: { path_prefix: "a/b" } })).toEqual([
      'loosened | deny→allow | {"p":"a"} | {} | p path prefix "a/": true | p path prefix "a/b": false',
      'loosened | deny→allow | {"p":"A"} | {} | p path prefix "a/": maybe | p path prefix "a/b": false',
    ]);
    // A glob list of one reads as its glob.
    expect(lines({ p: { glob: "a/*" } }, { p: { glob: ["a/b"] } })).toEqual([
      'loosened | deny→allow | {"p":"a/a"} | {} | p matches glob "a/*": true | p matches glob "a/b": false',
      'loosened | deny→allow | {"p":"A/a"} | {} | p matches glob "a/*": maybe | p matches glob "a/b": false',
    ]);
    expect(lines({ p: { equals: "x" } }, { p: { in: ["y"] } })).toEqual([
      'loosened | deny→allow | {"p":"x"} | {} | p equals "x": true | p in ["y"]: false',
      'tightened | allow→deny | {"p":"y"} | {} | p equals "x": false | p in ["y"]: true',
    ]);
    expect(lines({ n: { min: 3 } }, { n: { max: 3 } })).toEqual([
      'loosened | deny→allow | {"n":4} | {} | n at least 3: true | n at most 3: false',
      'tightened | allow→deny | {"n":0} | {} | n at least 3: false | n at most 3: true',
    ]);
    expect(lines({ n: { exists: true } }, { p: { exists: true } })).toEqual([
      'loosened | deny→allow | {"n":0} | {} | n exists true: true | p exists true: false',
      'tightened | allow→deny | {"p":""} | {} | n exists true: false | p exists true: true',
    ]);
    // A command field's value is one simple command where it holds no separator: the decision reads that too.
    expect(lines({ p: { command: ["rm"] } }, { p: { command: ["rm -r"] } })).toEqual([
      'loosened | deny→allow | {"p":"rm"} | {} | p runs command ["rm"]: true | p holds a command separator (; & | or a newline): false | p runs command ["rm -r"]: false',
      'loosened | deny→allow | {"p":"a rm"} | {} | p runs command ["rm"]: maybe | p holds a command separator (; & | or a newline): false | p runs command ["rm -r"]: false',
      // With a separator: two simple commands the runtime decides one by one.
      'loosened | deny→allow | {"p":"rm | rm"} | {} | p runs command ["rm"]: true | p holds a command separator (; & | or a newline): true | p runs command ["rm -r"]: false',
      'loosened | deny→allow | {"p":"\'&\' rm"} | {} | p runs command ["rm"]: maybe | p holds a command separator (; & | or a newline): true | p runs command ["rm -r"]: false',
    ]);
    // Only the decision's own atom reads as the separators, not an operator whose value is the same text.
    expect(lines({ p: { equals: "[;&|\\n]" } }, { p: { equals: "x" } })).toEqual([
      'loosened | deny→allow | {"p":"[;&|\\\\n]"} | {} | p equals "[;&|\\\\n]": true | p equals "x": false',
      'tightened | allow→deny | {"p":"x"} | {} | p equals "[;&|\\\\n]": false | p equals "x": true',
    ]);
    expect(lines({ p: { regex: "^a" } }, { p: { prefix: "aa" } })).toEqual([
      'loosened | deny→allow | {"p":"a"} | {} | p matches regex "^a": true | p starts with "aa": false',
    ]);
    const url = denyDiff(
      { u: { url: { host: "a.com" } } },
      { u: { url: { host: "b.com" } } },
      {},
      { u: { type: "string" } },
    );
    expect(url.changes.map(line)).toEqual([
      'loosened | deny→allow | {"u":"ws://a.com"} | {} | u url matches {"host":"a.com"}: true | u url matches {"host":"b.com"}: false',
      'tightened | allow→deny | {"u":"ws://b.com"} | {} | u url matches {"host":"a.com"}: false | u url matches {"host":"b.com"}: true',
    ]);
  });

  it("names a context field, and each changed field's validity and length under each side's schema", () => {
    const tools = [tool("t", { p: { type: "string", maxLength: 4 } })];
    const context = (env: unknown) =>
      `context_schema:\n  type: object\n  properties:\n    env: ${JSON.stringify(env)}\n  additionalProperties: false\n`;
    const policy = {
      allow: ["t"],
      rules: [rule("prod", "deny", undefined, { context: { env: { equals: "prod" } } })],
    };
    const [ctx] = regions(
      load(tools, policy, context({ type: "string", enum: ["dev", "prod"] })),
      load(tools, policy, context({ type: "string", enum: ["dev", "prod", "stage"] })),
    );
    expect(ctx?.status).toBe("complete");
    expect(ctx?.changes.map(line)).toEqual([
      'loosened | invalid→allow | {} | {"env":"stage"} | context.env equals "prod": false | context.env valid under the old schema: false | context.env valid under the new schema: true',
    ]);

    const deny = { allow: ["t"], rules: [rule("z", "deny", { p: { prefix: "z" } })] };
    const schema = (p: unknown) => [tool("t", { p }, { required: ["p"] })];
    const [shorter] = regions(
      load(schema({ type: "string", minLength: 3 }), deny),
      load(schema({ type: "string", minLength: 2 }), deny),
    );
    expect(shorter?.changes.map(line)).toEqual([
      `loosened | invalid→allow | {"p":"aa"} | {} | p starts with "z": false | p valid under the old schema: true | p length within the old schema's 3..∞: false | p valid under the new schema: true | p length within the new schema's 2..∞: true`,
      // Newly valid and denied: as strict as before, but no longer for the same reason.
      `changed | invalid→deny | {"p":"za"} | {} | p starts with "z": true | p valid under the old schema: true | p length within the old schema's 3..∞: false | p valid under the new schema: true | p length within the new schema's 2..∞: true`,
    ]);
    const [bounded] = regions(
      load(schema({ type: "string", minLength: 1, maxLength: 3 }), deny),
      load(schema({ type: "string", maxLength: 2 }), deny),
    );
    expect(bounded?.status).toBe("complete");
    expect(bounded?.changes.map(line)).toEqual([
      `loosened | invalid→allow | {"p":""} | {} | p starts with "z": false | p valid under the old schema: true | p length within the old schema's 1..3: false | p valid under the new schema: true | p length within the new schema's 0..2: true`,
      `tightened | allow→invalid | {"p":"aaa"} | {} | p starts with "z": false | p valid under the old schema: true | p length within the old schema's 1..3: true | p valid under the new schema: true | p length within the new schema's 0..2: false`,
      `changed | deny→invalid | {"p":"zaa"} | {} | p starts with "z": true | p valid under the old schema: true | p length within the old schema's 1..3: true | p valid under the new schema: true | p length within the new schema's 0..2: false`,
    ]);
  });
});

describe("diffRegions: a region's atoms", () => {
  it("a tightened region names only the atoms that decide it: a call starting with b is denied whatever the ask rule says", () => {
    const tools = [tool("t", { p: { type: "string", maxLength: 8 } })];
    const askC = rule("c", "ask", { p: { prefix: "c" } });
    const [t] = regions(
      load(tools, { allow: ["t"], rules: [askC] }),
      load(tools, { allow: ["t"], rules: [askC, rule("b", "deny", { p: { prefix: "b" } })] }),
    );
    expect(t?.status).toBe("complete");
    expect(t?.changes.map(line)).toEqual([
      'tightened | allow→deny | {"p":"b"} | {} | p starts with "b": true',
    ]);
  });

  it("a field whose schema and statements both changed: a region it is valid in names its validity under both schemas", () => {
    const tools = (maxLength: number) => [
      tool("t", { p: { type: "string", maxLength } }, { required: ["p"] }),
    ];
    const deny = (prefix: string) => ({ allow: ["t"], rules: [rule("r", "deny", { p: { prefix } })] });
    const [t] = regions(load(tools(2), deny("a")), load(tools(3), deny("b")));
    expect(t?.status).toBe("complete");
    expect(t?.changes.filter((c) => c.change === "tightened").map(line)).toEqual([
      `tightened | allow→deny | {"p":"b"} | {} | p starts with "a": false | p starts with "b": true | p valid under the old schema: true | p length within the old schema's 0..2: true | p valid under the new schema: true | p length within the new schema's 0..3: true`,
    ]);
  });
});

describe("diffRegions: a tool's status and reason", () => {
  const arrays = (items: unknown) => [
    tool("t", { a: { type: "array", items }, p: { type: "string", maxLength: 4 } }),
  ];
  const denyPrefix = (prefix: string) => ({ allow: ["t"], rules: [rule("r", "deny", { p: { prefix } })] });
  const context = (env: unknown) =>
    `context_schema:\n  type: object\n  properties:\n    env: ${JSON.stringify(env)}\n  additionalProperties: false\n`;

  it("a schema change the engine cannot read makes the tool unknown, every problem named, unless a loosening is confirmed", () => {
    const [tight] = regions(
      load(arrays({ type: "string" }), denyPrefix("a"), context({ type: "string" })),
      load(arrays({ type: "integer" }), denyPrefix(""), context({ type: "array", items: {} })),
    );
    expect(tight).toEqual({
      tool: "t",
      status: "unknown",
      reason:
        "input_schema at a: uses `items`, not modelled here; context_schema at env: uses `items`, not modelled here",
      changes: [
        expect.objectContaining({
          change: "tightened",
          before: "allow",
          after: "deny",
          arguments: { p: "" },
        }),
      ],
    });
    // The same unread change, and a loosening confirmed: whether the tool loosens is decided.
    const [loose] = regions(
      load(arrays({ type: "string" }), denyPrefix("")),
      load(arrays({ type: "integer" }), denyPrefix("a")),
    );
    expect(loose?.status).toBe("complete");
    expect(loose?.reason).toBeUndefined();
    expect(loose?.changes.map(line)).toEqual([
      'loosened | deny→allow | {"p":""} | {} | p starts with "": true | p starts with "a": false',
    ]);
  });

  it("with the same statements, a schema change alone is still compared: read per field, or unknown", () => {
    const [unread] = regions(
      load(arrays({ type: "string" }), denyPrefix("a")),
      load(arrays({ type: "integer" }), denyPrefix("a")),
    );
    expect(unread).toStrictEqual({
      tool: "t",
      status: "unknown",
      reason: "input_schema at a: uses `items`, not modelled here",
      changes: [],
    });
    // One argument and one context field changed: both are read.
    const tools = (maxLength: number) => [tool("t", { p: { type: "string", maxLength } })];
    const [both] = regions(
      load(tools(2), denyPrefix("a"), context({ type: "string", enum: ["dev"] })),
      load(tools(3), denyPrefix("a"), context({ type: "string", enum: ["dev", "prod"] })),
    );
    expect(both?.status).toBe("complete");
    // The argument too long before, the context value not allowed before, and both.
    // Where the deny rule reads the newly valid values, they are denied now: changed (two regions at most).
    expect(both?.changes.map((c) => [c.change, c.before, c.after, c.arguments, c.context])).toEqual([
      ["loosened", "invalid", "allow", { p: "baa" }, {}],
      ["loosened", "invalid", "allow", {}, { env: "prod" }],
      ["loosened", "invalid", "allow", { p: "baa" }, { env: "prod" }],
      ["changed", "invalid", "deny", { p: "aaa" }, {}],
      ["changed", "invalid", "deny", { p: "aaa" }, { env: "prod" }],
    ]);
  });

  it("a value of another type passes the length bounds: a raised maximum on a string-or-integer field loosens", () => {
    const schema = (maximum: number, maxLength: number) => [
      tool("t", { p: { type: ["string", "integer"], maxLength, maximum } }, { required: ["p"] }),
    ];
    const [t] = regions(load(schema(5, 3), { allow: ["t"] }), load(schema(9, 2), { allow: ["t"] }));
    expect(t?.status).toBe("complete");
    expect(t?.changes.map(line)).toEqual([
      `loosened | invalid→allow | {"p":6} | {} | p valid under the old schema: false | p length within the old schema's 0..3: true | p valid under the new schema: true | p length within the new schema's 0..2: true`,
      `tightened | allow→invalid | {"p":"aaa"} | {} | p valid under the old schema: true | p length within the old schema's 0..3: true | p valid under the new schema: true | p length within the new schema's 0..2: false`,
    ]);
  });

  it("a property added or removed, or no longer required: its presence is what changed", () => {
    const allow = { allow: ["t"] };
    const none = [tool("t", {})];
    const one = [tool("t", { p: { type: "string" } })];
    expect(regions(load(none, allow), load(one, allow))[0]?.changes.map(line)).toEqual([
      'loosened | invalid→allow | {"p":""} | {} | p valid under the old schema: false | p valid under the new schema: true',
    ]);
    expect(regions(load(one, allow), load(none, allow))[0]?.changes.map(line)).toEqual([
      'tightened | allow→invalid | {"p":""} | {} | p valid under the old schema: true | p valid under the new schema: false',
    ]);
    // Other properties allowed where it was not declared: a value of any type was valid there.
    const open = (properties: Record<string, unknown>) => [
      tool("t", properties, { additionalProperties: true }),
    ];
    const [narrowed] = regions(load(open({}), allow), load(open({ p: { type: "string" } }), allow));
    expect(narrowed?.status).toBe("complete");
    expect(narrowed?.changes.map(line)).toEqual([
      'tightened | allow→invalid | {"p":null} | {} | p valid under the old schema: true | p valid under the new schema: false',
    ]);
    // Where the old schema forbade it, a present value was invalid and is now denied: no loosening (deny is as
    // strict as invalid) but a change, and a missing one is allowed on both sides.
    const exists = { allow: ["t"], rules: [rule("r", "deny", { p: { exists: true } })] };
    const [denied] = regions(load(none, allow), load(one, exists));
    expect(denied?.status).toBe("complete");
    expect(denied?.changes.map(line)).toEqual([
      'changed | invalid→deny | {"p":""} | {} | p exists true: true | p valid under the old schema: false | p valid under the new schema: true',
    ]);
    // A nested field: its dotted path.
    const nested = (maxLength: number) => [
      tool("t", {
        o: { type: "object", properties: { p: { type: "string", maxLength } }, additionalProperties: false },
      }),
    ];
    const deny = { allow: ["t"], rules: [rule("r", "deny", { "o.p": { prefix: "a" } })] };
    expect(regions(load(nested(2), deny), load(nested(3), deny))[0]?.changes.map(line)).toEqual([
      `loosened | invalid→allow | {"o":{"p":"baa"}} | {} | o.p starts with "a": false | o.p valid under the old schema: true | o.p length within the old schema's 0..2: false | o.p valid under the new schema: true | o.p length within the new schema's 0..3: true`,
      `changed | invalid→deny | {"o":{"p":"aaa"}} | {} | o.p starts with "a": true | o.p valid under the old schema: true | o.p length within the old schema's 0..2: false | o.p valid under the new schema: true | o.p length within the new schema's 0..3: true`,
    ]);
    const required = (yes: boolean) => [tool("t", { p: { type: "string" } }, yes ? { required: ["p"] } : {})];
    const denyZ = denyPrefix("z");
    expect(regions(load(required(true), denyZ), load(required(false), denyZ))[0]?.changes.map(line)).toEqual([
      'loosened | invalid→allow | {} | {} | p starts with "z": false | p valid under the old schema: false | p valid under the new schema: true',
    ]);
  });

  it("a property or context field newly required: the calls without it are refused, a tightening", () => {
    // The witness leaves the field out: filling in what the new schema requires would decide another call.
    const allow = { allow: ["t"] };
    const required = (names: string[]) => [
      tool("t", { p: { type: "string" }, q: { type: "string" } }, { required: names }),
    ];
    expect(regions(load(required([]), allow), load(required(["p"]), allow))).toStrictEqual([
      {
        tool: "t",
        status: "complete",
        changes: [
          expect.objectContaining({
            change: "tightened",
            before: "allow",
            after: "invalid",
            arguments: {},
            condition: ["p valid under the old schema: true", "p valid under the new schema: false"],
          }),
        ],
      },
    ]);
    // One required property for another: each side refuses what the other lets through.
    expect(regions(load(required(["p"]), allow), load(required(["q"]), allow))[0]?.changes.map(line)).toEqual(
      [
        'loosened | invalid→allow | {"q":""} | {} | p valid under the old schema: false | p valid under the new schema: true | q valid under the old schema: true | q valid under the new schema: true',
        'tightened | allow→invalid | {"p":""} | {} | p valid under the old schema: true | p valid under the new schema: true | q valid under the old schema: true | q valid under the new schema: false',
      ],
    );
    // A field deep down left out, with the objects on the way: the witness has none of them.
    const deep = [
      tool("t", {
        a: {
          type: "object",
          properties: { b: { type: "object", properties: { c: { type: "string" } } } },
        },
      }),
    ];
    const [missing] = regions(
      load(deep, { allow: ["t"], rules: [rule("r", "deny", { "a.b.c": { exists: false } })] }),
      load(deep, allow),
    );
    expect(missing?.changes.map(line)).toEqual([
      "loosened | deny→allow | {} | {} | a.b.c exists false: true",
    ]);
    const [shallow] = regions(
      load(deep, { allow: ["t"], rules: [rule("r", "deny", { "a.b": { exists: false } })] }),
      load(deep, allow),
    );
    expect(shallow?.changes.map(line)).toEqual(["loosened | deny→allow | {} | {} | a.b exists false: true"]);
    // Inside an object every call has: its absence is read there too.
    const nested = (inner: string[], outer: string[]) => [
      tool(
        "t",
        {
          o: {
            type: "object",
            properties: { p: { type: "string" } },
            required: inner,
            additionalProperties: false,
          },
        },
        { required: outer },
      ),
    ];
    expect(
      regions(load(nested([], ["o"]), allow), load(nested(["p"], ["o"]), allow))[0]?.changes.map(line),
    ).toEqual([
      'tightened | allow→invalid | {"o":{}} | {} | o.p valid under the old schema: true | o.p valid under the new schema: false',
    ]);
    // Inside an object a call may leave out, `{"o":{}}` was refused and is now allowed: the engine does not read
    // that, so the tool is unknown, never complete without the loosening.
    expect(regions(load(nested(["p"], []), allow), load(nested([], []), allow))).toStrictEqual([
      {
        tool: "t",
        status: "unknown",
        reason: "input_schema at o: p is required on one side only, in an object that may be missing",
        changes: [],
      },
    ]);
    const context = (yes: boolean) =>
      `context_schema:\n  type: object\n  properties:\n    env: { type: string }\n${yes ? "  required: [env]\n" : ""}  additionalProperties: false\n`;
    const tools = [tool("t", { p: { type: "string" } })];
    expect(
      regions(load(tools, allow, context(false)), load(tools, allow, context(true)))[0]?.changes.map(line),
    ).toEqual([
      "tightened | allow→invalid | {} | {} | context.env valid under the old schema: true | context.env valid under the new schema: false",
    ]);
  });

  it("denied on one side and refused by the other's schema is as strict on both: no region, whichever the direction", () => {
    // An added multipleOf is not modelled, so the search expects 5 decided alike by both schemas; the controllers
    // then find deny on one side, invalid on the other.
    const tools = (extra: Record<string, unknown>) => [
      tool("t", { n: { type: "integer", minimum: 0, maximum: 9, ...extra } }, { required: ["n"] }),
    ];
    const allow = { allow: ["t"] };
    const denyFive = { allow: ["t"], rules: [rule("r", "deny", { n: { equals: 5 } })] };
    const unknown = {
      tool: "t",
      status: "unknown",
      reason: "input_schema at n: changes `multipleOf`, not modelled here",
      changes: [],
    };
    expect(regions(load(tools({}), denyFive), load(tools({ multipleOf: 2 }), allow))).toStrictEqual([
      unknown,
    ]);
    expect(regions(load(tools({ multipleOf: 2 }), allow), load(tools({}), denyFive))).toStrictEqual([
      unknown,
    ]);
    // Past such a candidate, a loosened call is still found.
    const [t] = regions(
      load(tools({}), { allow: ["t"], rules: [rule("r", "deny", { n: { min: 5 } })] }),
      load(tools({ multipleOf: 2 }), allow),
    );
    expect([t?.status, t?.changes.map(line)]).toEqual([
      "complete",
      ['loosened | deny→allow | {"n":6} | {} | n at least 5: true'],
    ]);
  });

  it("strings the engine cannot decide: unknown, with the operators behind it", () => {
    const tools = [tool("t", { p: { type: "string", maxLength: 40 } }, { required: ["p"] })];
    const regex = (pattern: string) => ({
      allow: ["t"],
      rules: [rule("r", "deny", { p: { regex: pattern } })],
    });
    const [t] = regions(load(tools, regex("a[ab]{16}b")), load(tools, regex("a[ab]{16}b|zz")));
    expect(t).toEqual({
      tool: "t",
      status: "unknown",
      reason:
        "no loosened call was built, but one may exist: p: its string operators are too large to decide here",
      changes: [],
    });
    // Two fields the engine cannot decide: each named.
    const both = [
      tool(
        "t",
        { p: { type: "string", maxLength: 40 }, q: { type: "string", maxLength: 40 } },
        { required: ["p", "q"] },
      ),
    ];
    const onBoth = (pattern: string) => ({
      allow: ["t"],
      rules: [rule("r", "deny", { p: { regex: pattern }, q: { regex: pattern } })],
    });
    expect(regions(load(both, onBoth("a[ab]{16}b")), load(both, onBoth("a[ab]{16}b|zz")))[0]?.reason).toBe(
      "no loosened call was built, but one may exist: p: its string operators are too large to decide here; q: its string operators are too large to decide here",
    );
    const urls = [tool("t", { u: { type: "string", maxLength: 200 } }, { required: ["u"] })];
    const allowUrl = (url: unknown) => ({
      otherwise: { t: "ask" },
      rules: [rule("safe", "allow", { u: { url } })],
    });
    const [u] = regions(
      load(urls, allowUrl({ host: "a.com", path: "/x/**" })),
      load(urls, allowUrl({ host: "a.com", path: "/x/*" })),
    );
    expect(u?.status).toBe("unknown");
    expect(u?.reason).toBe(
      "no loosened call was built, but one may exist: u: `url` is decided exactly only on the URLs tried",
    );
    expect(u?.changes.map(line)).toEqual([
      'tightened | allow→ask | {"u":"ws://a.com/x"} | {} | u url matches {"host":"a.com","path":"/x/**"}: true | u url matches {"host":"a.com","path":"/x/*"}: false',
    ]);
  });

  it("automata past their bound make that tool unknown, and the other tools are still answered", () => {
    // Five counters of `a` (modulo 7, 11, 13, 17 and 19): their product has 323,323 states.
    const counter = (m: number) => `^(?:(?:[^a]*a){${m}})*[^a]*$`;
    const tools = [
      tool("t", { p: { type: "string", maxLength: 12 } }, { required: ["p"] }),
      tool("u", { p: { type: "string", maxLength: 12 } }, { required: ["p"] }),
    ];
    const policy = (decision: string) => ({
      allow: ["t", "u"],
      rules: [
        ...[7, 11, 13, 17, 19].map((m) => rule(`count-${m}`, decision, { p: { regex: counter(m) } })),
        { id: "u", tools: ["u"], decision, when: { p: { prefix: "a" } }, reason: "u" },
      ],
    });
    const [t, u] = regions(load(tools, policy("deny")), load(tools, policy("ask")));
    expect(t).toEqual({
      tool: "t",
      status: "unknown",
      reason: "too large to decide here (an automaton has more than 20000 states)",
      changes: [],
    });
    expect(u?.status).toBe("complete");
    expect(u?.changes.map(line)).toEqual(['loosened | deny→ask | {"p":"a"} | {} | p starts with "a": true']);
  });

  it("an error other than the engine's bound is not hidden as unknown", () => {
    const tools = [tool("t", { p: { type: "string", maxLength: 8 } })];
    const base = load(tools, denyPrefix("a"));
    const head = load(tools, denyPrefix("b"));
    const failing: RegionSide = {
      bundle: head.bundle,
      validators: new Map([
        [
          "t",
          (() => {
            throw new Error("a validator failed");
          }) as never,
        ],
      ]),
    };
    expect(() => diffRegions(base, failing)).toThrow("a validator failed");
  });

  it("candidates the controllers do not confirm: unknown, naming the command rules and their number", () => {
    const tools = [tool("t", { c: { type: "string", maxLength: 200 } }, { required: ["c"] })];
    const allowCommands = (commands: unknown) => ({
      otherwise: { t: "ask" },
      rules: [rule("safe", "allow", { c: { command: commands } })],
    });
    // A tightening (an option no longer allowed): found with the option after the prefix; nothing loosens, but the
    // compound commands the engine tries are not confirmed, and it cannot rule them out.
    const [t] = regions(
      load(tools, allowCommands(["git status", { prefix: "git log", options: ["--oneline", "--stat"] }])),
      load(tools, allowCommands(["git status", { prefix: "git log", options: ["--oneline"] }])),
    );
    expect(t?.status).toBe("unknown");
    expect(t?.reason).toBe(
      "`command` rules are not modelled exactly (compound commands, words past the prefixes): 2 candidate loosened call(s) were not confirmed by the controllers",
    );
    expect(t?.changes.map(line)).toEqual([
      'tightened | allow→ask | {"c":"git log --stat"} | {} | c runs command ["git status",{"options":["--oneline","--stat"],"prefix":"git log"}]: true | c holds a command separator (; & | or a newline): false | c runs command ["git status",{"options":["--oneline"],"prefix":"git log"}]: maybe',
    ]);
  });

  it("candidates not confirmed on a tool with command and url rules: unknown, naming both", () => {
    const tools = [
      tool(
        "t",
        { c: { type: "string", maxLength: 200 }, u: { type: "string", maxLength: 200 } },
        { required: ["c"] },
      ),
    ];
    const policy = (options: string[]) => ({
      otherwise: { t: "ask" },
      rules: [
        rule("safe", "allow", { c: { command: ["git status", { prefix: "git log", options }] } }),
        rule("web", "deny", { u: { url: { host: "evil.com" } } }),
      ],
    });
    const [t] = regions(load(tools, policy(["--oneline", "--stat"])), load(tools, policy(["--oneline"])));
    expect(t?.status).toBe("unknown");
    expect(t?.reason).toBe(
      "`command` rules are not modelled exactly (compound commands, words past the prefixes); `url` rules are decided only on the URLs tried: 4 candidate loosened call(s) were not confirmed by the controllers",
    );
    expect(t?.changes.map((c) => [c.change, c.before, c.after, c.arguments])).toEqual([
      ["tightened", "allow", "ask", { c: "git log --stat" }],
    ]);
  });

  it("candidates not confirmed where no operator explains it: unknown, with their number alone", () => {
    // A rule on an object and on a field inside it: the region where both hold has no call (the field's value
    // replaces the object's), so its candidate decides as before.
    const tools = [
      tool(
        "t",
        {
          o: {
            type: "object",
            properties: { p: { type: "string", maxLength: 4 } },
            additionalProperties: false,
          },
        },
        { required: ["o"] },
      ),
    ];
    const [t] = regions(
      load(tools, {
        allow: ["t"],
        rules: [rule("r", "deny", { o: { equals: { p: "x" } }, "o.p": { prefix: "y" } })],
      }),
      load(tools, { allow: ["t"] }),
    );
    expect(t).toStrictEqual({
      tool: "t",
      status: "unknown",
      reason: "1 candidate loosened call(s) were not confirmed by the controllers",
      changes: [],
    });
  });

  it("a context field in a reason keeps its scope, even when its name contains arguments:", () => {
    const context =
      'context_schema:\n  type: object\n  properties: { "arguments:x": { type: string, maxLength: 40 } }\n  required: ["arguments:x"]\n  additionalProperties: false\n';
    const tools = [tool("t", { p: { type: "string", maxLength: 4 } })];
    const deny = (pattern: string) => ({
      allow: ["t"],
      rules: [rule("r", "deny", undefined, { context: { "arguments:x": { regex: pattern } } })],
    });
    const [t] = regions(
      load(tools, deny("a[ab]{16}b"), context),
      load(tools, deny("a[ab]{16}b|zz"), context),
    );
    expect(t).toStrictEqual({
      tool: "t",
      status: "unknown",
      reason:
        "no loosened call was built, but one may exist: context:arguments:x: its string operators are too large to decide here",
      changes: [],
    });
  });

  it("quoted words are candidates: a quoting rule that no longer asks for quotes loosens", () => {
    const tools = [tool("t", { c: { type: "string", maxLength: 200 } }, { required: ["c"] })];
    const quoting = (pattern: string) => ({
      otherwise: { t: "ask" },
      rules: [
        rule("ls", "allow", { c: { command: ["ls"] } }),
        rule("quotes", "ask", { c: { regex: pattern } }),
      ],
    });
    const [t] = regions(load(tools, quoting("['\"$*]")), load(tools, quoting("[$*]")));
    expect(t?.status).toBe("complete");
    const loosened = t?.changes.filter((c) => c.change === "loosened") ?? [];
    expect(loosened.length).toBeGreaterThan(0);
    // `ls` with a quote somewhere (`ls ''`, `'ls'`), which only the old side asks for.
    for (const c of loosened) expect((c.arguments as { c: string }).c).toMatch(/^'?ls.*['"]/);
  });

  it("an option added to a prefix loosens: its words with the option are a witness", () => {
    const tools = [tool("t", { c: { type: "string", maxLength: 200 } }, { required: ["c"] })];
    const allowLog = (options: string[]) => ({
      otherwise: { t: "ask" },
      rules: [rule("log", "allow", { c: { command: [{ prefix: "git log", options }] } })],
    });
    const [t] = regions(load(tools, allowLog(["-n"])), load(tools, allowLog(["-n", "-p"])));
    expect(t?.status).toBe("complete");
    expect(t?.changes.map((c) => [c.change, c.arguments])).toEqual([["loosened", { c: "git log -p" }]]);
  });

  it("searches plain simple commands before compound ones: a narrowed deny among the reference's shell rules", () => {
    // The reference policy's shell rules: each region of a value with a separator is a candidate the controllers
    // do not confirm, and there are more of them than failed witnesses the search allows.
    const reference = parse(readFileSync(join(ROOT, "policies/policy.yaml"), "utf8")) as {
      otherwise: Record<string, unknown>;
      rules: { tools: string[]; when?: unknown; context?: unknown }[];
    };
    const shellRules = reference.rules
      .filter((r) => r.tools.includes("run_shell") && r.context === undefined)
      .map((r) => ({ ...r, tools: ["t"] }));
    const policy = (narrow: boolean) => ({
      otherwise: { t: reference.otherwise.run_shell },
      rules: narrow
        ? shellRules.map((r) =>
            JSON.parse(JSON.stringify(r).replace("\\\\.[nN][pP][mM][rR][cC]", "\\\\.npmrc")),
          )
        : shellRules,
    });
    expect(JSON.stringify(policy(true))).not.toBe(JSON.stringify(policy(false)));
    const tools = [
      tool("t", { command: { type: "string", minLength: 1, maxLength: 8192 } }, { required: ["command"] }),
    ];
    const [t] = regions(load(tools, policy(false)), load(tools, policy(true)));
    expect(t?.status).toBe("complete");
    const loosened = t?.changes.filter((c) => c.change === "loosened") ?? [];
    expect(loosened.length).toBeGreaterThan(0);
    for (const c of loosened) expect((c.arguments as { command: string }).command).toMatch(/\.npmrc/i);
  });

  it("a search past its budget is unknown", () => {
    expect(denyDiff({ p: { prefix: "a" }, n: { min: 3 } }, { p: { prefix: "b" } }, { budget: 3 })).toEqual({
      tool: "t",
      status: "unknown",
      reason:
        "the search ran out of its budget (candidate strings for operators not modelled exactly, such as `command` or `url`, are costly to build)",
      changes: [],
    });
    // The search for built calls fits in the budget, the one for any call (which also tries an object's contents,
    // not enumerated) does not: still unknown.
    const tools = [
      tool(
        "t",
        { o: { type: "object", properties: { p: { type: "string" } }, additionalProperties: false } },
        { required: ["o"] },
      ),
    ];
    const deny = (...values: string[]) => ({
      allow: ["t"],
      rules: values.map((p) => rule(p, "deny", { o: { equals: { p } } })),
    });
    const base = load(tools, deny("x"));
    const head = load(tools, deny("x", "y"));
    const tightened = [
      `tightened | allow→deny | {"o":{"p":"y"}} | {} | o equals {"p":"x"}: false | o equals {"p":"y"}: true`,
    ];
    const [short] = regions(base, head, { budget: 4 });
    expect([short?.status, short?.reason, short?.changes.map(line)]).toEqual([
      "unknown",
      "the search ran out of its budget",
      tightened,
    ]);
    const [enough] = regions(base, head);
    expect([enough?.status, enough?.reason, enough?.changes.map(line)]).toEqual([
      "unknown",
      "no loosened call was built, but one may exist: o: the contents of objects are not enumerated",
      tightened,
    ]);
  });

  it("a tightening in one region among many: the search goes to it, past the regions that did not change", () => {
    // Six integer fields, a new deny rule on all six at once: one region of 2^6 changed.
    const names = ["a", "b", "c", "d", "e", "f"];
    const tools = [
      tool("t", Object.fromEntries(names.map((n) => [n, { type: "integer", minimum: 0, maximum: 3 }]))),
    ];
    const when = Object.fromEntries(names.map((n) => [n, { min: 1 }]));
    const [t] = regions(
      load(tools, { allow: ["t"] }),
      load(tools, { allow: ["t"], rules: [rule("r", "deny", when)] }),
    );
    expect(t?.status).toBe("complete");
    expect(t?.changes.map(line)).toEqual([
      `tightened | allow→deny | {"a":1,"b":1,"c":1,"d":1,"e":1,"f":1} | {} | ${names.map((n) => `${n} at least 1: true`).join(" | ")}`,
    ]);
  });

  it("stops at maxModels confirmed regions per direction (8 by default)", () => {
    const many = denyDiff({ p: { prefix: "a" }, n: { min: 3 } }, { p: { prefix: "b" } });
    expect(many.status).toBe("complete");
    expect(many.changes.map(line)).toEqual([
      'loosened | deny→allow | {"n":3,"p":"a"} | {} | p starts with "a": true | n at least 3: true | p starts with "b": false',
      'tightened | allow→deny | {"p":"b"} | {} | p starts with "a": false | n at least 3: false | p starts with "b": true',
      'tightened | allow→deny | {"n":3,"p":"b"} | {} | p starts with "a": false | n at least 3: true | p starts with "b": true',
    ]);
    const one = denyDiff({ p: { prefix: "a" }, n: { min: 3 } }, { p: { prefix: "b" } }, { maxModels: 1 });
    expect(one.status).toBe("complete");
    expect(one.changes).toEqual(many.changes.slice(0, 2));
  });
});
