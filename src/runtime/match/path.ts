/**
 * POSIX path normalisation for glob and prefix rules: the same file is always spelt the same way before a
 * pattern looks at it. Purely lexical: no file system access, no symlink resolution, no case folding, and a
 * backslash is an ordinary character.
 */

/** Result of {@link normalizePath}. */
export type NormalizePathResult =
  | {
      readonly ok: true;
      /** The normalised path: no empty or `.` segments, `..` only at the start of a relative path. */
      readonly path: string;
      /** True when the input started with `/`. */
      readonly absolute: boolean;
      /** True when some `..` climbed above the start (above `/`, or above a relative path's own root). */
      readonly escapesRoot: boolean;
    }
  | { readonly ok: false; readonly message: string };

/**
 * Normalises a POSIX path lexically: collapses repeated `/`, drops `.` segments, resolves `..` against the
 * segment before it and strips a trailing `/` (except for the root `/`).
 *
 * A `..` that has nothing left to climb sets `escapesRoot`; in an absolute path it is dropped (`/../x` is
 * `/x`, as the kernel resolves it), in a relative one it is kept (`a/../../x` is `../x`). A relative path that
 * resolves to nothing is `.`.
 *
 * @param input - the path as received (for example a tool argument).
 * @returns `{ ok: true, path, absolute, escapesRoot }`, or `{ ok: false, message }` for an empty path or one
 *   containing a NUL byte. Never throws.
 */
export function normalizePath(input: string): NormalizePathResult {
  if (input.length === 0) return { ok: false, message: "the path is empty" };
  if (input.includes("\0"))
    return { ok: false, message: "the path contains a NUL byte, which no file name may hold" };
  const absolute = input.charCodeAt(0) === 0x2f;
  const segments: string[] = [];
  // Leading `..` segments kept in a relative path; they are below every other segment in `segments`.
  let climbs = 0;
  let escapesRoot = false;
  let start = 0;
  const length = input.length;
  while (start <= length) {
    let end = input.indexOf("/", start);
    if (end < 0) end = length;
    const segmentLength = end - start;
    if (segmentLength === 0 || (segmentLength === 1 && input.charCodeAt(start) === 0x2e)) {
      // empty or "."
    } else if (
      segmentLength === 2 &&
      input.charCodeAt(start) === 0x2e &&
      input.charCodeAt(start + 1) === 0x2e
    ) {
      if (segments.length > 0) segments.pop();
      else {
        escapesRoot = true;
        if (!absolute) climbs++;
      }
    } else {
      segments.push(input.slice(start, end));
    }
    start = end + 1;
  }
  let path: string;
  if (absolute) path = `/${segments.join("/")}`;
  else {
    const parts = climbs > 0 ? new Array<string>(climbs).fill("..").concat(segments) : segments;
    path = parts.length === 0 ? "." : parts.join("/");
  }
  return { ok: true, path, absolute, escapesRoot };
}
