/**
 * Many patterns of the linear-time engine run as one automaton: a single pass over the input says which of
 * them match (the idea of RE2's `RE2::Set`).
 *
 * The patterns' Thompson programs are laid side by side in one program; a state of the lazy DFA is the set of
 * threads of every pattern at once, plus the patterns that have already matched (search semantics: once a
 * pattern matched somewhere it matches, so its threads are dropped). States are made on first need and cached
 * with their transitions, so a character costs one table lookup once the states an input passes are known.
 *
 * Answers are exactly those of each pattern's own `test` (or `testBounded`):
 * - a pattern the DFA cannot run (`\b`, `\B`, flag `m`) or that string methods answer is tested on its own;
 * - patterns that read code points (flag `u`) and patterns that read UTF-16 code units run in two automata;
 * - bounded answers (`testBounded`, which gives up past {@link REGEX_WORK_BOUND}): a pattern whose bound might be
 *   reached on an input of this length is tested on its own, so that a maybe stays a maybe;
 * - memory is capped: when a run would pass {@link MAX_SET_STATES} states or {@link MAX_SET_SIZE} stored
 *   numbers, the cache is dropped and that input is answered pattern by pattern.
 */

import { foldCodePoint } from "../case-fold.js";
import type { CharSet } from "./char-set.js";
import { type LinearRegex, regexProgram } from "./compile.js";
import { REGEX_OPS, type RegexProgram } from "./program.js";
import { REGEX_WORK_BOUND, regexWorkUpperBound } from "./vm.js";

/** Answer for one pattern: 0 no match, 1 match, 2 undecided (`testBounded` would have given up). */
export type SetAnswer = 0 | 1 | 2;

/** The lazy DFA's cache is dropped beyond this many states or this many stored numbers. */
export const MAX_SET_STATES = 4096;
export const MAX_SET_SIZE = 4_000_000;

const {
  char: OP_CHAR,
  set: OP_SET,
  any: OP_ANY,
  split: OP_SPLIT,
  jmp: OP_JMP,
  assert: OP_ASSERT,
} = REGEX_OPS;
const OP_MATCH = REGEX_OPS.match;

interface SetState {
  readonly kernel: Int32Array;
  readonly atStart: boolean;
  /** Threads that wait for a character; none of a pattern that has matched. */
  readonly closed: Int32Array;
  /** Members that have matched before the end of the input (cumulative), ascending. */
  readonly matched: Int32Array;
  /** Start instructions of the floating members that have not matched: they start again at the next position. */
  readonly restart: Int32Array;
  /** Members that match when the input ends here (`$` holds), made on first need. */
  matchedAtEnd: Int32Array | undefined;
  /** Nothing can change any more: no thread waits and no pattern can start again. */
  readonly dead: boolean;
  readonly ascii: Int32Array;
  other: Map<number, number> | undefined;
}

/** One automaton over the members that read input alike (code points or code units). */
class SetAutomaton {
  private readonly ops: Int32Array;
  private readonly argA: Int32Array;
  private readonly argB: Int32Array;
  /** Member of each instruction. */
  private readonly memberOf: Int32Array;
  /** Whether each instruction's pattern folds characters (flag `i`). */
  private readonly folds: Uint8Array;
  private readonly sets: readonly CharSet[];
  /** Start instruction of each member. */
  private readonly starts: Int32Array;
  /** Start instructions of the members that may start at any position, ascending. */
  private readonly floating: Int32Array;
  private readonly floatingMember: Int32Array;
  /** Program size of each member. */
  readonly sizes: Int32Array;
  /**
   * Generation of the last closure that visited each instruction. Float64 so that the generation never wraps:
   * 2^53 closures are out of reach.
   */
  private readonly mark: Float64Array;
  private readonly stack: Int32Array;
  private generation = 0;
  private states: SetState[] = [];
  /** States by kernel and members matched so far; the start state is not in it (it is only ever the first). */
  private index = new Map<string, number>();
  private size = 0;
  private initial: number;

  constructor(
    programs: readonly RegexProgram[],
    private readonly unicode: boolean,
  ) {
    let total = 0;
    for (const p of programs) total += p.ops.length;
    this.ops = new Int32Array(total);
    this.argA = new Int32Array(total);
    this.argB = new Int32Array(total);
    this.memberOf = new Int32Array(total);
    this.folds = new Uint8Array(total);
    this.starts = new Int32Array(programs.length);
    this.sizes = new Int32Array(programs.length);
    const floating: number[] = [];
    const floatingMember: number[] = [];
    this.sets = programs.flatMap((p) => p.sets);
    let offset = 0;
    let setOffset = 0;
    programs.forEach((p, m) => {
      const n = p.ops.length;
      p.ops.forEach((op, pc) => {
        const g = offset + pc;
        this.ops[g] = op;
        this.memberOf[g] = m;
        this.folds[g] = p.table === undefined ? 0 : 1;
        let a = p.argA[pc] as number;
        let b = p.argB[pc] as number;
        if (op === OP_SPLIT) {
          a += offset;
          b += offset;
        } else if (op === OP_JMP) a += offset;
        else if (op === OP_SET) a += setOffset;
        this.argA[g] = a;
        this.argB[g] = b;
      });
      this.starts[m] = offset;
      this.sizes[m] = n;
      if (!p.anchoredStart) {
        floating.push(offset);
        floatingMember.push(m);
      }
      offset += n;
      setOffset += p.sets.length;
    });
    this.floating = Int32Array.from(floating);
    this.floatingMember = Int32Array.from(floatingMember);
    this.mark = new Float64Array(total);
    this.stack = new Int32Array(2 * total + 2);
    this.initial = this.startState();
  }

  /** The state at the start of an input. The cache is empty (new, or just dropped), so it is never past the cap. */
  private startState(): number {
    return this.state(Int32Array.from(this.starts), true, new Int32Array(0));
  }

  /** ε-closure of `kernel`: the waiting threads and the members that reach MATCH. */
  private closure(
    kernel: Int32Array,
    atStart: boolean,
    atEnd: boolean,
  ): { closed: number[]; matched: number[] } {
    const { ops, argA, argB, mark, stack, memberOf } = this;
    const gen = ++this.generation;
    const closed: number[] = [];
    const matched: number[] = [];
    // Only which threads and members are reached matters here, not in which order.
    for (const start of kernel) {
      let top = 0;
      stack[top++] = start;
      while (top > 0) {
        const pc = stack[--top] as number;
        if (mark[pc] === gen) continue;
        mark[pc] = gen;
        switch (ops[pc]) {
          case OP_SPLIT:
            stack[top++] = argB[pc] as number;
            stack[top++] = argA[pc] as number;
            break;
          case OP_JMP:
            stack[top++] = argA[pc] as number;
            break;
          case OP_ASSERT:
            if ((argA[pc] === 0 && atStart) || (argA[pc] === 1 && atEnd)) stack[top++] = pc + 1;
            break;
          case OP_MATCH:
            // A member's program has one MATCH instruction, and `mark` visits it once.
            matched.push(memberOf[pc] as number);
            break;
          default:
            closed.push(pc);
        }
      }
    }
    return { closed, matched };
  }

  /** A new state for `kernel` after `matchedBefore`; -1 past the memory cap. */
  private state(kernel: Int32Array, atStart: boolean, matchedBefore: Int32Array): number {
    if (this.states.length >= MAX_SET_STATES || this.size > MAX_SET_SIZE) return -1;
    const { closed, matched } = this.closure(kernel, atStart, false);
    const all = new Set<number>(matchedBefore);
    for (const m of matched) all.add(m);
    // Threads and restarts of the members that have matched are dropped: they cannot change an answer.
    const waiting = closed.filter((pc) => !all.has(this.memberOf[pc] as number));
    const restart = this.floating.filter((_, i) => !all.has(this.floatingMember[i] as number));
    const state: SetState = {
      kernel,
      atStart,
      closed: Int32Array.from(waiting),
      // Ascending (a typed array sorts by value), so that the same members give the same key.
      matched: Int32Array.from(all).sort(),
      restart,
      matchedAtEnd: undefined,
      dead: waiting.length === 0 && restart.length === 0,
      ascii: new Int32Array(128).fill(-1),
      other: undefined,
    };
    this.size += kernel.length + waiting.length + all.size + 128;
    this.states.push(state);
    return this.states.length - 1;
  }

  private consumes(pc: number, c: number): boolean {
    const op = this.ops[pc];
    if (op === OP_ANY) return true;
    const folded = this.folds[pc] === 1 ? foldCodePoint(c) : c;
    if (op === OP_CHAR) return this.argA[pc] === folded;
    return (this.sets[this.argA[pc] as number] as CharSet).has(folded);
  }

  /** Drops the cache (memory cap). */
  private reset(): void {
    this.states = [];
    this.index.clear();
    this.size = 0;
    this.initial = this.startState();
  }

  /**
   * The members that match somewhere in `input`, in no particular order; undefined when the memory cap was
   * reached (the cache is dropped and the caller answers pattern by pattern).
   */
  run(input: string): Int32Array | undefined {
    const { unicode } = this;
    let state = this.states[this.initial] as SetState;
    const length = input.length;
    for (let pos = 0; pos < length; ) {
      if (state.dead) return state.matched;
      let c = input.charCodeAt(pos++);
      if (unicode && c >= 0xd800 && c <= 0xdbff) {
        // Past the end `charCodeAt` gives NaN, which is no low surrogate.
        const low = input.charCodeAt(pos);
        if (low >= 0xdc00 && low <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
          pos++;
        }
      }
      let next = c < 128 ? (state.ascii[c] as number) : (state.other?.get(c) ?? -1);
      if (next < 0) {
        const threads: number[] = [...state.restart];
        for (const pc of state.closed) if (this.consumes(pc, c)) threads.push(pc + 1);
        const kernel = Int32Array.from(threads).sort();
        const key = `${kernel.join(",")}|${state.matched.join(",")}`;
        const known = this.index.get(key);
        if (known !== undefined) next = known;
        else {
          next = this.state(kernel, false, state.matched);
          if (next < 0) {
            this.reset();
            return undefined;
          }
          this.index.set(key, next);
        }
        if (c < 128) state.ascii[c] = next;
        else {
          state.other ??= new Map();
          state.other.set(c, next);
        }
      }
      state = this.states[next] as SetState;
    }
    // Even a dead state may match here: `$` holds at the end of the input.
    if (state.matchedAtEnd === undefined) {
      // `$` holds at the end: close the same threads again with it.
      const { matched } = this.closure(state.kernel, state.atStart, true);
      const merged = new Set<number>(state.matched);
      for (const m of matched) merged.add(m);
      state.matchedAtEnd = Int32Array.from(merged);
    }
    return state.matchedAtEnd;
  }
}

interface SetGroup {
  /** Whether the members read code points (flag `u`). */
  readonly unicode: boolean;
  readonly automaton: SetAutomaton;
  /** The pattern index of each member of the automaton. */
  readonly members: Int32Array;
  /** The largest member program, in instructions. */
  readonly largest: number;
}

/**
 * A fixed list of patterns answered together: `match(input)` says for every pattern what its own `test` (or,
 * when `bounded`, `testBounded`) answers, in one pass over the input for all the patterns an automaton can run.
 */
export class RegexSet {
  /** For each group (UTF-16, code points): the automaton and the pattern index of each member. */
  private groups: SetGroup[] | undefined;
  /**
   * Bounded sets: per reading (UTF-16, code points), one automaton over every member of every size, run
   * instead of the size groups when the input is short enough that no member can reach the work bound (one
   * pass rather than one per size group).
   */
  private whole: SetGroup[] = [];
  /** Patterns tested on their own. */
  private solo: Int32Array | undefined;
  private lastInput: string | undefined;
  private lastAnswers: Uint8Array;
  private lastHits: number[] = [];

  /**
   * @param patterns - the compiled patterns, answered by index.
   * @param bounded - answer as `testBounded` does (2 for an undecided pattern) instead of `test`.
   */
  constructor(
    readonly patterns: readonly LinearRegex[],
    private readonly bounded: boolean,
  ) {
    this.lastAnswers = new Uint8Array(patterns.length);
  }

  /** Built on first use, so that a policy that never sees a call of the tool pays nothing. */
  private build(): void {
    // Bounded sets group their members by size too (powers of two), so that on a long input only the groups
    // whose largest member might reach the work bound are tested pattern by pattern.
    const groups = new Map<string, { program: RegexProgram; index: number }[]>();
    const solo: number[] = [];
    this.patterns.forEach((pattern, index) => {
      const program = regexProgram(pattern);
      if (program === undefined) {
        solo.push(index);
        return;
      }
      const tier = this.bounded ? Math.floor(Math.log2(program.ops.length)) : 0;
      const key = `${program.unicode ? "u" : ""}${tier}`;
      const group = groups.get(key);
      if (group === undefined) groups.set(key, [{ program, index }]);
      else group.push({ program, index });
    });
    const groupOf = (group: { program: RegexProgram; index: number }[]): SetGroup => {
      const unicode = (group[0] as { program: RegexProgram }).program.unicode;
      const automaton = new SetAutomaton(
        group.map((g) => g.program),
        unicode,
      );
      return {
        unicode,
        automaton,
        members: Int32Array.from(group.map((g) => g.index)),
        largest: Math.max(...automaton.sizes),
      };
    };
    this.groups = [...groups.values()].map(groupOf);
    // Only bounded sets have more than one group per reading (a set that is not bounded puts every member in
    // tier 0).
    for (const unicode of [false, true]) {
      const kind = [...groups.entries()].filter(([key]) => key.startsWith("u") === unicode);
      if (kind.length > 1) this.whole.push(groupOf(kind.flatMap(([, group]) => group)));
    }
    this.solo = Int32Array.from(solo);
  }

  private testOne(index: number, input: string): SetAnswer {
    const pattern = this.patterns[index] as LinearRegex;
    if (!this.bounded) return pattern.test(input) ? 1 : 0;
    const answer = pattern.testBounded(input);
    return answer === undefined ? 2 : answer ? 1 : 0;
  }

  /** Pattern `index`'s answer on `input` when `input` is the last input matched (else undefined). */
  lastAnswer(input: string, index: number): SetAnswer | undefined {
    return input === this.lastInput ? (this.lastAnswers[index] as SetAnswer) : undefined;
  }

  /**
   * Every pattern's answer on `input`: `answers[i]` for pattern i, and `hits`, the indices whose answer is not 0,
   * ascending. Both are reused by the next call with another input: read them before that.
   */
  match(input: string): { readonly answers: Uint8Array; readonly hits: readonly number[] } {
    if (input === this.lastInput) return { answers: this.lastAnswers, hits: this.lastHits };
    if (this.groups === undefined) this.build();
    const answers = this.lastAnswers;
    for (const index of this.lastHits) answers[index] = 0;
    // A fresh list costs less than truncating the old one.
    const hits: number[] = [];
    this.lastHits = hits;
    this.lastInput = undefined;
    for (const index of this.solo as Int32Array) {
      const answer = this.testOne(index, input);
      answers[index] = answer;
      if (answer !== 0) hits.push(index);
    }
    // Short inputs: one pass per reading for every member (the answers the size groups would give).
    let wholeRan = 0;
    for (const group of this.whole) {
      if (regexWorkUpperBound(group.largest, input.length) > REGEX_WORK_BOUND) continue;
      const matched = group.automaton.run(input);
      if (matched === undefined) continue;
      wholeRan |= group.unicode ? 2 : 1;
      for (const m of matched) {
        const index = group.members[m] as number;
        answers[index] = 1;
        hits.push(index);
      }
    }
    for (const group of this.groups as SetGroup[]) {
      if ((wholeRan & (group.unicode ? 2 : 1)) !== 0) continue;
      const { automaton, members } = group;
      // Where testBounded might give up on an input this long, each pattern answers for itself.
      const matched =
        this.bounded && regexWorkUpperBound(group.largest, input.length) > REGEX_WORK_BOUND
          ? undefined
          : automaton.run(input);
      if (matched === undefined) {
        for (const index of members) {
          const answer = this.testOne(index, input);
          answers[index] = answer;
          if (answer !== 0) hits.push(index);
        }
        continue;
      }
      for (const m of matched) {
        const index = members[m] as number;
        answers[index] = 1;
        hits.push(index);
      }
    }
    hits.sort((a, b) => a - b);
    this.lastInput = input;
    return { answers, hits };
  }
}
