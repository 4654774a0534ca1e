// Security tables of the `command` operator: which redirections are harmless, which commands run other
// commands or evaluate text as code, which first words the safe subset refuses, and which characters a shell
// drops or a terminal hides. These are policy, not parsing: each entry is a judgement a reviewer can check
// here without reading the reader or the matcher. The shells' builtins are in builtins.ts, the programs that
// run some of their arguments as code and the environment variables programs run in programs.ts.

import { INERT_BUILTINS, SHELL_BUILTINS } from "./builtins.js";

/** Redirections that cannot change what a command reads or writes on disk (as the reader spells them). */
export const HARMLESS_REDIRECTIONS: ReadonlySet<string> = new Set([
  "2>&1",
  ">&2",
  "1>&2",
  ">/dev/null",
  "1>/dev/null",
  "2>/dev/null",
  "&>/dev/null",
  "</dev/null",
  "0</dev/null",
]);

/**
 * Shells: each may run a script from its arguments, a file or stdin, so as a command it may run anything. The
 * shells of Debian, Alpine, Fedora and macOS (with their restricted and static variants), and others one can
 * install. As a command name (not as a later word) any name ending in `sh` counts too, conservatively; see
 * {@link isShellName}. Compared after lower-casing the base name and, failing that, without a version after it
 * (`bash5.2`, `ksh93`).
 */
export const SHELLS: ReadonlySet<string> = new Set([
  "sh",
  "bash",
  "rbash",
  "dash",
  "ash",
  "hush",
  "msh",
  "zsh",
  "rzsh",
  "ksh",
  "rksh",
  "ksh93",
  "rksh93",
  "pdksh",
  "mksh",
  "lksh",
  "mksh-static",
  "oksh",
  "loksh",
  "yash",
  "posh",
  "sash",
  "csh",
  "bsd-csh",
  "tcsh",
  "fish",
  "es",
  "rc",
  "elvish",
  "xonsh",
  "nu",
  "pwsh",
  "osh",
  "ysh",
  "oil",
  "ion",
  "brush",
]);

/** `name` without a version after it (`bash5.2`, `ksh93`, `zsh-5.9`), or `name` itself. */
function withoutVersion(name: string): string {
  // A version ends in a digit, or in a letter right after one (`5.2a`): most names end otherwise (`git`, `ls`).
  const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
  const n = name.length;
  if (!isDigit(name.charCodeAt(n - 1)) && !(n > 1 && isDigit(name.charCodeAt(n - 2)))) return name;
  const match = /[-_.]?[0-9][0-9.]*[a-z]?$/.exec(name);
  return match === null || match.index === 0 ? name : name.slice(0, match.index);
}

/** Whether a shell of {@link SHELLS} has this (lower-case) base name, with or without a version after it. */
export function isKnownShell(name: string): boolean {
  return SHELLS.has(name) || SHELLS.has(withoutVersion(name));
}

/**
 * Whether a command word with this (lower-case) base name may be a shell: one of {@link SHELLS}, or any name
 * that ends in `sh` once a version is taken off (a shell one can install under a name toolgate does not list).
 */
export function isShellName(name: string): boolean {
  if (SHELLS.has(name) || name.endsWith("sh")) return true;
  const bare = withoutVersion(name);
  return bare !== name && (SHELLS.has(bare) || bare.endsWith("sh"));
}

/**
 * Programs that run another command given in their arguments, or a script from a file or stdin. As the command
 * word of a simple command, any of them that cannot be read exactly (see {@link READABLE_WRAPPERS}) may run
 * anything, so every deny or ask prefix may match; so may a shell ({@link isShellName}) and a shell builtin
 * that is not inert (builtins.ts). Compared after lower-casing the base name.
 */
export const WRAPPERS: ReadonlySet<string> = new Set([
  "env",
  "sudo",
  "doas",
  "su",
  "runuser",
  "pkexec",
  "nohup",
  "nice",
  "ionice",
  "time",
  "timeout",
  "xargs",
  "parallel",
  "stdbuf",
  "chroot",
  "setsid",
  "flock",
  "taskset",
  "chrt",
  "unshare",
  "nsenter",
  "watch",
  "strace",
  "ltrace",
  "busybox",
  "run0",
  "ssh",
  "script",
  "at",
  "batch",
]);

/**
 * Programs that, found anywhere after the first word, may run arbitrary code when an unknown command in front
 * of them runs them (`prlimit bash script.sh`, `unbuffer xargs rm`): the shells of {@link SHELLS} read a script
 * from a file or stdin, `xargs` and `parallel` take their arguments from stdin, `sudo -s`, `su`, `doas -s`,
 * `ssh`, `at` and `batch` run a shell on what they read. See {@link isCodeRunner}.
 */
export const CODE_RUNNERS: ReadonlySet<string> = new Set([
  "sudo",
  "doas",
  "su",
  "runuser",
  "pkexec",
  "run0",
  "ssh",
  "at",
  "batch",
  "busybox",
  "xargs",
  "parallel",
]);

/** Whether a later word with this (lower-case) base name may run code: {@link CODE_RUNNERS} or a known shell. */
export function isCodeRunner(name: string): boolean {
  return CODE_RUNNERS.has(name) || isKnownShell(name);
}

/**
 * Commands known never to run their operands or evaluate them as code, so that words after them are data:
 * the deny/ask side then compares only their first word. Exact first words only (`./ls` is not `ls`).
 */
export const NEVER_RUNS_OPERANDS: ReadonlySet<string> = new Set([
  "ls",
  "pwd",
  "echo",
  "cat",
  "wc",
  "head",
  "tail",
  "true",
  "false",
  "basename",
  "dirname",
  "grep",
  "stat",
]);

/**
 * The command line of the wrappers read exactly, so that the command they run is matched like any other:
 * options that stand alone, options that take the next word as their value (or attached: `-n5`,
 * `--signal=KILL`), and how many operands come before the command (`timeout`'s duration). `env` also takes
 * `NAME=value` words. Any other option (`env -S`, GNU `time -o`) leaves the command unknown.
 */
export interface WrapperSyntax {
  /** Options that stand alone; none when absent. */
  readonly flags?: readonly string[];
  /** Options that take a value; none when absent. */
  readonly valued?: readonly string[];
  readonly operands?: number;
  readonly assignments?: boolean;
  readonly numericFlag?: boolean;
}

export const READABLE_WRAPPERS: ReadonlyMap<string, WrapperSyntax> = new Map<string, WrapperSyntax>([
  ["time", { flags: ["-p"] }],
  ["nohup", {}],
  ["nice", { valued: ["-n", "--adjustment"], numericFlag: true }],
  [
    "timeout",
    {
      flags: ["--preserve-status", "--foreground", "-v", "--verbose"],
      valued: ["-s", "--signal", "-k", "--kill-after"],
      operands: 1,
    },
  ],
  ["stdbuf", { valued: ["-i", "-o", "-e", "--input", "--output", "--error"] }],
  [
    "env",
    {
      flags: ["-i", "--ignore-environment", "-"],
      valued: ["-u", "--unset", "-C", "--chdir"],
      assignments: true,
    },
  ],
  ["command", { flags: ["-p"] }],
  ["exec", { flags: ["-c", "-l"], valued: ["-a"] }],
  ["builtin", {}],
  // bash's `time ! cmd`, zsh's precommand modifiers `- cmd`, `noglob cmd`, `nocorrect cmd`.
  ["!", {}],
  ["-", {}],
  ["noglob", {}],
  ["nocorrect", {}],
]);

/** Reserved words (and `{`/`}` out of place) that open syntax the reader does not read: it refuses them. */
export const PARSER_RESERVED_WORDS: ReadonlySet<string> = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "for",
  "while",
  "until",
  "do",
  "done",
  "case",
  "esac",
  "function",
  "select",
  "coproc",
  "!",
  "[[",
  "]]",
  "{",
  "}",
]);

/**
 * First words the safe subset refuses: the reader's reserved words, and every builtin and reserved word of the
 * supported shells that is not inert (builtins.ts): a reserved word changes how the rest is read, and a builtin
 * may evaluate its arguments or change how later commands are read, found or run (`alias` under bash --posix,
 * `export PATH=…`, `set -x`, `eval`, zsh's `shift x`). The inert ones (`cd`, `echo`, `pwd`, …) may start a
 * command of the subset.
 */
export const SUBSET_REFUSED_FIRST_WORDS: ReadonlySet<string> = new Set([
  ...PARSER_RESERVED_WORDS,
  ...[...SHELL_BUILTINS].filter((name) => !INERT_BUILTINS.has(name)),
]);

/**
 * Characters a shell drops or reads differently from how a terminal shows them: control characters other
 * than tab and newline (NUL ends an `execve` argument; bash drops NUL from a script), format and invisible
 * characters, separators other than the ASCII space, combining marks, private-use, unassigned and lone
 * surrogate code points. A command holding one may be anything for deny and ask.
 */
const HIDDEN = /(?![\t\n ])[\p{Cc}\p{Cf}\p{Cn}\p{Co}\p{Cs}\p{Zs}\p{Zl}\p{Zp}\p{Mn}\p{Me}]/u;

/** True when `source` holds a character listed at {@link HIDDEN}. */
export function hasHiddenCharacter(source: string): boolean {
  // Printable ASCII, blank, tab and newline are never hidden: most commands hold nothing else.
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a) || c >= 0x7f) return HIDDEN.test(source);
  }
  return false;
}
