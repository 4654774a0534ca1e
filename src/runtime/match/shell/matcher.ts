// The `command` operator's matcher. Two answers, read two ways:
// - certain (an allow may decide): the whole string is inside the safe subset (safe-subset.ts) and every simple
//   command in it starts with the words of some prefix, exactly;
// - possible (a deny or ask may decide): in the union of every reading any supported shell could make
//   (reader.ts), some simple command may run a prefix — where the prefix's words appear (a command may be
//   run by an unknown wrapper), under another spelling (`-Rf` for `-rf`, `/usr/bin/rm` for `rm`, `python3.12`
//   for `python3`), or hidden in text a wrapper or builtin may run as code.

import { alsoRuns, namesInString, readSetting, writtenEarlier } from "./code-text.js";
import { readPlainLine } from "./plain-line.js";
import { forEachCodeArgument } from "./programs.js";
import {
  type CommandPrefix,
  type ParseShellResult,
  readShellCommand,
  type ShellWord,
  type SimpleCommand,
} from "./reader.js";
import { readSafeSubset, type SafeCommand } from "./safe-subset.js";
import {
  HARMLESS_REDIRECTIONS,
  hasHiddenCharacter,
  isCodeRunner,
  isShellName,
  NEVER_RUNS_OPERANDS,
  READABLE_WRAPPERS,
  WRAPPERS,
} from "./tables.js";

/** How a simple command relates to a command prefix; see {@link matchCommandPrefix}. */
export type CommandMatch = "match" | "no-match" | "unknown";

/** A prefix word that is a cluster of short options (`-rf`): matched by its letters, in any order or case. */
const OPTION_CLUSTER = /^-[A-Za-z]+$/;

/** A version after an interpreter's name: `python3` → `python`, `python3.12` → `python3`, `perl5.36`. */
const VERSION_SUFFIX = /^[-_.]?[0-9][0-9.]*[a-z]?$/;

/**
 * A word that may hold a command other than itself: text that a wrapper or builtin running it as shell code would
 * split into more than one word, or a setting whose value a program may run (`core.pager=reboot`, `CC=gcc`).
 */
const CODE_LIKE = /[\s;&|`$()<>=]/;

/** Where {@link soupMatches} splits text: blanks, operators, quotes, expansion marks and `=`. */
const SOUP_SPLIT = /[\s;&|`$()<>{}'"\\=]+/;

function basename(text: string): string {
  return text.slice(text.lastIndexOf("/") + 1);
}

/**
 * Whether a word run as a command may be the prefix's first word: the same base name, ignoring case (a
 * case-insensitive file system runs `RM` as `rm`), or the same name with a version after it.
 */
function headMatches(word: string, head: string): boolean {
  return nameMatches(basename(word).toLowerCase(), basename(head).toLowerCase());
}

/** {@link headMatches} on base names already in lower case. */
function nameMatches(name: string, wanted: string): boolean {
  if (name === wanted) return true;
  return name.startsWith(wanted) && VERSION_SUFFIX.test(name.slice(wanted.length));
}

/**
 * The last command string that the `command` rules of one compiled policy read, with its readings: every such
 * rule reads the same argument in one decision, so the string is read once (what is derived from words and
 * prefixes is kept with them, below). Holds one string at a time; what it returns is exactly what a fresh
 * {@link readShellCommand} or {@link readSafeSubset} returns. Each compiled policy owns one (its conditions'
 * compile scope), so policies never share what they read.
 */
export class ShellReadMemo {
  #last: { readonly source: string; readonly read: ReturnType<typeof readShellCommand> } | undefined;
  #safeSource: string | undefined;
  #safe: ReturnType<typeof readSafeSubset>;

  #plainSource: string | undefined;
  #plain: ReturnType<typeof readPlainLine>;

  /** {@link readPlainLine} of `source`, read once while `source` is the last one asked for. */
  #plainLine(source: string): ReturnType<typeof readPlainLine> {
    if (source !== this.#plainSource) {
      this.#plain = readPlainLine(source);
      this.#plainSource = source;
    }
    return this.#plain;
  }

  /** {@link readShellCommand} of `source`, read once while `source` is the last one asked for. */
  read(source: string): ReturnType<typeof readShellCommand> {
    if (this.#last?.source !== source) {
      const plain = this.#plainLine(source);
      this.#last = { source, read: plain === undefined ? readShellCommand(source) : plainReading(plain) };
    }
    return this.#last.read;
  }

  /** {@link readSafeSubset} of `source`, read once while `source` is the last one asked for. */
  safeSubset(source: string): ReturnType<typeof readSafeSubset> {
    if (source !== this.#safeSource) {
      const plain = this.#plainLine(source);
      this.#safe = plain === undefined ? readSafeSubset(source) : plain.map(safeCommandOf);
      this.#safeSource = source;
    }
    return this.#safe;
  }
}

const NO_STRINGS: readonly string[] = Object.freeze([]);
const NO_WORDS: readonly ShellWord[] = Object.freeze([]);

/** What {@link readShellCommand} returns for a plain line (plain-line.ts): one reading, its words literal. */
export function plainReading(commands: readonly (readonly string[])[]): ReturnType<typeof readShellCommand> {
  return {
    ok: true,
    readings: [
      {
        ok: true,
        opaque: false,
        commands: commands.map((words) => ({
          words: words.map((text) => ({ text, literal: true })),
          assignments: 0,
          names: NO_STRINGS,
          values: NO_WORDS,
          redirections: NO_STRINGS,
        })),
      },
    ],
  };
}

/** What {@link readSafeSubset} returns for one command of a plain line. */
function safeCommandOf(words: readonly string[]): SafeCommand {
  return { words, redirections: NO_STRINGS };
}

/** What {@link mayRun} reads of each word, derived once per word list. */
interface WordInfo {
  readonly texts: string[];
  /** Base names in lower case. */
  readonly names: string[];
  /** A word the reader cannot know (an expansion, a glob) or find's `{}`: it may be any words. */
  readonly unknown: boolean[];
  /** Text a wrapper running it as code would split into several words. */
  readonly codeLike: boolean[];
  /** Another text the word may have (zsh's `a~b` may be `a`), per word; undefined for most. */
  readonly also: (string | undefined)[];
  /** The base names of `also`, in lower case. */
  readonly alsoNames: (string | undefined)[];
}

const wordInfo = new WeakMap<readonly ShellWord[], WordInfo>();

function infoOf(words: readonly ShellWord[]): WordInfo {
  let info = wordInfo.get(words);
  if (info === undefined) {
    const texts = words.map((w) => w.text);
    info = {
      texts,
      names: texts.map((t) => basename(t).toLowerCase()),
      unknown: words.map((w) => !w.literal || w.text.includes("{}")),
      codeLike: texts.map((t) => CODE_LIKE.test(t)),
      also: words.map((w) => w.also),
      alsoNames: words.map((w) => (w.also === undefined ? undefined : basename(w.also).toLowerCase())),
    };
    wordInfo.set(words, info);
  }
  return info;
}

/** A prefix's rest and its first word's base name in lower case, per prefix. */
const prefixInfo = new WeakMap<readonly string[], { rest: PrefixRest; head: string }>();

function prefixInfoOf(prefix: readonly string[]): { rest: PrefixRest; head: string } {
  let info = prefixInfo.get(prefix);
  if (info === undefined) {
    info = { rest: splitRest(prefix), head: basename(prefix[0] as string).toLowerCase() };
    prefixInfo.set(prefix, info);
  }
  return info;
}

/** The compiled rest of a prefix: its plain words in order, and the option letters its clusters need. */
interface PrefixRest {
  readonly words: readonly string[];
  readonly letters: readonly string[];
}

function splitRest(prefix: readonly string[]): PrefixRest {
  const words: string[] = [];
  const letters = new Set<string>();
  for (let i = 1; i < prefix.length; i++) {
    const word = prefix[i] as string;
    if (OPTION_CLUSTER.test(word)) for (const letter of word.slice(1).toLowerCase()) letters.add(letter);
    else words.push(word);
  }
  return { words, letters: [...letters] };
}

/**
 * Whether the words from `from` on may complete the prefix: its plain words appear in order (anything may
 * stand between them), and the letters of its option clusters all appear in short options (`-r -f`, `-fR`,
 * `-rfv`). A word the reader cannot know may be anything, several words included.
 */
function restMayMatch(
  words: readonly string[],
  literal: (k: number) => boolean,
  from: number,
  rest: PrefixRest,
  also?: readonly (string | undefined)[],
): boolean {
  let j = 0;
  // Made only for a prefix with option letters (most have none).
  const seen = rest.letters.length > 0 ? new Set<string>() : undefined;
  const addLetters = (spelling: string): void => {
    if (spelling[0] === "-" && spelling[1] !== "-") {
      for (const letter of spelling.slice(1).toLowerCase()) seen?.add(letter);
    }
  };
  for (let k = from; k < words.length; k++) {
    if (!literal(k)) return true;
    const text = words[k] as string;
    const other = also?.[k];
    if (text === rest.words[j] || (other !== undefined && other === rest.words[j])) j++;
    if (seen !== undefined) {
      addLetters(text);
      if (other !== undefined) addLetters(other);
    }
  }
  return j === rest.words.length && (seen === undefined || rest.letters.every((letter) => seen.has(letter)));
}

/** Text a command may run as code, read as loose words: may the prefix appear in it anywhere? */
function soupMatches(text: string, prefix: readonly string[], rest: PrefixRest): boolean {
  return looseMatches(text, prefix, rest) || looseMatches(unquote(text), prefix, rest);
}

/** `text` without quotes and backslashes: the words a shell would glue together (`'r''m'` is `rm`). */
function unquote(text: string): string {
  return text.replace(/['"\\]/g, "");
}

function looseMatches(text: string, prefix: readonly string[], rest: PrefixRest): boolean {
  const words = text.split(SOUP_SPLIT).filter((w) => w !== "");
  const head = prefix[0] as string;
  for (let k = 0; k < words.length; k++) {
    if (headMatches(words[k] as string, head) && restMayMatch(words, () => true, k + 1, rest)) return true;
  }
  return false;
}

/**
 * The words of the command a readable wrapper runs (`nice -n 5 make all` → `make all`), or `undefined` when
 * they cannot be known: an unknown option, a word before the command that is not literal (an unquoted
 * expansion could split into several words and shift the command), or no command at all.
 */
function unwrap(name: string, words: readonly ShellWord[]): SimpleCommand | undefined {
  const syntax = READABLE_WRAPPERS.get(name);
  if (syntax === undefined) return undefined;
  const names: string[] = [];
  const values: ShellWord[] = [];
  let k = 1;
  let options = true;
  let operands = syntax.operands ?? 0;
  for (; k < words.length; k++) {
    const word = words[k] as ShellWord;
    if (!word.literal) return undefined;
    const text = word.text;
    if (options && text === "--") {
      options = false;
    } else if (options && text.startsWith("-") && text !== "-") {
      if (syntax.flags?.includes(text) === true) continue;
      if (syntax.numericFlag === true && /^-\d+$/.test(text)) continue;
      if (syntax.valued?.includes(text) === true) {
        k++;
        if (k >= words.length || !(words[k] as ShellWord).literal) return undefined;
        continue;
      }
      const attached = syntax.valued?.some((option) =>
        option.startsWith("--") ? text.startsWith(`${option}=`) : text.startsWith(option),
      );
      if (attached !== true) return undefined;
    } else if (options && text === "-" && syntax.flags?.includes("-") === true) {
      // `env -` is `env -i`: a flag, though it does not look like one.
    } else if (syntax.assignments === true && text.includes("=")) {
      // env (GNU, busybox, BSD) sets every word holding `=` before the command, whatever the name: `1X=2` too.
      // The command may run their values (`env PAGER='rm -rf /' git log`).
      options = false;
      names.push(text.slice(0, text.indexOf("=")));
      values.push({ text: text.slice(text.indexOf("=") + 1), literal: true });
    } else if (operands > 0) {
      options = false;
      operands--;
    } else {
      break;
    }
  }
  if (k >= words.length) return undefined;
  return { words: words.slice(k), assignments: names.length, names, values, redirections: [] };
}

/** Whether a command of this (lower-case) base name runs another: a wrapper, or a shell (tables.ts). */
function isWrapper(name: string): boolean {
  return WRAPPERS.has(name) || READABLE_WRAPPERS.has(name) || isShellName(name);
}

/** Positional, exact comparison: the first words are literal and equal to the prefix. */
function startsWithPrefix(words: readonly ShellWord[], prefix: readonly string[]): boolean {
  if (words.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) {
    const word = words[i] as ShellWord;
    if (!word.literal || word.text !== prefix[i]) return false;
  }
  return true;
}

/** Whether some reading may run the prefix in this simple command (the union side). */
function mayRun(
  words: readonly ShellWord[],
  prefix: readonly string[],
  rest: PrefixRest,
  depth: number,
): boolean {
  const first = words[0];
  if (first === undefined) return false;
  if (!first.literal || first.also !== undefined) return true;
  const head = prefixInfoOf(prefix).head;
  const { texts, names, also, alsoNames } = infoOf(words);
  const literal = (k: number): boolean => (words[k] as ShellWord).literal;
  if (NEVER_RUNS_OPERANDS.has(first.text)) {
    return nameMatches(names[0] as string, head) && restMayMatch(texts, literal, 1, rest, also);
  }
  const name = names[0] as string;
  if (isWrapper(name) && !nameMatches(name, head)) {
    // The command a readable wrapper runs is matched in its place; any other wrapper, and any shell (a name
    // ending in `sh`), may run anything.
    const inner = unwrap(name, words);
    if (inner === undefined || depth > 8) return true;
    if (commandMayRun(inner, prefix, rest, depth + 1)) return true;
  }
  const { unknown, codeLike } = infoOf(words);
  for (let k = 0; k < words.length; k++) {
    // An unknown word may be any words; find's `{}` is replaced by file names.
    if (unknown[k]) return true;
    if (k > 0 && isCodeRunner(names[k] as string)) return true;
    if (nameMatches(names[k] as string, head) && restMayMatch(texts, literal, k + 1, rest, also)) return true;
    const alsoName = alsoNames[k];
    if (alsoName !== undefined) {
      if (k > 0 && isCodeRunner(alsoName)) return true;
      if (nameMatches(alsoName, head) && restMayMatch(texts, literal, k + 1, rest, also)) return true;
    }
    if (k > 0 && codeLike[k] && codeWordMayRun(texts[k] as string, prefix, rest, depth)) return true;
  }
  return false;
}

/**
 * Whether some reading may run the prefix in this simple command, or in what it may also run (code-text.ts):
 * its assignments' values, a builtin's arguments, code arguments of programs that run them.
 */
function commandMayRun(
  command: SimpleCommand,
  prefix: readonly string[],
  rest: PrefixRest,
  depth: number,
): boolean {
  if (startsWithPrefix(command.words, prefix)) return true;
  const also = alsoRuns(command, depth);
  if (also === true) return true;
  for (const inner of also) if (commandMayRun(inner, prefix, rest, depth + 1)) return true;
  for (const redirection of command.redirections) {
    if (soupMatches(redirection, prefix, rest)) return true;
  }
  return mayRun(command.words, prefix, rest, depth);
}

/**
 * A word of an unknown program that a wrapper could run as code (`foo 'rm -rf /'`, `foo CC=rm`): read with the
 * shell reader when it can be, as loose words (quotes removed as well) when not.
 */
function codeWordMayRun(text: string, prefix: readonly string[], rest: PrefixRest, depth: number): boolean {
  const read = readSetting(text, depth + 1);
  if (read !== true) return read.some((command) => commandMayRun(command, prefix, rest, depth + 1));
  return soupMatches(text, prefix, rest);
}

/**
 * Compares one simple command with a command prefix (a list of literal words), conservatively.
 *
 * - `"match"`: the first `prefix.length` words are literal and equal to the prefix (`git status --short`
 *   matches `git status`; `git statusx` does not), there are no `NAME=value` assignments, and every
 *   redirection is harmless (tables.ts). Equal words with assignments or other redirections give `"unknown"`.
 *   (The whole string must also be inside the safe subset for {@link matchCommand} to call it certain.)
 * - `"unknown"` (may match): the prefix may run in some reading — its first word appears anywhere in the
 *   command under any spelling a system could run as it (`/usr/bin/rm`, `RM`, `python3.12` for `python3`),
 *   with its other words after it in order and the letters of its option clusters among the short options
 *   after it (`rm -Rf`, `rm -r -v -f` for `rm -rf`); a word the reader cannot know (an expansion, a glob,
 *   find's `{}`) stands for any words; the first word is a wrapper that cannot be read exactly (`sudo`,
 *   `xargs`, `eval`, a shell, `let`, …) or a shell or `xargs` appears after it; or text in the command that a
 *   wrapper may run as code (`sh -c 'rm -rf /'`, an assignment's value) holds the prefix's words. Words after a
 *   command known never to run its operands (`ls`, `echo`, `cat`, …) are data and not searched.
 * - `"no-match"` otherwise, and for a command without words. An empty prefix gives `"unknown"`.
 *
 * @param command - a simple command from {@link parseShellCommand}.
 * @param prefix - the prefix words, for example from {@link splitCommandPrefix}.
 */
export function matchCommandPrefix(command: SimpleCommand, prefix: readonly string[]): CommandMatch {
  if (prefix.length === 0) return "unknown";
  const words = command.words;
  if (startsWithPrefix(words, prefix)) {
    const clean =
      command.assignments === 0 && command.redirections.every((r) => HARMLESS_REDIRECTIONS.has(r));
    return clean ? "match" : "unknown";
  }
  // A program may run a variable's value as a command (`EDITOR=reboot git commit`), even a single word.
  return commandMayRun(command, prefix, prefixInfoOf(prefix).rest, 0) ? "unknown" : "no-match";
}

/** A prefix as a list of words (not exact) or as parsed by `parseCommandPrefix`. */
export type PrefixInput = readonly string[] | CommandPrefix;

function prefixWords(prefix: PrefixInput): readonly string[] {
  return "words" in prefix ? prefix.words : (prefix as readonly string[]);
}

/** Whether any simple command of one reading may match any prefix (some prefix is given). */
function readingMayMatch(
  reading: Extract<ParseShellResult, { ok: true }>,
  prefixes: readonly (readonly string[])[],
): boolean {
  if (reading.opaque) return true;
  const written = namesInString(reading.commands);
  for (const command of reading.commands) {
    const first = command.words[0];
    if (first?.literal === true && writtenEarlier(first.text, written)) return true;
    for (const prefix of prefixes) {
      if (matchCommandPrefix(command, prefix) !== "no-match") return true;
    }
  }
  return false;
}

/**
 * Decides a `command` condition over a whole command string, conservatively.
 *
 * @param source - the command string.
 * @param prefixInputs - the rule's command prefixes: word lists, or prefixes from `parseCommandPrefix` (an
 *   exact one is certain only for a command of exactly its words) or `parseCommandPrefixSpec` (one with
 *   options is certain only when every later word starting with `-` is one of them).
 * @returns `certain`: the string is inside the safe subset and every simple command in it starts with the words
 *   of some prefix (is exactly them, for an exact prefix); `possible`: in some shell's reading some simple command may run some prefix (see
 *   {@link matchCommandPrefix}). A string that some reading cannot parse, that holds a character a shell drops
 *   or a terminal hides, or an expansion that may evaluate code gives `{ certain: false, possible: true }`
 *   for any non-empty list of prefixes. Never throws.
 */
export function matchCommand(
  source: string,
  prefixInputs: readonly PrefixInput[],
): { readonly certain: boolean; readonly possible: boolean } {
  if (prefixInputs.length === 0) return { certain: false, possible: false };
  // For deny and ask an exact prefix, or one with options, is read as a plain prefix: a longer command, or
  // one with other options, may still match (maybe).
  const prefixes = prefixInputs.map(prefixWords);
  if (hasHiddenCharacter(source)) return { certain: false, possible: true };
  const read = readShellCommand(source);
  if (!read.ok) return { certain: false, possible: true };
  const possible = read.readings.some((reading) => readingMayMatch(reading, prefixes));
  if (!possible) return { certain: false, possible };
  const safe = readSafeSubset(source);
  const certain =
    safe?.every((command) => prefixInputs.some((input) => coversWords(input, command.words))) === true;
  return { certain, possible };
}

/**
 * Whether a prefix certainly covers a command of the safe subset, given its literal words: they start with
 * the prefix's words; for an exact prefix nothing follows; for a prefix with options, every later word that
 * starts with `-` is one of them (operands are not limited).
 */
function coversWords(
  input: PrefixInput,
  words: readonly string[],
  codeEnd: () => number = () => codeArgumentsEnd(words),
): boolean {
  const prefix = prefixWords(input);
  if (!prefix.every((word, i) => words[i] === word)) return false;
  if (!("words" in input)) return codeEnd() <= prefix.length;
  if (input.exact) return words.length === prefix.length;
  if (codeEnd() > prefix.length) return false;
  const options = input.options;
  if (options === undefined) return true;
  const dashesEnd = !OPTIONS_AFTER_DASHES.has(basename(prefix[0] as string).toLowerCase());
  for (let i = prefix.length; i < words.length; i++) {
    const word = words[i] as string;
    // After `--` a word starting with `-` is an operand (a file named `-x`), not an option.
    if (word === "--" && dashesEnd) break;
    if (word.startsWith("-") && !options.has(word)) return false;
  }
  return true;
}

/**
 * Programs that read words starting with `-` after `--` as more than operands: find's expression (`-delete`,
 * `-exec`) follows its starting points, `--` or not.
 */
const OPTIONS_AFTER_DASHES: ReadonlySet<string> = new Set(["find"]);

/**
 * Where the last argument of a command that runs code ends (programs.ts: make's `CC=…`, vim's `+cmd`, git's
 * `-c`), or 0 when none does: a prefix of fewer words did not spell that argument out, so it cannot certainly
 * cover the command.
 */
function codeArgumentsEnd(words: readonly string[]): number {
  let end = 0;
  forEachCodeArgument(words, (argument) => {
    end = Math.max(end, argument.to);
    return false;
  });
  return end;
}

/** One simple command of one reading, and how each prefix fared against it. */
export interface TracedCommand {
  /** The command's words as read (expansions as their source text). */
  readonly words: readonly string[];
  /** Per prefix (its words joined by spaces): `match`, `unknown` (may match) or `no-match`. */
  readonly prefixes: readonly { readonly prefix: string; readonly match: CommandMatch }[];
}

/** How {@link matchCommand} decided a command string, step by step (what `explain --trace` prints). */
export interface CommandTrace {
  readonly certain: boolean;
  readonly possible: boolean;
  /** Why the string is a maybe before any prefix is compared, when it is. */
  readonly unreadable?: string;
  /** Each shell reading (dialect) that parsed: its simple commands; `opaque` when an expansion may run code. */
  readonly readings: readonly { readonly opaque: boolean; readonly commands: readonly TracedCommand[] }[];
  /**
   * The simple commands of the safe subset (the same in every shell) with the prefix that certainly covers each,
   * or `null` for none; `undefined` when the string is outside the safe subset (nothing can be certain).
   */
  readonly safe?: readonly { readonly words: readonly string[]; readonly coveredBy: string | null }[];
}

/**
 * Explains {@link matchCommand}: the same steps, with what each found. It calls the same functions, so its
 * `certain` and `possible` are always `matchCommand`'s.
 */
export function traceCommand(source: string, prefixInputs: readonly PrefixInput[]): CommandTrace {
  const decided = matchCommand(source, prefixInputs);
  const prefixes = prefixInputs.map(prefixWords);
  const label = (words: readonly string[]) => words.join(" ");
  if (prefixInputs.length === 0) return { ...decided, readings: [] };
  if (hasHiddenCharacter(source)) {
    return {
      ...decided,
      unreadable: "the command holds a character a shell drops or a terminal hides",
      readings: [],
    };
  }
  const read = readShellCommand(source);
  if (!read.ok) return { ...decided, unreadable: `no shell reading: ${read.message}`, readings: [] };
  const readings = read.readings.map((reading) => ({
    opaque: reading.opaque,
    commands: reading.commands.map((command) => ({
      words: command.words.map((w) => w.text),
      prefixes: prefixes.map((prefix) => ({
        prefix: label(prefix),
        match: matchCommandPrefix(command, prefix),
      })),
    })),
  }));
  const safeCommands = readSafeSubset(source);
  const safe = safeCommands?.map((command) => {
    const covering = prefixInputs.find((input) => coversWords(input, command.words));
    return { words: command.words, coveredBy: covering === undefined ? null : label(prefixWords(covering)) };
  });
  return {
    ...decided,
    readings,
    ...(safe === undefined ? {} : { safe }),
  };
}

/** A node of the exact word trie: the prefixes whose words end here, and the next words. */
interface ExactNode {
  readonly ends: number[];
  readonly next: Map<string, ExactNode>;
}

function exactNode(): ExactNode {
  return { ends: [], next: new Map() };
}

/**
 * The candidate heads of a command name: the heads `h` for which `nameMatches(name, h)` holds, found by their
 * lengths instead of by trying every head. A head other than the name itself leaves a version after it
 * (`[-_.]?[0-9][0-9.]*[a-z]?`), so it ends where the name's trailing run of digits and dots starts, or one
 * character before (a separator) — only those cut points need testing.
 */
function forEachHead(name: string, visit: (head: string) => void): void {
  visit(name);
  let end = name.length;
  const last = name.charCodeAt(end - 1);
  if (last >= 0x61 && last <= 0x7a) end--;
  let start = end;
  while (start > 0) {
    const c = name.charCodeAt(start - 1);
    if ((c >= 0x30 && c <= 0x39) || c === 0x2e) start--;
    else break;
  }
  // A version holds a digit: a name without one in its trailing run has no head but itself.
  let digit = false;
  for (let i = start; i < end && !digit; i++) digit = name.charCodeAt(i) !== 0x2e;
  if (!digit) return;
  for (let cut = Math.max(0, start - 1); cut < end; cut++) {
    if (VERSION_SUFFIX.test(name.slice(cut))) visit(name.slice(0, cut));
  }
}

/**
 * Every `command` prefix of one field, matched together: a word trie over the prefixes' exact words (the
 * positional comparison and the safe subset's cover) and an index of their first words' base names (the
 * union side), so that the simple commands of a string are compared with every prefix in one walk over their
 * words, once per string, whatever the number of prefixes. Each `command` operator owns a range of ids and
 * reads its answer from the walk: the same answer {@link matchCommand} gives for its prefixes alone.
 */
export class CommandPrefixSet {
  private readonly inputs: PrefixInput[] = [];
  private readonly rests: PrefixRest[] = [];
  private readonly exact = exactNode();
  /** Lower-case base name of a prefix's first word → the prefixes with that head. */
  private readonly byHead = new Map<string, number[]>();
  /** Whether some prefix's head starts with `-` or is empty (none is in practice): else an option word is no head. */
  private dashHead = false;
  /** Prefixes without words (`matchCommandPrefix` answers `unknown` for any command). */
  private readonly empty: number[] = [];
  private lastSource: string | undefined;
  /** Per prefix id, 1 when some reading of the last string may run it; null when the string cannot be read. */
  private possible: Uint8Array | null = null;
  /** Per command of the safe subset: the prefixes that cover it (`coversWords`); made on first need. */
  private covers: (readonly number[])[] | null | undefined;

  /** @param reads - the last command string read by the rules of the same policy (they share one). */
  constructor(private readonly reads: ShellReadMemo = new ShellReadMemo()) {}

  /** Adds a `command` operator's prefixes; returns the range of ids they get, `[from, to)`. */
  add(inputs: readonly PrefixInput[]): { readonly from: number; readonly to: number } {
    const from = this.inputs.length;
    for (const input of inputs) {
      const id = this.inputs.length;
      const words = prefixWords(input);
      this.inputs.push(input);
      if (words.length === 0) {
        this.rests.push({ words: [], letters: [] });
        this.empty.push(id);
        continue;
      }
      const info = prefixInfoOf(words);
      this.rests.push(info.rest);
      const list = this.byHead.get(info.head);
      if (info.head === "" || info.head.startsWith("-")) this.dashHead = true;
      if (list === undefined) this.byHead.set(info.head, [id]);
      else list.push(id);
      let node = this.exact;
      for (const word of words) {
        let child = node.next.get(word);
        if (child === undefined) {
          child = exactNode();
          node.next.set(word, child);
        }
        node = child;
      }
      node.ends.push(id);
    }
    this.lastSource = undefined;
    return { from, to: this.inputs.length };
  }

  /** `matchCommand(source, inputs)` for the operator whose ids are `[from, to)`. */
  match(source: string, from: number, to: number): { readonly certain: boolean; readonly possible: boolean } {
    if (to <= from) return NEITHER;
    if (source !== this.lastSource) this.walk(source);
    const possible = this.possible;
    if (possible === null) return MAYBE;
    let any = false;
    for (let id = from; id < to; id++) {
      if (possible[id] === 1) {
        any = true;
        break;
      }
    }
    if (!any) return NEITHER;
    if (this.covers === undefined) this.covers = this.coverSafe(source);
    const covers = this.covers;
    if (covers === null) return MAYBE;
    for (const ids of covers) {
      let covered = false;
      for (const id of ids) {
        if (id >= from && id < to) {
          covered = true;
          break;
        }
      }
      if (!covered) return MAYBE;
    }
    return CERTAIN;
  }

  /** Reads `source` once and marks every prefix that some reading's simple commands may run. */
  private walk(source: string): void {
    this.covers = undefined;
    this.lastSource = source;
    const read = hasHiddenCharacter(source) ? undefined : this.reads.read(source);
    if (read === undefined || !read.ok) {
      this.possible = null;
      return;
    }
    const out = new Uint8Array(this.inputs.length);
    this.possible = out;
    for (const reading of read.readings) {
      if (reading.opaque) {
        // A reading that may run code may run any prefix.
        out.fill(1);
        return;
      }
      const written = namesInString(reading.commands);
      for (const command of reading.commands) {
        // A file the string may have written may run anything (`cp /tmp/a it; ./it`).
        const first = command.words[0];
        if (first?.literal === true && writtenEarlier(first.text, written)) {
          out.fill(1);
          return;
        }
        this.markCommand(command, out, 0);
      }
    }
  }

  /** `matchCommandPrefix(command, prefix) !== "no-match"`, for every prefix at once. */
  private markCommand(command: SimpleCommand, out: Uint8Array, depth: number): void {
    // A command whose first words are a prefix's (matchCommandPrefix's "match", or "unknown" for its
    // assignments or redirections) is marked by markMayRun: its first word is that prefix's head.
    for (const id of this.empty) out[id] = 1;
    const also = alsoRuns(command, depth);
    if (also === true) {
      out.fill(1);
      return;
    }
    for (const inner of also) this.markCommand(inner, out, depth + 1);
    for (const redirection of command.redirections) this.markSoup(redirection, out);
    this.markMayRun(command.words, out, depth);
  }

  /** {@link codeWordMayRun} for every prefix. */
  private markCodeWord(text: string, out: Uint8Array, depth: number): void {
    const read = readSetting(text, depth + 1);
    if (read === true) this.markSoup(text, out);
    else for (const command of read) this.markCommand(command, out, depth + 1);
  }

  /** {@link soupMatches} for every prefix. */
  private markSoup(text: string, out: Uint8Array): void {
    this.markLoose(text, out);
    this.markLoose(unquote(text), out);
  }

  private markLoose(text: string, out: Uint8Array): void {
    const words = text.split(SOUP_SPLIT).filter((w) => w !== "");
    for (let k = 0; k < words.length; k++) {
      forEachHead(basename(words[k] as string).toLowerCase(), (head) => {
        const ids = this.byHead.get(head);
        if (ids === undefined) return;
        for (const id of ids) {
          if (out[id] === 0 && restMayMatch(words, always, k + 1, this.rests[id] as PrefixRest)) out[id] = 1;
        }
      });
    }
  }

  /** {@link mayRun} for every prefix. */
  private markMayRun(words: readonly ShellWord[], out: Uint8Array, depth: number): void {
    const first = words[0];
    if (first === undefined) return;
    if (!first.literal || first.also !== undefined) {
      out.fill(1);
      return;
    }
    const texts = words.map((w) => w.text);
    // zsh's `a~b` words (rare): the other text each may have.
    let also: (string | undefined)[] | undefined;
    let alsoNames: (string | undefined)[] | undefined;
    if (words.some((w) => w.also !== undefined)) {
      also = words.map((w) => w.also);
      alsoNames = also.map((t) => (t === undefined ? undefined : basename(t).toLowerCase()));
    }
    const literal = (k: number): boolean => (words[k] as ShellWord).literal;
    const name = basename(first.text).toLowerCase();
    const markHead = (wordName: string, from: number): void => {
      forEachHead(wordName, (head) => {
        const ids = this.byHead.get(head);
        if (ids === undefined) return;
        for (const id of ids) {
          if (out[id] === 0 && restMayMatch(texts, literal, from, this.rests[id] as PrefixRest, also))
            out[id] = 1;
        }
      });
    };
    if (NEVER_RUNS_OPERANDS.has(first.text)) {
      markHead(name, 1);
      return;
    }
    if (isWrapper(name)) {
      // Prefixes whose head is the wrapper's own name are not unwrapped (mayRun matches them in place).
      const own = new Set<number>();
      forEachHead(name, (head) => {
        const ids = this.byHead.get(head);
        if (ids !== undefined) for (const id of ids) own.add(id);
      });
      const inner = unwrap(name, words);
      const innerOut = new Uint8Array(out.length);
      if (inner === undefined || depth > 8) innerOut.fill(1);
      else this.markCommand(inner, innerOut, depth + 1);
      // Empty prefixes are already marked (markCommand).
      for (let id = 0; id < out.length; id++) {
        if (innerOut[id] === 1 && !own.has(id)) out[id] = 1;
      }
    }
    for (let k = 0; k < words.length; k++) {
      const word = words[k] as ShellWord;
      const text = texts[k] as string;
      // An unknown word may be any words; find's `{}` is replaced by file names.
      if (!word.literal || text.includes("{}")) {
        out.fill(1);
        return;
      }
      const wordName = basename(text).toLowerCase();
      const alsoName = alsoNames?.[k];
      if (k > 0 && (isCodeRunner(wordName) || (alsoName !== undefined && isCodeRunner(alsoName)))) {
        out.fill(1);
        return;
      }
      // An option word (`--stat`) is no prefix's head; it is only looked up when some head starts with `-`.
      if (this.dashHead || wordName.charCodeAt(0) !== 0x2d) markHead(wordName, k + 1);
      if (alsoName !== undefined) markHead(alsoName, k + 1);
      if (k > 0 && CODE_LIKE.test(text)) this.markCodeWord(text, out, depth);
    }
  }

  /** Per command of the safe subset, the prefixes that cover it; null when the string is outside the subset. */
  private coverSafe(source: string): (readonly number[])[] | null {
    const safe = this.reads.safeSubset(source);
    if (safe === undefined) return null;
    return safe.map((command) => {
      const ids: number[] = [];
      // Read once per command, and only when some prefix starts it.
      let end: number | undefined;
      const codeEnd = (): number => {
        end ??= codeArgumentsEnd(command.words);
        return end;
      };
      for (const id of this.empty) {
        if (coversWords(this.inputs[id] as PrefixInput, command.words, codeEnd)) ids.push(id);
      }
      let node = this.exact;
      for (const word of command.words) {
        const child = node.next.get(word);
        if (child === undefined) break;
        node = child;
        for (const id of node.ends) {
          if (coversWords(this.inputs[id] as PrefixInput, command.words, codeEnd)) ids.push(id);
        }
      }
      return ids;
    });
  }
}

const always = (): boolean => true;
const NEITHER = Object.freeze({ certain: false, possible: false });
const MAYBE = Object.freeze({ certain: false, possible: true });
const CERTAIN = Object.freeze({ certain: true, possible: true });
