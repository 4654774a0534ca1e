// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the fragments are shell source, where ${...} is parameter expansion
// A differential oracle for the `command` operator: the real shells. Commands generated from fragments run in
// dash, bash, bash --posix, busybox sh and zsh as sh, with a PATH holding only stub executables that append
// their argv to a log and do nothing else. Two properties are checked against what the shells ran:
// - allow: when the matcher says the allow prefixes certainly match, every command any shell ran is one of the
//   simple commands of the safe-subset reading (so it starts with an allow prefix);
// - deny: when any shell ran a deny-listed command, the matcher says the deny prefixes may match.
//
// Nothing real runs: the shells are started by absolute path, PATH holds only stubs, no fragment names an
// absolute path or changes PATH, deny-listed commands only ever name a relative target, and HOME and the
// working directory are fresh temporary directories. Each shell reads one batch script that runs every case
// as `( eval "$case" )` with stdin from /dev/null (eval reads its string as `sh -c` does: one complete command
// at a time, with the same parser), after writing a case marker to the log.

import { spawn, spawnSync } from "node:child_process";
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
import {
  matchCommand,
  readSafeSubset,
  type SafeCommand,
  splitCommandPrefix,
} from "../../../../src/runtime/match/shell.js";

/** The shells compared, each as the argv that runs a script file. */
export interface OracleShell {
  readonly name: string;
  readonly argv: readonly string[];
}

export const SHELL_BINARIES = ["/usr/bin/dash", "/usr/bin/bash", "/usr/bin/busybox", "/usr/bin/zsh"] as const;

/** The binaries that are missing on this machine (the oracle needs all of them). */
export function missingShells(): string[] {
  return SHELL_BINARIES.filter((path) => !existsSync(path));
}

const ALLOW_TEXTS = ["git status", "git log", "ls", "npm test", "pwd", "echo"];
const DENY_TEXTS = ["rm -rf", "curl", "python3", "perl"];

function words(text: string): readonly string[] {
  const split = splitCommandPrefix(text);
  if (split === null) throw new Error(`bad prefix ${text}`);
  return split;
}

export const ALLOW = ALLOW_TEXTS.map(words);
export const DENY = DENY_TEXTS.map(words);

/** Every command name a stub answers to. */
const STUBS = [
  "ls",
  "git",
  "npm",
  "pwd",
  "rm",
  "curl",
  "python3",
  "python3.12",
  "perl",
  "perl5.36",
  "cat",
  "touch",
  "env",
  "nice",
  "nohup",
  "sudo",
  "prlimit",
  "setpriv",
  "xargs",
  "timeout",
  "tee",
  "grep",
  "x",
  "y",
  "a",
  "b",
  "RM",
  "Rm",
];

/**
 * Whether a command a shell ran is deny-listed, decided from its argv alone, independently of the matcher:
 * `rm` (any case, any directory) with short options holding `r` and `f` (any case, any split); `curl`;
 * `python3` or `perl` with or without a version.
 */
export function isDenyListed(argv: readonly string[]): boolean {
  const name = (argv[0] ?? "").split("/").pop()?.toLowerCase() ?? "";
  if (name === "curl" || /^python3(\.[0-9]+)?$/.test(name) || /^perl([0-9.]+)?$/.test(name)) return true;
  if (name !== "rm") return false;
  const letters = argv
    .slice(1)
    .filter((a) => /^-[^-]/.test(a))
    .join("")
    .toLowerCase();
  return letters.includes("r") && letters.includes("f");
}

/** A small seeded generator (mulberry32): the same seed gives the same cases on every machine. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SAFE = [
  "ls",
  "ls -la",
  "git status",
  "git status --short",
  "git log --oneline",
  "npm test",
  "pwd",
  "echo hi",
];
const DENIED = [
  "rm -rf tgt",
  "rm -fr tgt",
  "rm -r -f tgt",
  "rm -Rf tgt",
  "rm -rfv tgt",
  "rm -r -v -f tgt",
  "./rm -rf tgt",
  "RM -rf tgt",
  "curl http://x",
  "python3 -c x",
  "python3.12 x",
  "perl -e x",
  "perl5.36 x",
];
const OTHER = ["rm tgt", "rm -r tgt", "cat f", "touch f", "git push", "x", "y z", "a -rf b"];
const WRAPPERS = [
  "env",
  "nice",
  "nohup",
  "time",
  "time !",
  "!",
  "command",
  "sudo",
  "prlimit",
  "setpriv",
  "xargs",
  "exec",
  "eval",
  "timeout 5",
];
const OPERATORS = [" ; ", " && ", " || ", " | ", "\n", ";", "&&", " & ", " |& ", "||", "|"];
const REDIRECTIONS = [
  ">/dev/null",
  "2>&1",
  "2>/dev/null",
  "</dev/null",
  "&>/dev/null",
  ">out",
  "2> /dev/null",
  "1>&2",
  "<<<x",
  ">&2",
  "&>",
  ">|out",
];
const ARGS = [
  "a",
  "'a b'",
  '"a b"',
  "'it''s'",
  '"$x"',
  "$x",
  "${x}",
  "$@",
  "$*",
  "${IFS}",
  "$'a b'",
  '$"a"',
  "~",
  "~/x",
  "{a,b}",
  "*",
  "?",
  "[a]",
  "a#b",
  "#c",
  "\\;",
  "a\\ b",
  "$((1+1))",
  "${x:-a}",
  "${x:=y}",
  "a=b",
  "-rf",
  "-R",
  "-f",
  "--output=/dev/null",
  "--output$@=o",
  "!",
  "%",
  "^a",
  "$=x",
  "$~x",
  "=x",
  "a~b",
  "r#m",
];
/** Values a case may give its variables before use: most hide a deny-listed command. */
const VALUES = ["'rm -rf tgt'", "rm", "-rf", "'curl x'", "'a[$(rm -rf tgt)]'", "1", "'ls;rm -rf tgt'"];
/** Single characters spliced into a case at random, to reach syntax the fragments do not spell. */
const SPLICES = [
  "'",
  '"',
  "\\",
  "$",
  "#",
  "&",
  "(",
  ")",
  "{",
  "}",
  ";",
  "|",
  "<",
  ">",
  "\n",
  "!",
  "~",
  "*",
  "=",
  "`",
  " ",
  "$'",
  "${",
  "&>",
  "|&",
  "$(",
  // Every shell removes a backslash-newline before it reads (the third review's class).
  "\\\n",
  "$\\\n(",
];

function pick<T>(rand: () => number, items: readonly T[]): T {
  return items[Math.floor(rand() * items.length)] as T;
}

function simpleCommand(rand: () => number, depth: number): string {
  const r = rand();
  let base: string;
  if (r < 0.4) base = pick(rand, SAFE);
  else if (r < 0.65) base = pick(rand, DENIED);
  else base = pick(rand, OTHER);
  const parts: string[] = [];
  if (rand() < 0.15) parts.push(`x=${pick(rand, VALUES)}`);
  if (rand() < 0.2) parts.push(pick(rand, WRAPPERS));
  parts.push(base);
  const extra = rand() < 0.5 ? Math.floor(rand() * 3) + 1 : 0;
  for (let i = 0; i < extra; i++) {
    const s = rand();
    if (s < 0.6) parts.push(pick(rand, ARGS));
    else if (s < 0.8) parts.push(pick(rand, REDIRECTIONS));
    else if (depth < 2) {
      const inner = simpleCommand(rand, depth + 1);
      parts.push(
        pick(rand, [`$(${inner})`, `\`${inner}\``, `"$(${inner})"`, `<(${inner})`, `\${x:-$(${inner})}`]),
      );
    }
  }
  if (rand() < 0.1) parts.push(pick(rand, REDIRECTIONS));
  const text = parts.join(" ");
  const g = rand();
  if (depth < 2 && g < 0.04) return `( ${text} )`;
  if (depth < 2 && g < 0.08) return `{ ${text}; }`;
  return text;
}

/** Crafted shapes from known reading differences, with random parts. */
function crafted(rand: () => number): string {
  const safe = pick(rand, SAFE);
  const denied = pick(rand, DENIED);
  switch (Math.floor(rand() * 7)) {
    case 0:
      return `${safe} &>/dev/null ${denied}`;
    case 1:
      return `echo $'\\'' ; ${denied} ; echo '`;
    case 2:
      return `x=; echo "\${x:-'}"; ${denied}; echo "'"`;
    case 3:
      return `${safe} \${x:=$} \${y:=a[\${x}(${denied})]} $((y))`;
    case 4:
      return `x='${denied}'; $x`;
    case 5:
      return `${safe} $'\\'' ${denied} '`;
    default:
      return `${safe} "\${x:-'}" ${denied} "'"`;
  }
}

const SAFE_OPERATORS = [" ; ", " && ", " || ", " | ", "\n", ";", "&&", "|", " &&\n", " |\n"];
const SAFE_ARGS = [
  "a",
  "'a b'",
  '"a b"',
  "'$x'",
  "'`x`'",
  '"it\'s"',
  "x=y",
  "-rf",
  "%s",
  "a,b",
  "a:b@c",
  "''",
  '""',
];
const SAFE_REDIRECTIONS = [
  ">/dev/null",
  "2>&1",
  "2>/dev/null",
  "</dev/null",
  "1>&2",
  ">&2",
  ">> /dev/null",
  "0</dev/null",
];

/**
 * A case inside (or, after a splice, just outside) the safe subset: where the allow property is tested and
 * where a one-character change matters most.
 */
function nearlySafe(rand: () => number): string {
  const count = 1 + Math.floor(rand() * 3);
  const commands: string[] = [];
  for (let i = 0; i < count; i++) {
    const parts = [pick(rand, SAFE)];
    const extra = Math.floor(rand() * 3);
    for (let k = 0; k < extra; k++)
      parts.push(rand() < 0.7 ? pick(rand, SAFE_ARGS) : pick(rand, SAFE_REDIRECTIONS));
    commands.push(parts.join(" "));
  }
  let text = commands[0] as string;
  for (let i = 1; i < count; i++) text += pick(rand, SAFE_OPERATORS) + commands[i];
  if (rand() < 0.5) {
    const at = Math.floor(rand() * (text.length + 1));
    const splice =
      rand() < 0.5
        ? pick(rand, SPLICES)
        : pick(rand, [...DENIED, ...WRAPPERS, "; rm -rf tgt", "&>/dev/null rm -rf tgt"]);
    text = text.slice(0, at) + splice + text.slice(at);
  }
  return text;
}

/** One case: commands joined by operators, sometimes with a character spliced in somewhere. */
export function generateCase(rand: () => number): string {
  if (rand() < 0.05) return crafted(rand);
  if (rand() < 0.3) return nearlySafe(rand);
  const count = 1 + Math.floor(rand() * 3);
  let text = simpleCommand(rand, 0);
  for (let i = 1; i < count; i++) text += pick(rand, OPERATORS) + simpleCommand(rand, 0);
  const splices = rand() < 0.3 ? 1 + Math.floor(rand() * 2) : 0;
  for (let i = 0; i < splices; i++) {
    const at = Math.floor(rand() * (text.length + 1));
    text = text.slice(0, at) + pick(rand, SPLICES) + text.slice(at);
  }
  return text;
}

type Match = ReturnType<typeof matchCommand>;

/** What one case did in one shell: each command's argv. */
type Runs = string[][];

interface Sandbox {
  readonly root: string;
  readonly home: string;
  shells: OracleShell[];
  /** One stub directory (and log) per shell. */
  readonly bins: Map<string, { bin: string; log: string }>;
}

const C_STUB = `#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static char buf[1 << 16];
int main(int argc, char **argv) {
  size_t n = 0;
  const char *c = getenv("TGC");
  if (c == 0) c = "?";
  for (int i = -1; i < argc; i++) {
    const char *s = i < 0 ? c : argv[i];
    size_t len = strlen(s);
    if (n + len + 2 >= sizeof buf) break;
    memcpy(buf + n, s, len);
    n += len;
    buf[n++] = 0x1f;
  }
  buf[n++] = 0x1e;
  int fd = open(LOG_PATH, O_WRONLY | O_APPEND | O_CREAT, 0600);
  if (fd >= 0) { ssize_t w = write(fd, buf, n); (void)w; close(fd); }
  return 0;
}
`;

function shellStub(log: string): string {
  // Fallback when no C compiler is present: dash runs it (the shebang), with only printf, a builtin.
  return `#!/usr/bin/dash\nprintf '%s\\037' "\${TGC:-?}" "$0" "$@" >>'${log}'; printf '\\036' >>'${log}'\n`;
}

/** Builds the sandbox: stub executables (C if `cc` works, else a dash script), temp HOME and cwd. */
export function createSandbox(): Sandbox {
  const root = mkdtempSync(join(tmpdir(), "toolgate-oracle-"));
  const home = join(root, "home");
  mkdirSync(home);
  const zshAsSh = join(root, "zsh-as", "sh");
  mkdirSync(join(root, "zsh-as"));
  symlinkSync("/usr/bin/zsh", zshAsSh);
  const shells: OracleShell[] = [
    { name: "dash", argv: ["/usr/bin/dash"] },
    { name: "bash", argv: ["/usr/bin/bash"] },
    { name: "bash --posix", argv: ["/usr/bin/bash", "--posix"] },
    { name: "busybox sh", argv: ["/usr/bin/busybox", "sh"] },
    { name: "zsh as sh", argv: [zshAsSh] },
  ];
  const bins = new Map<string, { bin: string; log: string }>();
  const source = join(root, "stub.c");
  writeFileSync(source, C_STUB);
  shells.forEach((shell, i) => {
    const bin = join(root, `bin${i}`);
    const log = join(root, `log${i}`);
    mkdirSync(bin);
    const exe = join(bin, "stub");
    const flags = ["-O1", `-DLOG_PATH="${log}"`, "-o", exe, source];
    let compiled = spawnSync("cc", ["-static", ...flags], { stdio: "ignore" });
    if (compiled.status !== 0) compiled = spawnSync("cc", flags, { stdio: "ignore" });
    if (compiled.status !== 0) {
      writeFileSync(exe, shellStub(log));
      chmodSync(exe, 0o755);
    }
    for (const name of STUBS) symlinkSync(exe, join(bin, name));
    bins.set(shell.name, { bin, log });
  });
  return { root, home, shells, bins };
}

export function removeSandbox(sandbox: Sandbox): void {
  rmSync(sandbox.root, { recursive: true, force: true });
}

function quote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/** Runs one batch of cases in one shell; returns each case's commands. */
async function runBatch(
  sandbox: Sandbox,
  shell: OracleShell,
  cases: readonly string[],
  first: number,
  timeoutMs: number,
): Promise<Runs[]> {
  const { bin, log } = sandbox.bins.get(shell.name) as { bin: string; log: string };
  rmSync(log, { force: true });
  // Plain command names are also shell functions that log the same way: a function call costs no process,
  // which keeps the oracle inside its time budget. `exec`, `command`, paths (`./rm`) and names that are not
  // valid function names (`python3.12`) still reach the stub executables through PATH.
  const lines = [
    "unset x y",
    `TGL=${quote(log)}`,
    'tg_log() { tg_r="${TGC:-?}"; for tg_a in "$@"; do tg_r="$tg_r\x1f$tg_a"; done; printf %s "$tg_r\x1f\x1e" >>"$TGL"; }',
    ...STUBS.filter((name) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name)).map(
      (name) => `${name}() { tg_log ${name} "$@"; }`,
    ),
    "",
  ];
  cases.forEach((c, i) => {
    lines.push(`TGC=${first + i}; export TGC; ( eval ${quote(c)} ) </dev/null >/dev/null 2>&1; wait`);
  });
  const script = join(sandbox.root, `batch-${shell.name.replaceAll(" ", "-")}.sh`);
  writeFileSync(script, `${lines.join("\n")}\n`);
  const [command, ...args] = shell.argv as [string, ...string[]];
  const work = join(sandbox.root, `work-${shell.name.replaceAll(" ", "-")}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work);
  // `./rm` and `./RM` run this shell's stub.
  for (const name of ["rm", "RM"]) symlinkSync(join(bin, "stub"), join(work, name));
  await new Promise<void>((resolve, reject) => {
    const child = spawn(command, [...args, script], {
      cwd: work,
      env: { PATH: bin, HOME: sandbox.home, LC_ALL: "C" },
      stdio: ["ignore", "ignore", "ignore"],
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${shell.name} did not finish a batch of ${cases.length} cases in ${timeoutMs} ms`));
    }, timeoutMs);
    child.on("error", reject);
    child.on("exit", () => {
      clearTimeout(timer);
      resolve();
    });
  });
  const runs: Runs[] = cases.map(() => []);
  const text = existsSync(log) ? readFileSync(log, "latin1") : "";
  for (const record of text.split("\x1e")) {
    if (record === "") continue;
    const fields = record.split("\x1f");
    fields.pop();
    const [id, ...argv] = fields;
    const index = Number(id) - first;
    // A command with no case id (its environment was cleared) counts for every case of the batch.
    if (Number.isInteger(index) && index >= 0 && index < cases.length) runs[index]?.push(argv);
    else for (const r of runs) r.push(argv);
  }
  return runs;
}

/** A case on which a property failed, with what each shell ran. */
export interface Violation {
  readonly property: "allow" | "deny";
  readonly source: string;
  readonly shell: string;
  readonly ran: readonly (readonly string[])[];
}

export interface OracleResult {
  readonly cases: number;
  /** The cases run in the shells (all of them unless `skipDecided`). */
  readonly shellCases: number;
  readonly certainCases: number;
  readonly deniedRuns: number;
  readonly possibleCases: number;
  readonly violations: readonly Violation[];
  readonly milliseconds: number;
}

/** Every command a shell ran is one of the safe-subset reading's commands (the allow property). */
function onlySubsetCommands(safe: readonly SafeCommand[], ran: Runs): boolean {
  return ran.every((argv) =>
    safe.some(
      (command) => command.words.length === argv.length && command.words.every((w, i) => w === argv[i]),
    ),
  );
}

/**
 * Generates `count` cases from `seed`, runs them in every shell in batches (one shell at a time), and checks
 * both properties. With `skipDecided`, a case neither property can fail on — the matcher says neither
 * "certainly allowed" nor "not possibly denied", so whatever the shells run satisfies both — is checked
 * without running it (for long runs: about half the cases; `shellCases` counts the ones run).
 */
export async function runOracle(options: {
  readonly count: number;
  readonly seed: number;
  readonly batch?: number;
  readonly skipDecided?: boolean;
  readonly onProgress?: (done: number, figures: Omit<OracleResult, "milliseconds">) => void;
}): Promise<OracleResult> {
  const started = Date.now();
  const rand = random(options.seed);
  const sandbox = createSandbox();
  const batch = options.batch ?? 2000;
  const violations: Violation[] = [];
  let certainCases = 0;
  let deniedRuns = 0;
  let possibleCases = 0;
  let shellCases = 0;
  try {
    for (let first = 0; first < options.count; first += batch) {
      const cases: { source: string; allow: Match; deny: Match }[] = [];
      for (let i = first; i < Math.min(options.count, first + batch); i++) {
        const source = generateCase(rand);
        cases.push({ source, allow: matchCommand(source, ALLOW), deny: matchCommand(source, DENY) });
      }
      const run = options.skipDecided ? cases.filter((c) => c.allow.certain || !c.deny.possible) : cases;
      shellCases += run.length;
      const sources = run.map((c) => c.source);
      // One shell at a time: process creation dominates the oracle's cost, and on the virtual machines CI
      // runs on, shells started side by side finished no sooner in total than one after another (5 shells x
      // 500 cases: 12.7 s in parallel, 10.4 s in sequence), while starving the rest of the test suite.
      const perShell: { shell: OracleShell; runs: Runs[] }[] = [];
      for (const shell of sandbox.shells)
        perShell.push({ shell, runs: await runBatch(sandbox, shell, sources, first, 600_000) });
      for (const { allow, deny } of cases) {
        if (allow.certain) certainCases++;
        if (deny.possible) possibleCases++;
      }
      run.forEach(({ source, allow, deny }, i) => {
        const subset = allow.certain ? (readSafeSubset(source) ?? []) : [];
        for (const { shell, runs } of perShell) {
          const ran = runs[i] as Runs;
          if (allow.certain && !onlySubsetCommands(subset, ran)) {
            violations.push({ property: "allow", source, shell: shell.name, ran });
          }
          if (ran.some(isDenyListed)) {
            deniedRuns++;
            if (!deny.possible) violations.push({ property: "deny", source, shell: shell.name, ran });
          }
        }
      });
      const done = Math.min(options.count, first + batch);
      options.onProgress?.(done, {
        cases: done,
        shellCases,
        certainCases,
        deniedRuns,
        possibleCases,
        violations,
      });
    }
  } finally {
    if (process.env.TOOLGATE_ORACLE_KEEP === undefined) removeSandbox(sandbox);
    else console.info(`shell oracle: sandbox kept at ${sandbox.root}`);
  }
  return {
    cases: options.count,
    shellCases,
    certainCases,
    deniedRuns,
    possibleCases,
    violations,
    milliseconds: Date.now() - started,
  };
}
