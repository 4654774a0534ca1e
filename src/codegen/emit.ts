/**
 * The one way toolgate writes generated code (codegen and compile), after ajv's `_` template: a tagged
 * template whose interpolations are escaped by kind. A plain string becomes a string literal, a number a
 * numeric literal, and only a `Code` value is inserted as it is. `Code` comes from this module alone:
 * `ident` (refuses anything that is not an identifier), `propertyKey`, `literal` (JSON data), `docComment`
 * (neutralises `*\/`) and `verbatim` (the output of another code generator: json-schema-to-typescript, ajv
 * standalone). So a tool name or description can never break out of a string, a comment or an identifier.
 */
import { ToolgateError } from "../runtime/errors.js";

/** A piece of generated code. Build it with `code` and the helpers of this module, never from raw text. */
export class Code {
  readonly #text: string;
  private constructor(text: string) {
    this.#text = text;
  }
  /** @internal Only this module creates Code from text. */
  static fromTrusted(text: string): Code {
    return new Code(text);
  }
  toString(): string {
    return this.#text;
  }
}

/** What may be interpolated into `code`. */
export type Interpolation = Code | string | number | boolean | null | readonly Code[];

/** Thrown when generated code would not be what it says (an identifier that is not one, a non-finite number). */
export class EmitError extends ToolgateError {
  constructor(message: string) {
    super("emit", message);
  }
}

const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally " +
    "for function if import in instanceof new null return super switch this throw true try typeof var void " +
    "while with yield let static implements interface package private protected public await arguments eval " +
    "undefined NaN Infinity"
  ).split(" "),
);

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** True when `name` can be written as a JavaScript/TypeScript identifier (ASCII, not a reserved word). */
export function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name) && !RESERVED.has(name);
}

/**
 * An identifier.
 * @throws EmitError when `name` is not a valid, non-reserved ASCII identifier.
 */
export function ident(name: string): Code {
  if (typeof name !== "string" || !isIdentifier(name)) {
    throw new EmitError(`${JSON.stringify(name)} is not a valid identifier; refusing to emit it as one`);
  }
  return Code.fromTrusted(name);
}

/**
 * JSON text made safe to embed in JavaScript source: U+2028 and U+2029 escaped (line terminators in
 * older parsers), and `require(` broken up (as `require\u0028`, the same string) so that no text of a
 * generated module looks like a CommonJS call, whatever a description says.
 */
function safeJson(json: string): string {
  return json
    .replaceAll("\u2028", "\\u2028")
    .replaceAll("\u2029", "\\u2029")
    .replaceAll("require(", "require\\u0028");
}

/** A string literal with JSON escaping. */
export function stringLiteral(value: string): Code {
  if (typeof value !== "string") throw new EmitError(`expected a string, got ${typeof value}`);
  return Code.fromTrusted(safeJson(JSON.stringify(value)));
}

/**
 * A JSON value as a JavaScript literal (objects, arrays, strings, finite numbers, booleans, null).
 * @throws EmitError for anything JSON cannot represent exactly (undefined, functions, non-finite numbers).
 */
export function literal(value: unknown): Code {
  assertJson(value, "value");
  return Code.fromTrusted(safeJson(JSON.stringify(value)));
}

function assertJson(value: unknown, at: string): void {
  if (value === null || typeof value === "string" || typeof value === "boolean") return;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new EmitError(`${at} is ${value}, which JSON cannot represent`);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      assertJson(item, `${at}[${index}]`);
    });
    return;
  }
  if (typeof value === "object") {
    for (const [key, item] of Object.entries(value)) assertJson(item, `${at}.${key}`);
    return;
  }
  throw new EmitError(`${at} is a ${typeof value}, which JSON cannot represent`);
}

/**
 * A JSON value as `JSON.parse("…")`: for large data, V8 parses a JSON string faster than the same object
 * literal, which matters for a compiled controller's start-up.
 * @throws EmitError for anything JSON cannot represent exactly.
 */
export function parsedJson(value: unknown): Code {
  assertJson(value, "value");
  return code`JSON.parse(${stringLiteral(JSON.stringify(value))})`;
}

/** An object property key: bare when it is an identifier name, a string literal otherwise. */
export function propertyKey(name: string): Code {
  return IDENTIFIER.test(name) ? Code.fromTrusted(name) : stringLiteral(name);
}

/**
 * A JSDoc block. Every star-slash in the text gets a backslash between star and slash, so that it
 * cannot end the comment, and every line terminator (including U+2028 and U+2029) starts a new ` * ` line.
 */
export function docComment(...paragraphs: readonly string[]): Code {
  const text = paragraphs.filter((p) => p.trim() !== "").join("\n\n");
  if (text === "") return Code.fromTrusted("");
  const lines = text
    .replaceAll("*/", "*\\/")
    .split(/\r\n|[\n\r\u2028\u2029]/)
    .map((line) => (line === "" ? " *" : ` * ${line.trimEnd()}`));
  return Code.fromTrusted(`/**\n${lines.join("\n")}\n */\n`);
}

/**
 * Code written by another code generator that does its own escaping (json-schema-to-typescript, ajv
 * standalone, or the formatted emitter of plain argument interfaces, whose keys and literals are checked there).
 * The caller names the generator, so that every use is easy to find and review.
 */
export function verbatim(
  generator: "json-schema-to-typescript" | "ajv-standalone" | "formatted-types",
  text: string,
): Code {
  if (
    generator !== "json-schema-to-typescript" &&
    generator !== "ajv-standalone" &&
    generator !== "formatted-types"
  ) {
    throw new EmitError(`unknown code generator ${String(generator)}`);
  }
  return Code.fromTrusted(text);
}

/** Joins pieces of code with a separator. */
export function joinCode(pieces: readonly Code[], separator: string): Code {
  if (!/^[\s,;|&]*$/.test(separator))
    throw new EmitError(`separator ${JSON.stringify(separator)} is not punctuation`);
  return Code.fromTrusted(pieces.map(String).join(separator));
}

function interpolate(value: Interpolation): string {
  if (value instanceof Code) return value.toString();
  if (Array.isArray(value)) return value.map(interpolate).join("");
  if (typeof value === "string") return stringLiteral(value).toString();
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new EmitError(`cannot emit the number ${value}`);
    return String(value);
  }
  if (typeof value === "boolean" || value === null) return String(value);
  throw new EmitError(`cannot interpolate a ${typeof value} into generated code`);
}

/**
 * The tagged template: `code\`export const fingerprint = ${bundle.fingerprint};\`` emits a string literal.
 */
export function code(strings: TemplateStringsArray, ...values: readonly Interpolation[]): Code {
  let text = strings[0] ?? "";
  values.forEach((value, index) => {
    text += interpolate(value) + (strings[index + 1] ?? "");
  });
  return Code.fromTrusted(text);
}
