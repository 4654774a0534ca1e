/**
 * Roots: the directories an agent works in. An absolute path under a root is read relative to it, so that a
 * relative `glob` or `path_prefix` rule (`src/**`) can be certain about it; an absolute path is never plain
 * (see {@link readPath}), so without a root no path rule can allow it for certain. Purely lexical and POSIX,
 * like {@link normalizePath}: the callers that can see the file system also read where symbolic links lead.
 */

import { normalizePath } from "./path.js";

/** Where one absolute path stands among the roots (see {@link relativeToRoots}). */
export type RootedPath =
  | {
      readonly inside: true;
      /** The root that holds the path (normalised): the longest one that does. */
      readonly root: string;
      /** The path relative to that root, normalised; `.` for the root itself. */
      readonly relative: string;
    }
  | { readonly inside: false };

const OUTSIDE: RootedPath = Object.freeze({ inside: false });

/**
 * The roots as {@link relativeToRoots} reads them: each normalised (`..`, `.`, `//` and a trailing `/`
 * resolved lexically), without repeats, longest first. A root that is not an absolute POSIX path, is empty or
 * holds a NUL byte is left out (the callers check what they accept and say why).
 */
export function normalizeRoots(roots: readonly string[]): readonly string[] {
  const out = new Set<string>();
  for (const root of roots) {
    const normal = normalizePath(root);
    if (normal.ok && normal.absolute) out.add(normal.path);
  }
  return [...out].sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Where an absolute POSIX path stands among `roots`: after lexical normalisation of both, inside the first
 * (longest) root it equals or lies below, as the path relative to that root; outside every root otherwise. A
 * root is a whole directory: `/srv/src2` is not under `/srv/src`. A relative path, an empty one or one with a
 * NUL byte is outside. `..` is resolved lexically, so `<root>/../x` is outside (callers that can read the file
 * system also check where symbolic links lead, since the kernel resolves `..` after following them).
 *
 * @param path - the path as received.
 * @param roots - the roots, absolute; they are normalised here (pass {@link normalizeRoots}' result to skip it).
 */
export function relativeToRoots(path: string, roots: readonly string[]): RootedPath {
  if (roots.length === 0 || path.charCodeAt(0) !== 0x2f) return OUTSIDE;
  const normal = normalizePath(path);
  if (!normal.ok || !normal.absolute) return OUTSIDE;
  for (const root of normalizeRoots(roots)) {
    const relative = below(normal.path, root);
    if (relative !== undefined) return { inside: true, root, relative };
  }
  return OUTSIDE;
}

/** `path` relative to `root` (both normalised and absolute), or undefined when it is not at or below it. */
function below(path: string, root: string): string | undefined {
  if (path === root) return ".";
  if (root === "/") return path.slice(1);
  if (path.length > root.length && path.startsWith(root) && path.charCodeAt(root.length) === 0x2f)
    return path.slice(root.length + 1);
  return undefined;
}

/**
 * The readings of one path argument against the roots, for the policy to decide (each one; the strictest
 * decision holds): the path relative to its root when it is inside one; the path as given when it is outside;
 * and both when only a case-insensitive or Unicode-normalising file system (macOS, Windows) would put it inside
 * a root — then a deny rule on the relative path still sees it, and the absolute reading is never a certain
 * allow. A path that is not an absolute POSIX path is read as it is.
 */
export function rootReadings(path: string, roots: readonly string[]): readonly string[] {
  const rooted = relativeToRoots(path, roots);
  if (rooted.inside) return [rooted.relative];
  const folded = relativeToRoots(fold(path), roots.map(fold));
  if (!folded.inside) return [path];
  return [path, folded.relative];
}

function fold(text: string): string {
  return text.normalize("NFC").toLowerCase();
}
