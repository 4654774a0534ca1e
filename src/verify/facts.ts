/**
 * What holds between the operators of one field on the values the verifier does not model exactly — paths outside
 * the simple subset, command strings, where the runtime reads a value several ways at once. Whatever the reading,
 * an operator whose language is covered by others cannot be true where they are all false:
 *
 * - `glob`: a value may match a glob when one of its readings (normalised, on any platform) is in the glob's
 *   language ignoring case, or when it may name any file. So if the possible-language of glob `a` lies inside the
 *   union of those of globs and path prefixes `N`, a value that may match `a` may match one of `N` too; and a value
 *   that certainly matches `a` (a plain path whose one reading is in `a`'s exact language) certainly matches a glob
 *   of `N` whose exact language covers it, or may match one whose possible-language does.
 * - `path_prefix`: a longer prefix implies a shorter one, on every reading and on the text as written.
 * - `command`: a string may run a list of prefixes when it may run one of them, and a prefix may run wherever a
 *   prefix made of its first words may; a string certainly covered by prefixes is certainly covered by the same
 *   prefixes in another list, and may run prefixes made of their first words (without `$` or options; not
 *   certainly: `git -c` is certain of `git -c` and a maybe for `git`); and a string is certainly covered by two lists only when
 *   a prefix of one and a prefix of the other agree word for word as far as the shorter goes (certain means that
 *   the string has a simple command and that each starts with the words of a prefix of the list, as written).
 *
 * - `url`: the runtime reads a URL's spelling before its parts, alike for every `url` operator, so when every part
 *   operator `b` reads is read by `a` at least as strictly (its schemes, hosts, ports, path globs and query keys
 *   among `b`'s, or IPv6 addresses that embed one of them), `a` certain means `b` certain and `a` possible means
 *   `b` possible; when `a`'s schemes, ports, host names or the texts its path globs need of a path and `b`'s have
 *   nothing in common, `a` certain means `b` false; and `a` certain means an operator of schemes and ports alone
 *   is no maybe.
 *
 * Every fact is an implication between runtime answers that holds for every string; a fact that does not apply
 * is simply not used (the search then says `unknown` rather than `holds`).
 */

import { CompiledGlob, compileGlob, rootedPath } from "../runtime/match/glob.js";
import { readHost } from "../runtime/match/host.js";
import { basename, codeArgumentsEnd, coversWords, OPTION_CLUSTER } from "../runtime/match/shell/matcher.js";
import { readPlainLine } from "../runtime/match/shell/plain-line.js";
import { NEVER_RUNS_OPERANDS } from "../runtime/match/shell/tables.js";
import { type CommandPrefix, parseCommandPrefixSpec } from "../runtime/match/shell.js";
import { hostPattern, type UrlSpec } from "../runtime/match/url.js";
import type { Truth } from "../runtime/truth.js";
import type { Automata } from "./automata.js";
import { constant, type Dfa, isSubset, literals, meets, subtract, union } from "./dfa.js";
import type { Atom } from "./formula.js";

function literal(text: string): string {
  let out = "";
  for (const ch of text) out += `\\u{${(ch.codePointAt(0) as number).toString(16)}}`;
  return out;
}

/**
 * The first words a `command` operator's prefixes start with, when it is certain only of lines whose every simple
 * command starts with one of them: every prefix was read and has a word. Undefined otherwise.
 */
export function commandFirstWords(value: unknown): readonly string[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const out = new Set<string>();
  for (const spec of value) {
    const read = parseCommandPrefixSpec(spec);
    if (!read.ok || read.prefix.words.length === 0) return undefined;
    out.add(read.prefix.words[0] as string);
  }
  return [...out];
}

/** Unquoted word characters of the safe subset (safe-subset.ts). */
const WORD_CHAR = "[A-Za-z0-9_\\-./,:@%+=]";
/** A quoted string of the safe subset, without backslash-newlines (a line holding one is not narrowed). */
const QUOTED = `(?:'[ -&(-~]*'|"[ #%-\\[\\]-_a-~]*")`;

/**
 * A regular superset of the command lines a `command` operator with these prefixes' first words may be certain of
 * (`match/shell/safe-subset.ts`, `matchCommand`): certain means the line is of the safe subset and every simple
 * command's first word (after quote removal) is one of `firstWords`. So wherever a simple command starts — at the
 * start, or after an unquoted `;`, `&`, `|` or newline and blanks — it is one of those words followed by the end of
 * the word, or any word with a quoted string in it (`'ls'`, `l's'`: read so, whatever its letters, for fewer
 * states), perhaps after redirections (`>/dev/null ls`). A line holding a backslash-newline (which the runtime
 * removes first, joining words) is not narrowed.
 */
export function commandLinesPattern(firstWords: readonly string[]): string {
  const words = [...new Set(firstWords)].sort();
  const word = `(?:${words.map(literal).join("|")})`;
  // A first word with quotes in it (`'ls'`, `l's'`) is read as any word that holds a quote: fewer states.
  const start = `${WORD_CHAR}*`;
  const token = `(?:[A-Za-z0-9_\\-./,:@%+= \\t<>]|>&[12]|${QUOTED})`;
  const redirection = `(?:[0-2]?(?:>&[12]|(?:>>|>|<)[ \\t]*${WORD_CHAR}*)[ \\t]*)`;
  const command = `${redirection}*(?:${word}(?:[ \\t<>]${token}*)?|${start}${QUOTED}${token}*)`;
  return `^(?:[ \\t\\n;&|]*${command})*[ \\t\\n;&|]*$|\\\\\\n`;
}

/**
 * The programs known never to run their operands (`match/shell/tables.ts`): a plain line of one simple command
 * headed by one of them runs nothing else, whatever its other words.
 */
export const INERT_HEADS: ReadonlySet<string> = NEVER_RUNS_OPERANDS;

/**
 * The plain lines (`match/shell/plain-line.ts`) of one simple command whose first word is `head` exactly: blanks,
 * `head`, then words of plain characters, none starting with `=`, after blanks. Every shell reads such a line as
 * that one command and those words.
 */
export function inertLinesPattern(head: string): string {
  const word = "[A-Za-z0-9_\\-./,:@%+][A-Za-z0-9_\\-./,:@%+=]*";
  return `^[ \\t]*${literal(head)}(?:[ \\t]+${word})*[ \\t]*$`;
}

/**
 * A `command` list's answer on every line of {@link inertLinesPattern}`(head)`, when it is the same on all of them,
 * for a `head` of {@link INERT_HEADS}: true when a prefix is `head` alone (every simple command of the line starts
 * with it, and the line is of the safe subset), false when no prefix's program may be `head` (the program is
 * compared by base name ignoring case, or as a versioned name: here any name `head` starts with, or that starts with
 * `head`, counts), since an inert program's operands are data. Undefined when the answer depends on the other words
 * (`echo hi`, `{ prefix: echo, options: [-n] }`, `echo$`) or an entry does not read.
 */
export function inertAnswer(value: unknown, head: string): Truth | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  let related = false;
  for (const spec of value) {
    const read = parseCommandPrefixSpec(spec);
    if (!read.ok) return undefined;
    const { words, exact, options } = read.prefix;
    const first = words[0];
    if (first === undefined) return undefined;
    if (first === head && words.length === 1 && !exact && options === undefined) return 1;
    const name = basename(first).toLowerCase();
    if (name.startsWith(head) || head.startsWith(name)) related = true;
  }
  return related ? undefined : 0;
}

/** The rooted spelling of a path prefix (as glob patterns read absolute paths: `/a` as `\0/a`). */
function rooted(prefix: string): string {
  if (!prefix.startsWith("/")) return prefix;
  return prefix === "/" ? "\u0000" : `\u0000${prefix}`;
}

/** One path operator's languages over normalised, rooted reading texts. */
interface PathReadings {
  readonly kind: "glob" | "path_prefix";
  /** Readings it certainly matches when the path is plain (glob: exact language; prefix: its text). */
  readonly certain: Dfa;
  /** Readings it may match. */
  readonly possible: Dfa;
  /** Readings it is never false on, when fewer than `possible` (a `path_prefix` of `.`: not `.` itself). */
  readonly sure?: Dfa;
  readonly prefix?: string;
  /**
   * A relative `path_prefix`'s texts as written, case and all (`^src/` and `^src$` for `src/`): a string it is
   * certain of is one of them, plain and in normal form, so its one reading is the string itself.
   */
  readonly written?: Dfa;
  /** A glob list that may match every path with an unknown segment (see {@link namesAnyUnknown}). */
  readonly unknownNames?: boolean;
}

/** A segment pattern of a glob that names a file or folder anywhere: never `.` or `..`, so some name matches it. */
const NAME_PART = "[A-Za-z0-9_*-][A-Za-z0-9._*-]*|\\.[A-Za-z0-9_*-][A-Za-z0-9._*-]*";

/**
 * Whether a glob list may match every path a reading of which has an unknown segment (a Windows short name such as
 * `PROGRA~1`, read as any name: glob-paths.ts matches it as any one segment), when it has no absolute reading: the
 * list has a file name anywhere (`**`, a slash, then a name such as `.env*`), which the unknown segment may be when
 * it is last, and a folder anywhere (the same, then a slash and `**`), which it may be when a segment follows it.
 */
function namesAnyUnknown(list: readonly string[]): boolean {
  const file = new RegExp(`^\\*\\*/(?:${NAME_PART})$`);
  const folder = new RegExp(`^\\*\\*/(?:${NAME_PART})/\\*\\*$`);
  return list.some((g) => file.test(g)) && list.some((g) => folder.test(g));
}

interface CommandWords {
  readonly words: readonly string[];
  /** The prefix as the runtime reads it (`coversWords`). */
  readonly input: CommandPrefix;
  /** A prefix without `$` and without options: certain wherever its words start the command. */
  readonly plain: boolean;
  /** A prefix with `$`: certain only of a simple command of exactly its words. */
  readonly exact: boolean;
  readonly key: string;
}

/**
 * Whether a command line may run the plain prefix `f` wherever it may run the plain prefix `e` (matcher.ts, the
 * possible answer): a command may run a prefix when its name is the prefix's first word's base name ignoring case,
 * the prefix's other words appear after it in order, and the letters of its option clusters among its short
 * options, ignoring case. So `f` may run wherever `e` may when their first words' base names are the same ignoring
 * case, `f`'s other words are some of `e`'s in order, and `f`'s option letters some of `e`'s (`rm -r` wherever
 * `rm -R` or `rm -R -f`).
 */
function mayRunWhere(f: CommandWords, e: CommandWords): boolean {
  if (!f.plain || !e.plain) return false;
  const name = (word: string): string => basename(word).toLowerCase();
  if (name(f.words[0] as string) !== name(e.words[0] as string)) return false;
  const rest = (words: readonly string[]): { words: string[]; letters: Set<string> } => {
    const out = { words: [] as string[], letters: new Set<string>() };
    for (const word of words.slice(1)) {
      if (OPTION_CLUSTER.test(word))
        for (const letter of word.slice(1).toLowerCase()) out.letters.add(letter);
      else out.words.push(word);
    }
    return out;
  };
  const a = rest(f.words);
  const b = rest(e.words);
  let j = 0;
  for (const word of b.words) if (word === a.words[j]) j++;
  return j === a.words.length && [...a.letters].every((letter) => b.letters.has(letter));
}

function startsWithList(longer: readonly string[], shorter: readonly string[]): boolean {
  // A word past the end of `longer` is undefined, never a word of `shorter`.
  return shorter.every((w, i) => longer[i] === w);
}

/** Host names (lower case, every form a pattern names) and `*.` suffixes (`.example.com`). */
interface UrlHosts {
  readonly names: ReadonlySet<string>;
  readonly suffixes: readonly string[];
}

/** The parts of a `url` operator that its facts compare (`null`: the part is not read). */
interface UrlParts {
  readonly schemes: ReadonlySet<string> | null;
  readonly hosts: UrlHosts | null;
  readonly ports: ReadonlySet<number> | null;
  readonly paths: ReadonlySet<string> | null;
  readonly keys: ReadonlySet<string> | null;
}

function listOf<T>(value: T | readonly T[] | undefined): readonly T[] | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? (value as readonly T[]) : [value as T];
}

/** The parts of a `url` operator, or `undefined` when one does not read as the runtime compiles it. */
function urlParts(spec: UrlSpec): UrlParts | undefined {
  const schemes = listOf(spec.scheme);
  let hosts: UrlHosts | null = null;
  const hostList = listOf(spec.host);
  if (hostList !== null) {
    const names = new Set<string>();
    const suffixes: string[] = [];
    for (const text of hostList) {
      const pattern = hostPattern(text);
      if (typeof pattern === "string") return undefined;
      if ("suffix" in pattern) suffixes.push(pattern.suffix);
      else for (const name of pattern.names) names.add(name);
    }
    hosts = { names, suffixes };
  }
  const ports = listOf(spec.port);
  const paths = listOf(spec.path);
  return {
    schemes: schemes === null ? null : new Set(schemes.map((s) => s.toLowerCase())),
    hosts,
    ports: ports === null ? null : new Set(ports),
    paths: paths === null ? null : new Set(paths),
    keys: spec.query === undefined ? null : new Set(spec.query.keys),
  };
}

function subsetOf<T>(a: ReadonlySet<T> | null, b: ReadonlySet<T> | null): boolean {
  return b === null || (a !== null && [...a].every((x) => b.has(x)));
}

function disjoint<T>(a: ReadonlySet<T> | null, b: ReadonlySet<T> | null): boolean {
  return a !== null && b !== null && [...a].every((x) => !b.has(x));
}

/** Every URL `a` reads as certain (possible) `b` reads as certain (possible) too. */
function urlCovers(a: UrlParts, b: UrlParts): boolean {
  if (!subsetOf(a.schemes, b.schemes) || !subsetOf(a.ports, b.ports)) return false;
  if (!subsetOf(a.paths, b.paths) || !subsetOf(a.keys, b.keys)) return false;
  if (b.hosts === null) return true;
  if (a.hosts === null) return false;
  const { names: bNames, suffixes: bSuffixes } = b.hosts;
  // A host name (never an IP address, whose IPv6 spellings the runtime reads as a maybe) under a `*.` suffix.
  const underSuffix = (name: string) =>
    /[a-z]/.test(name.slice(name.lastIndexOf(".") + 1)) &&
    !name.includes(":") &&
    bSuffixes.some((s) => name.endsWith(s) && name.length > s.length);
  if (![...a.hosts.names].every((name) => bNames.has(name) || underSuffix(name) || embedsOneOf(name, bNames)))
    return false;
  return a.hosts.suffixes.every((s) => bSuffixes.some((t) => s.endsWith(t)));
}

/**
 * Whether every host the runtime may read with the name `name` of a pattern (`HostPattern.names`) is also read
 * with one of `names`: true for an IPv6 address (`[::ffff:7f00:1]`) that embeds one of them. `hostVerdict`
 * (match/url.ts) matches a names pattern when one of `readHost(hostname).names` is among them, and those names are
 * the parser's host (`ascii`) and the dotted IPv4 addresses it embeds: a bracketed name is only ever the `ascii`,
 * so the host is that address, and its names are `readHost(name).names` (the runtime's host is canonical, as
 * `name` is). The verdict then depends on the host alone (a maybe when it embeds an address, else certain), so
 * `b` answers as `a` does on it.
 */
function embedsOneOf(name: string, names: ReadonlySet<string>): boolean {
  if (!name.startsWith("[")) return false;
  const read = readHost(name);
  return read !== undefined && read.ascii === name && read.names.some((n) => names.has(n));
}

/**
 * What a path glob says of the text it matches, in lower case and rooted (`rootedPath(path.toLowerCase())`): that
 * it is `text` (a glob without wildcards: every character of it is itself in `glob.ts`'s Translator) or starts
 * with `text` (`CompiledGlob.test` checks that the rooted path starts with the glob's literal prefix before it
 * runs the pattern). Undefined when the glob does not compile (the operator then does not either).
 */
interface PathStart {
  readonly text: string;
  readonly whole: boolean;
}

/** What the runtime's path glob `pattern` needs of a path (`lowered`: a lowered glob, run on the lowered path). */
function pathStart(pattern: string, lowered: boolean): PathStart | undefined {
  const compiled = compileGlob(pattern);
  if (!compiled.ok || !(compiled.glob instanceof CompiledGlob)) return undefined;
  if (!/[*?[\]{}\\]/.test(pattern)) {
    // The path is the glob's text: its lower case (a lowered glob is in lower case, and the path it is run on too).
    const text = rootedPath(pattern);
    return { text: lowered ? text : text.toLowerCase(), whole: true };
  }
  // The rooted path starts with the prefix; in lower case, with the lowered prefix as far as it is ASCII (each
  // ASCII character is lowered alone, whatever follows it). A lowered glob (`lowered`) is run on the lowered path.
  const prefix = compiled.glob.prefix;
  if (lowered) return { text: prefix, whole: false };
  let end = 0;
  while (end < prefix.length && prefix.charCodeAt(end) < 0x80) end++;
  return { text: prefix.slice(0, end).toLowerCase(), whole: false };
}

function startsMeet(a: PathStart, b: PathStart): boolean {
  if (a.whole && b.whole) return a.text === b.text;
  if (a.whole) return a.text.startsWith(b.text);
  if (b.whole) return b.text.startsWith(a.text);
  return a.text.startsWith(b.text) || b.text.startsWith(a.text);
}

/**
 * Whether no path `a`'s globs match exactly is one `b`'s globs may match (`pathVerdict` in match/url.ts: a glob
 * matches the path, or its lower-case spelling matches the path in lower case). Both are read on the same path
 * (the URL's, as `decodedPath` gives it), so texts it must start with, or be, that do not meet keep them apart.
 */
function pathsDisjoint(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  for (const pa of a) {
    const sa = pathStart(pa, false);
    if (sa === undefined) return false;
    for (const pb of b) {
      const exact = pathStart(pb, false);
      const folded = pathStart(pb.toLowerCase(), true);
      if (exact === undefined || startsMeet(sa, exact)) return false;
      // A lowered glob that does not compile matches nothing (`folded: null`).
      if (folded !== undefined && startsMeet(sa, folded)) return false;
    }
  }
  return true;
}

/**
 * Whether the operator is never a maybe on a URL another `url` operator is certain of. `testUrl` (match/url.ts)
 * answers a maybe before it reads any part only for the spelling (suspect characters, the written parts, the
 * parser's reading), alike for every operator, so a certain operator got past those; after them, the scheme and
 * the port are each false or read on, never a maybe (hosts, paths and query keys may be one).
 */
function neverMaybeWhenSpelt(p: UrlParts): boolean {
  return p.hosts === null && p.paths === null && p.keys === null;
}

/** A URL `a` reads as certain is one `b` reads as false. */
function urlExcludes(a: UrlParts, b: UrlParts): boolean {
  if (disjoint(a.schemes, b.schemes) || disjoint(a.ports, b.ports)) return true;
  // `a` certain has its path read and matched by an exact glob; `b` reads the same path after its scheme, host and
  // port, and is false where none of its globs may match it. Only where `b` reads no host or `a` does too: `b` is
  // a maybe on a host `readHost` refuses before it reads the path, and then so is `a`.
  if (a.paths !== null && b.paths !== null && (b.hosts === null || a.hosts !== null))
    if (pathsDisjoint(a.paths, b.paths)) return true;
  if (a.hosts === null || b.hosts === null) return false;
  const { names: bNames, suffixes: bSuffixes } = b.hosts;
  // A host `a` is certain of by a suffix (`*.example.com`) is a name under it, which `b` reads only when one of its
  // names is under that suffix too or its suffixes and that one meet (the apex `example.com` is under neither).
  const suffixesApart = a.hosts.suffixes.every(
    (s) =>
      ![...bNames].some((n) => n.endsWith(s) && n.length > s.length) &&
      !bSuffixes.some((t) => t.endsWith(s) || s.endsWith(t)),
  );
  return (
    suffixesApart &&
    [...a.hosts.names].every(
      (name) => !bNames.has(name) && !bSuffixes.some((s) => name.endsWith(s) && name.length > s.length),
    )
  );
}

/** The facts of one field's path and command operators. */
/** Shell words that open a compound construct (`if a; then b; fi`) or time a pipeline: no plain first word. */
export const RESERVED_WORDS: ReadonlySet<string> = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "do",
  "done",
  "case",
  "esac",
  "while",
  "until",
  "for",
  "in",
  "function",
  "select",
  "time",
  "coproc",
]);

/** A plain first word: a program name or path, with no quoting, expansion, assignment or reserved word. */
const FIRST_WORD = /^[A-Za-z0-9_./+,:@%-]+$/;

/** Whether a word is a plain first word of a command line ({@link FIRST_WORD}, not a reserved word). */
export function plainFirstWord(word: string): boolean {
  return FIRST_WORD.test(word) && !RESERVED_WORDS.has(word);
}

/** What a `regex` says a command line starts with: its first words, then perhaps the start of the next one. */
export interface LineStart {
  /** Whole words, the first a plain first word. */
  readonly words: readonly string[];
  /** The start of the word after them (the word may go on, or be written in quotes from its start). */
  readonly last?: string;
  /** Whether the line ends after `words` (the pattern has `$` there). */
  readonly ends?: boolean;
  /**
   * Whether the words may be separated by blanks of any kind and number (`\\s+`, a newline among them), not by one
   * space each.
   */
  readonly blanks?: boolean;
}

/** The characters a pattern names that are word characters of the safe subset, unquoted (`WORD_CHAR`). */
const PLAIN_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-./,:@%+=";
/** Characters a pattern may escape to name themselves (`\\-`, `\\.`, `\\+`). */
const ESCAPED_CHARS = "-./+*?()[]{}|^$\\,:@%=_";
/** The most alternatives a pattern's groups are expanded to. */
const MAX_STARTS = 64;

/**
 * A token of a pattern's start: a character, one space, blanks of another kind or number (`\\s`, a tab, ` +`), an
 * optional quote (`'?`) or the end (`$`).
 */
type StartToken = string | typeof BLANK | typeof SPACE | typeof QUOTE | typeof END;
const BLANK = 0;
const SPACE = 1;
const QUOTE = 2;
const END = 3;

/**
 * An atom of the start: a token, a group's alternatives, or a group not read whose every alternative starts with a
 * blank (`( [a-z]+)`: `lead` is that blank); undefined for an atom not read.
 */
type StartAtom =
  | { readonly token: StartToken }
  | { readonly alternatives: readonly StartItem[][] }
  | { readonly lead: typeof SPACE | typeof BLANK }
  | undefined;
interface StartItem {
  readonly atom: StartAtom;
  readonly min: number;
  readonly max: number;
}

/** Whether a pattern has an alternative at its top level (outside groups and classes). */
function topLevelAlternative(source: string): boolean {
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) return true;
  }
  return false;
}

/** The atom at `i` and where it ends, or undefined when it is not read (a class, `.`, a look-around, `\\d`). */
function parseAtom(
  source: string,
  i: number,
): { readonly atom: StartAtom; readonly next: number } | undefined {
  const c = source[i] as string;
  if (c === "$") return { atom: { token: END }, next: i + 1 };
  if (c === " ") return { atom: { token: SPACE }, next: i + 1 };
  if (c === "\t") return { atom: { token: BLANK }, next: i + 1 };
  if (c === "'" || (c !== "." && c !== "+" && PLAIN_CHARS.includes(c)))
    return { atom: { token: c }, next: i + 1 };
  const blanks = /^\[(?: |\\t|\\s)+\]/.exec(source.slice(i));
  if (blanks !== null) return { atom: { token: BLANK }, next: i + blanks[0].length };
  if (c === "\\") {
    const e = source[i + 1] as string;
    if (e === "s" || e === "t") return { atom: { token: BLANK }, next: i + 2 };
    if (ESCAPED_CHARS.includes(e)) return { atom: { token: e }, next: i + 2 };
    return undefined;
  }
  if (c !== "(") return undefined;
  let from = source.startsWith("(?:", i) ? i + 3 : i + 1;
  const alternatives: StartItem[][] = [];
  for (;;) {
    const inner = parseStart(source, from);
    if (inner.stopped || source[inner.next] === undefined) return groupLead(source, i);
    alternatives.push(inner.items);
    from = inner.next + 1;
    if (source[inner.next] === ")") return { atom: { alternatives }, next: from };
  }
}

/**
 * A group at `i` (`(` or `(?:`) whose alternatives are not read, as the blank each of them starts with (a space, a
 * tab, `\\s`, a class of blanks, not made optional), and where the group ends; undefined when one does not start so.
 */
function groupLead(
  source: string,
  i: number,
): { readonly atom: StartAtom; readonly next: number } | undefined {
  if (source[i + 1] === "?" && source[i + 2] !== ":") return undefined;
  const starts = [source[i + 1] === "?" ? i + 3 : i + 1];
  let depth = 0;
  let inClass = false;
  let end = -1;
  for (let j = starts[0] as number; j < source.length && end === -1; j++) {
    const c = source[j];
    if (c === "\\") j++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")" && depth > 0) depth--;
    else if (c === ")") end = j;
    else if (c === "|" && depth === 0) starts.push(j + 1);
  }
  if (end === -1) return undefined;
  let lead: typeof SPACE | typeof BLANK | undefined;
  for (const at of starts) {
    const rest = source.slice(at, end);
    const blank = /^(?: |\t|\\s|\\t|\[(?: |\\t|\\s)+\])/.exec(rest);
    // The blank must be there: not followed by `?`, `*` or a count from 0.
    if (blank === null || /^(?:[?*]|\{0)/.test(rest.slice(blank[0].length))) return undefined;
    const kind = blank[0] === " " ? SPACE : BLANK;
    lead = lead === undefined || lead === kind ? kind : BLANK;
  }
  return lead === undefined ? undefined : { atom: { lead }, next: end + 1 };
}

/**
 * Parses the items of a pattern's start from `at` up to `)`, `|` or the end; an atom not read ends the sequence,
 * the parse stopping there (a look-around `(?=` too: its `?` is read by no atom).
 */
function parseStart(
  source: string,
  at: number,
): { readonly items: StartItem[]; readonly next: number; readonly stopped: boolean } {
  const items: StartItem[] = [];
  let i = at;
  while (i < source.length && source[i] !== ")" && source[i] !== "|") {
    const read = parseAtom(source, i);
    if (read === undefined) {
      items.push({ atom: undefined, min: 1, max: 1 });
      return { items, next: i, stopped: true };
    }
    i = read.next;
    let min = 1;
    let max = 1;
    const q = source[i];
    if (q === "?" || q === "*" || q === "+") {
      min = q === "+" ? 1 : 0;
      max = q === "?" ? 1 : Number.POSITIVE_INFINITY;
      i++;
    } else if (q === "{") {
      const bounds = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
      if (bounds === null) {
        items.push({ atom: undefined, min: 1, max: 1 });
        return { items, next: i, stopped: true };
      }
      min = Number(bounds[1]);
      max = bounds[2] === undefined ? min : bounds[3] === "" ? Number.POSITIVE_INFINITY : Number(bounds[3]);
      i += bounds[0].length;
    }
    // A lazy quantifier reads as the greedy one here: the same strings.
    if (i > read.next && source[i] === "?") i++;
    items.push({ atom: read.atom, min, max });
  }
  return { items, next: i, stopped: false };
}

/**
 * Alternative token sequences a sequence of items starts with: `closed` ones end (`$`; one followed by more of the
 * pattern, which then matches nothing there, is kept), `cut` ones may go on.
 */
interface Starts {
  readonly open: StartToken[][];
  readonly closed: StartToken[][];
  readonly cut: StartToken[][];
}

/** The blank an item starts with when it is one that is there (a space or another blank), else undefined. */
function leadingBlank(item: StartItem | undefined): typeof SPACE | typeof BLANK | undefined {
  if (item === undefined || item.atom === undefined || item.min === 0) return undefined;
  if ("token" in item.atom)
    return item.atom.token === SPACE || item.atom.token === BLANK ? item.atom.token : undefined;
  if ("lead" in item.atom) return item.atom.lead;
  let kind: typeof SPACE | typeof BLANK | undefined;
  for (const alternative of item.atom.alternatives) {
    const first = leadingBlank(alternative[0]);
    if (first === undefined) return undefined;
    kind = kind === undefined || kind === first ? first : BLANK;
  }
  return kind;
}

/**
 * The starts of a sequence: each item in turn; an item not read or optional (but a quote) cuts the open ones. An
 * optional group that starts with a blank, followed by the end or by a blank, ends the word before it: the line
 * ends there or goes on with a blank (`^git push( [a-z]+)*$` is `git push` alone, or `git push` and a blank).
 */
function startsOf(items: readonly StartItem[]): Starts {
  let open: StartToken[][] = [[]];
  const closed: StartToken[][] = [];
  const cut: StartToken[][] = [];
  for (const [index, { atom, min, max }] of items.entries()) {
    const token = atom !== undefined && "token" in atom ? atom.token : undefined;
    if (token === "'" && min === 0 && max === 1) {
      for (const o of open) o.push(QUOTE);
      continue;
    }
    if (atom !== undefined && min === 0 && open.every((o) => o.length > 0)) {
      const blank = leadingBlank({ atom, min: 1, max: 1 });
      const next = items[index + 1];
      const nextToken = next?.atom !== undefined && "token" in next.atom ? next.atom.token : undefined;
      const ends = nextToken === END && next?.min === 1 && next.max === 1;
      const then = leadingBlank(next);
      if (blank !== undefined && (ends || then !== undefined)) {
        for (const o of open) {
          // Without the group: the end, or the blank after it; with it: its blank. A blank of either kind when
          // they differ.
          if (ends) closed.push([...o, END]);
          cut.push([...o, ends || then === blank ? blank : BLANK]);
        }
        return { open: [], closed, cut };
      }
    }
    if (atom !== undefined && "lead" in atom) {
      // A group not read that is there: the word before it ends with its blank.
      for (const o of open) cut.push(o.length > 0 && min > 0 ? [...o, atom.lead] : o);
      return { open: [], closed, cut };
    }
    if (atom === undefined || min === 0) {
      cut.push(...open);
      return { open: [], closed, cut };
    }
    if (token === END) {
      for (const o of open) closed.push([...o, END]);
      return { open: [], closed, cut };
    }
    const inner: Starts =
      token !== undefined
        ? { open: [[token]], closed: [], cut: [] }
        : joinStarts((atom as { alternatives: readonly StartItem[][] }).alternatives.map(startsOf));
    if (open.length * (inner.open.length + inner.closed.length + inner.cut.length) > MAX_STARTS) {
      cut.push(...open);
      return { open: [], closed, cut };
    }
    const next: StartToken[][] = [];
    for (const o of open) {
      for (const a of inner.open) next.push([...o, ...a]);
      for (const a of inner.closed) closed.push([...o, ...a]);
      for (const a of inner.cut) cut.push([...o, ...a]);
    }
    if (max === 1) open = next;
    else if (token === SPACE || token === BLANK) open = next.map((tokens) => [...tokens.slice(0, -1), BLANK]);
    else {
      // Anything but a blank repeated is read once: the rest is not known.
      cut.push(...next);
      return { open: [], closed, cut };
    }
  }
  return { open, closed, cut };
}

/** The starts of a group: those of each of its alternatives. */
function joinStarts(all: readonly Starts[]): Starts {
  return {
    open: all.flatMap((s) => s.open),
    closed: all.flatMap((s) => s.closed),
    cut: all.flatMap((s) => s.cut),
  };
}

/**
 * The words a sequence of start tokens says a line starts with, or undefined when they do not name a whole plain
 * first word. A token not read (such as `*` or a quote) ends the reading there; so does the end after a blank (the
 * line ends with the blank: its words are followed by a blank). Words separated by anything but single spaces (a
 * blank of another kind only ends the last word) are marked `blanks`.
 */
function lineStartOfTokens(tokens: readonly StartToken[]): LineStart | undefined {
  const words: string[] = [];
  let current = "";
  let quoted = false;
  let ends = false;
  let spaced = true;
  let blank = false;
  for (const token of tokens) {
    if (token === END && !quoted && current !== "") {
      words.push(current);
      current = "";
      ends = true;
    } else if (token === QUOTE && current === "" && words.length > 0) quoted = true;
    else if ((token === BLANK || token === SPACE) && !quoted && words.length + current.length > 0) {
      if (current !== "") words.push(current);
      else blank = true;
      blank ||= token === BLANK;
      current = "";
    } else if (typeof token === "string" && PLAIN_CHARS.includes(token)) {
      if (blank) spaced = false;
      blank = false;
      current += token;
    } else break;
  }
  const [first] = words;
  if (first === undefined || !plainFirstWord(first)) return undefined;
  return {
    words,
    ...(current === "" ? {} : { last: current }),
    ...(ends ? { ends } : {}),
    ...(spaced ? {} : { blanks: true }),
  };
}

/**
 * What a `regex` says a command line starts with: for each of its alternatives, a plain first word, the whole words
 * after it and the start of the next one, and whether the line ends there. `^git (push|commit)` is "`git`, then a
 * word that starts with `push` or with `commit`", `^npm test$` is "exactly `npm test`", `^git push '?origin` (as the
 * verifier writes a prefix) names a last word perhaps quoted from its start. Read are plain word characters
 * (punctuation escaped), blanks (a space, a tab, `\s`, repeated or not), `$`, and groups of them while they expand to
 * at most {@link MAX_STARTS} alternatives; anything else (a class, `.`, an optional part) ends the reading there,
 * but for a group that starts with a blank (read or not: `( [a-z]+)*`), which ends the word before it when it is
 * there or, optional, when the end or a blank follows it (`^git push( [a-z]+)*$` is `git push` alone or with a blank
 * after it, never `git pusha`).
 * Undefined when an alternative does not name a whole plain first word, or the pattern has a top-level `|`.
 */
export function lineStartsRegex(value: unknown): readonly LineStart[] | undefined {
  if (typeof value !== "string" || !value.startsWith("^") || topLevelAlternative(value)) return undefined;
  const read = startsOf(parseStart(value, 1).items);
  const starts: LineStart[] = [];
  for (const tokens of [...read.closed, ...read.cut, ...read.open]) {
    const start = lineStartOfTokens(tokens);
    if (start === undefined) return undefined;
    starts.push(start);
  }
  return starts;
}

/**
 * Whether a command line whose first word is `word` (plain, as written) may be certainly covered by a prefix whose
 * first word is `first`: only when one holds the other, ignoring case (a conservative reading of names the runtime
 * may fold: `LS`, `ls2`, `/bin/ls`).
 */
function firstWordsMeet(word: string, first: string): boolean {
  const a = word.toLowerCase();
  const b = first.toLowerCase();
  return a.includes(b) || b.includes(a);
}

/**
 * Whether a prefix may cover a line that starts as `start` says: its first word meets the line's, it has the line's
 * words where it has words, at the next one a word that starts with the text named (the line's word may go on), and
 * no more words than the line where the line ends.
 */
/**
 * Whether a line that starts as `start` says runs the prefix `e` as the runtime reads it (a maybe at least; an exact
 * prefix or one with options too, which are possible wherever their words start the command):
 * its first simple command's words start with `e`'s words, as written (matcher.ts `mayRun` compares the first word
 * by name and the next ones as written, option letters in any order). With blanks of any kind between the line's
 * words, a newline may end the command after its first word: then only a one-word prefix.
 */
function runsStart(start: LineStart, e: CommandWords): boolean {
  return (
    e.words.length <= start.words.length &&
    (start.blanks !== true || e.words.length === 1) &&
    e.words.every((w, i) => start.words[i] === w)
  );
}

/**
 * What a `prefix` operator says a command line starts with, read as {@link lineStartsRegex} reads `^` and a text:
 * its whole words (each followed by a blank), then the start of the next word, if any. Undefined unless the text
 * is plain words separated by one space, the first a plain first word.
 */
export function prefixLineStart(value: unknown): readonly LineStart[] | undefined {
  if (typeof value !== "string" || !/^[A-Za-z0-9_./+,:@%=-]+(?: [A-Za-z0-9_./+,:@%=-]+)* ?$/.test(value))
    return undefined;
  const parts = value.split(" ");
  const last = parts.pop() as string;
  const words = parts;
  if (words.length === 0 || !plainFirstWord(words[0] as string)) return undefined;
  return [last === "" ? { words } : { words, last }];
}

/** The plain text a pattern's alternative starts with, and whether every item so far was read (it may go on). */
interface Lead {
  readonly text: string;
  readonly open: boolean;
}

/**
 * The plain texts a sequence of items may start with, one per way through it: a group is each of its alternatives, an
 * optional item (`(ba)?sh`) is read and left out, a repeated one is read once and ends the text, and anything but a
 * plain character ends it too. An optional quote before any text (`^'?rm`, as the verifier writes a part) is the
 * word's start in quotes, which hold the text as it is. Undefined past {@link MAX_STARTS} ways.
 */
function leadsOf(items: readonly StartItem[]): Lead[] | undefined {
  let leads: Lead[] = [{ text: "", open: true }];
  for (const item of items) {
    const { atom, min, max } = item;
    const token = atom !== undefined && "token" in atom ? atom.token : undefined;
    if (token === "'" && min === 0 && max === 1 && leads.every((l) => l.text === "")) continue;
    let once: Lead[];
    if (atom === undefined || "lead" in atom) once = [{ text: "", open: false }];
    else if (token !== undefined)
      once = [
        typeof token === "string" && PLAIN_CHARS.includes(token)
          ? { text: token, open: true }
          : { text: "", open: false },
      ];
    else {
      const inner = (atom as { alternatives: readonly StartItem[][] }).alternatives.map(leadsOf);
      if (inner.some((l) => l === undefined)) return undefined;
      once = inner.flat() as Lead[];
    }
    if (max > 1) once = once.map((l) => ({ text: l.text, open: false }));
    if (min === 0) once = [...once, { text: "", open: true }];
    const next: Lead[] = [];
    for (const lead of leads) {
      if (!lead.open) next.push(lead);
      else for (const o of once) next.push({ text: lead.text + o.text, open: o.open });
    }
    if (next.length > MAX_STARTS) return undefined;
    leads = next;
  }
  return leads;
}

/**
 * The texts a command line's first word starts with, one of which it has, when a `regex` (`^sh`, `^(rm|sudo)\\b`)
 * or a `prefix` (`python`) names only the start of it: for each alternative the plain characters the pattern reads
 * first (as {@link leadsOf} reads them: up to anything else, a `\\b`, a class, a blank; an optional part both ways).
 * A line of the safe subset that starts so has its first simple command's first word start so: it is a word of
 * plain characters, quotes or a line continuation at most after the text (a redirection starts with a digit, `<`
 * or `>`, so no text starting with a digit is read; an assignment is no first word of the subset). An optional
 * quote before the text (`^'?rm`) starts the word in quotes, which hold the text as it is. Undefined when an
 * alternative names no such text.
 */
export function firstWordStarts(operator: string, value: unknown): readonly string[] | undefined {
  if (typeof value !== "string") return undefined;
  let texts: string[];
  if (operator === "prefix") texts = [/^[A-Za-z0-9_\-./,:@%+=]*/.exec(value)?.[0] ?? ""];
  else if (operator === "regex") {
    if (!value.startsWith("^") || topLevelAlternative(value)) return undefined;
    const read = leadsOf(parseStart(value, 1).items);
    if (read === undefined) return undefined;
    // A text another one starts says no more than that one: the shortest of each kind are kept, once.
    const all = read.map((lead) => lead.text);
    texts = [...new Set(all)].filter((t) => !all.some((u) => u !== t && t.startsWith(u)));
  } else return undefined;
  if (texts.length === 0 || texts.some((t) => t === "" || /^[0-9=]/.test(t))) return undefined;
  return texts;
}

function agrees(start: LineStart, e: CommandWords): boolean {
  const { words, last, ends } = start;
  return (
    firstWordsMeet(words[0] as string, e.words[0] as string) &&
    words.every((w, i) => i === 0 || i >= e.words.length || e.words[i] === w) &&
    (last === undefined ||
      e.words.length <= words.length ||
      (e.words[words.length] as string).startsWith(last)) &&
    (ends !== true || e.words.length <= words.length)
  );
}

export class FieldFacts {
  readonly #paths = new Map<number, PathReadings>();
  readonly #commands = new Map<number, readonly CommandWords[]>();
  readonly #commandAtoms = new Map<number, Atom>();
  /** Per pair of `command` atoms, whether the first certain makes the second false (see `#certainExcludes`). */
  readonly #excludes = new Map<string, boolean>();
  /** `command` atoms every prefix of which was read (a prefix not read says nothing of first words). */
  readonly #completeCommands = new Set<number>();
  /** `regex` atoms that name the words a line starts with (see {@link lineStartsRegex}). */
  readonly #firstWords = new Map<number, readonly LineStart[]>();
  /** `regex` and `prefix` atoms that name how a line's first word starts (see {@link firstWordStarts}). */
  readonly #firstWordStarts = new Map<number, readonly string[]>();
  readonly #urls = new Map<number, UrlParts>();
  readonly #k: number;
  readonly #cache = new Map<string, boolean>();
  /** Every rooted reading text (`\0` first). */
  #rooted: Dfa | undefined;
  readonly #automata: Automata;

  /**
   * @param automata - over an alphabet cut for the operators' patterns (`PathLanguages.addBoundaries`).
   * @param atoms - the field's atoms; facts are kept for its `glob`, `path_prefix` and `command` atoms.
   */
  constructor(automata: Automata, atoms: readonly Atom[]) {
    this.#automata = automata;
    const alphabet = automata.alphabet;
    this.#k = alphabet.size;
    const parse = (pattern: string, flags: string): Dfa => automata.pattern(pattern, flags);
    const k = alphabet.size;
    for (const atom of atoms) {
      if (atom.operator === "glob") {
        const list = typeof atom.value === "string" ? [atom.value] : (atom.value as string[]);
        const { certain, possible } = automata.paths().globReadings(list);
        this.#paths.set(atom.id, { kind: "glob", certain, possible, unknownNames: namesAnyUnknown(list) });
      } else if (atom.operator === "path_prefix") {
        const prefix = atom.value as string;
        let possible: Dfa;
        if (prefix === "") possible = constant(k, true);
        else {
          // The runtime compares a reading's text (`` for the empty relative path, not `.`).
          const text = rooted(prefix);
          // A prefix ending in `/` names a folder: the folder itself too (`lib/vendor` for `lib/vendor/`).
          const folder =
            prefix.length > 1 && prefix.endsWith("/") ? `|^${literal(rooted(prefix.slice(0, -1)))}$` : "";
          // Ignoring case (which also reads the text as written).
          possible = parse(`^${literal(text)}${folder}`, "iu");
          possible = subtract(possible, literals(alphabet, ["."]));
        }
        // The path `.` is plain, in normal form and starts with `.`: a prefix of `.` or `./` is certain of it, which
        // a glob reads as `.`. Another spelling of the empty path (`a/..`) is read as `.` too, and the prefix is false
        // there: `.` is a reading it may match, not one it never is false on.
        const sure = possible;
        if (prefix === "." || prefix === "./") possible = union(possible, literals(alphabet, ["."]));
        // Not the empty path's prefixes (`.` is read as ``) nor an absolute one (never certain).
        const written =
          prefix === "" || prefix === "." || prefix === "./" || prefix.startsWith("/")
            ? undefined
            : parse(
                `^${literal(prefix)}${prefix.length > 1 && prefix.endsWith("/") ? `|^${literal(prefix.slice(0, -1))}$` : ""}`,
                "u",
              );
        this.#paths.set(atom.id, {
          kind: "path_prefix",
          certain: possible,
          possible,
          sure,
          prefix,
          ...(written === undefined ? {} : { written }),
        });
      } else if (atom.operator === "command") {
        const entries: CommandWords[] = [];
        let complete = true;
        for (const spec of atom.value as unknown[]) {
          const read = parseCommandPrefixSpec(spec);
          if (!read.ok) {
            complete = false;
            continue;
          }
          const plain = !read.prefix.exact && read.prefix.options === undefined;
          entries.push({
            words: read.prefix.words,
            input: read.prefix,
            plain,
            exact: read.prefix.exact,
            key: JSON.stringify(spec),
          });
        }
        this.#commands.set(atom.id, entries);
        this.#commandAtoms.set(atom.id, atom);
        if (complete && entries.length > 0 && entries.every((e) => e.words.length > 0))
          this.#completeCommands.add(atom.id);
      } else if (atom.operator === "regex" || atom.operator === "prefix") {
        const start = atom.operator === "regex" ? lineStartsRegex(atom.value) : prefixLineStart(atom.value);
        if (start !== undefined) this.#firstWords.set(atom.id, start);
        const texts = firstWordStarts(atom.operator, atom.value);
        if (texts !== undefined) this.#firstWordStarts.set(atom.id, texts);
      } else if (atom.operator === "url") {
        const parts = urlParts(atom.value as UrlSpec);
        if (parts !== undefined) this.#urls.set(atom.id, parts);
      }
    }
  }

  /** Whether the facts allow these truths of the field's atoms (atoms not listed may have any truth). */
  allows(truths: ReadonlyMap<number, Truth>): boolean {
    return (
      this.#pathsAllow(truths) &&
      this.#commandsAllow(truths) &&
      this.#firstWordsAllow(truths) &&
      this.#urlsAllow(truths)
    );
  }

  /**
   * A command line whose first word is a plain word is certainly covered by a list of prefixes only when one of
   * them starts with that word: certain means every simple command starts with a prefix's words as written, and the
   * first simple command of a line that starts with a plain word (no assignment, redirection or reserved word)
   * starts with it. So with the words after it the regex names: a prefix that has a word there has that word, and
   * at the last one a word that starts with the text named (the line's word may go on).
   */
  #firstWordsAllow(truths: ReadonlyMap<number, Truth>): boolean {
    for (const [r, starts] of this.#firstWords) {
      if (truths.get(r) !== 1) continue;
      const lists = [...this.#completeCommands]
        .filter((c) => truths.get(c) === 1)
        .map((c) => this.#commands.get(c) as readonly CommandWords[]);
      // The line starts one of these ways; whichever it is, every certain list has a prefix that agrees with it.
      if (!starts.some((start) => lists.every((list) => list.some((e) => agrees(start, e))))) return false;
      // And a list with a plain prefix of the line's first words, as written, may run it: never false there.
      for (const [c, entries] of this.#commands) {
        if (truths.get(c) !== 0) continue;
        if (starts.every((start) => entries.some((e) => runsStart(start, e)))) return false;
      }
    }
    // A line whose first word starts with one of these texts is certain for a complete list only when a prefix's first
    // word, as written, starts with it too: certain means the first word is a prefix's first word.
    for (const [r, texts] of this.#firstWordStarts) {
      if (truths.get(r) !== 1) continue;
      const lists = [...this.#completeCommands]
        .filter((c) => truths.get(c) === 1)
        .map((c) => this.#commands.get(c) as readonly CommandWords[]);
      if (!texts.some((t) => lists.every((list) => list.some((e) => (e.words[0] as string).startsWith(t)))))
        return false;
    }
    return true;
  }

  /**
   * Whether `b` is false wherever `a` is certain: certain means every simple command of the line starts with a
   * prefix of `a`, and each of them is either an inert program alone (its operands are data, so `b` is false on
   * every command it heads when `inertAnswer` says so: `["ls", "echo"]` certain, `["rm"]` false) or exact (`$`: the
   * command is exactly its plain words, on which `b` is run). A line of such commands alone runs nothing else.
   */
  #certainExcludes(a: number, b: number): boolean {
    const key = `${a}\u0000${b}`;
    let known = this.#excludes.get(key);
    if (known === undefined) {
      const entries = this.#commands.get(a) as readonly CommandWords[];
      const other = this.#commandAtoms.get(b) as Atom;
      known =
        this.#completeCommands.has(a) &&
        entries.every((e) => {
          const first = e.words[0] as string;
          if (e.plain && e.words.length === 1 && INERT_HEADS.has(first))
            return inertAnswer(other.value, first) === 0;
          if (!e.exact) return false;
          // Read as the shell reads it: one simple command of exactly these words (no assignment, no keyword).
          const text = e.words.join(" ");
          const read = readPlainLine(text);
          return read?.length === 1 && read[0]?.join(" ") === text && other.test(text) === 0;
        });
      this.#excludes.set(key, known);
    }
    return known;
  }

  #urlsAllow(truths: ReadonlyMap<number, Truth>): boolean {
    const ids = [...this.#urls.keys()].filter((id) => truths.has(id));
    for (const a of ids) {
      const ta = truths.get(a) as Truth;
      const pa = this.#urls.get(a) as UrlParts;
      for (const b of ids) {
        if (b === a) continue;
        const tb = truths.get(b) as Truth;
        const pb = this.#urls.get(b) as UrlParts;
        if (urlCovers(pa, pb) && ((ta === 1 && tb !== 1) || (ta !== 0 && tb === 0))) return false;
        if (ta === 1 && tb !== 0 && urlExcludes(pa, pb)) return false;
        if (ta === 1 && tb === 2 && neverMaybeWhenSpelt(pb)) return false;
      }
    }
    return true;
  }

  #parseRooted(): Dfa {
    this.#rooted = this.#automata.pattern("^\\u0000", "u");
    return this.#rooted;
  }

  #covered(key: string, what: Dfa, by: readonly Dfa[]): boolean {
    let known = this.#cache.get(key);
    if (known === undefined) {
      let all = constant(this.#k, false);
      for (const d of by) all = union(all, d);
      known = isSubset(what, all);
      this.#cache.set(key, known);
    }
    return known;
  }

  /** Whether a glob operator may match every absolute reading (`/**`: every rooted reading text). */
  #everyAbsolute(id: number): boolean {
    const pa = this.#paths.get(id) as PathReadings;
    if (pa.kind !== "glob") return false;
    const key = `E${id}`;
    let known = this.#cache.get(key);
    if (known === undefined) {
      known = isSubset(this.#automata.pattern("^\\u0000(?:/[\\s\\S]*)?$", "u"), pa.possible);
      this.#cache.set(key, known);
    }
    return known;
  }

  /** Whether a path operator may match only absolute readings (its possible-language starts with the root). */
  #absoluteOnly(id: number): boolean {
    const key = `A${id}`;
    let known = this.#cache.get(key);
    if (known === undefined) {
      const rooted = this.#rooted ?? this.#parseRooted();
      known = isSubset((this.#paths.get(id) as PathReadings).possible, rooted);
      this.#cache.set(key, known);
    }
    return known;
  }

  #pathsAllow(truths: ReadonlyMap<number, Truth>): boolean {
    const ids = [...this.#paths.keys()].filter((id) => truths.has(id));
    const falseIds = ids.filter((id) => truths.get(id) === 0);
    for (const a of ids) {
      const truth = truths.get(a) as Truth;
      const pa = this.#paths.get(a) as PathReadings;
      if (truth !== 0) {
        // May match an absolute prefix (path_prefix.ts): the path may be anywhere, starts with the prefix, a reading
        // starts with it (so is absolute), or a reading has an unknown segment. A glob that may match every
        // absolute reading is false only where none of the first three is, so a reading has an unknown segment,
        // and (being false) no reading is absolute: a list that names a file and a folder anywhere may match it.
        if (
          pa.kind === "path_prefix" &&
          (pa.prefix as string).startsWith("/") &&
          falseIds.some((b) => this.#everyAbsolute(b)) &&
          falseIds.some((c) => (this.#paths.get(c) as PathReadings).unknownNames === true)
        )
          return false;
        // May match a: may match one of the operators that are false.
        if (pa.kind === "path_prefix") {
          for (const b of falseIds) {
            const pb = this.#paths.get(b) as PathReadings;
            if (pb.kind === "path_prefix" && (pa.prefix as string).startsWith(pb.prefix as string))
              return false;
          }
        } else if (falseIds.length > 0) {
          const by = falseIds.map((b) => {
            const pb = this.#paths.get(b) as PathReadings;
            return pb.sure ?? pb.possible;
          });
          if (this.#covered(`P${a}|${falseIds.join(",")}`, pa.possible, by)) return false;
        }
      }
      if (truth === 1) {
        // Certainly matches a: a plain relative path, whose one reading is relative, so an operator that reads
        // only absolute paths (`/etc/**`, `path_prefix: /etc`), `a` itself included, is false on it.
        if (this.#absoluteOnly(a)) return false;
        for (const b of ids) if (b !== a && truths.get(b) !== 0 && this.#absoluteOnly(b)) return false;
        // A plain path has that one reading, which a glob reads alone (glob-paths.ts): a glob none of whose possible
        // readings `a` may be certain of is false there (`src/**` certain, `lib/**` false). Not a `path_prefix`, which
        // also reads the text as written (`lib/../src/a` starts with `lib/`).
        for (const b of ids) {
          if (b === a || truths.get(b) === 0) continue;
          const pb = this.#paths.get(b) as PathReadings;
          if (pb.kind !== "glob") continue;
          const key = `M${a}|${b}`;
          let met = this.#cache.get(key);
          if (met === undefined) {
            met = meets(pa.certain, pb.possible);
            this.#cache.set(key, met);
          }
          if (!met) return false;
        }
        // Certainly matches a: certainly matches a glob whose exact language covers it, or may match one.
        // Not `a` itself, which is certain.
        const notCertain = ids.filter((b) => truths.get(b) !== 1);
        if (pa.kind === "path_prefix") {
          for (const b of notCertain) {
            const pb = this.#paths.get(b) as PathReadings;
            if (pb.kind === "path_prefix" && (pa.prefix as string).startsWith(pb.prefix as string))
              return false;
            // The string is its own one reading, which a glob whose exact language holds every text the prefix is
            // certain of matches (`src/**` for `src/`): certain too.
            if (pb.kind === "glob" && pa.written !== undefined) {
              const key = `W${a}|${b}`;
              let covered = this.#cache.get(key);
              if (covered === undefined) {
                covered = isSubset(pa.written, pb.certain);
                this.#cache.set(key, covered);
              }
              if (covered) return false;
            }
          }
          continue;
        }
        const by: Dfa[] = [];
        const used: string[] = [];
        for (const b of notCertain) {
          const pb = this.#paths.get(b) as PathReadings;
          if (pb.kind === "glob") {
            by.push(pb.certain);
            used.push(`c${b}`);
          }
          if (truths.get(b) === 0) {
            by.push(pb.sure ?? pb.possible);
            used.push(`p${b}`);
          }
        }
        if (this.#covered(`C${a}|${used.join(",")}`, pa.certain, by)) return false;
      }
    }
    return true;
  }

  #commandsAllow(truths: ReadonlyMap<number, Truth>): boolean {
    const ids = [...this.#commands.keys()].filter((id) => truths.has(id));
    const falseWords = ids
      .filter((id) => truths.get(id) === 0)
      .flatMap((id) => this.#commands.get(id) as readonly CommandWords[]);
    for (const a of ids) {
      const entries = this.#commands.get(a) as readonly CommandWords[];
      const truth = truths.get(a) as Truth;
      // May run a prefix of a: may run a prefix of a false operator made of its first words, or one it may run
      // wherever a's may run (see `mayRunWhere`).
      if (
        truth !== 0 &&
        entries.length > 0 &&
        entries.every((e) => falseWords.some((f) => startsWithList(e.words, f.words) || mayRunWhere(f, e)))
      ) {
        return false;
      }
      if (truth !== 1) continue;
      for (const b of ids) {
        if (b === a) continue;
        if (truths.get(b) !== 0 && this.#certainExcludes(a, b)) return false;
        if (truths.get(b) === 1) {
          // Both certain: the first simple command's words start with a prefix of each, so one of a's prefixes and
          // one of b's are the same words or one starts the other (a list none of whose prefixes reads says nothing).
          const others = this.#commands.get(b) as readonly CommandWords[];
          if (entries.length === 0 || others.length === 0) continue;
          const meet = entries.some((e) =>
            others.some((f) => startsWithList(e.words, f.words) || startsWithList(f.words, e.words)),
          );
          if (!meet) return false;
          continue;
        }
        const others = this.#commands.get(b) as readonly CommandWords[];
        if (entries.length === 0) continue;
        // Every simple command is covered by a prefix of a that one of b's covers too: b is certain as a is. A
        // command an exact prefix covers is its words alone (`npm test$`), which the runtime's own `coversWords`
        // reads for b's prefix. One a plain prefix or one with options covers starts with its words, and no code
        // argument ends past them; a plain prefix of b made of its first words covers it when none ends past those
        // either. Arguments are read left to right, each from its own word and those before it, so those that
        // start inside a's words are those `codeArgumentsEnd` finds in them, and end where they end there unless
        // they run to the end of a's words (`git -c` covers `git -c x` for `git -c`, not for `git`).
        const same = (e: CommandWords, f: CommandWords): boolean =>
          f.key === e.key ||
          (e.exact
            ? coversWords(f.input, e.words)
            : f.plain && startsWithList(e.words, f.words) && codeArgumentsEnd(e.words) <= f.words.length);
        if (entries.every((e) => others.some((f) => same(e, f)))) return false;
        // Or with one whose first words b lists as a plain prefix: b may run it. Not certainly: the words after
        // the shorter prefix may make it a maybe (`git -c` is certain of `git -c` and a maybe for `git`, whose
        // `-c` may set a command to run).
        const covered = entries.every((e) =>
          others.some((f) => f.key === e.key || (f.plain && startsWithList(e.words, f.words))),
        );
        if (covered && truths.get(b) === 0) return false;
      }
    }
    return true;
  }
}
