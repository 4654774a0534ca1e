/**
 * A parsed file as the later stages see it: its plain data and the position of every node by JSON Pointer,
 * with the helpers that build pointers and find a node's position. It sits below the parser and the checks
 * (which point into files but never parse one), and imports nothing.
 */

/** A 1-based position range in a file. */
export interface Span {
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

/** Where a node and (for a map entry) its key stand. */
export interface NodePosition {
  readonly value: Span;
  readonly key?: Span;
}

/** A parsed file: its data and the position of every node by JSON Pointer (`""` is the root). */
export interface ParsedFile {
  /** Path relative to the working directory, as diagnostics show it. */
  readonly file: string;
  readonly data: unknown;
  readonly positions: ReadonlyMap<string, NodePosition>;
}

/** Escapes one JSON Pointer segment. */
export function pointerSegment(key: string | number): string {
  // Called for every node of every file: most keys need no escape.
  if (typeof key === "number") return String(key);
  return key.includes("~") || key.includes("/") ? key.replaceAll("~", "~0").replaceAll("/", "~1") : key;
}

/** Joins a pointer and a segment. */
export function childPointer(pointer: string, key: string | number): string {
  return `${pointer}/${pointerSegment(key)}`;
}

/** The span of a file's start: where a node without a position is reported. */
export const ZERO_SPAN: Span = Object.freeze({ line: 1, column: 1, endLine: 1, endColumn: 1 });

/** The position of the node at `pointer`, or of its nearest ancestor that has one. */
export function positionOf(parsed: ParsedFile, pointer: string, prefer: "key" | "value" = "value"): Span {
  let current = pointer;
  for (;;) {
    const found = parsed.positions.get(current);
    if (found !== undefined) return prefer === "key" && found.key !== undefined ? found.key : found.value;
    if (current === "") return ZERO_SPAN;
    current = current.slice(0, current.lastIndexOf("/"));
  }
}

/**
 * The 1-based line and column of `offset` in a text whose lines start at `starts` (ascending offsets, the first
 * 0), counted as the YAML parser's LineCounter counts them.
 */
export function linePosition(starts: readonly number[], offset: number): { line: number; col: number } {
  let low = 0;
  let high = starts.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (offset < (starts[mid] as number)) high = mid;
    else low = mid + 1;
  }
  return { line: low, col: offset - (starts[low - 1] as number) + 1 };
}
