/**
 * What changed between a generated file on disk and the one that would be written now, in words: which
 * declarations were added, removed or changed. `codegen --check` and `compile --check` say this rather than
 * only "the file differs", so that a reviewer knows whether the change is a new tool, a changed schema, or a
 * new version of toolgate.
 */

/** The differences between two generated files. */
export interface GeneratedChange {
  /** The 1-based line of the first difference in the file on disk. */
  readonly line: number;
  /** Declarations in the new file only, in the old file only, and in both with different text. */
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly string[];
}

const DECLARATION =
  /^export (?:declare )?(?:interface|type|const|function|async function) ([A-Za-z_$][\w$]*)/;

/** Splits a generated file into its top-level declarations, each with the doc comment before it. */
export function declarationBlocks(text: string): Map<string, string> {
  const blocks = new Map<string, string>();
  let pending: string[] = [];
  let current: { name: string; lines: string[] } | undefined;
  const close = () => {
    if (current !== undefined) blocks.set(current.name, current.lines.join("\n").trim());
    current = undefined;
  };
  for (const line of text.split("\n")) {
    const match = DECLARATION.exec(line);
    if (match !== null) {
      close();
      current = { name: match[1] as string, lines: [...pending, line] };
      pending = [];
    } else if (line.startsWith("/**")) {
      // A doc comment at column 0 ends the declaration before it and belongs to the one after it.
      close();
      pending = [line];
    } else if (pending.length > 0) pending.push(line);
    else current?.lines.push(line);
  }
  close();
  return blocks;
}

/** Compares a generated file on disk with what would be written now. */
export function describeChange(actual: string, expected: string): GeneratedChange {
  const a = actual.split("\n");
  const e = expected.split("\n");
  let line = 0;
  while (line < a.length && line < e.length && a[line] === e[line]) line++;
  const before = declarationBlocks(actual);
  const after = declarationBlocks(expected);
  const added = [...after.keys()].filter((name) => !before.has(name));
  const removed = [...before.keys()].filter((name) => !after.has(name));
  const changed = [...after.keys()].filter(
    (name) => before.has(name) && before.get(name) !== after.get(name),
  );
  return { line: line + 1, added, removed, changed };
}

/** The change in words: `added ReadFileArgs; changed ToolArgs, ToolName`; or that only the layout differs. */
export function changeSummary(change: GeneratedChange): string {
  const parts: string[] = [];
  if (change.added.length > 0) parts.push(`added ${change.added.join(", ")}`);
  if (change.removed.length > 0) parts.push(`removed ${change.removed.join(", ")}`);
  if (change.changed.length > 0) parts.push(`changed ${change.changed.join(", ")}`);
  return parts.length === 0
    ? "no declaration changed, only the text around them (another toolgate version, or an edit by hand)"
    : parts.join("; ");
}
