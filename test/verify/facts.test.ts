/**
 * The facts between the operators of one field (`facts.ts`). Every fact is an implication between the runtime's
 * answers, so the truths the runtime gives on any string are allowed: checked on every short path over a few
 * characters (cases, Windows separators, dots, short names) and on command lines made of a few words and shell
 * operators, for generated sets of `glob`, `path_prefix` and `command` operators. And the facts rule out exactly
 * the assignments of truths their rules name, for each rule: a longer prefix implies a shorter one, a glob covered
 * by others, command prefixes made of first words, URLs read at least as strictly or with nothing in common.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Truth } from "../../src/runtime/truth.js";
import { assignments, factsOf, type Op, rawFacts, ruledOut } from "./facts-harness.js";

const RUNS = Number(process.env.TOOLGATE_VERIFY_RUNS ?? 200);

/** Every string over `chars` of at most `max` characters. */
function allStrings(chars: readonly string[], max: number): string[] {
  const out = [""];
  let layer = [""];
  for (let n = 1; n <= max; n++) {
    layer = layer.flatMap((s) => chars.map((c) => s + c));
    out.push(...layer);
  }
  return out;
}

/** The runtime's truths of every atom on each value are allowed by the facts; returns how many assignments they rule out. */
function checkSound(ops: readonly Op[], values: readonly string[]): number {
  const { facts, atoms } = factsOf(ops);
  for (const value of values) {
    const truths = new Map(atoms.map((a) => [a.id, a.test(value)]));
    expect(
      facts.allows(truths),
      `${JSON.stringify(value)}: ${JSON.stringify(ops)} ${JSON.stringify([...truths])}`,
    ).toBe(true);
  }
  return ruledOut(facts, ops.length).length;
}

const PATHS = [
  ...allStrings(["a", "A", "b", "/", "\\", "."], 3),
  "a/b",
  "a/b/c",
  "A/B",
  "a/B",
  "/a/b",
  "/A/b",
  "a/b.md",
  "A/b.MD",
  "b.md",
  "a.md",
  "../a",
  "a/../b",
  "./a",
  "a//b",
  "a~1",
  "A~1/b",
  "C:\\a",
  "c:/a/b",
  "\\\\a\\b",
  "a\\b\\c",
  "~/a",
  "a/\u00e9",
  "a/e\u0301",
  "\u212a",
  "a/ ",
  "a.",
  "a/b.",
  "con",
  "a/con.md",
];
const GLOB_PARTS = ["a", "b", "A", "*", "**", "?", "*.md", "a.md", "[ab]", "{a,b}", "\u00e9"];
const glob = fc
  .tuple(fc.boolean(), fc.array(fc.constantFrom(...GLOB_PARTS), { minLength: 1, maxLength: 2 }))
  .map(([absolute, parts]) => `${absolute ? "/" : ""}${parts.join("/")}`);
const PREFIXES = ["", "a", "a/", "a/b", "A", "A/", "/", "/a", "/A/", "b", "a.md", "a/b/"];
const pathOp: fc.Arbitrary<Op> = fc.oneof(
  glob.map((g): Op => ["glob", g]),
  fc.array(glob, { minLength: 2, maxLength: 2 }).map((gs): Op => ["glob", gs]),
  fc.constantFrom(...PREFIXES).map((p): Op => ["path_prefix", p]),
);

const WORDS = ["git", "status", "log", "ls", "-l", "-n", "--oneline", "x"];
const COMMAND_LINES = [
  ...allStrings(["git ", "status ", "log ", "ls ", "-l ", "-n ", "--oneline "], 3).map((s) => s.trimEnd()),
  "git status && ls -l",
  "git -c",
  "git log; ls",
  "ls | git status",
  "git $(ls)",
  "GIT status",
  "'git' status",
  "git  status",
  "\\git status",
  "git status$",
  "x=1 git status",
  "git status > out",
  "(git status)",
  "git log --oneline -n",
  "git log -n --oneline",
  "git -n",
  "ls -l -n",
  "bash -c 'git status'",
  "eval git",
  "git\tstatus",
  "git status #",
  "rm -l",
  "LS -l",
  "ls2",
  "/bin/ls -l",
  "l s",
  "npm install",
  "npm 'install x'",
  "npm install",
  "npm installx",
  "git 'log' -n",
  "git 'log x'",
  "git logs",
  "git log --oneline x",
  "git log '--oneline'",
  "git status -s",
  "git status '-s'",
  "ls '-l'",
  "lsx",
  "gitx status",
  "ls'x'",
  "l'' s",
  "gi't' status",
  "l\\\ns",
  "ls\\\nx -l",
  ">/dev/null ls",
  "2>/dev/null git status",
  "git -c x=y status",
  "git -c x status",
  "git -c",
  "sh -c ls",
  "sh -c",
  "find . -exec rm",
  "find . -exec rm ;",
  "find . -name x",
  "find . -name -exec",
  "find .",
  "env x=1 ls",
  "env ls",
  "git status -c x",
];
const PREFIX_SPECS: readonly unknown[] = [
  "git",
  "git status",
  "git log",
  "ls",
  "ls -l",
  "git$",
  "git status$",
  "x",
  { prefix: "git log", options: ["--oneline"] },
  { prefix: "git", options: ["-n"] },
  { prefix: "ls", options: [] },
  "npm install",
  "git log --oneline",
  "git status -s",
  "lsx",
  "gi",
  "git -c",
  "sh -c",
  "find . -exec",
  "find .",
  { prefix: "find .", options: ["-name"] },
  "env",
  "env x=1",
];
const commandOp: fc.Arbitrary<Op> = fc
  .uniqueArray(fc.constantFrom(...PREFIX_SPECS), {
    minLength: 1,
    maxLength: 2,
    selector: (s) => JSON.stringify(s),
  })
  .map((list): Op => ["command", list]);

/** A regex that names a line's first word (as the verifier writes it for the parts of compound commands). */
const firstWordOp: fc.Arbitrary<Op> = fc
  .constantFrom(
    "^git(?:\\s|$)",
    "^ls(?:\\s|$)",
    "^LS(?:\\s|$)",
    "^rm(?:\\s|$)",
    "^git '?st",
    "^l(?:\\s|$)",
    "^x(?:\\s|$)",
    "^git '?log",
    "^git '?lo",
    "^git status '?-",
    "^git log '?--one",
    "^ls '?-",
    "^npm '?inst",
    "^git (status|log)",
    "^git\\s+(push|log)\\b",
    "^(ls|rm)\\s",
    "^git log$",
    "^git status$",
    "^ls -l?",
    "^git log.* -n",
    "^(git|ls) (-n|status)(?:\\s|$)",
    "^(?:GIT|x)\\s+status",
    // Only how the first word starts.
    "^g",
    "^gi",
    "^l",
    "^(ls|rm)\\b",
    "^git\\b",
    "^(gi|x)",
    "^L",
    "^(G|g)?it",
    "^(?:/bin/)?ls",
    "^l+s",
  )
  .map((regex): Op => ["regex", regex]);

/** A `prefix` that names how a line starts: whole words or the start of the first one. */
const prefixOp: fc.Arbitrary<Op> = fc
  .constantFrom("gi", "l", "ls", "ls -", "git st", "2>", "LS")
  .map((text): Op => ["prefix", text]);

/** Operators of one field, each different (equal ones would be one atom). */
function distinct(ops: readonly Op[]): boolean {
  return new Set(ops.map((o) => JSON.stringify(o))).size === ops.length;
}

describe("facts hold on every value", () => {
  it("between path operators, on short paths of every spelling", () => {
    let pruned = 0;
    fc.assert(
      fc.property(fc.array(pathOp, { minLength: 2, maxLength: 3 }).filter(distinct), (ops) => {
        pruned += checkSound(ops, PATHS);
      }),
      { numRuns: RUNS },
    );
    expect(pruned).toBeGreaterThan(0);
  });

  it("between command lists whose prefixes differ in case, option letters or words between, on rm lines", () => {
    const specs = [
      "rm -R",
      "rm -r",
      "rm -R -f",
      "rm -fr",
      "RM -rf",
      "/bin/rm -r",
      "rm x -r",
      "rm -rf x",
      "rm",
      "rm$",
    ];
    const lines = [
      ...allStrings(["rm ", "-R ", "-r ", "-f ", "x ", "-- "], 3).map((l) => l.trimEnd()),
      "rm -fR x",
      "RM -r x",
      "/bin/rm -R",
      "rm -Rv",
      "sudo rm -R x",
      "rm x -r -f",
      "rm 'x' -R",
      "rm -R $x",
      "xargs rm -r",
      "rm -R; ls",
      "rm2 -r",
    ];
    const list = fc
      .uniqueArray(fc.constantFrom(...specs), { minLength: 1, maxLength: 2 })
      .map((l): Op => ["command", l]);
    let pruned = 0;
    fc.assert(
      fc.property(fc.array(list, { minLength: 2, maxLength: 3 }).filter(distinct), (ops) => {
        pruned += checkSound(ops, lines);
      }),
      { numRuns: RUNS },
    );
    expect(pruned).toBeGreaterThan(0);
  });

  it("between an absolute prefix, a glob of every absolute path and a list of names anywhere, on short names", () => {
    // A short name (`A~1`) is any name to the runtime: a path_prefix may match a path holding one anywhere.
    const shortNames = [
      ...allStrings(["a", "~1", "/", "\\", "..", "C:"], 3),
      "a/B~1/c",
      "x~2.md",
      "a/~1/..",
      "~1/..",
      "/~1",
      "\\~1\\a",
      "C:\\~1",
      "C:~1",
      "..\\~1",
      "a/~1.",
      "//a/b/~1",
      "a/./~1/",
      "~",
      "~1",
      "a/A~1.MD",
    ];
    const special = fc.constantFrom<Op>(
      ["path_prefix", "/a"],
      ["path_prefix", "/"],
      ["path_prefix", "/a/b/"],
      ["path_prefix", "/A"],
      ["glob", ["/**", "~/**", "~"]],
      ["glob", "/**"],
      ["glob", ["**/a*", "**/b/**"]],
      ["glob", ["**/*.md", "**/.a/**", "a"]],
      ["glob", ["**/a", "**/b"]],
      ["glob", ["**/b/**"]],
      ["glob", ["**/.x*", "**/.y/**"]],
      ["path_prefix", "a"],
    );
    let pruned = 0;
    fc.assert(
      fc.property(
        fc.array(fc.oneof(special, special, pathOp), { minLength: 3, maxLength: 3 }).filter(distinct),
        (ops) => {
          pruned += checkSound(ops, [...PATHS, ...shortNames]);
        },
      ),
      { numRuns: RUNS },
    );
    expect(pruned).toBeGreaterThan(0);
  });

  it("between command operators, on command lines of their words", () => {
    let pruned = 0;
    fc.assert(
      fc.property(
        fc.array(fc.oneof(commandOp, firstWordOp, prefixOp), { minLength: 2, maxLength: 3 }).filter(distinct),
        (ops) => {
          pruned += checkSound(ops, COMMAND_LINES);
        },
      ),
      { numRuns: RUNS },
    );
    expect(pruned).toBeGreaterThan(0);
    expect(WORDS.length).toBe(8);
  });

  it("on the values that relate the operators of each rule below", () => {
    for (const { ops } of CASES) {
      const values = ops.some(([op]) => op === "command")
        ? COMMAND_LINES
        : ops.some(([op]) => op === "url")
          ? URLS
          : PATHS;
      checkSound(ops, values);
    }
  });
});

const URLS = [
  "https://x.org/",
  "https://X.ORG/a",
  "http://x.org/a",
  "https://x.org:443/a?k=1",
  "https://x.org:8443/",
  "https://y.org/b",
  "https://a.example.com/",
  "https://b.a.example.com/a/x",
  "https://example.com/",
  "https://127.0.0.1/",
  "http://[::1]/",
  "http://[::1]:80/",
  "https://x.org/a/b?a=1&b=2",
  "https://x.org/?b",
  "https://x.org/A/b",
  "ftp://x.org/",
  "https://user@x.org/",
  "x.org",
  "https://x.org/docs",
  "https://x.org/docs/",
  "https://x.org/docs/a",
  "https://x.org/DOCS/a",
  "https://x.org/Docs/%E2%84%AA",
  "https://x.org/api/x?k",
  "http://x.org/b*/c",
  "http://[::ffff:7f00:1]/",
  "http://[2002:7f00:1::]/a",
  "http://[2002:a00:1::]/",
  "http://10.0.0.1/",
  "http://[2001:db8::1]/",
];

/**
 * Each rule's operators (atom `i` is `ops[i]`) and the assignments of truths the facts rule out, each written as
 * its digits (`12`: atom 0 true, atom 1 a maybe); every other assignment is allowed.
 */
const CASES: readonly { readonly why: string; readonly ops: readonly Op[]; readonly out: string }[] = [
  // path_prefix: a longer prefix implies a shorter one (may match, and certainly matches).
  {
    why: "a longer prefix implies a shorter one",
    ops: [
      ["path_prefix", "a/b"],
      ["path_prefix", "a"],
    ],
    out: "10 12 20",
  },
  // Asked of two globs in either order: each glob's answer is its own (kept apart in the facts' cache).
  {
    why: "a folder prefix certain makes the glob of its folder certain, not a glob of another folder",
    ops: [
      ["path_prefix", "src/"],
      ["glob", "src/**"],
      ["glob", "lib/**"],
    ],
    out: "010 011 012 020 021 022 100 101 102 111 112 120 121 122 211 212 221",
  },
  {
    why: "a folder prefix certain makes the glob of its folder certain, the other glob asked first",
    ops: [
      ["path_prefix", "src/"],
      ["glob", "lib/**"],
      ["glob", "src/**"],
    ],
    out: "001 002 011 012 021 022 100 102 110 111 112 120 121 122 211 212 221",
  },
  {
    why: "prefixes are compared as written, case and all",
    ops: [
      ["path_prefix", "a"],
      ["path_prefix", "A"],
    ],
    out: "",
  },
  {
    why: "a folder prefix implies a longer prefix's shorter one, not an unrelated one",
    ops: [
      ["path_prefix", "a/"],
      ["path_prefix", "a/b"],
      ["path_prefix", "b"],
    ],
    out: "010 011 012 020 021 022 210 211 212",
  },
  {
    why: "a prefix is not covered by a glob",
    ops: [
      ["path_prefix", "a"],
      ["glob", "a/**"],
    ],
    out: "01 02",
  },
  {
    why: "a folder prefix certain is a plain path in normal form under it, which a glob of all under it matches",
    ops: [
      ["path_prefix", "a/"],
      ["glob", "a/**"],
    ],
    out: "01 02 10 12",
  },
  {
    why: "not under globs that miss some path under the folder (`a/b/c`) or read it ignoring case only",
    ops: [
      ["path_prefix", "a/"],
      ["glob", ["a/*", "A/**"]],
    ],
    out: "01 02",
  },
  {
    why: "the empty prefix covers every glob",
    ops: [
      ["glob", "a"],
      ["path_prefix", ""],
    ],
    out: "10 20",
  },
  // glob: covered by the union of others.
  {
    why: "a glob inside another",
    ops: [
      ["glob", "a/*"],
      ["glob", "a/**"],
    ],
    out: "10 12 20",
  },
  {
    why: "a glob inside another, at any depth",
    ops: [
      ["glob", "*.md"],
      ["glob", "**/*.md"],
    ],
    out: "10 12 20",
  },
  {
    why: "globs that differ in case may match alike",
    ops: [
      ["glob", "a"],
      ["glob", "A"],
    ],
    out: "01 02 10 20",
  },
  {
    why: "unrelated globs: one certain, the other false (the plain path's one reading is not the other's)",
    ops: [
      ["glob", "a"],
      ["glob", "b"],
    ],
    out: "11 12 21",
  },
  {
    why: "a glob inside the union of two",
    ops: [
      ["glob", "{a,b}"],
      ["glob", "a"],
      ["glob", "b"],
    ],
    out: "001 002 010 011 012 020 021 022 100 102 111 112 120 121 122 200 201 210 211 212 221",
  },
  {
    why: "a list of globs inside a glob and a prefix",
    ops: [
      ["glob", ["a", "b"]],
      ["glob", "a"],
      ["path_prefix", "b"],
    ],
    out: "010 011 012 020 021 022 100 111 120 121 200 210 211 212 221",
  },
  {
    why: "a glob inside a folder prefix",
    ops: [
      ["glob", "a/*"],
      ["path_prefix", "a/"],
    ],
    out: "10 20",
  },
  {
    why: "a glob inside a prefix in another case",
    ops: [
      ["glob", "a/*"],
      ["path_prefix", "A/"],
    ],
    out: "10 20",
  },
  {
    why: "certainly a glob: certainly a glob that covers it, or a maybe of a false prefix (its folder too)",
    ops: [
      ["glob", "a/*"],
      ["path_prefix", "A/"],
      ["glob", "a/**"],
    ],
    out: "001 002 100 101 102 110 112 120 122 200 201 202 210 220",
  },
  {
    why: "an absolute glob inside an absolute prefix",
    ops: [
      ["glob", "/a/*"],
      ["path_prefix", "/a"],
    ],
    // An absolute operator is never true (only a plain relative path is), and false where another is true.
    out: "01 10 11 12 20 21",
  },
  {
    why: "an absolute glob is not under a relative prefix",
    ops: [
      ["glob", "/a/*"],
      ["path_prefix", "a"],
    ],
    // An absolute operator is never true (only a plain relative path is), and false where another is true.
    out: "10 11 12 21",
  },
  {
    why: "every absolute glob is under the root prefix",
    ops: [
      ["glob", "/**"],
      ["path_prefix", "/"],
    ],
    // An absolute operator is never true (only a plain relative path is), and false where another is true.
    out: "01 10 11 12 20 21",
  },
  {
    why: "the root glob is under the root prefix",
    ops: [
      ["glob", "/"],
      ["path_prefix", "/"],
    ],
    // An absolute operator is never true (only a plain relative path is), and false where another is true.
    out: "01 10 11 12 20 21",
  },
  {
    why: "a relative glob certain: a path_prefix of an absolute path is false",
    ops: [
      ["glob", "a/*"],
      ["path_prefix", "/etc"],
    ],
    out: "01 11 12 21",
  },
  {
    why: "a prefix certain is a plain relative path, which a glob of everything matches",
    ops: [
      ["path_prefix", "a"],
      ["glob", "**"],
    ],
    out: "10 12",
  },
  // command: prefixes made of first words.
  {
    why: "a longer command prefix certain: the shorter one too, as no code argument ends inside the longer one's words",
    ops: [
      ["command", ["git status"]],
      ["command", ["git"]],
    ],
    out: "10 12 20",
  },
  {
    why: "a longer command prefix whose words end in a code argument: the shorter one may run, not certainly",
    ops: [
      ["command", ["git -c"]],
      ["command", ["git"]],
    ],
    out: "10 20",
  },
  {
    why: "an exact prefix certain: another list is certain where the runtime's reading of the words says so",
    ops: [
      ["command", ["find . -name x$", "ls -l$"]],
      ["command", [{ prefix: "find .", options: ["-name"] }, "ls"]],
    ],
    out: "10 12 20",
  },
  {
    why: "an exact prefix is possible, not certain, where its first words start the command; certain, the other is false",
    ops: [
      ["command", ["git status"]],
      ["command", ["git$"]],
    ],
    out: "10 11 20 21",
  },
  {
    why: "an exact prefix certain: the same words as a plain prefix are certain too (the part is those words alone)",
    ops: [
      ["command", ["npm test$"]],
      ["command", ["npm test", "ls"]],
    ],
    out: "10 12 20",
  },
  {
    why: "an exact prefix certain: a shorter plain prefix only may run (`git -c` is a maybe for `git`)",
    ops: [
      ["command", ["git -c$"]],
      ["command", ["git"]],
    ],
    out: "10 20",
  },
  {
    why: "a prefix written the same way covers itself, exact or not",
    ops: [
      ["command", ["git status$"]],
      ["command", ["git status$", "ls"]],
    ],
    out: "10 12 20",
  },
  {
    why: "every prefix covered, by one false operator each; git and ls never both certain; ls certain, git false",
    ops: [
      ["command", ["git status", "ls -l"]],
      ["command", ["git"]],
      ["command", ["ls"]],
    ],
    out: "011 021 100 111 121 200 211 221",
  },
  {
    why: "every prefix covered by one operator, which is certain wherever they are (no code argument in their words)",
    ops: [
      ["command", ["git status", "ls -l"]],
      ["command", ["git", "ls"]],
    ],
    out: "10 12 20",
  },
  {
    why: "a prefix with options: a plain prefix of its first words may run, and is certain where it is",
    ops: [
      ["command", [{ prefix: "git log", options: ["--oneline"] }]],
      ["command", ["git"]],
    ],
    out: "10 12 20",
  },
  {
    why: "a plain prefix of the same words is certain where a prefix with options is certain",
    ops: [
      ["command", ["git"]],
      ["command", [{ prefix: "git", options: ["-n"] }]],
    ],
    out: "01 02 10 20 21",
  },
  {
    why: "unrelated command prefixes: never both certain; ls (an inert program) certain, git false",
    ops: [
      ["command", ["git"]],
      ["command", ["ls"]],
    ],
    out: "11 21",
  },
  // url: read at least as strictly, or with nothing in common.
  {
    why: "a host under a `*.` suffix",
    ops: [
      ["url", { host: "a.example.com" }],
      ["url", { host: "*.example.com" }],
    ],
    out: "10 12 20",
  },
  {
    why: "the apex is not under its `*.` suffix, nor is a name under the suffix the apex",
    ops: [
      ["url", { host: "example.com" }],
      ["url", { host: "*.example.com" }],
    ],
    out: "11 12 21",
  },
  {
    why: "a `*.` suffix under a shorter one",
    ops: [
      ["url", { host: "*.a.example.com" }],
      ["url", { host: "*.example.com" }],
    ],
    out: "10 12 20",
  },
  {
    why: "a `*.` suffix certain excludes a host not under it, and the other way",
    ops: [
      ["url", { host: "*.example.com" }],
      ["url", { host: "x.org" }],
    ],
    out: "11 12 21",
  },
  {
    why: "different hosts",
    ops: [
      ["url", { host: "x.org" }],
      ["url", { host: "y.org" }],
    ],
    out: "11 12 21",
  },
  {
    why: "a host list covers one of its hosts",
    ops: [
      ["url", { host: ["x.org", "y.org"] }],
      ["url", { host: "y.org" }],
    ],
    out: "01 02 21",
  },
  {
    why: "different schemes",
    ops: [
      ["url", { scheme: "https" }],
      ["url", { scheme: "http" }],
    ],
    out: "11 12 21",
  },
  {
    why: "schemes compared in lower case",
    ops: [
      ["url", { scheme: "HTTPS" }],
      ["url", { scheme: ["https", "http"] }],
    ],
    // And an operator of schemes alone is never a maybe where another is certain (21).
    out: "10 12 20 21",
  },
  {
    why: "different ports",
    ops: [
      ["url", { port: 443 }],
      ["url", { port: 8443 }],
    ],
    out: "11 12 21",
  },
  {
    why: "a port among ports",
    ops: [
      ["url", { port: 443 }],
      ["url", { port: [443, 8443] }],
    ],
    out: "10 12 20 21",
  },
  {
    why: "a path glob among path globs",
    ops: [
      ["url", { path: "/a/*" }],
      ["url", { path: ["/a/*", "/b"] }],
    ],
    out: "10 12 20",
  },
  {
    why: "query keys among query keys",
    ops: [
      ["url", { query: { keys: ["a"] } }],
      ["url", { query: { keys: ["a", "b"] } }],
    ],
    out: "10 12 20",
  },
  {
    why: "query keys not among others",
    ops: [
      ["url", { query: { keys: ["a"] } }],
      ["url", { query: { keys: ["b"] } }],
    ],
    out: "",
  },
  {
    why: "a part not read is not read as strictly as one that is; schemes alone are never a maybe where a host is certain",
    ops: [
      ["url", { host: "x.org" }],
      ["url", { scheme: "https" }],
    ],
    out: "12",
  },
  {
    why: "a host, a path or query keys may be a maybe where another operator is certain",
    ops: [
      ["url", { host: "x.org" }],
      ["url", { path: "/a" }],
      ["url", { query: { keys: ["k"] } }],
    ],
    out: "",
  },
  {
    why: "path globs whose texts do not meet: a root, a folder and another folder",
    ops: [
      ["url", { path: "/docs/**" }],
      ["url", { path: "/" }],
    ],
    out: "11 12 21",
  },
  {
    why: "path globs of two folders",
    ops: [
      ["url", { path: ["/docs/**", "/docs"] }],
      ["url", { path: "/api/**" }],
    ],
    out: "11 12 21",
  },
  {
    why: "path globs that differ in case may both match, one as a maybe",
    ops: [
      ["url", { path: "/docs/**" }],
      ["url", { path: "/DOCS/a" }],
    ],
    out: "",
  },
  {
    why: "a folder glob matches the folder itself, and a wildcard ends what it says of the path",
    ops: [
      ["url", { path: "/a/**" }],
      ["url", { path: ["/a", "/b*/c"] }],
    ],
    out: "",
  },
  {
    why: "path globs apart, but one operator reads a host the other does not",
    ops: [
      ["url", { path: "/a" }],
      ["url", { host: "x.org", path: "/b" }],
    ],
    // The host is read before the path: only the operator that reads it is certain where the other is false.
    out: "11 21",
  },
  {
    why: "an IPv6 address that embeds an IPv4 one is read with it",
    ops: [
      ["url", { host: "::ffff:127.0.0.1" }],
      ["url", { host: "127.0.0.1" }],
    ],
    // The first names 127.0.0.1 too (`hostPattern` reads every address an IPv6 address embeds): the two agree.
    out: "01 02 10 12 20 21",
  },
  {
    why: "an IPv6 address that embeds no IPv4 address is read apart from one",
    ops: [
      ["url", { host: "2001:db8::1" }],
      ["url", { host: "127.0.0.1" }],
    ],
    out: "11 12 21",
  },
  {
    why: "a 6to4 address embeds its IPv4 one, not another",
    ops: [
      ["url", { host: ["2002:7f00:1::", "2002:a00:1::"] }],
      ["url", { host: ["127.0.0.1", "10.0.0.1"] }],
      ["url", { host: "127.0.0.1" }],
    ],
    // The first also names the IPv4 addresses its IPv6 ones embed, so the others cover it (0xx); each of its
    // IPv6 ones embeds one of the second's (10x, 20x); the third covers the second (221); 2002:a00:1:: does not
    // embed 127.0.0.1 (110 is allowed).
    out: "001 002 010 011 012 020 021 022 100 101 102 120 121 122 200 201 202 210 211 212 221",
  },
  {
    why: "an operator of every part covers one of its host alone",
    ops: [
      ["url", { scheme: "https", host: "x.org", port: 443, path: "/a", query: { keys: ["k"] } }],
      ["url", { host: "x.org" }],
    ],
    out: "10 12 20",
  },
  {
    why: "an IP address is read as a host name",
    ops: [
      ["url", { host: "127.0.0.1" }],
      ["url", { host: "127.0.0.1", scheme: "http" }],
    ],
    out: "01 02 21",
  },
  {
    why: "an IPv6 address in either spelling",
    ops: [
      ["url", { host: "::1" }],
      ["url", { host: "[::1]", port: 80 }],
    ],
    out: "01 02 21",
  },
  {
    why: "a host name longer than a `*.` suffix it does not end with",
    ops: [
      ["url", { host: "abcdef.org" }],
      ["url", { host: "*.x.org" }],
    ],
    out: "11 12 21",
  },
  {
    why: "a url operator and a prefix are not related",
    ops: [
      ["url", { host: "x.org" }],
      ["prefix", "x"],
    ],
    out: "",
  },
  {
    why: "a prefix and a url operator are not related",
    ops: [
      ["prefix", "x"],
      ["url", { host: "x.org" }],
    ],
    out: "",
  },
  {
    why: "a path prefix and a glob are not related by the prefix's text, only by the certain prefix's reading",
    ops: [
      ["path_prefix", "undefined/a"],
      ["glob", "b"],
    ],
    out: "11 12",
  },
  {
    why: "the empty prefix covers a glob of dot files",
    ops: [
      ["glob", ".*"],
      ["path_prefix", ""],
    ],
    out: "10 20",
  },
  {
    why: "an IPv6 address and an IPv4 one",
    ops: [
      ["url", { host: "::1" }],
      ["url", { host: "127.0.0.1" }],
    ],
    out: "11 12 21",
  },
  // A line whose first word is plain is certain for a list only where a prefix's first word meets it.
  {
    why: "a line that starts with rm is never certain for a list of ls and git status",
    ops: [
      ["regex", "^rm(?:\\s|$)"],
      ["command", ["ls", "git status"]],
    ],
    out: "11",
  },
  {
    why: "a first word in another case or with a version is no prefix's first word as written: never certain",
    ops: [
      ["regex", "^LS2(?:\\s|$)"],
      ["command", ["git", "ls"]],
    ],
    out: "11",
  },
  {
    why: "a prefix's first word that holds the line's says nothing either",
    ops: [
      ["regex", "^l(?:\\s|$)"],
      ["command", ["ls"]],
    ],
    out: "",
  },
  {
    why: "the words a line starts with, the last perhaps quoted, name its first word and the next ones",
    ops: [
      ["regex", "^npm '?install"],
      ["command", ["git status"]],
      ["command", ["npm test"]],
    ],
    // `npm test` is never certain of a line whose second word starts with `install` (1x1), and the two lists are
    // never certain together (x11).
    out: "011 101 110 111 112 121 211",
  },
  {
    why: "a prefix of one word, or one whose next word starts with the named text, may cover the line; the line runs `git`",
    ops: [
      ["regex", "^git log '?--one"],
      ["command", ["git log --stat", "git", { prefix: "git log", options: ["--oneline"] }]],
    ],
    out: "10",
  },
  {
    why: "a prefix whose word there is another says the line is not covered",
    ops: [
      ["regex", "^git log '?--one"],
      ["command", ["git log --stat", "git status"]],
    ],
    out: "11",
  },
  {
    why: "alternatives after the first word are each a start, one of which a prefix must agree with",
    ops: [
      ["regex", "^git (push|commit)"],
      ["command", ["git status", "ls"]],
      ["command", ["git commit -m", "git pu"]],
    ],
    // Neither start agrees with the first list (11x); the second list agrees with `git commit` (`git pu` has a
    // whole second word, which `push…` is not), and the two lists are never certain together (x11).
    out: "011 110 111 112 211",
  },
  {
    why: "a line whose first word starts with a text is covered only by a prefix whose first word starts so",
    ops: [
      ["regex", "^(rm|sudo)\\b"],
      ["command", ["git status", "ls"]],
      ["command", ["rmdir", "sudo -n"]],
    ],
    // Never certain of such a line (11x); the other list may be (`sudo -n` for `sudo`), but never both (x11).
    out: "011 110 111 112 211",
  },
  {
    why: "a prefix of the first word's start reads as a regex of it; a digit may start a redirection",
    ops: [
      ["prefix", "sh"],
      ["prefix", "2"],
      ["command", ["git", "ls"]],
    ],
    // A line starting with `sh` is covered by no list of `git` and `ls`; one starting with `2` may be
    // (`2>/dev/null ls`).
    out: "101 111 121",
  },
  {
    why: "a prefix with options certain: the same words as a plain prefix are certain too",
    ops: [
      ["command", [{ prefix: "git log", options: ["-n"] }, "ls"]],
      ["command", ["git log", "ls", "cat"]],
    ],
    out: "10 12 20",
  },
  {
    why: "a line that ends after its words is covered by no longer prefix",
    ops: [
      ["regex", "^npm test$"],
      ["command", ["npm test --x", "npm install"]],
    ],
    out: "11",
  },
  {
    why: "a path an absolute prefix may match and a glob of every absolute path does not has a short name in it",
    ops: [
      ["path_prefix", "/etc"],
      ["glob", ["/**", "~/**", "~"]],
      ["glob", ["**/.env*", "**/*.pem", "**/.ssh/**"]],
    ],
    // An absolute prefix is never certain (1xx), nor a maybe beside a certain glob, which reads a plain relative path
    // (x1x, xx1 but 221); where the glob of absolute paths is false, a short name makes the list a maybe (200).
    out: "100 101 102 110 111 112 120 121 122 200 201 210 211 212 221",
  },
  {
    why: "a list that names files anywhere but no folder says nothing of a short name before the last segment",
    ops: [
      ["path_prefix", "/etc"],
      ["glob", ["/**", "~/**", "~"]],
      ["glob", ["**/.env*", "**/*.pem"]],
    ],
    // As above, but for 200: `a/PROGRA~1/b` may be under `/etc` and is no `.env` or `.pem` file.
    out: "100 101 102 110 111 112 120 121 122 201 210 211 212 221",
  },
  {
    why: "a list may run wherever one whose prefixes it may run does: in any case, with fewer option letters",
    ops: [
      ["command", ["rm -R", "ls"]],
      ["command", ["rm -r", "ls -l", "ls"]],
      ["command", ["rm -R -f"]],
    ],
    // The first two may run where each other may (`rm -R` and `rm -r` in any case, `ls -l` after `ls`): never one
    // false and the other not (x0x / 0xx); `rm -R -f` may run only where `rm -R` may (00x); the third list and
    // the second are never certain together (x11); the first is certain where the third is (2x1).
    out: "001 002 010 011 012 020 021 022 100 101 102 111 200 201 202 211 221",
  },
  {
    why: "a list that names a folder anywhere but no file says nothing of a short name last",
    ops: [
      ["path_prefix", "/etc"],
      ["glob", ["/**", "~/**", "~"]],
      ["glob", ["**/.ssh/**", "**/.aws/**"]],
    ],
    out: "100 101 102 110 111 112 120 121 122 201 210 211 212 221",
  },
  {
    why: "a relative prefix says nothing of short names; certain, no absolute glob reads its path",
    ops: [
      ["path_prefix", "a"],
      ["glob", ["/**", "~/**", "~"]],
      ["glob", ["**/.env*", "**/.ssh/**"]],
    ],
    out: "110 111 112 120 121 122",
  },
  {
    why: "a program's path and its option letters' case change nothing of where a prefix may run",
    ops: [
      ["command", ["rm -R"]],
      ["command", ["/bin/rm -r"]],
    ],
    // Each may run where the other may (x0 / 0x); their words differ, so both are never certain (11).
    out: "01 02 10 11 20",
  },
  {
    why: "clusters of the same letters in another order, and words in order with options between",
    ops: [
      ["command", ["rm -fr", "git log -n x"]],
      ["command", ["rm -rf", "git log x"]],
    ],
    // The first may run only where the second may (x0); not the other way: `git log x` need not hold `-n`.
    out: "10 11 20",
  },
  {
    why: "words that merely hold a dash and letters are words, not option clusters",
    ops: [
      ["command", ["git a-bc"]],
      ["command", ["git x-cb"]],
    ],
    out: "11",
  },
  {
    why: "a line whose first word is whole may be covered by a longer prefix",
    ops: [
      ["regex", "^git(?:\\s|$)"],
      ["command", ["git status"]],
    ],
    out: "",
  },
  {
    why: "one start must agree with every certain list",
    ops: [
      ["regex", "^git (push|commit)"],
      ["command", ["git push", "ls"]],
      ["command", ["git commit", "ls"]],
    ],
    out: "111",
  },
  {
    why: "a regex with an alternative after the word says nothing of the first word",
    ops: [
      ["regex", "^npm x|y"],
      ["command", ["git status"]],
    ],
    out: "",
  },
];

describe("the facts rule out exactly what their rules name", () => {
  it.each(CASES.map((c) => [c.why, c] as const))("%s", (_, { ops, out }) => {
    expect(ruledOut(factsOf(ops).facts, ops.length).join(" ")).toBe(out);
  });

  it("keep their answers when asked again, in another order", () => {
    for (const { ops, out } of CASES) {
      const { facts } = factsOf(ops);
      const backwards = assignments(ops.length)
        .reverse()
        .filter((t) => !facts.allows(new Map(t.map((x, i) => [i, x]))))
        .map((t) => t.join(""));
      expect(backwards.reverse().join(" "), JSON.stringify(ops)).toBe(out);
      expect(ruledOut(facts, ops.length).join(" ")).toBe(out);
    }
  });
});

describe("FieldFacts.allows", () => {
  const map = (entries: readonly (readonly [number, Truth])[]): Map<number, Truth> => new Map(entries);

  it("relates only the atoms it is given truths of", () => {
    const { facts } = factsOf([
      ["path_prefix", "a/b"],
      ["path_prefix", "a"],
      ["command", ["git status"]],
      ["command", ["git"]],
      ["url", { host: "x.org" }],
      ["url", { host: "y.org" }],
    ]);
    expect(facts.allows(map([]))).toBe(true);
    expect(facts.allows(map([[0, 1]]))).toBe(true);
    expect(facts.allows(map([[1, 0]]))).toBe(true);
    expect(facts.allows(map([[2, 1]]))).toBe(true);
    expect(facts.allows(map([[4, 1]]))).toBe(true);
    expect(
      facts.allows(
        map([
          [0, 1],
          [1, 0],
        ]),
      ),
    ).toBe(false);
    expect(
      facts.allows(
        map([
          [2, 1],
          [3, 0],
        ]),
      ),
    ).toBe(false);
    expect(
      facts.allows(
        map([
          [4, 1],
          [5, 1],
        ]),
      ),
    ).toBe(false);
    // Atoms of different kinds are not related.
    expect(
      facts.allows(
        map([
          [0, 1],
          [3, 0],
          [5, 1],
        ]),
      ),
    ).toBe(true);
    expect(
      facts.allows(
        map([
          [0, 1],
          [1, 1],
          [2, 0],
          [3, 2],
          [4, 0],
          [5, 0],
        ]),
      ),
    ).toBe(true);
    // Truths of atoms the facts do not know are ignored.
    expect(
      facts.allows(
        map([
          [9, 1],
          [10, 0],
        ]),
      ),
    ).toBe(true);
  });

  it("relates a glob to a path prefix alone", () => {
    const { facts } = factsOf([
      ["glob", "a/*"],
      ["path_prefix", "a"],
    ]);
    expect(facts.allows(map([[0, 1]]))).toBe(true);
    expect(facts.allows(map([[1, 0]]))).toBe(true);
    expect(
      facts.allows(
        map([
          [0, 2],
          [1, 0],
        ]),
      ),
    ).toBe(false);
    expect(
      facts.allows(
        map([
          [0, 1],
          [1, 0],
        ]),
      ),
    ).toBe(false);
    expect(
      facts.allows(
        map([
          [0, 1],
          [1, 2],
        ]),
      ),
    ).toBe(true);
  });

  it("keeps a glob true where every other operator is true or unknown to it", () => {
    const { facts } = factsOf([
      ["glob", "a/*"],
      ["glob", "a/**"],
      ["glob", "b"],
    ]);
    expect(
      facts.allows(
        map([
          [0, 1],
          [2, 0],
        ]),
      ),
    ).toBe(true);
    expect(
      facts.allows(
        map([
          [0, 1],
          [1, 1],
          [2, 0],
        ]),
      ),
    ).toBe(true);
    expect(
      facts.allows(
        map([
          [0, 1],
          [1, 2],
          [2, 0],
        ]),
      ),
    ).toBe(false);
    expect(
      facts.allows(
        map([
          [0, 2],
          [1, 1],
          [2, 0],
        ]),
      ),
    ).toBe(true);
    expect(
      facts.allows(
        map([
          [0, 2],
          [1, 0],
          [2, 1],
        ]),
      ),
    ).toBe(false);
  });

  it("leaves out a command prefix that does not read, and a list with none relates to nothing", () => {
    // The runtime refuses both lists; the facts read what they can.
    expect(
      ruledOut(
        rawFacts([
          ["command", ["git", "a | b"]],
          ["command", ["git"]],
        ]),
        2,
      ).join(" "),
    ).toBe("01 02 10 12 20 21");
    expect(
      ruledOut(
        rawFacts([
          ["command", ["a | b"]],
          ["command", ["git"]],
        ]),
        2,
      ).join(" "),
    ).toBe("");
    expect(
      ruledOut(
        rawFacts([
          ["command", ["git"]],
          ["command", ["a | b"]],
        ]),
        2,
      ).join(" "),
    ).toBe("");
  });

  it("tells apart the sets of false operators by their ids, whatever their digits", () => {
    // Ids as a verification with many atoms numbers them: {1, 23} and {1, 2, 3} are different sets.
    const ops: Op[] = [
      ["glob", "{a,b}"],
      ["glob", "a"],
      ["glob", "x"],
      ["glob", "y"],
      ["glob", "b"],
    ];
    const ids = [0, 1, 2, 3, 23];
    const a = map([
      [0, 1],
      [1, 0],
      [2, 1],
      [3, 1],
      [23, 0],
    ]);
    const b = map([
      [0, 1],
      [1, 0],
      [2, 0],
      [3, 0],
      [23, 1],
    ]);
    const facts = rawFacts(ops, ids);
    expect(facts.allows(a)).toBe(false);
    expect(facts.allows(b)).toBe(true);
    const again = rawFacts(ops, ids);
    expect(again.allows(b)).toBe(true);
    expect(again.allows(a)).toBe(false);
  });

  it("does not compare a url operator with itself", () => {
    // No scheme at all (the runtime refuses an empty list): nothing in common with itself, yet it is not related.
    expect(
      ruledOut(
        rawFacts([
          ["url", { scheme: [] }],
          ["url", { host: "x.org" }],
        ]),
        2,
      ).join(" "),
      // Only that schemes alone are never a maybe where another operator is certain.
    ).toBe("21");
    expect(
      ruledOut(
        rawFacts([
          ["url", { host: [] }],
          ["url", { port: 1 }],
        ]),
        2,
      ).join(" "),
    ).toBe("12");
  });

  it("reads a path prefix over reading texts, where `.` is never one", () => {
    expect(
      ruledOut(
        rawFacts([
          ["glob", ".*"],
          ["path_prefix", "."],
        ]),
        2,
      ).join(" "),
    ).toBe("");
  });

  it("leaves out a url operator whose host does not read", () => {
    expect(
      ruledOut(
        rawFacts([
          ["url", { host: "a*b.com" }],
          ["url", { host: "x.org" }],
        ]),
        2,
      ).join(" "),
    ).toBe("");
    expect(
      ruledOut(
        rawFacts([
          ["url", { host: "x.org" }],
          ["url", { host: ["y.org", "a*b.com"] }],
        ]),
        2,
      ).join(" "),
    ).toBe("");
  });
});
