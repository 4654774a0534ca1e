/**
 * Safe YAML parsing with positions. Refuses what a policy file never needs and an attacker might use:
 * duplicate keys, anchors and aliases (no billion laughs), unknown tags, non-string keys, files over 1 MiB,
 * bytes that are not UTF-8. Every parser warning is an error. The result is plain data plus a map from
 * JSON Pointer to source position, so later stages can point at the offending node.
 */
import type { LineCounter, parseDocument, Range, Node as YamlNode } from "yaml";
import type { Diagnostic as AnyDiagnostic } from "../diagnostics/diagnostic.js";
import type { Diagnostic, DiagnosticCode, StageResult } from "./diagnostic-codes.js";
import {
  childPointer,
  linePosition,
  type NodePosition,
  type ParsedFile,
  positionOf,
  type Span,
  ZERO_SPAN,
} from "./parsed-file.js";
import { MAX_PLAIN_KEY, plainBlockYaml } from "./plain-block-yaml.js";
import { isAlias, isMap, isPair, isScalar, isSeq, yamlLibrary } from "./yaml-library.js";
import { yamlProblemMessage } from "./yaml-messages.js";

export {
  childPointer,
  type NodePosition,
  type ParsedFile,
  pointerSegment,
  positionOf,
  type Span,
} from "./parsed-file.js";

/** Files larger than this are refused before parsing. */
export const MAX_FILE_BYTES = 1024 * 1024;

/** A diagnostic at the node at `pointer` of a parsed file (with the configuration's codes, or another table's). */
export function diagnosticAt<Code extends string = DiagnosticCode>(
  parsed: ParsedFile,
  pointer: string,
  code: Code,
  message: string,
  options: { severity?: "error" | "warning"; prefer?: "key" | "value" } = {},
): AnyDiagnostic<Code> {
  const span = positionOf(parsed, pointer, options.prefer ?? "value");
  return {
    code,
    severity: options.severity ?? "error",
    message,
    file: parsed.file,
    line: span.line,
    column: span.column,
    endLine: span.endLine,
    endColumn: span.endColumn,
    ...(pointer === "" ? {} : { path: pointer }),
  };
}

/** A diagnostic about a whole file (line 1, column 1). */
export function fileDiagnostic(file: string, code: DiagnosticCode, message: string): Diagnostic {
  return { code, severity: "error", message, file, line: 1, column: 1 };
}

const YAML_CODES: Readonly<Record<string, DiagnosticCode>> = {
  DUPLICATE_KEY: "duplicate-key",
};

/** Parser errors that one line indented wrongly causes (and that it causes again on later lines). */
const INDENT_ERRORS = new Set([
  "BAD_INDENT",
  "MISSING_CHAR",
  "BLOCK_AS_IMPLICIT_KEY",
  "MULTILINE_IMPLICIT_KEY",
]);

/** The indentation of a line (spaces), or undefined for a blank or comment-only line. */
function indentOf(line: string): number | undefined {
  const trimmed = line.trimStart();
  if (trimmed === "" || trimmed.startsWith("#")) return undefined;
  return line.length - trimmed.length;
}

/**
 * When the first parser error comes from a line indented wrongly, one message at that line's first
 * character saying how it is indented and how the line above is; `undefined` for any other error.
 */
function indentationProblem(
  text: string,
  error: { code: string; message: string; pos: readonly [number, number] } | undefined,
): { message: string; at: Span } | undefined {
  if (error === undefined || !INDENT_ERRORS.has(error.code)) return undefined;
  if (error.code === "MISSING_CHAR" && !/without - indicator/.test(error.message)) return undefined;
  if (error.code === "BAD_INDENT" && /^Flow /.test(error.message)) return undefined;
  const lines = text.split(/\r?\n/);
  let index = text.slice(0, error.pos[0]).split("\n").length - 1;
  // A key that runs onto the next line is reported at the key: the line that broke it is the next one.
  if (error.code === "BLOCK_AS_IMPLICIT_KEY" || error.code === "MULTILINE_IMPLICIT_KEY") index++;
  while (index < lines.length && indentOf(lines[index] ?? "") === undefined) index++;
  const line = lines[index];
  const indent = line === undefined ? undefined : indentOf(line);
  if (line === undefined || indent === undefined) return undefined;
  let above: number | undefined;
  for (let i = index - 1; i >= 0 && above === undefined; i--) above = indentOf(lines[i] ?? "");
  if (/^\t/.test(line.slice(indent))) return undefined;
  const what = /^(- )?([^:#]+?):(\s|$)/.exec(line.slice(indent));
  const name = what?.[2] === undefined ? "this line" : `"${what[2].trim()}"`;
  const spaces = (n: number) => `${n} space${n === 1 ? "" : "s"}`;
  const message =
    above === undefined
      ? `${name} is indented ${spaces(indent)}; the first key of a file starts at column 1`
      : `${name} is indented ${spaces(indent)} and the line above ${spaces(above)}: keys of one mapping start at the same column, and a nested value goes deeper than its key; line it up with the key it belongs to`;
  const column = indent + 1;
  return { message, at: { line: index + 1, column, endLine: index + 1, endColumn: line.length + 1 } };
}

/** "duplicate key" naming the key and where it was first set. */
function duplicateKeyMessage(
  doc: ReturnType<typeof parseDocument>,
  offset: number,
  lines: LineCounter,
): string {
  let message = "duplicate key: a key may appear once in a mapping; remove or rename one";
  yamlLibrary().visit(doc, {
    Map(_key, map) {
      const duplicate = map.items.find((pair) => isScalar(pair.key) && pair.key.range?.[0] === offset);
      if (duplicate === undefined || !isScalar(duplicate.key)) return undefined;
      const key = duplicate.key.value;
      const first = map.items.find((pair) => isScalar(pair.key) && pair.key.value === key);
      const at = (first?.key as YamlNode | undefined)?.range?.[0];
      if (at !== undefined) {
        const pos = lines.linePos(at);
        message = `duplicate key ${JSON.stringify(key)}: it is already set at line ${pos.line}, column ${pos.col}; a key may appear once in a mapping, so remove or merge one`;
      }
      return yamlLibrary().visit.BREAK;
    },
  });
  return message;
}

/** Sets a property without ever invoking the `__proto__` setter. */
function defineData(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Parses YAML bytes into plain data with positions.
 * @param bytes the file's contents.
 * @param file the path shown in diagnostics (relative to the working directory).
 */
export function parseYaml(bytes: Uint8Array, file: string): StageResult<ParsedFile> {
  if (bytes.byteLength > MAX_FILE_BYTES) {
    return {
      ok: false,
      diagnostics: [
        fileDiagnostic(
          file,
          "file-too-large",
          `file is ${bytes.byteLength} bytes; policy files may be at most ${MAX_FILE_BYTES} bytes (1 MiB): split it`,
        ),
      ],
    };
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    const offset = firstInvalidUtf8(bytes);
    const before = new TextDecoder("utf-8").decode(bytes.subarray(0, offset));
    const lines = before.split("\n");
    return {
      ok: false,
      diagnostics: [
        {
          code: "invalid-encoding",
          severity: "error",
          message: `byte ${offset} is not valid UTF-8; save the file as UTF-8`,
          file,
          line: lines.length,
          column: (lines[lines.length - 1]?.length ?? 0) + 1,
        },
      ],
    };
  }
  const json = plainJson(text);
  if (json !== undefined) {
    return { ok: true, value: { file, data: json.data, positions: json.positions }, diagnostics: [] };
  }
  // Block YAML of the common kind is read in one pass, with exactly the data and positions of the YAML parse.
  const block = plainBlockYaml(text);
  if (block !== undefined) {
    return { ok: true, value: { file, data: block.data, positions: block.positions }, diagnostics: [] };
  }
  // A text the YAML parse read cleanly a moment ago gives the same data again (`diff` loads two versions of a
  // configuration, most of whose files are alike): a copy of it, so that no reader shares another's objects.
  const known = RECENT_PARSES.get(text);
  if (known !== undefined) {
    return {
      ok: true,
      value: { file, data: structuredClone(known.data), positions: known.positions },
      diagnostics: [],
    };
  }
  const parsed = parseYamlText(text, file);
  if (parsed.ok && parsed.diagnostics.length === 0) {
    if (RECENT_PARSES.size >= RECENT_PARSES_KEPT)
      RECENT_PARSES.delete(RECENT_PARSES.keys().next().value as string);
    RECENT_PARSES.set(text, { data: structuredClone(parsed.value.data), positions: parsed.value.positions });
  }
  return parsed;
}

/** The texts the YAML parse read last without a diagnostic, and their data and positions (oldest first). */
const RECENT_PARSES = new Map<
  string,
  { readonly data: unknown; readonly positions: ReadonlyMap<string, NodePosition> }
>();
/** How many texts {@link RECENT_PARSES} keeps. */
const RECENT_PARSES_KEPT = 8;

/**
 * A file that is plain JSON, read as the YAML parse (JSON is YAML 1.2) would read it without a diagnostic:
 * the data from JSON.parse, and the position of every node where the YAML parse puts it. Only an object or
 * array at the top, printable characters (no tab, no C0 or C1 control, no lone CR, no line or paragraph
 * separator, no surrogate, no byte order mark inside), no key longer than the YAML limit, no number of more
 * than 15 digits in a row or beyond the double range, and no duplicate key (JSON.parse keeps the last one
 * silently; the YAML parse refuses it). `undefined` for anything else, which the YAML parse then reads and
 * reports on as always.
 */
export function plainJson(
  text: string,
): { readonly data: unknown; readonly positions: ReadonlyMap<string, NodePosition> } | undefined {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x20 && c <= 0x7e) continue;
    if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) === 0x0a)) continue;
    if (
      c < 0xa0 ||
      c === 0x2028 ||
      c === 0x2029 ||
      c === 0xfeff ||
      (c >= 0xd800 && c <= 0xdfff) ||
      c >= 0xfffe
    ) {
      return undefined;
    }
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (data === null || typeof data !== "object") return undefined;
  const positions = new JsonPositions(text).read();
  return positions === undefined ? undefined : { data, positions };
}

/**
 * The positions of a text JSON.parse accepted, with the ranges the YAML parse gives its nodes (a collection from
 * its bracket to after its closing one, a scalar over its characters) and lines and columns counted as its
 * LineCounter counts them; `undefined` at a duplicate key, a long key, a long run of digits or a number beyond
 * the double range.
 */
class JsonPositions {
  readonly #text: string;
  readonly #lineStarts: number[] = [0];
  readonly #positions = new Map<string, NodePosition>();
  #at = 0;

  constructor(text: string) {
    this.#text = text;
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) this.#lineStarts.push(i + 1);
  }

  read(): ReadonlyMap<string, NodePosition> | undefined {
    return this.#value("", undefined) ? this.#positions : undefined;
  }

  #linePos(offset: number): { line: number; col: number } {
    return linePosition(this.#lineStarts, offset);
  }

  #span(from: number, to: number): Span {
    const start = this.#linePos(from);
    const end = this.#linePos(Math.max(from, to));
    return { line: start.line, column: start.col, endLine: end.line, endColumn: end.col };
  }

  #space(): void {
    const text = this.#text;
    for (;;) {
      const c = text.charCodeAt(this.#at);
      if (c === 0x20 || c === 0x0a || c === 0x0d) this.#at++;
      else return;
    }
  }

  /** Reads the string at the cursor; its text. */
  #string(): string {
    const text = this.#text;
    const open = this.#at;
    let escaped = false;
    let i = open + 1;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x5c) {
        escaped = true;
        i += 2;
      } else if (c === 0x22) break;
      else i++;
    }
    this.#at = i + 1;
    return escaped ? (JSON.parse(text.slice(open, i + 1)) as string) : text.slice(open + 1, i);
  }

  /** Reads the value at the cursor and records its position (and its children's); false to give up. */
  #value(pointer: string, key: Span | undefined): boolean {
    const text = this.#text;
    this.#space();
    const from = this.#at;
    const c = text.charCodeAt(from);
    const record = (to: number) =>
      this.#positions.set(
        pointer,
        key === undefined ? { value: this.#span(from, to) } : { value: this.#span(from, to), key },
      );
    if (c === 0x7b || c === 0x5b) {
      // The collection first, then its children, as the YAML parse records them.
      record(from);
      this.#at++;
      this.#space();
      const close = c === 0x7b ? 0x7d : 0x5d;
      const keys = new Set<string>();
      let index = 0;
      while (text.charCodeAt(this.#at) !== close) {
        if (c === 0x7b) {
          this.#space();
          const keyFrom = this.#at;
          const name = this.#string();
          if (keys.has(name) || this.#at - keyFrom - 2 > MAX_PLAIN_KEY) return false;
          keys.add(name);
          const keySpan = this.#span(keyFrom, this.#at);
          this.#space();
          this.#at++; // :
          if (!this.#value(childPointer(pointer, name), keySpan)) return false;
        } else if (!this.#value(childPointer(pointer, index++), undefined)) return false;
        this.#space();
        if (text.charCodeAt(this.#at) === 0x2c) this.#at++;
        this.#space();
      }
      this.#at++;
      record(this.#at);
      return true;
    }
    if (c === 0x22) {
      this.#string();
      record(this.#at);
      return true;
    }
    // A number, true, false or null.
    let to = from;
    while (to < text.length && /[-+.0-9a-zA-Z]/.test(text[to] as string)) to++;
    this.#at = to;
    const word = text.slice(from, to);
    if (
      /[0-9]{16}/.test(word) ||
      !Number.isFinite(Number(word === "true" || word === "false" || word === "null" ? 0 : word))
    ) {
      return false;
    }
    record(to);
    return true;
  }
}

/** `parseYaml` after the size and encoding checks: the YAML parse, with positions (never the JSON short cut). */
export function parseYamlText(text: string, file: string): StageResult<ParsedFile> {
  const lineCounter = new (yamlLibrary().LineCounter)();
  const doc = yamlLibrary().parseDocument(text, {
    lineCounter,
    uniqueKeys: true,
    merge: false,
    strict: true,
    prettyErrors: false,
    version: "1.2",
    schema: "core",
    customTags: [],
  });
  const diagnostics: Diagnostic[] = [];
  const span = (range: Range | readonly [number, number] | undefined | null): Span => {
    if (range == null) return ZERO_SPAN;
    const start = lineCounter.linePos(range[0]);
    const end = lineCounter.linePos(Math.max(range[0], range[1]));
    return { line: start.line, column: start.col, endLine: end.line, endColumn: end.col };
  };
  const push = (code: DiagnosticCode, message: string, where: Span) =>
    diagnostics.push({ code, severity: "error", message, file, ...where });

  const problems = [...doc.errors, ...doc.warnings].sort((a, b) => a.pos[0] - b.pos[0]);
  const indentation = indentationProblem(text, problems[0]);
  if (indentation !== undefined) {
    // One indentation mistake makes the parser report every line after it: report the mistake once.
    return {
      ok: false,
      diagnostics: [
        { code: "yaml-syntax", severity: "error", message: indentation.message, file, ...indentation.at },
      ],
    };
  }
  // A syntax error leaves the parser guessing, so what it reports after the first one is mostly the same
  // mistake again: report the first, and every duplicate key (each one its own mistake).
  const firstSyntax = problems.find((error) => YAML_CODES[error.code] === undefined);
  for (const error of problems) {
    const code = YAML_CODES[error.code] ?? "yaml-syntax";
    if (code === "yaml-syntax" && error !== firstSyntax) continue;
    const message =
      code === "duplicate-key"
        ? duplicateKeyMessage(doc, error.pos[0], lineCounter)
        : yamlProblemMessage(error);
    push(code, message, span(unclosedFlowStart(doc, error) ?? error.pos));
  }
  if (diagnostics.length > 0) return { ok: false, diagnostics };

  // Refuse anchors and aliases before anything expands them (billion laughs), and tags beyond the core ones.
  // An anchor is written with `&` and an alias with `*`: a text with neither has none, and is not walked.
  if (text.includes("&") || text.includes("*")) {
    yamlLibrary().visit(doc, (_key, node) => {
      if (isAlias(node)) {
        push(
          "yaml-alias",
          `aliases (*${node.source}) are not allowed in policy files; write the value out`,
          span(node.range),
        );
      } else if ((isScalar(node) || isMap(node) || isSeq(node)) && node.anchor) {
        // The node's range starts after its properties: point at the `&name` itself, just before it.
        const start = node.range?.[0] ?? 0;
        const at = text.lastIndexOf(`&${node.anchor}`, start);
        push(
          "yaml-alias",
          `anchors (&${node.anchor}) are not allowed in policy files; write each value out`,
          span(at >= 0 ? [at, at + node.anchor.length + 1] : node.range),
        );
      }
    });
  }
  if (diagnostics.length > 0) return { ok: false, diagnostics };

  const positions = new Map<string, NodePosition>();
  const convert = (node: unknown, pointer: string, keySpan?: Span): unknown => {
    const value = span((node as YamlNode | null)?.range);
    positions.set(pointer, keySpan === undefined ? { value } : { value, key: keySpan });
    if (isMap(node)) {
      const out: Record<string, unknown> = {};
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const keyNode = pair.key;
        const keyPos = span((keyNode as YamlNode | null)?.range);
        if (!isScalar(keyNode) || typeof keyNode.value !== "string") {
          const shown = isScalar(keyNode) ? JSON.stringify(keyNode.value) : "a collection";
          push("config-schema", `keys must be strings, found ${shown}; quote the key`, keyPos);
          continue;
        }
        const key = keyNode.value;
        const valuePointer = childPointer(pointer, key);
        const valueNode = pair.value;
        if (valueNode === null || valueNode === undefined) {
          positions.set(valuePointer, { value: keyPos, key: keyPos });
          defineData(out, key, null);
        } else {
          defineData(out, key, convert(valueNode, valuePointer, keyPos));
        }
      }
      return out;
    }
    if (isSeq(node)) return node.items.map((item, index) => convert(item, childPointer(pointer, index)));
    if (isScalar(node)) {
      const v = node.value;
      if (typeof v === "number" && !Number.isFinite(v)) {
        push("config-schema", `${String(v)} is not a JSON number; use a finite number`, value);
        return null;
      }
      return v;
    }
    return null;
  };
  const data = doc.contents === null ? null : convert(doc.contents, "");
  if (doc.contents === null) positions.set("", { value: ZERO_SPAN });
  if (diagnostics.length > 0) return { ok: false, diagnostics };
  return { ok: true, value: { file, data, positions }, diagnostics };
}

/**
 * For "flow sequence … must end with a ]" (an unclosed `[` or `{`), the parser reports where it gave up —
 * often the end of the file. The user needs the bracket that was never closed: the innermost flow
 * collection that ends where the error is.
 */
function unclosedFlowStart(
  doc: ReturnType<typeof parseDocument>,
  error: { code: string; message: string; pos: readonly [number, number] },
): readonly [number, number] | undefined {
  if (
    error.code !== "BAD_INDENT" ||
    !/^Flow (sequence|mapping|map|collection)\b.*end with/.test(error.message)
  )
    return undefined;
  let found: readonly [number, number] | undefined;
  yamlLibrary().visit(doc, (_key, node) => {
    if ((isSeq(node) || isMap(node)) && node.flow && node.range && node.range[1] === error.pos[0]) {
      found = [node.range[0], node.range[0] + 1];
    }
  });
  return found;
}

/** Offset of the first byte that breaks UTF-8. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    const need =
      b < 0x80 ? 0 : b >= 0xc2 && b < 0xe0 ? 1 : b >= 0xe0 && b < 0xf0 ? 2 : b >= 0xf0 && b < 0xf5 ? 3 : -1;
    if (need < 0) return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
    }
    i += need + 1;
  }
  return i;
}
