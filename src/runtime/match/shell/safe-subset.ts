// The safe subset of shell syntax: the only strings on which the `command` operator can answer "certainly
// matches" (so that an allow rule may decide). dash, bash, bash --posix, busybox sh and zsh as sh read every
// string of this subset as the same simple commands with the same words, and none of them expands anything
// in it. docs/shell-subset.md states the subset; this file is its only definition in code.
//
// The subset:
// - words made of the unquoted characters A-Z a-z 0-9 _ - . / , : @ % + =  (a word may not start with `=`),
//   single-quoted strings of printable ASCII, and double-quoted strings of printable ASCII without `$`, a
//   backquote, `\` or `!`; a word is all of these side by side (`'a'b"c"` is `abc`);
// - simple commands joined by `;`, `&&`, `||`, `|` and newlines (a newline may also follow `&&`, `||`, `|`);
// - the redirections `>/dev/null`, `>>/dev/null`, `</dev/null` (optionally after a descriptor 0, 1 or 2 and
//   with blanks before the target) and `>&1`, `>&2` (optionally after 0, 1 or 2);
// - every simple command has at least one word; its first word holds no `=` (no assignments) and is not a
//   reserved word of any of the shells, nor a builtin that changes how later commands are read or found
//   (tables.ts, SUBSET_REFUSED_FIRST_WORDS).
// - a backslash-newline (a line continuation) inside double quotes, or outside quotes where no shell could read
//   it as splitting a token: not between two operator characters (`&\<newline>&`, `>\<newline>&`, `;\<newline>;`),
//   nor between a descriptor digit and a redirection (`2\<newline>>`); every shell removes it before reading;
// Anything else — `$` in any form, backquotes, other `\`, globs `* ? [`, braces, `~`, `#`, `!`, `^`, `&`
// alone, `|&`, `&>`, `(`, `)`, here-documents, other redirections, control or non-ASCII characters — is outside.

import { SUBSET_REFUSED_FIRST_WORDS } from "./tables.js";

/** One simple command of the safe subset: its words after quote removal and its (harmless) redirections. */
export interface SafeCommand {
  readonly words: readonly string[];
  readonly redirections: readonly string[];
}

function isUnquotedWordChar(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) || // a-z
    (code >= 0x41 && code <= 0x5a) || // A-Z
    (code >= 0x30 && code <= 0x39) || // 0-9
    code === 0x5f || // _
    code === 0x2d || // -
    code === 0x2e || // .
    code === 0x2f || // /
    code === 0x2c || // ,
    code === 0x3a || // :
    code === 0x40 || // @
    code === 0x25 || // %
    code === 0x2b || // +
    code === 0x3d // =
  );
}

/** Printable ASCII, space included. */
function isPrintable(code: number): boolean {
  return code >= 0x20 && code < 0x7f;
}

function isBlank(c: string | undefined): boolean {
  return c === " " || c === "\t";
}

/** Where an unquoted word ends. */
function isWordEnd(c: string | undefined): boolean {
  return (
    c === undefined ||
    c === " " ||
    c === "\t" ||
    c === "\n" ||
    c === ";" ||
    c === "&" ||
    c === "|" ||
    c === "<" ||
    c === ">"
  );
}

/**
 * Reads `source` as the safe subset.
 *
 * @returns its simple commands, or `undefined` when any part of the string is outside the subset (then no
 *   `command` condition over it can be certain). Never throws; linear in the length of `source`.
 */
export function readSafeSubset(text: string): readonly SafeCommand[] | undefined {
  const source = text.includes("\\\n") ? joinLines(text) : text;
  if (source === undefined) return undefined;
  const commands: SafeCommand[] = [];
  let words: string[] = [];
  let redirections: string[] = [];
  /** The last operator read is `&&`, `||` or `|`, which needs a command after it (`;` may end the string). */
  let andOr = false;
  let pos = 0;
  const n = source.length;

  const finish = (): boolean => {
    if (words.length === 0) return false;
    const first = words[0] as string;
    if (first.includes("=") || SUBSET_REFUSED_FIRST_WORDS.has(first)) return false;
    commands.push({ words, redirections });
    words = [];
    redirections = [];
    return true;
  };
  const started = (): boolean => words.length > 0 || redirections.length > 0;

  while (pos < n) {
    const c = source[pos] as string;
    if (isBlank(c)) {
      pos++;
      continue;
    }
    if (c === "\n") {
      if (started() && !finish()) return undefined;
      pos++;
      continue;
    }
    if (c === ";") {
      if (!started() || !finish()) return undefined;
      pos++;
      continue;
    }
    if (c === "&") {
      if (source[pos + 1] !== "&" || !started() || !finish()) return undefined;
      andOr = true;
      pos += 2;
      continue;
    }
    if (c === "|") {
      if (!started() || !finish()) return undefined;
      // `|&` is refused when its `&` is read: an `&` alone, or `&&` with no command before it.
      pos += source[pos + 1] === "|" ? 2 : 1;
      andOr = true;
      continue;
    }
    // A command starts here: the operator before it is satisfied.
    andOr = false;
    const fd = c >= "0" && c <= "2" && (source[pos + 1] === ">" || source[pos + 1] === "<") ? c : "";
    if (fd !== "" || c === ">" || c === "<") {
      const redirection = readRedirection(source, pos + fd.length, fd);
      if (redirection === undefined) return undefined;
      redirections.push(redirection.text);
      pos = redirection.end;
      continue;
    }
    const word = readWord(source, pos);
    if (word === undefined) return undefined;
    // `a2>x`, `10>x`: a word glued to a redirection is read as a descriptor by some shells only.
    if (source[word.end] === "<" || source[word.end] === ">") return undefined;
    words.push(word.text);
    pos = word.end;
  }
  if (started() && !finish()) return undefined;
  if (andOr || commands.length === 0) return undefined;
  return commands;
}

/** A redirection whose operator starts at `pos`: `>/dev/null`, `>>/dev/null`, `</dev/null`, `>&1`, `>&2`. */
function readRedirection(source: string, pos: number, fd: string): { text: string; end: number } | undefined {
  let op: string;
  if (source.startsWith(">>", pos)) op = ">>";
  else if (source.startsWith(">&", pos)) {
    const target = source[pos + 2];
    if ((target !== "1" && target !== "2") || !isWordEnd(source[pos + 3])) return undefined;
    return { text: `${fd}>&${target}`, end: pos + 3 };
  } else if (source[pos] === ">") op = ">";
  else op = "<";
  // Only blanks may stand between the operator and `/dev/null`: `>>>`, `><`, `>&x`, `>|`, `>(` are refused here.
  let i = pos + op.length;
  while (isBlank(source[i])) i++;
  if (!source.startsWith("/dev/null", i) || !isWordEnd(source[i + 9])) return undefined;
  return { text: `${fd}${op}/dev/null`, end: i + 9 };
}

/** A word at `pos` (not at a word end): unquoted safe characters and safe quoted strings, side by side. */
function readWord(source: string, pos: number): { text: string; end: number } | undefined {
  let text = "";
  let i = pos;
  if (source[i] === "=") return undefined;
  while (!isWordEnd(source[i])) {
    const c = source[i] as string;
    if (c === "'" || c === '"') {
      const close = source.indexOf(c, i + 1);
      if (close === -1) return undefined;
      const quoted = source.slice(i + 1, close);
      for (let k = 0; k < quoted.length; k++) {
        const code = quoted.charCodeAt(k);
        if (!isPrintable(code)) return undefined;
        if (c === '"' && (code === 0x24 || code === 0x60 || code === 0x5c || code === 0x21)) return undefined;
      }
      text += quoted;
      i = close + 1;
      continue;
    }
    if (!isUnquotedWordChar(source.charCodeAt(i))) return undefined;
    text += c;
    i++;
  }
  return { text, end: i };
}

/** Characters that join with a neighbour into one operator (`&&`, `>&`, `>>`, `||`). */
function isOperatorChar(c: string | undefined): boolean {
  return c === ";" || c === "&" || c === "|" || c === "<" || c === ">";
}

/**
 * `text` with its backslash-newlines removed, as every shell removes them, or `undefined` when one stands where
 * the shells disagree (zsh keeps `&\<newline>&` two operators) or the text leaves the subset around it (any
 * other backslash, one inside single quotes).
 */
function joinLines(text: string): string | undefined {
  let out = "";
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      out += c;
      continue;
    }
    if (c === "\\") {
      if (text[i + 1] !== "\n") return undefined;
      i++;
      if (quote === undefined) {
        let after = i + 1;
        while (text[after] === "\\" && text[after + 1] === "\n") after += 2;
        const before = out[out.length - 1];
        const next = text[after];
        const splitsToken =
          isOperatorChar(next) &&
          (isOperatorChar(before) || (before !== undefined && before >= "0" && before <= "9"));
        if (splitsToken) return undefined;
      }
      continue;
    }
    if (c === '"' || c === "'") quote = quote === c ? undefined : (quote ?? c);
    out += c;
  }
  return out;
}
