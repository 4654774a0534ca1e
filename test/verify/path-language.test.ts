/**
 * On the simple paths, the verifier's automata of `glob` and `path_prefix` give exactly the runtime's answers:
 * certain where the `glob` (or the `path_prefix`) operator is certain, possible where it is possible. Paths
 * are drawn from letters in both cases, digits, `.`, `/`, `-`, `_`, a backslash, `:`, `~`, a blank and a letter
 * outside ASCII, so that the generator also makes the paths outside the simple subset, which must be left out.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileCondition } from "../../src/runtime/condition.js";
import { compileGlob, rootedPath } from "../../src/runtime/match/glob.js";
import { readSimplePath } from "../../src/runtime/match/path.js";
import { AlphabetBuilder } from "../../src/verify/alphabet.js";
import { Automata } from "../../src/verify/automata.js";
import { accepts, type Dfa, TooComplex } from "../../src/verify/dfa.js";
import { PathLanguages } from "../../src/verify/path-language.js";

const CHARS = [
  "a",
  "b",
  "A",
  "c",
  "o",
  "n",
  ".",
  "/",
  "/",
  "-",
  "_",
  "1",
  "\\",
  ":",
  "~",
  " ",
  "é",
  "S",
  "s",
];
const path = fc.array(fc.constantFrom(...CHARS), { maxLength: 9 }).map((cs) => cs.join(""));
const GLOB_PARTS = ["**", "*", "?", "a", "b", ".a", "A", "con", "[ab]", "[!a]", "{a,b}", "s", "*.a"];
const glob = fc
  .tuple(fc.boolean(), fc.array(fc.constantFrom(...GLOB_PARTS), { minLength: 1, maxLength: 3 }))
  .map(([absolute, parts]) => `${absolute ? "/" : ""}${parts.join("/")}`);
/** Folders and last parts of globs as people write them, and the segments of paths they are about. */
const REAL_FOLDERS = ["src", "lib", "test", ".ssh", "node_modules", "{src,lib}", "[a-z]*", "s?c", "*"];
const REAL_LASTS = [
  "*.{ts,js}",
  "*.ts",
  ".env*",
  "*.pem",
  "?.md",
  "[a-z]*",
  "*",
  "x.ts",
  "{a,b}.md",
  "*.[tj]s",
];
const REAL_SEGMENTS = [
  "src",
  "lib",
  "SRC",
  "a",
  "x.ts",
  "y.js",
  "x.TS",
  "x.tsx",
  ".ts",
  ".env",
  ".env.local",
  "b.pem",
  "node_modules",
  "c.md",
  "a.md",
  "cc.md",
  "test",
  ".ssh",
  ".",
  "..",
  "x.ts.",
  "x.ts ",
  "a\\x.ts",
  "x.ts:y",
  "C:",
  "src.",
  "SRC.",
];
const prefix = fc.constantFrom("a", "a/", "A", "src", "s", ".a", "a/b", "/a", "/", "co", ".", "./");

/**
 * The simple subset, written without automata: what the runtime reads the same on every platform, and relative
 * paths it reads as written but not as plain, for a segment that names a Windows device (`con`, `a/nul.txt`).
 */
function isSimple(value: string): boolean {
  if (readSimplePath(value) !== undefined) return true;
  if (value === "/") return true;
  return (value.startsWith("/") ? value.slice(1) : value)
    .split("/")
    .every((segment) => /^[A-Za-z0-9_.-]*[A-Za-z0-9_-]$/.test(segment));
}

function languages(globs: readonly string[], prefixes: readonly string[], values: readonly string[]) {
  const builder = new AlphabetBuilder();
  PathLanguages.addBoundaries(builder, globs, prefixes);
  for (const v of values) builder.addText(v);
  const automata = new Automata(builder.build());
  return { alphabet: automata.alphabet, paths: new PathLanguages(automata) };
}

describe("PathLanguages", () => {
  it("accepts exactly the simple paths", () => {
    fc.assert(
      fc.property(fc.array(path, { minLength: 1, maxLength: 20 }), (values) => {
        const { alphabet, paths } = languages([], [], values);
        for (const v of values)
          expect(accepts(paths.simple, alphabet.symbols(v)), JSON.stringify(v)).toBe(isSimple(v));
      }),
      { numRuns: 300 },
    );
  });

  it("gives the glob operator's answers on paths made of the segments people's globs name", () => {
    // Random characters seldom spell a path a glob of real names matches: these paths are made of such names,
    // their other cases and spellings (a trailing dot, a dot segment, `..`), under globs of those names.
    const realGlob = fc
      .tuple(
        fc.constantFrom("", "/"),
        fc.constantFrom(...REAL_FOLDERS),
        fc.constantFrom("{f}/**/{l}", "**/{l}", "{f}/{l}", "**/{f}/**", "{f}/**", "{l}"),
        fc.constantFrom(...REAL_LASTS),
      )
      .map(([root, folder, shape, last]) => `${root}${shape.replace("{f}", folder).replace("{l}", last)}`);
    const realPath = fc
      .tuple(fc.boolean(), fc.array(fc.constantFrom(...REAL_SEGMENTS), { minLength: 1, maxLength: 3 }))
      .map(([absolute, segments]) => `${absolute ? "/" : ""}${segments.join("/")}`);
    fc.assert(
      fc.property(
        fc.array(realGlob, { minLength: 1, maxLength: 2 }),
        fc.array(realPath, { minLength: 1, maxLength: 24 }),
        (globs, values) => {
          if (!globs.every((g) => compileGlob(g).ok)) return;
          const { alphabet, paths } = languages(globs, [], values);
          const { certain, possible, neverFalse, certainAnywhere } = paths.glob(globs);
          const compiled = compileCondition({ f: { glob: globs } });
          if (!compiled.ok) return;
          for (const v of values) {
            const truth = compiled.condition({ f: v });
            const symbols = alphabet.symbols(v);
            // On every string, simple or not: never false where it says so, certain only where it may be.
            if (accepts(neverFalse, symbols))
              expect(truth, `${globs} never false on ${JSON.stringify(v)}`).not.toBe(0);
            if (truth === 1)
              expect(accepts(certainAnywhere, symbols), `${globs} certain of ${JSON.stringify(v)}`).toBe(
                true,
              );
            if (!isSimple(v)) continue;
            expect(accepts(certain, symbols), `${globs} certain ${JSON.stringify(v)}`).toBe(truth === 1);
            expect(accepts(possible, symbols), `${globs} possible ${JSON.stringify(v)}`).toBe(truth !== 0);
          }
        },
      ),
      { numRuns: Number(process.env.TOOLGATE_VERIFY_RUNS ?? 400) },
    );
  });

  it("gives the glob operator's answers on simple paths", () => {
    fc.assert(
      fc.property(
        fc.array(glob, { minLength: 1, maxLength: 2 }),
        fc.array(path, { minLength: 1, maxLength: 20 }),
        (globs, values) => {
          if (!globs.every((g) => compileGlob(g).ok)) return;
          const { alphabet, paths } = languages(globs, [], values);
          const { certain, possible } = paths.glob(globs);
          const compiled = compileCondition({ f: { glob: globs } });
          if (!compiled.ok) return;
          for (const v of values) {
            if (!isSimple(v)) continue;
            const truth = compiled.condition({ f: v });
            const symbols = alphabet.symbols(v);
            expect(accepts(certain, symbols), `${globs} certain ${JSON.stringify(v)}`).toBe(truth === 1);
            expect(accepts(possible, symbols), `${globs} possible ${JSON.stringify(v)}`).toBe(truth !== 0);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it("reads a relative path with a device's name as the runtime does: never certain, possible as written", () => {
    const names = ["con", "CON", "Aux", "nul.txt", "com1", "lpt9.a", "prn.a.b"];
    const values = names.flatMap((n) => [n, `a/${n}`, `${n}/a`, `src/${n}/x.ts`, `/${n}`]);
    values.push("cons", "a/conn", "com", "acon", "con-a");
    const globs = [
      "**",
      "*",
      "con",
      "**/con",
      "a/**",
      "*.a",
      "{a,con}",
      "[!a]*",
      "**/*.ts",
      "src/**",
      "**/nul.*",
    ];
    const prefixes = ["a", "con", "co", "a/", "CON", "src/"];
    const { alphabet, paths } = languages(globs, prefixes, values);
    let possible = 0;
    for (const v of values) {
      expect(isSimple(v), v).toBe(true);
      const symbols = alphabet.symbols(v);
      expect(accepts(paths.simple, symbols), v).toBe(true);
      const languagesOf: [unknown, { certain: Dfa; possible: Dfa }][] = [
        ...globs.map((g) => [{ glob: g }, paths.glob([g])] as [unknown, { certain: Dfa; possible: Dfa }]),
        ...prefixes.map(
          (p) => [{ path_prefix: p }, paths.pathPrefix(p)] as [unknown, { certain: Dfa; possible: Dfa }],
        ),
      ];
      for (const [spec, lang] of languagesOf) {
        const compiled = compileCondition({ f: spec as never });
        if (!compiled.ok) throw new Error(JSON.stringify(spec));
        const truth = compiled.condition({ f: v });
        expect(accepts(lang.certain, symbols), `${JSON.stringify(spec)} certain ${v}`).toBe(truth === 1);
        expect(accepts(lang.possible, symbols), `${JSON.stringify(spec)} possible ${v}`).toBe(truth !== 0);
        if (truth === 2) possible++;
      }
    }
    // Most of the answers on these paths are maybes: a glob or a prefix is never certain of them.
    expect(possible).toBeGreaterThan(100);
  });

  it("gives path_prefix's answers on simple paths", () => {
    fc.assert(
      fc.property(prefix, fc.array(path, { minLength: 1, maxLength: 20 }), (p, values) => {
        const compiled = compileCondition({ f: { path_prefix: p } });
        if (!compiled.ok) return;
        const { alphabet, paths } = languages([], [p], values);
        const { certain, possible } = paths.pathPrefix(p);
        for (const v of values) {
          if (!isSimple(v)) continue;
          const truth = compiled.condition({ f: v });
          const symbols = alphabet.symbols(v);
          expect(accepts(certain, symbols), `${p} certain ${JSON.stringify(v)}`).toBe(truth === 1);
          expect(accepts(possible, symbols), `${p} possible ${JSON.stringify(v)}`).toBe(truth !== 0);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("PathLanguages: strings on which an operator is never false", () => {
  // Any string at all, modelled or not: the runtime's readings of each (Windows, short names, dot segments).
  const anyPath = fc
    .array(fc.constantFrom(...CHARS, "..", "PROGRA~1", "C:", "//", "\\\\", "%2e", "\u0000"), { maxLength: 8 })
    .map((cs) => cs.join(""));
  const absoluteGlob = fc.constantFrom("/**", "/*", "/**/*", "**", "/a/**", "{/**,a}", "/[!a]*/**");

  it("a glob that may match every absolute reading is never false on a string that starts with /", () => {
    let used = 0;
    fc.assert(
      fc.property(
        fc.array(absoluteGlob, { minLength: 1, maxLength: 2 }),
        fc.array(anyPath, { maxLength: 20 }),
        (globs, tails) => {
          const compiled = compileCondition({ f: { glob: globs } });
          if (!compiled.ok) return;
          const values = tails.flatMap((t) => [`/${t}`, t]);
          const { alphabet, paths } = languages(globs, [], values);
          const { neverFalse } = paths.glob(globs);
          for (const v of values) {
            if (!accepts(neverFalse, alphabet.symbols(v))) continue;
            used++;
            expect(compiled.condition({ f: v }), `${globs} on ${JSON.stringify(v)}`).not.toBe(0);
          }
        },
      ),
      { numRuns: 300 },
    );
    expect(used).toBeGreaterThan(0);
  });

  it("a glob of a file name anywhere is never false on a string whose last segment it names", () => {
    const fileGlob = fc.constantFrom(
      "**/*.pem",
      "**/.env*",
      "**/id_rsa*",
      "**/a",
      "**/*",
      "**/.*",
      "**/*a*",
      "**/..a",
      "**/k*",
      "**/S.PEM",
      "**/*.{sh,exe,bat}",
      "**/*.{a,b}",
      "**/{a,.env}",
      "**/a.{b,}",
      "**/*.{pem,}",
    );
    let used = 0;
    fc.assert(
      fc.property(fileGlob, fc.array(anyPath, { maxLength: 20 }), (g, heads) => {
        const compiled = compileCondition({ f: { glob: [g] } });
        if (!compiled.ok) return;
        const names = [
          "x.pem",
          ".env",
          ".env.local",
          "id_rsa.pub",
          "a",
          ".",
          "..",
          "",
          ".a",
          "..a",
          "b",
          // Spelt in other cases: the runtime's reading ignoring case matches them.
          "X.PEM",
          "s.Pem",
          ".ENV",
          "ID_RSA",
          "A",
          "..A",
          "\u212ay",
          "K.pem",
          "\u017f.pem",
          // Dots and blanks after the name, which the Windows reading drops.
          "a.exe",
          "a.EXE.",
          "x.pem. ",
          "b.sh . ",
          "a.b..",
          "a. ",
          ". .",
          "a.ſh.",
          // A `:` ends the Windows name and a `\` separates there: the dots after them are not dropped from it.
          "aa:..a.",
          "aa:a.",
          "b:x.pem.",
          "x\\ya.",
          "a\\b.sh.",
        ];
        const values = heads.flatMap((h, i) => [
          `${h}/${names[i % names.length]}`,
          `${h}${names[i % names.length]}`,
        ]);
        const { alphabet, paths } = languages([g], [], values);
        const { neverFalse } = paths.glob([g]);
        for (const v of values) {
          if (!accepts(neverFalse, alphabet.symbols(v))) continue;
          used++;
          expect(compiled.condition({ f: v }), `${g} on ${JSON.stringify(v)}`).not.toBe(0);
        }
      }),
      { numRuns: 400 },
    );
    expect(used).toBeGreaterThan(0);
  });

  it("reads no trailing dot away from a last segment that holds a `:` or a `\\`", () => {
    // Found by the property above: `aa:a.` is the file `aa` on Windows, `a.` on POSIX, and `*.a` matches neither.
    const cases: [string, string, boolean][] = [
      ["**/*.{a,b}", "aa:..a.", false],
      ["**/*.a", "aa:a.", false],
      ["**/*.a", "b/aa:..a.", false],
      ["**/a", "x\\ya.", false],
      ["**/*.a", "x.a.", true],
      ["**/*.a", "c/x.a. ", true],
      ["**/*.a", "aa:..a", true],
    ];
    for (const [g, v, never] of cases) {
      const compiled = compileCondition({ f: { glob: [g] } });
      if (!compiled.ok) throw new Error(compiled.message);
      const { alphabet, paths } = languages([g], [], [v]);
      expect(accepts(paths.glob([g]).neverFalse, alphabet.symbols(v)), `${g} on ${JSON.stringify(v)}`).toBe(
        never,
      );
      if (never) expect(compiled.condition({ f: v })).not.toBe(0);
      else expect(compiled.condition({ f: v })).toBe(0);
    }
  });

  it("a glob of a folder anywhere is never false on a string with that folder and something under it", () => {
    const folderGlob = fc.constantFrom(
      "**/.ssh/**",
      "**/.*/**",
      "**/a/**",
      "**/*/**",
      "**/..a/**",
      "**/S*/**",
    );
    // Folders, then what may follow them: names, dot segments, empty segments, other separators.
    const folders = [".ssh", ".SSH", ".a", "..a", ".", "..", "", "a", "A", "\u017fa", ".\u017f\u017fh", "b"];
    const under = [
      "x",
      "",
      ".",
      "..",
      "x/..",
      "x/../..",
      "./x",
      "x/",
      "x//y",
      "..x",
      "x\\..\\..",
      "x/.",
      "\u0000",
    ];
    let used = 0;
    let kept = 0;
    fc.assert(
      fc.property(folderGlob, fc.array(anyPath, { maxLength: 12 }), (g, heads) => {
        const compiled = compileCondition({ f: { glob: [g] } });
        if (!compiled.ok) return;
        const values = heads.flatMap((h, i) => {
          const folder = folders[i % folders.length] as string;
          return under.map((u) => `${h}/${folder}/${u}`).concat(under.map((u) => `${folder}/${u}`));
        });
        const { alphabet, paths } = languages([g], [], values);
        const { neverFalse } = paths.glob([g]);
        for (const v of values) {
          if (!accepts(neverFalse, alphabet.symbols(v))) continue;
          used++;
          expect(compiled.condition({ f: v }), `${g} on ${JSON.stringify(v)}`).not.toBe(0);
        }
        kept += values.length;
      }),
      { numRuns: 300 },
    );
    expect(used).toBeGreaterThan(kept / 20);
    // Nothing under the folder, a `..` after it, or the folder a dot segment: the reading may lose it.
    const { alphabet, paths } = languages(["**/.*/**"], [], []);
    const never = (v: string) => accepts(paths.glob(["**/.*/**"]).neverFalse, alphabet.symbols(v));
    expect(["a/.x/b", ".x/b", "vendor/..x/y/", "/.x/b", ".x//b"].map(never)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(["a/.x", "a/.x/", "a/.x/.", "a/.x/b/..", "../b", "./b", "a/.x/b/../.."].map(never)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it("a glob of all under a folder named from the start is never false on a string in normal form under it", () => {
    const underGlob = fc.constantFrom("a/**", "a/b/**", ".a/**", "a.b/**", "A/**", "a-1/_x/**");
    const folders = ["a", "a/b", ".a", "a.b", "A", "a-1/_x", "b"];
    let used = 0;
    fc.assert(
      fc.property(underGlob, fc.array(anyPath, { maxLength: 12 }), (g, tails) => {
        const compiled = compileCondition({ f: { glob: [g] } });
        if (!compiled.ok) return;
        const values = tails.flatMap((t, i) => {
          const folder = folders[i % folders.length] as string;
          return [`${folder}/${t}`, folder, `${folder}${t}`, t];
        });
        const { alphabet, paths } = languages([g], [], values);
        const { neverFalse } = paths.glob([g]);
        for (const v of values) {
          if (!accepts(neverFalse, alphabet.symbols(v))) continue;
          used++;
          expect(compiled.condition({ f: v }), `${g} on ${JSON.stringify(v)}`).not.toBe(0);
        }
      }),
      { numRuns: 300 },
    );
    expect(used).toBeGreaterThan(0);
    const { alphabet, paths } = languages(["src/**"], [], []);
    const never = (v: string) => accepts(paths.glob(["src/**"]).neverFalse, alphabet.symbols(v));
    // In normal form under it, the folder itself included; not another spelling, case, or a name that only starts so.
    expect(
      ["src/a", "src", "src/.env", "src/a/../b", "./src/a", "SRC/a", "srcx/a", "src//a", "/src/a"].map(never),
    ).toEqual([true, true, true, false, false, false, false, false, false]);
  });

  it("a glob or path_prefix is true only on strings its certainAnywhere holds (plain paths may be)", () => {
    const operator = fc.oneof(
      fc.array(absoluteGlob, { minLength: 1, maxLength: 2 }).map((g) => ({ glob: g })),
      fc
        .constantFrom(
          "**",
          "a/**",
          "*",
          "**/a",
          ".*",
          "{a,b}/**/*.{a,b}",
          "a/[ab]",
          "*.a",
          "a/?",
          "[!a]*",
          "a/b",
        )
        .map((g) => ({ glob: g })),
      fc.constantFrom(["a/*.a", "b/**/b"], ["{a,b}/*", "**/.a"]).map((g) => ({ glob: g })),
      prefix.map((p) => ({ path_prefix: p })),
    );
    let truths = 0;
    fc.assert(
      fc.property(operator, fc.array(anyPath, { maxLength: 30 }), (op, tails) => {
        const compiled = compileCondition({ f: op });
        if (!compiled.ok) return;
        const globs = "glob" in op ? (typeof op.glob === "string" ? [op.glob] : op.glob) : [];
        const prefixes = "path_prefix" in op ? [op.path_prefix] : [];
        // After a prefix too, where `..`, `.` and empty segments keep it from being certain.
        const values = [...tails, ...prefixes.flatMap((p) => tails.map((t) => `${p}${t}`))];
        const { alphabet, paths } = languages(globs, prefixes, values);
        const { certainAnywhere } =
          "glob" in op ? paths.glob(globs) : paths.pathPrefix(op.path_prefix as string);
        for (const v of values) {
          if (compiled.condition({ f: v }) !== 1) continue;
          truths++;
          expect(
            accepts(certainAnywhere, alphabet.symbols(v)),
            `${JSON.stringify(op)} on ${JSON.stringify(v)}`,
          ).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
    expect(truths).toBeGreaterThan(0);
  });

  it("a glob that names a file anywhere is never false where the last segment is that file, and only there", () => {
    const cases: [string, string, boolean][] = [
      ["**/ab", "x/ab", true],
      ["**/ab", "ab", true],
      ["**/*.pem", "x/a.pem", true],
      ["**/*.pem", "x/a.pem/b", false],
      ["**/a.pem/b", "x/a.pem", false],
      ["**/a.pem/b", "a.pem", false],
      ["**/*.pem", "x/KEY.PEM", true],
      ["**/*.pem", "x/KEY.PEM~", false],
      ["**/.env*", ".ENV.local", true],
    ];
    for (const [glob, value, never] of cases) {
      const { alphabet, paths } = languages([glob], [], [value]);
      expect(accepts(paths.glob([glob]).neverFalse, alphabet.symbols(value)), `${glob} on ${value}`).toBe(
        never,
      );
    }
  });

  it("reads `?` and classes in a glob's last part: certain of no other last segment, and of every one the runtime is", () => {
    // Each case: a glob, a path, whether the glob may be certain there (certainAnywhere; where it is, the runtime is).
    const cases: [string, string, boolean][] = [
      ["src/*.[tj]s", "src/a.ts", true],
      ["src/*.[tj]s", "src/a.js", true],
      ["src/*.[tj]s", "src/a.cs", false],
      ["docs/?.md", "docs/a.md", true],
      ["docs/?.md", "docs/ab.md", false],
      ["src/[!a]x.ts", "src/bx.ts", true],
      ["src/[!a]x.ts", "src/ax.ts", false],
      ["x/[a-c1]z.md", "x/1z.md", true],
      ["x/[a-c1]z.md", "x/dz.md", false],
      ["x/[^b]z.md", "x/cz.md", true],
      ["x/[^b]z.md", "x/bz.md", false],
      ["x/{a,[b_]z}.md", "x/_z.md", true],
      ["x/{a,[b_]z}.md", "x/cz.md", false],
    ];
    for (const [glob, value, may] of cases) {
      const { alphabet, paths } = languages([glob], [], [value]);
      const compiled = compileCondition({ f: { glob } });
      if (!compiled.ok) throw new TypeError(`${glob} compiles`);
      if (may) expect(compiled.condition({ f: value }), `${glob} on ${value} (runtime)`).toBe(1);
      expect(
        accepts(paths.glob([glob]).certainAnywhere, alphabet.symbols(value)),
        `${glob} on ${value}`,
      ).toBe(may);
    }
    // Classes the runtime may read otherwise than a pattern would (an escape, a dash at an end, a star): wherever
    // the runtime is certain, certainAnywhere holds the path.
    for (const glob of ["x/[\\d]z.md", "x/[a-]z.md", "x/[.-]z.md", "x/[a*]z.md", "x/[!-a]z.md"]) {
      if (!compileGlob(glob).ok) continue;
      for (const value of ["x/dz.md", "x/5z.md", "x/-z.md", "x/az.md", "x/*z.md", "x/.z.md", "x/bz.md"]) {
        const { alphabet, paths } = languages([glob], [], [value]);
        const compiled = compileCondition({ f: { glob } });
        if (!compiled.ok || compiled.condition({ f: value }) !== 1) continue;
        expect(
          accepts(paths.glob([glob]).certainAnywhere, alphabet.symbols(value)),
          `${glob} on ${value}`,
        ).toBe(true);
      }
    }
  });

  it("cuts the alphabet for the globs that compile and skips one that does not", () => {
    const builder = new AlphabetBuilder();
    expect(() => PathLanguages.addBoundaries(builder, ["a[", "**/q.pem"], [])).not.toThrow();
    const alphabet = builder.build();
    expect(alphabet.single(alphabet.symbolOf(0x71))).toBe(true);
  });

  it("a glob that misses some absolute reading claims nothing", () => {
    for (const globs of [["/a/**"], ["/*"], ["**/x"]]) {
      const { alphabet, paths } = languages(globs, [], ["/b/c"]);
      expect(accepts(paths.glob(globs).neverFalse, alphabet.symbols("/b/c")), `${globs}`).toBe(false);
    }
    const { alphabet, paths } = languages(["/**"], [], ["/b/c"]);
    expect(accepts(paths.glob(["/**"]).neverFalse, alphabet.symbols("/b/c"))).toBe(true);
  });

  it("a path_prefix is never false on a string that starts with its text", () => {
    fc.assert(
      fc.property(prefix, fc.array(anyPath, { minLength: 1, maxLength: 20 }), (p, tails) => {
        const compiled = compileCondition({ f: { path_prefix: p } });
        if (!compiled.ok) return;
        const values = tails.flatMap((t) => [`${p}${t}`, t]);
        const { alphabet, paths } = languages([], [p], values);
        const { neverFalse } = paths.pathPrefix(p);
        for (const v of values) {
          const claimed = accepts(neverFalse, alphabet.symbols(v));
          // A prefix ending in `/` names a folder, the folder itself included.
          const folder = p.length > 1 && p.endsWith("/") && v === p.slice(0, -1);
          expect(claimed, `${p} on ${JSON.stringify(v)}`).toBe(v.startsWith(p) || folder);
          if (claimed) expect(compiled.condition({ f: v }), `${p} on ${JSON.stringify(v)}`).not.toBe(0);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("PathLanguages on every short path", () => {
  const LETTERS = ["a", "b", "A", "/", "."];
  const ALL: string[] = [""];
  let layer = [""];
  for (let n = 1; n <= 4; n++) {
    layer = layer.flatMap((s) => LETTERS.map((c) => s + c));
    ALL.push(...layer);
  }
  const SIMPLE = ALL.filter(isSimple);

  it("gives the glob operator's answers on every simple path of up to 4 of a, b, A, /, .", () => {
    fc.assert(
      fc.property(fc.array(glob, { minLength: 1, maxLength: 2 }), (globs) => {
        if (!globs.every((g) => compileGlob(g).ok)) return;
        const compiled = compileCondition({ f: { glob: globs } });
        if (!compiled.ok) return;
        const { alphabet, paths } = languages(globs, [], LETTERS);
        const { certain, possible } = paths.glob(globs);
        const wrong = SIMPLE.filter((v) => {
          const truth = compiled.condition({ f: v });
          const symbols = alphabet.symbols(v);
          return accepts(certain, symbols) !== (truth === 1) || accepts(possible, symbols) !== (truth !== 0);
        });
        expect(wrong.slice(0, 5), JSON.stringify(globs)).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it("gives path_prefix's answers on every simple path of up to 4 of a, b, A, /, .", () => {
    for (const p of ["a", "a/", "A", "a/b", "/a", "/", "b.a", "a/b/"]) {
      const compiled = compileCondition({ f: { path_prefix: p } });
      if (!compiled.ok) continue;
      const { alphabet, paths } = languages([], [p], LETTERS);
      const { certain, possible } = paths.pathPrefix(p);
      const wrong = SIMPLE.filter((v) => {
        const truth = compiled.condition({ f: v });
        const symbols = alphabet.symbols(v);
        return accepts(certain, symbols) !== (truth === 1) || accepts(possible, symbols) !== (truth !== 0);
      });
      expect(wrong.slice(0, 5), p).toEqual([]);
    }
  });
});

describe("PathLanguages over one set of automata", () => {
  const LETTERS = ["a", "b", "A", "/", "."];
  const SIMPLE = allStrings(LETTERS, 4).filter(isSimple);

  it("answers each of several glob operators with its own languages, in any order", () => {
    // The automata are shared (and memoised) across the operators of one verification: one operator's
    // languages must never stand for another's.
    const lists = [["a"], ["b"], ["a", "b"], ["*"], ["a/**"], ["/a"], ["A"], ["a"]];
    const { alphabet, paths } = languages(lists.flat(), [], LETTERS);
    for (const globs of lists) {
      const compiled = compileCondition({ f: { glob: globs } });
      if (!compiled.ok) throw new Error(`${globs} does not compile`);
      const { certain, possible } = paths.glob(globs);
      const readings = paths.globReadings(globs);
      const wrong = SIMPLE.filter((v) => {
        const truth = compiled.condition({ f: v });
        const symbols = alphabet.symbols(v);
        return accepts(certain, symbols) !== (truth === 1) || accepts(possible, symbols) !== (truth !== 0);
      });
      expect(wrong.slice(0, 5), JSON.stringify(globs)).toEqual([]);
      // The readings' certain language is the globs' exact patterns over the rooted text.
      for (const v of SIMPLE) {
        const symbols = alphabet.symbols(rootedPath(v));
        expect(accepts(readings.certain, symbols), `${globs} reading ${v}`).toBe(
          globs.some((g) => (compileGlob(g) as { glob: { test(p: string): boolean } }).glob.test(v)),
        );
      }
    }
  });

  it("reads certain and possible as different languages of one glob", () => {
    const { alphabet, paths } = languages(["a/b"], [], LETTERS);
    const readings = paths.globReadings(["a/b"]);
    expect(accepts(readings.certain, alphabet.symbols("a/b"))).toBe(true);
    expect(accepts(readings.certain, alphabet.symbols("A/b"))).toBe(false);
    expect(accepts(readings.possible, alphabet.symbols("A/b"))).toBe(true);
    expect(accepts(readings.possible, alphabet.symbols("b/b"))).toBe(false);
  });

  it("refuses a glob that does not compile, naming it", () => {
    const { paths } = languages(["a/["], [], LETTERS);
    expect(() => paths.glob(["a/["])).toThrow(TooComplex);
    expect(() => paths.globReadings(["a", "a/["])).toThrow(/glob a\/\[ does not compile: ./);
  });
});

describe("PathLanguages.globReadings on reading texts", () => {
  // Reading texts are not only simple paths: a character above U+FFFF is one character to `?` (flag u).
  const LETTERS = ["a", "A", "k", "\u212a", "/", "\u{1f600}"];
  const TEXTS = allStrings(LETTERS, 3);

  for (const g of ["?", "??", "a?", "*", "/?", "**/?", "k", "[!a]", "?/*"]) {
    it(`certain is the glob's test and possible its mayMatch on every text of up to 3 characters (${g})`, () => {
      const compiled = compileGlob(g);
      if (!compiled.ok) throw new Error(`${g} does not compile`);
      const { alphabet, paths } = languages([g], [], LETTERS);
      const { certain, possible } = paths.globReadings([g]);
      const wrong = TEXTS.filter((v) => {
        const symbols = alphabet.symbols(rootedPath(v));
        return (
          accepts(certain, symbols) !== compiled.glob.test(v) ||
          accepts(possible, symbols) !== compiled.glob.mayMatch(v)
        );
      });
      expect(wrong.slice(0, 5)).toEqual([]);
    });
  }

  it("reads a character above U+FFFF as one character", () => {
    const { alphabet, paths } = languages(["?", "??"], [], ["\u{1f600}"]);
    const one = paths.globReadings(["?"]);
    const two = paths.globReadings(["??"]);
    const smiley = alphabet.symbols("\u{1f600}");
    expect(accepts(one.certain, smiley)).toBe(true);
    expect(accepts(one.possible, smiley)).toBe(true);
    expect(accepts(two.certain, smiley)).toBe(false);
    expect(accepts(two.possible, smiley)).toBe(false);
  });
});

/** Every string over `letters` of at most `max` characters. */
function allStrings(letters: readonly string[], max: number): string[] {
  const out = [""];
  let layer = [""];
  for (let n = 1; n <= max; n++) {
    layer = layer.flatMap((s) => letters.map((c) => s + c));
    out.push(...layer);
  }
  return out;
}
