/**
 * A unified diff of two texts, line by line, for `fmt --check`: the lines that differ with three lines of
 * context, in hunks headed `@@ -a,b +c,d @@`, as `diff -u` prints them.
 */

type Edit = { readonly kind: " " | "-" | "+"; readonly text: string };

/** The longest common subsequence edit script of two line lists (dynamic programming over the middle). */
function editScript(a: readonly string[], b: readonly string[]): Edit[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const head: Edit[] = a.slice(0, start).map((text) => ({ kind: " ", text }));
  const tail: Edit[] = a.slice(endA).map((text) => ({ kind: " ", text }));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const middle: Edit[] = [];
  if (midA.length * midB.length > 4_000_000) {
    // Too large to align cheaply: show the whole changed region as removed, then added.
    for (const text of midA) middle.push({ kind: "-", text });
    for (const text of midB) middle.push({ kind: "+", text });
  } else {
    const n = midA.length;
    const m = midB.length;
    const table = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i--) {
      const row = table[i] as Uint32Array;
      const next = table[i + 1] as Uint32Array;
      for (let j = m - 1; j >= 0; j--) {
        row[j] = midA[i] === midB[j] ? (next[j + 1] ?? 0) + 1 : Math.max(next[j] ?? 0, row[j + 1] ?? 0);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && midA[i] === midB[j]) {
        middle.push({ kind: " ", text: midA[i] as string });
        i++;
        j++;
      } else if (i < n && (j === m || (table[i + 1]?.[j] ?? 0) >= (table[i]?.[j + 1] ?? 0))) {
        // Removed lines before added ones, as diff -u prints a changed line.
        middle.push({ kind: "-", text: midA[i] as string });
        i++;
      } else {
        middle.push({ kind: "+", text: midB[j] as string });
        j++;
      }
    }
  }
  return [...head, ...middle, ...tail];
}

/**
 * The unified diff from `before` to `after` (empty when they are equal).
 * @param name - the file name shown in the `---`/`+++` header.
 */
export function unifiedDiff(name: string, before: string, after: string, context = 3): string {
  if (before === after) return "";
  const lines = (text: string) => (text.endsWith("\n") ? text.slice(0, -1) : text).split("\n");
  const edits = editScript(lines(before), lines(after));
  const changed = edits.map((e, index) => (e.kind === " " ? -1 : index)).filter((index) => index >= 0);
  const hunks: [number, number][] = [];
  for (const index of changed) {
    const from = Math.max(0, index - context);
    const to = Math.min(edits.length, index + context + 1);
    const last = hunks[hunks.length - 1];
    if (last !== undefined && from <= last[1]) last[1] = Math.max(last[1], to);
    else hunks.push([from, to]);
  }
  const out = [`--- ${name}`, `+++ ${name} (formatted)`];
  for (const [from, to] of hunks) {
    let oldLine = 1;
    let newLine = 1;
    for (const e of edits.slice(0, from)) {
      if (e.kind !== "+") oldLine++;
      if (e.kind !== "-") newLine++;
    }
    const slice = edits.slice(from, to);
    const oldCount = slice.filter((e) => e.kind !== "+").length;
    const newCount = slice.filter((e) => e.kind !== "-").length;
    out.push(`@@ -${oldLine},${oldCount} +${newLine},${newCount} @@`);
    for (const e of slice) out.push(`${e.kind}${e.text}`);
  }
  return `${out.join("\n")}\n`;
}
