/**
 * Every operator the runtime knows is in the policy schema (so editors complete it and the loader accepts it)
 * and has its own section in docs/policy-reference.md, and every key of the `url` operator is in the schema.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { OPERATOR_NAMES } from "../../src/runtime/condition.js";
import { URL_KEYS } from "../../src/runtime/match/url.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const schema = JSON.parse(readFileSync(`${ROOT}schemas/policy.schema.json`, "utf8")) as {
  $defs: { operators: { properties: object }; url: { properties: object } };
};
const reference = readFileSync(`${ROOT}docs/policy-reference.md`, "utf8");

describe("operators are declared everywhere", () => {
  it("the schema lists exactly the runtime's operators", () => {
    expect(Object.keys(schema.$defs.operators.properties).sort()).toEqual([...OPERATOR_NAMES].sort());
  });
  it("the schema lists exactly the url operator's keys", () => {
    expect(Object.keys(schema.$defs.url.properties).sort()).toEqual([...URL_KEYS].sort());
  });
  it.each([...OPERATOR_NAMES])("docs/policy-reference.md has a section and a table row for %s", (name) => {
    const headings = reference.split("\n").filter((line) => line.startsWith("#### "));
    expect(headings.some((line) => line.includes(`\`${name}\``))).toBe(true);
    expect(reference).toMatch(new RegExp(`^\\| \`${name}\` \\|`, "m"));
  });
});
