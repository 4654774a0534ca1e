// What a simple command may run besides the program its words name: code in its arguments (programs.ts), in
// the values of its assignments, in a builtin's arguments (builtins.ts), or anything at all. The deny/ask side of
// the matcher checks what this returns like any other command, so a rule sees the command inside
// `make CC='rm -rf /'`, `git -c alias.x='!rm -rf /' x`, `PAGER='rm -rf /' git log` or `find . -exec rm {} +`.
//
// Text that a program hands to `sh -c` is read with the shell reader itself (bounded depth), never as a bag of
// words: `'r''m' -rf /` is `rm -rf /` to the shell that runs it. Text the reader cannot read may run anything.

import { builtinMayRunAnything, SHELL_BUILTINS } from "./builtins.js";
import { forEachCodeArgument, isCodeLocatingVariable, isDataVariable } from "./programs.js";
import { readShellCommand, type ShellWord, type SimpleCommand } from "./reader.js";
import { hasHiddenCharacter, PARSER_RESERVED_WORDS, READABLE_WRAPPERS } from "./tables.js";

/** How deep code inside code is read (`sh -c "make CC='git -c …'"`); deeper text may run anything. */
export const MAX_CODE_DEPTH = 8;

/** `true`: the command may run anything; otherwise the commands it may also run (often none). */
export type AlsoRuns = true | readonly SimpleCommand[];

/** Leading characters that programs take off before they run the rest (git's `!alias`, make's `@-+`, less's `|`). */
const GLUE = /^[\s!+|@:-]+/;

/** A simple command of literal words, without assignments or redirections. */
export function commandOf(words: readonly string[]): SimpleCommand {
  return {
    words: words.map((text) => ({ text, literal: true })),
    assignments: 0,
    names: [],
    values: [],
    redirections: [],
  };
}

/**
 * Reads `text` as a shell would that is handed it with `sh -c`: the commands of every reading, or `true` when it
 * may run anything (no reading, an expansion that evaluates code, a hidden character, too deep).
 */
export function readCode(text: string, depth: number): AlsoRuns {
  if (depth > MAX_CODE_DEPTH || hasHiddenCharacter(text)) return true;
  const commands: SimpleCommand[] = [];
  for (const variant of codeVariants(text)) {
    // Blank text runs nothing (`FOO= ls`, `make CC= x`).
    if (/^\s*$/.test(variant)) continue;
    const read = readShellCommand(variant);
    if (!read.ok) return true;
    for (const reading of read.readings) {
      if (reading.opaque) return true;
      commands.push(...reading.commands);
    }
  }
  return commands;
}

/** The text, and without the characters programs take off before they run it (`!rm -rf /` is `rm -rf /`). */
function codeVariants(text: string): readonly string[] {
  const bare = text.replace(GLUE, "");
  return bare === text ? [text] : [text, bare];
}

/** A `name=value` setting (`core.pager=less`, `CC=gcc`): its value is what a program runs. */
function settingValue(text: string): string | undefined {
  const equals = text.indexOf("=");
  return equals > 0 && !/[\s'"]/.test(text.slice(0, equals)) ? text.slice(equals + 1) : undefined;
}

/** {@link readCode} of a code argument's text, and of its value when it is a `name=value` setting. */
export function readSetting(text: string, depth: number): AlsoRuns {
  const value = settingValue(text);
  const read = readCode(text, depth);
  if (value === undefined || read === true) return read;
  const inner = readCode(value, depth);
  return inner === true ? true : [...read, ...inner];
}

/**
 * What `command` may run besides the program its words name (see the module comment), for the matcher to check
 * like any command one level deeper: assignments' values (a program may run `PAGER`, `EDITOR`,
 * `GIT_EXTERNAL_DIFF`, …) read as code unless the variable is data (`LANG`), and anything when the variable says
 * where programs or start-up files are found (`PATH`, `LD_PRELOAD`, `BASH_ENV`); a builtin that is not inert:
 * anything; `export`/`readonly` values as
 * assignments'; code arguments of the programs in programs.ts (shell text read with the reader, `argv` words as a
 * command, other languages' code and code files: anything).
 *
 * @param depth - how deep this command already is inside code (0 for the string itself).
 */
export function alsoRuns(command: SimpleCommand, depth: number): AlsoRuns {
  if (depth > 64) return true;
  const found: SimpleCommand[] = [];
  for (let i = 0; i < command.values.length; i++) {
    // The reader and unwrap() give a name with every value.
    const name = command.names[i] as string;
    const value = command.values[i] as ShellWord;
    if (isCodeLocatingVariable(name) || !value.literal) return true;
    if (isDataVariable(name)) continue;
    const read = readCode(value.text, depth + 1);
    if (read === true) return true;
    found.push(...read);
  }
  // The matcher (mayRun) and CommandPrefixSet (markMayRun) read a command's words after this, and there a first
  // word that is not literal or that zsh may read as another name (`sudo~x`), and any word that is not literal
  // after a first word other than the few in NEVER_RUNS_OPERANDS (none of which is a builtin that is not inert
  // or a program with code arguments), already may run anything: those cases are not repeated here.
  const words = command.words;
  const first = words[0];
  if (first === undefined || !first.literal) return found;
  const name = lowerBase(first.text);
  const texts = words.map((w) => w.text);
  // A builtin is found by its exact name; its name in another case or after a path is a program of that name
  // on some system (`/usr/bin/printf`), read as the builtin, conservatively. A reserved word here was quoted
  // (the reader refuses it unquoted): it is an ordinary command name.
  if (SHELL_BUILTINS.has(name) && !READABLE_WRAPPERS.has(name) && !PARSER_RESERVED_WORDS.has(first.text)) {
    // An inert builtin: builtinMayRunAnything says false, and it is neither export nor readonly.
    if (builtinMayRunAnything(name, texts.slice(1))) return true;
    if (name === "export" || name === "readonly") {
      for (const arg of texts.slice(1)) {
        const equals = arg.indexOf("=");
        if (equals === -1) continue;
        const variable = arg.slice(0, equals);
        if (isCodeLocatingVariable(variable)) return true;
        if (isDataVariable(variable)) continue;
        const read = readCode(arg.slice(equals + 1), depth + 1);
        if (read === true) return true;
        found.push(...read);
      }
    }
    return found;
  }
  // Most commands are neither a builtin nor a program that runs code: forEachCodeArgument finds nothing in them.
  let anything = false;
  forEachCodeArgument(texts, (argument) => {
    if (argument.kind === "shell") {
      const read = readSetting(argument.text, depth + 1);
      if (read === true) anything = true;
      else found.push(...read);
    } else if (argument.kind === "argv") {
      found.push(commandOf(texts.slice(argument.valueFrom, argument.to)));
    } else {
      // `opaque` and `file` (another language's code, a file of code), and any kind not read here: anything.
      anything = true;
    }
    return anything;
  });
  return anything ? true : found;
}

/** The base name of a word in lower case; the word itself when it is one already (most are). */
function lowerBase(word: string): string {
  const base = word.slice(word.lastIndexOf("/") + 1);
  for (let i = 0; i < base.length; i++) {
    const c = base.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) return base.toLowerCase();
  }
  return base;
}

/**
 * Whether a literal command word names a file that the same string may have written: it holds a `/`
 * (`./it`, `bin/x`, `/tmp/x`), and its base name is a word or a redirection target of another command of the
 * string (`cp /tmp/a it; chmod +x it; ./it`, `echo … > it; ./it`). Such a command may run anything.
 */
export function writtenEarlier(word: string, names: ReadonlySet<string>): boolean {
  if (!word.includes("/")) return false;
  const base = word.slice(word.lastIndexOf("/") + 1).toLowerCase();
  // namesInString never holds "" (a word ending in `/`).
  return names.has(base);
}

/**
 * The base names (in lower case) of every argument and redirection target of the commands of one reading: the
 * files the string may write. (A command's own name is left out: running a program does not write it.)
 */
export function namesInString(commands: readonly SimpleCommand[]): ReadonlySet<string> {
  const names = new Set<string>();
  // Only a command word holding a `/` is compared with them: most strings have none, and need no names.
  if (!commands.some((c) => c.words[0]?.text.includes("/") === true)) return names;
  const addName = (text: string) => {
    const base = text.slice(text.lastIndexOf("/") + 1).toLowerCase();
    if (base !== "") names.add(base);
  };
  for (const command of commands) {
    for (let k = 1; k < command.words.length; k++) addName((command.words[k] as ShellWord).text);
    for (const redirection of command.redirections) addName(redirection.replace(/^[0-9]*[<>&|]+/, ""));
  }
  return names;
}
