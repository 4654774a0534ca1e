/**
 * Unicode simple case folding (CaseFolding.txt, status C and S), as JavaScript's `RegExp` applies it with
 * the flags `iu`: two characters are equal ignoring case when they fold to the same code point. `ſ` folds
 * to `s`, the Kelvin sign `K` to `k`, `ẞ` to `ß`; `ß` does not become `ss` (that is full folding) and the
 * dotless `ı` stays itself (that is the Turkic mapping).
 *
 * The table is derived from the platform's own case mappings (lower-case of upper-case, single code points
 * only) with the few places where that differs from simple folding corrected by hand; a test checks the
 * equivalence against `RegExp` with `iu` over every code point.
 */

/**
 * Blocks (inclusive code-point ranges) that hold every cased character outside ASCII; none holds a surrogate.
 * The ligatures U+FB00 to U+FB06 are left out: their upper case is several code points, so none of them adds an
 * entry (the one pair that folds, `ﬅ ﬆ`, is added by hand below).
 */
const CASED_BLOCKS: readonly (readonly [number, number])[] = [
  [0x80, 0x5ff],
  [0x1000, 0x13ff],
  [0x1c00, 0x1fff],
  [0x2100, 0x2cff],
  [0xa600, 0xa7ff],
  [0xab00, 0xabff],
  [0xff00, 0xffff],
  [0x10400, 0x105ff],
  [0x10c00, 0x10dff],
  [0x11800, 0x118ff],
  [0x16e00, 0x16eff],
  [0x1e900, 0x1e9ff],
];

/**
 * Where lower-case-of-upper-case is not simple case folding: `ı` upper-cases to `I` but has no simple
 * folding (it would be the Turkic one), and three pairs fold together although their upper case is more
 * than one code point.
 */
const NOT_FOLDED: readonly number[] = [0x131];
const EXTRA_FOLDS: readonly (readonly [number, number])[] = [
  [0x1fd3, 0x390],
  [0x1fe3, 0x3b0],
  [0xfb05, 0xfb06],
];

/** The fold of every code point that folds to something else, with the keys sorted for range scans. */
export interface FoldTable {
  /** Code point → its fold, only for code points that fold to something else (ASCII included). */
  readonly map: ReadonlyMap<number, number>;
  /** The keys of `map`, ascending. */
  readonly keys: Int32Array;
  /** How many code points fold to each fold value (the value itself included), for values with more than one. */
  readonly classSize: ReadonlyMap<number, number>;
}

let foldTable: FoldTable | undefined;

/** The one code point `text` holds, or undefined when it holds several (`text` is a case mapping: never empty). */
function singleCodePoint(text: string): number | undefined {
  const cp = text.codePointAt(0) as number;
  return String.fromCodePoint(cp) === text ? cp : undefined;
}

/** The fold table, built on first use (about ten thousand case mappings, once per process). */
export function getFoldTable(): FoldTable {
  foldTable ??= buildFoldTable();
  return foldTable;
}

/** A new fold table from the platform's case mappings (what {@link getFoldTable} builds once and keeps). */
export function buildFoldTable(): FoldTable {
  const map = new Map<number, number>();
  for (let c = 0x41; c <= 0x5a; c++) map.set(c, c + 0x20);
  for (const [lo, hi] of CASED_BLOCKS) {
    for (let c = lo; c <= hi; c++) {
      const c1 = singleCodePoint(String.fromCodePoint(c).toUpperCase()) ?? c;
      const c2 = singleCodePoint(String.fromCodePoint(c1).toLowerCase()) ?? c1;
      if (c2 !== c) map.set(c, c2);
    }
  }
  for (const c of NOT_FOLDED) map.delete(c);
  for (const [from, to] of EXTRA_FOLDS) map.set(from, to);
  // Make the fold idempotent: every value must be a fixed point.
  for (const [key, value] of map) {
    let target = value;
    for (let guard = 0; guard < 4; guard++) {
      const further = map.get(target);
      if (further === undefined || further === target) break;
      target = further;
    }
    if (target === key) map.delete(key);
    else map.set(key, target);
  }
  const classSize = new Map<number, number>();
  for (const value of map.values()) classSize.set(value, (classSize.get(value) ?? 1) + 1);
  const keys = Int32Array.from([...map.keys()].sort((a, b) => a - b));
  return { map, keys, classSize };
}

/** The simple case fold of one code point. */
export function foldCodePoint(c: number, table: FoldTable = getFoldTable()): number {
  if (c < 0x80) return c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
  return table.map.get(c) ?? c;
}

/** `text` with every code point replaced by its simple case fold. */
export function foldString(text: string): string {
  // ASCII text (the usual case) folds as `toLowerCase` lowers it.
  if (!/[\u0080-\u{10ffff}]/u.test(text)) return text.toLowerCase();
  const table = getFoldTable();
  let out = "";
  for (const ch of text) out += String.fromCodePoint(foldCodePoint(ch.codePointAt(0) as number, table));
  return out;
}

/** Last code point of the blocks whose upper/lower pairs every file system's case table has always had. */
const LONG_STABLE_CASE_LIMIT = 0x52f;

/**
 * True when every case-insensitive file system compares `cp` the same way: it has no case at all, or it is one
 * of a plain pair of one upper-case and one lower-case letter in Latin, Greek or Cyrillic (up to U+052F). False
 * for characters whose folding differs between Unicode simple folding, full folding, Turkic rules and the
 * (frozen, older) tables of NTFS and APFS: `ſ`, `K`, `ß`, `ı`, `İ`, `ς`, and anything cased that was added
 * to Unicode later.
 */
export function isFoldStable(cp: number, table: FoldTable = getFoldTable()): boolean {
  if (cp < 0x80) return true;
  const ch = String.fromCodePoint(cp);
  const upper = ch.toUpperCase();
  const lower = ch.toLowerCase();
  const fold = foldCodePoint(cp, table);
  const size = table.classSize.get(fold) ?? 1;
  if (size === 1) return upper === ch && lower === ch;
  if (size !== 2 || cp > LONG_STABLE_CASE_LIMIT) return false;
  // A case mapping of several code points counts as U+0000, whose fold (itself) is no cased character's.
  const u = singleCodePoint(upper) ?? 0;
  const l = singleCodePoint(lower) ?? 0;
  if (u > LONG_STABLE_CASE_LIMIT || l > LONG_STABLE_CASE_LIMIT || u === l) return false;
  return foldCodePoint(u, table) === fold && foldCodePoint(l, table) === fold;
}

/**
 * `text` with every code point replaced by its full case fold, as APFS and NTFS-style comparisons may read a
 * name: `ß` and `ẞ` are `ss`, the ligature `ﬁ` is `fi`, `ǰ` is `ǰ` (`j` and a combining caron), `İ` is `i̇`,
 * `ŉ` is `ʼn`. Computed per code point as the lower case of the upper case, repeated until it holds still (so
 * `ẞ` goes to `ß` and on to `ss`); for the characters whose simple fold is all there is, that is the simple fold
 * (`ſ` is `s`, the Kelvin sign `k`). Not context-sensitive: a final `Σ` is `σ`.
 */
export function fullFoldString(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII is the range looked for.
  if (/^[\u0000-\u007f]*$/.test(text)) return text.toLowerCase();
  let out = "";
  for (const ch of text) {
    if ((ch.codePointAt(0) as number) < 0x80) {
      out += ch.toLowerCase();
      continue;
    }
    let folded = ch;
    for (let guard = 0; guard < 4; guard++) {
      const next = folded.toUpperCase().toLowerCase();
      if (next === folded) break;
      folded = next;
    }
    out += folded;
  }
  return out;
}
