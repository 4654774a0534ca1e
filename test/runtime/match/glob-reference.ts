// A reference matcher for path globs, written directly from the documented semantics (module comment of
// src/runtime/match/glob.ts), for the tests that compare the compiled matcher with it.

/**
 * The documented semantics (module comment of glob.ts), written directly: expand braces, split at `/` with the
 * root as a segment of its own, `**` takes zero or more segments, every other glob segment exactly one
 * non-root segment. Backtracking, for small inputs only.
 */
export function referenceMatch(pattern: string, path: string): boolean {
  const ROOT = Symbol("root");
  type Segment = string | typeof ROOT;
  const split = (text: string): Segment[] => {
    if (text === "/") return [ROOT];
    return text.startsWith("/") ? [ROOT, ...text.slice(1).split("/")] : text.split("/");
  };
  const segmentRegex = (segment: string): RegExp => {
    let out = "";
    for (let i = 0; i < segment.length; i++) {
      const c = segment[i] as string;
      if (c === "*") out += "[^/]*";
      else if (c === "?") out += "[^/]";
      else if (c === "[") {
        const close = segment.indexOf("]", i + 2);
        let body = segment.slice(i + 1, close);
        if (body.startsWith("!")) body = `^${body.slice(1)}`;
        out += `[${body}]`;
        i = close;
      } else if (c === "\\") out += `\\${segment[++i]}`;
      else out += c.replace(/[.+^${}()|\\]/g, "\\$&");
    }
    return new RegExp(`^${out}$`, "u");
  };
  const matchSegments = (glob: Segment[], target: Segment[]): boolean => {
    if (glob.length === 0) return target.length === 0;
    const [head, ...rest] = glob;
    if (head === "**") {
      for (let k = 0; k <= target.length; k++) if (matchSegments(rest, target.slice(k))) return true;
      return false;
    }
    const first = target[0];
    if (first === undefined) return false;
    if (head === ROOT || first === ROOT) return head === first && matchSegments(rest, target.slice(1));
    return segmentRegex(head as string).test(first) && matchSegments(rest, target.slice(1));
  };
  // Only the glob as written decides whether it is absolute: `{,a}/x` is relative, its `/x` never matches.
  // An empty alternative leaves an empty segment (`/{,a}` is not `/`), which matches nothing.
  const globSegments = (glob: string): Segment[] => {
    if (pattern === "/") return [ROOT];
    return pattern.startsWith("/") ? [ROOT, ...glob.slice(1).split("/")] : glob.split("/");
  };
  return expandBraces(pattern).some((glob) => matchSegments(globSegments(glob), split(path)));
}

/** Brace expansion of a glob without escaped braces (the generator below never escapes one). */
export function expandBraces(pattern: string): string[] {
  const open = pattern.indexOf("{");
  if (open < 0) return [pattern];
  let depth = 0;
  const cuts: number[] = [];
  let close = -1;
  for (let i = open; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "{") depth++;
    else if (c === "}" && --depth === 0) {
      close = i;
      break;
    } else if (c === "," && depth === 1) cuts.push(i);
  }
  const bounds = [open, ...cuts, close];
  const before = pattern.slice(0, open);
  const after = pattern.slice(close + 1);
  const out: string[] = [];
  for (let k = 0; k + 1 < bounds.length; k++) {
    const alternative = pattern.slice((bounds[k] as number) + 1, bounds[k + 1]);
    for (const expanded of expandBraces(before + alternative + after)) out.push(expanded);
  }
  return out;
}
