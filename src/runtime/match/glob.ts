// Path globs for `glob` rules, matched against paths already normalised by `normalizePath`.
//
// A glob translates to a pattern of the linear-time engine in `regex.ts`, so matching never backtracks.
// Semantics:
// - `**` as a whole segment matches zero or more segments: `**/.env*` matches `.env`, `a/.env.local` and
//   `a/b/.env`; `src/**` matches `src` itself and everything below it. A leading `**` also crosses the root, so
//   `**/.env` matches `/home/u/.env` too. `**` inside a segment (`a**b`) is the same as `*`.
// - `*` matches any run of characters within one segment, `?` exactly one character (code point) other than
//   `/`. Both match dot files (unlike a shell).
// - `[abc]`, `[a-z]`, `[!a]` / `[^a]`: one character, never `/`. POSIX classes such as `[:alpha:]` are refused.
// - `{a,b}`: alternatives, which may themselves hold globs and nested braces (`{a}` is one alternative).
// - `\x` matches `x` literally.
// Matching is case-sensitive and anchored to the whole path. A glob starting with `/` matches absolute paths
// only; other globs are anchored at the start of the path (`src/*.ts` does not match `/src/a.ts`), except that
// a leading `**` matches any leading directories, the root included.
// Globs with empty, `.` or `..` segments (`a//b`, `./src`, `a/`) are refused: they could never match a
// normalised path.

import { compileRegex, type LinearRegex } from "./regex.js";

/** A compiled glob. */
export interface Glob {
  /** The glob as given. */
  readonly source: string;
  /** True when the whole of `normalizedPath` matches the glob. */
  test(normalizedPath: string): boolean;
}

/** Result of {@link compileGlob}; `offset` is the code-unit index in the glob of the problem. */
export type CompileGlobResult =
  | { readonly ok: true; readonly glob: Glob }
  | { readonly ok: false; readonly message: string; readonly offset: number };

const MAX_BRACE_DEPTH = 10;
/** Any character, `/` included. */
const ANY = "[^]";

class GlobSyntaxError {
  constructor(
    readonly message: string,
    readonly offset: number,
  ) {}
}

function escapeCodePoint(cp: number): string {
  const isAlphanumeric =
    (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a);
  if (isAlphanumeric || cp === 0x2f) return String.fromCodePoint(cp);
  return `\\u{${cp.toString(16)}}`;
}

/** Offset just past the `[...]` starting at `start`, or -1 when it is unterminated (same rules as `bracket`). */
function bracketEnd(src: string, start: number): number {
  let i = start + 1;
  if (src[i] === "!" || src[i] === "^") i++;
  let first = true;
  while (i < src.length) {
    const c = src[i];
    if (c === "]" && !first) return i + 1;
    first = false;
    i += c === "\\" ? 2 : 1;
  }
  return -1;
}

/** Refuses empty, `.` and `..` segments, which can never match a normalised path. */
function checkSegments(src: string): void {
  let segmentStart = 0;
  let i = 0;
  const check = (end: number): void => {
    const segment = src.slice(segmentStart, end);
    if (segment === "" && !(segmentStart === 0 && end < src.length)) {
      throw new GlobSyntaxError(
        end === src.length
          ? "the glob ends with /: paths are compared without a trailing /; remove it"
          : "empty path segment (//): paths are compared with single slashes; remove one",
        end,
      );
    }
    if (segment === "." || segment === "..") {
      throw new GlobSyntaxError(
        `a "${segment}" segment never matches a normalised path (paths are normalised before matching): remove it`,
        segmentStart,
      );
    }
  };
  while (i < src.length) {
    const c = src[i];
    if (c === "\\") i += 2;
    else if (c === "[") {
      const end = bracketEnd(src, i);
      i = end < 0 ? i + 1 : end;
    } else if (c === "/") {
      check(i);
      i++;
      segmentStart = i;
    } else i++;
  }
  check(src.length);
}

/** Translates a glob into the source of an anchored pattern for the linear-time engine (flag `u`). */
class Translator {
  private pos = 0;
  private depth = 0;

  constructor(private readonly src: string) {}

  translate(): string {
    if (this.src === "/") return "^/$";
    checkSegments(this.src);
    const body = this.sequence(false, true);
    if (this.pos < this.src.length) {
      // Only a `}` outside braces stops the top-level sequence.
      throw new GlobSyntaxError("lone }: escape a literal } as \\}", this.pos);
    }
    return `^${body}$`;
  }

  private peek(offset = 0): number {
    const i = this.pos + offset;
    return i < this.src.length ? (this.src.codePointAt(i) as number) : -1;
  }

  /** True when offset `i` ends the glob, or (inside braces) the current alternative. */
  private endsSequence(i: number, inBrace: boolean): boolean {
    if (i >= this.src.length) return true;
    const c = this.src[i];
    return inBrace && (c === "," || c === "}");
  }

  /**
   * One sequence: the whole glob, or one alternative inside braces (which ends at `,` or `}`).
   * `segmentStart` says whether the sequence begins a path segment, where `**` is special.
   */
  private sequence(inBrace: boolean, segmentStart: boolean): string {
    let out = "";
    let atSegmentStart = segmentStart;
    for (;;) {
      const start = this.pos;
      const c = this.peek();
      if (c === -1 || c === 0x7d /* } */ || (inBrace && c === 0x2c) /* , */) break;
      if (c === 0x2f /* / */) {
        if (this.src.startsWith("**", start + 1) && this.endsSequence(start + 3, inBrace)) {
          // A final `/**`: the directory itself or anything below it.
          this.pos += 3;
          out += `(?:/${ANY}*)?`;
          atSegmentStart = false;
        } else {
          this.pos++;
          out += "/";
          atSegmentStart = true;
        }
        continue;
      }
      const [text, nextAtSegmentStart] = this.atom(atSegmentStart, inBrace);
      out += text;
      atSegmentStart = nextAtSegmentStart;
    }
    return out;
  }

  /** Translates one glob element at `pos`; returns its regex text and whether the next element starts a segment. */
  private atom(atSegmentStart: boolean, inBrace: boolean): [string, boolean] {
    const start = this.pos;
    const c = this.peek();
    switch (c) {
      case 0x2a /* * */:
        {
          if (atSegmentStart && this.peek(1) === 0x2a) {
            const after = start + 2;
            if (this.src[after] === "/") {
              // `**/`: zero or more whole segments, each with its slash.
              this.pos = after + 1;
              return [`(?:${ANY}*/)?`, true];
            }
            if (this.endsSequence(after, inBrace)) {
              this.pos = after;
              return [`${ANY}*`, false];
            }
          }
          while (this.peek() === 0x2a) this.pos++;
          return ["[^/]*", false];
        }
      case 0x3f /* ? */:
        this.pos++;
        return ["[^/]", false];
      case 0x5b /* [ */:
        return [this.bracket(), false];
      case 0x7b /* { */:
        return [this.braces(atSegmentStart), false];
      case 0x5c /* backslash */:
        {
          const escaped = this.peek(1);
          if (escaped === -1) {
            throw new GlobSyntaxError(
              "the glob ends with a lone \\: escape a literal backslash as \\\\",
              start,
            );
          }
          this.pos += escaped > 0xffff ? 3 : 2;
          return [escapeCodePoint(escaped), escaped === 0x2f];
        }
      default:
        this.pos += c > 0xffff ? 2 : 1;
        return [escapeCodePoint(c), false];
    }
  }

  /** `[...]`: one character other than `/`. */
  private bracket(): string {
    const start = this.pos;
    const end = bracketEnd(this.src, start);
    if (end < 0) throw new GlobSyntaxError("unterminated [: add the closing ] or escape the [ as \\[", start);
    this.pos++; // [
    let negated = false;
    if (this.peek() === 0x21 /* ! */ || this.peek() === 0x5e /* ^ */) {
      negated = true;
      this.pos++;
    }
    const readChar = (): number => {
      const c = this.peek();
      if (c === 0x5b && this.peek(1) === 0x3a /* : */) {
        throw new GlobSyntaxError(
          "POSIX classes such as [:alpha:] are not supported: list the characters",
          this.pos,
        );
      }
      if (c === 0x5c /* \ */) {
        const escaped = this.peek(1);
        this.pos += escaped > 0xffff ? 3 : 2;
        return escaped;
      }
      this.pos += c > 0xffff ? 2 : 1;
      return c;
    };
    let items = "";
    const add = (lo: number, hi: number): void => {
      if (lo > hi) return;
      items += lo === hi ? escapeCodePoint(lo) : `${escapeCodePoint(lo)}-${escapeCodePoint(hi)}`;
    };
    while (this.pos < end - 1) {
      const itemStart = this.pos;
      const lo = readChar();
      let hi = lo;
      if (this.peek() === 0x2d /* - */ && this.pos + 1 < end - 1) {
        this.pos++;
        hi = readChar();
        if (lo > hi) {
          throw new GlobSyntaxError(
            "range out of order in [...]: write the smaller character first",
            itemStart,
          );
        }
      }
      // A bracket never matches `/`: cut it out of the range.
      if (lo <= 0x2f && hi >= 0x2f) {
        add(lo, 0x2e);
        add(0x30, hi);
      } else add(lo, hi);
    }
    this.pos = end;
    if (negated) return `[^/${items}]`;
    return items === "" ? "[]" : `[${items}]`;
  }

  /** `{a,b,...}`: alternatives. */
  private braces(segmentStart: boolean): string {
    const start = this.pos;
    this.pos++; // {
    this.depth++;
    if (this.depth > MAX_BRACE_DEPTH) {
      throw new GlobSyntaxError(`braces nested more than ${MAX_BRACE_DEPTH} deep: simplify the glob`, start);
    }
    const alternatives: string[] = [];
    for (;;) {
      alternatives.push(this.sequence(true, segmentStart));
      const c = this.peek();
      if (c === 0x2c /* , */) {
        this.pos++;
        continue;
      }
      if (c === 0x7d /* } */) {
        this.pos++;
        break;
      }
      throw new GlobSyntaxError("unterminated {: add the closing } or escape the { as \\{", start);
    }
    this.depth--;
    return `(?:${alternatives.join("|")})`;
  }
}

class CompiledGlob implements Glob {
  constructor(
    readonly source: string,
    private readonly regex: LinearRegex,
  ) {}

  test(normalizedPath: string): boolean {
    return this.regex.test(normalizedPath);
  }
}

/**
 * Compiles a path glob (syntax in the module comment) into a linear-time matcher.
 *
 * @param pattern - the glob, for example `src/{lib,bin}/*.ts` or `secrets/**`.
 * @returns `{ ok: true, glob }`, or `{ ok: false, message, offset }` with the code-unit offset of the problem
 *   (an unterminated `[` or `{`, a trailing `\`, an empty/`.`/`..` segment, an empty glob). Never throws.
 */
export function compileGlob(pattern: string): CompileGlobResult {
  if (pattern.length === 0)
    return { ok: false, message: "the glob is empty: write a pattern such as **/*.ts", offset: 0 };
  let source: string;
  try {
    source = new Translator(pattern).translate();
  } catch (error) {
    if (error instanceof GlobSyntaxError) return { ok: false, message: error.message, offset: error.offset };
    throw error;
  }
  const compiled = compileRegex(source, "u");
  if (!compiled.ok) {
    return { ok: false, message: `the glob is too complex: ${compiled.message}`, offset: 0 };
  }
  return { ok: true, glob: new CompiledGlob(pattern, compiled.regex) };
}
