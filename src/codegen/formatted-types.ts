/**
 * Argument interfaces written already formatted, for the schemas whose TypeScript is plain: objects of
 * named properties whose types are `string` (or a union of simple string literals), `number`, `boolean`,
 * arrays of those, and nested objects of the same. For such a schema the text is exactly what
 * json-schema-to-typescript followed by prettier writes (printWidth 110), so neither needs to start.
 * Anything else — another keyword, a key or a literal that would need quoting or escaping, a description
 * with characters the formatter might treat differently, a line the formatter would break — gives
 * `undefined`, and the caller takes the json-schema-to-typescript and prettier path for the whole file.
 * Tests hold this emitter equal to that path.
 */
import type { JsonSchema } from "../runtime/types.js";

/** prettier's print width in generated files. */
export const PRINT_WIDTH = 110;

/** Keywords that do not change the TypeScript json-schema-to-typescript writes (validation only). */
const IGNORED = new Set([
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "uniqueItems",
  "minProperties",
  "maxProperties",
]);

const SCALARS: Readonly<Record<string, string>> = {
  string: "string",
  integer: "number",
  number: "number",
  boolean: "boolean",
};

/** A key json-schema-to-typescript writes bare and prettier keeps bare (and no member of Object.prototype). */
const BARE_KEY = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A string literal written the same by JSON.stringify and prettier (no quotes, no escapes). */
const PLAIN_LITERAL = /^[A-Za-z0-9 _./:+#@,=-]*$/;

/**
 * Text that json-schema-to-typescript, prettier and `docComment` put into a comment line the same way: no
 * comment end, no line terminator but `\n`, no control character, no white space but the plain space and
 * tab, no surrogate and no byte order mark.
 */
export function isPlainCommentText(text: string): boolean {
  if (text.includes("*/")) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || c === 0x09 || (c >= 0x20 && c <= 0x7e)) continue;
    if (c < 0xa1 || (c >= 0xd800 && c <= 0xdfff) || c === 0xfeff) return false;
    if (/\s/.test(text[i] as string)) return false;
  }
  return true;
}

/** A JSDoc block as prettier writes it at `indent`: each line trimmed, an empty one as ` *`. */
export function formattedComment(text: string, indent: string): string[] {
  const lines = text.split("\n").map((line) => `${indent} ${`* ${line}`.trim()}`);
  return [`${indent}/**`, ...lines, `${indent} */`];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function onlyKeys(schema: Record<string, unknown>, allowed: readonly string[]): boolean {
  return Object.keys(schema).every((key) => IGNORED.has(key) || allowed.includes(key));
}

/** The one-line type of a scalar or an array of scalars, or `undefined`. */
function inlineType(schema: Record<string, unknown>): string | undefined {
  const type = schema.type;
  if (typeof type !== "string") return undefined;
  if (type === "array") {
    if (!onlyKeys(schema, ["type", "description", "items", "minItems", "maxItems"])) return undefined;
    const items = schema.items;
    if (!isObject(items) || "description" in items) return undefined;
    const item = inlineType(items);
    if (item === undefined || item.endsWith("[]")) return undefined;
    return item.includes(" | ") ? `(${item})[]` : `${item}[]`;
  }
  const scalar = SCALARS[type];
  if (scalar === undefined) return undefined;
  if (!onlyKeys(schema, ["type", "description", "enum"])) return undefined;
  if (!("enum" in schema)) return scalar;
  const values = schema.enum;
  if (type !== "string" || !Array.isArray(values) || values.length === 0) return undefined;
  if (new Set(values).size !== values.length) return undefined;
  if (!values.every((v) => typeof v === "string" && PLAIN_LITERAL.test(v))) return undefined;
  return values.map((v) => JSON.stringify(v)).join(" | ");
}

/** The comment json-schema-to-typescript writes above a property (its description, array size tags). */
function propertyComment(schema: Record<string, unknown>): string | undefined | false {
  const description = schema.description;
  if (description !== undefined && typeof description !== "string") return false;
  const tags: string[] = [];
  if (schema.type === "array") {
    for (const key of ["minItems", "maxItems"] as const) {
      if (!(key in schema)) continue;
      const value = schema[key];
      if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) return false;
      tags.push(`@${key} ${value}`);
    }
    // json-schema-to-typescript refuses the schema otherwise: its error is its to give.
    if (
      typeof schema.minItems === "number" &&
      typeof schema.maxItems === "number" &&
      schema.minItems > schema.maxItems
    ) {
      return false;
    }
  }
  const text = description
    ? tags.length > 0
      ? `${description}\n\n${tags.join("\n")}`
      : description
    : tags.join("\n");
  if (text === "") return undefined;
  return isPlainCommentText(text) ? text : false;
}

/** The member lines of an object schema at `indent`, or `undefined`. */
function objectMembers(schema: Record<string, unknown>, indent: string): string[] | undefined {
  if (schema.type !== "object") return undefined;
  if (!onlyKeys(schema, ["type", "description", "properties", "required", "additionalProperties"]))
    return undefined;
  const properties = schema.properties ?? {};
  if (!isObject(properties)) return undefined;
  const required = schema.required ?? [];
  if (
    !Array.isArray(required) ||
    !required.every((k) => typeof k === "string" && Object.hasOwn(properties, k))
  ) {
    return undefined;
  }
  const additional = schema.additionalProperties;
  if (additional !== undefined && typeof additional !== "boolean") return undefined;
  const lines: string[] = [];
  for (const [key, value] of Object.entries(properties)) {
    if (!BARE_KEY.test(key) || key in Object.prototype || !isObject(value)) return undefined;
    const comment = propertyComment(value);
    if (comment === false) return undefined;
    if (comment !== undefined) lines.push(...formattedComment(comment, indent));
    const head = `${indent}${key}${required.includes(key) ? "" : "?"}: `;
    const inline = inlineType(value);
    if (inline !== undefined) {
      const line = `${head}${inline};`;
      if (line.length > PRINT_WIDTH) return undefined;
      lines.push(line);
      continue;
    }
    const nested = objectMembers(value, `${indent}  `);
    if (nested === undefined) return undefined;
    if (nested.length === 0) lines.push(`${head}{};`);
    else lines.push(`${head}{`, ...nested, `${indent}};`);
  }
  if (additional !== false) lines.push(`${indent}[k: string]: unknown;`);
  return lines;
}

/**
 * The formatted `export interface NAME { … }` of a tool's typing schema (its own description already taken
 * off), or `undefined` when the schema is outside what this emitter writes.
 */
export function formattedInterface(name: string, schema: JsonSchema): string | undefined {
  if (!isObject(schema)) return undefined;
  const members = objectMembers(schema, "  ");
  if (members === undefined) return undefined;
  if (members.length === 0) return `export interface ${name} {}`;
  return [`export interface ${name} {`, ...members, "}"].join("\n");
}
