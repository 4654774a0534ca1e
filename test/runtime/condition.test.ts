/**
 * Conditions in three values, operator by operator, through the public `compileCondition`: `1` certainly,
 * `0` certainly not, `2` maybe. The cases pin each combination a broken core could get wrong — the AND over
 * fields and over operators (a false anywhere wins, a maybe beats a true), `not` keeping a maybe, and the
 * "maybe" of each operator for a value it cannot judge.
 */
import { type ConditionSpec, compileCondition } from "toolgate/runtime";
import { describe, expect, it } from "vitest";

const TRUE = 1;
const FALSE = 0;
const MAYBE = 2;

function compiled(spec: ConditionSpec): (subject: unknown) => number {
  const result = compileCondition(spec);
  if (!result.ok) throw new Error(`condition did not compile: ${JSON.stringify(result.problems)}`);
  return result.condition;
}

describe("the AND over fields", () => {
  const both = compiled({ a: { equals: 1 }, b: { equals: 2 } });

  it("is true only when every field holds, whichever field fails", () => {
    expect(both({ a: 1, b: 2 })).toBe(TRUE);
    expect(both({ a: 0, b: 2 })).toBe(FALSE); // the first field fails, the last holds
    expect(both({ a: 1, b: 0 })).toBe(FALSE);
    expect(both({ a: 0, b: 0 })).toBe(FALSE);
  });

  it("keeps a maybe from any field, and a false anywhere beats it", () => {
    const c = compiled({ a: { regex: "x" }, b: { equals: 2 }, c: { equals: 3 } });
    expect(c({ a: 5, b: 2, c: 3 })).toBe(MAYBE); // a regex cannot judge a number
    expect(c({ a: 5, b: 0, c: 3 })).toBe(FALSE);
    expect(c({ a: 5, b: 2, c: 0 })).toBe(FALSE);
    expect(c({ a: "x", b: 2, c: 3 })).toBe(TRUE);
    const maybeLast = compiled({ a: { equals: 1 }, b: { regex: "x" } });
    expect(maybeLast({ a: 1, b: 5 })).toBe(MAYBE);
    expect(maybeLast({ a: 0, b: 5 })).toBe(FALSE);
  });

  it("an empty condition always holds", () => {
    expect(compiled({})({})).toBe(TRUE);
    expect(compiled({})(null)).toBe(TRUE);
  });

  it("reads fields of a plain object only: a string's or a list's own length and indexes are no fields", () => {
    for (const spec of [{ length: { equals: 2 } }, { "0": { equals: "a" } }] as ConditionSpec[]) {
      const condition = compiled(spec);
      expect(condition("ab")).toBe(FALSE);
      expect(condition(["a", "b"])).toBe(FALSE);
    }
    expect(compiled({ length: { equals: 2 } })({ length: 2 })).toBe(TRUE);
    expect(compiled({ "0": { equals: "a" } })({ "0": "a" })).toBe(TRUE);
    // A path of two steps reads through the same rule.
    expect(compiled({ "s.length": { equals: 2 } })({ s: "ab" })).toBe(FALSE);
    expect(compiled({ "s.length": { equals: 2 } })({ s: { length: 2 } })).toBe(TRUE);
  });
});

describe("the AND over operators of one field", () => {
  it("needs every operator", () => {
    const range = compiled({ n: { min: 1, max: 5 } });
    expect(range({ n: 3 })).toBe(TRUE);
    expect(range({ n: 0 })).toBe(FALSE);
    expect(range({ n: 9 })).toBe(FALSE);
  });

  it("a maybe with a true is a maybe; with a false, false", () => {
    const c = compiled({ p: { path_prefix: "src/", regex: "a" } });
    expect(c({ p: "src/a" })).toBe(TRUE);
    expect(c({ p: "./src/a" })).toBe(MAYBE); // not in normal path form: path_prefix is a maybe
    expect(c({ p: "./src/b" })).toBe(FALSE);
    expect(c({ p: "lib/a" })).toBe(FALSE);
  });
});

describe("not", () => {
  const c = compiled({ p: { not: { regex: "^a" } } });
  it("swaps true and false and keeps a maybe", () => {
    expect(c({ p: "abc" })).toBe(FALSE);
    expect(c({ p: "xbc" })).toBe(TRUE);
    expect(c({ p: 7 })).toBe(MAYBE);
  });
  it("is true for a missing field", () => {
    expect(c({})).toBe(TRUE);
  });
});

describe("exists", () => {
  it("true asks for the field, false for its absence; null counts as present", () => {
    const present = compiled({ f: { exists: true } });
    const absent = compiled({ f: { exists: false } });
    expect(present({ f: null })).toBe(TRUE);
    expect(present({})).toBe(FALSE);
    expect(absent({})).toBe(TRUE);
    expect(absent({ f: 0 })).toBe(FALSE);
  });
});

describe("equals and in", () => {
  it("compares scalars exactly", () => {
    const c = compiled({ v: { equals: 1 } });
    expect(c({ v: 1 })).toBe(TRUE);
    expect(c({ v: "1" })).toBe(FALSE);
    expect(c({})).toBe(FALSE);
    expect(compiled({ v: { equals: null } })({})).toBe(FALSE);
    expect(compiled({ v: { equals: null } })({ v: null })).toBe(TRUE);
  });

  it("compares structures as JSON: keys in any order, arrays in order", () => {
    const c = compiled({ v: { equals: { a: 1, b: [1, 2] } } });
    expect(c({ v: { b: [1, 2], a: 1 } })).toBe(TRUE);
    expect(c({ v: { a: 1, b: [2, 1] } })).toBe(FALSE);
    expect(c({ v: "x" })).toBe(FALSE);
    expect(c({ v: null })).toBe(FALSE);
    expect(c({})).toBe(FALSE);
  });

  it("a value that cannot be written as JSON (a cycle) equals nothing", () => {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    expect(compiled({ v: { equals: { a: 1 } } })({ v: cycle })).toBe(FALSE);
  });

  it("in matches any listed value, structures included", () => {
    const c = compiled({ v: { in: ["GET", { a: 1 }] } });
    expect(c({ v: "GET" })).toBe(TRUE);
    expect(c({ v: { a: 1 } })).toBe(TRUE);
    expect(c({ v: "POST" })).toBe(FALSE);
    expect(c({})).toBe(FALSE);
  });
});

describe("path_prefix", () => {
  const c = compiled({ p: { path_prefix: "src/" } });
  it("is certain only for a path already in normal form", () => {
    expect(c({ p: "src/a.ts" })).toBe(TRUE);
    expect(c({ p: "lib/a.ts" })).toBe(FALSE);
    expect(c({ p: "src//a.ts" })).toBe(MAYBE);
    expect(c({ p: "./src/a.ts" })).toBe(MAYBE);
    expect(c({ p: "lib/../src/a.ts" })).toBe(MAYBE); // its normal form starts with src/
  });
  it("a path that climbs out may be anywhere; a non-normal path elsewhere is false", () => {
    expect(c({ p: "../x" })).toBe(MAYBE);
    expect(c({ p: "./lib/a.ts" })).toBe(FALSE);
  });
  it("a prefix ending in / names the folder itself as well as everything under it", () => {
    expect(c({ p: "src" })).toBe(TRUE);
    expect(c({ p: "src/" })).toBe(MAYBE); // not in normal form, whose normal form is the folder
    expect(c({ p: "./src" })).toBe(MAYBE);
    expect(c({ p: "lib/../src" })).toBe(MAYBE);
    expect(c({ p: "SRC" })).toBe(MAYBE);
    expect(c({ p: "srcx" })).toBe(FALSE);
    expect(c({ p: "sr" })).toBe(FALSE);
    const abs = compiled({ p: { path_prefix: "/srv/secrets/" } });
    expect(abs({ p: "/srv/secrets" })).toBe(MAYBE); // absolute: never plain, but the folder is matched
    expect(abs({ p: "/srv/secretsx" })).toBe(FALSE);
    // Without the slash the prefix is text: `src` matches `src`, `src/a` and `src-old/a` alike.
    const bare = compiled({ p: { path_prefix: "src" } });
    expect(bare({ p: "src" })).toBe(TRUE);
    expect(bare({ p: "src-old/a" })).toBe(TRUE);
    const root = compiled({ p: { path_prefix: "/" } });
    expect(root({ p: "/etc" })).toBe(MAYBE);
  });
  it("a prefix is also compared in full case folding", () => {
    const strasse = compiled({ p: { path_prefix: "stra\u00dfe/" } });
    expect(strasse({ p: "strasse/x" })).toBe(MAYBE);
    expect(strasse({ p: "STRASSE" })).toBe(MAYBE);
    expect(strasse({ p: "strase/x" })).toBe(FALSE);
    expect(c({ p: "\ufb06c/x" })).toBe(FALSE); // "stc", not "src"
  });
  it("cannot judge a non-string, and a missing field is false", () => {
    expect(c({ p: 3 })).toBe(MAYBE);
    expect(c({})).toBe(FALSE);
  });
});

describe("glob", () => {
  it("matches normalised paths against any of its globs", () => {
    const c = compiled({ p: { glob: ["**/*.pem", "**/.env*"] } });
    expect(c({ p: "keys/server.pem" })).toBe(TRUE);
    expect(c({ p: "a/./.env.local" })).toBe(TRUE); // the second glob, after normalising
    expect(c({ p: "src/a.ts" })).toBe(FALSE);
    expect(c({})).toBe(FALSE);
    expect(c({ p: 1 })).toBe(MAYBE);
    expect(c({ p: "" })).toBe(MAYBE);
    expect(c({ p: "../x.pem" })).toBe(MAYBE);
  });

  it("a match that holds only when case is ignored is a maybe", () => {
    const c = compiled({ p: { glob: "**/.env*" } });
    expect(c({ p: "config/.ENV" })).toBe(MAYBE);
    // Each decision folds its own path: the previous one's must not leak into the next.
    expect(c({ p: "config/readme.md" })).toBe(FALSE);
    expect(c({ p: "CONFIG/.Env" })).toBe(MAYBE);
    expect(c({ p: "config/.env" })).toBe(TRUE);
  });

  it("reads \\ both ways: a maybe when some reading matches, never certain, false when none does", () => {
    const c = compiled({ p: { glob: "**/.env*" } });
    expect(c({ p: "src\\..\\.env" })).toBe(MAYBE);
    expect(c({ p: "src\\a.ts" })).toBe(FALSE);
    // Both readings match, but a path with a backslash is not a plain POSIX path: at most a maybe.
    expect(compiled({ p: { glob: "**/*.pem" } })({ p: "x\\keys.pem" })).toBe(MAYBE);
    const src = compiled({ p: { glob: "src/**" } });
    expect(src({ p: "src/a\\..\\..\\x" })).toBe(MAYBE);
  });

  it("the literal prefix and suffix checks never reject a real match", () => {
    expect(compiled({ p: { glob: "src/**" } })({ p: "src" })).toBe(TRUE);
    expect(compiled({ p: { glob: "**/x" } })({ p: "x" })).toBe(TRUE);
    expect(compiled({ p: { glob: "a/*/b" } })({ p: "a/z/b" })).toBe(TRUE);
    expect(compiled({ p: { glob: "a/*/b" } })({ p: "a/z/c" })).toBe(FALSE);
    expect(compiled({ p: { glob: "docs/readme.md" } })({ p: "docs/readme.md" })).toBe(TRUE);
    expect(compiled({ p: { glob: "docs/readme.md" } })({ p: "docs/readme.md.bak" })).toBe(FALSE);
    expect(compiled({ p: { glob: "a?c" } })({ p: "abc" })).toBe(TRUE);
    expect(compiled({ p: { glob: "[ab]x" } })({ p: "bx" })).toBe(TRUE);
    expect(compiled({ p: { glob: "{a,b}.ts" } })({ p: "b.ts" })).toBe(TRUE);
    expect(compiled({ p: { glob: "a\\*b" } })({ p: "a*b" })).toBe(TRUE);
  });
});

describe("url: one host canonicaliser", () => {
  it("a host rule on an IPv4 address may match every IPv6 spelling that embeds it, and not(…) of it is never certain", () => {
    const metadata = compiled({ u: { url: { host: "169.254.169.254" } } });
    const elsewhere = compiled({ u: { not: { url: { host: "169.254.169.254" } } } });
    for (const u of [
      "http://[::ffff:a9fe:a9fe]/latest/meta-data/",
      "http://[::a9fe:a9fe]/",
      "http://[64:ff9b::a9fe:a9fe]/",
      "http://[2002:a9fe:a9fe::]/",
      "http://2852039166/",
    ]) {
      expect(metadata({ u }), u).toBe(MAYBE);
      expect(elsewhere({ u }), u).toBe(MAYBE);
    }
    expect(metadata({ u: "http://169.254.169.254/" })).toBe(TRUE);
    expect(elsewhere({ u: "http://example.com/" })).toBe(TRUE);
  });
});

describe("regex, min, max", () => {
  it("regex: match anywhere unless anchored; a non-string is a maybe", () => {
    const c = compiled({ s: { regex: "b" } });
    expect(c({ s: "abc" })).toBe(TRUE);
    expect(c({ s: "xyz" })).toBe(FALSE);
    expect(c({ s: 1 })).toBe(MAYBE);
    expect(c({})).toBe(FALSE);
  });

  it("min and max are inclusive; a non-number is a maybe", () => {
    const min = compiled({ n: { min: 3 } });
    const max = compiled({ n: { max: 3 } });
    expect(min({ n: 3 })).toBe(TRUE);
    expect(min({ n: 2 })).toBe(FALSE);
    expect(max({ n: 3 })).toBe(TRUE);
    expect(max({ n: 4 })).toBe(FALSE);
    expect(min({ n: "3" })).toBe(MAYBE);
    expect(max({ n: "3" })).toBe(MAYBE);
    expect(min({})).toBe(FALSE);
    expect(max({})).toBe(FALSE);
  });
});

describe("command", () => {
  const c = compiled({ cmd: { command: ["git status", "ls"] } });
  it("true when every simple command matches, maybe when some may, false when none does", () => {
    expect(c({ cmd: "git status && ls" })).toBe(TRUE);
    expect(c({ cmd: "ls; rm x" })).toBe(MAYBE);
    expect(c({ cmd: "rm x" })).toBe(FALSE);
    expect(c({ cmd: 5 })).toBe(MAYBE);
    expect(c({})).toBe(FALSE);
  });
});

describe("any and all over arrays", () => {
  const any = compiled({ xs: { any: { regex: "^a" } } });
  const all = compiled({ xs: { all: { regex: "^a" } } });

  it("any: one certain element suffices, even after a maybe; maybe when only maybes", () => {
    expect(any({ xs: [] })).toBe(FALSE);
    expect(any({ xs: ["b", "a"] })).toBe(TRUE);
    expect(any({ xs: [1, "a"] })).toBe(TRUE);
    expect(any({ xs: ["b", 1, "c"] })).toBe(MAYBE);
    expect(any({ xs: ["b", "c"] })).toBe(FALSE);
    expect(any({ xs: "a" })).toBe(MAYBE);
    expect(any({})).toBe(FALSE);
  });

  it("all: one failing element fails it, even after a maybe; maybe when none fails and some may", () => {
    expect(all({ xs: [] })).toBe(TRUE);
    expect(all({ xs: ["a", "ab"] })).toBe(TRUE);
    expect(all({ xs: ["a", "b"] })).toBe(FALSE);
    expect(all({ xs: [1, "b"] })).toBe(FALSE);
    expect(all({ xs: ["a", 1] })).toBe(MAYBE);
    expect(all({ xs: "a" })).toBe(MAYBE);
    expect(all({})).toBe(FALSE);
  });
});

describe("field paths", () => {
  it("reach nested properties, own properties only", () => {
    const c = compiled({ "options.depth": { max: 3 } });
    expect(c({ options: { depth: 2 } })).toBe(TRUE);
    expect(c({ options: { depth: 4 } })).toBe(FALSE);
    expect(c({ options: {} })).toBe(FALSE);
    expect(c({ options: [] })).toBe(FALSE);
    expect(c({ options: null })).toBe(FALSE);
    expect(c({ options: "x" })).toBe(FALSE);
    expect(c({})).toBe(FALSE);
    expect(c({ options: Object.create({ depth: 1 }) })).toBe(FALSE);
    expect(compiled({ "options.depth": { exists: false } })({ options: [] })).toBe(TRUE);
    // A string has own properties too (length, indexes), but a field path never reads into one.
    expect(compiled({ "options.length": { exists: true } })({ options: "abc" })).toBe(FALSE);
    expect(compiled({ "options.0": { exists: true } })({ options: "abc" })).toBe(FALSE);
  });

  it("a one-step path reads own properties of a plain object only", () => {
    const c = compiled({ toString: { exists: true } });
    expect(c({})).toBe(FALSE);
    expect(c({ toString: "x" })).toBe(TRUE);
    const s = compiled({ v: { exists: true } });
    expect(s(null)).toBe(FALSE);
    expect(s([1])).toBe(FALSE);
    expect(s("v")).toBe(FALSE);
    expect(s(Object.create({ v: 1 }))).toBe(FALSE);
  });
});

describe("problems", () => {
  it("names the field and the operator of each problem, all at once", () => {
    const result = compileCondition({
      a: { glob: "src/[" },
      b: { regex: "(" },
      c: { command: ["ls; rm"] },
      d: {},
      e: { near: 1 } as never,
      f: null as never,
      g: "x" as never,
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const seen = result.problems.map((p) => `${p.field}:${p.operator}`);
    // A field whose operators are unknown or bad is not also said to have no operator.
    expect(result.problems.filter((p) => p.field === "e")).toEqual([
      { field: "e", operator: "field", message: 'unknown operator "near"' },
    ]);
    expect(seen).toEqual(
      expect.arrayContaining(["a:glob", "b:regex", "c:command", "d:field", "e:field", "f:field"]),
    );
    expect(new Set(result.problems.map((p) => p.field))).toEqual(
      new Set(["a", "b", "c", "d", "e", "f", "g"]),
    );
    expect(result.problems.find((p) => p.message === 'unknown operator "near"')?.operator).toBe("field");
    expect(result.problems.filter((p) => p.field === "g")).toEqual([
      { field: "g", operator: "field", message: 'field "g" needs an object of operators' },
    ]);
    expect(result.problems.find((p) => p.field === "e")?.message).toBe('unknown operator "near"');
    expect(result.problems.find((p) => p.field === "d")?.message).toBe('field "d" has no operator');
    expect(result.problems.find((p) => p.field === "f")?.message).toBe(
      'field "f" needs an object of operators',
    );
    expect(result.problems.find((p) => p.field === "c")?.message).toBe(
      'command prefix "ls; rm" must be plain words such as "git status" (no quotes, operators or expansions)',
    );
  });

  it("reports problems inside any, all and not with the element path", () => {
    const result = compileCondition({ xs: { any: { regex: "(" }, all: { glob: "[" }, not: { regex: ")" } } });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => `${p.field}:${p.operator}`)).toEqual(
      expect.arrayContaining(["xs[*]:regex", "xs[*]:glob", "xs:regex"]),
    );
    expect(result.problems.find((p) => p.operator === "glob")?.message).toMatch(/^glob "\[": /);
    expect(result.problems.find((p) => p.field === "xs" && p.operator === "regex")?.message).toMatch(
      /^regex "\)": /,
    );
  });
});

describe("a condition built in code, where a key may hold undefined", () => {
  it("an operator set to undefined is left out, as if it were not written", () => {
    // e.g. `{ glob: options.glob, equals: "x" }` with no glob given: the other operators still decide.
    const spec = { a: { glob: undefined, regex: undefined, min: undefined, equals: "x" } } as ConditionSpec;
    expect(compileCondition(spec).ok).toBe(true);
    const condition = compiled(spec);
    expect(condition({ a: "x" })).toBe(TRUE);
    expect(condition({ a: "y" })).toBe(FALSE);
  });

  it("a field whose only operators are undefined has no operator", () => {
    const result = compileCondition({ a: { glob: undefined } } as ConditionSpec);
    expect(result).toEqual({
      ok: false,
      problems: [{ field: "a", operator: "field", message: 'field "a" has no operator' }],
    });
  });

  it("equals: undefined and exists: undefined still apply, both asking for a missing field", () => {
    for (const spec of [{ a: { equals: undefined } }, { a: { exists: undefined } }] as ConditionSpec[]) {
      const condition = compiled(spec);
      expect(condition({})).toBe(TRUE);
      expect(condition({ a: 1 })).toBe(FALSE);
      expect(condition({ a: null })).toBe(FALSE);
    }
  });
});
