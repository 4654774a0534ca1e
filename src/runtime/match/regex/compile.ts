/**
 * Compiling one pattern: the flags checked, the pattern parsed, sized and emitted, and the program wrapped as a
 * {@link LinearRegex} that answers with string methods when the pattern is a plain literal and otherwise runs
 * the lazy DFA or the Pike VM. Also hands a compiled pattern's program to the pattern set (`set.ts`).
 */

import { getFoldTable } from "../case-fold.js";
import {
  Emitter,
  findShortcut,
  MAX_REGEX_PROGRAM_SIZE,
  programSize,
  REGEX_OPS,
  type RegexProgram,
  type Shortcut,
  TooLarge,
} from "./program.js";
import { type RegexNode as Node, Parser, RegexSyntaxError } from "./syntax.js";
import { Machine, REGEX_WORK_BOUND } from "./vm.js";

/** A compiled pattern. `test` has search semantics (like `RegExp.prototype.test`) and keeps no state. */
export interface LinearRegex {
  /** The pattern as given. */
  readonly source: string;
  /** The flags as given (a subset of `imsu`). */
  readonly flags: string;
  /** True when the pattern matches somewhere in `input` (anchored only by `^` and `$`). */
  test(input: string): boolean;
  /**
   * As `test`, but spends at most {@link REGEX_WORK_BOUND} steps: undefined when the answer would cost more
   * (a large pattern whose thread sets keep changing, on a long input). Policy rules read that as a maybe.
   */
  testBounded(input: string): boolean | undefined;
  /**
   * True when some string that `template` stands for may match: a string part is itself, a `null` part is any
   * non-empty run of characters other than `/` and NUL (an unknown path segment). Over-approximates: `\b`, `\B` and
   * the `m` anchors next to an unknown part count as holding. For conservative path matching only.
   */
  mayMatchTemplate(template: readonly (string | null)[]): boolean;
}

/** Result of {@link compileRegex}; `offset` is the code-unit index in the pattern (or in `flags`) of the problem. */
export type CompileRegexResult =
  | { readonly ok: true; readonly regex: LinearRegex }
  | { readonly ok: false; readonly message: string; readonly offset: number };

class CompiledRegex implements LinearRegex {
  constructor(
    readonly source: string,
    readonly flags: string,
    readonly machine: Machine,
    private readonly shortcut: Shortcut,
  ) {}

  test(input: string): boolean {
    const literal = this.shortcut.literal;
    if (literal !== undefined) {
      const { text, anchoredEnd } = literal;
      if (this.shortcut.anchoredStart) return anchoredEnd ? input === text : input.startsWith(text);
      return anchoredEnd ? input.endsWith(text) : input.includes(text);
    }
    return (this.machine.dfaEligible ? this.machine.runDfa(input) : this.machine.run(input)) === true;
  }

  testBounded(input: string): boolean | undefined {
    const literal = this.shortcut.literal;
    if (literal !== undefined) return this.test(input);
    const machine = this.machine;
    return machine.dfaEligible
      ? machine.runDfa(input, REGEX_WORK_BOUND)
      : machine.run(input, REGEX_WORK_BOUND);
  }

  mayMatchTemplate(template: readonly (string | null)[]): boolean {
    return this.machine.runTemplate(template);
  }
}

/**
 * The program of `regex` when its answers may come from a lazy DFA that reads each character once: a pattern of
 * this engine whose assertions look at no character (no `\b`, `\B`, no flag `m`) and that is not answered by
 * string methods alone. Undefined otherwise (the pattern is then best tested on its own).
 */
export function regexProgram(regex: LinearRegex): RegexProgram | undefined {
  if (!(regex instanceof CompiledRegex)) return undefined;
  const machine = regex.machine;
  if (machine.shortcut.literal !== undefined || !machine.dfaEligible) return undefined;
  return {
    ops: machine.ops,
    argA: machine.argA,
    argB: machine.argB,
    sets: machine.sets,
    table: machine.table,
    unicode: machine.unicode,
    anchoredStart: machine.shortcut.anchoredStart,
  };
}

/**
 * Compiles `pattern` (JavaScript syntax, see `index.ts` for the subset) into a linear-time matcher.
 *
 * @param pattern - the regular expression source, without slashes.
 * @param flags - any of `i` (case-insensitive), `m` (multiline anchors), `s` (`.` matches line terminators),
 *   `u` (code points); each at most once. Stateful flags (`g`, `y`) and `d`/`v` are refused.
 * @returns `{ ok: true, regex }`, or `{ ok: false, message, offset }` where `offset` indexes `pattern` — or,
 *   for a flag problem, `flags`. Never throws.
 */
export function compileRegex(pattern: string, flags = ""): CompileRegexResult {
  const seen = new Set<string>();
  for (let i = 0; i < flags.length; i++) {
    const flag = flags[i] as string;
    if (!"imsu".includes(flag)) {
      const why =
        flag === "g" || flag === "y"
          ? "test() keeps no lastIndex state; remove it"
          : "only i, m, s and u are supported; remove it";
      return { ok: false, message: `unsupported flag "${flag}": ${why}`, offset: i };
    }
    if (seen.has(flag))
      return { ok: false, message: `flag "${flag}" is given twice; give it once`, offset: i };
    seen.add(flag);
  }
  const unicode = seen.has("u");
  const ignoreCase = seen.has("i");
  const multiline = seen.has("m");
  let root: Node;
  try {
    root = new Parser(pattern, unicode, seen.has("s"), ignoreCase).parse();
    programSize(root);
  } catch (error) {
    if (error instanceof RegexSyntaxError) return { ok: false, message: error.message, offset: error.offset };
    if (error instanceof TooLarge) {
      return {
        ok: false,
        message: `pattern too large: it compiles to more than ${MAX_REGEX_PROGRAM_SIZE} instructions (counted repetition such as {1000} is expanded); use smaller counts or * and +`,
        offset: error.offset,
      };
    }
    throw error;
  }
  const table = ignoreCase ? getFoldTable() : undefined;
  const emitter = new Emitter(table);
  emitter.emit(root);
  emitter.emitOp(REGEX_OPS.match);
  const shortcut = findShortcut(root, unicode, multiline, ignoreCase);
  const machine = new Machine(emitter.code, emitter.sets, table, unicode, multiline, shortcut);
  return { ok: true, regex: new CompiledRegex(pattern, flags, machine, shortcut) };
}
