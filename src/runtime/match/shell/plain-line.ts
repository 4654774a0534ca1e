// Plain command lines, read in one pass. Most command strings an agent sends are words of letters, digits and a
// few punctuation characters joined by `&&`, `||`, `;` and `|` (`git status --short && ls src`). Every shell
// reads such a line the same way, and both readers (reader.ts for deny and ask, safe-subset.ts for allow)
// read it as exactly these simple commands; this module reads it once, by character code, without either
// parser. A line it does not recognise is left to them (`undefined`): it never decides what a line means
// alone, so it can only be faster, never different (test/runtime/match/shell-plain-line.property.test.ts holds
// both readers to it).
//
// A plain line:
// - words of A-Z a-z 0-9 _ - . / , : @ % + =, none starting with `=`, the first word of each command without `=`
//   (no assignments) and not a word any shell reads as syntax or as changing how later words are read
//   (tables.ts, SUBSET_REFUSED_FIRST_WORDS, which holds every reserved word);
// - separated by spaces and tabs; commands joined by `&&`, `||`, `;` or `|`, each command at least one word.
// Anything else — quotes, `$`, backslashes, globs, `~`, `#`, `!`, `^`, braces, parentheses, redirections, `&`
// alone, newlines, a leading or trailing operator, non-ASCII — is not plain.

import { SUBSET_REFUSED_FIRST_WORDS } from "./tables.js";

/** Per ASCII code: 1 for a word character of a plain line (see the module comment). */
const WORD = (() => {
  const table = new Uint8Array(128);
  const mark = (from: string, to: string) => {
    for (let c = from.charCodeAt(0); c <= to.charCodeAt(0); c++) table[c] = 1;
  };
  mark("a", "z");
  mark("A", "Z");
  mark("0", "9");
  for (const c of "_-./,:@%+=") table[c.charCodeAt(0)] = 1;
  return table;
})();

const SPACE = 0x20;
const TAB = 0x09;
const EQUALS = 0x3d;
const AMPERSAND = 0x26;
const BAR = 0x7c;
const SEMICOLON = 0x3b;

/**
 * The simple commands of a plain line (see the module comment), each as its words; `undefined` when `source`
 * is not one. Every shell, reader.ts and safe-subset.ts read a plain line as these commands and words.
 */
export function readPlainLine(source: string): readonly (readonly string[])[] | undefined {
  const commands: string[][] = [];
  let words: string[] = [];
  const n = source.length;
  let i = 0;
  for (;;) {
    while (i < n) {
      const c = source.charCodeAt(i);
      if (c !== SPACE && c !== TAB) break;
      i++;
    }
    if (i === n) break;
    const c = source.charCodeAt(i);
    if (WORD[c] === 1) {
      if (c === EQUALS) return undefined;
      const start = i;
      let equals = false;
      while (i < n) {
        const d = source.charCodeAt(i);
        if (WORD[d] !== 1) break;
        if (d === EQUALS) equals = true;
        i++;
      }
      const word = source.slice(start, i);
      if (words.length === 0 && (equals || SUBSET_REFUSED_FIRST_WORDS.has(word))) return undefined;
      words.push(word);
      continue;
    }
    // An operator ends a command that has words (so `;;`, `|&` and `&&&` are not plain); `&&` and `||` are two
    // characters, `;` and `|` one. A code past ASCII is no word character (`WORD` has no entry for it).
    if (words.length === 0) return undefined;
    if (c === AMPERSAND) {
      if (source.charCodeAt(i + 1) !== AMPERSAND) return undefined;
      i += 2;
    } else if (c === BAR) {
      i += source.charCodeAt(i + 1) === BAR ? 2 : 1;
    } else if (c === SEMICOLON) {
      i++;
    } else {
      return undefined;
    }
    commands.push(words);
    words = [];
  }
  // A line ending in an operator, or holding no word at all, is not plain.
  if (words.length === 0) return undefined;
  commands.push(words);
  return commands;
}
