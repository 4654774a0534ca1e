/**
 * The operator table is the vocabulary: each operator module states the JSON types of its value and its
 * description, and `schemas/policy.schema.json` must say the same of every operator, with no operator missing
 * on either side. Adding an operator means one module, its schema entry and its docs.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { OPERATOR_NAMES, OPERATORS } from "../../src/runtime/operators/index.js";
import type { JsonType } from "../../src/runtime/operators/operator.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

interface SchemaNode {
  readonly type?: string | readonly string[];
  readonly oneOf?: readonly SchemaNode[];
  readonly $ref?: string;
  readonly description?: string;
}

const schema = JSON.parse(readFileSync(`${ROOT}schemas/policy.schema.json`, "utf8")) as {
  $defs: { [name: string]: SchemaNode & { properties?: { [name: string]: SchemaNode } } };
};
const properties = schema.$defs.operators?.properties ?? {};

/** The JSON types a schema node accepts, following `oneOf` and local `$ref`s to `$defs` one step. */
function acceptedTypes(node: SchemaNode): string[] {
  if (node.$ref !== undefined) {
    const target = schema.$defs[node.$ref.replace("#/$defs/", "")];
    return target === undefined ? [] : acceptedTypes({ ...target, $ref: undefined });
  }
  if (node.oneOf !== undefined) return [...new Set(node.oneOf.flatMap(acceptedTypes))];
  if (node.type === undefined) return ["string", "number", "integer", "boolean", "array", "object", "null"];
  return typeof node.type === "string" ? [node.type] : [...node.type];
}

describe("the operator table and the policy schema", () => {
  it("name the same operators", () => {
    expect(Object.keys(properties).sort()).toEqual([...OPERATOR_NAMES].sort());
    expect(new Set(OPERATOR_NAMES).size).toBe(OPERATOR_NAMES.length);
  });

  it.each(OPERATORS.map((o) => [o.name, o] as const))(
    "%s: its value types and description match the schema",
    (name, operator) => {
      const node = properties[name] as SchemaNode;
      expect(acceptedTypes(node).sort()).toEqual([...(operator.valueTypes as readonly JsonType[])].sort());
      expect(node.$ref).toBe(operator.valueRef === undefined ? undefined : `#/$defs/${operator.valueRef}`);
      const described =
        node.description ??
        (node.$ref === undefined ? undefined : schema.$defs[node.$ref.replace("#/$defs/", "")]?.description);
      if (operator.description !== undefined) expect(node.description).toBe(operator.description);
      else expect(described).toEqual(expect.any(String));
    },
  );
});
