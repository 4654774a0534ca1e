// Every `command` prefix of one field, matched together (see CommandPrefixSet): the answers of matcher.ts for
// each rule, from one walk over the string's simple commands whatever the number of prefixes.

import { INERT_BUILTINS, SHELL_BUILTINS } from "./builtins.js";
import { alsoRuns, commandOf, namesInString, readSetting, writtenEarlier } from "./code-text.js";
import {
  basename,
  CODE_LIKE,
  codeArgumentsEnd,
  coversWords,
  isWrapper,
  type PrefixInput,
  type PrefixRest,
  prefixInfoOf,
  prefixWords,
  restMayMatch,
  SOUP_SPLIT,
  unquote,
  unwrap,
  VERSION_SUFFIX,
} from "./matcher.js";
import { forEachCodeArgument, programForms } from "./programs.js";
import { ShellReadMemo } from "./read-memo.js";
import type { ShellWord, SimpleCommand } from "./reader.js";
import {
  hasHiddenCharacter,
  isCodeRunner,
  NEVER_RUNS_OPERANDS,
  PARSER_RESERVED_WORDS,
  READABLE_WRAPPERS,
} from "./tables.js";

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
 * The heads other than `name` itself that `forEachHead` visits (the name without a version after it); undefined
 * for a name whose last character, or the one before a last letter, is neither a digit nor a dot (most).
 */
function versionedHeads(name: string): string[] | undefined {
  const n = name.length;
  const last = name.charCodeAt(n - 1);
  // forEachHead's trailing run of digits and dots, after one letter at most.
  const inRun = (i: number): boolean => {
    const c = name.charCodeAt(i);
    return (c >= 0x30 && c <= 0x39) || c === 0x2e;
  };
  if (!inRun(n - 1) && !(last >= 0x61 && last <= 0x7a && n > 1 && inRun(n - 2))) return undefined;
  const heads: string[] = [];
  forEachHead(name, (head) => {
    if (head !== name) heads.push(head);
  });
  return heads;
}

/** `basename(text).toLowerCase()`, without the copies when the base name is the whole word in lower case. */
function lowerBaseName(text: string): string {
  const slash = text.lastIndexOf("/");
  const base = slash === -1 ? text : text.slice(slash + 1);
  for (let i = 0; i < base.length; i++) {
    const c = base.charCodeAt(i);
    // Upper-case ASCII, or anything past ASCII (which may have a lower case).
    if ((c >= 0x41 && c <= 0x5a) || c >= 0x80) return base.toLowerCase();
  }
  return base;
}

/**
 * `restMayMatch` over words without another text (see matcher.ts): the prefix's plain words in order from
 * `from` on, and the letters of its option clusters; a word the reader cannot know may be anything.
 */
function restMayMatchWords(words: readonly ShellWord[], from: number, rest: PrefixRest): boolean {
  if (rest.letters.length > 0) {
    return restMayMatch(
      words.map((w) => w.text),
      (k) => (words[k] as ShellWord).literal,
      from,
      rest,
    );
  }
  const wanted = rest.words;
  let j = 0;
  for (let k = from; k < words.length; k++) {
    // Every plain word found: the answer is yes whatever follows.
    if (j === wanted.length) return true;
    const word = words[k] as ShellWord;
    if (!word.literal) return true;
    if (word.text === wanted[j]) j++;
  }
  return j === wanted.length;
}

/** What the plain walk reads of one word (see `CommandPrefixSet.factsOf`). */
interface WordFacts {
  /** Its base name in lower case. */
  readonly name: string;
  /** The id lists of the prefixes whose head the name may be (itself, or with a version after it). */
  readonly heads: readonly (readonly number[])[];
  readonly codeRunner: boolean;
  /** Text a wrapper running it as code would split into several words (CODE_LIKE). */
  readonly codeLike: boolean;
  /** As a command word: a shell builtin, a program with code arguments, a wrapper, one that runs no operand. */
  readonly builtin: boolean;
  readonly inertBuiltin: boolean;
  readonly forms: boolean;
  readonly wrapper: boolean;
  readonly neverRunsOperands: boolean;
}

/** How many words' facts a set keeps (a few hundred bytes each). */
const MAX_WORD_FACTS = 4096;

/** {@link restMayMatchWords} for literal words. */
function restMayMatchTexts(words: readonly string[], from: number, rest: PrefixRest): boolean {
  if (rest.letters.length > 0) return restMayMatch(words, always, from, rest);
  const wanted = rest.words;
  let j = 0;
  for (let k = from; k < words.length && j < wanted.length; k++) {
    if (words[k] === wanted[j]) j++;
  }
  return j === wanted.length;
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
  /** {@link factsOf}'s table: word text → what the plain walk reads of it. Cleared when prefixes are added. */
  private readonly facts = new Map<string, WordFacts>();
  /** Per prefix id, 1 when some reading of the last string may run it; null when the string cannot be read. */
  private possible: Uint8Array | null = null;
  /** The buffer `possible` points at when the last string could be read. */
  private marks: Uint8Array | undefined;
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
    this.facts.clear();
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
    // A plain line (plain-line.ts) is printable ASCII: it holds no hidden character, and it is read in one pass.
    const plain = this.reads.plain(source);
    if (plain !== undefined && this.walkPlain(plain)) return;
    const read = plain === undefined && hasHiddenCharacter(source) ? undefined : this.reads.read(source);
    if (read === undefined || !read.ok) {
      this.possible = null;
      return;
    }
    const out = this.clearedMarks();
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

  /** The set's buffer of marks, all 0 (one per set: nothing outside the set keeps it). */
  private clearedMarks(): Uint8Array {
    let out = this.marks;
    if (out === undefined || out.length !== this.inputs.length) {
      out = new Uint8Array(this.inputs.length);
      this.marks = out;
    } else {
      out.fill(0);
    }
    return out;
  }

  /**
   * {@link walk} and {@link coverSafe} for a plain line, on its words as read (no reading objects): the same
   * marks and covers as the general walk, which the plain commands would get from it (a plain line is one
   * reading of literal words without assignments or redirections, the same commands for both readers). False,
   * with nothing set, for a line the general walk must read: a command word holding `/` (a file the line may
   * have written).
   */
  private walkPlain(commands: readonly (readonly string[])[]): boolean {
    for (const words of commands) if ((words[0] as string).includes("/")) return false;
    const out = this.clearedMarks();
    this.possible = out;
    const covers: (readonly number[])[] = [];
    for (const words of commands) {
      for (const id of this.empty) out[id] = 1;
      const facts = this.factsOf(words[0] as string);
      // Where the command's code arguments end (codeArgumentsEnd), when known without reading them again.
      let codeEnd = 0;
      // alsoRuns of a plain command is nothing unless its name is a builtin that is not inert, or it has a code
      // argument: the general walk reads those.
      let general = facts.builtin && !facts.inertBuiltin;
      if (!facts.builtin && facts.forms) {
        forEachCodeArgument(words, () => {
          general = true;
          return true;
        });
      }
      if (general) {
        codeEnd = -1;
        this.markCommand(commandOf(words), out, 0);
      } else {
        this.markPlainWords(words, facts, out);
      }
      covers.push(this.coverPlain(words, codeEnd));
    }
    this.covers = covers;
    return true;
  }

  /** What the plain walk reads of a word, from the tables and the set's heads: made once per word text. */
  private factsOf(word: string): WordFacts {
    let facts = this.facts.get(word);
    if (facts !== undefined) return facts;
    const name = lowerBaseName(word);
    const heads: (readonly number[])[] = [];
    // An option word (`--stat`) is no prefix's head; it is only looked up when some head starts with `-`.
    if (this.dashHead || name.charCodeAt(0) !== 0x2d) {
      const ids = this.byHead.get(name);
      if (ids !== undefined) heads.push(ids);
      for (const head of versionedHeads(name) ?? []) {
        const more = this.byHead.get(head);
        if (more !== undefined) heads.push(more);
      }
    }
    facts = {
      name,
      heads,
      codeRunner: isCodeRunner(name),
      codeLike: CODE_LIKE.test(word),
      builtin: SHELL_BUILTINS.has(name),
      // alsoRuns: a builtin read as itself (not a wrapper, not a quoted reserved word) that is inert runs nothing.
      inertBuiltin:
        INERT_BUILTINS.has(name) && !READABLE_WRAPPERS.has(name) && !PARSER_RESERVED_WORDS.has(word),
      forms: programForms(word) !== undefined,
      wrapper: isWrapper(name),
      neverRunsOperands: NEVER_RUNS_OPERANDS.has(word),
    };
    // Words are few (command names, options, file names): the table is dropped when it grows past its bound.
    if (this.facts.size >= MAX_WORD_FACTS) this.facts.clear();
    this.facts.set(word, facts);
    return facts;
  }

  /** {@link markMayRun} for the words of a plain command (all literal, no other text, no `{}`). */
  private markPlainWords(words: readonly string[], first: WordFacts, out: Uint8Array): void {
    if (first.neverRunsOperands) {
      this.markPlainHeads(first, words, 1, out);
      return;
    }
    if (first.wrapper) this.markWrapped(first.name, commandOf(words).words, out, 0);
    this.markPlainHeads(first, words, 1, out);
    for (let k = 1; k < words.length; k++) {
      const text = words[k] as string;
      const facts = this.factsOf(text);
      if (facts.codeRunner) {
        out.fill(1);
        return;
      }
      this.markPlainHeads(facts, words, k + 1, out);
      if (facts.codeLike) this.markCodeWord(text, out, 0);
    }
  }

  /** {@link markHeads} for literal words. */
  private markPlainHeads(facts: WordFacts, words: readonly string[], from: number, out: Uint8Array): void {
    for (const ids of facts.heads) this.markPlainRests(ids, words, from, out);
  }

  private markPlainRests(
    ids: readonly number[],
    words: readonly string[],
    from: number,
    out: Uint8Array,
  ): void {
    for (const id of ids) {
      if (out[id] === 0 && restMayMatchTexts(words, from, this.rests[id] as PrefixRest)) out[id] = 1;
    }
  }

  /** The prefixes that cover one command of the safe subset (see {@link coverSafe}); `codeEnd` -1 when unknown. */
  private coverPlain(words: readonly string[], codeEnd: number): readonly number[] {
    // The prefixes whose words the command starts with (and the empty ones), then those of them that cover it.
    let candidates: number[] | undefined = this.empty.length === 0 ? undefined : [...this.empty];
    let node = this.exact;
    for (const word of words) {
      const child = node.next.get(word);
      if (child === undefined) break;
      node = child;
      if (node.ends.length > 0) {
        if (candidates === undefined) candidates = [...node.ends];
        else candidates.push(...node.ends);
      }
    }
    return candidates === undefined ? NO_IDS : this.covering(candidates, words, codeEnd);
  }

  /** The candidates that cover the words (`coversWords`); `codeEnd` -1 when not known yet. */
  private covering(candidates: readonly number[], words: readonly string[], codeEnd: number): number[] {
    const end = codeEnd < 0 ? codeArgumentsEnd(words) : codeEnd;
    const endOf = (): number => end;
    return candidates.filter((id) => coversWords(this.inputs[id] as PrefixInput, words, endOf));
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
    for (let k = 1; k < words.length; k++) {
      if ((words[k] as ShellWord).also !== undefined) {
        this.markMayRunAlso(words, out, depth);
        return;
      }
    }
    const name = lowerBaseName(first.text);
    if (NEVER_RUNS_OPERANDS.has(first.text)) {
      this.markHeads(name, words, 1, out);
      return;
    }
    if (isWrapper(name)) this.markWrapped(name, words, out, depth);
    for (let k = 0; k < words.length; k++) {
      const word = words[k] as ShellWord;
      const text = word.text;
      // An unknown word may be any words; find's `{}` is replaced by file names.
      if (!word.literal || text.includes("{}")) {
        out.fill(1);
        return;
      }
      const wordName = k === 0 ? name : lowerBaseName(text);
      if (k > 0 && isCodeRunner(wordName)) {
        out.fill(1);
        return;
      }
      // An option word (`--stat`) is no prefix's head; it is only looked up when some head starts with `-`.
      if (this.dashHead || wordName.charCodeAt(0) !== 0x2d) this.markHeads(wordName, words, k + 1, out);
      if (k > 0 && CODE_LIKE.test(text)) this.markCodeWord(text, out, depth);
    }
  }

  /**
   * Marks the prefixes whose head `name` may be (itself, or with a version after it) and whose rest the words
   * from `from` on may complete.
   */
  private markHeads(name: string, words: readonly ShellWord[], from: number, out: Uint8Array): void {
    const ids = this.byHead.get(name);
    if (ids !== undefined) this.markRests(ids, words, from, out);
    const versioned = versionedHeads(name);
    if (versioned === undefined) return;
    for (const head of versioned) {
      const more = this.byHead.get(head);
      if (more !== undefined) this.markRests(more, words, from, out);
    }
  }

  private markRests(
    ids: readonly number[],
    words: readonly ShellWord[],
    from: number,
    out: Uint8Array,
  ): void {
    for (const id of ids) {
      if (out[id] === 0 && restMayMatchWords(words, from, this.rests[id] as PrefixRest)) out[id] = 1;
    }
  }

  /**
   * A wrapper's inner command (`sudo rm -rf /`, `sh -c '…'`): every prefix that it may run, except those whose
   * head is the wrapper's own name (mayRun matches them in place).
   */
  private markWrapped(name: string, words: readonly ShellWord[], out: Uint8Array, depth: number): void {
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

  /** {@link markMayRun} for words of which some may have another text (zsh's `a~b` words, rare). */
  private markMayRunAlso(words: readonly ShellWord[], out: Uint8Array, depth: number): void {
    const first = words[0] as ShellWord;
    const texts = words.map((w) => w.text);
    // The other text each word may have.
    const also = words.map((w) => w.also);
    const alsoNames = also.map((t) => (t === undefined ? undefined : basename(t).toLowerCase()));
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
    if (isWrapper(name)) this.markWrapped(name, words, out, depth);
    for (let k = 0; k < words.length; k++) {
      const word = words[k] as ShellWord;
      const text = texts[k] as string;
      // An unknown word may be any words; find's `{}` is replaced by file names.
      if (!word.literal || text.includes("{}")) {
        out.fill(1);
        return;
      }
      const wordName = basename(text).toLowerCase();
      const alsoName = alsoNames[k];
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
const NO_IDS: readonly number[] = Object.freeze([]);
const NEITHER = Object.freeze({ certain: false, possible: false });
const MAYBE = Object.freeze({ certain: false, possible: true });
const CERTAIN = Object.freeze({ certain: true, possible: true });
