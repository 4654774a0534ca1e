/**
 * The `url` operator: a URL is read with the WHATWG URL parser (the global `URL`, as browsers and Node's
 * `fetch` read it) and its scheme, host, port, path and query keys are compared with the rule's.
 *
 * Certainty needs a URL whose spelling is already what the parser makes of it, up to the case of scheme and
 * host and a written default port. Anything the parser would change on the way (a backslash, a tab, a
 * percent-encoded host character, a `.` or `%2e` path segment, a trailing dot, an IP address spelt in hex or as
 * one number), userinfo (`https://good.com@evil.com/`), a host label in a script that imitates Latin letters or
 * mixes scripts, and anything that is not an absolute `scheme://host` URL is a *maybe*: an allow rule never
 * accepts it, a deny or ask rule catches it.
 *
 * Hosts, in URLs and in rules alike, are read by the one host canonicaliser {@link readHost}: an IPv6 address
 * that embeds an IPv4 address (`[::ffff:7f00:1]`, `[64:ff9b::a9fe:a9fe]`, `[2002:a9fe:a9fe::]`) is also that
 * IPv4 address, so a rule on `127.0.0.1` matches it — never certainly.
 */
import { compileGlob, type Glob } from "./glob.js";
import { type HostReading, readHost } from "./host.js";
import { decodePunycode } from "./punycode.js";
import { hostLabelProblem } from "./url-scripts.js";

/** The `url` operator as written in YAML. */
export interface UrlSpec {
  /** Schemes without `:` (`https`); one or a list. Compared in lower case. */
  readonly scheme?: string | readonly string[];
  /** Hosts: exact (`api.github.com`) or `*.example.com` for every subdomain of `example.com` (not the apex). */
  readonly host?: string | readonly string[];
  /** Ports, compared with the effective port (a URL without one has its scheme's default). */
  readonly port?: number | readonly number[];
  /** Globs on the decoded path (`/repos/**`). */
  readonly path?: string | readonly string[];
  /** `keys`: every query key present must be one of these (a URL without a query passes). */
  readonly query?: { readonly keys: readonly string[] };
}

/** The keys a `url` operator may have. */
export const URL_KEYS = ["scheme", "host", "port", "path", "query"] as const;

/** The keys a `url` operator's `query` may have. */
export const URL_QUERY_KEYS = ["keys"] as const;

/** A problem with a `url` operator: the key it concerns (with the list index, if any) and what is wrong. */
export interface UrlProblem {
  readonly key: (typeof URL_KEYS)[number] | "url";
  readonly index?: number;
  readonly message: string;
}

/** Three values, as in `condition.ts`: 0 certainly not, 1 certainly, 2 maybe. */
type Truth = 0 | 1 | 2;
const FALSE: Truth = 0;
const TRUE: Truth = 1;
const MAYBE: Truth = 2;

/** The schemes whose URLs have a host, with their default ports (WHATWG "special schemes"). */
const DEFAULT_PORTS: ReadonlyMap<string, number | null> = new Map([
  ["http", 80],
  ["https", 443],
  ["ws", 80],
  ["wss", 443],
  ["ftp", 21],
  ["file", null],
]);

/**
 * One host name or IP address with every form it may be reached by ({@link readHost}: an IPv6 address that
 * embeds an IPv4 address also names that address), or (`*.` written before it) its subdomains: the names ending
 * in `suffix`.
 */
export type HostPattern = { readonly names: ReadonlySet<string> } | { readonly suffix: string };

interface CompiledUrl {
  readonly schemes: ReadonlySet<string> | null;
  readonly hosts: readonly HostPattern[] | null;
  readonly ports: ReadonlySet<number> | null;
  readonly paths: readonly { readonly exact: Glob; readonly folded: Glob | null }[] | null;
  readonly queryKeys: ReadonlySet<string> | null;
}

function listOf<T>(value: T | readonly T[] | undefined): readonly T[] | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? (value as readonly T[]) : [value as T];
}

/** An IPv6 address as a rule may write it: in brackets or bare, hex digits, `:` and a dotted IPv4 tail. */
const IPV6_WRITTEN = /^\[?[0-9a-f:.]*:[0-9a-f:.]*\]?$/;

/**
 * The host pattern, read by the one host canonicaliser ({@link readHost}), or why there is none: the pattern must
 * be a host the parser keeps as written (up to case, IDNA and a trailing dot, which are removed here), or an IPv6
 * address in any spelling (in brackets or not), which is read in its compressed form and as every IPv4 address
 * it embeds.
 */
export function hostPattern(text: string): HostPattern | string {
  if (typeof text !== "string" || text.length === 0) return "a host must be a non-empty string";
  let rest = text.toLowerCase();
  if (IPV6_WRITTEN.test(rest)) {
    const bracketed = rest.startsWith("[") ? rest : `[${rest}]`;
    const read = bracketed.endsWith("]") ? readHost(bracketed) : undefined;
    if (read === undefined || read.kind !== "ipv6") return `"${text}" is not a valid IPv6 address`;
    return { names: new Set(read.names) };
  }
  if (rest.endsWith(".")) rest = rest.slice(0, -1);
  const wildcard = rest.startsWith("*.");
  if (wildcard) rest = rest.slice(2);
  if (rest.includes("*"))
    return `"${text}" has a "*" that is not the whole first label; write "*.example.com" for its subdomains`;
  if (/[\s/\\?#@:%[\]]/.test(rest))
    return `"${text}" is not a host name: write the host alone, without scheme, port, path or userinfo`;
  const read = readHost(rest);
  if (read === undefined) return `"${text}" is not a valid host name`;
  const ascii = read.ascii;
  if (read.kind === "ipv4") {
    if (wildcard) return `"${text}" puts "*." before an IP address, which has no subdomains`;
    if (ascii !== rest)
      return `"${text}" is an IP address in an unusual spelling; write it as ${ascii} (dotted decimal)`;
    return { names: new Set(read.names) };
  }
  if (!ascii.includes(".") && wildcard)
    return `"${text}" matches subdomains of a top-level domain; name a registered domain`;
  for (const label of ascii.split(".")) {
    const problem = hostLabelProblem(label);
    if (problem !== undefined) return `"${text}": ${problem}`;
  }
  return wildcard ? { suffix: `.${ascii}` } : { names: new Set(read.names) };
}

/**
 * Compiles a `url` operator.
 * @returns a test of one value (three-valued), or the problems of the operator. Never throws.
 */
export function compileUrl(
  spec: UrlSpec,
):
  | { readonly ok: true; readonly test: (value: string) => Truth }
  | { readonly ok: false; readonly problems: readonly UrlProblem[] } {
  const problems: UrlProblem[] = [];
  if (spec === null || typeof spec !== "object" || Array.isArray(spec)) {
    return {
      ok: false,
      problems: [{ key: "url", message: "url needs a mapping of scheme, host, port, path or query" }],
    };
  }
  for (const key of Object.keys(spec)) {
    if (!(URL_KEYS as readonly string[]).includes(key))
      problems.push({ key: "url", message: `unknown url key "${key}"; use ${URL_KEYS.join(", ")}` });
  }
  if (Object.keys(spec).length === 0)
    problems.push({ key: "url", message: `url needs at least one of ${URL_KEYS.join(", ")}` });

  let schemes: Set<string> | null = null;
  const schemeList = listOf(spec.scheme);
  if (schemeList !== undefined) {
    schemes = new Set();
    for (const [index, scheme] of schemeList.entries()) {
      if (typeof scheme !== "string" || !/^[A-Za-z][A-Za-z0-9+.-]*$/.test(scheme)) {
        const hint =
          typeof scheme === "string" && scheme.endsWith(":") ? `; write "${scheme.slice(0, -1)}"` : "";
        problems.push({ key: "scheme", index, message: `"${String(scheme)}" is not a scheme name${hint}` });
      } else if (!DEFAULT_PORTS.has(scheme.toLowerCase())) {
        problems.push({
          key: "scheme",
          index,
          message: `scheme "${scheme}" has no host to compare; url matches ${[...DEFAULT_PORTS.keys()].join(", ")} URLs`,
        });
      } else schemes.add(scheme.toLowerCase());
    }
  }

  let hosts: HostPattern[] | null = null;
  const hostList = listOf(spec.host);
  if (hostList !== undefined) {
    hosts = [];
    for (const [index, text] of hostList.entries()) {
      const pattern = hostPattern(text);
      if (typeof pattern === "string") problems.push({ key: "host", index, message: pattern });
      else hosts.push(pattern);
    }
  }

  let ports: Set<number> | null = null;
  const portList = listOf(spec.port);
  if (portList !== undefined) {
    ports = new Set();
    for (const [index, port] of portList.entries()) {
      // Number.isInteger is false for anything that is not a number.
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        problems.push({
          key: "port",
          index,
          message: `port ${JSON.stringify(port)} is not an integer from 0 to 65535`,
        });
      else ports.add(port);
    }
  }

  let paths: { exact: Glob; folded: Glob | null }[] | null = null;
  const pathList = listOf(spec.path);
  if (pathList !== undefined) {
    paths = [];
    for (const [index, pattern] of pathList.entries()) {
      if (typeof pattern !== "string" || !pattern.startsWith("/")) {
        problems.push({
          key: "path",
          index,
          message: `path glob ${JSON.stringify(pattern)} must start with "/": a URL's path always does`,
        });
        continue;
      }
      const exact = compileGlob(pattern);
      if (!exact.ok) {
        problems.push({ key: "path", index, message: `invalid path glob "${pattern}": ${exact.message}` });
        continue;
      }
      const folded = compileGlob(pattern.toLowerCase());
      paths.push({ exact: exact.glob, folded: folded.ok ? folded.glob : null });
    }
  }

  let queryKeys: Set<string> | null = null;
  if (spec.query !== undefined) {
    const query = spec.query as unknown;
    // Object(null) is {}; a string, number, boolean or list has no list of keys either.
    if (!Array.isArray((Object(query) as { keys?: unknown }).keys)) {
      problems.push({ key: "query", message: "query needs keys: a list of the query keys a URL may have" });
    } else {
      for (const key of Object.keys(query as object)) {
        if (!(URL_QUERY_KEYS as readonly string[]).includes(key))
          problems.push({ key: "query", message: `unknown query key "${key}"; use keys` });
      }
      queryKeys = new Set();
      for (const key of (query as { keys: readonly unknown[] }).keys) {
        if (typeof key !== "string")
          problems.push({ key: "query", message: `query key ${JSON.stringify(key)} must be a string` });
        else queryKeys.add(key);
      }
    }
  }

  if (problems.length > 0) return { ok: false, problems };
  const compiled: CompiledUrl = { schemes, hosts, ports, paths, queryKeys };
  return { ok: true, test: (value) => testUrl(compiled, value) };
}

/** The parts of a URL as written, before the parser sees it. */
interface Written {
  readonly scheme: string;
  readonly host: string;
  /** The port as written after `:`, or `undefined` when there is no `:`. */
  readonly port: string | undefined;
  /** Everything after the authority. */
  readonly rest: string;
}

/** Scheme, authority, and the rest (`.*` with the flag `s` runs to the end). */
const WRITTEN = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)(.*)/s;

function splitWritten(text: string): Written | undefined {
  const m = WRITTEN.exec(text);
  if (m === null) return undefined;
  const authority = m[2] as string;
  let host = authority;
  let port: string | undefined;
  const close = authority.lastIndexOf("]");
  const colon = authority.lastIndexOf(":");
  if (colon > close) {
    host = authority.slice(0, colon);
    port = authority.slice(colon + 1);
  }
  return { scheme: m[1] as string, host, port, rest: m[3] as string };
}

/** Control characters, space, and the characters the URL parser removes or reads as `/` anywhere. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters looked for.
const SUSPECT_CHARACTER = /[\u0000-\u0020\u007f\\]/;

/** A label of the parser's ASCII host is the written label, up to case and IDNA's punycode. */
function sameHost(written: string, parsed: string): boolean {
  if (written.toLowerCase() === parsed) return true;
  // Only a host with non-ASCII letters may differ beyond case: each label must be its punycode, exactly. (The
  // parser makes `xn--` labels only of non-ASCII ones, so an ASCII label that differs beyond case fails below.)
  const writtenLabels = written.toLowerCase().split(".");
  const parsedLabels = parsed.split(".");
  if (writtenLabels.length !== parsedLabels.length) return false;
  return parsedLabels.every((label, i) => {
    if (!label.startsWith("xn--")) return label === writtenLabels[i];
    return decodePunycode(label.slice(4)) === writtenLabels[i];
  });
}

/**
 * Whether the host is one of the patterns: certainly, when a pattern names the host as the parser reads it and
 * that host embeds no IPv4 address; a maybe, when the match goes through an IPv4 address an IPv6 address embeds
 * or the host is such an IPv6 address (whose packets may reach the IPv4 host on some network).
 */
function hostVerdict(patterns: readonly HostPattern[], host: HostReading): Truth {
  for (const pattern of patterns) {
    if ("suffix" in pattern) {
      if (
        host.kind === "name" &&
        host.ascii.endsWith(pattern.suffix) &&
        host.ascii.length > pattern.suffix.length
      )
        return TRUE;
    } else if (host.names.some((name) => pattern.names.has(name))) {
      return host.embedded.length > 0 ? MAYBE : TRUE;
    }
  }
  return FALSE;
}

/** Tests one string against a compiled `url` operator. */
function testUrl(spec: CompiledUrl, text: string): Truth {
  // The parser strips leading and trailing spaces and controls, drops tabs and newlines anywhere, and reads
  // `\` as `/` in special URLs: a string with any of them is not what it looks like.
  if (SUSPECT_CHARACTER.test(text)) return MAYBE;
  const written = splitWritten(text);
  if (written === undefined) return MAYBE;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return MAYBE;
  }
  const scheme = url.protocol.slice(0, -1);
  // The parser's scheme is the written one in lower case: both end at the first `:`, and nothing is stripped
  // before it (no space or control character got this far).
  if (!DEFAULT_PORTS.has(scheme)) return MAYBE;
  const hostname = url.hostname;
  // Userinfo (`https://good.com@evil.com/` goes to evil.com) leaves an `@` in the written host, or in the written
  // port when a `:` follows it; no parsed host name holds an `@`, and the port must be digits.
  if (!sameHost(written.host, hostname) || hostname.endsWith(".")) return MAYBE;
  for (const label of hostname.split(".")) if (hostLabelProblem(label) !== undefined) return MAYBE;
  // Ports: none, the same number, or the default (which the parser drops); never `:0443` or an empty `:`.
  // A port spelled this way the parser keeps as written, or drops when it is the scheme's default.
  if (written.port !== undefined && !/^(0|[1-9]\d{0,4})$/.test(written.port)) return MAYBE;
  // Everything after the host must be exactly what the parser keeps (no dot segments resolved, nothing
  // percent-encoded on the way); an empty path becomes `/`.
  const rest =
    written.rest === "" || written.rest.startsWith("?") || written.rest.startsWith("#")
      ? `/${written.rest}`
      : written.rest;
  if (url.href !== `${scheme}://${url.host}${rest}`) return MAYBE;

  let result: Truth = TRUE;
  if (spec.schemes !== null && !spec.schemes.has(scheme)) return FALSE;
  if (spec.hosts !== null) {
    // A `file:` URL may have no host, which no pattern names. The parser's host is canonical already: reading
    // it again fails only for a host the parser never gives, which is a maybe.
    if (hostname === "") return FALSE;
    const host = readHost(hostname);
    if (host === undefined) return MAYBE;
    const verdict = hostVerdict(spec.hosts, host);
    if (verdict === FALSE) return FALSE;
    if (verdict === MAYBE) result = MAYBE;
  }
  if (spec.ports !== null) {
    // A `file:` URL has no port (null), which no list of ports holds.
    const port = url.port === "" ? DEFAULT_PORTS.get(scheme) : Number(url.port);
    if (!spec.ports.has(port as number)) return FALSE;
  }
  if (spec.paths !== null) {
    const path = decodedPath(url.pathname);
    if (path === undefined) result = MAYBE;
    else {
      const verdict = pathVerdict(spec.paths, path);
      if (verdict === FALSE) return FALSE;
      if (verdict === MAYBE) result = MAYBE;
    }
  }
  if (spec.queryKeys !== null) {
    const verdict = queryVerdict(spec.queryKeys, url.search);
    if (verdict === FALSE) return FALSE;
    if (verdict === MAYBE) result = MAYBE;
  }
  return result;
}

/**
 * The path as a server sees it after one round of percent-decoding, or `undefined` when servers may see it
 * differently: an encoded `/`, `\` or `%` (decoded once or twice), a NUL, bytes that are not UTF-8, empty or
 * dot segments after decoding.
 */
function decodedPath(pathname: string): string | undefined {
  if (/%(2f|5c|25|00)/i.test(pathname)) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is looked for.
  if (/[\u0000-\u001f\u007f\\]/.test(decoded)) return undefined;
  const segments = decoded.split("/").slice(1);
  for (const [i, segment] of segments.entries()) {
    if (segment === "." || segment === "..") return undefined;
    if (segment === "" && i !== segments.length - 1) return undefined;
  }
  return decoded;
}

function pathVerdict(globs: NonNullable<CompiledUrl["paths"]>, path: string): Truth {
  // A trailing `/` names the same resource on most servers: the glob sees the path without it.
  const subject = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
  for (const { exact } of globs) if (exact.test(subject)) return TRUE;
  // Some servers ignore case in paths: a match only when case is ignored is a maybe.
  const folded = subject.toLowerCase();
  for (const { folded: glob } of globs) if (glob?.test(folded)) return MAYBE;
  return FALSE;
}

/** Every key of the query is allowed; a key whose spelling a server may decode differently is a maybe. */
function queryVerdict(keys: ReadonlySet<string>, search: string): Truth {
  // Some servers also split on `;`.
  if (search.includes(";")) return MAYBE;
  let result: Truth = TRUE;
  for (const part of search.slice(1).split("&")) {
    if (part === "") continue;
    const equals = part.indexOf("=");
    const key = equals < 0 ? part : part.slice(0, equals);
    if (/[%+]/.test(key)) {
      result = MAYBE;
      continue;
    }
    if (!keys.has(key)) return FALSE;
  }
  return result;
}
