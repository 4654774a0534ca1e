/** Checks of tool spec files: names, duplicates, input schemas, TypeScript name collisions. */

import { pascalCase } from "../bundle/identifiers.js";
import type { BundleTool } from "../bundle/policy-bundle.js";
import { stageResult } from "../diagnostics/diagnostic.js";
import type { ArgumentValidator, JsonSchema } from "../runtime/types.js";
import { PROTO_MESSAGE, SUPPORTED_FORMATS, type ValidatorFactory } from "../validation/argument-validator.js";
import type { Diagnostic, StageResult } from "./diagnostic-codes.js";
import { nearest } from "./nearest.js";
import { childPointer, diagnosticAt, type ParsedFile, positionOf } from "./parse-yaml.js";

/** What model providers accept as a tool name. */
export const TOOL_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** Names that could reach an object's prototype machinery; never valid. */
export const RESERVED_NAMES: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/** Why a tool name is invalid, or `undefined` when it is fine. */
export function toolNameProblem(name: string): string | undefined {
  if (RESERVED_NAMES.has(name)) return `"${name}" is reserved and can never be a tool name; rename the tool`;
  if (!TOOL_NAME_PATTERN.test(name)) {
    const odd = [...name].find((c) => !/[A-Za-z0-9_-]/.test(c));
    const detail =
      odd === undefined
        ? name.length > 64
          ? ` (it is ${name.length} characters long; at most 64)`
          : ""
        : ` (it contains ${JSON.stringify(odd)}${odd.charCodeAt(0) > 127 ? `, U+${(odd.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}` : ""})`;
    return `tool name ${JSON.stringify(name)} is not valid${detail}: names must match ^[A-Za-z][A-Za-z0-9_-]{0,63}$, as model providers require`;
  }
  return undefined;
}

interface RawTool {
  readonly name: string;
  readonly description: string;
  readonly input_schema: JsonSchema;
}

/** Finds `$ref`s that leave the schema (anything not starting with `#`). */
function findRemoteRefs(schema: unknown, pointer: string, out: { pointer: string; ref: string }[]): void {
  if (schema === null || typeof schema !== "object") return;
  if (Array.isArray(schema)) {
    schema.forEach((item, i) => {
      findRemoteRefs(item, childPointer(pointer, i), out);
    });
    return;
  }
  for (const [key, value] of Object.entries(schema)) {
    if ((key === "$ref" || key === "$dynamicRef") && typeof value === "string" && !value.startsWith("#")) {
      out.push({ pointer: childPointer(pointer, key), ref: value });
    } else findRemoteRefs(value, childPointer(pointer, key), out);
  }
}

/** Finds the pointer of a key named `key` inside the subtree at `pointer`, to point at a typo'd keyword. */
function findKey(parsed: ParsedFile, pointer: string, key: string): string | undefined {
  const suffix = `/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
  for (const candidate of parsed.positions.keys()) {
    if (candidate.startsWith(`${pointer}/`) && candidate.endsWith(suffix)) return candidate;
  }
  return undefined;
}

/** JSON Schema keywords (2020-12 and draft-07) a misspelt keyword is compared with. */
const SCHEMA_KEYWORDS = [
  "$ref",
  "$defs",
  "$id",
  "$schema",
  "$comment",
  "$anchor",
  "additionalItems",
  "additionalProperties",
  "allOf",
  "anyOf",
  "const",
  "contains",
  "contentEncoding",
  "contentMediaType",
  "default",
  "definitions",
  "dependentRequired",
  "dependentSchemas",
  "deprecated",
  "description",
  "else",
  "enum",
  "examples",
  "exclusiveMaximum",
  "exclusiveMinimum",
  "format",
  "if",
  "items",
  "maxContains",
  "maxItems",
  "maxLength",
  "maxProperties",
  "maximum",
  "minContains",
  "minItems",
  "minLength",
  "minProperties",
  "minimum",
  "multipleOf",
  "not",
  "oneOf",
  "pattern",
  "patternProperties",
  "prefixItems",
  "properties",
  "propertyNames",
  "readOnly",
  "required",
  "then",
  "title",
  "type",
  "unevaluatedItems",
  "unevaluatedProperties",
  "uniqueItems",
  "writeOnly",
];

function keywordHint(keyword: string): string {
  const near = nearest(keyword, SCHEMA_KEYWORDS);
  return near === undefined
    ? "check the spelling of the keyword (JSON Schema keywords are case-sensitive)"
    : `did you mean "${near}"? (JSON Schema keywords are case-sensitive)`;
}

const JSON_TYPES = ["string", "number", "integer", "boolean", "array", "object", "null"];

/**
 * Where in a schema (at `schemaPointer` of a parsed file) ajv's compile error points, and a message for it:
 * an unknown keyword at its key, a meta-schema violation (`data/properties/x/type must be …`) at that
 * node, a `pattern` the linear-time engine refuses at that pattern, an unknown `format` at that format
 * (with the supported list). Otherwise the schema itself.
 */
export function locateSchemaProblem(
  parsed: ParsedFile,
  schemaPointer: string,
  message: string,
): { pointer: string; message: string; prefer: "key" | "value" } {
  const keyword = /unknown keyword: "?([^"\s]+)"?/.exec(message)?.[1];
  if (keyword !== undefined) {
    const target = findKey(parsed, schemaPointer, keyword);
    return {
      pointer: target ?? schemaPointer,
      message: `${message}; ${keywordHint(keyword)}`,
      prefer: "key",
    };
  }
  if (message.startsWith(PROTO_MESSAGE)) {
    const at = /at "#(.*)"; rename the property$/s.exec(message)?.[1];
    const pointer = at === undefined ? schemaPointer : `${schemaPointer}${at}`;
    return {
      pointer: parsed.positions.has(pointer) ? pointer : schemaPointer,
      message: `${PROTO_MESSAGE}; rename the property`,
      prefer: "key",
    };
  }
  const format = /^unknown format "(.*)" ignored in schema at path "#(.*)"$/s.exec(message);
  if (format !== null) {
    // ajv names the schema that holds the `format` keyword, as a URI fragment.
    const name = format[1] as string;
    let at = schemaPointer;
    try {
      at = `${schemaPointer}${decodeURIComponent(format[2] as string)}`;
    } catch {
      // Not a fragment ajv would write: point at the schema itself.
    }
    const near = nearest(name, SUPPORTED_FORMATS);
    return {
      pointer: parsed.positions.has(`${at}/format`) ? `${at}/format` : schemaPointer,
      message: `unknown format "${name}"${near === undefined ? "" : ` (did you mean "${near}"?)`}; toolgate checks every format it accepts and refuses the others — use one of ${SUPPORTED_FORMATS.join(", ")}, or a "pattern"`,
      prefer: "value",
    };
  }
  const metaPath = /^schema is invalid: data(\/\S*)? /.exec(message);
  if (metaPath !== null) {
    const pointer = `${schemaPointer}${metaPath[1] ?? ""}`;
    const first = message.slice("schema is invalid: ".length).split(", data")[0] ?? message;
    const where = (metaPath[1] ?? "").slice(1) || "the schema";
    let text = `${where}${first.slice(`data${metaPath[1] ?? ""}`.length)}`;
    const value = valueAtPointer(parsed.data, pointer);
    if (pointer.endsWith("/type") && typeof value === "string") {
      const near = nearest(value, JSON_TYPES);
      text = `"${value}" is not a JSON Schema type; ${near === undefined ? `use one of ${JSON_TYPES.join(", ")}` : `did you mean "${near}"?`}`;
    }
    return { pointer, message: text, prefer: "value" };
  }
  if (message.startsWith("pattern ")) {
    // A `pattern` value, or a `patternProperties` key, that the linear-time engine refuses.
    for (const candidate of parsed.positions.keys()) {
      if (!candidate.startsWith(`${schemaPointer}/`)) continue;
      const segments = candidate.split("/");
      const last = (segments.at(-1) ?? "").replaceAll("~1", "/").replaceAll("~0", "~");
      if (
        candidate.endsWith("/pattern") &&
        message.startsWith(`pattern "${String(valueAtPointer(parsed.data, candidate))}": `)
      )
        return { pointer: candidate, message, prefer: "value" };
      if (segments.at(-2) === "patternProperties" && message.startsWith(`pattern "${last}": `))
        return { pointer: candidate, message, prefer: "key" };
    }
  }
  return { pointer: schemaPointer, message, prefer: "value" };
}

function valueAtPointer(data: unknown, pointer: string): unknown {
  let current = data;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** What the tool checks produce. */
export interface CheckedTools {
  /** The tools whose name and input schema passed, in file order. */
  readonly tools: BundleTool[];
  /** Their compiled argument validators, by tool name. */
  readonly validators: Map<string, ArgumentValidator>;
  /** Every validly named tool, also those whose schema failed: later checks must not call them unknown. */
  readonly declared: Set<string>;
  /** Names a tool file declares that are not valid tool names (each one an `invalid-tool-name` already). */
  readonly invalidNames: Set<string>;
}

/**
 * Tool checks over all tool files: names, duplicates, TypeScript identifiers, input schemas.
 * @returns the checked tools; when any failed, the ones that passed as `partial`.
 */
export function checkTools(
  files: readonly ParsedFile[],
  factory: ValidatorFactory,
): StageResult<CheckedTools> {
  const diagnostics: Diagnostic[] = [];
  const tools: BundleTool[] = [];
  const validators = new Map<string, ArgumentValidator>();
  const firstPlace = new Map<string, string>();
  const declared = new Set<string>();
  const invalidNames = new Set<string>();
  const identifiers = new Map<string, { name: string; place: string }>();
  for (const parsed of files) {
    // A tool file may hold only aliases.
    const list = (parsed.data as { tools?: RawTool[] }).tools ?? [];
    list.forEach((raw, index) => {
      const at = `/tools/${index}`;
      const namePointer = `${at}/name`;
      const span = positionOf(parsed, namePointer);
      const place = `${parsed.file}:${span.line}`;
      const problem = toolNameProblem(raw.name);
      if (problem !== undefined) {
        diagnostics.push(diagnosticAt(parsed, namePointer, "invalid-tool-name", problem));
        if (typeof raw.name === "string") invalidNames.add(raw.name);
        return;
      }
      const earlier = firstPlace.get(raw.name);
      if (earlier !== undefined) {
        diagnostics.push(
          diagnosticAt(
            parsed,
            namePointer,
            "duplicate-tool",
            `tool "${raw.name}" is defined twice: ${earlier} and ${place}; keep one definition`,
          ),
        );
        return;
      }
      firstPlace.set(raw.name, place);
      declared.add(raw.name);
      const identifier = pascalCase(raw.name);
      const clash = identifiers.get(identifier);
      if (clash !== undefined) {
        diagnostics.push(
          diagnosticAt(
            parsed,
            namePointer,
            "identifier-collision",
            `tools "${clash.name}" (${clash.place}) and "${raw.name}" both become the TypeScript name ${identifier}Args; rename one`,
          ),
        );
      } else identifiers.set(identifier, { name: raw.name, place });

      const schemaPointer = `${at}/input_schema`;
      const remote: { pointer: string; ref: string }[] = [];
      findRemoteRefs(raw.input_schema, schemaPointer, remote);
      for (const r of remote) {
        diagnostics.push(
          diagnosticAt(
            parsed,
            r.pointer,
            "invalid-input-schema",
            `tool "${raw.name}": $ref "${r.ref}" points outside the schema; toolgate never fetches schemas — inline it under $defs and use "#/$defs/..."`,
          ),
        );
      }
      if (remote.length > 0) return;
      const compiled = factory.compile(raw.input_schema);
      if (!compiled.ok) {
        const problem = locateSchemaProblem(parsed, schemaPointer, compiled.message);
        diagnostics.push(
          diagnosticAt(
            parsed,
            problem.pointer,
            "invalid-input-schema",
            `tool "${raw.name}": input_schema is not a valid JSON Schema: ${problem.message}`,
            { prefer: problem.prefer },
          ),
        );
        return;
      }
      validators.set(raw.name, compiled.validator);
      tools.push({
        name: raw.name,
        description: raw.description,
        inputSchema: raw.input_schema,
        source: { file: parsed.file, line: span.line, column: span.column },
      });
    });
  }
  return stageResult({ tools, validators, declared, invalidNames }, diagnostics);
}
