/**
 * `path_prefix` is literal on the path's normal form, and certain only for a plain relative POSIX path already
 * in normal form ({@link readPath}). Every other spelling is at most a maybe: a value whose normal form differs
 * (`src/../x`), a path that may name any file (`../../etc/passwd`), and any platform's reading of it (Windows
 * separators and drives, NFD, short names, Unicode simple case folding) that starts with the prefix. A prefix
 * ending in `/` names a folder: `secrets/` also matches the path `secrets` itself.
 */
import { foldString, fullFoldString } from "../match/case-fold.js";
import { normalizePath, type PathReadMemo, readPath } from "../match/path.js";
import { FALSE, TRUE, UNKNOWN } from "../truth.js";
import { defineOperator, present, type ValueTest } from "./operator.js";

// Several prefix rules usually test the same argument in one decision: the policy's memo normalises it once.
function pathPrefixTest(prefix: string, paths: PathReadMemo): ValueTest {
  // A prefix ending in `/` names a folder: the folder itself (`secrets`) as well as everything under it.
  const folder = prefix.length > 1 && prefix.endsWith("/") ? prefix.slice(0, -1) : undefined;
  const starts = (text: string): boolean => text.startsWith(prefix) || text === folder;
  // Compared ignoring case: in simple case folding, and in full case folding (`straße/` is also `strasse/`).
  const fullFold = (text: string): string => foldString(fullFoldString(text));
  const folds = [foldString, fullFold].map((by) => ({
    by,
    prefix: by(prefix),
    folder: folder === undefined ? undefined : by(folder),
  }));
  const foldedStarts = (text: string): boolean =>
    folds.some(({ by, prefix: p, folder: f }) => {
      const folded = by(text);
      return folded.startsWith(p) || folded === f;
    });
  return (value) => {
    if (typeof value !== "string") return UNKNOWN;
    const read = readPath(value);
    if (read.anywhere) return UNKNOWN;
    if (read.plain && starts(value)) {
      const normal = paths.normalize(value);
      if (normal.ok && !normal.escapesRoot && normal.path === value) return TRUE;
    }
    if (starts(value)) return UNKNOWN;
    for (const reading of read.readings) {
      if (reading.segments.includes(null)) return UNKNOWN;
      const text = reading.absolute ? `/${reading.segments.join("/")}` : reading.segments.join("/");
      if (starts(text) || foldedStarts(text)) return UNKNOWN;
    }
    return FALSE;
  };
}

export const pathPrefixOperator = defineOperator<string, "path_prefix">({
  name: "path_prefix",
  description:
    "A path whose normal form starts with this text; a path whose spelling hides where it points is a maybe.",
  valueTypes: ["string"],
  reads: { types: ["string"], needs: "a string field" },
  lengthBound: true,
  compile: (text, context) => {
    // A prefix not in normal form (`./src`, `a//b`, `src/..`) could never certainly start a normalised path.
    const normal = text === "" ? undefined : normalizePath(text);
    const bare = text.length > 1 && text.endsWith("/") ? text.slice(0, -1) : text;
    if (normal !== undefined && (!normal.ok || normal.path !== bare)) {
      const hint = normal.ok ? `; write "${normal.path}${text.endsWith("/") ? "/" : ""}"` : "";
      context.problem(`path_prefix "${text}" is not a path in normal form${hint}`);
    }
    return present(pathPrefixTest(text, context.scope.paths));
  },
});
