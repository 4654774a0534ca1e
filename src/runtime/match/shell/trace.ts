// What `explain --trace` prints for a `command` condition: the steps of matcher.ts, with what each found.

import {
  type CommandMatch,
  coversWords,
  matchCommand,
  matchCommandPrefix,
  type PrefixInput,
  prefixWords,
} from "./matcher.js";
import { readShellCommand } from "./reader.js";
import { readSafeSubset } from "./safe-subset.js";
import { hasHiddenCharacter } from "./tables.js";

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
