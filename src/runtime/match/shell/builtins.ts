// Security table of the `command` operator: the shells' own commands. A builtin runs inside the shell, where it
// can evaluate text as arithmetic or code (`shift x` in zsh evaluates the value of x, and an array subscript in
// it runs a command substitution; bash's `test -v 'a[$(cmd)]'`, `unset`, `read`; `set -x` expands PS4), change
// how later words are read (`setopt extendedglob`, `emulate`, `set -o`) or which program a name runs (`hash`,
// `alias`). The list is inverted: every builtin and reserved word of the supported shells is listed, and only
// those written down here as inert (with their inert argument forms) are read as data; any other one may run
// anything. This is policy, not parsing: each entry is a judgement a reviewer can check here.
//
// The names are those of dash, bash (`compgen -b`, `compgen -k`), busybox sh (`help`) and zsh
// (`${(k)builtins}`, `${(k)reswords}`), as installed by Debian 12; test/runtime/match/shell-builtins.test.ts
// compares the list with the installed shells when they are present.

/** Every builtin, reserved word and precommand modifier of dash, bash, busybox sh and zsh. */
export const SHELL_BUILTINS: ReadonlySet<string> = new Set([
  // dash, bash and busybox sh
  ".",
  ":",
  "[",
  "[[",
  "]]",
  "alias",
  "bg",
  "bind",
  "break",
  "builtin",
  "caller",
  "cd",
  "chdir",
  "command",
  "compgen",
  "complete",
  "compopt",
  "continue",
  "declare",
  "dirs",
  "disown",
  "echo",
  "enable",
  "eval",
  "exec",
  "exit",
  "export",
  "false",
  "fc",
  "fg",
  "getopts",
  "hash",
  "help",
  "history",
  "jobs",
  "kill",
  "let",
  "local",
  "logout",
  "mapfile",
  "popd",
  "printf",
  "pushd",
  "pwd",
  "read",
  "readarray",
  "readonly",
  "return",
  "set",
  "shift",
  "shopt",
  "source",
  "suspend",
  "test",
  "times",
  "trap",
  "true",
  "type",
  "typeset",
  "ulimit",
  "umask",
  "unalias",
  "unset",
  "wait",
  // reserved words of bash and zsh
  "!",
  "{",
  "}",
  "case",
  "coproc",
  "do",
  "done",
  "elif",
  "else",
  "end",
  "esac",
  "fi",
  "for",
  "foreach",
  "function",
  "if",
  "in",
  "nocorrect",
  "repeat",
  "select",
  "then",
  "time",
  "until",
  "while",
  // zsh
  "-",
  "autoload",
  "bindkey",
  "bye",
  "compadd",
  "comparguments",
  "compcall",
  "compctl",
  "compdescribe",
  "compfiles",
  "compgroups",
  "compquote",
  "compset",
  "comptags",
  "comptry",
  "compvalues",
  "disable",
  "echotc",
  "echoti",
  "emulate",
  "float",
  "functions",
  "getln",
  "integer",
  "limit",
  "log",
  "noglob",
  "print",
  "private",
  "pushln",
  "r",
  "rehash",
  "sched",
  "setopt",
  "ttyctl",
  "unfunction",
  "unhash",
  "unlimit",
  "unsetopt",
  "vared",
  "whence",
  "where",
  "which",
  "zcompile",
  "zformat",
  "zle",
  "zmodload",
  "zparseopts",
  "zregexparse",
  "zstyle",
]);

/**
 * Builtins known never to evaluate their arguments as code or arithmetic, run a command, or change how later
 * words are read or which program a name runs, whatever their arguments.
 */
export const INERT_BUILTINS: ReadonlySet<string> = new Set([
  ":",
  "true",
  "false",
  "echo",
  "pwd",
  "cd",
  "chdir",
  "pushd",
  "popd",
  "dirs",
  "type",
  "whence",
  "where",
  "which",
  "times",
  "jobs",
  "help",
  "umask",
]);

/**
 * Builtins that evaluate their arguments as arithmetic in zsh (`exit x`, `shift x`, `break x` evaluate the value
 * of x, where an array subscript runs a command substitution): inert only when every argument is a whole number
 * written out (`exit 1`, `shift 2`, `kill -9 1234`), or there is none.
 */
export const NUMERIC_BUILTINS: ReadonlySet<string> = new Set([
  "exit",
  "return",
  "shift",
  "break",
  "continue",
  "logout",
  "bye",
  "kill",
  "wait",
  "ulimit",
  "fg",
  "bg",
  "disown",
]);

/** `set` letters that only make the shell stricter, in every shell: errexit, nounset. */
const INERT_SET_LETTERS = /^[-+][eu]+$/;

/** `set -o NAME` names that only make the shell stricter. */
const INERT_SET_OPTIONS: ReadonlySet<string> = new Set(["errexit", "nounset", "pipefail"]);

/** `test` operators that evaluate their operands as arithmetic (zsh) or name a variable (bash `-v`, `-R`). */
const TEST_ARITHMETIC = /^-(?:eq|ne|lt|le|gt|ge)$/;

const WHOLE_NUMBER = /^-?[0-9]+$/;

/** A plain shell variable name: no subscript, nothing to evaluate. */
const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Whether a simple command whose first word is the builtin `name` may run anything: false only for the inert
 * builtins and the inert forms of the others. `export` and `readonly` with plain `NAME` or `NAME=value`
 * arguments are inert here; their values are read as code by the matcher like any assignment's.
 *
 * @param name - the command's first word, exactly (builtins are found by name, never by path).
 * @param args - the words after it, after quote removal.
 */
export function builtinMayRunAnything(name: string, args: readonly string[]): boolean {
  if (INERT_BUILTINS.has(name)) return false;
  if (NUMERIC_BUILTINS.has(name)) return !args.every((arg) => WHOLE_NUMBER.test(arg));
  switch (name) {
    case "set":
      return !setIsInert(args);
    case "test":
    case "[":
      return !testIsInert(args);
    case "export":
    case "readonly":
      return !args.every((arg) => arg === "-p" || PLAIN_NAME.test(assignedName(arg)));
    case "unset":
      return !args.every((arg) => arg === "-v" || arg === "-f" || PLAIN_NAME.test(arg));
    default:
      return true;
  }
}

/** The name of a `NAME=value` word (the whole word when it holds no `=`). */
export function assignedName(word: string): string {
  const equals = word.indexOf("=");
  return equals === -1 ? word : word.slice(0, equals);
}

/** `set -e`, `set -u`, `set -o pipefail`, `set -- a b`: options that only make the shell stricter. */
function setIsInert(args: readonly string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--" || arg === "-") return true;
    if (arg === "-o" || arg === "+o") {
      if (!INERT_SET_OPTIONS.has(args[i + 1] ?? "")) return false;
      i++;
    } else if (arg.startsWith("-") || arg.startsWith("+")) {
      if (!INERT_SET_LETTERS.test(arg)) return false;
    } else return true;
  }
  return true;
}

/** `test` and `[` without `-v`/`-R`, and with whole numbers on both sides of every arithmetic comparison. */
function testIsInert(args: readonly string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "-v" || arg === "-R") return false;
    if (
      TEST_ARITHMETIC.test(arg) &&
      !(WHOLE_NUMBER.test(args[i - 1] ?? "") && WHOLE_NUMBER.test(args[i + 1] ?? ""))
    )
      return false;
  }
  return true;
}
