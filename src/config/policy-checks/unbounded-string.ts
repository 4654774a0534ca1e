/**
 * An operator whose work grows with the string it reads (`command`, `glob`, `path_prefix`, `regex`) reads a
 * field whose length the schema bounds (`maxLength`, `enum`, `const`). Reported once per field: an operator
 * object inside `not` reads the same value.
 */

import type { OperatorSpec } from "../../runtime/condition.js";
import { OPERATORS } from "../../runtime/operators/index.js";
import type { JsonSchema } from "../../runtime/types.js";
import { childPointer } from "../parsed-file.js";
import { definePolicyCheck } from "./policy-check.js";
import { typesOf } from "./policy-facts.js";

/** The operators whose work grows with the length of the string they read, by name. */
const LENGTH_BOUND: readonly string[] = OPERATORS.filter((o) => "lengthBound" in o && o.lengthBound === true)
  .map((o) => o.name as string)
  .sort();

function lengthOperator(spec: OperatorSpec): string | undefined {
  return LENGTH_BOUND.find((name) => (spec as Record<string, unknown>)[name] !== undefined);
}

/** A string field whose length nothing bounds; a field not declared as a string is not judged. */
function unboundedString(schema: JsonSchema): boolean {
  const types = typesOf(schema);
  if (types === null || !types.has("string")) return false;
  return typeof schema.maxLength !== "number" && schema.enum === undefined && !Object.hasOwn(schema, "const");
}

export const unboundedStringCheck = definePolicyCheck({
  meta: {
    code: "unbounded-string",
    severity: "warning",
    description:
      "A command, glob, path_prefix or regex rule reads a string field whose schema sets no maxLength.",
    meaning:
      "A `command`, `glob`, `path_prefix` or `regex` operator reads a string field (an argument, an array's items, or a `context_schema` fact) whose schema sets no `maxLength`, `enum` or `const`. Reported once per operator and field of a rule, naming every tool that leaves the field unbounded.",
    fix: "Add `maxLength` to the field in the `input_schema` (for example `maxLength: 4096`; a command line or a URL rarely needs more).",
  },
  name: "string operators read bounded strings",
  run: (facts, report) => {
    // One operator reading one field is one mistake, however many of the rule's tools leave the field unbounded.
    const groups = new Map<
      string,
      { node: (typeof facts.operatorNodes)[number]; operator: string; owners: string[] }
    >();
    for (const node of facts.operatorNodes) {
      const operator = lengthOperator(node.spec);
      if (operator === undefined || !unboundedString(node.schema)) continue;
      if (node.negatedIn.some((outer) => lengthOperator(outer) !== undefined)) continue;
      const key = [
        node.parsed.file,
        node.pointer,
        operator,
        node.field,
        node.owner === "" ? "" : "tool",
      ].join("\0");
      const group = groups.get(key);
      if (group === undefined) groups.set(key, { node, operator, owners: [node.owner] });
      else if (!group.owners.includes(node.owner)) group.owners.push(node.owner);
    }
    for (const { node, operator, owners } of groups.values()) {
      report.at(
        node.parsed,
        childPointer(node.pointer, operator),
        `"${operator}" reads string field "${node.field}", whose length ${whose(owners)} bound: a call with a very long value makes every check on it slow; add maxLength (for example maxLength: 4096) to "${node.field}"`,
        "key",
      );
    }
  },
});

/** "its schema does not", "the schema of tool "a" does not", "the schemas of tools "a" and "b" do not". */
function whose(owners: readonly string[]): string {
  if (owners.length === 1)
    return owners[0] === "" ? "its schema does not" : `the schema of ${owners[0]} does not`;
  const names = owners.map((owner) => owner.replace(/^tool /, ""));
  return `the schemas of tools ${names.slice(0, -1).join(", ")} and ${names[names.length - 1]} do not`;
}
