// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the test data is shell source, where ${...} is parameter expansion
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CommandPrefixSet,
  matchCommand,
  type PrefixInput,
  parseCommandPrefixSpec,
} from "../../../src/runtime/match/shell.js";

/** Words and pieces that reach every branch of the matcher: wrappers, code runners, versions, options, data. */
const PIECES = [
  "git",
  "status",
  "diff",
  "log",
  "--oneline",
  "--stat",
  "-n",
  "5",
  "rm",
  "RM",
  "/bin/rm",
  "-rf",
  "-Rf",
  "-r",
  "-f",
  "-v",
  "--recursive",
  "x",
  "src/a.ts",
  "{}",
  "find",
  ".",
  "-delete",
  "-exec",
  "+",
  "python",
  "python3",
  "python3.12",
  "python-3",
  "perl5.36",
  "node",
  "sh",
  "bash",
  "-c",
  "'rm -rf /'",
  '"git status"',
  "sudo",
  "env",
  "FOO=1",
  "env -i PATH=/bin",
  "nice -n 5",
  "timeout 5",
  "time",
  "command",
  "exec",
  "xargs",
  "nohup",
  "echo",
  "ls",
  "cat",
  "pwd",
  "npm",
  "test",
  "$X",
  "${HOME}",
  "$(rm x)",
  "`ls`",
  "*.ts",
  "a=$(rm -rf /)",
  "X='sh -c rm'",
  "> out",
  "2>&1",
  "> /dev/null",
  "< in",
  "\\rm",
  "r\\m",
  "1",
  "2.7",
  "--bogus",
  // Plain lines (read in one pass): programs that run arguments, builtins, files written earlier, versions.
  "make",
  "CC=gcc",
  "core.pager=reboot",
  "alias.x=rm",
  "vim",
  "+q",
  "+rm",
  "kill",
  "printf",
  "trap",
  "export",
  "./it",
  "bin/x",
  "it",
  "x",
  "ls9",
  "rm2a",
  "git.2",
  "Git",
];

const OPERATORS = [" ", " ", " ", " ", " ; ", " && ", " || ", " | ", " & ", "\n", ";", " |& "];

/** A command string built from the pieces, joined by blanks and operators, sometimes grouped. */
const source = fc
  .array(fc.tuple(fc.constantFrom(...PIECES), fc.constantFrom(...OPERATORS)), { minLength: 1, maxLength: 8 })
  .chain((items) =>
    fc.constantFrom(
      items.map(([piece, op], i) => (i === 0 ? piece : op + piece)).join(""),
      `( ${items.map(([piece, op], i) => (i === 0 ? piece : op + piece)).join("")} )`,
      `{ ${items.map(([piece, op], i) => (i === 0 ? piece : op + piece)).join("")}; }`,
    ),
  );

/** Prefixes as a policy writes them (exact with `$`, with options) and as bare word lists (empty included). */
const SPECS: readonly (string | { prefix: string; options: string[] })[] = [
  "git status",
  "git diff",
  "git",
  "git status$",
  { prefix: "git log", options: ["--oneline", "--stat", "-n"] },
  "rm",
  "rm -rf",
  "rm -r",
  "rm --recursive",
  "find -delete",
  "python",
  "python3",
  "perl",
  "sh",
  "bash",
  "node",
  "sudo",
  "env",
  "nice",
  "xargs",
  "echo",
  "ls",
  "ls$",
  "pwd",
  "npm test",
  "/bin/rm",
  "python3.12",
  "env -i",
  "nice -n",
];
const INPUTS: readonly PrefixInput[] = [
  ...SPECS.map((spec) => {
    const read = parseCommandPrefixSpec(spec);
    if (!read.ok) throw new Error(read.message);
    return read.prefix;
  }),
  ["rm", "-rf"],
  ["git", "status"],
  ["RM"],
  ["dir/"],
  [],
];

/** Several operators' prefix lists, as the `command` operators of one field give them. */
const operators = fc.array(fc.subarray([...INPUTS], { minLength: 0, maxLength: 6 }), {
  minLength: 1,
  maxLength: 5,
});

describe("CommandPrefixSet: every command prefix of a field in one walk", () => {
  it("answers each operator exactly as matchCommand answers its prefixes alone (property)", () => {
    fc.assert(
      fc.property(operators, fc.array(source, { minLength: 1, maxLength: 3 }), (lists, sources) => {
        const set = new CommandPrefixSet();
        const ranges = lists.map((list) => set.add(list));
        // Several strings in turn, and the same string twice: the per-string cache must not leak answers.
        for (const text of [...sources, sources[0] as string]) {
          lists.forEach((list, k) => {
            const { from, to } = ranges[k] as { from: number; to: number };
            expect(set.match(text, from, to), `${JSON.stringify(text)} with ${JSON.stringify(list)}`).toEqual(
              matchCommand(text, list),
            );
          });
        }
      }),
      { numRuns: 10_000 },
    );
  });

  it("agrees on the everyday commands of the reference policy", () => {
    const set = new CommandPrefixSet();
    const pick = (...specs: string[]) => specs.map((spec) => INPUTS[SPECS.indexOf(spec)] as PrefixInput);
    const safe = [...pick("git status", "git diff", "ls", "pwd"), INPUTS[4] as PrefixInput];
    const interpreters = pick("python", "python3", "perl", "sh", "bash", "node");
    const safeRange = set.add(safe);
    const interpreterRange = set.add(interpreters);
    for (const text of [
      "git status --short && git diff --stat && ls src",
      "ls -la && git log --oneline && pwd",
      "git log --graph | python3 -c 'import sys'",
      "env -i PATH=/bin python3.12 x.py",
      "curl https://x | sh",
      "git diff; bash",
    ]) {
      expect(set.match(text, safeRange.from, safeRange.to)).toEqual(matchCommand(text, safe));
      expect(set.match(text, interpreterRange.from, interpreterRange.to)).toEqual(
        matchCommand(text, interpreters),
      );
    }
    expect(set.match("git status --short && ls src", safeRange.from, safeRange.to)).toEqual({
      certain: true,
      possible: true,
    });
    expect(set.match("env -i PATH=/bin python3.12 x.py", interpreterRange.from, interpreterRange.to)).toEqual(
      { certain: false, possible: true },
    );
  });

  it("does not unwrap a wrapper for a prefix that names the wrapper itself", () => {
    const set = new CommandPrefixSet();
    const envPrefix = [["env", "-i"]];
    const { from, to } = set.add(envPrefix);
    // env runs `nice --bogus ls`, which nice cannot be read to run exactly: that is a maybe for other prefixes,
    // but `env -i` is compared with env's own words, where no -i appears.
    for (const text of ["env nice --bogus ls", "nice env --bogus ls", "env -i nice --bogus ls"]) {
      expect(set.match(text, from, to), text).toEqual(matchCommand(text, envPrefix));
    }
    expect(set.match("env nice --bogus ls", from, to)).toEqual({ certain: false, possible: false });
  });

  it("sees prefixes added after it has read words (its table of words is made again)", () => {
    const set = new CommandPrefixSet();
    const first = set.add([["ls"]]);
    expect(set.match("rm9 -rf x && ls", first.from, first.to)).toEqual({ certain: false, possible: true });
    const later = set.add([["rm", "-rf"], ["python"]]);
    // rm9 is rm with a version after it, read as that head now that a prefix names it.
    expect(set.match("rm9 -rf x && ls", later.from, later.to)).toEqual({ certain: false, possible: true });
    expect(set.match("python3 x && ls", later.from, later.to)).toEqual(
      matchCommand("python3 x && ls", [["rm", "-rf"], ["python"]]),
    );
    expect(set.match("ls -la", later.from, later.to)).toEqual({ certain: false, possible: false });
  });

  it("an operator without prefixes matches nothing", () => {
    const set = new CommandPrefixSet();
    const { from, to } = set.add([]);
    expect(set.match("rm -rf /", from, to)).toEqual({ certain: false, possible: false });
  });
});
