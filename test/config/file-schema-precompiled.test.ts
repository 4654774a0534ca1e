/**
 * The build compiles toolgate's own file schemas ahead of time (`scripts/compile-file-schemas.mjs`), and a load
 * uses those validators instead of compiling the schemas. They must report exactly what ajv's run-time compile
 * of the same schema files reports — the errors every `config-schema` diagnostic is made from — on every YAML
 * file of the repository (fixtures, packs, examples), each checked against every kind, valid or not.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  FILE_SCHEMA_FILES,
  FILE_SCHEMA_OPTIONS,
  type FileKind,
  fileSchema,
  SCHEMAS_DIR,
} from "../../src/config/validate-schema.js";
import { assertBuilt, ROOT } from "../cli/cli-helpers.js";

type Validate = ((data: unknown) => boolean) & { errors?: unknown };

const KINDS = Object.keys(FILE_SCHEMA_FILES) as FileKind[];

/** Every YAML file under a folder, recursively. */
function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : yamlFiles(path);
    return /\.ya?ml$/.test(entry.name) ? [path] : [];
  });
}

/** The parsed data of every YAML file that parses (the others never reach a schema). */
function corpus(): { file: string; data: unknown }[] {
  return ["test/fixtures", "policies", "examples"].flatMap((dir) =>
    yamlFiles(join(ROOT, dir)).flatMap((file) => {
      try {
        return [{ file, data: parse(readFileSync(file, "utf8")) as unknown }];
      } catch {
        return [];
      }
    }),
  );
}

let built: { readonly sources: Record<string, string>; readonly [kind: string]: unknown };

beforeAll(() => {
  assertBuilt();
  built = createRequire(import.meta.url)(join(ROOT, "dist/config/file-schema-validators.cjs"));
});

describe("the file-schema validators compiled at build time", () => {
  it.each(KINDS)("%s: built from the schema file as it is", (kind) => {
    const text = readFileSync(new URL(FILE_SCHEMA_FILES[kind], SCHEMAS_DIR), "utf8");
    expect(built.sources[kind]).toBe(`sha256:${createHash("sha256").update(text).digest("hex")}`);
  });

  it.each(KINDS)("%s: reports exactly what the run-time compile reports, on every YAML file", (kind) => {
    const precompiled = built[kind] as Validate;
    const compiled = new Ajv2020(FILE_SCHEMA_OPTIONS).compile(fileSchema(kind)) as Validate;
    const files = corpus();
    expect(files.length).toBeGreaterThan(100);
    let invalid = 0;
    for (const { file, data } of files) {
      const valid = compiled(data);
      expect(precompiled(data), file).toBe(valid);
      expect(precompiled.errors ?? null, file).toEqual(compiled.errors ?? null);
      if (!valid) invalid++;
    }
    // Both outcomes are covered: files of this kind pass, the others fail in many ways.
    expect(invalid).toBeGreaterThan(0);
    expect(invalid).toBeLessThan(files.length);
  });
});
