import { describe, expect, it } from "vitest";
import { compileGlob, type Glob } from "../../../src/runtime/match/glob.js";
import { GlobSet, matchPathGlobs } from "../../../src/runtime/match/glob-paths.js";

function glob(pattern: string): Glob {
  const compiled = compileGlob(pattern);
  if (!compiled.ok) throw new Error(`${pattern}: ${compiled.message}`);
  return compiled.glob;
}

describe("GlobSet answers each glob as matchPathGlobs does", () => {
  it("tells a certain match from a possible one", () => {
    const set = new GlobSet([glob("**/.env*"), glob("/**"), glob("**/.ssh/**")]);
    expect([...set.match("config/.env").answers]).toEqual([1, 0, 0]);
    expect([...set.match("config/.ENV").answers]).toEqual([2, 0, 0]);
    // An absolute path is never plain: at most possible.
    expect([...set.match("/home/u/.ssh/id").answers]).toEqual([0, 2, 2]);
    expect([...set.match("src/index.ts").answers]).toEqual([0, 0, 0]);
  });
});

describe("GlobSet on a fixed grid of globs and paths", () => {
  // Globs and paths that reach every branch of the set: exact and case-folded hits, a glob spelt differently in
  // NFC (matched on its own), short names (unknown segments), several readings, "anywhere", absolute paths.
  const GLOBS = [
    "**/.env*",
    "**/.ssh/**",
    "**/*.pem",
    "/**",
    "src/**/*.ts",
    "{a,b}/?.[!x]",
    "*/*",
    "docs/**",
    "**/Caf\u00e9/*",
    "**/Cafe\u0301/*",
    "[A-Z]*/**",
    "**/.git/**",
    "src/*.ts",
    "**/id_rsa",
  ];
  const PATHS = [
    "config/.env",
    "config/.ENV",
    "CONFIG/.Env.local",
    "src/index.ts",
    "src/a/b.ts",
    "SRC/a.TS",
    "a/b.c",
    "b/x.x",
    "docs/con.txt",
    "Docs/a.md",
    "/home/u/.ssh/id",
    "C:\\Users\\u\\.ssh\\id_rsa",
    "\\\\srv\\share\\x.pem",
    "PROGRA~1/x.pem",
    "GIT~1/config",
    "src/GIT~1",
    "Caf\u00e9/x",
    "Cafe\u0301/x",
    "caf\u00c9/x",
    ".env.",
    "src\\a.ts",
    "../x",
    "a\u0000b",
    "key.PEM",
    "x/id_rsa",
    "x/ID_RSA",
    "/",
    "notes.txt",
  ];

  function alone(globs: readonly Glob[], path: string): number[] {
    return globs.map((g) => {
      const m = matchPathGlobs([g], path);
      return m.certain ? 1 : m.possible ? 2 : 0;
    });
  }

  it("answers each glob of the whole set as matchPathGlobs does, path after path", () => {
    const compiled = GLOBS.map(glob);
    const set = new GlobSet(compiled);
    for (const path of [...PATHS, ...PATHS.slice().reverse()]) {
      const expected = alone(compiled, path);
      const { answers, hits } = set.match(path);
      expect([...answers], path).toEqual(expected);
      expect(
        [...hits].sort((x, y) => x - y),
        path,
      ).toEqual(expected.flatMap((a, i) => (a === 0 ? [] : [i])));
    }
  });

  it("answers each glob alone in a set of its own", () => {
    for (const pattern of GLOBS) {
      const set = new GlobSet([glob(pattern)]);
      for (const path of PATHS)
        expect([...set.match(path).answers], `${pattern} on ${path}`).toEqual(alone([glob(pattern)], path));
    }
  });

  it("a short name is a maybe for every glob a long name in its place may match, and for no other", () => {
    const set = new GlobSet([glob("**/.git/**"), glob("src/*.ts"), glob("docs/**"), glob("/**")]);
    // `GIT~1` may be any long name: `.git` or `docs` alike.
    expect([...set.match("GIT~1/config").answers]).toEqual([2, 0, 2, 0]);
    // `src/GIT~1` may be `src/.git` as well as `src/x.ts`.
    expect([...set.match("src/GIT~1").answers]).toEqual([2, 2, 0, 0]);
    expect([...set.match("lib/GIT~1").answers]).toEqual([2, 0, 0, 0]);
    expect([...set.match("\\\\?\\C:\\PROGRA~1\\x").answers]).toEqual([2, 0, 0, 2]);
  });

  it("a case-folded match of a Windows reading is a maybe behind the glob's literal prefix and suffix", () => {
    const set = new GlobSet([glob("x/**/.ENV"), glob("X/*.env")]);
    expect([...set.match("x\\a\\.env").answers]).toEqual([2, 0]);
    expect([...set.match("x\\a.ENV").answers]).toEqual([0, 2]);
    expect([...set.match("y\\a\\.env").answers]).toEqual([0, 0]);
  });

  it("a path that may name any file is a maybe for every glob", () => {
    const set = new GlobSet([glob("src/**"), glob("/etc/**")]);
    expect([...set.match("../x").answers]).toEqual([2, 2]);
    expect([...set.match("src/a.ts").answers]).toEqual([1, 0]);
    expect([...set.match("C:x").answers]).toEqual([2, 2]);
  });

  it("a glob spelt differently in NFC is matched on its own, as matchPathGlobs does", () => {
    const set = new GlobSet([glob("**/Cafe\u0301/*"), glob("**/x")]);
    expect([...set.match("Caf\u00e9/x").answers]).toEqual([2, 1]);
    // An NFD path is no plain path: every match is a maybe.
    expect([...set.match("Cafe\u0301/x").answers]).toEqual([2, 2]);
    expect([...set.match("src/y").answers]).toEqual([0, 0]);
  });

  it("a glob of another making (any object with the Glob methods) is matched on its own", () => {
    const inner = glob("**/.env*");
    const wrapped: Glob = {
      source: inner.source,
      test: (path) => inner.test(path),
      mayMatch: (path, folded) => inner.mayMatch(path, folded),
      mayMatchTemplate: (template) => inner.mayMatchTemplate(template),
    };
    const set = new GlobSet([wrapped, glob("src/**")]);
    expect([...set.match("config/.env").answers]).toEqual([1, 0]);
    expect([...set.match("config/.ENV").answers]).toEqual([2, 0]);
    expect([...set.match("SRC~1/.env").answers]).toEqual([2, 2]);
    expect([...set.match("src\\.env").answers]).toEqual([2, 2]);
    expect([...set.match("src/a").answers]).toEqual([0, 1]);
  });

  it("an exact match of a plain path is certain although the case-folded pattern matches too", () => {
    const set = new GlobSet([glob("x/y"), glob("**/Y"), glob("*/y")]);
    const { answers, hits } = set.match("x/y");
    expect([...answers]).toEqual([1, 2, 1]);
    expect([...hits].sort()).toEqual([0, 1, 2]);
    expect([...set.match("X/Y").answers]).toEqual([2, 1, 2]);
  });
});

describe("GlobSet on a glob whose automaton passes the work bound", () => {
  // `*a` then 16 `?`: a state per set of the last 17 characters that were `a`, so a long segment of random `a`s
  // and `b`s passes through more states than the bounded engine would pay for. The set answers exactly (as
  // matchPathGlobs does), never a maybe for a path the glob cannot match.
  it("answers a miss as a miss", () => {
    let x = 11;
    let segment = "";
    for (let i = 0; i < 20_000; i++) {
      x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
      segment += x & 0x10000 ? "a" : "b";
    }
    const pattern = `**/*a${"?".repeat(16)}`;
    for (const [path, expected] of [
      [`d/${segment}${"b".repeat(17)}`, 0],
      [`d/${segment}a${"b".repeat(16)}`, 1],
    ] as const) {
      const set = new GlobSet([glob(pattern), glob("**/*.ts")]);
      expect(set.match(path).answers[0]).toBe(expected);
      expect(matchPathGlobs([glob(pattern)], path).possible).toBe(expected === 1);
    }
  });
});
