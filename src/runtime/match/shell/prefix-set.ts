// Every `command` prefix of one field, matched together (see CommandPrefixSet): the answers of matcher.ts for
// each rule, from one walk over the string's simple commands whatever the number of prefixes.

import { alsoRuns, namesInString, readSetting, writtenEarlier } from "./code-text.js";
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
import { ShellReadMemo } from "./read-memo.js";
import type { ShellWord, SimpleCommand } from "./reader.js";
import { hasHiddenCharacter, isCodeRunner, NEVER_RUNS_OPERANDS } from "./tables.js";

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
