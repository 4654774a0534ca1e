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
 * Every problem is reported with its file, line and column; a file with problems gives no properties.
 */
import { parseYaml } from "../config/parse-yaml.js";
import { childPointer, type ParsedFile, positionOf } from "../config/parsed-file.js";
import { type ConditionSpec, compileCondition } from "../runtime/condition.js";
import type { PolicyAction } from "../runtime/types.js";
import type { Property } from "./verify-properties.js";

/** A problem in a property file, where it is. */
export interface PropertyProblem {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

/** The properties of one file, or its problems. */
export interface PropertyFileResult {
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
      problems: parsed.diagnostics
        .filter((d) => d.severity === "error")
        .map((d) => ({ file: d.file, line: d.line, column: d.column, message: d.message })),
    };
  }
  return readProperties(parsed.value);
}

function readProperties(parsed: ParsedFile): PropertyFileResult {
  const problems: PropertyProblem[] = [];
  const problem = (pointer: string, message: string, prefer: "key" | "value" = "value") => {
    const span = positionOf(parsed, pointer, prefer);
    problems.push({ file: parsed.file, line: span.line, column: span.column, message });
  };
  const data = parsed.data;
  if (!isObject(data)) {
    problem("", "a property file is a mapping with `version: 1` and `properties:`");
    return { properties: [], problems };
  }
  for (const key of Object.keys(data)) {
    if (key !== "version" && key !== "properties")
      problem(childPointer("", key), `unknown key "${key}"`, "key");
  }
  if (data.version !== 1) problem("/version", "`version: 1` is required");
  const list = data.properties;
  if (!Array.isArray(list)) {
    problem("/properties", "`properties:` must be a list of properties");
    return { properties: [], problems };
  }
  const properties: Property[] = [];
  const ids = new Set<string>();
  list.forEach((item, index) => {
    const at = childPointer("/properties", index);
    if (!isObject(item)) {
      problem(at, "a property is a mapping with id, tool or tools, and never or always");
      return;
    }
    const before = problems.length;
    for (const key of Object.keys(item)) {
      if (!KEYS.has(key)) problem(childPointer(at, key), `unknown key "${key}"`, "key");
    }
    const id = item.id;
    if (typeof id !== "string" || id === "")
      problem(childPointer(at, "id"), "`id` must be a non-empty string");
    else if (ids.has(id)) problem(childPointer(at, "id"), `property id "${id}" is used twice`);
    else ids.add(id);
    let tools: string[] = [];
    if (item.tool !== undefined && item.tools !== undefined) {
      problem(childPointer(at, "tools"), "give `tool` or `tools`, not both", "key");
    } else if (typeof item.tool === "string" && item.tool !== "") tools = [item.tool];
    else if (
      Array.isArray(item.tools) &&
      item.tools.length > 0 &&
      item.tools.every((t) => typeof t === "string")
    )
      tools = item.tools as string[];
    else
      problem(
        item.tools === undefined ? at : childPointer(at, "tools"),
        "`tool` (a name) or `tools` (a list of names) is required",
      );
    const kinds = (["never", "always"] as const).filter((k) => item[k] !== undefined);
    if (kinds.length !== 1) problem(at, "a property has exactly one of `never:` and `always:`");
    const kind = kinds[0];
    if (kind !== undefined && !ACTIONS.includes(item[kind] as string)) {
      problem(childPointer(at, kind), `\`${kind}:\` takes allow, ask or deny`);
    }
    for (const key of ["where", "context"] as const) {
      const spec = item[key];
      if (spec === undefined) continue;
      if (!isObject(spec)) {
        problem(childPointer(at, key), `\`${key}:\` is a condition: field names with their operators`);
        continue;
      }
      const compiled = compileCondition(spec as ConditionSpec);
      if (!compiled.ok) {
        for (const p of compiled.problems) problem(childPointer(at, key), `\`${key}:\` ${p.message}`);
      }
    }
    if (problems.length > before || kind === undefined) return;
    const span = positionOf(parsed, at);
    properties.push({
      id: id as string,
      tools,
      ...(item.where === undefined ? {} : { where: item.where as ConditionSpec }),
      ...(item.context === undefined ? {} : { context: item.context as ConditionSpec }),
      kind,
      action: item[kind] as PolicyAction,
      source: { file: parsed.file, line: span.line, column: span.column },
    });
  });
  return problems.length > 0 ? { properties: [], problems } : { properties, problems };
}
