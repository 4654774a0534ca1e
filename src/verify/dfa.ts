/**
 * Deterministic finite automata over the symbols of an {@link Alphabet}: complete (every state has a transition on
 * every symbol), built only from reachable states, combined by products, minimised, and searched for their
 * shortest, most readable accepted strings — also under a set of allowed lengths, which is how `minLength` and
 * `maxLength` are applied without multiplying an automaton by a length counter.
 */
import { ToolgateError } from "../runtime/errors.js";
import type { Alphabet } from "./alphabet.js";

/** A complete DFA: `trans[state * k + symbol]` is the next state. */
export interface Dfa {
  readonly k: number;
  readonly n: number;
  readonly trans: Int32Array;
  readonly accept: Uint8Array;
  readonly start: number;
}

/** Past this many states an automaton is too large to decide with here: the question becomes `unknown`. */
export const MAX_DFA_STATES = 20_000;

/**
 * Thrown when an automaton grows past {@link MAX_DFA_STATES}, or a search past its bound. The verifier catches it
 * and answers `unknown`; one that escaped it would be a defect, hence the code `internal`.
 */
export class TooComplex extends ToolgateError {
  constructor(what: string) {
    super("internal", what);
    this.name = "TooComplex";
  }
}

/** Builds a DFA state by state (typed arrays grown by doubling: a product makes thousands of states). */
export class DfaBuilder {
  #trans: Int32Array;
  #accept: Uint8Array;
  #n = 0;
  constructor(readonly k: number) {
    this.#trans = new Int32Array(Math.max(k, 1) * 16).fill(-1);
    this.#accept = new Uint8Array(16);
  }

  get size(): number {
    return this.#n;
  }

  add(accepting: boolean): number {
    if (this.#n >= MAX_DFA_STATES)
      throw new TooComplex(`an automaton has more than ${MAX_DFA_STATES} states`);
    const id = this.#n;
    if (id === this.#accept.length) {
      const accept = new Uint8Array(id * 2);
      accept.set(this.#accept);
      this.#accept = accept;
      const trans = new Int32Array(id * 2 * Math.max(this.k, 1)).fill(-1);
      trans.set(this.#trans);
      this.#trans = trans;
    }
    this.#accept[id] = accepting ? 1 : 0;
    this.#n = id + 1;
    return id;
  }

  set(state: number, symbol: number, target: number): void {
    this.#trans[state * this.k + symbol] = target;
  }

  /** Sets the target of every symbol of `state`: `targets[classOf[symbol]]` (symbols a class goes alike). */
  setRow(state: number, classOf: Int32Array, targets: Int32Array): void {
    const trans = this.#trans;
    const k = this.k;
    const base = state * k;
    for (let c = 0; c < k; c++) trans[base + c] = targets[classOf[c] as number] as number;
  }

  build(start = 0): Dfa {
    // A missing transition goes to a dead state, added when needed.
    let dead = -1;
    const used = this.#n * this.k;
    for (let i = 0; i < used; i++) {
      if (this.#trans[i] === -1) {
        if (dead === -1) {
          dead = this.add(false);
          this.#trans.fill(dead, dead * this.k, (dead + 1) * this.k);
        }
        this.#trans[i] = dead;
      }
    }
    return {
      k: this.k,
      n: this.#n,
      trans: this.#trans.slice(0, this.#n * this.k),
      accept: this.#accept.slice(0, this.#n),
      start,
    };
  }
}

/** The language of every string (`all`) or of none. */
export function constant(k: number, all: boolean): Dfa {
  const b = new DfaBuilder(k);
  const s = b.add(all);
  for (let c = 0; c < k; c++) b.set(s, c, s);
  return b.build(0);
}

/** Exactly these strings. */
export function literals(alphabet: Alphabet, texts: Iterable<string>): Dfa {
  const b = new DfaBuilder(alphabet.size);
  const root = b.add(false);
  const children = new Map<string, number>();
  const accepting = new Set<number>();
  for (const text of texts) {
    let state = root;
    for (const symbol of alphabet.symbols(text)) {
      const key = `${state}:${symbol}`;
      let next = children.get(key);
      if (next === undefined) {
        next = b.add(false);
        children.set(key, next);
        b.set(state, symbol, next);
      }
      state = next;
    }
    accepting.add(state);
  }
  // Rebuild with the accepting flags (states were added before their flags were known).
  const built = b.build(root);
  const accept = Uint8Array.from(built.accept);
  for (const s of accepting) accept[s] = 1;
  return { ...built, accept };
}

/** The strings that start with `prefix`. */
export function startsWith(alphabet: Alphabet, prefix: string): Dfa {
  const k = alphabet.size;
  const b = new DfaBuilder(k);
  const symbols = alphabet.symbols(prefix);
  const states = symbols.map(() => b.add(false));
  const done = b.add(true);
  for (let c = 0; c < k; c++) b.set(done, c, done);
  symbols.forEach((symbol, i) => {
    b.set(states[i] as number, symbol, i + 1 < states.length ? (states[i + 1] as number) : done);
  });
  // The first state added starts: the prefix's first, or `done` for an empty prefix.
  return b.build(0);
}

/**
 * Symbols an automaton cannot tell apart: `classOf[c]` is the class of symbol `c`, and symbols of one class have
 * the same transition from every state; `reps` holds one symbol per class. A field's alphabet is cut by every
 * character set of every operator on it, but each automaton reads only a few of them, so products and
 * minimisation work per class, not per symbol. Any partition with that property serves (not only the coarsest):
 * a product passes on the classes of both its operands.
 */
interface SymbolClasses {
  readonly classOf: Int32Array;
  readonly reps: Int32Array;
}

const CLASSES = new WeakMap<Dfa, SymbolClasses>();

function classesOf(a: Dfa): SymbolClasses {
  const known = CLASSES.get(a);
  if (known !== undefined) return known;
  const { k, n } = a;
  // Refine one class of every symbol by each state's targets in turn.
  let classOf = new Int32Array(k);
  let count = 1;
  const slot = new Int32Array(n).fill(-1);
  for (let s = 0; s < n && count < k; s++) {
    const next = new Int32Array(k);
    let nextCount = 0;
    // (old class, target) → new class, through `slot` per old class: symbols are visited class by class.
    const byClass: number[][] = Array.from({ length: count }, () => []);
    for (let c = 0; c < k; c++) (byClass[classOf[c] as number] as number[]).push(c);
    for (const members of byClass) {
      const used: number[] = [];
      for (const c of members) {
        const target = a.trans[s * k + c] as number;
        let id = slot[target] as number;
        if (id === -1) {
          id = nextCount++;
          slot[target] = id;
          used.push(target);
        }
        next[c] = id;
      }
      for (const target of used) slot[target] = -1;
    }
    classOf = next;
    count = nextCount;
  }
  const classes = withReps(classOf, count);
  CLASSES.set(a, classes);
  return classes;
}

function withReps(classOf: Int32Array, count: number): SymbolClasses {
  const reps = new Int32Array(count).fill(-1);
  for (let c = 0; c < classOf.length; c++)
    if (reps[classOf[c] as number] === -1) reps[classOf[c] as number] = c;
  return { classOf, reps };
}

/** The classes of symbols two automata both cannot tell apart: pairs of their classes. */
function jointClasses(a: SymbolClasses, b: SymbolClasses): SymbolClasses {
  const k = a.classOf.length;
  const ids = new Map<number, number>();
  const classOf = new Int32Array(k);
  const width = b.reps.length;
  for (let c = 0; c < k; c++) {
    const key = (a.classOf[c] as number) * width + (b.classOf[c] as number);
    let id = ids.get(key);
    if (id === undefined) {
      id = ids.size;
      ids.set(key, id);
    }
    classOf[c] = id;
  }
  return withReps(classOf, ids.size);
}

/**
 * The product of two DFAs over the same alphabet, accepting where `op` says so; minimised unless `minimal` is
 * false (for an automaton used once, such as a search for candidates).
 */
export function product(
  a: Dfa,
  b: Dfa,
  op: (x: boolean, y: boolean) => boolean,
  minimal = true,
  conjunction = false,
): Dfa {
  const k = a.k;
  // In a conjunction, a pair with a state that accepts nothing after it accepts nothing either: all such pairs are
  // one dead state, so a chain of intersections does not grow by pairs that lead nowhere.
  const usefulA = conjunction ? layersOf(a).useful : undefined;
  const usefulB = conjunction ? layersOf(b).useful : undefined;
  let dead = -1;
  const classes = jointClasses(classesOf(a), classesOf(b));
  const { classOf, reps } = classes;
  const width = reps.length;
  // Pairs of states are numbered densely when there are few of them, through a map otherwise.
  const dense = a.n * b.n <= 1 << 22 ? new Int32Array(a.n * b.n).fill(-1) : undefined;
  const ids = dense === undefined ? new Map<number, number>() : undefined;
  const pairs: number[] = [];
  const builder = new DfaBuilder(k);
  const accepting = [op(false, false), op(false, true), op(true, false), op(true, true)];
  const idOf = (x: number, y: number): number => {
    if (usefulA !== undefined && (usefulA[x] === 0 || (usefulB as Uint8Array)[y] === 0)) {
      if (dead === -1) {
        dead = builder.add(false);
        pairs.push(-1, -1);
      }
      return dead;
    }
    const key = x * b.n + y;
    let id = dense !== undefined ? (dense[key] as number) : (ids?.get(key) ?? -1);
    if (id === -1) {
      id = builder.add(accepting[(a.accept[x] as number) * 2 + (b.accept[y] as number)] as boolean);
      if (dense !== undefined) dense[key] = id;
      else ids?.set(key, id);
      pairs.push(x, y);
    }
    return id;
  };
  idOf(a.start, b.start);
  const targets = new Int32Array(width);
  for (let id = 0; id < builder.size; id++) {
    const x = pairs[2 * id] as number;
    const y = pairs[2 * id + 1] as number;
    if (x === -1) {
      for (let c = 0; c < k; c++) builder.set(id, c, id);
      continue;
    }
    for (let r = 0; r < width; r++) {
      const c = reps[r] as number;
      targets[r] = idOf(a.trans[x * k + c] as number, b.trans[y * k + c] as number);
    }
    builder.setRow(id, classOf, targets);
  }
  const built = builder.build(0);
  CLASSES.set(built, classes);
  return minimal ? minimize(built) : built;
}

export const intersect = (a: Dfa, b: Dfa, minimal = true): Dfa =>
  product(a, b, (x, y) => x && y, minimal, true);
export const union = (a: Dfa, b: Dfa): Dfa => product(a, b, (x, y) => x || y);
export const subtract = (a: Dfa, b: Dfa): Dfa => product(a, b, (x, y) => x && !y);

/** The strings `a` rejects. */
export function complement(a: Dfa): Dfa {
  return sameClasses(a, { ...a, accept: a.accept.map((x) => 1 - x) });
}

/** `to` has `from`'s transitions: its classes of symbols, when known, are `from`'s. */
function sameClasses(from: Dfa, to: Dfa): Dfa {
  const known = CLASSES.get(from);
  if (known !== undefined) CLASSES.set(to, known);
  return to;
}

/** Every string `a` accepts after reading `symbol` first: the DFA started one step later. */
export function afterSymbol(a: Dfa, symbol: number): Dfa {
  return sameClasses(a, { ...a, start: a.trans[a.start * a.k + symbol] as number });
}

/** Whether `a` accepts the symbols. */
export function accepts(a: Dfa, symbols: readonly number[]): boolean {
  let s = a.start;
  for (const c of symbols) s = a.trans[s * a.k + c] as number;
  return a.accept[s] === 1;
}

/**
 * The same language with the fewest states, unreachable states dropped: Hopcroft's partition refinement over the
 * inverse transitions, each block split by the predecessors of a splitter block on each symbol.
 */
export function minimize(a: Dfa): Dfa {
  const { k } = a;
  // Symbols of one class have the same transitions: refining by one of them refines by all.
  const classes = classesOf(a);
  const { reps } = classes;
  const width = reps.length;
  // Reachable states, renumbered 0..m-1 in breadth-first order.
  const index = new Int32Array(a.n).fill(-1);
  const list: number[] = [a.start];
  index[a.start] = 0;
  for (let i = 0; i < list.length; i++) {
    const s = list[i] as number;
    for (let r = 0; r < width; r++) {
      const t = a.trans[s * k + (reps[r] as number)] as number;
      if (index[t] === -1) {
        index[t] = list.length;
        list.push(t);
      }
    }
  }
  const m = list.length;
  // Transitions on each class's symbol, renumbered: trans[i * width + r].
  const trans = new Int32Array(m * width);
  for (let i = 0; i < m; i++) {
    const s = list[i] as number;
    for (let r = 0; r < width; r++)
      trans[i * width + r] = index[a.trans[s * k + (reps[r] as number)] as number] as number;
  }
  // Inverse transitions per class, as CSR: preds of t on r are invList[invStart[r*(m+1)+t] .. next).
  const invStart = new Int32Array(width * (m + 1) + 1);
  for (let s = 0; s < m; s++) {
    for (let r = 0; r < width; r++) {
      const slot = r * (m + 1) + (trans[s * width + r] as number) + 1;
      invStart[slot] = (invStart[slot] as number) + 1;
    }
  }
  for (let i = 1; i < invStart.length; i++)
    invStart[i] = (invStart[i] as number) + (invStart[i - 1] as number);
  const fill = Int32Array.from(invStart);
  const invList = new Int32Array(m * width);
  for (let s = 0; s < m; s++) {
    for (let r = 0; r < width; r++) {
      const slot = r * (m + 1) + (trans[s * width + r] as number);
      invList[fill[slot] as number] = s;
      fill[slot] = (fill[slot] as number) + 1;
    }
  }
  // The partition: block b holds elems[first[b] .. end[b]); loc[s] is s's position in elems.
  const elems = new Int32Array(m);
  const loc = new Int32Array(m);
  const blockOf = new Int32Array(m);
  const first: number[] = [];
  const end: number[] = [];
  const marked: number[] = [];
  let p = 0;
  for (const accepting of [1, 0]) {
    const from = p;
    for (let i = 0; i < m; i++) {
      if ((a.accept[list[i] as number] as number) === accepting) {
        elems[p] = i;
        loc[i] = p;
        blockOf[i] = first.length;
        p++;
      }
    }
    if (p > from) {
      first.push(from);
      end.push(p);
      marked.push(0);
    }
  }
  const inWork: boolean[] = first.map(() => true);
  const work: number[] = first.map((_, b) => b);
  const touched: number[] = [];
  while (work.length > 0) {
    const splitter = work.pop() as number;
    inWork[splitter] = false;
    const members = Array.from(elems.subarray(first[splitter] as number, end[splitter] as number));
    for (let r = 0; r < width; r++) {
      const base = r * (m + 1);
      for (const t of members) {
        for (let q = invStart[base + t] as number; q < (invStart[base + t + 1] as number); q++) {
          const s = invList[q] as number;
          const b = blockOf[s] as number;
          const pos = loc[s] as number;
          const target = (first[b] as number) + (marked[b] as number);
          // Move s to the marked front of its block (s has one transition on the class, so it comes up once per class).
          const other = elems[target] as number;
          elems[target] = s;
          loc[s] = target;
          elems[pos] = other;
          loc[other] = pos;
          if (marked[b] === 0) touched.push(b);
          marked[b] = (marked[b] as number) + 1;
        }
      }
      for (const b of touched) {
        const size = (end[b] as number) - (first[b] as number);
        const count = marked[b] as number;
        marked[b] = 0;
        if (count === size) continue;
        // Split: the marked front becomes a new block.
        const nb = first.length;
        first.push(first[b] as number);
        end.push((first[b] as number) + count);
        marked.push(0);
        first[b] = (first[b] as number) + count;
        for (let q = first[nb] as number; q < (end[nb] as number); q++) blockOf[elems[q] as number] = nb;
        if (inWork[b] === true) {
          inWork[nb] = true;
          work.push(nb);
        } else {
          const smaller = count <= size - count ? nb : b;
          inWork[smaller] = true;
          work.push(smaller);
        }
      }
      touched.length = 0;
    }
  }
  const count = first.length;
  const outTrans = new Int32Array(count * k);
  const accept = new Uint8Array(count);
  for (let b = 0; b < count; b++) {
    const s = elems[first[b] as number] as number;
    accept[b] = a.accept[list[s] as number] as number;
    for (let c = 0; c < k; c++)
      outTrans[b * k + c] = blockOf[trans[s * width + (classes.classOf[c] as number)] as number] as number;
  }
  const out = { k, n: count, trans: outTrans, accept, start: blockOf[0] as number };
  CLASSES.set(out, classes);
  return out;
}

/** True when `a` accepts nothing. */
export function isEmpty(a: Dfa): boolean {
  const seen = new Uint8Array(a.n);
  const stack = [a.start];
  seen[a.start] = 1;
  while (stack.length > 0) {
    const s = stack.pop() as number;
    if (a.accept[s] === 1) return false;
    for (let c = 0; c < a.k; c++) {
      const t = a.trans[s * a.k + c] as number;
      if (seen[t] === 0) {
        seen[t] = 1;
        stack.push(t);
      }
    }
  }
  return true;
}

/**
 * Whether `a` and `b` (over one alphabet) accept a common string: their product searched until a pair accepts,
 * one symbol of each class of symbols both read alike (no product is built, nothing is minimised).
 */
export function meets(a: Dfa, b: Dfa): boolean {
  const k = a.k;
  const { reps } = jointClasses(classesOf(a), classesOf(b));
  // Pairs seen: a dense table when there are few pairs, a set otherwise.
  const dense = a.n * b.n <= 1 << 22 ? new Uint8Array(a.n * b.n) : undefined;
  const sparse = dense === undefined ? new Set<number>() : undefined;
  const visit = (pair: number): boolean => {
    if (dense !== undefined) {
      if (dense[pair] === 1) return false;
      dense[pair] = 1;
      return true;
    }
    if ((sparse as Set<number>).has(pair)) return false;
    (sparse as Set<number>).add(pair);
    return true;
  };
  const stack = [a.start * b.n + b.start];
  visit(stack[0] as number);
  while (stack.length > 0) {
    const pair = stack.pop() as number;
    const s = Math.floor(pair / b.n);
    const t = pair - s * b.n;
    if (a.accept[s] === 1 && b.accept[t] === 1) return true;
    for (const c of reps) {
      const next = (a.trans[s * k + c] as number) * b.n + (b.trans[t * k + c] as number);
      if (visit(next)) stack.push(next);
    }
  }
  return false;
}

/** True when every string `a` accepts, `b` accepts too: no string of `a` is one `b` rejects. */
export function isSubset(a: Dfa, b: Dfa): boolean {
  return !meets(a, complement(b));
}

// ---------------------------------------------------------------------------------------------------------
// Lengths

/** Allowed lengths (in code points): sorted, disjoint, inclusive intervals; the last may end at Infinity. */
export type LengthSet = readonly (readonly [number, number])[];

export const ANY_LENGTH: LengthSet = Object.freeze([Object.freeze([0, Number.POSITIVE_INFINITY] as const)]);

/** The lengths from `lo` to `hi`. */
export function lengthRange(lo: number, hi: number): LengthSet {
  return lo > hi ? [] : [[lo, hi]];
}

export function intersectLengths(a: LengthSet, b: LengthSet): LengthSet {
  const out: [number, number][] = [];
  for (const [alo, ahi] of a) {
    for (const [blo, bhi] of b) {
      const lo = Math.max(alo, blo);
      const hi = Math.min(ahi, bhi);
      if (lo <= hi) out.push([lo, hi]);
    }
  }
  return out.sort((x, y) => x[0] - y[0]);
}

export function complementLengths(a: LengthSet): LengthSet {
  const out: [number, number][] = [];
  let next = 0;
  for (const [lo, hi] of a) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next !== Number.POSITIVE_INFINITY) out.push([next, Number.POSITIVE_INFINITY]);
  return out;
}

function inLengths(set: LengthSet, len: number): boolean {
  return set.some(([lo, hi]) => len >= lo && len <= hi);
}

/** Layers of a forward search before it gives up. */
const MAX_LAYERS = 100_000;

/**
 * States from which an accepting state can be reached (predecessors as compressed rows, then a search back). The
 * symbols of one class go to the same states: one of each class is enough.
 */
function coReachable(a: Dfa): Uint8Array {
  const { k, n } = a;
  const { reps } = classesOf(a);
  const width = reps.length;
  const predStart = new Int32Array(n + 1);
  for (let s = 0; s < n; s++) {
    for (let r = 0; r < width; r++) {
      const t = a.trans[s * k + (reps[r] as number)] as number;
      predStart[t + 1] = (predStart[t + 1] as number) + 1;
    }
  }
  for (let t = 0; t < n; t++) predStart[t + 1] = (predStart[t + 1] as number) + (predStart[t] as number);
  const fill = predStart.slice(0, n);
  const preds = new Int32Array(n * width);
  for (let s = 0; s < n; s++) {
    for (let r = 0; r < width; r++) {
      const t = a.trans[s * k + (reps[r] as number)] as number;
      preds[fill[t] as number] = s;
      fill[t] = (fill[t] as number) + 1;
    }
  }
  const useful = new Uint8Array(n);
  const stack: number[] = [];
  for (let s = 0; s < n; s++) {
    if (a.accept[s] === 1) {
      useful[s] = 1;
      stack.push(s);
    }
  }
  while (stack.length > 0) {
    const t = stack.pop() as number;
    for (let q = predStart[t] as number; q < (predStart[t + 1] as number); q++) {
      const s = preds[q] as number;
      if (useful[s] === 0) {
        useful[s] = 1;
        stack.push(s);
      }
    }
  }
  return useful;
}

/**
 * The sets of useful states (those from which an accepting state is reachable) after each length, from the start,
 * computed as far as asked and kept with the automaton: `someStrings` asks for one length after another.
 */
interface Layers {
  readonly useful: Uint8Array;
  /** `layers[len]`: the sorted useful states after `len` symbols; they are pairwise distinct. */
  readonly layers: number[][];
  /** Whether `layers[len]` holds an accepting state. */
  readonly hits: boolean[];
  readonly seen: Map<string, number>;
  /** Set when the next layer is empty: no string is longer than the last layer's length. */
  ended: boolean;
  /** Set when the next layer (at `layers.length`) is the one at `earlier`: the rest repeats. */
  earlier: number | undefined;
}

const LAYERS = new WeakMap<Dfa, Layers>();

function layersOf(a: Dfa): Layers {
  let info = LAYERS.get(a);
  if (info === undefined) {
    info = {
      useful: coReachable(a),
      layers: [],
      hits: [],
      seen: new Map(),
      ended: false,
      earlier: undefined,
    };
    LAYERS.set(a, info);
  }
  return info;
}

/** Adds the next layer, or finds that it is empty or repeats an earlier one. */
function extendLayers(a: Dfa, info: Layers): void {
  const { k } = a;
  let next: number[];
  const count = info.layers.length;
  if (count === 0) next = [a.start];
  else {
    const set = new Set<number>();
    const { reps } = classesOf(a);
    for (const s of info.layers[count - 1] as number[]) {
      for (const c of reps) {
        const t = a.trans[s * k + c] as number;
        if (info.useful[t] === 1) set.add(t);
      }
    }
    if (set.size === 0) {
      info.ended = true;
      return;
    }
    next = [...set].sort((x, y) => x - y);
  }
  const key = next.join(",");
  const earlier = info.seen.get(key);
  if (earlier !== undefined) {
    info.earlier = earlier;
    return;
  }
  info.seen.set(key, count);
  info.layers.push(next);
  info.hits.push(next.some((s) => a.accept[s] === 1));
}

/**
 * The shortest length in `lengths` of a string `a` accepts, or undefined when there is none. The sets of states
 * after each length are computed forwards; once one repeats, the rest is periodic and is answered from the cycle.
 * @throws TooComplex when no answer is found within {@link MAX_LAYERS} lengths.
 */
export function shortestLength(a: Dfa, lengths: LengthSet = ANY_LENGTH): number | undefined {
  if (lengths.length === 0) return undefined;
  const last = (lengths[lengths.length - 1] as readonly [number, number])[1];
  // An automaton asked once (a product tried and dropped): a search forwards to the first accepting state gives the
  // shortest length of all, which answers whenever it is among the lengths or past the last of them, without the
  // states that lead somewhere (a search back over every state) or the layers.
  if (!LAYERS.has(a)) {
    const shortest = shortestAccepted(a);
    if (shortest === undefined || shortest > last) return undefined;
    if (inLengths(lengths, shortest)) return shortest;
  }
  const info = layersOf(a);
  if (info.useful[a.start] === 0) return undefined;
  for (let len = 0; len < MAX_LAYERS; len++) {
    if (len === info.layers.length && !info.ended && info.earlier === undefined) extendLayers(a, info);
    if (len < info.layers.length) {
      if (info.hits[len] === true && inLengths(lengths, len)) return len;
      if (len >= last) return undefined;
      continue;
    }
    if (info.ended) return undefined;
    // Lengths from `earlier` on repeat with period len - earlier.
    const earlier = info.earlier as number;
    const period = len - earlier;
    let best: number | undefined;
    for (const [lo, hi] of lengths) {
      const from = Math.max(lo, len);
      if (from > hi) continue;
      for (let r = 0; r < period; r++) {
        if (info.hits[earlier + r] !== true) continue;
        const base = earlier + r;
        // base < len <= from: the first length from `from` on that is base modulo the period.
        const candidate = from + ((((base - from) % period) + period) % period);
        if (candidate <= hi && (best === undefined || candidate < best)) best = candidate;
      }
    }
    return best;
  }
  throw new TooComplex("the shortest string of an automaton is too long to find");
}

/** The length of the shortest string `a` accepts (a search forwards from the start), or undefined when it has none. */
function shortestAccepted(a: Dfa): number | undefined {
  if (a.accept[a.start] === 1) return 0;
  const { k } = a;
  const { reps } = classesOf(a);
  const seen = new Uint8Array(a.n);
  seen[a.start] = 1;
  let frontier = [a.start];
  for (let len = 1; frontier.length > 0; len++) {
    const next: number[] = [];
    for (const s of frontier) {
      for (let r = 0; r < reps.length; r++) {
        const t = a.trans[s * k + (reps[r] as number)] as number;
        if (seen[t] === 1) continue;
        if (a.accept[t] === 1) return len;
        seen[t] = 1;
        next.push(t);
      }
    }
    frontier = next;
  }
  return undefined;
}

/** `exactly[j][s]` is 1 when from state s an accepting state is reached in exactly j steps; kept per automaton. */
const EXACTLY = new WeakMap<Dfa, Uint8Array[]>();

/** `can[l][s]` is 1 when from state s an accepting state is reachable in exactly `length - l` steps. */
function acceptableIn(a: Dfa, length: number): Uint8Array[] {
  const { k, n } = a;
  let exactly = EXACTLY.get(a);
  if (exactly === undefined) {
    exactly = [Uint8Array.from(a.accept)];
    EXACTLY.set(a, exactly);
  }
  if (exactly.length <= length) {
    const { reps } = classesOf(a);
    for (let j = exactly.length; j <= length; j++) {
      const next = exactly[j - 1] as Uint8Array;
      const here = new Uint8Array(n);
      for (let s = 0; s < n; s++) {
        for (let r = 0; r < reps.length; r++) {
          if (next[a.trans[s * k + (reps[r] as number)] as number] === 1) {
            here[s] = 1;
            break;
          }
        }
      }
      exactly.push(here);
    }
  }
  const can: Uint8Array[] = new Array(length + 1);
  for (let l = 0; l <= length; l++) can[l] = exactly[length - l] as Uint8Array;
  return can;
}

/**
 * The most readable accepted string of exactly `length` symbols, as symbols: at each step the first symbol in
 * the alphabet's readability order from which an accepting state is still reachable in the steps left.
 */
export function stringOfLength(alphabet: Alphabet, a: Dfa, length: number): number[] | undefined {
  const { k } = a;
  const can = acceptableIn(a, length);
  if ((can[0] as Uint8Array)[a.start] !== 1) return undefined;
  const out: number[] = [];
  let s = a.start;
  for (let l = 0; l < length; l++) {
    const next = can[l + 1] as Uint8Array;
    for (const c of alphabet.order) {
      const t = a.trans[s * k + c] as number;
      if (next[t] === 1) {
        out.push(c);
        s = t;
        break;
      }
    }
  }
  return out;
}

/** The shortest, most readable string `a` accepts with a length in `lengths`, or undefined. */
export function shortestString(
  alphabet: Alphabet,
  a: Dfa,
  lengths: LengthSet = ANY_LENGTH,
): string | undefined {
  const length = shortestLength(a, lengths);
  if (length === undefined) return undefined;
  const symbols = stringOfLength(alphabet, a, length);
  return symbols === undefined ? undefined : alphabet.spell(symbols);
}

/**
 * Up to `count` accepted strings with lengths in `lengths`, shortest first and, within a length, most readable
 * first (for a witness that must also pass a check no automaton here describes, such as a `format`).
 */
export function someStrings(alphabet: Alphabet, a: Dfa, lengths: LengthSet, count: number): string[] {
  return [...stringsOf(alphabet, a, lengths, count)];
}

/** {@link someStrings} one at a time, made as they are read: a reader that stops early pays for no more. */
export function* stringsOf(alphabet: Alphabet, a: Dfa, lengths: LengthSet, count: number): Generator<string> {
  let taken = 0;
  let remaining = lengths;
  for (let round = 0; round < 64 && taken < count; round++) {
    const length = shortestLength(a, remaining);
    if (length === undefined) break;
    for (const s of ofLength(alphabet, a, length)) {
      yield s;
      if (++taken >= count) return;
    }
    remaining = intersectLengths(remaining, lengthRange(length + 1, Number.POSITIVE_INFINITY));
  }
}

/** The accepted strings of exactly `length` symbols, most readable first (a depth-first walk, no recursion). */
function* ofLength(alphabet: Alphabet, a: Dfa, length: number): Generator<string> {
  const { k } = a;
  const { order } = alphabet;
  const can = acceptableIn(a, length);
  if ((can[0] as Uint8Array)[a.start] !== 1) return;
  // states[l] is the state after l symbols of `path`; next[l] the position in `order` to try from it.
  const states = [a.start];
  const next = [0];
  const path: number[] = [];
  while (states.length > 0) {
    const l = states.length - 1;
    if (l === length) {
      yield alphabet.spell(path);
      states.pop();
      next.pop();
      path.pop();
      continue;
    }
    const s = states[l] as number;
    const reachable = can[l + 1] as Uint8Array;
    let i = next[l] as number;
    let moved = false;
    while (i < order.length) {
      const c = order[i++] as number;
      const t = a.trans[s * k + c] as number;
      if (reachable[t] === 1) {
        next[l] = i;
        path.push(c);
        states.push(t);
        next.push(0);
        moved = true;
        break;
      }
    }
    if (!moved) {
      states.pop();
      next.pop();
      path.pop();
    }
  }
}

/**
 * Every string `a` accepts with a length in `lengths`, when they are at most `max` strings (a symbol for several
 * code points, such as the digits of `[0-9]`, gives one string for each of them); otherwise undefined (more
 * strings, an infinite language, or an automaton larger than `maxStates`).
 */
export function allStrings(
  alphabet: Alphabet,
  a: Dfa,
  lengths: LengthSet,
  max: number,
  maxStates = 512,
): string[] | undefined {
  if (a.n > maxStates) return undefined;
  const useful = layersOf(a).useful;
  const out: string[] = [];
  if (useful[a.start] === 0) return out;
  const { k } = a;
  const path: string[] = [];
  // Each symbol's code points, spelt, once (undefined: more than `max`, so more strings than asked for).
  const spelt = new Map<number, string[] | undefined>();
  const spell = (c: number): string[] | undefined => {
    if (!spelt.has(c))
      spelt.set(
        c,
        alphabet.codePoints(c, max)?.map((cp) => String.fromCodePoint(cp)),
      );
    return spelt.get(c);
  };
  // Every path through useful states reaches an accepting one, so a walk visits at most `max` accepted strings
  // times their length before it stops; a path longer than the states (a cycle: infinitely many strings) stops it
  // too.
  let accepted = 0;
  const walk = (s: number): boolean => {
    if (a.accept[s] === 1) {
      if (++accepted > max) return false;
      if (inLengths(lengths, path.length)) out.push(path.join(""));
    }
    if (path.length >= a.n) return false;
    for (let c = 0; c < k; c++) {
      const t = a.trans[s * k + c] as number;
      if (useful[t] !== 1) continue;
      const chars = spell(c);
      if (chars === undefined) return false;
      for (const ch of chars) {
        path.push(ch);
        const ok = walk(t);
        path.pop();
        if (!ok) return false;
      }
    }
    return true;
  };
  return walk(a.start) ? out : undefined;
}
