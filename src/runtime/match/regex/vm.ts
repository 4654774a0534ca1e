/**
 * Running a program: the Pike VM (every thread steps once per character, so a test costs input length × program
 * size at most), the lazy DFA over the VM's thread sets (made on demand, cached, the cache capped in memory),
 * the work bound both count against, and the set simulation over a path template with unknown parts.
 */

import { type FoldTable, foldCodePoint } from "../case-fold.js";
import { type CharSet, isLineTerminator, isWordUnit } from "./char-set.js";
import { REGEX_OPS, type Shortcut } from "./program.js";

const {
  char: OP_CHAR,
  set: OP_SET,
  any: OP_ANY,
  split: OP_SPLIT,
  jmp: OP_JMP,
  assert: OP_ASSERT,
  match: OP_MATCH,
} = REGEX_OPS;

/** One state of the lazy DFA: the VM's threads before (`kernel`) and after (`closed`) their ε-closure. */
interface DfaState {
  readonly kernel: Int32Array;
  /** Made at the start of the input, where `^` holds. */
  readonly atStart: boolean;
  /** The threads that wait for a character, ascending. */
  readonly closed: Int32Array;
  /** The closure reached MATCH before the end of the input. */
  readonly matched: boolean;
  /** Whether MATCH is reached when the input ends here (`$` holds); made on first need. */
  matchedAtEnd: boolean | undefined;
  /** What making this state and its transitions counts against the work bound (the same whether cached or not). */
  readonly cost: number;
  /** The last run that counted `cost`. */
  visit: number;
  /** Next state per ASCII character, -1 when not made yet. */
  readonly ascii: Int32Array;
  other: Map<number, number> | undefined;
}

/** The lazy DFA's cache is started afresh beyond this many states or this many stored numbers. */
const MAX_DFA_STATES = 4096;
const MAX_DFA_SIZE = 4_000_000;

/**
 * The work `LinearRegex.testBounded` may spend on one input, in weighted thread steps (making a DFA
 * state costs its threads; a cached transition costs nothing): about 50 ms on one core of a small cloud
 * machine. Beyond it the answer is "undecided", which a policy reads as a maybe. Counted, not timed, so that
 * every machine and both controllers decide alike.
 */
export const REGEX_WORK_BOUND = 400_000;

/** The Pike VM: the program plus reusable buffers (test() is synchronous, so one set per regex suffices). */
export class Machine {
  readonly ops: Int32Array;
  readonly argA: Int32Array;
  readonly argB: Int32Array;
  private readonly listA: Int32Array;
  private readonly listB: Int32Array;
  private readonly mark: Uint32Array;
  private readonly stack: Int32Array;
  /** The ASCII tables of all sets side by side (set i at 128 * i), read without a call. */
  private readonly asciiSets: Uint8Array;
  private generation = 0;
  /**
   * Whether the lazy DFA can run this program: no assertion looks at the characters around it (no `\b`, `\B`,
   * no flag `m`).
   */
  readonly dfaEligible: boolean;
  /**
   * Whether `\b` and `\B` also count `ſ` and the Kelvin sign as word characters: with flag `i` (always Unicode
   * simple case folding, as `RegExp` with `iu`) they fold to `s` and `k`, and `RegExp` with `iu` counts them so.
   */
  private readonly foldedWords: boolean;

  constructor(
    code: readonly number[],
    readonly sets: readonly CharSet[],
    readonly table: FoldTable | undefined,
    readonly unicode: boolean,
    private readonly multiline: boolean,
    readonly shortcut: Shortcut,
  ) {
    const size = code.length / 3;
    this.ops = new Int32Array(size);
    this.argA = new Int32Array(size);
    this.argB = new Int32Array(size);
    let dfaEligible = !multiline;
    for (let pc = 0; pc < size; pc++) {
      const op = code[3 * pc] as number;
      const a = code[3 * pc + 1] as number;
      this.ops[pc] = op;
      this.argA[pc] = a;
      this.argB[pc] = code[3 * pc + 2] as number;
      if (op === OP_ASSERT && a >= 2) dfaEligible = false;
    }
    this.dfaEligible = dfaEligible;
    this.foldedWords = table !== undefined;
    this.listA = new Int32Array(size);
    this.listB = new Int32Array(size);
    this.mark = new Uint32Array(size);
    this.stack = new Int32Array(2 * size + 2);
    this.asciiSets = new Uint8Array(128 * sets.length);
    sets.forEach((set, i) => {
      this.asciiSets.set(set.ascii, 128 * i);
    });
  }

  private nextGeneration(): number {
    if (this.generation >= 0xfffffffe) {
      this.mark.fill(0);
      this.generation = 0;
    }
    return ++this.generation;
  }

  /** Whether a code unit is a word character for `\b` and `\B` (see {@link foldedWords}). */
  private isWord(c: number): boolean {
    return isWordUnit(c) || (this.foldedWords && (c === 0x17f || c === 0x212a));
  }

  private assertHolds(kind: number, input: string, pos: number): boolean {
    const before = pos > 0 ? input.charCodeAt(pos - 1) : -1;
    const after = pos < input.length ? input.charCodeAt(pos) : -1;
    switch (kind) {
      case 0:
        return before === -1 || (this.multiline && isLineTerminator(before));
      case 1:
        return after === -1 || (this.multiline && isLineTerminator(after));
      case 2:
        return this.isWord(before) !== this.isWord(after);
      default:
        return this.isWord(before) === this.isWord(after);
    }
  }

  /** Adds the ε-closure of `start` at `pos` to `list`; returns the new length, or -1 when MATCH is reached. */
  private addThread(
    list: Int32Array,
    length: number,
    gen: number,
    start: number,
    input: string,
    pos: number,
  ): number {
    const { ops, argA, argB, mark, stack } = this;
    let top = 0;
    stack[top++] = start;
    let n = length;
    while (top > 0) {
      const pc = stack[--top] as number;
      if (mark[pc] === gen) continue;
      mark[pc] = gen;
      switch (ops[pc]) {
        case OP_JMP:
          stack[top++] = argA[pc] as number;
          break;
        case OP_SPLIT:
          stack[top++] = argB[pc] as number;
          stack[top++] = argA[pc] as number;
          break;
        case OP_ASSERT:
          if (this.assertHolds(argA[pc] as number, input, pos)) stack[top++] = pc + 1;
          break;
        case OP_MATCH:
          return -1;
        default:
          list[n++] = pc;
      }
    }
    return n;
  }

  /** Closure of `starts` over ε-moves; assertions next to an unknown part (`unknown`) count as holding. */
  private closure(
    starts: Iterable<number>,
    before: number,
    after: number,
    unknown: boolean,
    out: Set<number>,
  ): boolean {
    const { ops, argA, argB } = this;
    const stack = [...starts];
    const seen = new Set<number>();
    while (stack.length > 0) {
      const pc = stack.pop() as number;
      if (seen.has(pc)) continue;
      seen.add(pc);
      switch (ops[pc]) {
        case OP_JMP:
          stack.push(argA[pc] as number);
          break;
        case OP_SPLIT:
          stack.push(argB[pc] as number, argA[pc] as number);
          break;
        case OP_ASSERT: {
          const kind = argA[pc] as number;
          let holds: boolean;
          if (kind === 0) holds = before === -1 || (this.multiline && (unknown || isLineTerminator(before)));
          else if (kind === 1)
            holds = after === -1 || (this.multiline && (unknown || isLineTerminator(after)));
          else if (unknown) holds = true;
          else holds = (this.isWord(before) !== this.isWord(after)) === (kind === 2);
          if (holds) stack.push(pc + 1);
          break;
        }
        case OP_MATCH:
          return true;
        default:
          out.add(pc);
      }
    }
    return false;
  }

  private consumes(pc: number, c: number): boolean {
    const op = this.ops[pc];
    if (op === OP_ANY) return true;
    if (c < 0) {
      // Any character of a path segment: not `/`, not NUL.
      if (op === OP_CHAR) return this.argA[pc] !== 0x2f && this.argA[pc] !== 0;
      return (this.sets[this.argA[pc] as number] as CharSet).hasSegmentCharacter();
    }
    const folded = this.table === undefined ? c : foldCodePoint(c, this.table);
    if (op === OP_CHAR) return this.argA[pc] === folded;
    return (this.sets[this.argA[pc] as number] as CharSet).has(folded);
  }

  /** See `LinearRegex.mayMatchTemplate` (`compile.ts`): a set simulation where `-1` stands for an unknown part. */
  runTemplate(template: readonly (string | null)[]): boolean {
    // The template as characters (code points with `u`); -1 is a whole unknown part (one or more characters).
    const chars: number[] = [];
    for (const part of template) {
      if (part === null) {
        chars.push(-1);
        continue;
      }
      for (let i = 0; i < part.length; i++) {
        let c = part.charCodeAt(i);
        // Past the end charCodeAt gives NaN, which is no low surrogate.
        if (this.unicode && c >= 0xd800 && c <= 0xdbff) {
          const low = part.charCodeAt(i + 1);
          if (low >= 0xdc00 && low <= 0xdfff) {
            c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
            i++;
          }
        }
        chars.push(c);
      }
    }
    // What the assertions read: -1 at an end, a letter for an unknown part; an astral character stays a code
    // point, which like the surrogate `RegExp` reads there is neither a word character nor a line terminator.
    const unit = (c: number | undefined): number => (c === undefined ? -1 : c < 0 ? 0x61 : c);
    let pending: number[] = [];
    for (let k = 0; ; k++) {
      const previous = chars[k - 1];
      const c = chars[k];
      // `undefined < 0` is false: no neighbour is no unknown part.
      const unknown = (previous as number) < 0 || (c as number) < 0;
      const closed = new Set<number>();
      // Search semantics: a match may start at any position.
      pending.push(0);
      if (this.closure(pending, unit(previous), unit(c), unknown, closed)) return true;
      if (c === undefined) return false;
      if (c >= 0) {
        pending = [];
        for (const pc of closed) if (this.consumes(pc, c)) pending.push(pc + 1);
        continue;
      }
      // An unknown part: every state reachable after one or more characters other than `/` and NUL.
      const reached = new Set<number>();
      let frontier: number[] = [];
      for (const pc of closed) if (this.consumes(pc, -1)) frontier.push(pc + 1);
      // The frontier holds only states not reached before (its successors are filtered below).
      while (frontier.length > 0) {
        for (const pc of frontier) reached.add(pc);
        const inside = new Set<number>();
        if (this.closure([...frontier, 0], 0x61, 0x61, true, inside)) return true;
        frontier = [];
        for (const pc of inside) if (this.consumes(pc, -1) && !reached.has(pc + 1)) frontier.push(pc + 1);
      }
      pending = [...reached];
    }
  }

  // -------------------------------------------------------------------------------------------------------
  // Lazy DFA: the sets of threads the VM would hold, made on demand and cached with their transitions, so a
  // pattern whose sets repeat costs one table lookup per character. Used when no assertion needs to look at
  // the characters around it (no `\b`, `\B`, no flag `m`): then `^` holds only at the start and `$` only at
  // the end, and a set of threads after a character depends on the set before it and that character alone.

  private dfaStates: DfaState[] = [];
  private dfaIndex = new Map<string, number>();
  private dfaSize = 0;
  private dfaRun = 0;
  /** The index of the start state in the cache, or -1 until it is made (again, after a reset). */
  private dfaStart = -1;
  /**
   * The keys of the states a run had counted when the memory cap dropped them in the middle of it: made again in
   * the same run, they count no second time (which would make the bound depend on when earlier runs filled
   * the cache).
   */
  private dfaCounted: { run: number; keys: Set<string> } | undefined;

  /** ε-closure of `kernel` with `^` holding when `atStart` and `$` when `atEnd`; counts its steps in `work`. */
  private dfaClosure(
    kernel: Int32Array,
    atStart: boolean,
    atEnd: boolean,
  ): { closed: Int32Array; matched: boolean; steps: number } {
    const { ops, argA, argB, mark, stack } = this;
    const gen = this.nextGeneration();
    const closed: number[] = [];
    let steps = 0;
    let matched = false;
    for (let k = kernel.length - 1; k >= 0; k--) {
      let top = 0;
      stack[top++] = kernel[k] as number;
      while (top > 0) {
        const pc = stack[--top] as number;
        steps++;
        if (mark[pc] === gen) continue;
        mark[pc] = gen;
        switch (ops[pc]) {
          case OP_JMP:
            stack[top++] = argA[pc] as number;
            break;
          case OP_SPLIT:
            stack[top++] = argB[pc] as number;
            stack[top++] = argA[pc] as number;
            break;
          case OP_ASSERT:
            if ((argA[pc] === 0 && atStart) || (argA[pc] === 1 && atEnd)) stack[top++] = pc + 1;
            break;
          case OP_MATCH:
            matched = true;
            break;
          default:
            closed.push(pc);
        }
      }
    }
    closed.sort((a, b) => a - b);
    return { closed: Int32Array.from(closed), matched, steps };
  }

  /** The state for `kernel` (threads before their closure), made and cached on first use. */
  private dfaState(kernel: Int32Array, atStart: boolean): number {
    const key = `${kernel.join(",")}${atStart}`;
    const known = this.dfaIndex.get(key);
    if (known !== undefined) return known;
    if (this.dfaStates.length >= MAX_DFA_STATES || this.dfaSize > MAX_DFA_SIZE) {
      // Memory cap: start the cache afresh; the sets are made again as they are met.
      const run = this.dfaRun;
      if (this.dfaCounted?.run !== run) this.dfaCounted = { run, keys: new Set() };
      for (const [counted, i] of this.dfaIndex)
        if ((this.dfaStates[i] as DfaState).visit === run) this.dfaCounted.keys.add(counted);
      this.dfaStates.length = 0;
      this.dfaIndex.clear();
      this.dfaSize = 0;
      this.dfaStart = -1;
    }
    const { closed, matched, steps } = this.dfaClosure(kernel, atStart, false);
    const state: DfaState = {
      kernel,
      atStart,
      closed,
      matched,
      matchedAtEnd: undefined,
      // Weighted so that a unit is about as long as a VM thread step: the key, the sort, the arrays and the
      // transitions out of the state cost too.
      cost: steps + 3 * (kernel.length + closed.length) + 2 * closed.length,
      // Counted already when this run met it before a reset.
      visit: this.dfaCounted?.run === this.dfaRun && this.dfaCounted.keys.has(key) ? this.dfaRun : 0,
      ascii: new Int32Array(128).fill(-1),
      other: undefined,
    };
    this.dfaSize += kernel.length + closed.length + 128;
    this.dfaIndex.set(key, this.dfaStates.length);
    this.dfaStates.push(state);
    return this.dfaStates.length - 1;
  }

  /**
   * The lazy DFA over `input`; undefined when the states it passes through cost more than `budget`. Each
   * distinct state counts its cost once per run, whether it was made now or found in the cache, so the
   * answer never depends on what earlier runs left behind.
   */
  runDfa(input: string, budget = Number.POSITIVE_INFINITY): boolean | undefined {
    const { unicode } = this;
    const anchored = this.shortcut.anchoredStart;
    const run = ++this.dfaRun;
    let spent = 0;
    if (this.dfaStart < 0) this.dfaStart = this.dfaState(Int32Array.of(0), true);
    let state = this.dfaStates[this.dfaStart] as DfaState;
    state.visit = run;
    spent += state.cost;
    const length = input.length;
    for (let pos = 0; pos < length; ) {
      if (state.matched) return true;
      if (anchored && state.closed.length === 0) return false;
      let c = input.charCodeAt(pos++);
      if (unicode && c >= 0xd800 && c <= 0xdbff && pos < length) {
        const low = input.charCodeAt(pos);
        if (low >= 0xdc00 && low <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
          pos++;
        }
      }
      let next = c < 128 ? (state.ascii[c] as number) : (state.other?.get(c) ?? -1);
      // A recorded transition leads to a state of the current cache: a reset drops every state that recorded
      // one before it (a transition recorded into `state` after a reset it caused is never read).
      if (next < 0) {
        const kernel: number[] = anchored ? [] : [0];
        for (const pc of state.closed) if (this.consumes(pc, c)) kernel.push(pc + 1);
        next = this.dfaState(Int32Array.from(kernel), false);
        if (c < 128) state.ascii[c] = next;
        else {
          state.other ??= new Map();
          state.other.set(c, next);
        }
      }
      state = this.dfaStates[next] as DfaState;
      if (state.visit !== run) {
        state.visit = run;
        spent += state.cost;
        if (spent > budget) return undefined;
      }
    }
    if (state.matchedAtEnd === undefined) {
      // `$` holds at the end: close the same threads again with it (MATCH is reached if it was without `$`).
      state.matchedAtEnd = this.dfaClosure(state.kernel, state.atStart, true).matched;
    }
    return state.matchedAtEnd;
  }

  /**
   * The Pike VM over `input`; undefined when it would need more than `budget` thread steps (each thread on
   * each character is one).
   */
  run(input: string, budget = Number.POSITIVE_INFINITY): boolean | undefined {
    const { ops, argA, sets, asciiSets, table, unicode, shortcut } = this;
    const { prefix, anchoredStart } = shortcut;
    const length = input.length;
    let work = 0;
    let current = this.listA;
    let next = this.listB;
    let currentLength = 0;
    let currentGen = 0;
    let pos = 0;
    for (;;) {
      if (currentLength === 0) {
        // No thread left: an anchored pattern has failed; otherwise skip to where the literal prefix occurs.
        if (anchoredStart) {
          if (pos > 0) return false;
        } else if (prefix !== "") {
          const found = input.indexOf(prefix, pos);
          if (found < 0) return false;
          pos = found;
        }
        currentGen = this.nextGeneration();
      }
      if (!anchoredStart || pos === 0) {
        const added = this.addThread(current, currentLength, currentGen, 0, input, pos);
        if (added < 0) return true;
        currentLength = added;
      }
      if (pos >= length) return false;
      let c = input.charCodeAt(pos);
      let width = 1;
      if (unicode && c >= 0xd800 && c <= 0xdbff && pos + 1 < length) {
        const low = input.charCodeAt(pos + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
          width = 2;
        }
      }
      const folded = table === undefined ? c : foldCodePoint(c, table);
      // A thread on a character costs its step and the closure of its successor.
      work += 3 * currentLength + 1;
      if (work > budget) return undefined;
      const nextGen = this.nextGeneration();
      let nextLength = 0;
      const after = pos + width;
      for (let i = 0; i < currentLength; i++) {
        const pc = current[i] as number;
        const op = ops[pc];
        const hit =
          op === OP_CHAR
            ? folded === argA[pc]
            : op === OP_SET
              ? folded < 128
                ? asciiSets[((argA[pc] as number) << 7) + folded] === 1
                : (sets[argA[pc] as number] as CharSet).has(folded)
              : true; // OP_ANY: a list holds only CHAR, SET and ANY threads (see addThread)
        if (hit) {
          nextLength = this.addThread(next, nextLength, nextGen, pc + 1, input, after);
          if (nextLength < 0) return true;
        }
      }
      const swap = current;
      current = next;
      next = swap;
      currentLength = nextLength;
      currentGen = nextGen;
      pos = after;
    }
  }
}

/**
 * An upper bound of the work `LinearRegex.testBounded` spends on an input of `length` characters for a
 * program of `size` instructions: each of the at most `length + 1` distinct DFA states it passes costs at most
 * its kernel (size + 1), its closure's steps (2 × size more) and the weighting of both lists (see `dfaState`).
 * When this is within {@link REGEX_WORK_BOUND}, `testBounded` certainly answers true or false.
 */
export function regexWorkUpperBound(size: number, length: number): number {
  return (length + 1) * (11 * size + 4);
}
