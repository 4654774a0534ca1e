// The property suite of GlobSet (the examples are in glob-set.test.ts).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileGlob, type Glob } from "../../../src/runtime/match/glob.js";
import { GlobSet, matchPathGlobs } from "../../../src/runtime/match/glob-paths.js";

function glob(pattern: string): Glob {
  const compiled = compileGlob(pattern);
  if (!compiled.ok) throw new Error(`${pattern}: ${compiled.message}`);
  return compiled.glob;
}

/** What `matchPathGlobs` answers for each glob alone: 1 certain, 2 possible, 0 no. */
function alone(globs: readonly Glob[], path: string): number[] {
  return globs.map((g) => {
    const m = matchPathGlobs([g], path);
    return m.certain ? 1 : m.possible ? 2 : 0;
  });
}

describe("GlobSet answers each glob as matchPathGlobs does", () => {
  const globs = fc.uniqueArray(
    fc.constantFrom(
      "**/.env*",
      "**/.ssh/**",
      "**/*.pem",
      "**/id_rsa*",
      "**/.git",
      "**/.git/**",
      "/**",
      "~/**",
      "~",
      "src/**/*.ts",
      "**/cache1*/**",
      "{a,b}/?.[!x]",
      "*/*",
      "docs/**",
      "**/Caf\u00e9/*",
      "**/Cafe\u0301/*",
      "[A-Z]*/**",
    ),
    { minLength: 1, maxLength: 8 },
  );
  // Segments that every reading the matcher makes depends on: dot files, `..` and `.`, Windows separators and
  // drives, short names, case variants, NFC and NFD spellings, home and absolute paths, empty segments.
  const segment = fc.constantFrom(
    "a",
    "b",
    "src",
    "x.ts",
    ".env",
    ".ENV.local",
    ".ssh",
    "id_rsa.pub",
    "key.PEM",
    ".git",
    "cache12",
    "Caf\u00e9",
    "Cafe\u0301",
    "PROGRA~1",
    "..",
    ".",
    "~",
    "C:",
    "",
    "docs",
  );
  const path = fc
    .tuple(fc.array(segment, { minLength: 1, maxLength: 4 }), fc.constantFrom("/", "\\"), fc.boolean())
    .map(([segments, separator, absolute]) => (absolute ? separator : "") + segments.join(separator));

  it("for every glob of a random set, on several paths in a row (property)", () => {
    fc.assert(
      fc.property(globs, fc.array(path, { minLength: 1, maxLength: 4 }), (patterns, paths) => {
        const compiled = patterns.map(glob);
        const set = new GlobSet(compiled);
        for (const p of [...paths, ...paths]) {
          const { answers, hits } = set.match(p);
          const expected = alone(compiled, p);
          expect([...answers]).toEqual(expected);
          expect([...hits].sort((x, y) => x - y)).toEqual(expected.flatMap((a, i) => (a === 0 ? [] : [i])));
        }
      }),
      { numRuns: 3_000 },
    );
  });
});
