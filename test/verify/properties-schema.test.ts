/**
 * `schemas/properties.schema.json` describes property files: every property file of the repository validates
 * against it (with `schemas/policy.schema.json` for the conditions it refers to), broken ones do not, and the
 * reader (`readPropertyFile`) refuses the same broken files.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { FILE_SCHEMA_OPTIONS } from "../../src/config/validate-schema.js";
import { readPropertyFile } from "../../src/verify/property-file.js";

const ROOT = new URL("../../", import.meta.url).pathname;
const schema = (name: string) => JSON.parse(readFileSync(join(ROOT, "schemas", name), "utf8")) as object;

function compile() {
  const ajv = new Ajv2020({ ...FILE_SCHEMA_OPTIONS, validateSchema: true });
  ajv.addSchema(schema("policy.schema.json"));
  return ajv.compile(schema("properties.schema.json"));
}

const yamlIn = (dir: string, keep: (name: string) => boolean = () => true) =>
  readdirSync(join(ROOT, dir))
    .filter((name) => name.endsWith(".yaml") && keep(name))
    .map((name) => `${dir}/${name}`);

/** The repository's property files: the reference policy's, each pack's, and the benchmark's. */
const PROPERTY_FILES = [
  ...yamlIn("policies/properties"),
  ...readdirSync(join(ROOT, "policies/packs")).flatMap((pack) =>
    yamlIn(`policies/packs/${pack}`, (name) => name.startsWith("properties")),
  ),
  ...yamlIn("bench/verify"),
];

const BROKEN: readonly [string, string][] = [
  ["no version", "properties:\n  - { id: a, tool: t, never: allow }\n"],
  ["version 2", "version: 2\nproperties:\n  - { id: a, tool: t, never: allow }\n"],
  ["an unknown key", "version: 1\nextra: 1\nproperties: []\n"],
  ["an unknown property key", "version: 1\nproperties:\n  - { id: a, tool: t, never: allow, colour: red }\n"],
  ["no id", "version: 1\nproperties:\n  - { tool: t, never: allow }\n"],
  ["an empty id", "version: 1\nproperties:\n  - { id: '', tool: t, never: allow }\n"],
  ["no tool", "version: 1\nproperties:\n  - { id: a, never: allow }\n"],
  ["tool and tools", "version: 1\nproperties:\n  - { id: a, tool: t, tools: [t], never: allow }\n"],
  ["never and always", "version: 1\nproperties:\n  - { id: a, tool: t, never: allow, always: deny }\n"],
  ["neither never nor always", "version: 1\nproperties:\n  - { id: a, tool: t }\n"],
  ["a bad action", "version: 1\nproperties:\n  - { id: a, tool: t, never: maybe }\n"],
  [
    "an unknown operator",
    "version: 1\nproperties:\n  - { id: a, tool: t, where: { p: { like: x } }, never: allow }\n",
  ],
  [
    "a where that is not a mapping",
    "version: 1\nproperties:\n  - { id: a, tool: t, where: x, never: allow }\n",
  ],
];

describe("schemas/properties.schema.json", () => {
  const validate = compile();

  it("finds the repository's property files", () => {
    expect(PROPERTY_FILES).toContain("policies/properties/reference.yaml");
    expect(PROPERTY_FILES.length).toBeGreaterThanOrEqual(5);
  });

  it.each(PROPERTY_FILES)("%s validates, and names the schema in its first line", (file) => {
    const text = readFileSync(join(ROOT, file), "utf8");
    expect(validate(parse(text)), JSON.stringify(validate.errors)).toBe(true);
    const depth = file.split("/").length - 1;
    expect(text.split("\n")[0]).toBe(
      `# yaml-language-server: $schema=${"../".repeat(depth)}schemas/properties.schema.json`,
    );
  });

  it.each(BROKEN)("refuses a file with %s, as the reader does", (_, text) => {
    expect(validate(parse(text))).toBe(false);
    expect(readPropertyFile(new TextEncoder().encode(text), "p.yaml").problems).not.toEqual([]);
  });

  it("accepts what the reader accepts: tools, where, context, description and $schema", () => {
    const text = `$schema: ../schemas/properties.schema.json
version: 1
properties:
  - id: a
    tools: [t, u]
    where: { path: { glob: "**/.ssh/**" }, size: { min: 1 } }
    context: { environment: { equals: production } }
    description: text
    always: deny
`;
    expect(validate(parse(text)), JSON.stringify(validate.errors)).toBe(true);
    expect(readPropertyFile(new TextEncoder().encode(text), "p.yaml").problems).toEqual([]);
  });
});
