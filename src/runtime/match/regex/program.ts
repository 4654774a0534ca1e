/**
 * The compiled form of a pattern: a Thompson program of three int32 slots per instruction (opcode and two
 * arguments), its size bound, the emitter that writes it from the syntax tree, and the literal shortcuts found
 * at compile time (a fixed first text, or a pattern that string methods alone answer).
 */

import { type FoldTable, foldCodePoint } from "../case-fold.js";
import { CharSet, MAX_CODE_POINT } from "./char-set.js";
import type { AssertKind, RegexNode as Node } from "./syntax.js";

/** The largest compiled program `compileRegex` accepts, in instructions; bounds `test`'s cost per character. */
export const MAX_REGEX_PROGRAM_SIZE = 10_000;

const OP_CHAR = 0;
const OP_SET = 1;
const OP_ANY = 2;
const OP_SPLIT = 3;
const OP_JMP = 4;
const OP_ASSERT = 5;
const OP_MATCH = 6;

const ASSERT_CODES: Record<AssertKind, number> = { bol: 0, eol: 1, word: 2, nonword: 3 };

export class TooLarge {
  constructor(readonly offset: number) {}
}

/** Sizes already computed: counted repetition emits the same child node many times. */
const sizeCache = new WeakMap<Node, number>();

/** Instruction count of `node`, or throws `TooLarge` as soon as it passes the bound. */
export function programSize(node: Node): number {
  const cached = sizeCache.get(node);
  if (cached !== undefined) return cached;
  const size = computeProgramSize(node);
  sizeCache.set(node, size);
  return size;
}

function computeProgramSize(node: Node): number {
  switch (node.kind) {
    case "empty":
      return 0;
    case "char":
    case "set":
    case "assert":
      return 1;
    case "concat": {
      let total = 0;
      for (const item of node.items) total += programSize(item);
      if (total > MAX_REGEX_PROGRAM_SIZE) throw new TooLarge(0);
      return total;
    }
    case "alt": {
      let total = 2 * (node.items.length - 1);
      for (const item of node.items) total += programSize(item);
      if (total > MAX_REGEX_PROGRAM_SIZE) throw new TooLarge(0);
      return total;
    }
    case "repeat": {
      const s = programSize(node.child);
      if (s === 0) return 0;
      const { min, max } = node;
      let total: number;
      if (max === Number.POSITIVE_INFINITY) total = min === 0 ? s + 2 : s * min + 1;
      else total = s * min + (max - min) * (s + 1);
      if (total > MAX_REGEX_PROGRAM_SIZE) throw new TooLarge(node.offset);
      return total;
    }
  }
}

/** Emits the Thompson program: three int32 slots per instruction (op, a, b). */
export class Emitter {
  readonly code: number[] = [];
  readonly sets: CharSet[] = [];
  /** A set node emitted several times (counted repetition) is compiled once. */
  private readonly setIndex = new Map<Node, number>();

  constructor(private readonly table: FoldTable | undefined) {}

  get pc(): number {
    return this.code.length / 3;
  }

  emitOp(op: number, a = 0, b = 0): number {
    const pc = this.pc;
    this.code.push(op, a, b);
    return pc;
  }

  patch(pc: number, slot: 1 | 2, target: number): void {
    this.code[3 * pc + slot] = target;
  }

  /** Writes `node`'s instructions (an `empty` node has none). */
  emit(node: Node): void {
    switch (node.kind) {
      case "char":
        this.emitOp(OP_CHAR, this.table === undefined ? node.cp : foldCodePoint(node.cp, this.table));
        return;
      case "set": {
        // A first range of every character holds every character, whatever else the class lists.
        const everything = !node.negated && node.ranges[0] === 0 && node.ranges[1] === MAX_CODE_POINT;
        if (everything) {
          this.emitOp(OP_ANY);
          return;
        }
        let index = this.setIndex.get(node);
        if (index === undefined) {
          index = this.sets.push(new CharSet(node.ranges, node.negated, this.table)) - 1;
          this.setIndex.set(node, index);
        }
        this.emitOp(OP_SET, index);
        return;
      }
      case "assert":
        this.emitOp(OP_ASSERT, ASSERT_CODES[node.which]);
        return;
      case "concat":
        for (const item of node.items) this.emit(item);
        return;
      case "alt": {
        // Every branch but the last: a split to it or onward, and a jump past the others after it.
        const last = node.items.length - 1;
        const jumps: number[] = [];
        for (let i = 0; i < last; i++) {
          const split = this.emitOp(OP_SPLIT, 0, 0);
          this.patch(split, 1, this.pc);
          this.emit(node.items[i] as Node);
          jumps.push(this.emitOp(OP_JMP));
          this.patch(split, 2, this.pc);
        }
        this.emit(node.items[last] as Node);
        for (const jump of jumps) this.patch(jump, 1, this.pc);
        return;
      }
      case "repeat":
        this.emitRepeat(node.child, node.min, node.max);
        return;
    }
  }

  private emitRepeat(child: Node, min: number, max: number): void {
    if (programSize(child) === 0) return;
    if (max === Number.POSITIVE_INFINITY) {
      if (min === 0) {
        const split = this.emitOp(OP_SPLIT);
        this.patch(split, 1, this.pc);
        this.emit(child);
        this.emitOp(OP_JMP, split);
        this.patch(split, 2, this.pc);
        return;
      }
      for (let i = 0; i < min - 1; i++) this.emit(child);
      const loop = this.pc;
      this.emit(child);
      this.emitOp(OP_SPLIT, loop, this.pc + 1);
      return;
    }
    for (let i = 0; i < min; i++) this.emit(child);
    const exits: number[] = [];
    for (let i = min; i < max; i++) {
      const split = this.emitOp(OP_SPLIT);
      this.patch(split, 1, this.pc);
      exits.push(split);
      this.emit(child);
    }
    for (const split of exits) this.patch(split, 2, this.pc);
  }
}

/** Literal fast paths found at compile time. */
export interface Shortcut {
  /** Characters every match starts with (empty when unknown). */
  readonly prefix: string;
  readonly anchoredStart: boolean;
  /** When the whole pattern is `^?literal$?`: how to answer with string methods alone. */
  readonly literal: { readonly text: string; readonly anchoredEnd: boolean } | undefined;
}

function literalText(cps: readonly number[], unicode: boolean): string | undefined {
  let text = "";
  for (const cp of cps) {
    // A lone surrogate could match half of a pair under `u`; leave such patterns to the VM.
    if (unicode && cp >= 0xd800 && cp <= 0xdfff) return undefined;
    text += unicode ? String.fromCodePoint(cp) : String.fromCharCode(cp);
  }
  return text;
}

export function findShortcut(
  root: Node,
  unicode: boolean,
  multiline: boolean,
  ignoreCase: boolean,
): Shortcut {
  const items: Node[] = [];
  const flatten = (node: Node): void => {
    if (node.kind === "concat") for (const item of node.items) flatten(item);
    else if (node.kind !== "empty") items.push(node);
  };
  flatten(root);
  let i = 0;
  const anchoredStart = !multiline && items[0]?.kind === "assert" && items[0].which === "bol";
  if (anchoredStart) i++;
  const cps: number[] = [];
  while (i < items.length) {
    const item = items[i] as Node;
    if (item.kind !== "char") break;
    cps.push(item.cp);
    i++;
  }
  const text = ignoreCase ? undefined : literalText(cps, unicode);
  let literal: Shortcut["literal"];
  if (text !== undefined) {
    const last = items[i];
    if (i === items.length) literal = { text, anchoredEnd: false };
    else if (i === items.length - 1 && !multiline && last?.kind === "assert" && last.which === "eol") {
      literal = { text, anchoredEnd: true };
    }
  }
  return { prefix: text ?? "", anchoredStart, literal };
}

/**
 * The Thompson program of a compiled pattern, for running many patterns as one automaton (`set.ts`):
 * three parallel arrays (opcode, first and second argument) ending in MATCH, the character sets that `SET`
 * instructions index, the fold table when the pattern has flag `i` (characters are folded before they are
 * compared), whether input is read as code points, and whether the pattern can only match at the start.
 */
export interface RegexProgram {
  readonly ops: Int32Array;
  readonly argA: Int32Array;
  readonly argB: Int32Array;
  readonly sets: readonly CharSet[];
  readonly table: FoldTable | undefined;
  readonly unicode: boolean;
  readonly anchoredStart: boolean;
}

/** Opcodes of {@link RegexProgram}. */
export const REGEX_OPS = Object.freeze({
  char: OP_CHAR,
  set: OP_SET,
  any: OP_ANY,
  split: OP_SPLIT,
  jmp: OP_JMP,
  assert: OP_ASSERT,
  match: OP_MATCH,
});
