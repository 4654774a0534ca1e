// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the test data is shell source, where ${...} is parameter expansion
// The `command` operator's security tables and matcher, entry by entry: each table entry is a judgement about
// a program or a character, so each is checked through a decision a policy makes with it (may a deny or ask
// prefix match? may an allow prefix be certain?). Every answer is also checked to be the one a policy's
// CommandPrefixSet gives, which reads the same tables by a separate walk.
import { describe, expect, it } from "vitest";
import {
  CommandPrefixSet,
  matchCommand,
  matchCommandPrefix,
  parseCommandPrefixSpec,
  parseShellCommand,
  readSafeSubset,
  readShellCommand,
  ShellReadMemo,
  type SimpleCommand,
  traceCommand,
} from "../../../src/runtime/match/shell.js";

type Decision = { readonly certain: boolean; readonly possible: boolean };

/** `matchCommand` over prefixes written as space-separated words, checked against a policy's prefix set. */
function decide(source: string, ...prefixes: string[]): Decision {
  const words = prefixes.map((p) => (p === "" ? [] : p.split(" ")));
  const direct = matchCommand(source, words);
  const set = new CommandPrefixSet();
  const ids = set.add(words);
  expect(set.match(source, ids.from, ids.to), `CommandPrefixSet on ${JSON.stringify(source)}`).toEqual(
    direct,
  );
  return direct;
}

/** May a deny or ask statement with this prefix match the command? */
function mayMatch(source: string, prefix: string): boolean {
  return decide(source, prefix).possible;
}

/** May an allow statement with this prefix decide the command without a person? */
function certain(source: string, prefix: string): boolean {
  return decide(source, prefix).certain;
}

function only(source: string): SimpleCommand {
  const parsed = parseShellCommand(source);
  if (!parsed.ok) throw new Error(`${source}: ${parsed.message}`);
  expect(parsed.commands).toHaveLength(1);
  return parsed.commands[0] as SimpleCommand;
}

describe("harmless redirections: a command with them is still its prefix's exact match", () => {
  // As written in a command line; the reader spells them without the blank.
  const harmless = [
    "2>&1",
    ">&2",
    "1>&2",
    "> /dev/null",
    "1> /dev/null",
    "2>/dev/null",
    "&>/dev/null",
    "< /dev/null",
    "0</dev/null",
  ];
  it.each(harmless)("git status %s matches git status", (redirection) => {
    const command = only(`git status ${redirection}`);
    expect(matchCommandPrefix(command, ["git", "status"])).toBe("match");
    const trace = traceCommand(`git status ${redirection}`, [["git", "status"]]);
    expect(trace.readings[0]?.commands[0]?.prefixes).toEqual([{ prefix: "git status", match: "match" }]);
  });

  // Each may change what the command reads or writes: only "may match".
  const other = [
    ">out",
    "2>out",
    ">>/dev/null",
    "2>>/dev/null",
    "<in",
    "3>/dev/null",
    ">/dev/nullx",
    ">&3",
    "2>&-",
  ];
  it.each(other)("git status %s may match git status, not certainly", (redirection) => {
    expect(matchCommandPrefix(only(`git status ${redirection}`), ["git", "status"])).toBe("unknown");
  });

  it("an assignment before the command makes it a maybe too", () => {
    expect(matchCommandPrefix(only("GIT_DIR=/x git status"), ["git", "status"])).toBe("unknown");
    expect(matchCommandPrefix(only("git status"), ["git", "status"])).toBe("match");
    expect(matchCommandPrefix(only("git statusx"), ["git", "status"])).toBe("no-match");
  });
});

describe("wrappers that cannot be read exactly may run any prefix", () => {
  // Each as the first word of `<wrapper> whoami`: the command does not name rm, yet the wrapper may run it.
  const wrappers = [
    "sudo",
    "doas",
    "su",
    "runuser",
    "pkexec",
    "eval",
    "source",
    ".",
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
  ];
  it.each(wrappers)("%s whoami may run rm -rf", (wrapper) => {
    expect(mayMatch(`${wrapper} whoami`, "rm -rf")).toBe(true);
    // Under another case or a path it is the same program.
    expect(mayMatch(`/usr/bin/${wrapper.toUpperCase()} whoami`, "rm -rf")).toBe(true);
  });

  it("a command that is no wrapper runs only what it names", () => {
    expect(mayMatch("whoami", "rm -rf")).toBe(false);
    expect(mayMatch("prlimit whoami", "rm -rf")).toBe(false);
    expect(mayMatch("sudoers whoami", "rm -rf")).toBe(false);
  });

  it("a prefix naming the wrapper itself is matched in place, not unwrapped", () => {
    expect(mayMatch("sudo whoami", "sudo")).toBe(true);
    expect(mayMatch("sudo whoami", "sudo -s")).toBe(false);
    expect(mayMatch("sudo -s whoami", "sudo -s")).toBe(true);
    expect(mayMatch("nice whoami", "nice -n")).toBe(false);
    expect(certain("sudo whoami", "sudo")).toBe(true);
  });
});

describe("wrappers read exactly: the command they run is matched in their place", () => {
  // [wrapper and its options, without the command]: `<it> whoami` runs whoami only, `<it> eval whoami` runs
  // eval (which may run anything), and `<it> -Z whoami` has an option it cannot read (may run anything).
  const readable: string[] = [
    "time",
    "time -p",
    "nohup",
    "nice",
    "nice -n 5",
    "nice -n5",
    "nice -5",
    "nice --adjustment 5",
    "nice --adjustment=5",
    "timeout 5",
    "timeout --preserve-status 5",
    "timeout --foreground 5",
    "timeout -v 5",
    "timeout --verbose 5",
    "timeout -s KILL 5",
    "timeout -sKILL 5",
    "timeout --signal KILL 5",
    "timeout --signal=KILL 5",
    "timeout -k 1 5",
    "timeout --kill-after 1 5",
    "timeout --kill-after=1 5",
    "timeout -- 5",
    "stdbuf -i 0",
    "stdbuf -o L",
    "stdbuf -oL",
    "stdbuf -e 0",
    "stdbuf --input 0",
    "stdbuf --output=L",
    "stdbuf --output L",
    "stdbuf --error 0",
    "env",
    "env -i",
    "env --ignore-environment",
    "env -",
    "env - -i",
    "env - FOO=1",
    "env -u HOME",
    "env --unset HOME",
    "env -C /tmp",
    "env --chdir=/tmp",
    "env --chdir /tmp",
    "env FOO=1",
    "env -i FOO=1 BAR=2",
    "env --",
    "command",
    "command -p",
    "exec",
    "exec -c",
    "exec -l",
    "exec -a name",
    "exec -c -l -a name",
    "builtin",
    "time !",
    "-",
    "noglob",
    "nocorrect",
    "nice nohup timeout 5",
  ];
  it.each(readable)("%s whoami does not run rm, but may run what a wrapper after it runs", (wrapper) => {
    expect(mayMatch(`${wrapper} whoami`, "rm -rf")).toBe(false);
    expect(mayMatch(`${wrapper} eval whoami`, "rm -rf")).toBe(true);
    expect(mayMatch(`${wrapper} whoami -rf`, "whoami -rf")).toBe(true);
  });

  // The first word of each readable wrapper, with an option (or a missing command) it cannot read.
  const unreadable = [
    "time -o f whoami",
    "nohup -Z whoami",
    "nice -n",
    "nice -x 5 whoami",
    "nice --adjustment",
    "timeout -Z 5 whoami",
    "timeout 5",
    "timeout --signal",
    "timeout --signalx=KILL 5 whoami",
    "timeout -",
    "stdbuf -Z whoami",
    "stdbuf -Zz whoami",
    "env -Zz whoami",
    "env -S whoami",
    "env -u",
    "env FOO=1",
    "command -v whoami",
    "exec -Z whoami",
    "builtin -Z whoami",
    "time ! -Z whoami",
    "- -Z whoami",
    "noglob -Z whoami",
    "nocorrect -Z whoami",
    "nice -n $N whoami",
    "nice $(x) whoami",
    "env -u $V whoami",
    // `-N` is a niceness only for nice: any other readable wrapper cannot read it.
    "env -5 whoami",
    "time -5 whoami",
    "timeout -5 5 whoami",
  ];
  it.each(unreadable)("%s may run rm -rf", (source) => {
    expect(mayMatch(source, "rm -rf")).toBe(true);
  });

  it("`--` ends the options, and so does env's first setting: a word starting with - after them is the command", () => {
    // GNU env stops at its first operand: `env -- -x whoami` and `env A=1 -x whoami` run a program named `-x`.
    expect(mayMatch("env -- -x whoami", "rm -rf")).toBe(false);
    expect(mayMatch("nice -- -x whoami", "rm -rf")).toBe(false);
    expect(mayMatch("env A=1 -x whoami", "rm -rf")).toBe(false);
    expect(mayMatch("env -x whoami", "rm -rf")).toBe(true);
    expect(mayMatch("env -- -x whoami -rf", "-x -rf")).toBe(true);
  });

  it("only env takes settings: after any other wrapper a word holding = is the command it runs", () => {
    // `nice A=1 eval x` runs a program named `A=1`, not eval; env sets A=1 and runs eval.
    expect(mayMatch("nice A=1 eval x", "reboot")).toBe(false);
    expect(mayMatch("nohup A=1 eval x", "reboot")).toBe(false);
    expect(mayMatch("env A=1 eval x", "reboot")).toBe(true);
  });

  it("wrappers nested too deep to follow may run anything", () => {
    expect(mayMatch(`${"nice ".repeat(9)}whoami`, "rm")).toBe(false);
    expect(mayMatch(`${"nice ".repeat(10)}whoami`, "rm")).toBe(true);
    expect(mayMatch(`${"nice ".repeat(20)}whoami`, "rm")).toBe(true);
    // zsh's `-` is a wrapper too, one level per `-`: only env reads a `-` as an option of its own.
    expect(mayMatch(`${"- ".repeat(9)}whoami`, "rm")).toBe(false);
    expect(mayMatch(`${"- ".repeat(10)}whoami`, "rm")).toBe(true);
    expect(mayMatch(`nice ${"- ".repeat(9)}whoami`, "rm")).toBe(true);
  });
});

describe("programs after the first word that may run code read from a file or stdin", () => {
  const runners = [
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
  ];
  it.each(runners)("prlimit %s script may run rm -rf", (runner) => {
    expect(mayMatch(`prlimit ${runner} script.sh`, "rm -rf")).toBe(true);
    expect(mayMatch(`unbuffer /usr/bin/${runner.toUpperCase()}`, "rm -rf")).toBe(true);
  });

  it("other programs after the first word run nothing the command does not name", () => {
    expect(mayMatch("prlimit whoami script.sh", "rm -rf")).toBe(false);
    expect(mayMatch("prlimit eval script.sh", "rm -rf")).toBe(false);
  });
});

describe("commands that never run their operands: later words are data", () => {
  const dataOnly = [
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
  ];
  it.each(dataOnly)("%s rm -rf / does not run rm", (command) => {
    expect(mayMatch(`${command} rm -rf /`, "rm -rf")).toBe(false);
    expect(mayMatch(`${command} sh -c x`, "rm -rf")).toBe(false);
    expect(mayMatch(`${command} rm -rf /`, command)).toBe(true);
    // Only the exact first word: another spelling may be another program.
    expect(mayMatch(`./${command} rm -rf /`, "rm -rf")).toBe(true);
  });

  it("a versioned or upper-case spelling still names the same program for its own prefix", () => {
    expect(mayMatch("grep -r x", "grep -r")).toBe(true);
    expect(mayMatch("grep x", "grep -r")).toBe(false);
    expect(mayMatch("cat x", "ls")).toBe(false);
  });
});

describe("reserved words: syntax the reader does not read may run anything, and is never certain", () => {
  const reserved = [
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
    "}",
  ];
  it.each(reserved)("%s whoami", (word) => {
    const parsed = parseShellCommand(`${word} whoami`);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok)
      expect(parsed.message).toContain(`"${word}" at offset 0 starts shell syntax that is not supported`);
    expect(decide(`${word} whoami`, "rm -rf")).toEqual({ certain: false, possible: true });
    // Quoted, it is a plain command name.
    expect(mayMatch(`'${word}' whoami`, "rm -rf")).toBe(false);
  });

  it("{ where no brace group can start", () => {
    const parsed = parseShellCommand(">/dev/null { whoami");
    expect(parsed.ok).toBe(false);
    if (!parsed.ok)
      expect(parsed.message).toContain('"{" at offset 11 starts shell syntax that is not supported');
    expect(decide(">/dev/null { whoami", "rm -rf")).toEqual({ certain: false, possible: true });
    expect(mayMatch("{ whoami; }", "rm -rf")).toBe(false);
  });
});

describe("first words the safe subset refuses: an allow is never certain for them", () => {
  const refused = [
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
  ];
  it.each(refused)("allow %s: %s x is a maybe", (word) => {
    expect(decide(`${word} x`, word)).toEqual({ certain: false, possible: true });
    expect(decide(`git status; ${word} x`, "git status", word).certain).toBe(false);
  });

  it("other first words are certain for their prefix", () => {
    expect(decide("git status", "git status")).toEqual({ certain: true, possible: true });
    expect(decide("cd src", "cd")).toEqual({ certain: true, possible: true });
    expect(decide("git status; ls -l", "git status", "ls")).toEqual({ certain: true, possible: true });
  });
});

describe("characters a shell drops or a terminal hides make any command a maybe", () => {
  // [what it is, the character]
  const hidden: [string, string][] = [
    ["a control character", "\u0001"],
    ["carriage return", "\r"],
    ["escape", "\u001b"],
    ["NUL", "\u0000"],
    ["DEL", "\u007f"],
    ["a C1 control", "\u0085"],
    ["a zero-width space (format)", "\u200b"],
    ["a right-to-left override (format)", "\u202e"],
    ["an unassigned code point", "\u0378"],
    ["a private-use character", "\ue000"],
    ["a lone surrogate", "\ud800"],
    ["a no-break space", "\u00a0"],
    ["an ideographic space", "\u3000"],
    ["a line separator", "\u2028"],
    ["a paragraph separator", "\u2029"],
    ["a combining accent (nonspacing mark)", "\u0301"],
    ["an enclosing circle (enclosing mark)", "\u20dd"],
  ];
  it.each(hidden)("%s", (_what, char) => {
    expect(decide(`whoami${char}`, "rm -rf")).toEqual({ certain: false, possible: true });
    expect(decide(char, "rm -rf")).toEqual({ certain: false, possible: true });
    expect(decide(`${char}${char}`, "rm -rf")).toEqual({ certain: false, possible: true });
    expect(decide(`git status${char}`, "git status")).toEqual({ certain: false, possible: true });
    expect(decide(`ls é${char}`, "rm -rf")).toEqual({ certain: false, possible: true });
    const trace = traceCommand(`whoami${char}`, [["rm", "-rf"]]);
    expect(trace.unreadable).toBe("the command holds a character a shell drops or a terminal hides");
  });

  it("tab, newline, space and visible letters are read as they are", () => {
    for (const source of [
      "ls café",
      "ls café\tx",
      "ls café\nwhoami",
      "ls café x",
      "ls ж",
      "ls ~",
      "ls\tx\nwhoami",
    ]) {
      expect(mayMatch(source, "rm -rf"), source).toBe(false);
      expect(traceCommand(source, [["rm", "-rf"]]).unreadable, source).toBeUndefined();
    }
    expect(certain("git status\tx", "git status")).toBe(true);
    expect(certain("git status\ngit status x", "git status")).toBe(true);
  });
});

describe("env sets every word holding = before its command, whatever the name", () => {
  // GNU, busybox and BSD env put any such word in the environment (`1X=2`, `a.b=1`, `'A B=1'`): the word
  // after them is the command, which may be a wrapper that runs a shell on stdin.
  it.each([
    "echo 'rm -rf /' | env 1X=2 script -q /dev/null",
    "echo 'rm -rf /' | env a.b=1 chroot /",
    "env 'A B=1' eval x",
    "env -i A-B=1 =x source ./x.sh",
  ])("%s may run rm -rf", (source) => {
    expect(mayMatch(source, "rm -rf")).toBe(true);
  });

  it("and still reads the command after them exactly", () => {
    expect(mayMatch("env 1X=2 a.b=1 whoami", "rm -rf")).toBe(false);
    expect(mayMatch("env -i 'A B=1' whoami -rf", "whoami -rf")).toBe(true);
  });
});

describe("a setting's value may be a command a program runs", () => {
  // git runs $EDITOR, $GIT_SSH_COMMAND, core.pager; make runs $(CC): a single word is a command too.
  it.each([
    "EDITOR=reboot git commit",
    "GIT_SSH_COMMAND=/sbin/reboot git fetch",
    "PAGER=REBOOT git -p log",
    "git -c core.pager=reboot -p log",
    "make CC=reboot",
    "git rebase --exec=/usr/sbin/reboot main",
  ])("%s may run reboot", (source) => {
    expect(mayMatch(source, "reboot")).toBe(true);
  });

  it("values and settings naming another program do not match", () => {
    expect(mayMatch("EDITOR=vim git commit", "reboot")).toBe(false);
    expect(mayMatch("git -c core.pager=less -p log", "reboot")).toBe(false);
    expect(mayMatch("make CC=gcc", "rm -rf")).toBe(false);
    expect(mayMatch("git log --format=%H", "rm -rf")).toBe(false);
    // After a command that never runs its operands they stay data.
    expect(mayMatch("echo CC=reboot", "reboot")).toBe(false);
  });
});

describe("a prefix's first word under any spelling a system runs as the same program", () => {
  it.each([
    ["/usr/bin/rm -rf /", "rm -rf"],
    ["./rm -rf /", "rm -rf"],
    ["RM -RF /", "rm -rf"],
    ["rm -rf /", "/bin/rm -rf"],
    ["rm -rf /", "RM -rf"],
    ["python3.12 x.py", "python3"],
    ["python3.12 x.py", "python"],
    // A version ending in 0 or 9: the digits at the ends of the range are part of the version too.
    ["python3.10 x.py", "python"],
    ["python3.9 x.py", "python3"],
    ["python3 x.py", "python"],
    ["python-3 x.py", "python"],
    ["python_3 x.py", "python"],
    ["python.3 x.py", "python"],
    ["python3. x.py", "python"],
    ["python3b x.py", "python"],
    ["perl5.36 x.pl", "perl"],
    ["/opt/bin/Python3.11 x.py", "python3"],
    ["git status; python3.12 x.py", "python"],
  ])("%s may run %s", (source, prefix) => {
    expect(mayMatch(source, prefix)).toBe(true);
  });

  it.each([
    ["rmdir x", "rm"],
    ["rmx x", "rm"],
    ["xrm x", "rm"],
    ["pythonista x.py", "python"],
    ["python3ab x.py", "python"],
    ["python3x2 x.py", "python"],
    ["python- x.py", "python"],
    ["py3 x.py", "python"],
    ["python x.py", "python3"],
    ["rm2de x", "rm"],
    ["rm/x y", "rm"],
  ])("%s does not run %s", (source, prefix) => {
    expect(mayMatch(source, prefix)).toBe(false);
  });
});

describe("the prefix's other words: in order, with anything between; option clusters by their letters", () => {
  it.each([
    ["git -C x push", "git push"],
    ["git push origin --force", "git push --force"],
    ["rm -r -f x", "rm -rf"],
    ["rm -fR x", "rm -rf"],
    ["rm -rfv x", "rm -rf"],
    ["rm -r -v -f x", "rm -rf"],
    ["rm -rf x", "rm -RF"],
    ["rm -f x -r", "rm -rf"],
    ["rm -r $x", "rm -rf"],
    ["rm -r *.tmp", "rm -rf"],
    ["git push $remote", "git push --force"],
    ["make clean-all", "make clean-all"],
    ["head -n1 f", "head -n1"],
    ["tar -x -v -z -f a.tgz", "tar -xzf"],
    ["sudo -s whoami", "sudo -s"],
  ])("%s may run %s", (source, prefix) => {
    expect(mayMatch(source, prefix)).toBe(true);
  });

  it.each([
    ["git push", "git push --force"],
    ["git --force push", "git push --force"],
    ["git pull", "git push"],
    ["rm -r x", "rm -rf"],
    ["rm --rf x", "rm -rf"],
    ["rm - rf x", "rm -rf"],
    ["rm x -", "rm -r"],
    ["rm -r x f", "rm -rf"],
    // Letters count only in words that start with one `-`: `xrf` and `arf` are operands.
    ["rm xrf y", "rm -rf"],
    ["rm arf", "rm -rf"],
    ["rm r f x", "rm -rf"],
    ["make clean", "make clean-all"],
    ["head -1n f", "head -n1"],
    ["git log rm -rf", "rm -rf x"],
  ])("%s does not run %s", (source, prefix) => {
    expect(mayMatch(source, prefix)).toBe(false);
  });
});

describe("words the reader cannot know may be any words", () => {
  it.each([
    "$cmd x",
    "${cmd} x",
    "./x $y",
    "./x *.sh",
    "./x {a,b}",
    "find . -exec x {} +",
    "find . -name '{}'",
    "git status; $cmd",
  ])("%s may run rm -rf", (source) => {
    expect(mayMatch(source, "rm -rf")).toBe(true);
  });

  it("after a command that never runs its operands they are data", () => {
    expect(mayMatch("ls $x", "rm -rf")).toBe(false);
    expect(mayMatch("echo *.sh {a,b}", "rm -rf")).toBe(false);
    expect(mayMatch("ls $x", "ls -l")).toBe(true);
  });
});

describe("text a command may run as code is searched for the prefix's words", () => {
  it.each([
    ["git -c 'core.pager=rm -rf /' log", "rm -rf"],
    ["PAGER='rm -rf /' git log", "rm -rf"],
    ["whoami <<<'rm -rf /'", "rm -rf"],
    ["prlimit 'x;rm' -f", "rm"],
    ["prlimit 'x&rm'", "rm"],
    ["prlimit 'x|rm'", "rm"],
    ["prlimit 'x`rm'", "rm"],
    ["prlimit 'x$rm'", "rm"],
    ["prlimit 'x(rm'", "rm"],
    ["prlimit 'x)rm'", "rm"],
    ["prlimit 'x<rm'", "rm"],
    ["prlimit 'x>rm'", "rm"],
    ["prlimit 'x rm'", "rm"],
    ["prlimit 'x\trm'", "rm"],
    ["prlimit 'x\nrm'", "rm"],
    ["prlimit 'x;{rm}'", "rm"],
    ["prlimit 'x;\"rm\"'", "rm"],
    ["prlimit \"x;'rm'\"", "rm"],
    ["prlimit 'x;\\rm'", "rm"],
    ["prlimit 'x; /bin/RM -R -F /'", "rm -rf"],
    ["prlimit 'x; rm -rf' y", "rm -rf"],
    ["X='a; rm -rf' prlimit", "rm -rf"],
  ])("%s may run %s", (source, prefix) => {
    expect(mayMatch(source, prefix)).toBe(true);
  });

  it.each([
    ["prlimit 'x;rmdir'", "rm"],
    ["prlimit 'rm x'", "rm -rf"],
    ["prlimit 'x; rm -r' -f", "rm -rf"],
    ["PAGER='less -R' git log", "rm -rf"],
    ["echo 'rm -rf /'", "rm -rf"],
    ["cat 'x; rm -rf'", "rm -rf"],
    ["git log > x", "rm"],
  ])("%s does not run %s", (source, prefix) => {
    expect(mayMatch(source, prefix)).toBe(false);
  });
});

describe("matchCommandPrefix: how one simple command relates to one prefix", () => {
  it("answers match, unknown or no-match as the reader's words allow", () => {
    expect(matchCommandPrefix(only("git status -s"), ["git", "status"])).toBe("match");
    expect(matchCommandPrefix(only("git stat"), ["git", "status"])).toBe("no-match");
    expect(matchCommandPrefix(only("git"), ["git", "status"])).toBe("no-match");
    expect(matchCommandPrefix(only("git $x"), ["git", "status"])).toBe("unknown");
    expect(matchCommandPrefix(only("git status"), [])).toBe("unknown");
    expect(matchCommandPrefix(only("ls"), [])).toBe("unknown");
    expect(matchCommandPrefix(only("PAGER=rm git log"), ["rm"])).toBe("unknown");
    expect(matchCommandPrefix(only("PAGER=less git log"), ["rm"])).toBe("no-match");
    expect(matchCommandPrefix(only("git log <<<'rm -rf /'"), ["rm", "-rf"])).toBe("unknown");
    expect(matchCommandPrefix(only("git log <<<'rm -r /'"), ["rm", "-rf"])).toBe("no-match");
    expect(matchCommandPrefix(only(">/dev/null"), ["rm"])).toBe("no-match");
  });
});

describe("matchCommand over lists of prefixes", () => {
  it("no prefix matches nothing; an empty prefix is a prefix of every command", () => {
    expect(matchCommand("rm -rf /", [])).toEqual({ certain: false, possible: false });
    expect(decide("rm -rf /", "")).toEqual({ certain: true, possible: true });
    expect(decide("rm -rf $x", "")).toEqual({ certain: false, possible: true });
    expect(decide("rm -rf /", "", "git status")).toEqual({ certain: true, possible: true });
  });

  it("is certain only when every simple command is covered by some prefix", () => {
    expect(decide("git status && ls -l", "git status", "ls")).toEqual({ certain: true, possible: true });
    expect(decide("git status && ls -l", "git status")).toEqual({ certain: false, possible: true });
    expect(decide("git status | rm -rf /", "git status", "rm -rf")).toEqual({
      certain: true,
      possible: true,
    });
    expect(decide("git stat", "git status")).toEqual({ certain: false, possible: false });
    expect(decide("git status $x", "git status")).toEqual({ certain: false, possible: true });
    expect(decide("git 'status'", "git status")).toEqual({ certain: true, possible: true });
  });

  it("a string no shell reading can parse may match any prefix, never certainly", () => {
    expect(decide("git status 'unterminated", "rm -rf")).toEqual({ certain: false, possible: true });
    expect(decide("if true; then ls; fi", "rm -rf", "ls", "if")).toEqual({ certain: false, possible: true });
    const trace = traceCommand("git status 'unterminated", [["rm", "-rf"]]);
    expect(trace.unreadable).toMatch(/^no shell reading: /);
    expect(trace.readings).toEqual([]);
  });

  it("an expansion that may evaluate code may run any prefix", () => {
    expect(decide("echo $((x[$(id)]))", "rm -rf")).toEqual({ certain: false, possible: true });
    expect(decide("echo ${x:=y}", "rm -rf")).toEqual({ certain: false, possible: true });
  });

  it("exact prefixes and prefixes with options limit only what is certain", () => {
    const exact = parseCommandPrefixSpec("git status$");
    const opts = parseCommandPrefixSpec({ prefix: "git log", options: ["--oneline"] });
    if (!exact.ok || !opts.ok) throw new Error("prefix specs");
    expect(matchCommand("git status", [exact.prefix])).toEqual({ certain: true, possible: true });
    expect(matchCommand("git status -s", [exact.prefix])).toEqual({ certain: false, possible: true });
    expect(matchCommand("git log --oneline x", [opts.prefix])).toEqual({ certain: true, possible: true });
    expect(matchCommand("git log --stat", [opts.prefix])).toEqual({ certain: false, possible: true });
    expect(matchCommand("git log", [opts.prefix])).toEqual({ certain: true, possible: true });
    // After `--` every word is an operand: `-y` there is a file, not an option.
    expect(matchCommand("git log x -- -y", [opts.prefix])).toEqual({ certain: true, possible: true });
    expect(matchCommand("git log -y -- x", [opts.prefix])).toEqual({ certain: false, possible: true });
    expect(matchCommand("git show", [opts.prefix, exact.prefix])).toEqual({
      certain: false,
      possible: false,
    });
    const plain = parseCommandPrefixSpec("git log");
    if (!plain.ok) throw new Error("prefix spec");
    expect(matchCommand("git log --stat", [plain.prefix])).toEqual({ certain: true, possible: true });
  });
});

describe("readSafeSubset: the strings every supported shell reads alike", () => {
  /** Each simple command as its words, then `|` and its redirections when it has any. */
  function safe(source: string): string[][] | undefined {
    return readSafeSubset(source)?.map((c) =>
      c.redirections.length > 0 ? [...c.words, "|", ...c.redirections] : [...c.words],
    );
  }

  const inside: [string, string[][]][] = [
    [
      "a z A Z 0 9 _ - . / , : @ % + x=",
      [["a", "z", "A", "Z", "0", "9", "_", "-", ".", "/", ",", ":", "@", "%", "+", "x="]],
    ],
    ["x 'a$b' 'a`b' 'a\\b' 'a!b' ' ' '~'", [["x", "a$b", "a`b", "a\\b", "a!b", " ", "~"]]],
    ['x "a b" "\'" "a;b" \'"\'', [["x", "a b", "'", "a;b", '"']]],
    ["x 'a'b\"c\"d \"a\"\"b\" '' '=a'", [["x", "abcd", "ab", "", "=a"]]],
    ["x a= a=b", [["x", "a=", "a=b"]]],
    ["'' y", [["", "y"]]],
    ["x && y || z | w; v", [["x"], ["y"], ["z"], ["w"], ["v"]]],
    ["x|y", [["x"], ["y"]]],
    ["x&&y", [["x"], ["y"]]],
    ["x||y", [["x"], ["y"]]],
    ["x;y", [["x"], ["y"]]],
    ["x a;", [["x", "a"]]],
    ["x ;", [["x"]]],
    ["x;\n", [["x"]]],
    ["x;\ny", [["x"], ["y"]]],
    ["x &&\ny", [["x"], ["y"]]],
    ["x &&\n\n y", [["x"], ["y"]]],
    ["x |\ny", [["x"], ["y"]]],
    ["x ||\ny", [["x"], ["y"]]],
    ["\n\nx", [["x"]]],
    ["x\n\ny\n", [["x"], ["y"]]],
    ["\tx\t\ty\t", [["x", "y"]]],
    ["x 2>/dev/null", [["x", "|", "2>/dev/null"]]],
    ["x  2>/dev/null", [["x", "|", "2>/dev/null"]]],
    ["x 0</dev/null", [["x", "|", "0</dev/null"]]],
    ["x 2</dev/null", [["x", "|", "2</dev/null"]]],
    ["x 1>>/dev/null", [["x", "|", "1>>/dev/null"]]],
    ["x >> /dev/null", [["x", "|", ">>/dev/null"]]],
    ["x < /dev/null", [["x", "|", "</dev/null"]]],
    ["x >\t/dev/null", [["x", "|", ">/dev/null"]]],
    ["x 0>&2", [["x", "|", "0>&2"]]],
    ["x 1>&1", [["x", "|", "1>&1"]]],
    ["x >&2", [["x", "|", ">&2"]]],
    ["x >&1;y", [["x", "|", ">&1"], ["y"]]],
    ["x >&1|y", [["x", "|", ">&1"], ["y"]]],
    ["x >/dev/null;y", [["x", "|", ">/dev/null"], ["y"]]],
    ["x </dev/null&&y", [["x", "|", "</dev/null"], ["y"]]],
    ["x >/dev/null|y", [["x", "|", ">/dev/null"], ["y"]]],
    ["x >/dev/null>/dev/null", [["x", "|", ">/dev/null", ">/dev/null"]]],
    ["x 2>&1>/dev/null", [["x", "|", "2>&1", ">/dev/null"]]],
    ["x >/dev/null >&2 2>&1 </dev/null", [["x", "|", ">/dev/null", ">&2", "2>&1", "</dev/null"]]],
    [">/dev/null x", [["x", "|", ">/dev/null"]]],
    ["x 0 1 2", [["x", "0", "1", "2"]]],
    ["x >&1</dev/null", [["x", "|", ">&1", "</dev/null"]]],
    ["x >/dev/null</dev/null", [["x", "|", ">/dev/null", "</dev/null"]]],
  ];
  it.each(inside)("%j is inside", (source, expected) => {
    expect(safe(source)).toEqual(expected);
  });

  const outside = [
    "x a!b",
    "x a#b",
    "x a$b",
    "x a*b",
    "x a?b",
    "x a[b",
    "x a]b",
    "x a\\b",
    "x a^b",
    "x a`b",
    "x a{b",
    "x a}b",
    "x a~b",
    "x a(b",
    "x a)b",
    'x "a$b"',
    'x "a`b"',
    'x "a\\b"',
    'x "a!b"',
    "x 'a\u007fb'",
    'x "a\u007fb"',
    "x 'a\u001fb'",
    "x 'a",
    'x "a',
    "x 'é'",
    "x =a",
    "= x",
    "x =",
    "'a=b' x",
    "x;;",
    "x ;; y",
    ";",
    "; x",
    "x\n;",
    "x\n&& y",
    "&& x",
    "|| x",
    "| x",
    "x &&;y",
    "x ||",
    "x |",
    "x &&\n",
    "x &",
    "x & y",
    "x | | y",
    "x |& y",
    "x >&1x",
    "x >&",
    "x >& 1",
    "x >&0",
    "x >&3",
    "x 3>&1",
    "x >>>/dev/null",
    "x > /dev/nul",
    "x >/dev/null&",
    "x >/dev/null<",
    "x >(/dev/null",
    "x >|/dev/null",
    "x >&/dev/null",
    "x <</dev/null",
    "x <>/dev/null",
    "x 2>",
    "x >'/dev/null'",
    "x a>/dev/null",
    "x a</dev/null",
    "x ,>/dev/null",
    "x -</dev/null",
    ">/dev/null; x",
    ">/dev/null\nx",
    "x>/dev/null",
    "x<y",
    ">/dev/null",
    "",
    "\n",
  ];
  it.each(outside)("%j is outside", (source) => {
    expect(readSafeSubset(source)).toBeUndefined();
  });
});

describe("a policy's CommandPrefixSet: several operators, strings in turn, one shared read", () => {
  const sources = [
    "git status",
    "rm -rf /",
    "git status",
    "ls -l; git status",
    "ls $x",
    "sudo whoami",
    "nice -n 5 git status",
    "whoami\u200b",
    "if x; then y; fi",
    "git status",
    "echo ${x} $((1))",
    "ls &>/dev/null rm -rf ~",
    "PAGER='rm -rf /' git log",
    "git status -s && ls",
    "git status -s && ls",
  ];

  it("answers each operator for each string as matchCommand answers its prefixes alone", () => {
    const reads = new ShellReadMemo();
    const set = new CommandPrefixSet(reads);
    const other = new CommandPrefixSet(reads);
    const operators: (readonly (readonly string[])[])[] = [
      [["rm", "-rf"]],
      [["git", "status"], ["ls"]],
      [],
      [["git", "status", "-s"], ["git"]],
      [["sudo"]],
      [[]],
    ];
    const ranges = operators.map((prefixes) => set.add(prefixes));
    const otherRange = other.add([["ls"], ["rm"]]);
    for (const source of sources) {
      operators.forEach((prefixes, i) => {
        const range = ranges[i] as { from: number; to: number };
        expect(set.match(source, range.from, range.to), `${source} / ${JSON.stringify(prefixes)}`).toEqual(
          matchCommand(source, prefixes),
        );
      });
      expect(other.match(source, otherRange.from, otherRange.to), source).toEqual(
        matchCommand(source, [["ls"], ["rm"]]),
      );
      expect(reads.read(source)).toEqual(readShellCommand(source));
      expect(reads.safeSubset(source)).toEqual(readSafeSubset(source));
    }
  });

  it("prefixes added after a string was read are compared with it too", () => {
    const set = new CommandPrefixSet();
    const first = set.add([["ls"]]);
    expect(set.match("git status", first.from, first.to)).toEqual({ certain: false, possible: false });
    const later = set.add([["git", "status"]]);
    expect(later).toEqual({ from: 1, to: 2 });
    expect(set.match("git status", later.from, later.to)).toEqual({ certain: true, possible: true });
    expect(set.match("git status", first.from, first.to)).toEqual({ certain: false, possible: false });
    expect(set.match("git status", later.to, later.to)).toEqual({ certain: false, possible: false });
  });

  it("a string is certain for an operator only when its own prefixes cover every command", () => {
    const set = new CommandPrefixSet();
    const git = set.add([["git", "status"]]);
    const ls = set.add([["ls"]]);
    const both = set.add([["git", "status"], ["ls"]]);
    const source = "git status; ls";
    expect(set.match(source, git.from, git.to)).toEqual({ certain: false, possible: true });
    expect(set.match(source, ls.from, ls.to)).toEqual({ certain: false, possible: true });
    expect(set.match(source, both.from, both.to)).toEqual({ certain: true, possible: true });
    expect(set.match(source, git.from, both.to)).toEqual({ certain: true, possible: true });
  });
});

describe("traceCommand: how the decision was reached", () => {
  it("lists each reading's commands, how each prefix fared, and which prefix covers each safe command", () => {
    expect(
      traceCommand("git status && rm -rf /", [
        ["git", "status"],
        ["rm", "-rf"],
      ]),
    ).toEqual({
      certain: true,
      possible: true,
      readings: [
        {
          opaque: false,
          commands: [
            {
              words: ["git", "status"],
              prefixes: [
                { prefix: "git status", match: "match" },
                { prefix: "rm -rf", match: "no-match" },
              ],
            },
            {
              words: ["rm", "-rf", "/"],
              prefixes: [
                { prefix: "git status", match: "no-match" },
                { prefix: "rm -rf", match: "match" },
              ],
            },
          ],
        },
      ],
      safe: [
        { words: ["git", "status"], coveredBy: "git status" },
        { words: ["rm", "-rf", "/"], coveredBy: "rm -rf" },
      ],
    });
  });

  it("says when nothing covers a safe command, and leaves out the safe commands of a string outside the subset", () => {
    const exact = parseCommandPrefixSpec("git status$");
    if (!exact.ok) throw new Error("prefix spec");
    expect(traceCommand("git status -s; ls", [exact.prefix]).safe).toEqual([
      { words: ["git", "status", "-s"], coveredBy: null },
      { words: ["ls"], coveredBy: null },
    ]);
    expect(traceCommand("git status", [exact.prefix]).safe).toEqual([
      { words: ["git", "status"], coveredBy: "git status" },
    ]);
    // No `safe` key at all (not one holding undefined) for a string outside the subset.
    const outside = traceCommand('echo "${x}" $((1))', [["rm"]]);
    expect("safe" in outside).toBe(false);
    expect(outside).toStrictEqual({
      certain: false,
      possible: true,
      readings: [
        {
          opaque: true,
          commands: [{ words: ["echo", "${x}", "$((1))"], prefixes: [{ prefix: "rm", match: "no-match" }] }],
        },
        {
          opaque: true,
          commands: [{ words: ["echo", "${x}", "$((1))"], prefixes: [{ prefix: "rm", match: "no-match" }] }],
        },
      ],
    });
  });

  it("has nothing to trace without prefixes", () => {
    expect(traceCommand("rm -rf /", [])).toEqual({ certain: false, possible: false, readings: [] });
  });
});

describe("corners of the matcher", () => {
  it.each([
    ["/rm -rf x", "rm -rf"],
    ["python3a x.py", "python"],
    ["python3z x.py", "python"],
    ["python0 x.py", "python"],
    ["python9 x.py", "python"],
    ["python3.12z x.py", "python3"],
    ["nice -n 5", "rm"],
    ["nohup", "rm"],
    ["nice --5 whoami", "rm"],
    ["nice -5x whoami", "rm"],
    ["X=reboot", "reboot"],
    ["X=reboot >/dev/null", "reboot"],
  ])("%s may run %s", (source, prefix) => {
    expect(mayMatch(source, prefix)).toBe(true);
  });

  it.each([
    ["sh x.sh", "sh -c"],
    ["bash -x x.sh", "bash -c"],
    ["'x rm' y", "rm"],
    ["prlimit 'x{rm}'", "rm"],
    ["prlimit 'x\"rm'", "rm"],
    ["prlimit 'x\\rm'", "rm"],
    ["nice - whoami", "rm"],
    ["nice -12 whoami", "rm"],
    ["timeout 5 -s 9 eval whoami", "rm"],
    ["X=1; >/dev/null", "rm"],
    ["X=1", "rm"],
  ])("%s does not run %s", (source, prefix) => {
    expect(mayMatch(source, prefix)).toBe(false);
  });

  it("an empty setting or an empty piece of a setting runs nothing, even for a prefix whose base name is empty", () => {
    // `bin/` names no program (its base name is empty): only a word ending in `/` may be run as it.
    expect(mayMatch("FOO= ls", "bin/")).toBe(false);
    expect(mayMatch("make CC= x", "bin/")).toBe(false);
    expect(mayMatch("make CC=x/ y", "bin/")).toBe(true);
  });

  it("a word that is not literal is never the prefix's exact word", () => {
    expect(matchCommandPrefix(only("ls *.ts"), ["ls", "*.ts"])).toBe("unknown");
    expect(matchCommandPrefix(only("git status 2>&1 >out"), ["git", "status"])).toBe("unknown");
    expect(matchCommandPrefix(only("git status >out 2>&1"), ["git", "status"])).toBe("unknown");
  });

  it("an exact prefix without words (built in code) may match every command and is certain for none", () => {
    const none = { words: [], exact: true };
    expect(matchCommand("ls", [none])).toEqual({ certain: false, possible: true });
    const set = new CommandPrefixSet();
    const range = set.add([none]);
    expect(set.match("ls", range.from, range.to)).toEqual({ certain: false, possible: true });
    expect(set.match("ls; pwd", range.from, range.to)).toEqual({ certain: false, possible: true });
  });

  it("an operator without prefixes matches nothing, even in a string that cannot be read", () => {
    const set = new CommandPrefixSet();
    const range = set.add([["rm"]]);
    expect(set.match("whoami\u200b", range.to, range.to)).toEqual({ certain: false, possible: false });
    expect(set.match("if x", range.to, range.to)).toEqual({ certain: false, possible: false });
    expect(set.match("if x", range.from, range.to)).toEqual({ certain: false, possible: true });
  });
});

describe("allow prefixes that limit what follows, in a policy's CommandPrefixSet", () => {
  it("an exact prefix or one with options is certain only for the commands it allows", () => {
    const exact = parseCommandPrefixSpec("git status$");
    const opts = parseCommandPrefixSpec({ prefix: "git log", options: ["--oneline"] });
    if (!exact.ok || !opts.ok) throw new Error("prefix specs");
    const set = new CommandPrefixSet();
    const a = set.add([exact.prefix]);
    const b = set.add([opts.prefix]);
    expect(set.match("git status", a.from, a.to)).toEqual({ certain: true, possible: true });
    expect(set.match("git status -s", a.from, a.to)).toEqual({ certain: false, possible: true });
    expect(set.match("git log --oneline", b.from, b.to)).toEqual({ certain: true, possible: true });
    expect(set.match("git log --stat", b.from, b.to)).toEqual({ certain: false, possible: true });
  });

  it("no prefixes: nothing matches, even a string that cannot be read", () => {
    expect(matchCommand("whoami\u200b", [])).toEqual({ certain: false, possible: false });
    expect(matchCommand("if x", [])).toEqual({ certain: false, possible: false });
    expect(traceCommand("whoami\u200b", [])).toEqual({ certain: false, possible: false, readings: [] });
    expect(traceCommand("whoami\u200b", [["rm"]]).readings).toEqual([]);
  });
});
