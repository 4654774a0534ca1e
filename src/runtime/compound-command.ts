/**
 * Compound commands decided part by part, as Codex, Claude Code and Gemini CLI decide them: when a tool's rules
 * read a field with the `command` operator and the call's value there is a string of several simple commands
 * inside the safe shell subset (`git status && npm test`), each simple command is decided on its own by the
 * whole policy (the field holding that command alone, every other field as it is), and the call's decision is
 * the strictest of theirs.
 *
 * The whole string is decided first, and a statement's allow or deny of it stands: an allow certainly covers
 * every part, and a deny of the whole is never given up (a rule may see what no part shows alone: a file one
 * command writes and another runs, a pattern across two commands). A statement's ask of the whole stands too
 * when the tool applies only `command` to the field (its parts would then be decided alike). The parts decide
 * when the whole would fall back to `otherwise` or the default deny, or gets its ask from another operator on
 * the field. A string outside the subset, of one simple command, or in which a command runs a file another
 * command names, is decided as it is.
 */

import type { ConditionSpec } from "./condition.js";
import { readField, splitFieldPath } from "./condition.js";
import { readSafeSubset, type SafeCommand } from "./match/shell/safe-subset.js";

/** One field that `command` operators read, and the simple commands of the call's value there. */
export interface CompoundSplit {
  readonly path: readonly string[];
  /** Each simple command as a string of the safe subset that reads back as exactly its words. */
  readonly parts: readonly string[];
}

/** Whether an operator object (or one nested in it) holds the `command` operator. */
function readsCommand(operators: unknown, depth = 0): boolean {
  if (operators === null || typeof operators !== "object" || depth > 16) return false;
  if (Array.isArray(operators)) return operators.some((item) => readsCommand(item, depth + 1));
  for (const [key, value] of Object.entries(operators)) {
    if (key === "command") return true;
    if (readsCommand(value, depth + 1)) return true;
  }
  return false;
}

/** The fields a tool's statements read with `command`, and whether `command` is all they apply there. */
export interface CommandFields {
  readonly paths: readonly (readonly string[])[];
  /** Every operator any statement applies to these fields is a top-level `command`. */
  readonly onlyCommand: boolean;
}

/**
 * The field paths that some `when` condition reads with `command` (directly or inside `not`/`any`), in first
 * appearance order, without duplicates; `undefined` when there is none.
 */
export function commandFields(conditions: readonly (ConditionSpec | undefined)[]): CommandFields | undefined {
  const seen = new Map<string, readonly string[]>();
  for (const condition of conditions) {
    if (condition === undefined) continue;
    for (const [field, operators] of Object.entries(condition)) {
      if (!seen.has(field) && readsCommand(operators)) seen.set(field, splitFieldPath(field));
    }
  }
  if (seen.size === 0) return undefined;
  let onlyCommand = true;
  for (const condition of conditions) {
    for (const field of seen.keys()) {
      const operators = condition?.[field];
      if (operators !== undefined && Object.keys(operators).some((key) => key !== "command"))
        onlyCommand = false;
    }
  }
  return { paths: [...seen.values()], onlyCommand };
}

/** Characters a word of the safe subset may hold unquoted (a word may not start with `=`). */
const UNQUOTED = /^[A-Za-z0-9_\-./,:@%+=]+$/;

/** A word of the safe subset written back so that every shell reads it as exactly this text. */
function quoteWord(word: string): string {
  if (UNQUOTED.test(word) && word[0] !== "=") return word;
  // Single quotes around everything but `'`, which goes in double quotes: `it's` is `'it'"'"'s'`.
  return word
    .split("'")
    .map((piece) => `'${piece}'`)
    .join(`"'"`);
}

/** One simple command of the safe subset as a string of the subset: its words, then its redirections. */
export function renderSafeCommand(command: SafeCommand): string {
  return [...command.words.map(quoteWord), ...command.redirections].join(" ");
}

/**
 * The first field of `fields` whose value in `args` is a string of two or more simple commands inside the safe
 * subset, with those commands; `undefined` when there is none (the call is decided as it is).
 */
export function splitCompound(
  args: unknown,
  fields: readonly (readonly string[])[],
): CompoundSplit | undefined {
  for (const path of fields) {
    const value = readField(args, path);
    if (typeof value !== "string" || value.length === 0) continue;
    const safe = readSafeSubset(value);
    if (safe === undefined || safe.length < 2 || runsWrittenFile(safe)) continue;
    return { path, parts: safe.map(renderSafeCommand) };
  }
  return undefined;
}

/**
 * Whether a command of the string runs a file that another names (its word holds a `/` and its base name is an
 * argument or redirection target elsewhere): only the whole string shows that it may run anything.
 */
function runsWrittenFile(commands: readonly SafeCommand[]): boolean {
  const base = (text: string) => text.slice(text.lastIndexOf("/") + 1).toLowerCase();
  const runs = commands
    .filter((c) => c.words[0]?.includes("/") === true)
    .map((c) => base(c.words[0] as string));
  if (runs.length === 0) return false;
  const named = new Set<string>();
  for (const command of commands) {
    for (let k = 1; k < command.words.length; k++) named.add(base(command.words[k] as string));
    for (const redirection of command.redirections)
      named.add(base(redirection.replace(/^[0-9]*[<>&|]+/, "")));
  }
  return runs.some((name) => name !== "" && named.has(name));
}

/** A copy of `args` with the value at `path` replaced (the objects along the path are copied, nothing else). */
export function withField(args: unknown, path: readonly string[], value: string): unknown {
  if (path.length === 0 || args === null || typeof args !== "object" || Array.isArray(args)) return args;
  const [key, ...rest] = path as [string, ...string[]];
  const copy: Record<string, unknown> = {};
  for (const own of Object.keys(args)) {
    Object.defineProperty(copy, own, {
      value: (args as Record<string, unknown>)[own],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  Object.defineProperty(copy, key, {
    value: rest.length === 0 ? value : withField((args as Record<string, unknown>)[key], rest, value),
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return copy;
}
