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
// at a time, with the same parser), with the case's number exported in $TGC: every command run logs its argv
// with that number (see "The log" below).

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
export type Runs = string[][];

interface Sandbox {
  readonly root: string;
  readonly home: string;
  shells: OracleShell[];
  /** One stub directory (and log) per shell. */
  readonly bins: Map<string, { bin: string; log: string }>;
}

// The log. Every command run — by a stub executable or a stub function — appends one record, in ONE write(2)
// to a file opened with O_APPEND, so that records from commands running side by side (a pipeline, a
// background job) never mix:
//
//   START case-id SEP field-count (SEP field)* END
//
// The case id is $TGC, which each case exports, so a record names its own case whenever it is written (even by
// a background job that outlives its case). Inside the id and the fields, ESC, START, END, SEP and newline are
// written as ESC and a letter. Newline is among them because bash's printf writes a line-buffered stdout: a
// newline in its output flushes, and a record holding one reached the log in two writes, with the other side
// of a pipeline's record between them (`npm test 'a \<newline>b' "" | npm test -rf`): one record then held the
// other, and the tail (`b`, no case id) was counted for every case of the batch. Any record that is not whole
// — no START, two STARTs, a bad escape, a raw newline, a wrong field count, an id that is not a case of the
// batch — fails the run as a harness error (`readBatchLog`), so nothing is ever silently dropped or
// misattributed.
const ESC = "\x1c";
const START = "\x1d";
const END = "\x1e";
const SEP = "\x1f";
const ESCAPES: ReadonlyMap<string, string> = new Map([
  [ESC, "e"],
  [START, "s"],
  [END, "r"],
  [SEP, "u"],
  ["\n", "n"],
]);
const UNESCAPES: ReadonlyMap<string, string> = new Map([...ESCAPES].map(([c, letter]) => [letter, c]));

/** A run's fault in the oracle itself (not in the matcher): the run fails with it. */
export class OracleHarnessError extends Error {
  constructor(
    message: string,
    /** The case ids named near the fault (for the message: their sources). */
    readonly caseIds: readonly number[] = [],
  ) {
    super(message);
    this.name = "OracleHarnessError";
  }
}

/** One record as `readBatchLog` expects it (for the tests of the reader and the shell writer). */
export function formatRecord(caseId: string, argv: readonly string[]): string {
  const escaped = (text: string) =>
    [...text].map((c) => (ESCAPES.has(c) ? ESC + ESCAPES.get(c) : c)).join("");
  return `${START}${[escaped(caseId), String(argv.length), ...argv.map(escaped)].join(SEP)}${END}`;
}

/**
 * Reads one batch's log: each case's commands, by the case id each record carries. Throws an
 * OracleHarnessError on any record that is not one whole record of a case of the batch.
 */
export function readBatchLog(text: string, first: number, count: number): Runs[] {
  const runs: Runs[] = Array.from({ length: count }, () => []);
  if (text === "") return runs;
  const records = text.split(END);
  const tail = records.pop();
  const show = (record: string | undefined) => (record === undefined ? "none" : JSON.stringify(record));
  const idsNear = (n: number) =>
    [records[n - 1], records[n], records[n + 1], tail]
      .flatMap((r) => (r ?? "").split(START).slice(1))
      .map((piece) => piece.split(SEP)[0] as string)
      .filter((id) => /^[0-9]+$/.test(id))
      .map(Number)
      .filter((id, i, all) => all.indexOf(id) === i);
  const fail = (n: number, why: string): never => {
    throw new OracleHarnessError(
      `the log of cases ${first}..${first + count - 1}: record ${n} ${why}: ${show(records[n] ?? tail)} ` +
        `(the record before: ${show(records[n - 1])}; after: ${show(records[n + 1])})`,
      idsNear(n),
    );
  };
  if (tail !== "") fail(records.length, "has no end (the log ends inside a record)");
  records.forEach((record, n) => {
    if (!record.startsWith(START) || record.includes(START, 1))
      fail(n, "is not one whole record (a write was split, or another write landed inside it)");
    if (record.includes("\n")) fail(n, "holds a raw newline (not written by a stub)");
    const fields = record.slice(1).split(SEP);
    const decoded = fields.map((field) => {
      const [head, ...escapes] = field.split(ESC);
      return (
        head +
        escapes
          .map((piece) => (UNESCAPES.get(piece.charAt(0)) ?? fail(n, "has a bad escape")) + piece.slice(1))
          .join("")
      );
    });
    const [id, size, ...argv] = decoded as [string, string | undefined, ...string[]];
    if (!/^(0|[1-9][0-9]*)$/.test(id)) fail(n, "has no case id ($TGC was unset or empty where it ran)");
    const index = Number(id) - first;
    if (index < 0 || index >= count) fail(n, `names case ${id}, which is not in this batch`);
    if (size === undefined || !/^[0-9]+$/.test(size) || Number(size) !== argv.length || argv.length === 0)
      fail(n, `holds ${argv.length} argv fields where it says ${size ?? "nothing"}`);
    (runs[index] as Runs).push(argv);
  });
  return runs;
}

const C_STUB = `#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
/* Appends one record to the log in one write (see the log's format in harness.ts). */
static size_t put(char *out, const char *s) {
  size_t n = 0;
  for (; *s; s++) {
    char e = 0;
    switch (*s) {
      case 0x1c: e = 'e'; break;
      case 0x1d: e = 's'; break;
      case 0x1e: e = 'r'; break;
      case 0x1f: e = 'u'; break;
      case '\\n': e = 'n'; break;
    }
    if (e) { if (out) { out[n] = 0x1c; out[n + 1] = e; } n += 2; }
    else { if (out) out[n] = *s; n++; }
  }
  return n;
}
static void failed(void) {
  int fd = open(LOG_PATH ".failed", O_WRONLY | O_CREAT, 0600);
  if (fd >= 0) close(fd);
}
int main(int argc, char **argv) {
  const char *c = getenv("TGC");
  if (c == 0) c = "";
  char size[24];
  snprintf(size, sizeof size, "%d", argc);
  size_t n = 1 + put(0, c) + 1 + strlen(size) + 1;
  for (int i = 0; i < argc; i++) n += 1 + put(0, argv[i]);
  char *buf = malloc(n);
  if (buf == 0) { failed(); return 1; }
  size_t k = 0;
  buf[k++] = 0x1d;
  k += put(buf + k, c);
  buf[k++] = 0x1f;
  memcpy(buf + k, size, strlen(size));
  k += strlen(size);
  for (int i = 0; i < argc; i++) { buf[k++] = 0x1f; k += put(buf + k, argv[i]); }
  buf[k++] = 0x1e;
  int fd = open(LOG_PATH, O_WRONLY | O_APPEND | O_CREAT, 0600);
  if (fd < 0 || write(fd, buf, k) != (ssize_t)k) { failed(); return 1; }
  close(fd);
  return 0;
}
`;

/**
 * The shell side of the log: \`tg_log name args...\` appends a record for the command, in one printf (no
 * newline in it, so one write even from bash) to $TGL. Shared by the batch scripts and the fallback stub.
 */
export function shellLogger(log: string): string[] {
  return [
    `TGL=${quote(log)}`,
    `tg_s='${ESC}${START}${END}${SEP}\n'`,
    "tg_e() {",
    "  tg_i=$1; tg_o=",
    "  while :; do",
    "    case $tg_i in",
    "      *[$tg_s]*) ;;",
    "      *) tg_o=$tg_o$tg_i; return 0 ;;",
    "    esac",
    '    tg_p=${tg_i%%[$tg_s]*}; tg_i=${tg_i#"$tg_p"}; tg_t=${tg_i#?}',
    '    case ${tg_i%"$tg_t"} in',
    ...[...ESCAPES].filter(([c]) => c !== "\n").map(([c, letter]) => `      '${c}') tg_c=${letter} ;;`),
    `      *) tg_c=${ESCAPES.get("\n")} ;;`,
    "    esac",
    `    tg_o=$tg_o$tg_p'${ESC}'$tg_c; tg_i=$tg_t`,
    "  done",
    "}",
    // (tg_e is called only for the rare argument that needs it: a function call per argument cost bash and zsh
    // three times as much.)
    "tg_log() {",
    `  case \${TGC-} in *[$tg_s]*) tg_e "\${TGC-}" ;; *) tg_o=\${TGC-} ;; esac; tg_r='${START}'$tg_o'${SEP}'$#`,
    `  for tg_a in "$@"; do`,
    `    case $tg_a in *[$tg_s]*) tg_e "$tg_a" ;; *) tg_o=$tg_a ;; esac; tg_r=$tg_r'${SEP}'$tg_o`,
    "  done",
    `  printf %s "$tg_r${END}" >>"$TGL" || : >"$TGL.failed"`,
    "}",
  ];
}

export function shellStub(log: string): string {
  // Fallback when no C compiler is present: dash runs it (the shebang), with only builtins.
  return `#!/usr/bin/dash\n${shellLogger(log).join("\n")}\ntg_log "$0" "$@"\n`;
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

export function quote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/** Runs one batch of cases in one shell; returns each case's commands. */
export async function runBatch(
  sandbox: Sandbox,
  shell: OracleShell,
  cases: readonly string[],
  first: number,
  timeoutMs: number,
): Promise<Runs[]> {
  const { bin, log } = sandbox.bins.get(shell.name) as { bin: string; log: string };
  rmSync(log, { force: true });
  rmSync(`${log}.failed`, { force: true });
  // Plain command names are also shell functions that log the same way: a function call costs no process,
  // which keeps the oracle inside its time budget. `exec`, `command`, paths (`./rm`) and names that are not
  // valid function names (`python3.12`) still reach the stub executables through PATH.
  const lines = [
    "unset x y",
    ...shellLogger(log),
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
    // fd 3 is a pipe that every process of the batch inherits (no case closes it): it reaches end of file when
    // the last of them has exited — the shell, and any background job that outlived its case — so the log is
    // read only when nothing can write to it any more (and no late record lands in the next batch's log).
    const child = spawn(command, [...args, script], {
      cwd: work,
      env: { PATH: bin, HOME: sandbox.home, LC_ALL: "C" },
      stdio: ["ignore", "ignore", "ignore", "pipe"],
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${shell.name} did not finish a batch of ${cases.length} cases in ${timeoutMs} ms`));
    }, timeoutMs);
    child.stdio[3]?.on("data", () => {});
    child.on("error", reject);
    child.on("close", () => {
      clearTimeout(timer);
      resolve();
    });
  });
  if (existsSync(`${log}.failed`))
    throw new OracleHarnessError(`${shell.name}: a stub could not write its record to the log`);
  const text = existsSync(log) ? readFileSync(log, "latin1") : "";
  try {
    return readBatchLog(text, first, cases.length);
  } catch (error) {
    if (!(error instanceof OracleHarnessError)) throw error;
    // The cases named around the fault, and those between them (a record with no case id names none).
    const ids = error.caseIds.filter((id) => id >= first && id < first + cases.length);
    const low = Math.min(...ids);
    const high = Math.min(Math.max(...ids), low + 20);
    const sources: string[] = [];
    for (let id = low; id <= high; id++) sources.push(`\n  case ${id}: ${JSON.stringify(cases[id - first])}`);
    throw new OracleHarnessError(`${shell.name}: ${error.message}${sources.join("")}`, error.caseIds);
  }
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
