/**
 * Path operators (`glob`, `path_prefix`) as automata, exactly, on the paths every platform reads alike: the
 * *simple* paths — segments of ASCII letters, digits, `_`, `-` and `.`, none empty or ending in `.`, joined by
 * single `/`, relative or absolute. On a simple relative path a glob's answer is certain when the glob matches it
 * and possible when it matches ignoring case; on a simple absolute path, and on a relative one with a segment that
 * names a Windows device (`src/con/a.ts`: the runtime reads it as written, but not as plain), it is at most
 * possible (DESIGN.md §4.5). Every other spelling (backslashes, `..`, case-unstable letters, streams, short
 * names) is read by the runtime in several ways at once; the verifier does not model those readings and leaves
 * such paths to facts that hold whatever the reading (see `facts.ts`).
 */
import { compileGlob, type Glob } from "../runtime/match/glob.js";
import type { Alphabet, AlphabetBuilder } from "./alphabet.js";
import {
  afterSymbol,
  complement,
  constant,
  type Dfa,
  intersect,
  isSubset,
  literals,
  subtract,
  TooComplex,
  union,
} from "./dfa.js";
import { RegexLanguage } from "./regex-language.js";

/** What the path languages read of the automata of their alphabet (`Automata` in automata.ts, which makes them). */
export interface PathAutomata {
  readonly alphabet: Alphabet;
  pattern(pattern: string, flags: string): Dfa;
  memo(key: string, make: () => Dfa): Dfa;
}

const SEGMENT = "(?:[A-Za-z0-9_.\\-]*[A-Za-z0-9_\\-])";
const RELATIVE = `^${SEGMENT}(?:/${SEGMENT})*$`;
const ABSOLUTE = `^/(?:${SEGMENT}(?:/${SEGMENT})*)?$`;
const DEVICE = "(?:^|/)(?:con|prn|aux|nul|com[0-9]|lpt[0-9])(?:\\.[^/]*)?(?:/|$)";

/** A code point written so the regex parser reads it literally. */
function literal(text: string): string {
  let out = "";
  for (const ch of text) out += `\\u{${(ch.codePointAt(0) as number).toString(16)}}`;
  return out;
}

/** The glob's compiled patterns (the runtime's own translation), read from the compiled glob. */
interface GlobPatterns {
  readonly exact: { readonly source: string };
  readonly nfc?: GlobPatterns;
}

/** The patterns (over rooted path text, see `glob.ts`) a glob is matched with: exact and NFC-spelt. */
function globSources(glob: Glob): string[] {
  const out: string[] = [];
  let current: GlobPatterns | undefined = glob as unknown as GlobPatterns;
  while (current !== undefined) {
    out.push(current.exact.source);
    current = current.nfc;
  }
  return out;
}

/** Cuts the alphabet at the boundaries of a pattern's character tests (see `RegexLanguage.addBoundaries`). */
function cut(builder: AlphabetBuilder, pattern: string, flags: string): void {
  RegexLanguage.parse(pattern, flags)?.addBoundaries(builder);
}

/** Cuts the alphabet for a pattern read exactly and ignoring case, as an operator's languages read it. */
function cutBothCases(builder: AlphabetBuilder, pattern: string): void {
  cut(builder, pattern, "u");
  cut(builder, pattern, "iu");
}

/** The languages of one path operator: over raw strings in the simple subset, and over normalised readings. */
export interface PathOperatorLanguages {
  /** Simple paths the operator certainly matches. */
  readonly certain: Dfa;
  /** Simple paths the operator may match (a superset of `certain`). */
  readonly possible: Dfa;
  /**
   * Strings, modelled or not, on which the operator is never false: a `path_prefix` on a string that starts with its
   * text as written; a glob that may match every absolute reading on a string that starts with `/` (every reading
   * of it is absolute, `/../x` included).
   */
  readonly neverFalse: Dfa;
  /**
   * Strings, modelled or not, on which the operator may be true: only a plain path is (path.ts `readPath`), and none
   * starts with `/` or `~` or holds `\` or `:`; for a `path_prefix`, only one in normal form.
   */
  readonly certainAnywhere: Dfa;
}

/** The path languages of one verification: the simple subset and the operators' languages on it. */
export class PathLanguages {
  /** The simple relative paths an operator may be certain of: none with a segment that names a device. */
  readonly relative: Dfa;
  readonly absolute: Dfa;
  /** Every simple path. */
  readonly simple: Dfa;
  /** Every simple relative path, a device's name among its segments or not. */
  readonly #relativeAll: Dfa;
  readonly #automata: PathAutomata;
  readonly #nul: number;

  constructor(automata: PathAutomata) {
    this.#automata = automata;
    this.#relativeAll = automata.pattern(RELATIVE, "u");
    this.relative = intersect(this.#relativeAll, complement(automata.pattern(DEVICE, "iu")));
    this.absolute = automata.pattern(ABSOLUTE, "u");
    this.simple = union(this.#relativeAll, this.absolute);
    this.#nul = automata.alphabet.symbolOf(0);
  }

  /** Cuts the alphabet for the simple subset and for the given globs and prefixes. */
  static addBoundaries(
    builder: AlphabetBuilder,
    globs: readonly string[],
    prefixes: readonly string[],
  ): void {
    for (const pattern of [RELATIVE, ABSOLUTE, DEVICE])
      cut(builder, pattern, pattern === DEVICE ? "iu" : "u");
    builder.addPoint(0);
    builder.addPoint(0x2f);
    builder.addPoint(0x2e);
    // `\`, `:` and a leading `~` keep a path from being plain (see `#plainAnywhere`).
    for (const c of "\\:~ ") builder.addPoint(c.codePointAt(0) as number);
    for (const g of globs) {
      const compiled = compileGlob(g);
      if (!compiled.ok) continue;
      for (const source of globSources(compiled.glob)) cutBothCases(builder, source);
    }
    for (const p of prefixes) cutBothCases(builder, `^${literal(p)}`);
  }

  /** The simple paths whose rooted spelling (`\0/a` for `/a`, `\0` for `/`) a pattern over rooted text accepts. */
  #raw(rooted: Dfa, certainOnly: boolean): Dfa {
    const relative = intersect(certainOnly ? this.relative : this.#relativeAll, rooted);
    if (certainOnly) return relative;
    const after = afterSymbol(rooted, this.#nul);
    let absolute = intersect(this.absolute, after);
    // `/` alone is the root: its rooted spelling is `\0` alone.
    const rootAccepted = after.accept[after.start] === 1;
    const root = literals(this.#automata.alphabet, ["/"]);
    absolute = rootAccepted ? union(absolute, root) : intersect(absolute, complement(root));
    return union(relative, absolute);
  }

  /** A glob operator (one glob or a list): certain on simple relative paths, possible on every simple path. */
  glob(patterns: readonly string[]): PathOperatorLanguages {
    const readings = this.globReadings(patterns);
    // Every rooted reading (`\0` then anything): a glob that may match each may match any string starting with `/`.
    const everyAbsolute = this.#parse("^\\u0000(?:/[\\s\\S]*)?$", "u");
    let neverFalse = isSubset(everyAbsolute, readings.possible)
      ? this.#parse("^/", "u")
      : constant(this.#automata.alphabet.size, false);
    for (const g of patterns) {
      const last = this.#lastSegment(g) ?? this.#folderSegment(g) ?? this.#underFolder(g);
      if (last !== undefined) neverFalse = union(neverFalse, last);
    }
    const last = this.#certainLast(patterns);
    return {
      certain: this.#raw(readings.certain, true),
      possible: this.#raw(readings.possible, false),
      neverFalse,
      certainAnywhere: last === undefined ? this.#plainAnywhere() : intersect(this.#plainAnywhere(), last),
    };
  }

  /**
   * The strings whose last `/`-separated segment, as written, one of the globs' last parts matches exactly, or whose
   * last segment is empty, `.` or `..` (the normal form then ends otherwise): a glob is certain only of a plain path
   * whose normal form it matches, and otherwise the normal form keeps the written last segment. Undefined when a
   * glob's last part is not read here (`**`, an escape, a brace holding `/`, a negated entry).
   */
  #certainLast(patterns: readonly string[]): Dfa | undefined {
    const parts: string[] = [];
    for (const g of patterns) {
      if (g.startsWith("!")) return undefined;
      const part = globSegmentPattern(g.slice(g.lastIndexOf("/") + 1));
      if (part === undefined) return undefined;
      parts.push(part);
    }
    if (parts.length === 0) return undefined;
    return this.#parse(`(?:^|/)(?:${parts.join("|")}|\\.{0,2})$`, "u");
  }

  /**
   * A glob operator over normalised, rooted reading texts (as `glob.ts` matches them): `certain` its exact
   * patterns, `possible` those and the NFC-spelt ones, each also ignoring case.
   */
  globReadings(patterns: readonly string[]): { readonly certain: Dfa; readonly possible: Dfa } {
    const key = `globs\u0000${JSON.stringify(patterns)}`;
    const certain = this.#automata.memo(`${key}\u0000certain`, () => this.#globUnion(patterns, false));
    const possible = this.#automata.memo(`${key}\u0000possible`, () => this.#globUnion(patterns, true));
    return { certain, possible };
  }

  #globUnion(patterns: readonly string[], possible: boolean): Dfa {
    const k = this.#automata.alphabet.size;
    let out = constant(k, false);
    for (const g of patterns) {
      const compiled = compileGlob(g);
      if (!compiled.ok) throw new TooComplex(`glob ${g} does not compile: ${compiled.message}`);
      const sources = globSources(compiled.glob);
      // glob.test reads the exact pattern; mayMatch also the NFC spelling, each exactly and ignoring case.
      if (!possible) out = union(out, this.#parse(sources[0] as string, "u"));
      else {
        for (const source of sources) {
          out = union(out, this.#parse(source, "u"));
          out = union(out, this.#parse(source, "iu"));
        }
      }
    }
    return out;
  }

  /** A `path_prefix` operator: certain on simple relative paths that start with it, possible ignoring case. */
  pathPrefix(prefix: string): PathOperatorLanguages {
    // A prefix ending in `/` names a folder: the folder itself (`secrets`) as well as everything under it.
    const folder = prefix.length > 1 && prefix.endsWith("/") ? prefix.slice(0, -1) : undefined;
    const source = `^${literal(prefix)}${folder === undefined ? "" : `|^${literal(folder)}$`}`;
    const exact = this.#parse(source, "u");
    const folded = this.#parse(source, "iu");
    return {
      certain: intersect(this.relative, exact),
      possible: intersect(this.simple, union(exact, folded)),
      // The runtime reads the text as written first: a string that starts with the prefix is a maybe at least.
      neverFalse: exact,
      // And it is certain only of a string in normal form that starts with the prefix as written.
      certainAnywhere: intersect(this.#normalAnywhere(), exact),
    };
  }

  /**
   * For a glob that names a file anywhere — `**`, a slash, then a last part P of ASCII letters, digits, `.`, `_`,
   * `-` and `*` (as in the globs for `.env*` or `*.pem` files) — the strings whose last `/`-separated segment P
   * matches, exactly or ignoring case, which is never `.`, `..` or empty. Every platform's reading keeps that
   * segment last (a `..` before it climbs over others, not over it), and the POSIX reading is one of them, so the
   * glob is never false there.
   */
  #lastSegment(glob: string): Dfa | undefined {
    const part = /^\*\*\/([A-Za-z0-9._*-]+)$/.exec(glob)?.[1];
    const segment =
      part !== undefined
        ? [...part].map((c) => (c === "*" ? "[^/]*" : literal(c))).join("")
        : this.#bracedLast(glob);
    if (segment === undefined) return undefined;
    // Ignoring case too: where the exact pattern misses the POSIX reading, the runtime's case-folded one (flag
    // `iu`, behind a check of the folded literal ends, which folds alike) still matches it. And with dots and
    // blanks after it when it ends in a letter, a digit, `_` or `-`: the Windows reading drops them from the
    // segment (`a.exe.` is `a.exe` there) — but only from a segment that holds no `:` (there the name ends at the
    // `:`, and `aa:a.` is `aa`) and no `\` (a separator there, which leaves a shorter last segment).
    const ends = /\{([^{}]*)\}$/.exec(glob)?.[1]?.split(",") ?? [glob];
    let matches = this.#parse(`(?:^|/)(?:${segment})$`, "iu");
    if (ends.every((e) => /[A-Za-z0-9_-]$/.test(e))) {
      const trailed = this.#parse(`(?:^|/)(?:${segment})[. ]+$`, "iu");
      matches = union(matches, subtract(trailed, this.#parse("[:\\\\][^/]*$", "u")));
    }
    const notNamed = this.#parse("(?:^|/)(?:\\.|\\.\\.)?$", "u");
    return subtract(matches, notNamed);
  }

  /**
   * The last part of a glob `**` + `/` + P, where P is letters, digits, `.`, `_`, `-`, `*` and braces of such text
   * (`*.{sh,exe,bat}`), as a pattern over a segment; undefined for any other glob (a class may fold otherwise).
   */
  #bracedLast(glob: string): string | undefined {
    const part = /^\*\*\/([A-Za-z0-9._*{},-]+)$/.exec(glob)?.[1];
    if (part === undefined || !part.includes("{")) return undefined;
    return globSegmentPattern(part);
  }

  /**
   * For a glob that names a folder anywhere — `**`, a slash, a part P as {@link #lastSegment} reads it, a slash, `**`
   * (as in the globs for `.ssh` folders or dot folders) — the strings with a `/`-separated segment P matches, exactly
   * or ignoring case, that is not `.` or `..`, followed by a segment that is neither empty, `.` nor `..`, and by no
   * `..` segment. The POSIX reading, one of the runtime's, removes `.` and empty segments and climbs one segment per
   * `..`: with none after it, the folder stays in that reading with something under it, so the glob is never false
   * there.
   */
  #folderSegment(glob: string): Dfa | undefined {
    const part = /^\*\*\/([A-Za-z0-9._*-]+)\/\*\*$/.exec(glob)?.[1];
    if (part === undefined) return undefined;
    const segment = [...part].map((c) => (c === "*" ? "[^/]*" : literal(c))).join("");
    // What follows the folder: segments none of which is `..`, one of which is neither empty nor `.`.
    const notUp = "(?:\\.?|[^/.][^/]*|\\.[^/.][^/]*|\\.\\.[^/]+)";
    const named = "(?:[^/.][^/]*|\\.[^/.][^/]*|\\.\\.[^/]+)";
    const under = `/(?:${notUp}/)*${named}(?:/${notUp})*$`;
    const matches = this.#parse(`(?:^|/)${segment}${under}`, "iu");
    // `.` and `..` are no folder: a string where P may match one of them so is left out (a smaller set: sound).
    const notNamed = this.#parse(`(?:^|/)\\.\\.?${under}`, "u");
    return subtract(matches, notNamed);
  }

  /**
   * For a glob of everything under a folder named from the start — F, a slash, `**`, where F is relative segments of
   * ASCII letters, digits, `.`, `_` and `-` (not `.` or `..`), as in `src/**` or `.github/workflows/**` — the strings
   * in normal form (see {@link #normalAnywhere}) that are F or start with F and a slash, as written. The POSIX reading
   * of such a string, one of the runtime's, is the string itself, which the glob matches: never false there.
   */
  #underFolder(glob: string): Dfa | undefined {
    const folder = /^((?:[A-Za-z0-9._-]+\/)*[A-Za-z0-9._-]+)\/\*\*$/.exec(glob)?.[1];
    if (folder === undefined || folder.split("/").some((s) => s === "." || s === "..")) return undefined;
    return intersect(this.#normalAnywhere(), this.#parse(`^${literal(folder)}(?:/|$)`, "u"));
  }

  /**
   * Every string a `path_prefix` may be certain of: a plain path already in normal form, so besides
   * `#plainAnywhere`, none with an empty segment or one ending in `.` or a blank (`public/../x`, `public//x`,
   * `public/x/`, `public/a.` are at most a maybe), and `.` (the empty relative path: `.` and `./` are certain of it).
   */
  #normalAnywhere(): Dfa {
    const normal = intersect(
      this.#plainAnywhere(),
      complement(this.#parse("(?:^|/)(?:/|$)|[. ](?:/|$)", "u")),
    );
    // `.` itself is the empty relative path, which a prefix of `.`, `./` or nothing is certain of.
    return union(normal, literals(this.#automata.alphabet, ["."]));
  }

  /**
   * Every string that may be a plain path (path.ts `readPath`): none starting with `/` (a plain path is relative) or
   * `~` (a home directory), none holding `\` or `:` (other platforms' separators and drives), none whose last
   * segment ends in a blank (no later `..` removes it, and a plain path has no segment ending so).
   */
  #plainAnywhere(): Dfa {
    return complement(this.#parse("^[/~]|[\\\\:]| /*$", "u"));
  }

  #parse(pattern: string, flags: string): Dfa {
    return this.#automata.pattern(pattern, flags);
  }
}

/**
 * One segment of a glob as a pattern over a segment: letters, digits, `.`, `_` and `-` as written, `*` and `?`
 * (never a `/`), a class of such characters (`[a-z]`, `[!a]`), and braces of alternatives of such text (`{ts,js}`).
 * Undefined for anything else (`**`, an escape, a brace or class not closed or holding `/`).
 */
function globSegmentPattern(segment: string): string | undefined {
  if (segment === "" || segment.includes("**")) return undefined;
  const plain = (c: string) => /^[A-Za-z0-9_-]$/.test(c);
  let out = "";
  let i = 0;
  const text = (stop: string): string | undefined => {
    let t = "";
    while (i < segment.length && !stop.includes(segment[i] as string)) {
      const c = segment[i] as string;
      if (c === "*") t += "[^/]*";
      else if (c === "?") t += "[^/]";
      else if (c === ".") t += "\\.";
      else if (plain(c)) t += c;
      else if (c === "[") {
        const end = segment.indexOf("]", i + 2);
        if (end < 0) return undefined;
        let body = segment.slice(i + 1, end);
        const negated = body.startsWith("!") || body.startsWith("^");
        if (negated) body = body.slice(1);
        if (!/^(?:[A-Za-z0-9_.]|[A-Za-z0-9]-[A-Za-z0-9])+$/.test(body)) return undefined;
        t += negated ? `[^/${body}]` : `[${body}]`;
        i = end;
      } else return undefined;
      i++;
    }
    return t;
  };
  while (i < segment.length) {
    if (segment[i] === "{") {
      i++;
      const alternatives: string[] = [];
      for (;;) {
        const alternative = text(",}");
        if (alternative === undefined || i >= segment.length) return undefined;
        alternatives.push(alternative);
        if (segment[i++] === "}") break;
      }
      out += `(?:${alternatives.join("|")})`;
    } else {
      const piece = text("{");
      if (piece === undefined) return undefined;
      out += piece;
    }
  }
  return out;
}
