// Oracle for the matcher's tables (src/runtime/match/shell/tables.ts): shells by name, wrappers, programs that
// run code read from stdin or a file when found after the first word, commands that never run their operands,
// reserved words, harmless redirections and hidden characters. Every name and spelling is written out here with
// the decision it must give, never derived from the table. No input here is run.
import { describe, expect, it } from "vitest";
import { matchCommandPrefix, parseShellCommand, traceCommand } from "../../../src/runtime/match/shell.js";
import { allowCertain, denyMay } from "./shell-decide.js";

describe("shells: a shell as a later word of an unknown program may run anything", () => {
  it.each([
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
  ])("%s", (shell) => {
    expect(denyMay(`prlimit ${shell} x`, "reboot")).toBe(true);
    expect(denyMay(`prlimit /bin/${shell.toUpperCase()} x`, "reboot")).toBe(true);
    expect(denyMay(`${shell} x`, "reboot")).toBe(true);
    expect(denyMay(`nice ${shell} x`, "reboot")).toBe(true);
  });

  it.each([
    "bash5.2",
    "bash5",
    "bash0",
    "bash9",
    "bash-5.2",
    "bash_5",
    "zsh-5.9",
    "mksh_59c",
    "bash5.2a",
    "es5",
    "nu0.9",
    "rc1",
    "ion-1.0",
    "brush9",
    "ELVISH0.21",
  ])("%s, a known shell with a version after it", (shell) => {
    expect(denyMay(`prlimit ${shell} x`, "reboot")).toBe(true);
    expect(denyMay(`${shell} x`, "reboot")).toBe(true);
  });

  it.each(["bashful", "shx", "5.2", "93", "bashab", "bash5.2ab", "esx", "nux", "ionic", "rc.d", "brushes"])(
    "%s after the first word is no shell",
    (word) => {
      expect(denyMay(`prlimit ${word} x`, "reboot")).toBe(false);
    },
  );

  it("as the command word, any name ending in sh is a shell, with or without a version", () => {
    expect(denyMay("fancysh x", "reboot")).toBe(true);
    expect(denyMay("fancysh5 x", "reboot")).toBe(true);
    expect(denyMay("fancysh-1.2 x", "reboot")).toBe(true);
    expect(denyMay("fancy x", "reboot")).toBe(false);
    expect(denyMay("fancy5 x", "reboot")).toBe(false);
    expect(denyMay("shx x", "reboot")).toBe(false);
    expect(denyMay("5sh0 x", "reboot")).toBe(true);
    // a later word ending in sh is not a shell unless it is a known one
    expect(denyMay("prlimit fancysh x", "reboot")).toBe(false);
  });
});

describe("wrappers that cannot be read exactly may run anything as the command word", () => {
  it.each([
    "sudo",
    "doas",
    "su",
    "runuser",
    "pkexec",
    "ionice",
    "xargs",
    "parallel",
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
  ])("%s", (wrapper) => {
    expect(denyMay(`${wrapper} whoami`, "reboot")).toBe(true);
    expect(denyMay(`/usr/bin/${wrapper.toUpperCase()} whoami`, "reboot")).toBe(true);
  });

  it.each([
    "env whoami",
    "nohup whoami",
    "nice whoami",
    "time whoami",
    "timeout 5 whoami",
    "stdbuf -oL whoami",
    "command whoami",
    "exec whoami",
    "builtin whoami",
    "- whoami",
    "noglob whoami",
    "nocorrect whoami",
  ])("%s: a wrapper read exactly runs its command only", (source) => {
    expect(denyMay(source, "reboot")).toBe(false);
  });

  it("a wrapper read exactly with nothing to run, or an option it cannot read, may run anything", () => {
    expect(denyMay("timeout 5", "reboot")).toBe(true);
    expect(denyMay("timeout -x 5 whoami", "reboot")).toBe(true);
    expect(denyMay("nohup -x whoami", "reboot")).toBe(true);
    expect(denyMay("noglob -x whoami", "reboot")).toBe(true);
    expect(denyMay("nocorrect -x whoami", "reboot")).toBe(true);
    expect(denyMay("builtin -x whoami", "reboot")).toBe(true);
    expect(denyMay("- -x whoami", "reboot")).toBe(true);
  });
});

describe("programs that run code from stdin or a file, found after the first word", () => {
  it.each([
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
  ])("%s", (runner) => {
    expect(denyMay(`prlimit ${runner} x`, "reboot")).toBe(true);
    expect(denyMay(`prlimit /usr/bin/${runner.toUpperCase()}`, "reboot")).toBe(true);
  });

  it.each(["env", "nice", "nohup", "timeout", "chroot", "watch", "strace", "eval", "whoami", "script"])(
    "%s after the first word runs nothing it does not name",
    (word) => {
      expect(denyMay(`prlimit ${word} x`, "reboot")).toBe(false);
    },
  );
});

describe("commands that never run their operands: a deny sees only their first word", () => {
  it.each([
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
  ])("%s", (command) => {
    expect(denyMay(`${command} reboot`, "reboot")).toBe(false);
    expect(denyMay(`${command} bash x`, "reboot")).toBe(false);
    expect(denyMay(`${command} x`, command)).toBe(true);
    expect(denyMay(`/bin/${command} reboot`, "reboot")).toBe(true);
  });

  it.each(["sort reboot", "less reboot", "tee reboot", "printf reboot", "touch reboot", "rm reboot"])(
    "%s: another program's operands may be run",
    (source) => {
      expect(denyMay(source, "reboot")).toBe(true);
    },
  );
});

describe("reserved words: refused unquoted, an ordinary command name quoted", () => {
  it.each([
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
    "[[",
    "]]",
    "{",
    "}",
  ])("%s", (word) => {
    expect(denyMay(`'${word}' x`, "reboot")).toBe(false);
    expect(denyMay(`'${word}' x`, [word])).toBe(true);
    expect(allowCertain(`'${word}' x`, [word])).toBe(false);
  });

  it("a `!` quoted is a command named `!`; unquoted the reader does not read what follows it as a command word", () => {
    expect(denyMay("'!' x", "reboot")).toBe(false);
    expect(allowCertain("'!' x", ["!"])).toBe(false);
  });

  it.each([
    "if x",
    "then x",
    "for x",
    "while x",
    "{ x",
    "[[ x",
    "function x",
    "select x",
    "coproc x",
    "case x",
  ])("%s unquoted has no reading the matcher can trust", (source) => {
    const trace = traceCommand(source, [["reboot"]]);
    expect(trace.possible).toBe(true);
    expect(trace.certain).toBe(false);
  });
});

describe("the safe subset refuses every builtin that is not inert, and no inert one", () => {
  it.each([
    "eval x",
    "alias x",
    "let x",
    "read x",
    "set x",
    "exit 1",
    "shift 1",
    "export X",
    "unset x",
    "test x",
  ])("%s is never certain", (source) => {
    expect(allowCertain(source, [source.split(" ")[0] as string])).toBe(false);
  });

  it.each([
    "cd x",
    "echo x",
    "pwd",
    "true",
    "false",
    ": x",
    "type x",
    "umask",
    "jobs",
    "help x",
    "times",
    "dirs",
  ])("%s may be certain", (source) => {
    expect(allowCertain(source, [source.split(" ")[0] as string])).toBe(true);
  });
});

describe("harmless redirections keep a command its prefix's exact match", () => {
  const matchOf = (source: string, prefix: string) => {
    const parsed = parseShellCommand(source);
    if (!parsed.ok) throw new Error(parsed.message);
    return matchCommandPrefix(parsed.commands[0] as never, prefix.split(" "));
  };

  it.each([
    "ls 2>&1",
    "ls >&2",
    "ls 1>&2",
    "ls >/dev/null",
    "ls > /dev/null",
    "ls 1>/dev/null",
    "ls 2>/dev/null",
    "ls &>/dev/null",
    "ls </dev/null",
    "ls 0</dev/null",
  ])("%s", (source) => {
    expect(matchOf(source, "ls")).toBe("match");
  });

  it.each([
    "ls >x",
    "ls 2>x",
    "ls >/dev/nullx",
    "ls 3>&1",
    "ls >>/dev/null",
    "ls <x",
    "ls 2>&3",
    "ls 1>/dev/zero",
  ])("%s", (source) => {
    expect(matchOf(source, "ls")).toBe("unknown");
  });
});

describe("characters a shell drops or a terminal hides make any deny match and no allow certain", () => {
  it.each([
    ["a control character", "\u0001"],
    ["the escape character", "\u001b"],
    ["DEL", "\u007f"],
    ["a C1 control", "\u0085"],
    ["a format character", "\u200b"],
    ["a bidirectional override", "\u202e"],
    ["an unassigned code point", "\u0378"],
    ["a private-use character", "\ue000"],
    ["a lone surrogate", "\ud800"],
    ["a no-break space", "\u00a0"],
    ["an ideographic space", "\u3000"],
    ["the line separator", "\u2028"],
    ["the paragraph separator", "\u2029"],
    ["a combining mark", "\u0301"],
    ["an enclosing mark", "\u20dd"],
  ])("%s", (_what, c) => {
    expect(denyMay(`ls x${c}`, "reboot")).toBe(true);
    expect(allowCertain(`ls x${c}`, "ls")).toBe(false);
  });

  it.each([
    ["a tab", "ls\tx"],
    ["a newline", "ls x\nls y"],
    ["a blank", "ls  x"],
  ])("%s is not hidden", (_what, source) => {
    expect(denyMay(source, "reboot")).toBe(false);
    expect(allowCertain(source, "ls")).toBe(true);
  });

  it.each([
    ["a letter outside ASCII", "ls é"],
    ["a character outside the BMP", "ls 😀"],
    ["a printable ASCII character", "ls x~"],
  ])("%s is not hidden (the safe subset may still refuse it)", (_what, source) => {
    expect(denyMay(source, "reboot")).toBe(false);
  });
});
