// Security tables of the `command` operator: which redirections are harmless, which commands run other
// commands or evaluate text as code, which first words the safe subset refuses, and which characters a shell
// drops or a terminal hides. These are policy, not parsing: each entry is a judgement a reviewer can check
// here without reading the reader or the matcher.

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
 * Commands that run another command given in their arguments, evaluate their arguments (or variables named
 * there) as code, or run a script from a file or stdin. As the first word of a simple command, any of them
 * that cannot be read exactly (see {@link READABLE_WRAPPERS}) may run anything, so every deny or ask prefix may
 * match. Compared after lower-casing the base name.
 */
export const WRAPPERS: ReadonlySet<string> = new Set([
  "env",
  "sudo",
  "doas",
  "su",
  "runuser",
  "pkexec",
  "command",
  "builtin",
  "exec",
  "eval",
  "source",
  ".",
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
  "sh",
  "bash",
  "zsh",
  "dash",
  "ksh",
  "mksh",
  "ash",
  "yash",
  "posh",
  "csh",
  "tcsh",
  "fish",
  // Builtins that evaluate a variable's value or an argument as arithmetic or code in bash or zsh
  // (`let y`, `declare -i z=y`, `read 'a[$(cmd)]'`, `printf -v`, `trap`, `alias` with bash --posix).
  "let",
  "declare",
  "typeset",
  "local",
  "integer",
  "float",
  "read",
  "mapfile",
  "readarray",
  "printf",
  "trap",
  "alias",
  "fc",
  "bind",
  "complete",
  "compgen",
  "enable",
  "shopt",
  "!",
  "-",
  "noglob",
  "nocorrect",
]);

/**
 * Programs that, found anywhere after the first word, may run arbitrary code when an unknown command in front
 * of them runs them (`prlimit bash script.sh`, `unbuffer xargs rm`): shells read a script from a file or
 * stdin, `xargs` and `parallel` take their arguments from stdin, `sudo -s`, `su`, `doas -s`, `ssh`, `at` and
 * `batch` run a shell on what they read.
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
  "sh",
  "bash",
  "zsh",
  "dash",
  "ksh",
  "mksh",
  "ash",
  "yash",
  "posh",
  "csh",
  "tcsh",
  "fish",
  "busybox",
  "xargs",
  "parallel",
]);

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
 * First words the safe subset refuses: the reader's reserved words, the other reserved words of any supported
 * shell (a reserved word changes how the rest is read), and builtins that change how later commands are read, found or run (`alias` under
 * bash --posix, `export PATH=…`, `set`, `eval`).
 */
export const SUBSET_REFUSED_FIRST_WORDS: ReadonlySet<string> = new Set([
  ...PARSER_RESERVED_WORDS,
  "-",
  "in",
  "time",
  "repeat",
  "foreach",
  "end",
  "noglob",
  "nocorrect",
  "declare",
  "typeset",
  "local",
  "export",
  "readonly",
  "integer",
  "float",
  "let",
  "read",
  "mapfile",
  "readarray",
  "printf",
  "alias",
  "unalias",
  "enable",
  "set",
  "shopt",
  "setopt",
  "unsetopt",
  "emulate",
  "hash",
  "trap",
  "eval",
  ".",
  "source",
  "exec",
  "command",
  "builtin",
  "fc",
  "bind",
  "complete",
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
  return HIDDEN.test(source);
}
