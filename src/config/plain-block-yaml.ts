/**
 * A short cut for the block YAML people write in policy and tool files: mappings and sequences nested by
 * indentation, one-line scalars, one-line flow collections, comments and blank lines. It reads such
 * a text in one pass and gives exactly what the YAML parse (`parseYamlText`) gives for it — the same data, key
 * order and `null`s, and the same position for every node — or `undefined` for anything it does not take, which
 * the YAML parse then reads and reports on as always.
 *
 * The positions are the ones the YAML parse takes from its nodes' ranges. A scalar's range covers its characters.
 * A block collection's range runs from its first key or `-` to the end of its last item's node, and that end is
 * where the parser stopped attaching tokens to the node: after the line of a one-line value, after comment lines
 * indented deeper than the collection holding the value (the parser gives them to the value), and, for a value
 * left empty (a sequence item also with the comment lines before its `-`) or a collection that keeps the comments
 * after its last item, up to the next content token.
 */
import { childPointer, linePosition, type NodePosition, type Span } from "./parsed-file.js";

/** The longest key the YAML parser takes as an implicit key (YAML allows 1024 characters). */
export const MAX_PLAIN_KEY = 1000;

/** What the short cut gives: the data and the position of every node, as `parseYamlText` gives them. */
export interface PlainBlockYaml {
  readonly data: unknown;
  readonly positions: ReadonlyMap<string, NodePosition>;
}

/**
 * The deepest nesting taken (block and flow collections together); deeper texts are left to the YAML parse, so
 * the reader's recursion never runs out of stack.
 */
const MAX_DEPTH = 100;

/**
 * Thrown inside the reader to give up; caught where the reader starts, so it never leaves this module. A signal,
 * not an error (it has no stack to build): toolgate's errors are all of the ToolgateError family.
 */
const GIVE_UP: unique symbol = Symbol("not plain block YAML");

function giveUp(): never {
  throw GIVE_UP;
}

/**
 * A character the short cut does not take: anything but a line end (`\n` or `\r\n`), printable ASCII and the
 * printable rest of the basic plane — so no tab, lone CR, C0 or C1 control, line or paragraph separator,
 * surrogate, byte order mark or noncharacter U+FFFE/U+FFFF.
 */
const NOT_PRINTABLE = /[^\n\r\x20-\x7e\u00a0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]|\r(?!\n)/;

/** Line kinds. */
const BLANK = 0;
const COMMENT = 1;
const CONTENT = 2;

/** The placeholder a collection's position holds while its items are read (it is set first, as the parse does). */
const PENDING: NodePosition = { value: { line: 0, column: 0, endLine: 0, endColumn: 0 } };

/** Escapes of double-quoted scalars that stand for one fixed character. */
const ESCAPES: Readonly<Record<string, string>> = {
  "0": "\0",
  a: "\x07",
  b: "\b",
  e: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  N: "\u0085",
  _: "\u00a0",
  L: "\u2028",
  P: "\u2029",
  " ": " ",
  '"': '"',
  "/": "/",
  "\\": "\\",
};

const HEX = /^[0-9a-fA-F]+$/;

/** Characters a plain scalar may not start with (flow and node indicators, reserved characters). */
const NOT_PLAIN_START = new Set("#[]{}*&!|>'\"%@`,");
/** Characters that end a plain scalar inside a flow collection. */
const FLOW_INDICATORS = new Set(",[]{}");

/** Plain scalars that may resolve to something other than a string: empty, or starting with one of these. */
const MAY_RESOLVE = /^(?:$|[-+.~0-9nNtTfF])/;

/** What `resolvePlain` gives for a scalar the YAML parse refuses (infinity, NaN). */
const NOT_FINITE = Symbol("not finite");

/**
 * A plain scalar resolved as the YAML 1.2 core schema resolves it, tag by tag in the schema's order (null, bool,
 * octal, decimal and hexadecimal integers, then the three float tags); NOT_FINITE for a number the YAML parse
 * refuses (`.inf`, `.nan`, or an integer or float beyond the double range).
 */
function resolvePlain(source: string): unknown {
  // Most scalars are words: only these first characters can start a null, a boolean or a number.
  if (!MAY_RESOLVE.test(source)) return source;
  if (/^(?:~|[Nn]ull|NULL)?$/.test(source)) return null;
  if (/^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(source)) return source[0] === "t" || source[0] === "T";
  let value: number | undefined;
  if (/^0o[0-7]+$/.test(source)) value = Number.parseInt(source.substring(2), 8);
  else if (/^[-+]?[0-9]+$/.test(source)) value = Number.parseInt(source, 10);
  else if (/^0x[0-9a-fA-F]+$/.test(source)) value = Number.parseInt(source.substring(2), 16);
  else if (/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/.test(source)) return NOT_FINITE;
  else if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/.test(source))
    value = Number.parseFloat(source);
  else if (/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/.test(source)) value = Number.parseFloat(source);
  else return source;
  return Number.isFinite(value) ? value : NOT_FINITE;
}

/** Sets a property without ever invoking the `__proto__` setter. */
function defineData(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * A file of plain block YAML, read as the YAML parse reads it without a diagnostic: the data, and the position of
 * every node where the YAML parse puts it. It takes a block mapping or sequence at the top (column 1), nested
 * block mappings and sequences (`- key: value` too), keys that are plain or quoted one-line strings, values that
 * are plain scalars (resolved by the core schema), single- or double-quoted one-line strings, empty (null), or
 * one-line flow sequences and mappings of such scalars and collections; full-line and trailing comments; blank
 * lines. Only `\n` or `\r\n` line ends and printable characters (no tab, no lone CR, no C0 or C1 control, no line
 * or paragraph separator, no surrogate, no byte order mark). `undefined` for anything else — anchors, aliases, tags, directives, document
 * markers, block scalars, multi-line scalars, explicit keys, duplicate keys, keys that are not strings or are
 * longer than the YAML limit, numbers that are not finite, and any indentation the YAML parse would complain
 * about — which the YAML parse then reads and reports on as always.
 */
export function plainBlockYaml(text: string): PlainBlockYaml | undefined {
  if (NOT_PRINTABLE.test(text)) return undefined;
  try {
    return new BlockReader(text).read();
  } catch (error) {
    if (error === GIVE_UP) return undefined;
    throw error;
  }
}

/** What reading a node gives: its data and the end of its range as its parent sees it (`range[2]`). */
interface Read {
  readonly value: unknown;
  readonly end: number;
}

class BlockReader {
  readonly #text: string;
  /** Offset of each line's first character; a text ending in `\n` has a last, empty line. */
  readonly #starts: number[] = [];
  /** Offset of each line's end (its `\n` or `\r\n`, or the end of the text). */
  readonly #ends: number[] = [];
  /** Spaces before each line's first other character. */
  readonly #indents: number[] = [];
  readonly #kinds: number[] = [];
  readonly #positions = new Map<string, NodePosition>();
  /** The next content line once a collection has read its items (`#kinds.length` at the end). */
  #line = 0;
  /**
   * After a one-line value: the deepest indentation among the comment lines after it that the parser does not
   * give to the value (they wait, with the blank lines, for the next item or for a collection to keep them);
   * -1 for none.
   */
  #waiting = -1;
  /** How many collections enclose the node being read. */
  #depth = 0;

  constructor(text: string) {
    this.#text = text;
    let start = 0;
    for (;;) {
      const newline = text.indexOf("\n", start);
      // A line ends before its `\r\n` (the YAML lexer reads the pair as one line end).
      const end = newline < 0 ? text.length : text.charCodeAt(newline - 1) === 0x0d ? newline - 1 : newline;
      let first = start;
      while (text.charCodeAt(first) === 0x20) first++;
      this.#starts.push(start);
      this.#ends.push(end);
      this.#indents.push(first - start);
      const c = first < end ? text.charCodeAt(first) : -1;
      this.#kinds.push(c === -1 ? BLANK : c === 0x23 ? COMMENT : CONTENT);
      if (first === start && first + 3 <= end) {
        // `---` and `...` at the start of a line are document markers when a space or the line end follows.
        const marker = text.slice(first, first + 3);
        if ((marker === "---" || marker === "...") && (first + 3 === end || text[first + 3] === " "))
          giveUp();
      }
      if (newline < 0) break;
      start = newline + 1;
    }
  }

  read(): PlainBlockYaml | undefined {
    const first = this.#nextContent(0);
    if (first === this.#kinds.length || this.#indent(first) !== 0) return undefined;
    const { value } = this.#collection(first, this.#start(first), "", undefined);
    if (this.#line !== this.#kinds.length) return undefined;
    return { data: value, positions: this.#positions };
  }

  #start(line: number): number {
    return this.#starts[line] as number;
  }

  #end(line: number): number {
    return this.#ends[line] as number;
  }

  #indent(line: number): number {
    return this.#indents[line] as number;
  }

  /** Offset just after a line's `\n` (the end of the text for the last line). */
  #after(line: number): number {
    return line + 1 < this.#kinds.length ? this.#start(line + 1) : this.#text.length;
  }

  /** The first content line at or after `line`. */
  #nextContent(line: number): number {
    const kinds = this.#kinds;
    let l = line;
    while (l < kinds.length && kinds[l] !== CONTENT) l++;
    return l;
  }

  /** Offset of the first token of a content line, or the end of the text past the last line. */
  #token(line: number): number {
    return line < this.#kinds.length ? this.#start(line) + this.#indent(line) : this.#text.length;
  }

  #linePos(offset: number): { line: number; col: number } {
    return linePosition(this.#starts, offset);
  }

  #span(from: number, to: number): Span {
    const start = this.#linePos(from);
    const end = this.#linePos(to);
    return { line: start.line, column: start.col, endLine: end.line, endColumn: end.col };
  }

  /** The span of `from` to `to`, both on `line` (the common case, without a search for the line). */
  #spanOn(line: number, from: number, to: number): Span {
    const start = this.#start(line) - 1;
    return { line: line + 1, column: from - start, endLine: line + 1, endColumn: to - start };
  }

  #record(pointer: string, value: Span, key: Span | undefined): void {
    this.#positions.set(pointer, key === undefined ? { value } : { value, key });
  }

  /** Whether a `-` at `at` is a sequence entry indicator (a space or the line end follows). */
  #isDash(at: number, lineEnd: number): boolean {
    const text = this.#text;
    return text.charCodeAt(at) === 0x2d && (at + 1 === lineEnd || text.charCodeAt(at + 1) === 0x20);
  }

  /** Whether a comment line lies between two lines (exclusive of both). */
  #commentBetween(from: number, to: number): boolean {
    for (let l = from + 1; l < to; l++) if (this.#kinds[l] === COMMENT) return true;
    return false;
  }

  /** The block mapping or sequence whose first key or `-` is at `at` on `line`. */
  #collection(line: number, at: number, pointer: string, key: Span | undefined): Read {
    if (++this.#depth > MAX_DEPTH) giveUp();
    const read = this.#isDash(at, this.#end(line))
      ? this.#sequence(line, at, pointer, key)
      : this.#mapping(line, at, pointer, key);
    this.#depth--;
    return read;
  }

  /**
   * Where a collection's range ends for its parent: at its last item's end, or, when comment lines after that
   * item wait and one is indented at least as deep as the collection (not at the top), at the next content token
   * (the parser keeps them in the collection, as a last item of comments).
   */
  #close(indent: number, lastEnd: number): number {
    if (this.#waiting >= 0 && indent > 0 && this.#waiting >= indent) {
      this.#waiting = -1;
      return this.#token(this.#line);
    }
    return lastEnd;
  }

  /**
   * A value left empty whose `:` or `-` ends at `at` on `line`: null, where the parse puts its empty scalar.
   * `commentBefore`: comment lines before the `-` of a sequence item belong to the item (the parser puts them with
   * its `-`).
   */
  #empty(
    line: number,
    at: number,
    next: number,
    pointer: string,
    key: Span | undefined,
    commentBefore: boolean,
  ): Read {
    this.#record(pointer, this.#spanOn(line, at, at), key);
    this.#waiting = -1;
    // The parser gives the empty scalar every token up to the next item; a comment among them stretches its range.
    const comment = commentBefore || at < this.#end(line) || this.#commentBetween(line, next);
    return { value: null, end: comment ? this.#token(next) : at };
  }

  /**
   * The block mapping whose first key is at `at` on `line` (its column is the mapping's indentation): each entry
   * a key and a one-line value, an empty one, or a collection on the lines below (deeper, or a sequence at the
   * key's column). Stops at the first content line indented less; gives up at one indented more.
   */
  #mapping(line: number, at: number, pointer: string, key: Span | undefined): Read {
    const text = this.#text;
    const indent = at - this.#start(line);
    this.#positions.set(pointer, PENDING);
    const out: Record<string, unknown> = {};
    let l = line;
    let from = at;
    let lastEnd: number;
    for (;;) {
      const lineEnd = this.#end(l);
      const found = this.#key(from, lineEnd);
      if (found === undefined) giveUp();
      const { name, colon } = found;
      // A duplicate key: the YAML parse reports it.
      if (Object.hasOwn(out, name)) giveUp();
      const keySpan = this.#spanOn(l, from, colon);
      const child = childPointer(pointer, name);
      let i = colon + 1;
      while (text.charCodeAt(i) === 0x20) i++;
      let read: Read;
      if (i === lineEnd || text.charCodeAt(i) === 0x23) {
        const next = this.#nextContent(l + 1);
        const deeper = next < this.#kinds.length && this.#indent(next) > indent;
        const start = this.#token(next);
        if (
          deeper ||
          (next < this.#kinds.length && this.#indent(next) === indent && this.#isDash(start, this.#end(next)))
        ) {
          read = this.#collection(next, start, child, keySpan);
        } else {
          read = this.#empty(l, i, next, child, keySpan, false);
          this.#line = next;
        }
      } else {
        read = this.#leaf(l, i, indent, child, keySpan);
        this.#line = this.#nextContent(l + 1);
      }
      if (name === "__proto__") defineData(out, name, read.value);
      else out[name] = read.value;
      lastEnd = read.end;
      l = this.#line;
      if (l === this.#kinds.length || this.#indent(l) < indent) break;
      if (this.#indent(l) > indent) giveUp();
      from = this.#token(l);
      if (this.#isDash(from, this.#end(l))) giveUp();
      this.#waiting = -1;
    }
    const end = this.#close(indent, lastEnd);
    this.#record(pointer, this.#span(at, lastEnd), key);
    return { value: out, end };
  }

  /**
   * The block sequence whose first `-` is at `at` on `line`: each item a one-line value, a collection starting on
   * the `-` line (`- key: value`, `- - item`) or below it, or empty. Stops at a content line indented less or at
   * a key at its own column (the next key of the mapping it is the value of).
   */
  #sequence(line: number, at: number, pointer: string, key: Span | undefined): Read {
    const text = this.#text;
    const indent = at - this.#start(line);
    this.#positions.set(pointer, PENDING);
    const out: unknown[] = [];
    let l = line;
    let dash = at;
    let lastEnd: number;
    // Whether comment lines wait before this item's `-` (the first item's are never the sequence's).
    let commentBefore = false;
    for (;;) {
      const lineEnd = this.#end(l);
      const child = childPointer(pointer, out.length);
      let i = dash + 1;
      while (text.charCodeAt(i) === 0x20) i++;
      let read: Read;
      if (i === lineEnd || text.charCodeAt(i) === 0x23) {
        const next = this.#nextContent(l + 1);
        if (next < this.#kinds.length && this.#indent(next) > indent) {
          read = this.#collection(next, this.#token(next), child, undefined);
        } else {
          read = this.#empty(l, i, next, child, undefined, commentBefore);
          this.#line = next;
        }
      } else if (this.#isDash(i, lineEnd) || this.#key(i, lineEnd) !== undefined) {
        read = this.#collection(l, i, child, undefined);
      } else {
        read = this.#leaf(l, i, indent, child, undefined);
        this.#line = this.#nextContent(l + 1);
      }
      out.push(read.value);
      lastEnd = read.end;
      l = this.#line;
      if (l === this.#kinds.length || this.#indent(l) < indent) break;
      if (this.#indent(l) > indent) giveUp();
      dash = this.#token(l);
      // A key at the sequence's own column ends it (a sequence may be a mapping value at the key's column).
      if (!this.#isDash(dash, this.#end(l))) break;
      commentBefore = this.#waiting >= 0;
      this.#waiting = -1;
    }
    const end = this.#close(indent, lastEnd);
    this.#record(pointer, this.#span(at, lastEnd), key);
    return { value: out, end };
  }

  /**
   * The implicit key at `from`: a one-line quoted string or a plain scalar that resolves to a string, followed by
   * `:` and a space or the line end; `undefined` when there is no such key there. Gives up on a key the YAML parse
   * would refuse or report (not a string, too long, a space before the `:`).
   */
  #key(from: number, lineEnd: number): { name: string; colon: number } | undefined {
    const text = this.#text;
    const c = text.charCodeAt(from);
    let name: string;
    let colon: number;
    if (c === 0x22 || c === 0x27) {
      const quoted = this.#quoted(from, lineEnd);
      colon = quoted.to;
      if (text.charCodeAt(colon) !== 0x3a) return undefined;
      name = quoted.value;
    } else {
      if (!this.#plainStart(from, lineEnd)) return undefined;
      colon = -1;
      for (let i = from; i < lineEnd; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x3a) {
          const e = text.charCodeAt(i + 1);
          if (i + 1 === lineEnd || e === 0x20) {
            colon = i;
            break;
          }
        } else if (d === 0x20 && text.charCodeAt(i + 1) === 0x23) return undefined;
      }
      if (colon < 0) return undefined;
      name = text.slice(from, colon);
      if (name.endsWith(" ")) giveUp();
      if (typeof resolvePlain(name) !== "string") giveUp();
    }
    if (colon + 1 !== lineEnd && text.charCodeAt(colon + 1) !== 0x20) return undefined;
    if (colon - from > MAX_PLAIN_KEY) giveUp();
    return { name, colon };
  }

  /** Whether a plain scalar may start at `at` (in block context). */
  #plainStart(at: number, lineEnd: number): boolean {
    const text = this.#text;
    const c = text[at] as string;
    if (NOT_PLAIN_START.has(c)) return false;
    if (c === "?" || c === ":") return false;
    if (c === "-") return at + 1 < lineEnd && text.charCodeAt(at + 1) !== 0x20;
    return true;
  }

  /** A one-line quoted scalar starting at `from`: its value and the offset after its closing quote. */
  #quoted(from: number, lineEnd: number): { value: string; to: number } {
    const text = this.#text;
    if (text.charCodeAt(from) === 0x27) {
      let i = from + 1;
      for (;;) {
        const close = text.indexOf("'", i);
        if (close < 0 || close >= lineEnd) giveUp();
        if (text.charCodeAt(close + 1) === 0x27) i = close + 2;
        else return { value: text.slice(from + 1, close).replaceAll("''", "'"), to: close + 1 };
      }
    }
    let value = "";
    let segment = from + 1;
    let i = from + 1;
    for (;;) {
      if (i >= lineEnd) giveUp();
      const c = text.charCodeAt(i);
      if (c === 0x22) break;
      if (c !== 0x5c) {
        i++;
        continue;
      }
      value += text.slice(segment, i);
      const e = text[i + 1];
      if (e === undefined || i + 1 >= lineEnd) giveUp();
      const fixed = ESCAPES[e];
      if (fixed !== undefined) {
        value += fixed;
        i += 2;
      } else {
        const length = e === "x" ? 2 : e === "u" ? 4 : e === "U" ? 8 : giveUp();
        const hex = text.substr(i + 2, length);
        if (hex.length !== length || i + 2 + length > lineEnd || !HEX.test(hex)) giveUp();
        const code = Number.parseInt(hex, 16);
        if (code > 0x10ffff) giveUp();
        value += String.fromCodePoint(code);
        i += 2 + length;
      }
      segment = i;
    }
    return { value: value + text.slice(segment, i), to: i + 1 };
  }

  /**
   * A one-line value at `at` on `line` (of a collection indented `indent`): a quoted or plain scalar, or a flow
   * collection; then spaces and perhaps a comment to the line end. Its end for the parent: after the line, and
   * after the comment lines the parser gives it.
   */
  #leaf(line: number, at: number, indent: number, pointer: string, key: Span | undefined): Read {
    const text = this.#text;
    const lineEnd = this.#end(line);
    const c = text.charCodeAt(at);
    let value: unknown;
    let to: number;
    if (c === 0x22 || c === 0x27) {
      const quoted = this.#quoted(at, lineEnd);
      value = quoted.value;
      to = quoted.to;
      this.#record(pointer, this.#spanOn(line, at, to), key);
    } else if (c === 0x5b || c === 0x7b) {
      const flow = this.#flow(line, at, pointer, key, this.#depth);
      value = flow.value;
      to = flow.to;
    } else {
      if (!this.#plainStart(at, lineEnd)) giveUp();
      to = at;
      for (let i = at; i < lineEnd; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x20) {
          if (text.charCodeAt(i + 1) === 0x23) break;
        } else {
          // `: ` would make a mapping on the same line as a key or `-`: the YAML parse refuses it.
          if (d === 0x3a && (i + 1 === lineEnd || text.charCodeAt(i + 1) === 0x20)) giveUp();
          to = i + 1;
        }
      }
      value = resolvePlain(text.slice(at, to));
      if (value === NOT_FINITE) giveUp();
      this.#record(pointer, this.#spanOn(line, at, to), key);
    }
    let i = to;
    while (text.charCodeAt(i) === 0x20) i++;
    if (i < lineEnd && (text.charCodeAt(i) !== 0x23 || i === to)) giveUp();
    return { value, end: this.#absorb(line, indent) };
  }

  /**
   * The end of a one-line value on `line` in a collection indented `indent`: after the line, then after each
   * comment line indented deeper than the collection that follows (blank lines between), up to the first one that
   * is not; the comment lines from there on wait (`#waiting`).
   */
  #absorb(line: number, indent: number): number {
    const kinds = this.#kinds;
    let end = this.#after(line);
    let waiting = -1;
    for (let l = line + 1; l < kinds.length && kinds[l] !== CONTENT; l++) {
      if (kinds[l] !== COMMENT) continue;
      const depth = this.#indent(l);
      if (waiting < 0 && depth > indent) end = this.#after(l);
      else waiting = Math.max(waiting, depth);
    }
    this.#waiting = waiting;
    return end;
  }

  /** A one-line flow sequence or mapping at `at` (of scalars and such collections); records its position and its items'. */
  #flow(
    line: number,
    at: number,
    pointer: string,
    key: Span | undefined,
    depth: number,
  ): { value: unknown; to: number } {
    const text = this.#text;
    const lineEnd = this.#end(line);
    const isMap = text.charCodeAt(at) === 0x7b;
    const close = isMap ? 0x7d : 0x5d;
    this.#positions.set(pointer, PENDING);
    const items: unknown[] = [];
    const out: Record<string, unknown> = {};
    let i = at + 1;
    const space = () => {
      while (text.charCodeAt(i) === 0x20) i++;
    };
    // An item or a mapping value: a nested flow collection, or a scalar that no `:` follows.
    const item = (child: string, keySpan: Span | undefined): unknown => {
      const c = text.charCodeAt(i);
      if (c === 0x5b || c === 0x7b) {
        const nested = this.#flow(line, i, child, keySpan, depth + 1);
        i = nested.to;
        return nested.value;
      }
      const scalar = this.#flowScalar(i, lineEnd);
      if (scalar.plainKeyEnd) giveUp();
      this.#record(child, this.#spanOn(line, i, scalar.to), keySpan);
      i = scalar.to;
      return scalar.value;
    };
    if (depth > MAX_DEPTH) giveUp();
    space();
    if (text.charCodeAt(i) !== close) {
      for (;;) {
        if (isMap) {
          const first = this.#flowScalar(i, lineEnd);
          if (typeof first.value !== "string" || first.plainKeyEnd !== true) giveUp();
          const name = first.value;
          if (Object.hasOwn(out, name) || first.to - i > MAX_PLAIN_KEY) giveUp();
          const keySpan = this.#spanOn(line, i, first.to);
          // `:` right after the key, then a space.
          if (text.charCodeAt(first.to) !== 0x3a || text.charCodeAt(first.to + 1) !== 0x20) giveUp();
          i = first.to + 1;
          space();
          const value = item(childPointer(pointer, name), keySpan);
          if (name === "__proto__") defineData(out, name, value);
          else out[name] = value;
        } else {
          items.push(item(childPointer(pointer, items.length), undefined));
        }
        space();
        const c = text.charCodeAt(i);
        if (c === close) break;
        if (c !== 0x2c) giveUp();
        i++;
        space();
        if (text.charCodeAt(i) === close) giveUp();
      }
    }
    const to = i + 1;
    this.#record(pointer, this.#spanOn(line, at, to), key);
    return { value: isMap ? out : items, to };
  }

  /**
   * A scalar inside a one-line flow collection at `at`: its value, the offset after it, and whether a `:` that
   * makes it a key follows at once (`plainKeyEnd`; for a quoted scalar, whether `:` follows at once).
   */
  #flowScalar(at: number, lineEnd: number): { value: unknown; to: number; plainKeyEnd: boolean } {
    const text = this.#text;
    const c = text.charCodeAt(at);
    if (c === 0x22 || c === 0x27) {
      const quoted = this.#quoted(at, lineEnd);
      return { value: quoted.value, to: quoted.to, plainKeyEnd: text.charCodeAt(quoted.to) === 0x3a };
    }
    if (at >= lineEnd || !this.#plainStart(at, lineEnd)) giveUp();
    if (c === 0x2d && FLOW_INDICATORS.has(text[at + 1] as string)) giveUp();
    let to = at;
    let keyEnd = false;
    for (let i = at; i < lineEnd; i++) {
      const d = text[i] as string;
      if (FLOW_INDICATORS.has(d)) break;
      if (d === " ") {
        if (text[i + 1] === "#") giveUp();
        continue;
      }
      if (d === ":") {
        const e = text[i + 1];
        if (i + 1 === lineEnd || e === " " || (e !== undefined && FLOW_INDICATORS.has(e))) {
          keyEnd = true;
          break;
        }
      }
      to = i + 1;
    }
    if (to === at) giveUp();
    const value = resolvePlain(text.slice(at, to));
    if (value === NOT_FINITE) giveUp();
    // A key must be followed by its `:` at once; a space before it is left to the YAML parse.
    if (keyEnd && text.charCodeAt(to) !== 0x3a) giveUp();
    return { value, to, plainKeyEnd: keyEnd };
  }
}
