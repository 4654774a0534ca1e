import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileGlob, matchPathGlobs } from "../../../src/runtime/match/glob.js";
import { normalizePath } from "../../../src/runtime/match/path.js";

// The property suites of the glob matcher (the examples are in glob.test.ts).

function matches(pattern: string, path: string): boolean {
  const compiled = compileGlob(pattern);
  if (!compiled.ok) throw new Error(`${pattern}: ${compiled.message}`);
  return compiled.glob.test(path);
}

describe("compileGlob: arbitrary globs", () => {
  it("never throws on arbitrary globs (property)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 24 }), fc.string({ maxLength: 12 }), (pattern, path) => {
        const compiled = compileGlob(pattern);
        if (compiled.ok) compiled.glob.test(path);
      }),
      { numRuns: 2000 },
    );
  });
});

/**
 * The documented semantics (module comment of glob.ts), written directly: expand braces, split at `/` with the
 * root as a segment of its own, `**` takes zero or more segments, every other glob segment exactly one
 * non-root segment. Backtracking, for small inputs only.
 */
function referenceMatch(pattern: string, path: string): boolean {
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
function expandBraces(pattern: string): string[] {
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

describe("compileGlob agrees with the documented semantics", () => {
  const globSegment = fc.constantFrom(
    "a",
    "b",
    ".a",
    "*",
    "**",
    "?",
    "a*",
    "*b",
    "a**b",
    "[ab]",
    "[!a]",
    "\\*",
    "{a,b}",
    "{,a}",
    "{a,*}",
    "{**,a}",
    "{a/b,**}",
  );
  const glob = fc
    .tuple(fc.boolean(), fc.array(globSegment, { minLength: 1, maxLength: 4 }))
    .map(([absolute, parts]) => `${absolute ? "/" : ""}${parts.join("/")}`);
  const pathSegment = fc.constantFrom("a", "b", ".a", "ab", "ba", "a.b", "*", "aab");
  const path = fc
    .tuple(fc.boolean(), fc.array(pathSegment, { minLength: 0, maxLength: 4 }))
    .map(([absolute, parts]) => (absolute ? `/${parts.join("/")}` : parts.join("/")))
    .filter((p) => p !== "");

  it("matches exactly when the reference does (property)", () => {
    fc.assert(
      fc.property(glob, path, (pattern, target) => {
        const compiled = compileGlob(pattern);
        fc.pre(compiled.ok);
        if (!compiled.ok) return;
        expect(compiled.glob.test(target)).toBe(referenceMatch(pattern, target));
      }),
      { numRuns: 5000 },
    );
  });

  it("the reference itself reads the documented examples", () => {
    expect(referenceMatch("**/.env*", "/home/u/.env")).toBe(true);
    expect(referenceMatch("*/*.ts", "/a.ts")).toBe(false);
    expect(referenceMatch("secrets/**/**", "secrets")).toBe(true);
    expect(referenceMatch("{,a}/x", "/x")).toBe(false);
    expect(referenceMatch("a/{**,b}", "a")).toBe(true);
    expect(referenceMatch("/*", "/")).toBe(false);
  });
});

describe("compileGlob: properties", () => {
  const name = fc.constantFrom("a", "b", ".env", "x.ts", ".git");
  const relativePath = fc.array(name, { minLength: 1, maxLength: 5 }).map((parts) => parts.join("/"));

  it("a path with no glob characters matches itself only (property)", () => {
    fc.assert(
      fc.property(relativePath, relativePath, (pattern, path) => {
        expect(matches(pattern, path)).toBe(pattern === path);
      }),
      { numRuns: 1000 },
    );
  });

  it("`**/name` matches exactly the paths whose last segment is name (property)", () => {
    fc.assert(
      fc.property(name, relativePath, (last, path) => {
        expect(matches(`**/${last}`, path)).toBe(path.split("/").at(-1) === last);
      }),
      { numRuns: 1000 },
    );
  });

  it("`dir/**` matches dir and everything below it (property)", () => {
    fc.assert(
      fc.property(name, relativePath, (dir, path) => {
        expect(matches(`${dir}/**`, path)).toBe(path === dir || path.startsWith(`${dir}/`));
      }),
      { numRuns: 1000 },
    );
  });
});

describe("matchPathGlobs: conservative across platforms", () => {
  it("is certain only for plain relative paths, and never misses what the exact glob matches (property)", () => {
    const segment = fc.constantFrom(
      "a",
      "src",
      ".env",
      "x.ts",
      "A",
      "é",
      "e\u0301",
      "GIT~1",
      "a.",
      "a:b",
      "\u017F",
    );
    const path = fc
      .tuple(
        fc.constantFrom("", "/", "C:\\", "\\\\s\\h\\"),
        fc.array(segment, { minLength: 1, maxLength: 4 }),
      )
      .chain(([root, parts]) => fc.constantFrom("/", "\\").map((sep) => root + parts.join(sep)));
    const glob = fc.constantFrom("**", "src/**", "**/.env*", "/**", "**/*.ts", "a/*", "**/a", "**/GIT~1");
    fc.assert(
      fc.property(glob, path, (pattern, target) => {
        const compiled = compileGlob(pattern);
        if (!compiled.ok) throw new Error(compiled.message);
        const m = matchPathGlobs([compiled.glob], target);
        const normal = normalizePath(target);
        const plainRelative =
          /^[a-zA-Z.~1]+(?:\/[a-zA-Z.~1]+)*$/.test(target) && !/[.]$|(^|\/)[^/]*[.]\//.test(target);
        if (m.certain) {
          expect(target.startsWith("/") || target.includes("\\") || target.includes(":")).toBe(false);
          expect(target.normalize("NFC")).toBe(target);
        }
        // Whatever the exact glob matches on the POSIX reading is at least a maybe.
        if (normal.ok && !normal.escapesRoot && compiled.glob.test(normal.path))
          expect(m.possible).toBe(true);
        if (plainRelative && normal.ok && compiled.glob.test(normal.path) && !target.includes("~1"))
          expect(m.certain).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
