/**
 * The file schemas in `schemas/` are compiled without checking them against the meta-schema (to start fast):
 * this test is that check, with the same options otherwise.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { FILE_SCHEMA_OPTIONS, type FileKind, fileSchema } from "../../src/config/validate-schema.js";

const KINDS: readonly FileKind[] = ["config", "tools", "policy", "tests"];

describe("the file schemas", () => {
  it.each(KINDS)("%s.schema.json is a valid draft 2020-12 schema", (kind) => {
    const ajv = new Ajv2020({ ...FILE_SCHEMA_OPTIONS, validateSchema: true });
    const schema = fileSchema(kind);
    expect(ajv.validateSchema(schema), ajv.errorsText(ajv.errors)).toBe(true);
    expect(() => ajv.compile(schema)).not.toThrow();
  });
});
