// Path globs for `glob` rules, matched against paths already normalised by `normalizePath`.
//
// A glob translates to a pattern of the linear-time engine in `regex/`, so matching never backtracks.
// Semantics (the reference the property tests check, written as segments):
// - Expand braces first: `{a,b}` gives one glob per alternative; alternatives may hold globs and nested
//   braces (`{a}` is one alternative). A glob starting with `/` (outside braces) is absolute; an alternative
//   at the start of a glob may not start with `/` (and `{,a}/x` matches `a/x` only: its empty alternative
//   leaves an empty first segment, which matches nothing).
// - Split the path and the glob at `/`; an absolute one starts with the root as an empty first segment.
// - `**` as a whole segment matches zero or more segments, the root included: `**/.env*` matches `.env`,
//   `a/.env.local`, `a/b/.env` and `/home/u/.env`; `src/**` and `src/**/**` match `src` itself and everything
//   below it. `**` inside a segment (`a**b`) is the same as `*`.
// - Every other glob segment matches exactly one path segment, never the root: `*` any run of characters
//   within it, `?` exactly one character (code point), `[abc]`, `[a-z]`, `[!a]` / `[^a]` one character, `\x`
//   the character `x`; anything else itself. `*` and `?` match dot files (unlike a shell). So a relative glob
//   matches an absolute path only through a leading `**` (`*/*.ts` does not match `/a.ts`, `src/*.ts` does not
//   match `/src/a.ts`). POSIX classes such as `[:alpha:]` are refused.
// - Matching is case-sensitive here and anchored to the whole path; `matchPathGlobs` (glob-paths.ts) adds the
//   readings of other platforms and case-insensitive file systems as a *maybe*.
// The root path `/` is the root segment alone: `/`, `/**` and `**` match it, `/*` does not.
// Globs with empty, `.` or `..` segments (`a//b`, `./src`, `a/`) are refused: they could never match a
// normalised path.

import { InternalError } from "../errors.js";
import { foldString, fullFoldString } from "./case-fold.js";
import { compileRegex, type LinearRegex } from "./regex/index.js";

/** A compiled glob. */
export interface Glob {
  /** The glob as given. */
  readonly source: string;
  /** True when the whole of `normalizedPath` matches the glob. */
  test(normalizedPath: string): boolean;
  /**
   * True when the path matches exactly, or comparing with Unicode simple case folding, or matches the glob's
   * NFC spelling; `foldedPath` is `foldString(normalizedPath)`.
   */
  mayMatch(normalizedPath: string, foldedPath?: string): boolean;
  /**
   * True when some path the template stands for may match as {@link Glob.mayMatch} does: a `null` part is an
   * unknown segment name. The template starts with `/` when the path is absolute.
   */
  mayMatchTemplate(template: readonly (string | null)[]): boolean;
}

/** Result of {@link compileGlob}; `offset` is the code-unit index in the glob of the problem. */
export type CompileGlobResult =
  | { readonly ok: true; readonly glob: Glob }
  | { readonly ok: false; readonly message: string; readonly offset: number };

const MAX_BRACE_DEPTH = 10;
/** Any character, `/` and the root included. */
const ANY = "[^]";
/** The root of an absolute path, as {@link rootedPath} spells it. */
const ROOT = "\\u{0}";

/** The spelling the compiled pattern reads: the root of an absolute path as a NUL segment of its own. */
export function rootedPath(path: string): string {
  if (path.charCodeAt(0) !== 0x2f) return path;
  return path.length === 1 ? "\0" : `\0${path}`;
}

class GlobSyntaxError {
  constructor(
    readonly message: string,
    readonly offset: number,
  ) {}
}

/** A code point as the pattern engine reads it literally, inside a class or out (`\u{61}` is `a`). */
function escapeCodePoint(cp: number): string {
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

/**
 * The glob with each escaped `/` written as a plain `/`: a path has no `/` but its separator,
 * so `a\/**` is `a/**` in every way (it matches `a` too, and `a\//b` has an empty segment). `at` holds the
 * offsets, in `text`, of the slashes that were escaped.
 */
function readEscapedSlashes(src: string): { text: string; at: number[] } {
  // Inside brackets too: `[\/]` and `[/]` are the same class (of no character a path segment holds).
  let text = "";
  const at: number[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i] as string;
    if (c === "\\" && src[i + 1] === "/") {
      at.push(text.length);
      text += "/";
      i += 2;
    } else if (c === "\\") {
      text += src.slice(i, i + 2);
      i += 2;
    } else {
      text += c;
      i++;
    }
  }
  return { text, at };
}

/** Refuses empty, `.` and `..` segments, which can never match a normalised path. */
function checkSegments(src: string): void {
  let segmentStart = 0;
  let i = 0;
  const check = (end: number): void => {
    const segment = src.slice(segmentStart, end);
    // An empty first segment is the root of an absolute glob (the glob itself is never empty).
    if (segment === "" && segmentStart !== 0) {
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
      i = end === -1 ? i + 1 : end;
    } else if (c === "/") {
      check(i);
      i++;
      segmentStart = i;
    } else i++;
  }
  check(src.length);
}

/**
 * Translates a glob into the source of an anchored pattern for the linear-time engine (flag `u`), over paths
 * spelt with the root as a segment of its own: `/a/b` is matched as NUL + `/a/b` and `/` as NUL alone (see
 * {@link rootedPath}). No glob element but `**` matches the NUL, so only a leading `**` crosses the root and a
 * first segment that can be empty (`*` in a relative `*` + `/*.ts`) never reads the root as an empty segment.
 */
class Translator {
  private pos = 0;
  private depth = 0;

  constructor(private readonly src: string) {}

  translate(): string {
    if (this.src === "/") return `^${ROOT}$`;
    checkSegments(this.src);
    const body = this.sequence(false, true, false, true);
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

  /** True when a `**` at `i` is a whole segment: followed by `/` or by the end of the sequence. */
  private isDoubleStarSegment(i: number, inBrace: boolean): boolean {
    return this.src.startsWith("**", i) && (this.src[i + 2] === "/" || this.endsSequence(i + 2, inBrace));
  }

  /**
   * One sequence: the whole glob, or one alternative inside braces (which ends at `,` or `}`).
   * A `/` is emitted with the segment after it (`slashPending`), so that a whole-segment `**` after it can
   * take the slash too and match zero segments: `a/**` matches `a`, `a/**` + `/b` matches `a/b`, and so do
   * `a/{**,x}` and `secrets/**` + `/**`. `segmentStart` says whether the sequence begins a path segment;
   * `globStart` whether it begins the glob, where a `/` is the root.
   */
  private sequence(
    inBrace: boolean,
    segmentStart: boolean,
    slashPending: boolean,
    globStart: boolean,
  ): string {
    let out = "";
    let atSegmentStart = segmentStart;
    let pending = slashPending;
    let atGlobStart = globStart;
    for (;;) {
      const start = this.pos;
      const c = this.peek();
      if (c === -1 || c === 0x7d /* } */ || (inBrace && c === 0x2c) /* , */) break;
      if (c === 0x2f /* / */) {
        if (atGlobStart && inBrace) {
          throw new GlobSyntaxError(
            "a brace alternative at the start of the glob starts with /: an absolute glob starts with / outside braces; write /{a,b}/** or one glob per alternative",
            start,
          );
        }
        if (atGlobStart) out += ROOT;
        if (pending) out += "/";
        this.pos++;
        // The pending slash decides how the next element starts (`atSegmentStart` is read only without one);
        // `atGlobStart` stays unread until that element: checkSegments refuses two `/` in a row.
        pending = true;
        continue;
      }
      const wasGlobStart = atGlobStart;
      atGlobStart = false;
      if (pending && this.isDoubleStarSegment(start, inBrace)) {
        // `/**`: zero or more segments, each with its slash; a `/` after it belongs to the next segment.
        this.pos = start + 2;
        out += `(?:/${ANY}*)?`;
        pending = false;
        continue;
      }
      if (pending && c === 0x7b /* { */) {
        out += this.braces(true, true, false)[0];
        pending = false;
        atSegmentStart = false;
        continue;
      }
      if (pending) out += "/";
      pending = false;
      const [text, nextAtSegmentStart] = this.atom(atSegmentStart, inBrace, wasGlobStart);
      out += text;
      atSegmentStart = nextAtSegmentStart;
    }
    if (pending) out += "/";
    return out;
  }

  /** Translates one glob element at `pos`; returns its regex text and whether the next element starts a segment. */
  private atom(atSegmentStart: boolean, inBrace: boolean, atGlobStart: boolean): [string, boolean] {
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
          return [`[^/${ROOT}]*`, false];
        }
      case 0x3f /* ? */:
        this.pos++;
        return [`[^/${ROOT}]`, false];
      case 0x5b /* [ */:
        return [this.bracket(), false];
      case 0x7b /* { */:
        return this.braces(atSegmentStart, false, atGlobStart);
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
    if (end === -1)
      throw new GlobSyntaxError("unterminated [: add the closing ] or escape the [ as \\[", start);
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
      items += `${escapeCodePoint(lo)}-${escapeCodePoint(hi)}`;
    };
    while (this.pos < end - 1) {
      const itemStart = this.pos;
      let lo = readChar();
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
      // A bracket never matches `/` or the root: cut them out of the range.
      if (lo === 0) lo = 1;
      if (lo <= 0x2f && hi >= 0x2f) {
        add(lo, 0x2e);
        add(0x30, hi);
      } else add(lo, hi);
    }
    this.pos = end;
    // `[]` (nothing but `/` listed) matches nothing.
    return negated ? `[^/${ROOT}${items}]` : `[${items}]`;
  }

  /**
   * `{a,b,...}`: alternatives. Returns the pattern and whether it took the `/` after the braces: when an
   * alternative is a whole first segment `**` (`{**,a}/b`), that `/` goes into every alternative so that `**`
   * can take it too and match zero segments.
   */
  private braces(segmentStart: boolean, slashPending: boolean, globStart: boolean): [string, boolean] {
    const start = this.pos;
    this.pos++; // {
    this.depth++;
    if (this.depth > MAX_BRACE_DEPTH) {
      throw new GlobSyntaxError(`braces nested more than ${MAX_BRACE_DEPTH} deep: simplify the glob`, start);
    }
    const alternatives: string[] = [];
    let doubleStar = false;
    for (;;) {
      const alternativeStart = this.pos;
      alternatives.push(this.sequence(true, segmentStart, slashPending, globStart));
      doubleStar ||= this.src.slice(alternativeStart, this.pos) === "**";
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
    if (segmentStart && !slashPending && this.peek() === 0x2f && doubleStar) {
      // `{**,a}/` is `**/`: zero or more whole segments, each with its slash, which every other alternative
      // followed by the `/` is too.
      this.pos++;
      return [`(?:${ANY}*/)?`, true];
    }
    return [`(?:${alternatives.join("|")})`, false];
  }
}

const WILDCARD = /[*?[\]{}\\]/;

/** The literal prefix and suffix of a (rooted) glob: up to the first and from the last wildcard, less one `/`. */
function literalEnds(pattern: string): { prefix: string; suffix: string } {
  const first = pattern.search(WILDCARD);
  if (first === -1) return { prefix: pattern, suffix: pattern };
  let last = -1;
  for (let i = pattern.length - 1; i >= 0; i--) {
    if (WILDCARD.test(pattern[i] as string)) {
      last = i;
      break;
    }
  }
  return {
    prefix: pattern.slice(0, first).replace(/\/$/, ""),
    suffix: pattern.slice(last + 1).replace(/^\//, ""),
  };
}

/**
 * A compiled glob behind a literal prefix and suffix check: most paths fail on those before the matcher runs.
 * The literal parts stop at the first and last wildcard, less one `/` at each end (`**` may absorb a `/`:
 * `a/**` matches `a`), so the check never rejects a path the glob matches.
 */
export class CompiledGlob implements Glob {
  private folded: LinearRegex | undefined;
  readonly prefix: string;
  readonly suffix: string;
  readonly foldedPrefix: string;
  readonly foldedSuffix: string;

  constructor(
    readonly source: string,
    readonly exact: LinearRegex,
    /** The glob spelt in NFC, when that differs (a file system may store either spelling). */
    readonly nfc: CompiledGlob | undefined,
    /**
     * The glob in full case folding, when that differs from simple folding (`straße` is `strasse`, `ﬁle` is
     * `file`): APFS and NTFS-style comparisons may open the same file for a path spelt that way.
     */
    readonly full: CompiledGlob | undefined = undefined,
  ) {
    const { prefix, suffix } = literalEnds(rootedPath(source));
    this.prefix = prefix;
    this.suffix = suffix;
    this.foldedPrefix = foldString(prefix);
    this.foldedSuffix = foldString(suffix);
  }

  test(normalizedPath: string): boolean {
    const path = rootedPath(normalizedPath);
    return path.startsWith(this.prefix) && path.endsWith(this.suffix) && this.exact.test(path);
  }

  mayMatch(normalizedPath: string, foldedPath = foldString(normalizedPath)): boolean {
    if (this.test(normalizedPath)) return true;
    const path = rootedPath(normalizedPath);
    const folded = rootedPath(foldedPath);
    if (
      folded.startsWith(this.foldedPrefix) &&
      folded.endsWith(this.foldedSuffix) &&
      this.ignoringCase().test(path)
    ) {
      return true;
    }
    if (this.nfc?.mayMatch(normalizedPath, foldedPath)) return true;
    return this.full?.mayMatch(fullFoldString(normalizedPath)) ?? false;
  }

  mayMatchTemplate(template: readonly (string | null)[]): boolean {
    const rooted = [...template];
    if (template[0] === "/") rooted[0] = template.length > 1 ? "\0/" : "\0";
    if (this.exact.mayMatchTemplate(rooted) || this.ignoringCase().mayMatchTemplate(rooted)) return true;
    if (this.nfc?.mayMatchTemplate(template)) return true;
    return (
      this.full?.mayMatchTemplate(template.map((part) => (part === null ? null : fullFoldString(part)))) ??
      false
    );
  }

  /** The glob's pattern compiled with flag `i` too, made on first need. */
  ignoringCase(): LinearRegex {
    this.folded ??= compileIgnoringCase(this);
    return this.folded;
  }
}

function compileIgnoringCase(glob: CompiledGlob): LinearRegex {
  const compiled = compileRegex(glob.exact.source, "iu");
  // The same source compiled with `u` alone; adding `i` cannot make it fail.
  if (!compiled.ok) throw new InternalError(`glob ${glob.source}: ${compiled.message}`);
  return compiled.regex;
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
  const slashes = readEscapedSlashes(pattern);
  let source: string;
  try {
    source = new Translator(slashes.text).translate();
  } catch (error) {
    if (error instanceof GlobSyntaxError) {
      // Offsets in the original glob: each `\/` read as `/` before the offset took one more code unit.
      const offset = error.offset + slashes.at.filter((t) => t < error.offset).length;
      return { ok: false, message: error.message, offset };
    }
    throw error;
  }
  const compiled = compileRegex(source, "u");
  if (!compiled.ok) {
    return { ok: false, message: `the glob is too complex: ${compiled.message}`, offset: 0 };
  }
  const nfcPattern = pattern.normalize("NFC");
  const nfc = nfcPattern === pattern ? undefined : compileGlob(nfcPattern);
  // The full case folding of the glob, when it names other paths than the simple one; the full folding of that
  // is itself, so this recursion ends at once.
  const fullPattern = fullFoldString(pattern);
  const full = foldString(fullPattern) === foldString(pattern) ? undefined : compileGlob(fullPattern);
  return {
    ok: true,
    glob: new CompiledGlob(
      pattern,
      compiled.regex,
      nfc?.ok ? (nfc.glob as CompiledGlob) : undefined,
      full?.ok ? (full.glob as CompiledGlob) : undefined,
    ),
  };
}
