/**
 * Validates parsed files against the JSON Schemas in `schemas/` — exactly those files, which editors also
 * use — and turns ajv's errors into Diagnostics at the YAML node they concern.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { Ajv2020, ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import type { Diagnostic, StageResult } from "./diagnostic-codes.js";
import { nearest } from "./nearest.js";
import { childPointer, diagnosticAt, type ParsedFile } from "./parse-yaml.js";

/** The file formats, each with its schema file. */
export type FileKind = "config" | "tools" | "policy" | "tests";

/** The schema file of each file kind, in `SCHEMAS_DIR`. */
export const FILE_SCHEMA_FILES: Readonly<Record<FileKind, string>> = {
  config: "config.schema.json",
  tools: "tools.schema.json",
  policy: "policy.schema.json",
  tests: "tests.schema.json",
};

/** The `schemas/` folder of this package. */
export const SCHEMAS_DIR: string = new URL("../../schemas/", import.meta.url).href;

let ajv: Ajv2020 | undefined;
const validators = new Map<FileKind, ValidateFunction>();

/**
 * The ajv options the file schemas are compiled with. `verbose`: errors carry their parentSchema, which
 * lists the allowed keys for "did you mean". Start-up is most of a small command's time, so each schema is
 * compiled when a file of its kind is first validated, without ajv's optimisation pass (the validators run
 * once a file), and without checking the schemas themselves against the meta-schema, which would compile
 * that too: they are this package's own files, and a test checks them against it. The build compiles them
 * with these options too, ahead of time (`scripts/compile-file-schemas.mjs`); a load then compiles none.
 */
export const FILE_SCHEMA_OPTIONS = {
  allErrors: true,
  strict: true,
  allowUnionTypes: true,
  validateFormats: false,
  verbose: true,
  validateSchema: false,
  code: { optimize: false },
} as const;

/** The file schema of a kind, as parsed JSON. */
export function fileSchema(kind: FileKind): object {
  return JSON.parse(readFileSync(new URL(FILE_SCHEMA_FILES[kind], SCHEMAS_DIR), "utf8")) as object;
}

/** What the build writes next to this module (`scripts/compile-file-schemas.mjs`). */
interface PrecompiledValidators {
  readonly sources: Readonly<Record<FileKind, string>>;
  readonly [kind: string]: unknown;
}

/**
 * The validators the build compiled from the schema files (ajv standalone code, with `FILE_SCHEMA_OPTIONS`),
 * `null` when there are none (a build without them, or the sources run as they are). Read once.
 */
let precompiled: PrecompiledValidators | null | undefined;

function precompiledValidator(kind: FileKind, text: string): ValidateFunction | undefined {
  if (precompiled === undefined) {
    try {
      const url = new URL("../config/file-schema-validators.cjs", import.meta.url);
      precompiled = createRequire(import.meta.url)(fileURLToPath(url)) as PrecompiledValidators;
    } catch {
      precompiled = null;
    }
  }
  const validate = precompiled?.[kind];
  // Only a validator built from the very text of the schema file read now.
  if (typeof validate !== "function" || precompiled?.sources?.[kind] !== sha256(text)) return undefined;
  return validate as ValidateFunction;
}

const sha256 = (text: string) => `sha256:${createHash("sha256").update(text).digest("hex")}`;

/**
 * The validator of a file kind: the build's precompiled one when it was compiled from the schema file as it
 * is (it reports exactly what ajv's compile of that file reports), else the file's schema compiled now.
 */
function validatorFor(kind: FileKind): ValidateFunction {
  let validate = validators.get(kind);
  if (validate === undefined) {
    const text = readFileSync(new URL(FILE_SCHEMA_FILES[kind], SCHEMAS_DIR), "utf8");
    validate = precompiledValidator(kind, text);
    if (validate === undefined) {
      // Only a build without its precompiled validators (or the sources run as they are) compiles here, so
      // ajv's compiler is loaded only then.
      if (ajv === undefined) {
        const { Ajv2020: Compiler } = createRequire(import.meta.url)(
          "ajv/dist/2020",
        ) as typeof import("ajv/dist/2020.js");
        ajv = new Compiler(FILE_SCHEMA_OPTIONS);
      }
      validate = ajv.compile(JSON.parse(text) as object);
    }
    validators.set(kind, validate);
  }
  return validate;
}

/** JSON Schema type names in the words of YAML. */
const TYPE_WORDS: Readonly<Record<string, string>> = {
  object: "a mapping",
  array: "a list",
  string: "a string",
  number: "a number",
  integer: "an integer",
  boolean: "true or false",
  null: "null",
};

function describeExpected(types: string): string {
  return types
    .split(",")
    .map((t) => TYPE_WORDS[t] ?? t)
    .join(" or ");
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  return `${typeof value} ${JSON.stringify(value)}`;
}

function valueAt(data: unknown, pointer: string): unknown {
  let current = data;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function toDiagnostic(parsed: ParsedFile, error: ErrorObject): Diagnostic {
  const at = error.instancePath;
  const where = at === "" ? "the file" : `"${at.slice(1)}"`;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "additionalProperties": {
      const key = String(params.additionalProperty);
      const allowed = Object.keys(
        (error.parentSchema as { properties?: object } | undefined)?.properties ?? {},
      );
      const near = nearest(key, allowed);
      const hint = near === undefined ? `allowed keys: ${allowed.join(", ")}` : `did you mean "${near}"?`;
      return diagnosticAt(parsed, childPointer(at, key), "config-schema", `unknown key "${key}"; ${hint}`, {
        prefer: "key",
      });
    }
    case "required":
      return diagnosticAt(
        parsed,
        at,
        "config-schema",
        `${where} is missing the required key "${String(params.missingProperty)}"`,
      );
    case "type":
      return diagnosticAt(
        parsed,
        at,
        "config-schema",
        `${where} must be ${describeExpected(String(params.type))}, found ${describeType(valueAt(parsed.data, at))}`,
      );
    case "enum": {
      const allowed = params.allowedValues as unknown[];
      const found = valueAt(parsed.data, at);
      const near =
        typeof found === "string"
          ? nearest(
              found,
              allowed.filter((v): v is string => typeof v === "string"),
            )
          : undefined;
      return diagnosticAt(
        parsed,
        at,
        "config-schema",
        `${where} must be one of ${allowed.map((v) => JSON.stringify(v)).join(", ")}${near === undefined ? "" : `; did you mean "${near}"?`}`,
      );
    }
    case "maxProperties": {
      const found = valueAt(parsed.data, at);
      const count = found !== null && typeof found === "object" ? Object.keys(found).length : 0;
      const description = (error.parentSchema as { description?: unknown } | undefined)?.description;
      return diagnosticAt(
        parsed,
        at,
        "config-schema",
        `${where} has ${count} keys but may have at most ${String(params.limit)}${typeof description === "string" ? ` (${description})` : ""}; keep one`,
      );
    }
    case "const":
      return diagnosticAt(
        parsed,
        at,
        "config-schema",
        `${where} must be ${JSON.stringify(params.allowedValue)}`,
      );
    default:
      return diagnosticAt(
        parsed,
        at,
        "config-schema",
        `${where} ${error.message ?? `fails ${error.keyword}`}`,
      );
  }
}

/**
 * Validates a parsed file against its schema.
 * @returns the file when it matches; otherwise a `config-schema` error at each place that does not.
 */
export function validateAgainstSchema(parsed: ParsedFile, kind: FileKind): StageResult<ParsedFile> {
  const problems = schemaProblems(parsed, kind);
  return problems.length === 0
    ? { ok: true, value: parsed, diagnostics: [] }
    : { ok: false, diagnostics: problems };
}

function schemaProblems(parsed: ParsedFile, kind: FileKind): Diagnostic[] {
  const validate = validatorFor(kind);
  if (validate(parsed.data)) return [];
  const errors = validate.errors ?? [];
  // anyOf and oneOf report each branch and then themselves. Keep the branch errors only; and where a value
  // has a branch's type (a mapping where a string or a mapping may stand), drop the other branches' "must be
  // a string": the errors inside the mapping say what is wrong.
  let precise = errors.filter((e) => e.keyword !== "anyOf" && e.keyword !== "oneOf" && e.keyword !== "if");
  for (const union of errors.filter((e) => e.keyword === "anyOf" || e.keyword === "oneOf")) {
    const path = union.instancePath;
    const wrongType = (e: ErrorObject) => e.keyword === "type" && e.instancePath === path;
    const inside = precise.some(
      (e) => !wrongType(e) && (e.instancePath === path || e.instancePath.startsWith(`${path}/`)),
    );
    if (inside) precise = precise.filter((e) => !wrongType(e));
  }
  // A misspelt key also makes the key it stands for "missing": report the misspelling only.
  const misspelt = new Set(
    precise
      .filter((e) => e.keyword === "additionalProperties")
      .flatMap((e) => {
        const allowed = Object.keys(
          (e.parentSchema as { properties?: object } | undefined)?.properties ?? {},
        );
        const near = nearest(
          String((e.params as { additionalProperty?: unknown }).additionalProperty),
          allowed,
        );
        return near === undefined ? [] : [`${e.instancePath}\u0000${near}`];
      }),
  );
  const kept = precise.filter(
    (e) =>
      e.keyword !== "required" ||
      !misspelt.has(
        `${e.instancePath}\u0000${String((e.params as { missingProperty?: unknown }).missingProperty)}`,
      ),
  );
  const chosen = (kept.length > 0 ? kept : errors).map((e) => toDiagnostic(parsed, e));
  const seen = new Set<string>();
  return chosen.filter((d) => {
    const key = `${d.line}:${d.column}:${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
