// Oracle for the shells' builtins (src/runtime/match/shell/builtins.ts): every builtin and reserved word of dash,
// bash, busybox sh and zsh is written out here with what it must do, never derived from the table. A builtin
// that may evaluate code makes any deny match and no allow certain; an inert one stays certain; the numeric,
// `set`, `test`, `export`, `readonly` and `unset` forms are inert only as listed. No input here is run.
import { describe, expect, it } from "vitest";
import { allowCertain, denyMay } from "./shell-decide.js";

/** Builtins and reserved words that may run anything with any argument (a path before the name changes nothing). */
const MAY_RUN_ANYTHING = [
  // dash, bash, busybox sh
  ".",
  "[[",
  "]]",
  "alias",
  "bind",
  "caller",
  "compgen",
  "complete",
  "compopt",
  "declare",
  "enable",
  "eval",
  "fc",
  "getopts",
  "hash",
  "history",
  "let",
  "local",
  "mapfile",
  "printf",
  "read",
  "readarray",
  "shopt",
  "source",
  "suspend",
  "trap",
  "typeset",
  "unalias",
  // reserved words
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
  "repeat",
  "select",
  "then",
  "until",
  "while",
  // zsh
  "autoload",
  "bindkey",
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
  "zcompile",
  "zformat",
  "zle",
  "zmodload",
  "zparseopts",
  "zregexparse",
  "zstyle",
];

/** Builtins that evaluate their arguments as arithmetic in zsh: inert with whole numbers only. */
const NUMERIC = [
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
];

/** Builtins that never evaluate anything, whatever their arguments. */
const INERT = [
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
];

describe("a builtin that may evaluate code: any deny may match, no allow is certain", () => {
  it.each(MAY_RUN_ANYTHING)("%s", (name) => {
    expect(denyMay(`/usr/bin/${name} x`, "reboot")).toBe(true);
    expect(denyMay(`/usr/bin/${name} 1`, "reboot")).toBe(true);
    expect(allowCertain(`${name} x`, [name])).toBe(false);
  });

  it.each(NUMERIC)("%s with a word that is not a whole number", (name) => {
    expect(denyMay(`${name} x`, "reboot")).toBe(true);
    expect(denyMay(`/usr/bin/${name} x`, "reboot")).toBe(true);
    expect(denyMay(`${name} 1 x`, "reboot")).toBe(true);
    expect(denyMay(`${name} 1x`, "reboot")).toBe(true);
    expect(denyMay(`${name} x1`, "reboot")).toBe(true);
    expect(denyMay(`${name} 1-2`, "reboot")).toBe(true);
    expect(denyMay(`${name} --1`, "reboot")).toBe(true);
    expect(allowCertain(`${name} 1`, [name])).toBe(false);
  });

  it("as the command word of a precommand modifier or wrapper read exactly, the safe subset refuses it", () => {
    for (const name of ["builtin", "command", "exec", "time", "noglob", "nocorrect", "-"]) {
      expect(allowCertain(`${name} x`, [name])).toBe(false);
    }
    expect(allowCertain("x", ["x"])).toBe(true);
  });
});

describe("inert builtins and inert forms: certain for an allow, nothing for a deny", () => {
  it.each(INERT)("%s", (name) => {
    expect(allowCertain(`${name} x`, [name])).toBe(true);
    expect(denyMay(`${name} x`, "reboot")).toBe(false);
    expect(denyMay(`/usr/bin/${name} x`, "reboot")).toBe(false);
  });

  it.each(NUMERIC)("%s with whole numbers, or none", (name) => {
    expect(denyMay(name, "reboot")).toBe(false);
    expect(denyMay(`${name} 1`, "reboot")).toBe(false);
    expect(denyMay(`${name} -9 1234`, "reboot")).toBe(false);
    expect(denyMay(`/usr/bin/${name} 0 12`, "reboot")).toBe(false);
  });

  it("a program of a builtin's name in another case is read as the builtin", () => {
    expect(denyMay("/usr/bin/EVAL x", "reboot")).toBe(true);
    expect(denyMay("EXIT x", "reboot")).toBe(true);
    expect(denyMay("EXIT 1", "reboot")).toBe(false);
  });
});

describe("set: only the options that make the shell stricter are inert", () => {
  it.each([
    "set",
    "set -e",
    "set -u",
    "set +e",
    "set +u",
    "set -eu",
    "set -ue",
    "set -e -u",
    "set -o errexit",
    "set -o nounset",
    "set -o pipefail",
    "set +o pipefail",
    "set -e -o pipefail",
    "set -- -x",
    "set - -x",
    "set a -x",
    "set -e a -x",
    "set -- a b",
  ])("%s is inert", (source) => {
    expect(denyMay(source, "reboot")).toBe(false);
  });

  it.each([
    "set -x",
    "set +x",
    "set -ex",
    "set -e -x",
    "set -o",
    "set -o posix",
    "set +o posix",
    "set -o xtrace",
    "set -o pipefail -x",
    "set -o errexitx",
    "set -o xerrexit",
    "set -f",
    "set x-e",
    "set -eux",
    "set -",
    "set -e -",
  ])("%s may run anything", (source) => {
    if (source === "set -" || source === "set -e -") {
      // `set -` ends the options (the rest are positional parameters): inert.
      expect(denyMay(source, "reboot")).toBe(false);
      return;
    }
    if (source === "set x-e") {
      // A word that is not an option starts the positional parameters.
      expect(denyMay(source, "reboot")).toBe(false);
      return;
    }
    expect(denyMay(source, "reboot")).toBe(true);
  });

  it("is never certain for an allow (the safe subset refuses set)", () => {
    expect(allowCertain("set -e", "set")).toBe(false);
  });
});

describe("test and [: inert unless a variable is named or a comparison evaluates a word", () => {
  it.each([
    "test -f x",
    "test x",
    "test",
    "test 1 -eq 2",
    "test 1 -ne 2",
    "test 1 -lt 2",
    "test 1 -le 2",
    "test 1 -gt 2",
    "test 1 -ge 2",
    "test -1 -eq 22",
    "test a -eqx b",
    "test a x-eq b",
    "test a -nt b",
    // `[` unquoted is a glob character (a word that may be any word); quoted it is the builtin
    "'[' -f x ]",
    "'[' 1 -lt 2 ]",
    "'/usr/bin/[' 1 -lt 2 ]",
  ])("%s is inert", (source) => {
    expect(denyMay(source, "reboot")).toBe(false);
  });

  it.each([
    "test -v x",
    "test -R x",
    "test x -eq 2",
    "test 1 -eq x",
    "test x -ne 2",
    "test x -lt 2",
    "test x -le 2",
    "test x -gt 2",
    "test x -ge 2",
    "test 1 -ge x",
    "test -eq 1",
    "test 1 -eq",
    "test 1x -eq 2",
    "test 1 -eq x2",
    "'[' -v x ]",
    "'[' -R x ]",
    "'[' x -gt 1 ]",
    "/usr/bin/test -v x",
  ])("%s may run anything", (source) => {
    expect(denyMay(source, "reboot")).toBe(true);
  });
});

describe("export, readonly, unset: plain names are inert", () => {
  it.each([
    "export X",
    "export X=1",
    "export -p",
    "export _x9=1 Y",
    "readonly X",
    "readonly X=1",
    "readonly -p",
    "unset x",
    "unset -v x",
    "unset -f x",
    "unset _a1 b",
  ])("%s is inert", (source) => {
    expect(denyMay(source, "reboot")).toBe(false);
  });

  it.each([
    "export 'a[x]'",
    "export 'a[x]=1'",
    "export 1X=2",
    "export 'X['",
    "export X- Y",
    "export -f x",
    "export -n x",
    "readonly 'a[x]=1'",
    "readonly 'X['",
    "readonly -f x",
    "unset 'a[x]'",
    "unset -x x",
    "unset -n x",
    "unset 1x",
    "unset 'x['",
    "/usr/bin/export 'a[x]'",
    "/usr/bin/unset 'a[x]'",
  ])("%s may run anything", (source) => {
    expect(denyMay(source, "reboot")).toBe(true);
  });

  it("reads an exported value as code, and never certifies them for an allow", () => {
    expect(denyMay("export X=reboot", "reboot")).toBe(true);
    expect(allowCertain("export X=1", "export")).toBe(false);
    expect(allowCertain("unset x", "unset")).toBe(false);
  });
});
