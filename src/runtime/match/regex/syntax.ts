/**
 * A linear-time regular-expression engine for policy `regex` rules and input-schema `pattern`s.
 *
 * Patterns compile to a Thompson NFA and run as a Pike-VM simulation: every input position is visited once and
 * every instruction at most once per position, so `test` costs O(input length × program size) whatever the
 * pattern. Nothing backtracks, so no pattern can make a call hang.
 *
 * The syntax is a subset of JavaScript's: everything that describes a regular language (literals, escapes,
 * classes, `.`, anchors, `\b`, groups, alternation, greedy and lazy quantifiers). Constructs that need
 * backtracking (backreferences, lookaround) are refused with a message saying so.
 *
 * Where this engine knowingly differs from `RegExp`:
 * - Without flag `u` input is read as UTF-16 code units, as JavaScript does; with `u` as code points.
 * - Syntax is checked as strictly as JavaScript's `u` mode in both modes (no Annex B leniency: a lone `{`,
 *   `}` or `]`, an octal escape or `\a` is an error), except that any ASCII punctuation may be escaped and
 *   `\u{...}` is accepted in both modes.
 * - Flag `i` uses Unicode simple case folding (`case-fold.ts`, as `RegExp` with `iu`) in both
 *   modes, so without `u` the Kelvin sign `K` matches `k` (JavaScript matches it only with `u`).
 *   `\b` and `\B` look at ASCII word characters only, with or without `i`.
 */

import { type FoldTable, foldCodePoint, getFoldTable } from "../case-fold.js";

/** A compiled pattern. `test` has search semantics (like `RegExp.prototype.test`) and keeps no state. */
export interface LinearRegex {
  /** The pattern as given. */
  readonly source: string;
  /** The flags as given (a subset of `imsu`). */
  readonly flags: string;
  /** True when the pattern matches somewhere in `input` (anchored only by `^` and `$`). */
  test(input: string): boolean;
  /**
   * As `test`, but spends at most {@link REGEX_WORK_BOUND} steps: undefined when the answer would cost more
   * (a large pattern whose thread sets keep changing, on a long input). Policy rules read that as a maybe.
   */
  testBounded(input: string): boolean | undefined;
  /**
   * True when some string that `template` stands for may match: a string part is itself, a `null` part is any
   * non-empty run of characters other than `/` and NUL (an unknown path segment). Over-approximates: `\b`, `\B` and
   * the `m` anchors next to an unknown part count as holding. For conservative path matching only.
   */
  mayMatchTemplate(template: readonly (string | null)[]): boolean;
}

/** Result of {@link compileRegex}; `offset` is the code-unit index in the pattern (or in `flags`) of the problem. */
export type CompileRegexResult =
  | { readonly ok: true; readonly regex: LinearRegex }
  | { readonly ok: false; readonly message: string; readonly offset: number };

/** The largest compiled program {@link compileRegex} accepts, in instructions; bounds `test`'s cost per character. */
export const MAX_REGEX_PROGRAM_SIZE = 10_000;

/** Groups nested deeper than this are refused, so that compiling never exhausts the stack. */
const MAX_GROUP_DEPTH = 200;

// ---------------------------------------------------------------------------------------------------------
// Character sets

/** Sorted, non-overlapping inclusive ranges as a flat list `[lo0, hi0, lo1, hi1, ...]`. */
type Ranges = number[];

const MAX_CODE_POINT = 0x10ffff;

function normalizeRanges(ranges: Ranges): Ranges {
  const pairs: [number, number][] = [];
  for (let i = 0; i + 1 < ranges.length; i += 2) pairs.push([ranges[i] as number, ranges[i + 1] as number]);
  pairs.sort((a, b) => a[0] - b[0]);
  const out: Ranges = [];
  for (const [lo, hi] of pairs) {
    const last = out.length - 1;
    if (last > 0 && lo <= (out[last] as number) + 1) {
      if (hi > (out[last] as number)) out[last] = hi;
    } else out.push(lo, hi);
  }
  return out;
}

function complementRanges(ranges: Ranges): Ranges {
  const sorted = normalizeRanges(ranges);
  const out: Ranges = [];
  let next = 0;
  for (let i = 0; i + 1 < sorted.length; i += 2) {
    const lo = sorted[i] as number;
    if (lo > next) out.push(next, lo - 1);
    next = (sorted[i + 1] as number) + 1;
  }
  if (next <= MAX_CODE_POINT) out.push(next, MAX_CODE_POINT);
  return out;
}

function inRanges(ranges: Int32Array, c: number): boolean {
  let lo = 0;
  let hi = (ranges.length >> 1) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (c < (ranges[2 * mid] as number)) hi = mid - 1;
    else if (c > (ranges[2 * mid + 1] as number)) lo = mid + 1;
    else return true;
  }
  return false;
}

/** A compiled set: `has` takes an already folded character when the pattern has flag `i`. */
export class CharSet {
  /** Membership of each ASCII character, negation and folding applied. */
  readonly ascii: Uint8Array;
  private readonly ranges: Int32Array;
  private readonly negated: boolean;

  constructor(ranges: Ranges, negated: boolean, table: FoldTable | undefined) {
    let positive = normalizeRanges(ranges);
    if (table !== undefined) {
      // S ∪ fold(S): an input character c is in the set when fold(c) is (the fold is idempotent).
      const extra: Ranges = [];
      for (let i = 0; i + 1 < positive.length; i += 2) {
        const lo = positive[i] as number;
        const hi = positive[i + 1] as number;
        let k = lowerBound(table.keys, lo);
        while (k < table.keys.length && (table.keys[k] as number) <= hi) {
          const folded = table.map.get(table.keys[k] as number) as number;
          extra.push(folded, folded);
          k++;
        }
      }
      if (extra.length > 0) positive = normalizeRanges(positive.concat(extra));
    }
    this.ranges = Int32Array.from(positive);
    this.negated = negated;
    this.ascii = new Uint8Array(128);
    for (let c = 0; c < 128; c++) this.ascii[c] = inRanges(this.ranges, c) !== negated ? 1 : 0;
  }

  has(c: number): boolean {
    if (c < 128) return this.ascii[c] === 1;
    return inRanges(this.ranges, c) !== this.negated;
  }

  /** True when the set holds some character other than `/` and NUL (a character of a path segment). */
  hasSegmentCharacter(): boolean {
    if (this.negated) return true;
    const r = this.ranges;
    for (let i = 0; i + 1 < r.length; i += 2) {
      for (let c = r[i] as number; c <= (r[i + 1] as number); c++) {
        if (c !== 0 && c !== 0x2f) return true;
      }
    }
    return false;
  }
}

function lowerBound(keys: Int32Array, value: number): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((keys[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const DIGIT_RANGES: Ranges = [0x30, 0x39];
const WORD_RANGES: Ranges = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];
/** With flag `i`, `\W` also leaves out `ſ` and `K`, which fold to word characters (as `RegExp` with `iu`). */
const FOLDED_WORD_RANGES: Ranges = [...WORD_RANGES, 0x17f, 0x17f, 0x212a, 0x212a];
const SPACE_RANGES: Ranges = [
  0x09, 0x0d, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x202f, 0x205f,
  0x205f, 0x3000, 0x3000, 0xfeff, 0xfeff,
];
const LINE_TERMINATOR_RANGES: Ranges = [0x0a, 0x0a, 0x0d, 0x0d, 0x2028, 0x2029];

function isLineTerminator(c: number): boolean {
  return c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;
}

function isWordUnit(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f;
}

// ---------------------------------------------------------------------------------------------------------
// Syntax tree

type AssertKind = "bol" | "eol" | "word" | "nonword";

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

class RegexSyntaxError {
  constructor(
    readonly message: string,
    readonly offset: number,
  ) {}
}

const SYNTAX_CHARACTERS = "^$\\.*+?()[]{}|/";

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
class Parser {
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
    const start = this.pos;
    if (this.peek() === 0x5c) return this.parseEscape(true);
    const cp = this.nextChar();
    if (!this.unicode && cp > 0xffff) {
      this.fail("a character above U+FFFF in a class needs flag u", start);
    }
    return { kind: "char", cp };
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
    if (SYNTAX_CHARACTERS.includes(String.fromCharCode(c)) || isAsciiPunctuation(c)) return char(c);
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
      if (close < 0 || digits.length === 0 || !/^[0-9A-Fa-f]+$/.test(digits)) {
        this.fail("\\u{...} must hold hex digits, as in \\u{1F600}", start);
      }
      const cp = Number.parseInt(digits, 16);
      if (digits.length > 6 || cp > MAX_CODE_POINT) this.fail("\\u{...} is above U+10FFFF", start);
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

// ---------------------------------------------------------------------------------------------------------
// Program

const OP_CHAR = 0;
const OP_SET = 1;
const OP_ANY = 2;
const OP_SPLIT = 3;
const OP_JMP = 4;
const OP_ASSERT = 5;
const OP_MATCH = 6;

const ASSERT_CODES: Record<AssertKind, number> = { bol: 0, eol: 1, word: 2, nonword: 3 };

/** One state of the lazy DFA: the VM's threads before (`kernel`) and after (`closed`) their ε-closure. */
interface DfaState {
  readonly kernel: Int32Array;
  /** Made at the start of the input, where `^` holds. */
  readonly atStart: boolean;
  /** The threads that wait for a character, ascending. */
  readonly closed: Int32Array;
  /** The closure reached MATCH before the end of the input. */
  readonly matched: boolean;
  /** Whether MATCH is reached when the input ends here (`$` holds); made on first need. */
  matchedAtEnd: boolean | undefined;
  /** What making this state and its transitions counts against the work bound (the same whether cached or not). */
  readonly cost: number;
  /** The last run that counted `cost`. */
  visit: number;
  /** Next state per ASCII character, -1 when not made yet. */
  readonly ascii: Int32Array;
  other: Map<number, number> | undefined;
}

/** The lazy DFA's cache is started afresh beyond this many states or this many stored numbers. */
const MAX_DFA_STATES = 4096;
const MAX_DFA_SIZE = 4_000_000;

/**
 * The work {@link LinearRegex.testBounded} may spend on one input, in weighted thread steps (making a DFA
 * state costs its threads; a cached transition costs nothing): about 50 ms on one core of a small cloud
 * machine. Beyond it the answer is "undecided", which a policy reads as a maybe. Counted, not timed, so that
 * every machine and both controllers decide alike.
 */
export const REGEX_WORK_BOUND = 400_000;

class TooLarge {
  constructor(readonly offset: number) {}
}

/** Sizes already computed: counted repetition emits the same child node many times. */
const sizeCache = new WeakMap<Node, number>();

/** Instruction count of `node`, or throws `TooLarge` as soon as it passes the bound. */
function programSize(node: Node): number {
  const cached = sizeCache.get(node);
  if (cached !== undefined) return cached;
  const size = computeProgramSize(node);
  sizeCache.set(node, size);
  return size;
}

function computeProgramSize(node: Node): number {
  switch (node.kind) {
    case "empty":
      return 0;
    case "char":
    case "set":
    case "assert":
      return 1;
    case "concat": {
      let total = 0;
      for (const item of node.items) total += programSize(item);
      if (total > MAX_REGEX_PROGRAM_SIZE) throw new TooLarge(0);
      return total;
    }
    case "alt": {
      let total = 2 * (node.items.length - 1);
      for (const item of node.items) total += programSize(item);
      if (total > MAX_REGEX_PROGRAM_SIZE) throw new TooLarge(0);
      return total;
    }
    case "repeat": {
      const s = programSize(node.child);
      if (s === 0) return 0;
      const { min, max } = node;
      let total: number;
      if (max === Number.POSITIVE_INFINITY) total = min === 0 ? s + 2 : s * min + 1;
      else total = s * min + (max - min) * (s + 1);
      if (total > MAX_REGEX_PROGRAM_SIZE) throw new TooLarge(node.offset);
      return total;
    }
  }
}

/** Emits the Thompson program: three int32 slots per instruction (op, a, b). */
class Emitter {
  readonly code: number[] = [];
  readonly sets: CharSet[] = [];
  /** A set node emitted several times (counted repetition) is compiled once. */
  private readonly setIndex = new Map<Node, number>();

  constructor(private readonly table: FoldTable | undefined) {}

  get pc(): number {
    return this.code.length / 3;
  }

  emitOp(op: number, a = 0, b = 0): number {
    const pc = this.pc;
    this.code.push(op, a, b);
    return pc;
  }

  patch(pc: number, slot: 1 | 2, target: number): void {
    this.code[3 * pc + slot] = target;
  }

  emit(node: Node): void {
    switch (node.kind) {
      case "empty":
        return;
      case "char":
        this.emitOp(OP_CHAR, this.table === undefined ? node.cp : foldCodePoint(node.cp, this.table));
        return;
      case "set": {
        const everything =
          !node.negated &&
          node.ranges.length === 2 &&
          node.ranges[0] === 0 &&
          node.ranges[1] === MAX_CODE_POINT;
        if (everything) {
          this.emitOp(OP_ANY);
          return;
        }
        let index = this.setIndex.get(node);
        if (index === undefined) {
          index = this.sets.push(new CharSet(node.ranges, node.negated, this.table)) - 1;
          this.setIndex.set(node, index);
        }
        this.emitOp(OP_SET, index);
        return;
      }
      case "assert":
        this.emitOp(OP_ASSERT, ASSERT_CODES[node.which]);
        return;
      case "concat":
        for (const item of node.items) this.emit(item);
        return;
      case "alt": {
        const jumps: number[] = [];
        for (let i = 0; i < node.items.length; i++) {
          const item = node.items[i] as Node;
          if (i === node.items.length - 1) {
            this.emit(item);
            break;
          }
          const split = this.emitOp(OP_SPLIT, 0, 0);
          this.patch(split, 1, this.pc);
          this.emit(item);
          jumps.push(this.emitOp(OP_JMP));
          this.patch(split, 2, this.pc);
        }
        for (const jump of jumps) this.patch(jump, 1, this.pc);
        return;
      }
      case "repeat":
        this.emitRepeat(node.child, node.min, node.max);
        return;
    }
  }

  private emitRepeat(child: Node, min: number, max: number): void {
    if (programSize(child) === 0) return;
    if (max === Number.POSITIVE_INFINITY) {
      if (min === 0) {
        const split = this.emitOp(OP_SPLIT);
        this.patch(split, 1, this.pc);
        this.emit(child);
        this.emitOp(OP_JMP, split);
        this.patch(split, 2, this.pc);
        return;
      }
      for (let i = 0; i < min - 1; i++) this.emit(child);
      const loop = this.pc;
      this.emit(child);
      this.emitOp(OP_SPLIT, loop, this.pc + 1);
      return;
    }
    for (let i = 0; i < min; i++) this.emit(child);
    const exits: number[] = [];
    for (let i = min; i < max; i++) {
      const split = this.emitOp(OP_SPLIT);
      this.patch(split, 1, this.pc);
      exits.push(split);
      this.emit(child);
    }
    for (const split of exits) this.patch(split, 2, this.pc);
  }
}

/** Literal fast paths found at compile time. */
interface Shortcut {
  /** Characters every match starts with (empty when unknown). */
  readonly prefix: string;
  readonly anchoredStart: boolean;
  /** When the whole pattern is `^?literal$?`: how to answer with string methods alone. */
  readonly literal: { readonly text: string; readonly anchoredEnd: boolean } | undefined;
}

function literalText(cps: readonly number[], unicode: boolean): string | undefined {
  let text = "";
  for (const cp of cps) {
    // A lone surrogate could match half of a pair under `u`; leave such patterns to the VM.
    if (unicode && cp >= 0xd800 && cp <= 0xdfff) return undefined;
    text += unicode ? String.fromCodePoint(cp) : String.fromCharCode(cp);
  }
  return text;
}

function findShortcut(root: Node, unicode: boolean, multiline: boolean, ignoreCase: boolean): Shortcut {
  const items: Node[] = [];
  const flatten = (node: Node): void => {
    if (node.kind === "concat") for (const item of node.items) flatten(item);
    else if (node.kind !== "empty") items.push(node);
  };
  flatten(root);
  let i = 0;
  const anchoredStart = !multiline && items[0]?.kind === "assert" && items[0].which === "bol";
  if (anchoredStart) i++;
  const cps: number[] = [];
  while (i < items.length) {
    const item = items[i] as Node;
    if (item.kind !== "char") break;
    cps.push(item.cp);
    i++;
  }
  const text = ignoreCase ? undefined : literalText(cps, unicode);
  let literal: Shortcut["literal"];
  if (text !== undefined) {
    const last = items[i];
    if (i === items.length) literal = { text, anchoredEnd: false };
    else if (i === items.length - 1 && !multiline && last?.kind === "assert" && last.which === "eol") {
      literal = { text, anchoredEnd: true };
    }
  }
  return { prefix: text ?? "", anchoredStart, literal };
}

/** The Pike VM: the program plus reusable buffers (test() is synchronous, so one set per regex suffices). */
class Machine {
  readonly ops: Int32Array;
  readonly argA: Int32Array;
  readonly argB: Int32Array;
  private readonly listA: Int32Array;
  private readonly listB: Int32Array;
  private readonly mark: Uint32Array;
  private readonly stack: Int32Array;
  /** The ASCII tables of all sets side by side (set i at 128 * i), read without a call. */
  private readonly asciiSets: Uint8Array;
  private generation = 0;

  constructor(
    code: readonly number[],
    readonly sets: readonly CharSet[],
    readonly table: FoldTable | undefined,
    readonly unicode: boolean,
    private readonly multiline: boolean,
    readonly shortcut: Shortcut,
  ) {
    const size = code.length / 3;
    this.ops = new Int32Array(size);
    this.argA = new Int32Array(size);
    this.argB = new Int32Array(size);
    for (let pc = 0; pc < size; pc++) {
      this.ops[pc] = code[3 * pc] as number;
      this.argA[pc] = code[3 * pc + 1] as number;
      this.argB[pc] = code[3 * pc + 2] as number;
    }
    this.listA = new Int32Array(size);
    this.listB = new Int32Array(size);
    this.mark = new Uint32Array(size);
    this.stack = new Int32Array(2 * size + 2);
    this.asciiSets = new Uint8Array(128 * sets.length);
    sets.forEach((set, i) => {
      this.asciiSets.set(set.ascii, 128 * i);
    });
  }

  private nextGeneration(): number {
    if (this.generation >= 0xfffffffe) {
      this.mark.fill(0);
      this.generation = 0;
    }
    return ++this.generation;
  }

  private assertHolds(kind: number, input: string, pos: number): boolean {
    const before = pos > 0 ? input.charCodeAt(pos - 1) : -1;
    const after = pos < input.length ? input.charCodeAt(pos) : -1;
    switch (kind) {
      case 0:
        return before === -1 || (this.multiline && isLineTerminator(before));
      case 1:
        return after === -1 || (this.multiline && isLineTerminator(after));
      case 2:
        return isWordUnit(before) !== isWordUnit(after);
      default:
        return isWordUnit(before) === isWordUnit(after);
    }
  }

  /** Adds the ε-closure of `start` at `pos` to `list`; returns the new length, or -1 when MATCH is reached. */
  private addThread(
    list: Int32Array,
    length: number,
    gen: number,
    start: number,
    input: string,
    pos: number,
  ): number {
    const { ops, argA, argB, mark, stack } = this;
    let top = 0;
    stack[top++] = start;
    let n = length;
    while (top > 0) {
      const pc = stack[--top] as number;
      if (mark[pc] === gen) continue;
      mark[pc] = gen;
      switch (ops[pc]) {
        case OP_JMP:
          stack[top++] = argA[pc] as number;
          break;
        case OP_SPLIT:
          stack[top++] = argB[pc] as number;
          stack[top++] = argA[pc] as number;
          break;
        case OP_ASSERT:
          if (this.assertHolds(argA[pc] as number, input, pos)) stack[top++] = pc + 1;
          break;
        case OP_MATCH:
          return -1;
        default:
          list[n++] = pc;
      }
    }
    return n;
  }

  /** Closure of `starts` over ε-moves; assertions next to an unknown part (`unknown`) count as holding. */
  private closure(
    starts: Iterable<number>,
    before: number,
    after: number,
    unknown: boolean,
    out: Set<number>,
  ): boolean {
    const { ops, argA, argB } = this;
    const stack = [...starts];
    const seen = new Set<number>();
    while (stack.length > 0) {
      const pc = stack.pop() as number;
      if (seen.has(pc)) continue;
      seen.add(pc);
      switch (ops[pc]) {
        case OP_JMP:
          stack.push(argA[pc] as number);
          break;
        case OP_SPLIT:
          stack.push(argB[pc] as number, argA[pc] as number);
          break;
        case OP_ASSERT: {
          const kind = argA[pc] as number;
          let holds: boolean;
          if (kind === 0) holds = before === -1 || (this.multiline && (unknown || isLineTerminator(before)));
          else if (kind === 1)
            holds = after === -1 || (this.multiline && (unknown || isLineTerminator(after)));
          else if (unknown) holds = true;
          else holds = (isWordUnit(before) !== isWordUnit(after)) === (kind === 2);
          if (holds) stack.push(pc + 1);
          break;
        }
        case OP_MATCH:
          return true;
        default:
          out.add(pc);
      }
    }
    return false;
  }

  private consumes(pc: number, c: number): boolean {
    const op = this.ops[pc];
    if (op === OP_ANY) return true;
    if (c < 0) {
      // Any character of a path segment: not `/`, not NUL.
      if (op === OP_CHAR) return this.argA[pc] !== 0x2f && this.argA[pc] !== 0;
      return (this.sets[this.argA[pc] as number] as CharSet).hasSegmentCharacter();
    }
    const folded = this.table === undefined ? c : foldCodePoint(c, this.table);
    if (op === OP_CHAR) return this.argA[pc] === folded;
    return (this.sets[this.argA[pc] as number] as CharSet).has(folded);
  }

  /** See {@link LinearRegex.mayMatchTemplate}: a set simulation where `-1` stands for an unknown part. */
  runTemplate(template: readonly (string | null)[]): boolean {
    // The template as characters (code points with `u`); -1 is a whole unknown part (one or more characters).
    const chars: number[] = [];
    for (const part of template) {
      if (part === null) {
        chars.push(-1);
        continue;
      }
      for (let i = 0; i < part.length; i++) {
        let c = part.charCodeAt(i);
        if (this.unicode && c >= 0xd800 && c <= 0xdbff && i + 1 < part.length) {
          const low = part.charCodeAt(i + 1);
          if (low >= 0xdc00 && low <= 0xdfff) {
            c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
            i++;
          }
        }
        chars.push(c);
      }
    }
    // Assertions read code units; an unknown or astral neighbour is stood for by a letter or a surrogate.
    const unit = (c: number | undefined): number =>
      c === undefined ? -1 : c < 0 ? 0x61 : c > 0xffff ? 0xd800 : c;
    let pending: number[] = [];
    for (let k = 0; ; k++) {
      const previous = k === 0 ? undefined : chars[k - 1];
      const c = chars[k];
      const unknown = (previous !== undefined && previous < 0) || (c !== undefined && c < 0);
      const closed = new Set<number>();
      // Search semantics: a match may start at any position.
      pending.push(0);
      if (this.closure(pending, unit(previous), unit(c), unknown, closed)) return true;
      if (c === undefined) return false;
      if (c >= 0) {
        pending = [];
        for (const pc of closed) if (this.consumes(pc, c)) pending.push(pc + 1);
        continue;
      }
      // An unknown part: every state reachable after one or more characters other than `/` and NUL.
      const reached = new Set<number>();
      let frontier: number[] = [];
      for (const pc of closed) if (this.consumes(pc, -1)) frontier.push(pc + 1);
      while (frontier.length > 0) {
        const fresh = frontier.filter((pc) => !reached.has(pc));
        for (const pc of fresh) reached.add(pc);
        const inside = new Set<number>();
        if (this.closure([...fresh, 0], 0x61, 0x61, true, inside)) return true;
        frontier = [];
        for (const pc of inside) if (this.consumes(pc, -1) && !reached.has(pc + 1)) frontier.push(pc + 1);
      }
      pending = [...reached];
    }
  }

  // -------------------------------------------------------------------------------------------------------
  // Lazy DFA: the sets of threads the VM would hold, made on demand and cached with their transitions, so a
  // pattern whose sets repeat costs one table lookup per character. Used when no assertion needs to look at
  // the characters around it (no `\b`, `\B`, no flag `m`): then `^` holds only at the start and `$` only at
  // the end, and a set of threads after a character depends on the set before it and that character alone.

  /** Whether the lazy DFA can run this program. */
  get dfaEligible(): boolean {
    if (this.dfaOk === undefined) {
      let ok = !this.multiline;
      for (let pc = 0; ok && pc < this.ops.length; pc++) {
        if (this.ops[pc] === OP_ASSERT && (this.argA[pc] as number) >= 2) ok = false;
      }
      this.dfaOk = ok;
    }
    return this.dfaOk;
  }

  private dfaOk: boolean | undefined;
  private dfaStates: DfaState[] = [];
  private dfaIndex = new Map<string, number>();
  private dfaSize = 0;
  private dfaRun = 0;

  /** ε-closure of `kernel` with `^` holding when `atStart` and `$` when `atEnd`; counts its steps in `work`. */
  private dfaClosure(
    kernel: Int32Array,
    atStart: boolean,
    atEnd: boolean,
  ): { closed: Int32Array; matched: boolean; steps: number } {
    const { ops, argA, argB, mark, stack } = this;
    const gen = this.nextGeneration();
    const closed: number[] = [];
    let steps = 0;
    let matched = false;
    for (let k = kernel.length - 1; k >= 0; k--) {
      let top = 0;
      stack[top++] = kernel[k] as number;
      while (top > 0) {
        const pc = stack[--top] as number;
        steps++;
        if (mark[pc] === gen) continue;
        mark[pc] = gen;
        switch (ops[pc]) {
          case OP_JMP:
            stack[top++] = argA[pc] as number;
            break;
          case OP_SPLIT:
            stack[top++] = argB[pc] as number;
            stack[top++] = argA[pc] as number;
            break;
          case OP_ASSERT:
            if ((argA[pc] === 0 && atStart) || (argA[pc] === 1 && atEnd)) stack[top++] = pc + 1;
            break;
          case OP_MATCH:
            matched = true;
            break;
          default:
            closed.push(pc);
        }
      }
    }
    closed.sort((a, b) => a - b);
    return { closed: Int32Array.from(closed), matched, steps };
  }

  /** The state for `kernel` (threads before their closure), made and cached on first use. */
  private dfaState(kernel: Int32Array, atStart: boolean): number {
    const key = `${atStart ? "^" : ""}${kernel.join(",")}`;
    const known = this.dfaIndex.get(key);
    if (known !== undefined) return known;
    if (this.dfaStates.length >= MAX_DFA_STATES || this.dfaSize > MAX_DFA_SIZE) {
      // Memory cap: start the cache afresh; the sets are made again as they are met.
      this.dfaStates = [];
      this.dfaIndex.clear();
      this.dfaSize = 0;
    }
    const { closed, matched, steps } = this.dfaClosure(kernel, atStart, false);
    const state: DfaState = {
      kernel,
      atStart,
      closed,
      matched,
      matchedAtEnd: undefined,
      // Weighted so that a unit is about as long as a VM thread step: the key, the sort, the arrays and the
      // transitions out of the state cost too.
      cost: steps + 3 * (kernel.length + closed.length) + 2 * closed.length,
      visit: 0,
      ascii: new Int32Array(128).fill(-1),
      other: undefined,
    };
    this.dfaSize += kernel.length + closed.length + 128;
    this.dfaIndex.set(key, this.dfaStates.length);
    this.dfaStates.push(state);
    return this.dfaStates.length - 1;
  }

  /**
   * The lazy DFA over `input`; undefined when the states it passes through cost more than `budget`. Each
   * distinct state counts its cost once per run, whether it was made now or found in the cache, so the
   * answer never depends on what earlier runs left behind.
   */
  runDfa(input: string, budget = Number.POSITIVE_INFINITY): boolean | undefined {
    const { unicode } = this;
    const anchored = this.shortcut.anchoredStart;
    const run = ++this.dfaRun;
    let spent = 0;
    let id = this.dfaState(Int32Array.of(0), true);
    let state = this.dfaStates[id] as DfaState;
    state.visit = run;
    spent += state.cost;
    const length = input.length;
    for (let pos = 0; pos < length; ) {
      if (state.matched) return true;
      if (anchored && state.closed.length === 0) return false;
      let c = input.charCodeAt(pos++);
      if (unicode && c >= 0xd800 && c <= 0xdbff && pos < length) {
        const low = input.charCodeAt(pos);
        if (low >= 0xdc00 && low <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
          pos++;
        }
      }
      let next = c < 128 ? (state.ascii[c] as number) : (state.other?.get(c) ?? -1);
      if (next < 0 || this.dfaStates[next] === undefined) {
        const kernel: number[] = anchored ? [] : [0];
        for (const pc of state.closed) if (this.consumes(pc, c)) kernel.push(pc + 1);
        const before = this.dfaStates.length;
        next = this.dfaState(Int32Array.from(kernel), false);
        // A reset of the cache dropped `state` itself: do not record the transition in a stale table.
        if (this.dfaStates.length > before || this.dfaStates[id] === state) {
          if (c < 128) state.ascii[c] = next;
          else {
            state.other ??= new Map();
            state.other.set(c, next);
          }
        }
      }
      id = next;
      state = this.dfaStates[id] as DfaState;
      if (state.visit !== run) {
        state.visit = run;
        spent += state.cost;
        if (spent > budget) return undefined;
      }
    }
    if (state.matched) return true;
    if (state.matchedAtEnd === undefined) {
      // `$` holds at the end: close the same threads again with it.
      state.matchedAtEnd = this.dfaClosure(state.kernel, state.atStart, true).matched;
    }
    return state.matchedAtEnd;
  }

  /**
   * The Pike VM over `input`; undefined when it would need more than `budget` thread steps (each thread on
   * each character is one).
   */
  run(input: string, budget = Number.POSITIVE_INFINITY): boolean | undefined {
    const { ops, argA, sets, asciiSets, table, unicode, shortcut } = this;
    const { prefix, anchoredStart } = shortcut;
    const length = input.length;
    let work = 0;
    if (anchoredStart && prefix !== "" && !input.startsWith(prefix)) return false;
    let current = this.listA;
    let next = this.listB;
    let currentLength = 0;
    let currentGen = 0;
    let pos = 0;
    for (;;) {
      if (currentLength === 0) {
        if (anchoredStart && pos > 0) return false;
        if (prefix !== "" && !anchoredStart) {
          const found = input.indexOf(prefix, pos);
          if (found < 0) return false;
          pos = found;
        }
        currentGen = this.nextGeneration();
      }
      if (!anchoredStart || pos === 0) {
        const added = this.addThread(current, currentLength, currentGen, 0, input, pos);
        if (added < 0) return true;
        currentLength = added;
      }
      if (pos >= length) return false;
      let c = input.charCodeAt(pos);
      let width = 1;
      if (unicode && c >= 0xd800 && c <= 0xdbff && pos + 1 < length) {
        const low = input.charCodeAt(pos + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
          width = 2;
        }
      }
      const folded = table === undefined ? c : foldCodePoint(c, table);
      // A thread on a character costs its step and the closure of its successor.
      work += 3 * currentLength + 1;
      if (work > budget) return undefined;
      const nextGen = this.nextGeneration();
      let nextLength = 0;
      const after = pos + width;
      for (let i = 0; i < currentLength; i++) {
        const pc = current[i] as number;
        const op = ops[pc];
        const hit =
          op === OP_CHAR
            ? folded === argA[pc]
            : op === OP_SET
              ? folded < 128
                ? asciiSets[((argA[pc] as number) << 7) + folded] === 1
                : (sets[argA[pc] as number] as CharSet).has(folded)
              : op === OP_ANY;
        if (hit) {
          nextLength = this.addThread(next, nextLength, nextGen, pc + 1, input, after);
          if (nextLength < 0) return true;
        }
      }
      const swap = current;
      current = next;
      next = swap;
      currentLength = nextLength;
      currentGen = nextGen;
      pos = after;
    }
  }
}

class CompiledRegex implements LinearRegex {
  constructor(
    readonly source: string,
    readonly flags: string,
    readonly machine: Machine,
    private readonly shortcut: Shortcut,
  ) {}

  test(input: string): boolean {
    const literal = this.shortcut.literal;
    if (literal !== undefined) {
      const { text, anchoredEnd } = literal;
      if (this.shortcut.anchoredStart) return anchoredEnd ? input === text : input.startsWith(text);
      return anchoredEnd ? input.endsWith(text) : input.includes(text);
    }
    return (this.machine.dfaEligible ? this.machine.runDfa(input) : this.machine.run(input)) === true;
  }

  testBounded(input: string): boolean | undefined {
    const literal = this.shortcut.literal;
    if (literal !== undefined) return this.test(input);
    const machine = this.machine;
    return machine.dfaEligible
      ? machine.runDfa(input, REGEX_WORK_BOUND)
      : machine.run(input, REGEX_WORK_BOUND);
  }

  mayMatchTemplate(template: readonly (string | null)[]): boolean {
    return this.machine.runTemplate(template);
  }
}

/**
 * The Thompson program of a compiled pattern, for running many patterns as one automaton (`regex-set.ts`):
 * three parallel arrays (opcode, first and second argument) ending in MATCH, the character sets that `SET`
 * instructions index, the fold table when the pattern has flag `i` (characters are folded before they are
 * compared), whether input is read as code points, and whether the pattern can only match at the start.
 */
export interface RegexProgram {
  readonly ops: Int32Array;
  readonly argA: Int32Array;
  readonly argB: Int32Array;
  readonly sets: readonly CharSet[];
  readonly table: FoldTable | undefined;
  readonly unicode: boolean;
  readonly anchoredStart: boolean;
}

/** Opcodes of {@link RegexProgram}. */
export const REGEX_OPS = Object.freeze({
  char: OP_CHAR,
  set: OP_SET,
  any: OP_ANY,
  split: OP_SPLIT,
  jmp: OP_JMP,
  assert: OP_ASSERT,
  match: OP_MATCH,
});

/**
 * The program of `regex` when its answers may come from a lazy DFA that reads each character once: a pattern of
 * this engine whose assertions look at no character (no `\b`, `\B`, no flag `m`) and that is not answered by
 * string methods alone. Undefined otherwise (the pattern is then best tested on its own).
 */
export function regexProgram(regex: LinearRegex): RegexProgram | undefined {
  if (!(regex instanceof CompiledRegex)) return undefined;
  const machine = regex.machine;
  if (machine.shortcut.literal !== undefined || !machine.dfaEligible) return undefined;
  return {
    ops: machine.ops,
    argA: machine.argA,
    argB: machine.argB,
    sets: machine.sets,
    table: machine.table,
    unicode: machine.unicode,
    anchoredStart: machine.shortcut.anchoredStart,
  };
}

/**
 * An upper bound of the work {@link LinearRegex.testBounded} spends on an input of `length` characters for a
 * program of `size` instructions: each of the at most `length + 1` distinct DFA states it passes costs at most
 * its kernel (size + 1), its closure's steps (2 × size more) and the weighting of both lists (see `dfaState`).
 * When this is within {@link REGEX_WORK_BOUND}, `testBounded` certainly answers true or false.
 */
export function regexWorkUpperBound(size: number, length: number): number {
  return (length + 1) * (11 * size + 4);
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

/**
 * Compiles `pattern` (JavaScript syntax, see the module comment for the subset) into a linear-time matcher.
 *
 * @param pattern - the regular expression source, without slashes.
 * @param flags - any of `i` (case-insensitive), `m` (multiline anchors), `s` (`.` matches line terminators),
 *   `u` (code points); each at most once. Stateful flags (`g`, `y`) and `d`/`v` are refused.
 * @returns `{ ok: true, regex }`, or `{ ok: false, message, offset }` where `offset` indexes `pattern` — or,
 *   for a flag problem, `flags`. Never throws.
 */
export function compileRegex(pattern: string, flags = ""): CompileRegexResult {
  const seen = new Set<string>();
  for (let i = 0; i < flags.length; i++) {
    const flag = flags[i] as string;
    if (!"imsu".includes(flag)) {
      const why =
        flag === "g" || flag === "y"
          ? "test() keeps no lastIndex state; remove it"
          : "only i, m, s and u are supported; remove it";
      return { ok: false, message: `unsupported flag "${flag}": ${why}`, offset: i };
    }
    if (seen.has(flag))
      return { ok: false, message: `flag "${flag}" is given twice; give it once`, offset: i };
    seen.add(flag);
  }
  const unicode = seen.has("u");
  const ignoreCase = seen.has("i");
  const multiline = seen.has("m");
  let root: Node;
  try {
    root = new Parser(pattern, unicode, seen.has("s"), ignoreCase).parse();
    programSize(root);
  } catch (error) {
    if (error instanceof RegexSyntaxError) return { ok: false, message: error.message, offset: error.offset };
    if (error instanceof TooLarge) {
      return {
        ok: false,
        message: `pattern too large: it compiles to more than ${MAX_REGEX_PROGRAM_SIZE} instructions (counted repetition such as {1000} is expanded); use smaller counts or * and +`,
        offset: error.offset,
      };
    }
    throw error;
  }
  const table = ignoreCase ? getFoldTable() : undefined;
  const emitter = new Emitter(table);
  emitter.emit(root);
  emitter.emitOp(OP_MATCH);
  const shortcut = findShortcut(root, unicode, multiline, ignoreCase);
  const machine = new Machine(emitter.code, emitter.sets, table, unicode, multiline, shortcut);
  return { ok: true, regex: new CompiledRegex(pattern, flags, machine, shortcut) };
}
