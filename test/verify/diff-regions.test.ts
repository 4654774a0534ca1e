/**
 * `diffRegions` and `schemaChanges` (src/verify/diff-regions.ts), the engine behind `toolgate diff`, through their
 * exported functions: which schema changes are read per field and which make a tool `unknown` (with the reason),
 * which tools are compared, how a region's condition reads, and every status and reason of a tool. Each witness is
 * decided again by both real controllers. test/diff/engine-diff.test.ts holds the diff-level and property tests.
 */
import { describe, expect, it } from "vitest";
import { schemaChanges } from "../../src/verify/diff-regions.js";

const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties,
  ...extra,
});

describe("schemaChanges: which fields' validity differs, and what the engine cannot read", () => {
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

  it("an object's type or additionalProperties that changed is a problem; other object keywords make it a leaf", () => {
    const props = { a: { type: "string" } };
    expect(
      schemaChanges(
        object(props, { additionalProperties: false }),
        object(props, { additionalProperties: true }),
        "input_schema",
      ).problems,
    ).toEqual(["input_schema: `additionalProperties` changed"]);
    expect(
      schemaChanges(object(props), object(props, { additionalProperties: false }), "input_schema").problems,
    ).toEqual(["input_schema: `additionalProperties` changed"]);
    expect(
      schemaChanges(object(props), { ...object(props), type: ["object", "null"] }, "input_schema").problems,
    ).toEqual(["input_schema: `type` changed"]);
    expect(schemaChanges({ properties: props }, object(props), "input_schema").problems).toEqual([
      "input_schema: `type` changed",
    ]);
    // Nested: the problem names where.
    expect(
      schemaChanges(
        object({ o: object(props, { additionalProperties: false }) }),
        object({ o: object(props) }),
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
    ).toEqual({ fields: [], problems: ["input_schema at n: changes `multipleOf`, not modelled here"] });
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
