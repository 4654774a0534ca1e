/**
 * Property files for `toolgate verify`: YAML, read with the policy files' safe parser (positions, no aliases, no
 * duplicate keys), in this shape:
 *
 * ```yaml
 * version: 1
 * properties:
 *   - id: no-recursive-delete
 *     tool: run_shell            # or tools: [a, b]
 *     where:                     # optional: the argument condition that selects calls (the policy's syntax)
 *       command: { command: ["rm -rf"] }
 *     context: { ... }           # optional: the context condition
 *     always: deny               # or never: allow
 * ```
 *
 * Every problem is a diagnostic with one of the codes of `./property-diagnostics.ts` (or the YAML parser's), at its
 * file, line and column; a file with problems gives no properties. What needs the configuration (tool names,
 * fields, operator types) is checked after it is loaded (`checkPropertiesAgainstBundle`), on what the reader
 * hands on as `written`.
 */
import { parseYaml } from "../config/parse-yaml.js";
import { childPointer, type ParsedFile, positionOf } from "../config/parsed-file.js";
import { type ConditionSpec, compileCondition } from "../runtime/condition.js";
import type { PolicyAction } from "../runtime/types.js";
import {
  type PropertyDiagnostic,
  type PropertyDiagnosticCode,
  propertyDiagnostic,
  type WrittenProperty,
  type WrittenPropertyFile,
} from "./property-diagnostics.js";
import type { Property } from "./verify-properties.js";

/** A problem in a property file, where it is, with its code. */
export type PropertyProblem = PropertyDiagnostic;

/** The properties of one file, or its problems; and the properties as written, for the later checks. */
export interface PropertyFileResult extends WrittenPropertyFile {
  readonly properties: readonly Property[];
  readonly problems: readonly PropertyProblem[];
}

const ACTIONS: readonly string[] = ["allow", "ask", "deny"];
const KEYS = new Set(["id", "tool", "tools", "where", "context", "never", "always", "description"]);

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Reads the properties of a property file.
 * @param bytes - the file's contents.
 * @param file - the file's name as problems show it (relative to the working directory).
 */
export function readPropertyFile(bytes: Uint8Array, file: string): PropertyFileResult {
  const parsed = parseYaml(bytes, file);
  if (!parsed.ok) {
    return {
      properties: [],
      problems: parsed.diagnostics.filter((d) => d.severity === "error"),
      written: [],
    };
  }
  return readProperties(parsed.value);
}

function readProperties(parsed: ParsedFile): PropertyFileResult {
  const problems: PropertyProblem[] = [];
  const written: WrittenProperty[] = [];
  const problem = (
    pointer: string,
    message: string,
    prefer: "key" | "value" = "value",
    code: PropertyDiagnosticCode = "property-schema",
  ) => {
    problems.push(propertyDiagnostic(parsed, pointer, code, message, prefer));
  };
  const data = parsed.data;
  if (!isObject(data)) {
    problem("", "a property file is a mapping with `version: 1` and `properties:`; write them at the top");
    return { properties: [], problems, parsed, written };
  }
  for (const key of Object.keys(data)) {
    if (key !== "version" && key !== "properties" && key !== "$schema")
      problem(
        childPointer("", key),
        `unknown key "${key}" in a property file; it has \`version\` and \`properties\` (and \`$schema\`) only`,
        "key",
      );
  }
  if (data.version === undefined) problem("", "`version: 1` is missing; add it at the top of the file");
  else if (data.version !== 1)
    problem("/version", `\`version\` must be 1, not ${JSON.stringify(data.version)}`);
  const list = data.properties;
  if (!Array.isArray(list)) {
    problem(
      list === undefined ? "" : "/properties",
      list === undefined
        ? "`properties:` is missing; add the list of properties"
        : "`properties:` must be a list of properties",
    );
    return { properties: [], problems, parsed, written };
  }
  const properties: Property[] = [];
  const ids = new Map<string, number>();
  list.forEach((item, index) => {
    const at = childPointer("/properties", index);
    if (!isObject(item)) {
      problem(at, "a property is a mapping with id, tool or tools, and never or always");
      return;
    }
    const before = problems.length;
    for (const key of Object.keys(item)) {
      if (!KEYS.has(key))
        problem(
          childPointer(at, key),
          `unknown key "${key}" in a property; use id, tool or tools, where, context, never or always, description`,
          "key",
        );
    }
    const id = item.id;
    const idAt = childPointer(at, "id");
    if (id === undefined) problem(at, "the property has no `id`; give it a unique name");
    else if (typeof id !== "string" || id === "")
      problem(idAt, "`id` must be a non-empty string; give the property a unique name");
    else {
      const first = ids.get(id);
      if (first !== undefined)
        problem(
          idAt,
          `property id "${id}" is already used at line ${first}; give each property its own id`,
          "value",
          "property-duplicate-id",
        );
      else ids.set(id, positionOf(parsed, idAt).line);
    }
    let tools: { name: string; pointer: string }[] = [];
    if (item.tool !== undefined && item.tools !== undefined) {
      problem(childPointer(at, "tools"), "give `tool` or `tools`, not both", "key");
    } else if (typeof item.tool === "string" && item.tool !== "")
      tools = [{ name: item.tool, pointer: childPointer(at, "tool") }];
    else if (isNameList(item.tool) || isNameList(item.tools)) {
      // `tool: [a, b]` and `tools: [a, b]` say the same.
      const key = item.tool === undefined ? "tools" : "tool";
      tools = (item[key] as string[]).map((name, i) => ({
        name,
        pointer: childPointer(childPointer(at, key), i),
      }));
    } else if (item.tool === undefined && item.tools === undefined)
      problem(at, "the property names no tool; add `tool` (a name) or `tools` (a list of names)");
    else
      problem(
        childPointer(at, item.tool === undefined ? "tools" : "tool"),
        item.tool === undefined
          ? "`tools` must be a non-empty list of tool names"
          : "`tool` must be a tool name or a non-empty list of tool names",
      );
    const kinds = (["never", "always"] as const).filter((k) => item[k] !== undefined);
    if (kinds.length === 0) problem(at, "the property has neither `never:` nor `always:`; add one of them");
    else if (kinds.length === 2)
      problem(childPointer(at, "always"), "the property has both `never:` and `always:`; keep one", "key");
    const kind = kinds.length === 1 ? kinds[0] : undefined;
    if (kind !== undefined && !ACTIONS.includes(item[kind] as string)) {
      problem(
        childPointer(at, kind),
        `\`${kind}:\` takes allow, ask or deny, not ${JSON.stringify(item[kind])}`,
      );
    }
    const conditions: { where?: ConditionSpec; context?: ConditionSpec } = {};
    for (const key of ["where", "context"] as const) {
      const spec = item[key];
      if (spec === undefined) continue;
      if (!isObject(spec)) {
        problem(
          childPointer(at, key),
          `\`${key}:\` is a condition, a mapping of field names to their operators`,
        );
        continue;
      }
      const compiled = compileCondition(spec as ConditionSpec);
      if (compiled.ok) {
        conditions[key] = spec as ConditionSpec;
        continue;
      }
      for (const p of compiled.problems) {
        const fieldAt = childPointer(childPointer(at, key), p.field);
        const pointer =
          p.operator === "field" || !Object.hasOwn(spec[p.field] ?? {}, p.operator)
            ? fieldAt
            : childPointer(fieldAt, p.operator);
        problem(pointer, `\`${key}:\` field "${p.field}": ${p.message}`, "key", "property-invalid-condition");
      }
    }
    written.push({
      pointer: at,
      ...(typeof id === "string" && id !== "" ? { id } : {}),
      tools,
      ...conditions,
    });
    if (problems.length > before || kind === undefined) return;
    const span = positionOf(parsed, at);
    properties.push({
      id: id as string,
      tools: tools.map((t) => t.name),
      ...(item.where === undefined ? {} : { where: item.where as ConditionSpec }),
      ...(item.context === undefined ? {} : { context: item.context as ConditionSpec }),
      kind,
      action: item[kind] as PolicyAction,
      source: { file: parsed.file, line: span.line, column: span.column },
    });
  });
  return problems.length > 0
    ? { properties: [], problems, parsed, written }
    : { properties, problems, parsed, written };
}

/** A non-empty list of non-empty strings (tool names). */
function isNameList(value: unknown): value is string[] {
  return Array.isArray(value) && value.length > 0 && value.every((t) => typeof t === "string" && t !== "");
}
