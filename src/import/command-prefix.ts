/** Command prefixes for toolgate's `command` operator, built from other tools' command rules. */
import { parseCommandPrefixSpec } from "../runtime/match/shell/reader.js";

/** A word toolgate's `command` operator takes as plain (the safe-subset word characters, no assignment). */
export function isPlainWord(word: string, first: boolean): boolean {
  return /^[A-Za-z0-9_\-./,:@%+=]+$/.test(word) && !(first && word.includes("="));
}

/** The `command` prefix for these words (`$` at the end when exact), or undefined when a word is not plain. */
export function commandPrefix(words: readonly string[], exact: boolean): string | undefined {
  if (words.length === 0 || !words.every((w, i) => isPlainWord(w, i === 0))) return undefined;
  const text = `${words.join(" ")}${exact ? "$" : ""}`;
  return parseCommandPrefixSpec(text).ok ? text : undefined;
}
