// The real programs stay the oracle: the classes of the third review (programs that run argument text as code,
// text handed to `sh -c`, backslash-newlines, zsh's expansions and EXTENDED_GLOB operators, builtins that evaluate
// text, shells missing from the tables) run in dash, bash, bash --posix, busybox sh, zsh as sh and zsh itself
// with EXTENDED_GLOB, with real make, git, vim, rbash and rzsh, and stub executables for everything they might
// run. Two properties, as in shell-oracle.test.ts: when an allow is certain, nothing ran but the commands of the
// safe-subset reading; when anything deny-listed ran, the deny may match.
//
// Nothing real is destroyed: PATH holds only the stubs (which log their argv and do nothing) and the real
// programs named above, `rm` and friends are stubs, and HOME and the working directory are fresh.
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { matchCommand, readSafeSubset, splitCommandPrefix } from "../../../src/runtime/match/shell.js";
import { isDenyListed } from "./shell-oracle/harness.js";

const SHELLS = ["/usr/bin/dash", "/usr/bin/bash", "/usr/bin/busybox", "/usr/bin/zsh"];
const PROGRAMS = ["/usr/bin/make", "/usr/bin/git", "/usr/bin/vim", "/usr/bin/rbash", "/usr/bin/rzsh"];
const missing = [...SHELLS, ...PROGRAMS].filter((path) => !existsSync(path));

const words = (text: string) => {
  const split = splitCommandPrefix(text);
  if (split === null) throw new Error(text);
  return split;
};
const ALLOW = ["make", "git", "git diff", "vim", "ls", "echo", "less"].map(words);
const DENY = ["rm -rf", "curl"].map(words);

// Each case once as written; `tgt` is the only target a deny-listed command ever names.
const CASES = [
  // make: variable assignments on the command line are recipes' code.
  "make -s CC='rm -rf tgt'",
  "make -s CC='r''m -rf tgt'",
  "make -s CC=\"r\"m' -rf tgt'",
  "make -s all CC='curl x'",
  "make -s",
  "make -s CC=true",
  // git: -c values, ! aliases, environment values it runs.
  "git -c 'alias.x=!rm -rf tgt' x",
  "git -c 'alias.x=!r''m -rf tgt' x",
  "git -c alias.x='!curl x' x",
  "GIT_EXTERNAL_DIFF='rm -rf tgt' git diff --no-index a b",
  "GIT_EXTERNAL_DIFF='r\"\"m -rf tgt' git diff --no-index a b",
  "env GIT_EXTERNAL_DIFF='rm -rf tgt' git diff --no-index a b",
  "git diff --no-index a b",
  "git --version",
  // vim: +cmd and -c run Ex commands, `!` a shell command.
  "vim -es '+!rm -rf tgt' '+q!' a",
  "vim -es -c '!rm -rf tgt' -c 'q!' a",
  "vim -es '+!r''m -rf tgt' '+q!' a",
  "vim -es a",
  // Backslash-newline, removed before reading.
  "echo $\\\n(rm -rf tgt)",
  'echo "$\\\n(rm -rf tgt)"',
  "r\\\nm -rf tgt",
  "echo `r\\\nm -rf tgt`",
  "echo 'r\\\nm -rf tgt'",
  // zsh: $=x splits, =cmd is a path, EXTENDED_GLOB patterns name files (`rm` is a file here).
  "x='rm -rf tgt'; $=x",
  "=rm -rf tgt",
  "r#m -rf tgt",
  "r~x -rf tgt",
  "rm~x -rf tgt",
  "^(ls|a|b|it|Makefile|RM) -rf tgt",
  // Builtins that evaluate text.
  "PS4='$(rm -rf tgt)'; set -x; ls",
  "test -v 'a[$(rm -rf tgt)]'",
  "a=(1); unset 'a[$(rm -rf tgt)]'",
  "x='a[$(rm -rf tgt)]'; shift x",
  "x='a[$(rm -rf tgt)]'; exit x",
  "print -P '%(x.$(rm -rf tgt).)'",
  // Shells missing from the tables before.
  "rbash -c 'rm -rf tgt'",
  "rzsh -c 'rm -rf tgt'",
  // Inert forms that must stay allowed.
  "ls -la",
  "echo hi",
  "git diff --no-index --stat a b",
];

/** Each shell, as the argv that runs one case given as the last argument. */
const RUNNERS: readonly { readonly name: string; readonly argv: readonly string[] }[] = [
  { name: "dash", argv: ["/usr/bin/dash", "-c"] },
  { name: "bash", argv: ["/usr/bin/bash", "-c"] },
  { name: "bash --posix", argv: ["/usr/bin/bash", "--posix", "-c"] },
  { name: "busybox sh", argv: ["/usr/bin/busybox", "sh", "-c"] },
  { name: "zsh", argv: ["/usr/bin/zsh", "-f", "-o", "extendedglob", "-c"] },
];

let root = "";
let bin = "";
let log = "";
let work = "";

beforeAll(() => {
  if (missing.length > 0) return;
  root = mkdtempSync(join(tmpdir(), "toolgate-oracle-programs-"));
  bin = join(root, "bin");
  log = join(root, "log");
  work = join(root, "work");
  for (const dir of [bin, work, join(root, "home"), join(root, "zsh-as")]) mkdirSync(dir);
  const stub = join(bin, "stub");
  // One write per record (the fields built first, then one printf of one string), so that two stubs of a
  // pipeline that run at once never interleave their records in the log.
  writeFileSync(
    stub,
    `#!/usr/bin/dash\nr="$(printf '%s\\037' "$0" "$@")"\nprintf '%s\\036' "$r" >>'${log}'\n`,
  );
  chmodSync(stub, 0o755);
  for (const name of ["rm", "RM", "curl", "ls", "true", "x", "cat"]) symlinkSync(stub, join(bin, name));
  for (const program of [...PROGRAMS, "/usr/bin/env", "/usr/bin/dash"]) {
    symlinkSync(program, join(bin, program.slice(program.lastIndexOf("/") + 1)));
  }
  // /bin/sh runs make's recipes and git's aliases: as dash, by absolute path, with the stubs on PATH.
  symlinkSync("/usr/bin/dash", join(bin, "sh"));
  symlinkSync("/usr/bin/zsh", join(root, "zsh-as", "sh"));
  writeFileSync(join(work, "Makefile"), "CC = :\nall:\n\t@$(CC) -c x.c\n");
  writeFileSync(join(work, "a"), "a\n");
  writeFileSync(join(work, "b"), "b\n");
  // The file `rm` that zsh's patterns find (a stub too).
  symlinkSync(stub, join(work, "rm"));
});

afterAll(() => {
  if (root !== "") rmSync(root, { recursive: true, force: true });
});

const runners = () => [...RUNNERS, { name: "zsh as sh", argv: [join(root, "zsh-as", "sh"), "-c"] }];

/** What one case ran in one shell: each stub's argv (base name first). */
function run(argv: readonly string[], source: string): string[][] {
  rmSync(log, { force: true });
  const [command, ...args] = argv as [string, ...string[]];
  spawnSync(command, [...args, source], {
    cwd: work,
    env: { PATH: bin, HOME: join(root, "home"), LC_ALL: "C", SHELL: "/bin/sh", TERM: "dumb" },
    stdio: ["ignore", "ignore", "ignore"],
    timeout: 20_000,
  });
  const text = existsSync(log) ? readFileSync(log, "latin1") : "";
  return text
    .split("\x1e")
    .filter((record) => record !== "")
    .map((record) => {
      const fields = record.split("\x1f");
      fields.pop();
      fields[0] = (fields[0] as string).slice((fields[0] as string).lastIndexOf("/") + 1);
      return fields;
    });
}

describe.skipIf(missing.length > 0 && process.env.CI === undefined)(
  "the real programs as oracle: make, git, vim, rbash, rzsh in dash, bash, bash --posix, busybox sh, zsh",
  () => {
    it("has every shell and program it needs", () => {
      expect(missing).toEqual([]);
    });

    it("allows only what ran only allowed commands, and may deny whatever ran a denied one", () => {
      const violations: string[] = [];
      let deniedRuns = 0;
      let certain = 0;
      for (const source of CASES) {
        const allow = matchCommand(source, ALLOW);
        const deny = matchCommand(source, DENY);
        if (allow.certain) certain++;
        const safe = allow.certain ? (readSafeSubset(source) ?? []) : [];
        for (const shell of runners()) {
          const ran = run(shell.argv, source);
          if (
            allow.certain &&
            !ran.every((argv) => safe.some((c) => c.words.join("\0") === argv.join("\0")))
          ) {
            violations.push(`allow: ${JSON.stringify(source)} in ${shell.name} ran ${JSON.stringify(ran)}`);
          }
          if (ran.some(isDenyListed)) {
            deniedRuns++;
            if (!deny.possible)
              violations.push(`deny: ${JSON.stringify(source)} in ${shell.name} ran ${JSON.stringify(ran)}`);
          }
        }
      }
      expect(violations).toEqual([]);
      // The oracle checks something only if the programs really ran denied commands and some cases are allowed.
      expect(deniedRuns).toBeGreaterThan(40);
      expect(certain).toBeGreaterThanOrEqual(4);
    }, 240_000);
  },
);
