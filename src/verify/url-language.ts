/**
 * The `url` operator as automata, exactly, on the URLs every reader takes alike: the *simple* URLs —
 * `scheme://host[:port][path][?query]` where the scheme is one of `http`, `https`, `ws`, `wss`, `ftp` in any case;
 * the host is ASCII labels of letters, digits and inner single hyphens joined by single dots, its last label
 * starting with a letter (so never an IP address, never punycode, never a trailing dot); the port is a number from
 * 0 to 65535 without leading zeros; the path is segments of letters, digits, `_`, `.`, `~` and `-` with some
 * character that is not a dot (no `.` or `..` segment), after single `/`, with at most a trailing `/`; the query is
 * keys and values of those characters joined by `&` and `=`. On such a URL the WHATWG parser changes nothing but
 * the case of scheme and host and a written default port, so the runtime's answer (`match/url.ts`) is a function of
 * the written parts: the scheme in lower case, the host in lower case, the port (or the scheme's default), the path
 * without a trailing `/` against the path globs (exactly: certain; ignoring case: possible), the query's keys.
 * Every other spelling is left to the loose region and to facts (see `facts.ts`).
 */
import { compileGlob } from "../runtime/match/glob.js";
import { type HostPattern, hostPattern, type UrlSpec } from "../runtime/match/url.js";
import type { AlphabetBuilder } from "./alphabet.js";
import { complement, constant, type Dfa, DfaBuilder, intersect, union } from "./dfa.js";
import type { PathAutomata } from "./path-language.js";
import { RegexLanguage } from "./regex-language.js";

/** The schemes of simple URLs with their default ports (`file` has no host to compare and is left out). */
const SIMPLE_SCHEMES: ReadonlyMap<string, number> = new Map([
  ["http", 80],
  ["https", 443],
  ["ws", 80],
  ["wss", 443],
  ["ftp", 21],
]);

const LABEL = "[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*";
const LAST_LABEL = "[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*";
const HOST = `(?:${LABEL}\\.)*${LAST_LABEL}`;
const PORT_NUMBER =
  "(?:0|[1-9][0-9]?[0-9]?[0-9]?|[1-5][0-9][0-9][0-9][0-9]|6[0-4][0-9][0-9][0-9]|65[0-4][0-9][0-9]|655[0-2][0-9]|6553[0-5])";
const SEGMENT = "[A-Za-z0-9_.~\\-]*[A-Za-z0-9_~\\-][A-Za-z0-9_.~\\-]*";
const PATH = `(?:/${SEGMENT})*/?`;
const WORD = "[A-Za-z0-9_.~\\-]";
const QUERY = `(?:\\?${WORD}+(?:=${WORD}*)?(?:&${WORD}+(?:=${WORD}*)?)*)?`;
/** A URL's rest after the host: a port, path and query, or nothing. */
const AFTER_HOST = "(?:[:/?][^]*)?";

/** A scheme name matched in any case (`[hH][tT]…`). */
function anyCase(text: string): string {
  let out = "";
  for (const ch of text) {
    const lower = ch.toLowerCase();
    const upper = ch.toUpperCase();
    out += lower === upper ? literal(ch) : `[${lower}${upper}]`;
  }
  return out;
}

function literal(text: string): string {
  let out = "";
  for (const ch of text) out += `\\u{${(ch.codePointAt(0) as number).toString(16)}}`;
  return out;
}

/** What follows `://` in a URL the operator may be certain of: no control character, blank or backslash. */
const NO_SUSPECT = "[^\\u{0}-\\u{20}\\u{7f}\\\\]*";

const ANY_SCHEME = `(?:${[...SIMPLE_SCHEMES.keys()].map(anyCase).join("|")})`;
/** Every simple URL. */
const SIMPLE = `^${ANY_SCHEME}://${HOST}(?::${PORT_NUMBER})?${PATH}${QUERY}$`;

/** The languages of one `url` operator on simple URLs. */
export interface UrlOperatorLanguages {
  /** Simple URLs the operator certainly matches. */
  readonly certain: Dfa;
  /** Simple URLs it may match (a superset of `certain`). */
  readonly possible: Dfa;
  /**
   * Every string, simple or not, the operator may certainly match: one that starts with one of its schemes (or
   * any scheme with a host) in any case and `://`, then one of its hosts as written when it names hosts, and holds
   * no control character, blank or backslash.
   */
  readonly certainAnywhere: Dfa;
  /**
   * Every string, simple or not, on which the operator is never false: all but those that start with a scheme
   * whose URLs have a host, in any case, and `://`, and hold no control character, blank or backslash (and, for an
   * operator that reads schemes alone, a scheme it does not name).
   */
  readonly neverFalse: Dfa;
}

function listOf<T>(value: T | readonly T[] | undefined): readonly T[] | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? (value as readonly T[]) : [value as T];
}

/** The glob sources a path glob is matched with (its exact pattern, as `glob.ts` compiles it). */
function globSource(pattern: string): string | undefined {
  const compiled = compileGlob(pattern);
  if (!compiled.ok) return undefined;
  return (compiled.glob as unknown as { exact: { source: string } }).exact.source;
}

/**
 * The hosts a URL the operator is certain of may have as written, as a pattern read ignoring case, or `undefined`
 * when the operator names no host or one whose written form may differ from its name (an internationalised name).
 * The runtime is certain only where the written host, in lower case, is the host the parser reads (`sameHost` in
 * match/url.ts), and that host is one the operator names or ends with a suffix it names; no userinfo, no port
 * other than digits. A name's every reading (`pattern.names`) is one written spelling, in any case.
 */
function writtenHosts(spec: UrlSpec): string | undefined {
  const hosts = listOf(spec.host);
  if (hosts === undefined) return undefined;
  const alternatives: string[] = [];
  for (const text of hosts) {
    const pattern = hostPattern(text);
    if (typeof pattern === "string") return undefined;
    const names = "suffix" in pattern ? [pattern.suffix] : [...pattern.names];
    if (names.some((n) => !/^[a-z0-9.:[\]-]+$/.test(n) || /(^|\.)xn--/.test(n))) return undefined;
    // A subdomain's labels may be written in any script the parser makes ASCII: anything but the authority's ends.
    if ("suffix" in pattern)
      alternatives.push(`[^/?#:@\\u{0}-\\u{20}\\u{7f}\\\\]+${literal(pattern.suffix)}`);
    else for (const name of pattern.names) alternatives.push(literal(name));
  }
  return alternatives.length === 0 ? undefined : alternatives.join("|");
}

/** The pattern of an operator's `certainAnywhere` (see {@link UrlOperatorLanguages}). */
function certainAnywherePattern(spec: UrlSpec): { pattern: string; flags: string } {
  const schemes = (listOf(spec.scheme) ?? [...SIMPLE_SCHEMES.keys(), "file"]).map((s) => s.toLowerCase());
  const start = `^(?:${schemes.map(anyCase).join("|")})://`;
  const hosts = writtenHosts(spec);
  if (hosts === undefined) return { pattern: `${start}${NO_SUSPECT}$`, flags: "u" };
  // A URL with nothing after its host but a query or a fragment has the path `/`: when no path glob matches that, a
  // URL the operator is certain of goes on with `/` (so no `@` of userinfo comes before it).
  const paths = listOf(spec.path);
  const rootPath =
    paths === undefined ||
    paths.some((g) => {
      const compiled = compileGlob(g);
      return !compiled.ok || compiled.glob.test("/");
    });
  const rest = rootPath ? `(?:[/?#]${NO_SUSPECT})?` : `/${NO_SUSPECT}`;
  // Ignoring case as `toLowerCase` does: the Kelvin sign is a `k` there, so it is read as one here too.
  return { pattern: `${start}(?:${hosts})(?::[0-9]*)?${rest}$`, flags: "iu" };
}

/**
 * The pattern of the strings an operator may be false on (the complement of its `neverFalse`), or `undefined` when
 * there are none. `testUrl` (match/url.ts) answers false only after the spelling checks, each of which answers a
 * maybe: no control character, blank or backslash (`SUSPECT_CHARACTER`), a written `scheme://` first (`WRITTEN`),
 * and a parsed scheme with a host (`DEFAULT_PORTS`), which is the written one in lower case. An operator that reads
 * only schemes is then false only where that scheme is not one of its own.
 */
function falsePattern(spec: UrlSpec): string | undefined {
  const onlySchemes =
    spec.host === undefined && spec.port === undefined && spec.path === undefined && spec.query === undefined;
  const named = new Set((onlySchemes ? (listOf(spec.scheme) ?? []) : []).map((s) => s.toLowerCase()));
  const schemes = [...SIMPLE_SCHEMES.keys(), "file"].filter((s) => !named.has(s));
  if (schemes.length === 0) return undefined;
  return `^(?:${schemes.map(anyCase).join("|")})://${NO_SUSPECT}$`;
}

/** The URL languages of one verification: the simple URLs and the operators' languages on them. */
export class UrlLanguages {
  /** Every simple URL. */
  readonly simple: Dfa;
  readonly #automata: PathAutomata;

  constructor(automata: PathAutomata) {
    this.#automata = automata;
    this.simple = automata.pattern(SIMPLE, "u");
  }

  /** Cuts the alphabet for the simple subset and for the operators' parts. */
  static addBoundaries(builder: AlphabetBuilder, specs: readonly UrlSpec[]): void {
    RegexLanguage.parse(SIMPLE, "u")?.addBoundaries(builder);
    RegexLanguage.parse(`^${NO_SUSPECT}$`, "u")?.addBoundaries(builder);
    // The schemes `certainAnywhere` names when an operator names none.
    for (const scheme of [...SIMPLE_SCHEMES.keys(), "file"]) builder.addText(anyCaseText(scheme));
    // The structure's characters and the root of a path glob's text are symbols of their own.
    builder.addText(":/?&=.#@\\%");
    builder.addPoint(0);
    for (const spec of specs) {
      const anywhere = certainAnywherePattern(spec);
      RegexLanguage.parse(anywhere.pattern, anywhere.flags)?.addBoundaries(builder);
      const falseOn = falsePattern(spec);
      if (falseOn !== undefined) RegexLanguage.parse(falseOn, "u")?.addBoundaries(builder);
      for (const host of listOf(spec.host) ?? [])
        if (typeof host === "string") builder.addText(host.toLowerCase());
      for (const host of listOf(spec.host) ?? [])
        if (typeof host === "string") builder.addText(host.toUpperCase());
      // The names the runtime compares (an internationalised name's punycode), in both cases.
      for (const host of listOf(spec.host) ?? []) {
        const pattern = typeof host === "string" ? hostPattern(host) : undefined;
        if (pattern === undefined || typeof pattern === "string") continue;
        for (const name of "suffix" in pattern ? [pattern.suffix] : pattern.names)
          builder.addText(`${name}${name.toUpperCase()}`);
      }
      for (const port of listOf(spec.port) ?? []) builder.addText(String(port));
      for (const scheme of listOf(spec.scheme) ?? [])
        if (typeof scheme === "string") builder.addText(anyCaseText(scheme));
      for (const key of spec.query?.keys ?? []) if (typeof key === "string") builder.addText(key);
      for (const pattern of listOf(spec.path) ?? []) {
        if (typeof pattern !== "string") continue;
        for (const source of [globSource(pattern), globSource(pattern.toLowerCase())]) {
          if (source === undefined) continue;
          RegexLanguage.parse(source, "u")?.addBoundaries(builder);
          RegexLanguage.parse(source, "iu")?.addBoundaries(builder);
        }
      }
    }
  }

  /** The operator's languages; `undefined` when a part does not compile (the policy would not load). */
  url(spec: UrlSpec): UrlOperatorLanguages | undefined {
    const key = `url\u0000${JSON.stringify(spec)}`;
    let failed = false;
    const certain = this.#automata.memo(`${key}\u0000certain`, () => {
      const parts = this.#parts(spec, false);
      if (parts === undefined) failed = true;
      return parts ?? constant(this.#automata.alphabet.size, false);
    });
    if (failed) return undefined;
    const possible = this.#automata.memo(`${key}\u0000possible`, () => {
      const parts = this.#parts(spec, true);
      return parts ?? constant(this.#automata.alphabet.size, false);
    });
    const anywhere = certainAnywherePattern(spec);
    const certainAnywhere = this.#automata.pattern(anywhere.pattern, anywhere.flags);
    const falseOn = falsePattern(spec);
    const k = this.#automata.alphabet.size;
    const neverFalse = complement(falseOn === undefined ? constant(k, false) : this.#pattern(falseOn));
    return { certain, possible, certainAnywhere, neverFalse };
  }

  #parts(spec: UrlSpec, possible: boolean): Dfa | undefined {
    const k = this.#automata.alphabet.size;
    let out = this.simple;
    const schemes = listOf(spec.scheme);
    if (schemes !== undefined) {
      const names = schemes.map((s) => s.toLowerCase()).filter((s) => SIMPLE_SCHEMES.has(s));
      // No name leaves `^(?:)://`, which no simple URL starts with.
      out = intersect(out, this.#pattern(`^(?:${names.map(anyCase).join("|")})://`));
    }
    const hosts = listOf(spec.host);
    if (hosts !== undefined) {
      const alternatives: string[] = [];
      for (const text of hosts) {
        const pattern: HostPattern | string = hostPattern(text);
        if (typeof pattern === "string") return undefined;
        if ("suffix" in pattern) alternatives.push(`[A-Za-z0-9.\\-]+${anyCase(pattern.suffix)}`);
        else for (const name of pattern.names) alternatives.push(anyCase(name));
      }
      // No host leaves an empty one, which no simple URL has.
      out = intersect(out, this.#pattern(`^[^:]*://(?:${alternatives.join("|")})${AFTER_HOST}$`));
    }
    const ports = listOf(spec.port);
    if (ports !== undefined) {
      const defaults = [...SIMPLE_SCHEMES].filter(([, p]) => ports.includes(p)).map(([s]) => anyCase(s));
      // An empty list makes an alternative that holds no simple URL (an empty scheme, or no digit after `:`).
      const byDefault = `^(?:${defaults.join("|")})://[^:/?]*(?:[/?][^]*)?$`;
      const written = `^[^:]*://[^:/?]*:(?:${ports.map((p) => String(p)).join("|")})(?:[/?][^]*)?$`;
      out = intersect(out, this.#pattern(`${byDefault}|${written}`));
    }
    const paths = listOf(spec.path);
    if (paths !== undefined) {
      let glob = constant(k, false);
      for (const pattern of paths) {
        const exact = globSource(pattern);
        if (exact === undefined) return undefined;
        glob = union(glob, this.#automata.pattern(exact, "u"));
        if (possible) {
          const folded = globSource(pattern.toLowerCase());
          if (folded !== undefined) glob = union(glob, this.#automata.pattern(folded, "iu"));
        }
      }
      out = intersect(out, this.#withPath(glob));
    }
    if (spec.query !== undefined) {
      const keys = spec.query.keys.filter((key) => /^[A-Za-z0-9_.~-]+$/.test(key));
      const part = `(?:${keys.map(literal).join("|")})(?:=${WORD}*)?`;
      const query = keys.length === 0 ? "" : `(?:\\?${part}(?:&${part})*)?`;
      out = intersect(out, this.#pattern(`^[^?]*${query}$`));
    }
    return out;
  }

  #pattern(source: string): Dfa {
    return this.#automata.pattern(source, "u");
  }

  /**
   * The URLs of the simple shape whose path, without a trailing `/` (but `/` itself), is accepted by `glob` over
   * the rooted spelling (`\0/a` for `/a`, `\0` for `/`), as `pathVerdict` in `match/url.ts` reads it. Built by hand:
   * a prefix until `://`, the authority until `/` or `?`, then the glob's automaton run on the path, remembering
   * its state before a last `/`, then the query, which keeps the answer.
   */
  #withPath(glob: Dfa): Dfa {
    return this.#automata.memo(`url-path\u0000${dfaKey(glob)}`, () => buildWithPath(this.#automata, glob));
  }
}

function anyCaseText(text: string): string {
  return `${text.toLowerCase()}${text.toUpperCase()}`;
}

/** A key of a DFA's structure, for the memo. */
function dfaKey(a: Dfa): string {
  return `${a.k}:${a.start}:${Array.from(a.accept).join("")}:${Array.from(a.trans).join(",")}`;
}

function buildWithPath(automata: PathAutomata, glob: Dfa): Dfa {
  const alphabet = automata.alphabet;
  const k = alphabet.size;
  const colon = alphabet.symbolOf(0x3a);
  const slash = alphabet.symbolOf(0x2f);
  const question = alphabet.symbolOf(0x3f);
  const root = glob.trans[glob.start * k + alphabet.symbolOf(0)] as number;
  const rootAccepts = glob.accept[root] === 1;
  const afterRootSlash = glob.trans[root * k + slash] as number;
  const builder = new DfaBuilder(k);
  const ids = new Map<string, number>();
  const work: { key: string; state: State }[] = [];
  type State =
    | { readonly phase: "scheme" | "colon" | "slash" | "host" | "dead" }
    | { readonly phase: "query"; readonly accept: boolean }
    /** In the path: the glob's state, and its state before a last `/` (-1: none; -2: the path is `/`). */
    | { readonly phase: "path"; readonly g: number; readonly before: number };
  const pathAccepts = (g: number, before: number): boolean =>
    before === -2 ? rootAccepts : before >= 0 ? glob.accept[before] === 1 : glob.accept[g] === 1;
  const keyOf = (s: State): string =>
    s.phase === "query" ? `q${s.accept}` : s.phase === "path" ? `p${s.g},${s.before}` : s.phase;
  const accepting = (s: State): boolean =>
    s.phase === "host"
      ? rootAccepts
      : s.phase === "path"
        ? pathAccepts(s.g, s.before)
        : s.phase === "query"
          ? s.accept
          : false;
  const idOf = (s: State): number => {
    const key = keyOf(s);
    let id = ids.get(key);
    if (id === undefined) {
      id = builder.add(accepting(s));
      ids.set(key, id);
      work.push({ key, state: s });
    }
    return id;
  };
  const next = (s: State, symbol: number): State => {
    switch (s.phase) {
      case "scheme":
        return symbol === colon ? { phase: "colon" } : s;
      case "colon":
        return symbol === slash ? { phase: "slash" } : { phase: "dead" };
      case "slash":
        return symbol === slash ? { phase: "host" } : { phase: "dead" };
      case "host":
        if (symbol === slash) return { phase: "path", g: afterRootSlash, before: -2 };
        if (symbol === question) return { phase: "query", accept: rootAccepts };
        return s;
      case "path":
        if (symbol === question) return { phase: "query", accept: pathAccepts(s.g, s.before) };
        if (symbol === slash) return { phase: "path", g: glob.trans[s.g * k + slash] as number, before: s.g };
        return { phase: "path", g: glob.trans[s.g * k + symbol] as number, before: -1 };
      default:
        return s;
    }
  };
  idOf({ phase: "scheme" });
  for (let i = 0; i < work.length; i++) {
    const { key, state } = work[i] as { key: string; state: State };
    const from = ids.get(key) as number;
    for (let symbol = 0; symbol < k; symbol++) builder.set(from, symbol, idOf(next(state, symbol)));
  }
  return builder.build(0);
}
