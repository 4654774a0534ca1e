// The `command` operator's matcher. Two answers, read two ways:
// - certain (an allow may decide): the whole string is inside the safe subset (safe-subset.ts) and every simple
//   command in it starts with the words of some prefix, exactly;
// - possible (a deny or ask may decide): in the union of every reading any supported shell could make
//   (reader.ts), some simple command may run a prefix — where the prefix's words appear (a command may be
//   run by an unknown wrapper), under another spelling (`-Rf` for `-rf`, `/usr/bin/rm` for `rm`, `python3.12`
//   for `python3`), or hidden in text a wrapper or builtin may run as code.
// This module compares one string with prefixes; prefix-set.ts compares a string with every prefix of a policy
// in one walk, read-memo.ts reads the string once for all of them, trace.ts explains an answer.

import { alsoRuns, namesInString, readSetting, writtenEarlier } from "./code-text.js";
import { forEachCodeArgument } from "./programs.js";
import {
  type CommandPrefix,
  type ParseShellResult,
  readShellCommand,
  type ShellWord,
  type SimpleCommand,
} from "./reader.js";
import { readSafeSubset } from "./safe-subset.js";
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
export const OPTION_CLUSTER = /^-[A-Za-z]+$/;

/** A version after an interpreter's name: `python3` → `python`, `python3.12` → `python3`, `perl5.36`. */
export const VERSION_SUFFIX = /^[-_.]?[0-9][0-9.]*[a-z]?$/;

/**
 * A word that may hold a command other than itself: text that a wrapper or builtin running it as shell code would
 * split into more than one word, or a setting whose value a program may run (`core.pager=reboot`, `CC=gcc`).
 */
export const CODE_LIKE = /[\s;&|`$()<>=]/;

/** Where {@link soupMatches} splits text: blanks, operators, quotes, expansion marks and `=`. */
export const SOUP_SPLIT = /[\s;&|`$()<>{}'"\\=]+/;

export function basename(text: string): string {
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

export function prefixInfoOf(prefix: readonly string[]): { rest: PrefixRest; head: string } {
  let info = prefixInfo.get(prefix);
  if (info === undefined) {
    info = { rest: splitRest(prefix), head: basename(prefix[0] as string).toLowerCase() };
    prefixInfo.set(prefix, info);
  }
  return info;
}

/** The compiled rest of a prefix: its plain words in order, and the option letters its clusters need. */
export interface PrefixRest {
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
export function restMayMatch(
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
export function unquote(text: string): string {
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
export function unwrap(name: string, words: readonly ShellWord[]): SimpleCommand | undefined {
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
export function isWrapper(name: string): boolean {
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

export function prefixWords(prefix: PrefixInput): readonly string[] {
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
export function coversWords(
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
export function codeArgumentsEnd(words: readonly string[]): number {
  let end = 0;
  forEachCodeArgument(words, (argument) => {
    end = Math.max(end, argument.to);
    return false;
  });
  return end;
}
