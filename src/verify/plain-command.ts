/**
 * Where a `command` list is known to be false, and where it is known to be true, on plain lines of one simple
 * command: words of `A-Z a-z 0-9 _ - . / , : @ % +` (no `=`), one blank between them. Every shell and both of the
 * runtime's readers read such a line as exactly those words (plain-line.ts), and the runtime's plain walk
 * (prefix-set.ts `walkPlain`) decides it from the words alone, so both sets are regular and written here as
 * patterns of the verify engine. Each is a subset of the truth, built *inert by list*: a line is counted only when
 * none of its words is one the runtime reads specially (a shell, a wrapper, a builtin that is not inert, a program
 * that may run its operands, an argument that holds code), so a table the runtime grows can only make these sets
 * smaller, never wrong, as long as the names below come from the same tables.
 *
 * - **false** (`falseLines`): the list may run nowhere in the line. The runtime marks a prefix possible when some
 *   word's base name, in lower case and perhaps with a version after it (`git2`, `python3.11`), is the prefix's
 *   first word's, and the prefix's later plain words follow it in order (option letters are not needed here: a
 *   line that would need them is counted as possible); or when a later word is a shell or a program that runs
 *   what it reads (`xargs`, `sudo`); or when the command word is a wrapper, a shell, a builtin that is not inert,
 *   holds a `/`, or is a program with an argument that holds code (programs.ts) — each left out here.
 * - **true** (`trueLines`): the line starts with a prefix's words as written and the prefix covers it (nothing after
 *   an exact prefix; every later word starting with `-` one of a prefix's options, `--` included), and the line has
 *   none of the words above.
 */
import { basename } from "../runtime/match/shell/matcher.js";
import { CODE_ARGUMENT_PROGRAMS, type ProgramForms } from "../runtime/match/shell/programs.js";
import { parseCommandPrefixSpec } from "../runtime/match/shell/reader.js";
import {
  CODE_RUNNERS,
  NEVER_RUNS_OPERANDS,
  PARSER_RESERVED_WORDS,
  READABLE_WRAPPERS,
  SHELLS,
  SUBSET_REFUSED_FIRST_WORDS,
  WRAPPERS,
} from "../runtime/match/shell/tables.js";

/** A character of a plain word (plain-line.ts), `=` left out: a word holding one may be read as code. */
const WORD_CHAR = "[A-Za-z0-9_./,:@%+\\-]";
/** The same, but `-`: the first character of an operand. */
const OPERAND_START = "[A-Za-z0-9_./,:@%+]";
/** A word of a plain line without `=` (plain-line.ts reads such a line as its words split at blanks). */
export const PLAIN_WORD = `${WORD_CHAR}+`;
const WORD = PLAIN_WORD;
/** The plain lines of one simple command, one blank between words. */
export const PLAIN_COMMAND_LINE = `^${WORD}(?: ${WORD})*$`;
/** A version after a name (`bash5.2`, `python3.11`, `git2`): matcher.ts VERSION_SUFFIX, either case. */
const VERSION = "(?:[-_.]?[0-9][0-9.]*[A-Za-z]?)?";
/** Any rest of a line after a whole word: nothing, or a blank and more. */
const REST = "(?: .*)?";

function escaped(ch: string): string {
  return `\\u{${(ch.codePointAt(0) as number).toString(16)}}`;
}

/** A pattern of `text` as written. */
function exactly(text: string): string {
  let out = "";
  for (const ch of text) out += escaped(ch);
  return out;
}

/** A pattern of `text` in either case (the runtime lower-cases base names). */
function eitherCase(text: string): string {
  let out = "";
  for (const ch of text) {
    const lower = ch.toLowerCase();
    const upper = ch.toUpperCase();
    out += lower !== upper && lower.length === 1 && upper.length === 1 ? `[${lower}${upper}]` : escaped(ch);
  }
  return out;
}

/** A whole word whose base name is one of `names` in either case, perhaps with a version after it. */
function namedWord(names: Iterable<string>): string {
  const list = [...new Set([...names].map((n) => n.toLowerCase()))].sort();
  return `(?:${WORD_CHAR}*/)?(?:${list.map(eitherCase).join("|")})${VERSION}`;
}

/**
 * Command words the plain walk does not read as an ordinary program: wrappers and shells (any name ending in `sh`,
 * isShellName), programs that run what they read, builtins that are not inert, words a reader refuses or reads as
 * syntax.
 */
const SPECIAL_FIRST: readonly string[] = [
  ...WRAPPERS,
  ...READABLE_WRAPPERS.keys(),
  ...SHELLS,
  ...CODE_RUNNERS,
  ...PARSER_RESERVED_WORDS,
  ...SUBSET_REFUSED_FIRST_WORDS,
];

/** Later words that may run anything (tables.ts isCodeRunner: the code runners and the shells). */
const RUNNERS: readonly string[] = [...CODE_RUNNERS, ...SHELLS];

/**
 * Whole words of a program's arguments that may hold code (programs.ts), over every subcommand at once: each
 * option that takes code as written, a cluster of short options holding one of their letters, a word starting with
 * `+` or with an `anywhere` start, and the name of a subcommand whose operands are code (`--name=…` and make's
 * assignments hold `=`, which no line of {@link PLAIN_COMMAND_LINE} does). Undefined when the program's own operands
 * are code (any line of it may run anything).
 */
export function codeWords(forms: ProgramForms): string[] | undefined {
  if (forms.operands !== undefined) return undefined;
  const out: string[] = [];
  const letters = new Set<string>();
  const visit = (f: ProgramForms): void => {
    for (const map of [f.valued, f.attachedOnly]) {
      for (const option of map?.keys() ?? []) {
        out.push(exactly(option));
        if (/^-[^-]$/.test(option)) letters.add(option[1] as string);
      }
    }
    if (f.plus !== undefined) out.push(`\\+${WORD_CHAR}*`);
    for (const [start] of f.anywhere ?? []) out.push(`${exactly(start)}${WORD_CHAR}*`);
    for (const [name, sub] of f.subcommands ?? []) {
      if (sub.operands !== undefined) out.push(exactly(name));
      visit(sub);
    }
  };
  visit(forms);
  // A cluster of short options (`-xcmd`, `-avc`): not a long option (`--cached`), which holds no short one.
  const letter = `[${[...letters].sort().map(escaped).join("")}]`;
  if (letters.size > 0) out.push(`-(?:${OPERAND_START}${WORD_CHAR}*)?${letter}${WORD_CHAR}*`);
  return out;
}

/**
 * Lines some word of which the plain walk reads specially (see the module comment), whatever the list: a command
 * word holding `/` or special, a later shell or runner, an argument that holds code. Several patterns, whose
 * union is meant: one automaton of them all would be far larger than each (they are cut out one by one).
 */
export function specialLines(): readonly string[] {
  return [...specialFirst(), `^(?:.* )?${namedWord(RUNNERS)}${REST}$`];
}

/** {@link specialLines} but the later runners: lines whose command word the plain walk does not read alone. */
function specialFirst(): readonly string[] {
  return [
    `^${WORD_CHAR}*/${WORD_CHAR}*${REST}$`,
    `^(?:${namedWord(SPECIAL_FIRST)}|${WORD_CHAR}*[sS][hH]${VERSION})${REST}$`,
    ...programLines(CODE_ARGUMENT_PROGRAMS),
  ];
}

/**
 * Lines of programs with arguments that may hold code ({@link codeWords}) that hold such a word (every line of one
 * whose operands are code), one pattern per set of code words: programs with the same words (make and gmake, the
 * vims) share one.
 */
export function programLines(programs: ReadonlyMap<string, ProgramForms>): string[] {
  const parts: string[] = [];
  const byWords = new Map<string, string[]>();
  const whole: string[] = [];
  for (const [name, forms] of programs) {
    const words = codeWords(forms);
    if (words === undefined) whole.push(name);
    else if (words.length > 0) {
      const key = words.join("|");
      byWords.set(key, [...(byWords.get(key) ?? []), name]);
    }
  }
  if (whole.length > 0) parts.push(`^(?:${whole.map(eitherCase).join("|")})${REST}$`);
  for (const [words, names] of byWords) {
    parts.push(`^(?:${names.map(eitherCase).join("|")})(?: ${WORD})* (?:${words})${REST}$`);
  }
  return parts;
}

let special: readonly string[] | undefined;
let runLines: ReturnType<typeof runnerLines> | undefined;

/** {@link specialLines}, made once (the tests read the tables through `specialLines`, not through the cache). */
export function specialCommandLines(): readonly string[] {
  special ??= specialLines();
  return special;
}

/**
 * Plain lines on which every list may run (so none is false), as patterns whose intersection is meant, the last
 * ones to be cut out: a later word is a shell or a runner (the plain walk then marks every prefix), the command word
 * neither special ({@link specialFirst}) nor a program that never runs its operands (whose later words are not read).
 */
export function runnerCommandLines(): {
  readonly within: readonly string[];
  readonly outside: readonly string[];
} {
  runLines ??= runnerLines();
  return runLines;
}

/** {@link runnerCommandLines}, made anew (the tests read the tables through it, not through the cache). */
export function runnerLines(): { readonly within: readonly string[]; readonly outside: readonly string[] } {
  return {
    within: [PLAIN_COMMAND_LINE, `^${WORD}(?: ${WORD})* ${namedWord(RUNNERS)}${REST}$`],
    outside: [...specialFirst(), `^(?:${[...NEVER_RUNS_OPERANDS].map(exactly).join("|")})${REST}$`],
  };
}

/** The patterns of a `command` list's plain lines; undefined for a list with an entry that does not parse. */
export interface PlainCommandPatterns {
  /**
   * Lines on which some prefix may run (a superset), one pattern per prefix (their union is meant: one automaton of
   * them all grows with the product of their prefixes' words): the list is false on the other lines of
   * {@link PLAIN_COMMAND_LINE} that are not special ({@link specialCommandLines}).
   */
  readonly mayRun: readonly string[];
  /** Lines a prefix covers: the list is true on those of them that are plain lines and not special. */
  readonly covered: string;
  /**
   * Lines a prefix may cover (a superset of the runtime's `coversWords`: after `--` anything, for a program other
   * than `find`): on the plain lines the runtime reads by its plain walk (all but {@link notPlainReadLines}), special or not, the list
   * is never true.
   */
  readonly mayCover: string;
}

export function plainCommandPatterns(value: unknown): PlainCommandPatterns | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const mayRun: string[] = [];
  const covered: string[] = [];
  const mayCover: string[] = [];
  for (const spec of value) {
    const read = parseCommandPrefixSpec(spec);
    if (!read.ok || read.prefix.words.length === 0) return undefined;
    const { words, exact, options } = read.prefix;
    const [first, ...later] = words as [string, ...string[]];
    // Possible: a word named as the head (its base name in either case, perhaps versioned), then the prefix's
    // later words that are not option clusters, in order, anything between.
    const rest = later
      .filter((w) => !/^-[A-Za-z]+$/.test(w))
      .map((w) => `(?: ${WORD})* ${exactly(w)}`)
      .join("");
    mayRun.push(`^(?:${WORD} )*${namedWord([basename(first)])}${rest}${REST}$`);
    // Covered: the prefix's words as written, then nothing (exact), anything, or operands and listed options.
    const start = `^${words.map(exactly).join(" ")}`;
    if (exact) covered.push(`${start}$`);
    else if (options === undefined) covered.push(`${start}(?: ${WORD})*$`);
    else {
      const listed = [...options].map(exactly);
      const tail = `(?: (?:${[...listed, `${OPERAND_START}${WORD_CHAR}*`].join("|")}))*`;
      covered.push(`${start}${tail}$`);
      // matcher.ts `coversWords`: a `--` ends the options (but for `find`, whose expression follows it).
      const dashes = basename(first).toLowerCase() === "find" ? "" : `(?: \\u{2d}\\u{2d}(?: ${WORD})*)?`;
      mayCover.push(`${start}${tail}${dashes}$`);
      continue;
    }
    mayCover.push(covered[covered.length - 1] as string);
  }
  return {
    mayRun: [...new Set(mayRun)],
    covered: covered.map((p) => `(?:${p})`).join("|"),
    mayCover: mayCover.map((p) => `(?:${p})`).join("|"),
  };
}

/**
 * The lines of {@link PLAIN_COMMAND_LINE} the runtime does not read by its plain walk alone: a first word the plain
 * reader refuses (plain-line.ts: tables.ts `SUBSET_REFUSED_FIRST_WORDS`, as written) or one holding a `/`
 * (prefix-set.ts `walkPlain` leaves it to the general walk). On every other such line a list is true only where a
 * prefix covers the line's words (`coversWords`), so only on {@link PlainCommandPatterns.mayCover}.
 */
export function notPlainReadLines(): string {
  return `^(?:${WORD_CHAR}*/${WORD_CHAR}*|${[...SUBSET_REFUSED_FIRST_WORDS].sort().map(exactly).join("|")})(?: ${WORD})*$`;
}
