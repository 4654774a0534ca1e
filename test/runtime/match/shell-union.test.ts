// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the test data is shell source, where ${...} is parameter expansion
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  matchCommand,
  parseCommandPrefix,
  parseCommandPrefixSpec,
  readSafeSubset,
  readShellCommand,
  splitCommandPrefix,
} from "../../../src/runtime/match/shell.js";

function prefixes(...texts: string[]): (readonly string[])[] {
  return texts.map((text) => {
    const words = splitCommandPrefix(text);
    if (words === null) throw new Error(text);
    return words;
  });
}

const ALLOW = prefixes("git status", "git diff", "git log", "ls", "pwd", "npm test", "echo");
const DENY = prefixes("rm -rf", "python3", "perl", "sh", "curl");

describe("the safe subset: the only strings an allow can certainly match", () => {
  const inside = [
    "git status",
    "git status --short",
    "git  status\t-s",
    "ls -la src/",
    "git log --format=%H,%an:x@y+z",
    "git 'status'",
    'git "status"',
    "g'i't st\"at\"us",
    "git log --grep 'a b $c `d` \\ !'",
    "git log --grep \"a b c 'd'\"",
    "git status; ls",
    "git status && ls || pwd | ls",
    "git status\nls\n",
    "git status &&\nls",
    "git status |\nls",
    "git status;",
    "git status 2>&1 >/dev/null",
    "git status 2> /dev/null </dev/null 1>&2 >>/dev/null",
    ">/dev/null git status",
    "ls a=b",
  ];
  it.each(inside)("%j is inside", (source) => {
    expect(readSafeSubset(source)).toBeDefined();
    expect(matchCommand(source, ALLOW).certain).toBe(true);
  });

  const outside = [
    "git status $HOME",
    "git status ${x}",
    "git status $'a'",
    'git status $"a"',
    "git status `ls`",
    "git status $(ls)",
    'git status "$x"',
    'git status "a\\"b"',
    'git status "a`b`"',
    'git status "a!b"',
    "git status \\x",
    "git status *",
    "git status ?",
    "git status [a]",
    "git status {a,b}",
    "git status ~",
    "git status ~/x",
    "git status #x",
    "git status a#b",
    "git status !",
    "git status ^a",
    "git status &",
    "git status &>/dev/null",
    "git status |& ls",
    "(git status)",
    "{ git status; }",
    "git status <<EOF\nx\nEOF",
    "git status <<<x",
    "git status >x",
    "git status >>log",
    "git status 3>/dev/null",
    "git status a2>/dev/null",
    "git status >/dev/null2",
    "git status >&3",
    "git status >&-",
    "git status <&0",
    "git status >|/dev/null",
    "git status <>/dev/null",
    "FOO=1 git status",
    "=git status",
    "git status =x",
    "time git status",
    "! git status",
    "export X=1; git status",
    "git status\r",
    "git status\u0000",
    "git status caf\u00e9",
    "git status a\u00a0b",
    "git status 'a\tb'",
    "git status 'a\nb'",
    "git status ;; ls",
    "; git status",
    "git status &&",
    "git status |",
    "",
    "   ",
    ">/dev/null",
    "git status 'unterminated",
  ];
  it.each(outside)("%j is outside: never certain", (source) => {
    expect(readSafeSubset(source)).toBeUndefined();
    expect(matchCommand(source, ALLOW).certain).toBe(false);
  });

  it("options hidden by an expansion can never be allowed (the regex rules cannot see them)", () => {
    for (const source of [
      "git diff --output$@=/x",
      "git diff --output${IFS}/x",
      "git diff $*--output=/x",
      "git diff --out$'put'=/x",
      "git diff --output${x:-=}/x",
    ]) {
      expect(matchCommand(source, ALLOW).certain, source).toBe(false);
    }
  });

  it("certain implies that every shell-reading says possible (property)", () => {
    const pieces = fc.constantFrom(
      "git",
      "status",
      "ls",
      "-la",
      " ",
      "  ",
      ";",
      "&&",
      "||",
      "|",
      "\n",
      "'a b'",
      '"c d"',
      "2>&1",
      ">/dev/null",
      "x",
      "=",
      "%",
      "$",
      "#",
      "&",
      "(",
      "\\",
      "*",
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 12 }), (parts) => {
        const source = parts.join("");
        const result = matchCommand(source, ALLOW);
        if (result.certain) expect(result.possible).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});

describe("deny and ask take the union of readings", () => {
  // [source, deny possible]
  const cases: [string, boolean][] = [
    // dash reads `ls &` then a foreground `>/dev/null rm -rf ~`.
    ["ls &>/dev/null rm -rf ~", true],
    ["ls &>/dev/null", false],
    // bash reads `'` inside "${…}" as a quote; every other shell reads it as a character.
    ['x=; echo "${x:-\'}"; rm -rf /; echo "\'"', true],
    // dash reads `$'` as `$` then a quoted string that ends at the backslash.
    ["echo $'\\'; rm -rf / #'", true],
    // bash evaluates the value of y as arithmetic, with a command substitution in its subscript.
    ["ls ${x:=$} ${y:=a[${x}(rm -rf /)]} $((y))", true],
    ["ls $((y))", true],
    ["y='a[$(rm -rf /)]'; let y", true],
    ["let y", true],
    ["read y; declare -i z=y", true],
    // Option clusters in any order, split or combined, any case.
    ["rm -Rf /", true],
    ["rm -fr /", true],
    ["rm -r -f /", true],
    ["rm -rfv /", true],
    ["rm -r -v -f /", true],
    ["rm -r /", false],
    ["rm -f x", false],
    ["rm --recursive --force /", false],
    // Unknown wrappers, paths, versions.
    ["prlimit rm -rf /", true],
    ["setpriv --reuid=1 rm -rf /", true],
    ["unbuffer rm -rf /", true],
    ["run0 rm -rf /", true],
    ["time ! rm -rf /", true],
    ["/usr/bin/rm -rf /", true],
    ["python3.12 -c x", true],
    ["python3.11 x.py", true],
    ["perl5.36 x.pl", true],
    ["PYTHON3 x.py", true],
    ["python x.py", false],
    ["prlimit bash x.sh", true],
    ["unbuffer xargs rm", true],
    // A shell reading stdin behind an unknown wrapper, or a command queued for later.
    ["echo 'rm -rf /' | prlimit sudo -s", true],
    ["echo 'rm -rf /' | setpriv su", true],
    ["echo 'rm -rf /' | at now", true],
    ["echo 'rm -rf /' | unbuffer ssh host", true],
    ["prlimit sh -c 'rm -rf /'", true],
    ["prlimit eval 'rm -rf /'", true],
    ["git -c core.pager='rm -rf /' log", true],
    ["PAGER='rm -rf /' git log", true],
    ["find . -exec {} -rf / ;", true],
    ["cat <<<'rm -rf /' | prlimit sh", true],
    ["prlimit $CMD", true],
    // Characters a shell drops or a terminal hides.
    ["r\u0000m -rf /", true],
    ["git status\u200b", true],
    ["git status\r", true],
    // Data after a command that never runs its operands is not a command.
    ["echo rm -rf /", false],
    ["ls $HOME", false],
    ["echo 'rm -rf /'", false],
    ["git status", false],
    ["npm test", false],
  ];
  it.each(cases)("%j → possible %s", (source, possible) => {
    expect(matchCommand(source, DENY).possible).toBe(possible);
    if (possible) expect(matchCommand(source, ALLOW).certain).toBe(false);
  });

  it("reads a string once per dialect only when a token tells the dialects apart", () => {
    const count = (source: string): number => {
      const read = readShellCommand(source);
      if (!read.ok) throw new Error(read.message);
      return read.readings.length;
    };
    expect(count("git status && ls")).toBe(1);
    expect(count("echo ${x}")).toBe(2);
    expect(count("ls &>/dev/null")).toBe(2);
    expect(count("echo ${x} $'y'")).toBe(3);
  });

  it("a cluster in a deny prefix matches every order, split and case of its letters (property)", () => {
    const spelling = fc.shuffledSubarray(["r", "f", "v", "i", "R", "F"], { minLength: 1 }).chain((letters) =>
      fc.array(fc.integer({ min: 1, max: letters.length }), { maxLength: 3 }).map((cuts) => {
        const sorted = [...new Set(cuts)].sort((a, b) => a - b);
        const groups: string[] = [];
        let from = 0;
        for (const cut of [...sorted, letters.length]) {
          if (cut > from) groups.push(`-${letters.slice(from, cut).join("")}`);
          from = cut;
        }
        return { letters, options: groups.join(" ") };
      }),
    );
    fc.assert(
      fc.property(spelling, ({ letters, options }) => {
        const lower = new Set(letters.map((l) => l.toLowerCase()));
        const both = lower.has("r") && lower.has("f");
        expect(matchCommand(`rm ${options} /`, prefixes("rm -rf")).possible, options).toBe(both);
      }),
      { numRuns: 500 },
    );
  });
});

describe("exact prefixes: a trailing $ makes the command end there", () => {
  it("parses the marker only at the very end and outside quotes", () => {
    expect(parseCommandPrefix("npm test$")).toEqual({ words: ["npm", "test"], exact: true });
    expect(parseCommandPrefix("npm test $ ")).toEqual({ words: ["npm", "test"], exact: true });
    expect(parseCommandPrefix("npm test")).toEqual({ words: ["npm", "test"], exact: false });
    expect(parseCommandPrefix("'npm test$'")).toEqual({ words: ["npm test$"], exact: false });
    expect(parseCommandPrefix("npm\\$")).toEqual({ words: ["npm$"], exact: false });
    expect(parseCommandPrefix("npm $x$")).toBeNull();
    expect(splitCommandPrefix("npm test$")).toEqual(["npm", "test"]);
  });

  // [command, allow certain, deny possible] against the exact prefix `npm test$`
  const cases: [string, boolean, boolean][] = [
    ["npm test", true, true],
    ["npm test 2>&1", true, true],
    ["npm test; npm test", true, true],
    ["npm test --node-options=--import=data:x", false, true],
    ["npm test -- --watch", false, true],
    ["npm testx", false, false],
    ["npm run build", false, false],
  ];
  it.each(cases)("%j: certain %s, possible %s", (source, certain, possible) => {
    const exact = parseCommandPrefix("npm test$");
    if (exact === null) throw new Error("prefix");
    expect(matchCommand(source, [exact])).toEqual({ certain, possible });
  });

  it("an exact prefix is certain for a command only when the plain prefix is, and possible exactly when it is (property)", () => {
    const exact = parseCommandPrefix("git status$");
    const plain = parseCommandPrefix("git status");
    if (exact === null || plain === null) throw new Error("prefix");
    const piece = fc.constantFrom("git", "status", "--short", " ", ";", "&&", "|", "ls", "$x", "'a'", "\n");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }), (parts) => {
        const source = parts.join(" ");
        const a = matchCommand(source, [exact]);
        const b = matchCommand(source, [plain]);
        if (a.certain) expect(b.certain).toBe(true);
        expect(a.possible).toBe(b.possible);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("prefixes with options: { prefix, options } limits the options that may follow", () => {
  const read = (spec: unknown) => {
    const result = parseCommandPrefixSpec(spec);
    if (!result.ok) throw new Error(result.message);
    return result.prefix;
  };
  const gitLog = read({ prefix: "git log", options: ["--oneline", "-n", "--stat"] });

  it("reads the object form, and refuses what it cannot be sure of, saying where", () => {
    expect(gitLog.words).toEqual(["git", "log"]);
    expect([...(gitLog.options ?? [])]).toEqual(["--oneline", "-n", "--stat"]);
    expect(read("git log").options).toBeUndefined();
    const refused = (spec: unknown) => {
      const result = parseCommandPrefixSpec(spec);
      if (result.ok) throw new Error(`accepted ${JSON.stringify(spec)}`);
      return result;
    };
    expect(refused({ prefix: "git log$", options: ["--oneline"] }).message).toMatch(/ends with "\$"/);
    expect(refused({ prefix: "git log", options: ["oneline"] })).toMatchObject({ at: ["options", 0] });
    expect(refused({ prefix: "git log", options: ["--a", "--x --y"] })).toMatchObject({ at: ["options", 1] });
    expect(refused({ prefix: "git log", options: ["'--x'"] }).message).toMatch(/one plain word/);
    expect(refused({ prefix: "git log", options: ["--$x"] }).message).toMatch(/one plain word/);
    expect(refused({ prefix: "git;log", options: [] })).toMatchObject({ at: ["prefix"] });
    expect(refused({ prefix: "git log" }).message).toMatch(/needs "options"/);
    expect(refused({ prefix: "git log", options: [], opts: [] }).message).toMatch(/unknown key "opts"/);
    expect(refused({ options: [] }).message).toMatch(/"prefix" is missing/);
    expect(refused(["git", "log"]).message).toMatch(/string such as "git status"/);
    expect(refused("git $x").message).toMatch(/plain words/);
  });

  // [command, allow certain, deny possible] against `{ prefix: "git log", options: [--oneline, -n, --stat] }`
  const cases: [string, boolean, boolean][] = [
    ["git log", true, true],
    ["git log --oneline", true, true],
    ["git log --oneline -n 5 main", true, true],
    ["git log '--stat' >/dev/null", true, true],
    ["git log --oneline; git log --stat", true, true],
    ["git log -p", false, true],
    ["git log --oneline --output=.env", false, true],
    ["git log --output .env", false, true],
    ["git log -n5", false, true],
    // After `--` a word starting with `-` is an operand (a path), not an option: only options are limited.
    ["git log -- .env", true, true],
    ["git log -- -p", true, true],
    ["git log -p -- x", false, true],
    ["git log --oneline; git log -p", false, true],
    ["git log $x", false, true],
    ["git logx --oneline", false, false],
    ["git status --short", false, false],
  ];
  it.each(cases)("%j: certain %s, possible %s", (source, certain, possible) => {
    expect(matchCommand(source, [gitLog])).toEqual({ certain, possible });
  });

  it("is certain only when the plain prefix is, and possible exactly when it is (property)", () => {
    const plain = read("git log");
    const piece = fc.constantFrom(
      "git",
      "log",
      "--oneline",
      "-p",
      "-n",
      "5",
      " ",
      ";",
      "|",
      "$x",
      "'-p'",
      "\n",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }), (parts) => {
        const source = parts.join(" ");
        const a = matchCommand(source, [gitLog]);
        const b = matchCommand(source, [plain]);
        if (a.certain) expect(b.certain).toBe(true);
        expect(a.possible).toBe(b.possible);
      }),
      { numRuns: 2000 },
    );
  });
});
