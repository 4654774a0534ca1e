/**
 * Character sets of the regex engine: sorted, non-overlapping code point ranges, their complement, the ranges
 * that class escapes and `.` stand for, and {@link CharSet}, the compiled set the machine tests a character
 * against (a table for ASCII, a binary search above it, case folding applied once when it is built).
 */

import type { FoldTable } from "../case-fold.js";

/** Sorted, non-overlapping inclusive ranges as a flat list `[lo0, hi0, lo1, hi1, ...]`. */
export type Ranges = number[];

export const MAX_CODE_POINT = 0x10ffff;

// Range lists always hold pairs, so a loop over them steps by two while `i < length`.
function normalizeRanges(ranges: Ranges): Ranges {
  const pairs: [number, number][] = [];
  for (let i = 0; i < ranges.length; i += 2) pairs.push([ranges[i] as number, ranges[i + 1] as number]);
  pairs.sort((a, b) => a[0] - b[0]);
  const out: Ranges = [];
  for (const [lo, hi] of pairs) {
    const last = out.length - 1;
    // Before the first pair, an end of -2 that no character touches.
    const end = out[last] ?? -2;
    if (lo <= end + 1) {
      if (hi > end) out[last] = hi;
    } else out.push(lo, hi);
  }
  return out;
}

export function complementRanges(ranges: Ranges): Ranges {
  const sorted = normalizeRanges(ranges);
  const out: Ranges = [];
  let next = 0;
  for (let i = 0; i < sorted.length; i += 2) {
    const lo = sorted[i] as number;
    if (lo > next) out.push(next, lo - 1);
    next = (sorted[i + 1] as number) + 1;
  }
  if (next <= MAX_CODE_POINT) out.push(next, MAX_CODE_POINT);
  return out;
}

function inRanges(ranges: Int32Array, c: number): boolean {
  let lo = 0;
  let hi = (ranges.length >> 1) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (c < (ranges[2 * mid] as number)) hi = mid - 1;
    else if (c > (ranges[2 * mid + 1] as number)) lo = mid + 1;
    else return true;
  }
  return false;
}

/** A compiled set: `has` takes an already folded character when the pattern has flag `i`. */
export class CharSet {
  /** Membership of each ASCII character, negation and folding applied. */
  readonly ascii: Uint8Array;
  private readonly ranges: Int32Array;
  private readonly negated: boolean;

  constructor(ranges: Ranges, negated: boolean, table: FoldTable | undefined) {
    let positive = normalizeRanges(ranges);
    if (table !== undefined) {
      // S ∪ fold(S): an input character c is in the set when fold(c) is (the fold is idempotent).
      const extra: Ranges = [];
      for (let i = 0; i < positive.length; i += 2) {
        const lo = positive[i] as number;
        const hi = positive[i + 1] as number;
        // Past the last key the read is undefined, and `undefined <= hi` is false.
        let k = lowerBound(table.keys, lo);
        while ((table.keys[k] as number) <= hi) {
          const folded = table.map.get(table.keys[k] as number) as number;
          extra.push(folded, folded);
          k++;
        }
      }
      positive = normalizeRanges(positive.concat(extra));
    }
    this.ranges = Int32Array.from(positive);
    this.negated = negated;
    this.ascii = new Uint8Array(128);
    for (let c = 0; c < 128; c++) this.ascii[c] = inRanges(this.ranges, c) !== negated ? 1 : 0;
  }

  has(c: number): boolean {
    if (c < 128) return this.ascii[c] === 1;
    return inRanges(this.ranges, c) !== this.negated;
  }

  /** True when the set holds some character other than `/` and NUL (a character of a path segment). */
  hasSegmentCharacter(): boolean {
    if (this.negated) return true;
    const r = this.ranges;
    for (let i = 0; i < r.length; i += 2) {
      for (let c = r[i] as number; c <= (r[i + 1] as number); c++) {
        if (c !== 0 && c !== 0x2f) return true;
      }
    }
    return false;
  }
}

function lowerBound(keys: Int32Array, value: number): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((keys[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export const DIGIT_RANGES: Ranges = [0x30, 0x39];
export const WORD_RANGES: Ranges = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];
/** With flag `i`, `\W` also leaves out `ſ` and `K`, which fold to word characters (as `RegExp` with `iu`). */
export const FOLDED_WORD_RANGES: Ranges = [...WORD_RANGES, 0x17f, 0x17f, 0x212a, 0x212a];
export const SPACE_RANGES: Ranges = [
  0x09, 0x0d, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x202f, 0x205f,
  0x205f, 0x3000, 0x3000, 0xfeff, 0xfeff,
];
export const LINE_TERMINATOR_RANGES: Ranges = [0x0a, 0x0a, 0x0d, 0x0d, 0x2028, 0x2029];

export function isLineTerminator(c: number): boolean {
  return c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;
}

export function isWordUnit(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f;
}
