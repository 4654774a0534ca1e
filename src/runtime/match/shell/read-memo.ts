// The command string that the `command` rules of one policy read, read once: each rule of a decision reads the
// same argument, so the readers (reader.ts for deny and ask, safe-subset.ts for allow) run once per string, and a
// plain line (plain-line.ts) is read in one pass for both.

import { readPlainLine } from "./plain-line.js";
import { readShellCommand, type ShellWord } from "./reader.js";
import { readSafeSubset, type SafeCommand } from "./safe-subset.js";

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

  /** The simple commands of `source` when it is a plain line (plain-line.ts), each as its words; else undefined. */
  plain(source: string): ReturnType<typeof readPlainLine> {
    return this.#plainLine(source);
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
