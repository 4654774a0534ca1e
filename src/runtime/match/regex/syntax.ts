/**
 * The regex syntax tree and its recursive-descent parser: the subset of JavaScript's syntax the engine accepts
 * (see `index.ts`), each refusal with a message that says what to write instead and the offset it is at.
 */

import {
  complementRanges,
  DIGIT_RANGES,
  FOLDED_WORD_RANGES,
  LINE_TERMINATOR_RANGES,
  MAX_CODE_POINT,
  type Ranges,
  SPACE_RANGES,
  WORD_RANGES,
} from "./char-set.js";

/** Groups nested deeper than this are refused, so that compiling never exhausts the stack. */
const MAX_GROUP_DEPTH = 200;

export type AssertKind = "bol" | "eol" | "word" | "nonword";

type Node =
  | { readonly kind: "empty" }
  | { readonly kind: "char"; readonly cp: number }
  | { readonly kind: "set"; readonly ranges: Ranges; readonly negated: boolean }
  | { readonly kind: "concat"; readonly items: readonly Node[] }
  | { readonly kind: "alt"; readonly items: readonly Node[] }
  | {
      readonly kind: "repeat";
      readonly child: Node;
      readonly min: number;
      readonly max: number;
      readonly offset: number;
    }
  | { readonly kind: "assert"; readonly which: AssertKind };

export class RegexSyntaxError {
  constructor(
    readonly message: string,
    readonly offset: number,
  ) {}
}

function isHexDigit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

function isAsciiPunctuation(c: number): boolean {
  return (
    (c >= 0x21 && c <= 0x2f) ||
    (c >= 0x3a && c <= 0x40) ||
    (c >= 0x5b && c <= 0x60) ||
    (c >= 0x7b && c <= 0x7e)
  );
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** An escape inside or outside a class: one character, or a class escape such as `\d`. */
type Escape =
  | { readonly kind: "char"; readonly cp: number }
  | { readonly kind: "set"; readonly ranges: Ranges };

/** Recursive-descent parser over the pattern; throws `RegexSyntaxError` internally, caught by `compileRegex`. */
export class Parser {
  private pos = 0;
  private depth = 0;
  private readonly names = new Set<string>();

  constructor(
    private readonly src: string,
    private readonly unicode: boolean,
    private readonly dotAll: boolean,
    private readonly ignoreCase: boolean,
  ) {}

  parse(): Node {
    const node = this.parseDisjunction();
    if (this.pos < this.src.length) {
      // Only an unmatched `)` stops a top-level disjunction early.
      throw new RegexSyntaxError(
        "unbalanced parenthesis: this ) has no matching (; escape it as \\)",
        this.pos,
      );
    }
    return node;
  }

  private fail(message: string, offset: number = this.pos): never {
    throw new RegexSyntaxError(message, offset);
  }

  private peek(offset = 0): number {
    const i = this.pos + offset;
    return i < this.src.length ? this.src.charCodeAt(i) : -1;
  }

  /** The next pattern character: a code point with `u`, a code unit without. */
  private nextChar(): number {
    if (this.unicode) {
      const cp = this.src.codePointAt(this.pos) as number;
      this.pos += cp > 0xffff ? 2 : 1;
      return cp;
    }
    return this.src.charCodeAt(this.pos++);
  }

  private parseDisjunction(): Node {
    const items: Node[] = [this.parseAlternative()];
    while (this.peek() === 0x7c /* | */) {
      this.pos++;
      items.push(this.parseAlternative());
    }
    return items.length === 1 ? (items[0] as Node) : { kind: "alt", items };
  }

  private parseAlternative(): Node {
    const items: Node[] = [];
    for (;;) {
      const c = this.peek();
      if (c === -1 || c === 0x7c /* | */ || c === 0x29 /* ) */) break;
      this.parseTerm(items);
    }
    if (items.length === 0) return { kind: "empty" };
    return items.length === 1 ? (items[0] as Node) : { kind: "concat", items };
  }

  private parseTerm(out: Node[]): void {
    const start = this.pos;
    const c = this.peek();
    switch (c) {
      case 0x5e /* ^ */:
        this.pos++;
        out.push({ kind: "assert", which: "bol" });
        this.refuseQuantifier("^");
        return;
      case 0x24 /* $ */:
        this.pos++;
        out.push({ kind: "assert", which: "eol" });
        this.refuseQuantifier("$");
        return;
      case 0x5c /* backslash */:
        if (this.peek(1) === 0x62 /* b */ || this.peek(1) === 0x42 /* B */) {
          const which = this.peek(1) === 0x62 ? "word" : "nonword";
          this.pos += 2;
          out.push({ kind: "assert", which });
          this.refuseQuantifier(which === "word" ? "\\b" : "\\B");
          return;
        }
        break;
      case 0x2a /* * */:
      case 0x2b /* + */:
      case 0x3f /* ? */:
        this.fail(
          `nothing to repeat: the quantifier ${String.fromCharCode(c)} follows no character or group; escape it as \\${String.fromCharCode(c)}`,
        );
        break;
      case 0x7b /* { */:
        if (this.tryQuantifierBraces() !== undefined) {
          this.fail(
            "nothing to repeat: the quantifier {...} follows no character or group; escape it as \\{",
            start,
          );
        }
        this.fail("lone {: a { must start a quantifier such as {2,5}; escape a literal { as \\{", start);
        break;
      default:
        break;
    }
    const atom = this.parseAtom();
    this.parseQuantifiers(atom, out, start);
  }

  private refuseQuantifier(what: string): void {
    const c = this.peek();
    if (c === 0x2a || c === 0x2b || c === 0x3f || (c === 0x7b && this.lookQuantifierBraces())) {
      this.fail(`nothing to repeat: the assertion ${what} cannot take a quantifier; remove the quantifier`);
    }
  }

  private lookQuantifierBraces(): boolean {
    const saved = this.pos;
    const result = this.tryQuantifierBraces();
    this.pos = saved;
    return result !== undefined;
  }

  /** Parses `{n}`, `{n,}` or `{n,m}` at the current position, or returns undefined and moves nothing. */
  private tryQuantifierBraces(): { min: number; max: number } | undefined {
    const saved = this.pos;
    if (this.peek() !== 0x7b) return undefined;
    this.pos++;
    const min = this.readDecimal();
    if (min === undefined) {
      this.pos = saved;
      return undefined;
    }
    let max = min;
    if (this.peek() === 0x2c /* , */) {
      this.pos++;
      max = this.peek() === 0x7d ? Number.POSITIVE_INFINITY : (this.readDecimal() ?? -1);
      if (max === -1) {
        this.pos = saved;
        return undefined;
      }
    }
    if (this.peek() !== 0x7d /* } */) {
      this.pos = saved;
      return undefined;
    }
    this.pos++;
    return { min, max };
  }

  private readDecimal(): number | undefined {
    const start = this.pos;
    let value = 0;
    while (isDigit(this.peek())) {
      // Saturate: anything this large exceeds the program-size bound anyway.
      value = Math.min(value * 10 + (this.peek() - 0x30), 1e9);
      this.pos++;
    }
    return this.pos === start ? undefined : value;
  }

  private parseQuantifiers(atom: Node, out: Node[], start: number): void {
    const c = this.peek();
    let min: number;
    let max: number;
    const quantifierStart = this.pos;
    if (c === 0x2a) {
      min = 0;
      max = Number.POSITIVE_INFINITY;
      this.pos++;
    } else if (c === 0x2b) {
      min = 1;
      max = Number.POSITIVE_INFINITY;
      this.pos++;
    } else if (c === 0x3f) {
      min = 0;
      max = 1;
      this.pos++;
    } else if (c === 0x7b) {
      const braces = this.tryQuantifierBraces();
      if (braces === undefined) {
        this.fail("lone {: a { must start a quantifier such as {2,5}; escape a literal { as \\{");
      }
      min = braces.min;
      max = braces.max;
      if (min > max) {
        this.fail(
          `numbers out of order in quantifier {${min},${max}}: the minimum must not exceed the maximum`,
          quantifierStart,
        );
      }
    } else {
      out.push(atom);
      return;
    }
    if (this.peek() === 0x3f) this.pos++; // lazy: the same language, so the same answer for test()
    const next = this.peek();
    if (next === 0x2a || next === 0x2b || next === 0x3f || (next === 0x7b && this.lookQuantifierBraces())) {
      this.fail(
        "nothing to repeat: a quantifier cannot follow another quantifier; group the first one with (?:...)",
      );
    }
    out.push({ kind: "repeat", child: atom, min, max, offset: start });
  }

  private parseAtom(): Node {
    const start = this.pos;
    const c = this.peek();
    switch (c) {
      case 0x2e /* . */:
        this.pos++;
        return this.dotAll
          ? { kind: "set", ranges: [0, MAX_CODE_POINT], negated: false }
          : { kind: "set", ranges: LINE_TERMINATOR_RANGES, negated: true };
      case 0x28 /* ( */:
        return this.parseGroup();
      case 0x5b /* [ */:
        return this.parseClass();
      case 0x5c: {
        // backslash
        const escaped = this.parseEscape(false);
        if (escaped.kind === "set") return { kind: "set", ranges: escaped.ranges, negated: false };
        return this.charNode(escaped.cp);
      }
      case 0x5d /* ] */:
        this.fail("lone ]: escape a literal ] as \\]", start);
        break;
      case 0x7d /* } */:
        this.fail("lone }: escape a literal } as \\}", start);
        break;
      default:
        break;
    }
    return this.charNode(this.nextChar());
  }

  /** A literal; without `u` a code point above U+FFFF (from `\u{...}`) becomes its two code units. */
  private charNode(cp: number): Node {
    if (!this.unicode && cp > 0xffff) {
      const high = 0xd800 + ((cp - 0x10000) >> 10);
      const low = 0xdc00 + ((cp - 0x10000) & 0x3ff);
      return {
        kind: "concat",
        items: [
          { kind: "char", cp: high },
          { kind: "char", cp: low },
        ],
      };
    }
    return { kind: "char", cp };
  }

  private parseGroup(): Node {
    const start = this.pos;
    this.pos++; // (
    if (this.peek() === 0x3f /* ? */) {
      const c1 = this.peek(1);
      const c2 = this.peek(2);
      if (c1 === 0x3a /* : */) {
        this.pos += 2;
      } else if (c1 === 0x3d /* = */ || c1 === 0x21 /* ! */) {
        this.fail(
          `lookahead (?${String.fromCharCode(c1)} is not supported: regex rules run on a linear-time engine; rewrite the pattern without lookaround`,
          start,
        );
      } else if (c1 === 0x3c /* < */ && (c2 === 0x3d || c2 === 0x21)) {
        this.fail(
          `lookbehind (?<${String.fromCharCode(c2)} is not supported: regex rules run on a linear-time engine; rewrite the pattern without lookaround`,
          start,
        );
      } else if (c1 === 0x3c) {
        this.pos += 2;
        this.parseGroupName(start);
      } else {
        this.fail(
          "unknown group syntax (?: use (...), (?:...) or (?<name>...); lookaround and inline modifiers are not supported",
          start,
        );
      }
    }
    this.depth++;
    if (this.depth > MAX_GROUP_DEPTH) {
      this.fail(`groups nested more than ${MAX_GROUP_DEPTH} deep: simplify the pattern`, start);
    }
    const inner = this.parseDisjunction();
    this.depth--;
    if (this.peek() !== 0x29 /* ) */) {
      this.fail("unbalanced parenthesis: this ( is never closed; add a ) or escape it as \\(", start);
    }
    this.pos++;
    return inner;
  }

  private parseGroupName(groupStart: number): void {
    const nameStart = this.pos;
    while (this.pos < this.src.length && this.peek() !== 0x3e /* > */) this.pos++;
    if (this.pos >= this.src.length)
      this.fail("unterminated group name: (?<name> needs a closing >", groupStart);
    const name = this.src.slice(nameStart, this.pos);
    if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name)) {
      this.fail(
        `invalid group name "${name}": use letters, digits, _ or $, not starting with a digit`,
        nameStart,
      );
    }
    if (this.names.has(name)) {
      this.fail(`duplicate group name "${name}": give each named group its own name`, nameStart);
    }
    this.names.add(name);
    this.pos++; // >
  }

  private parseClass(): Node {
    const start = this.pos;
    this.pos++; // [
    let negated = false;
    if (this.peek() === 0x5e /* ^ */) {
      negated = true;
      this.pos++;
    }
    const ranges: Ranges = [];
    for (;;) {
      const c = this.peek();
      if (c === -1)
        this.fail("unterminated character class: add the closing ] or escape the [ as \\[", start);
      if (c === 0x5d /* ] */) {
        this.pos++;
        break;
      }
      const itemStart = this.pos;
      const first = this.parseClassAtom();
      if (this.peek() === 0x2d /* - */ && this.peek(1) !== 0x5d && this.peek(1) !== -1) {
        this.pos++; // -
        const secondStart = this.pos;
        const second = this.parseClassAtom();
        if (first.kind === "set" || second.kind === "set") {
          this.fail(
            "a class escape such as \\d cannot be a range endpoint: escape the - as \\- to mean a literal -",
            first.kind === "set" ? itemStart : secondStart,
          );
        }
        if (first.cp > second.cp) {
          this.fail("range out of order in character class: write the smaller character first", itemStart);
        }
        ranges.push(first.cp, second.cp);
      } else if (first.kind === "set") {
        for (const r of first.ranges) ranges.push(r);
      } else {
        ranges.push(first.cp, first.cp);
      }
    }
    return { kind: "set", ranges, negated };
  }

  private parseClassAtom(): Escape {
    if (this.peek() === 0x5c) return this.parseEscape(true);
    // Without u a literal is one code unit: a character above U+FFFF is two class members, as in RegExp.
    return { kind: "char", cp: this.nextChar() };
  }

  /** Parses `\...` at the current position. `inClass` changes `\b` (backspace) and allows `\-`. */
  private parseEscape(inClass: boolean): Escape {
    const start = this.pos;
    this.pos++; // backslash
    const c = this.peek();
    if (c === -1) this.fail("the pattern ends with a lone \\: escape a literal backslash as \\\\", start);
    this.pos++;
    const char = (cp: number): Escape => {
      if (inClass && !this.unicode && cp > 0xffff) {
        this.fail("a character above U+FFFF in a class needs flag u", start);
      }
      return { kind: "char", cp };
    };
    switch (c) {
      case 0x64 /* d */:
        return { kind: "set", ranges: DIGIT_RANGES };
      case 0x44 /* D */:
        return { kind: "set", ranges: complementRanges(DIGIT_RANGES) };
      case 0x77 /* w */:
        return { kind: "set", ranges: WORD_RANGES };
      case 0x57 /* W */:
        return { kind: "set", ranges: complementRanges(this.ignoreCase ? FOLDED_WORD_RANGES : WORD_RANGES) };
      case 0x73 /* s */:
        return { kind: "set", ranges: SPACE_RANGES };
      case 0x53 /* S */:
        return { kind: "set", ranges: complementRanges(SPACE_RANGES) };
      case 0x74 /* t */:
        return char(0x09);
      case 0x6e /* n */:
        return char(0x0a);
      case 0x72 /* r */:
        return char(0x0d);
      case 0x66 /* f */:
        return char(0x0c);
      case 0x76 /* v */:
        return char(0x0b);
      case 0x62 /* b */:
        // Outside a class \b is an assertion, handled by parseTerm.
        return char(0x08);
      case 0x42 /* B */:
        return this.fail("\\B is not allowed inside a character class", start);
      case 0x30 /* 0 */:
        if (isDigit(this.peek())) {
          this.fail("octal escapes are not supported: write \\xHH instead", start);
        }
        return char(0);
      case 0x78 /* x */:
        {
          const a = this.peek();
          const b = this.peek(1);
          if (!isHexDigit(a) || !isHexDigit(b)) {
            this.fail("\\x must be followed by exactly two hex digits, as in \\x41", start);
          }
          this.pos += 2;
          return char(Number.parseInt(this.src.slice(this.pos - 2, this.pos), 16));
        }
      case 0x75 /* u */:
        return char(this.parseUnicodeEscape(start));
      case 0x63 /* c */:
        {
          const letter = this.peek();
          if (!((letter >= 0x41 && letter <= 0x5a) || (letter >= 0x61 && letter <= 0x7a))) {
            this.fail("\\c must be followed by a letter A-Z, as in \\cJ", start);
          }
          this.pos++;
          return char(letter % 32);
        }
      case 0x6b /* k */:
        return this.fail(
          "backreferences are not supported: regex rules run on a linear-time engine; rewrite without \\k<name>",
          start,
        );
      case 0x70 /* p */:
      case 0x50 /* P */:
        return this.fail(
          `Unicode property escapes (\\${String.fromCharCode(c)}{...}) are not supported: list the characters in a class instead`,
          start,
        );
      default:
        break;
    }
    if (c >= 0x31 && c <= 0x39) {
      if (inClass) this.fail("octal escapes are not supported: write \\xHH instead", start);
      return this.fail(
        `backreferences are not supported: regex rules run on a linear-time engine; rewrite without \\${String.fromCharCode(c)}`,
        start,
      );
    }
    // Every syntax character (^ $ \\ . * + ? ( ) [ ] { } | /) is ASCII punctuation.
    if (isAsciiPunctuation(c)) return char(c);
    return this.fail(
      `unknown escape \\${String.fromCharCode(c)}: escape only punctuation; for the letter itself drop the backslash`,
      start,
    );
  }

  /** After `\u`: `HHHH` (a surrogate pair of two such escapes joins with `u`) or `{H...}`. */
  private parseUnicodeEscape(start: number): number {
    if (this.peek() === 0x7b /* { */) {
      const close = this.src.indexOf("}", this.pos);
      const digits = close < 0 ? "" : this.src.slice(this.pos + 1, close);
      if (!/^[0-9A-Fa-f]+$/.test(digits)) {
        this.fail("\\u{...} must hold hex digits, as in \\u{1F600}", start);
      }
      const cp = Number.parseInt(digits, 16);
      if (cp > MAX_CODE_POINT) this.fail("\\u{...} is above U+10FFFF", start);
      this.pos = close + 1;
      return cp;
    }
    const hex = this.src.slice(this.pos, this.pos + 4);
    if (!/^[0-9A-Fa-f]{4}$/.test(hex)) {
      this.fail("\\u must be followed by four hex digits or {hex}, as in \\u00e9 or \\u{1F600}", start);
    }
    this.pos += 4;
    const unit = Number.parseInt(hex, 16);
    if (this.unicode && unit >= 0xd800 && unit <= 0xdbff && this.src.startsWith("\\u", this.pos)) {
      const lowHex = this.src.slice(this.pos + 2, this.pos + 6);
      if (/^[0-9A-Fa-f]{4}$/.test(lowHex)) {
        const low = Number.parseInt(lowHex, 16);
        if (low >= 0xdc00 && low <= 0xdfff) {
          this.pos += 6;
          return 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
        }
      }
    }
    return unit;
  }
}

/** A node of a pattern's syntax tree: sets are sorted inclusive code point ranges `[lo0, hi0, lo1, hi1, ...]`. */
export type RegexNode = Node;

/**
 * The syntax tree `compileRegex` compiles a pattern from, for tools that build example strings of a pattern
 * (`toolgate diff`). Flags as for `compileRegex`; `undefined` when the pattern does not parse.
 */
export function parseRegexTree(pattern: string, flags = ""): RegexNode | undefined {
  try {
    return new Parser(pattern, flags.includes("u"), flags.includes("s"), flags.includes("i")).parse();
  } catch (error) {
    if (error instanceof RegexSyntaxError) return undefined;
    throw error;
  }
}
