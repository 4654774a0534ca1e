// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the test data is shell source, where ${...} is parameter expansion
// Oracle for what a command may run besides its program (src/runtime/match/shell/code-text.ts) and for line
// continuations (continuations.ts): each input written out with the decision a deny or an allow must give.
// `reboot` stands for a command a deny rule names; no input here is run.
import { describe, expect, it } from "vitest";
import { traceCommand } from "../../../src/runtime/match/shell.js";
import { allowCertain, denyMay } from "./shell-decide.js";

describe("text a program runs as shell code", () => {
  it.each([
    // what programs take off before they run the rest: git's !alias, make's @-+, less's |, :
    "make 'CC=!reboot'",
    "make 'CC=!!reboot'",
    "make CC=@reboot",
    "make CC=+reboot",
    "make 'CC=|reboot'",
    "make CC=:reboot",
    "make CC=-reboot",
    "make 'CC=@-+reboot'",
    "git -c 'alias.x=!reboot' x",
    "git rebase -x '@reboot' main",
    // text the reader refuses, or that evaluates code, may run anything
    'make "CC=echo \'x"',
    "make 'CC=if x'",
    "git rebase -x 'echo $(( a[$(x)] ))' main",
    // an assignment's value
    "X=reboot ls",
    "X='a; reboot' ls",
    "X=$y ls",
    "LANG=$y ls",
    "X=reboot",
    "PATH=x",
  ])("%s may run reboot", (source) => {
    expect(denyMay(source, "reboot")).toBe(true);
  });

  it.each([
    "make CC=re-boot",
    "make CC=re!boot",
    "make CC=",
    "make 'CC= '",
    "FOO= ls",
    "X=1",
    "X=true ls",
    "git -c 'alias.x=!true' x",
    "make 'CC=@true'",
    "git -c a.b=re-boot log",
  ])("%s runs no reboot", (source) => {
    expect(denyMay(source, "reboot")).toBe(false);
  });

  it("reads a setting's value as code, and the whole text too", () => {
    expect(denyMay("git -c core.pager=reboot log", "reboot")).toBe(true);
    // an assignment alone runs nothing
    expect(denyMay("git rebase -x 'reboot=1' main", "reboot")).toBe(false);
    expect(denyMay("git rebase -x 'a b=reboot' main", "reboot")).toBe(true);
  });
});

describe("builtins by name: exact name, another case, a path", () => {
  it.each(["a/eval x", "evAl x", "EVAL x", "Zformat x", "/bin/ZSTYLE x", "Alias x"])(
    "%s may run anything",
    (source) => {
      expect(denyMay(source, "reboot")).toBe(true);
    },
  );

  it.each([
    "exec whoami",
    "command -p whoami",
    "builtin whoami",
    "time whoami",
    "'if' x",
    "pwd $x",
    "export LD_PRELOAD",
    "export PATH",
    "export X=true",
    "export X",
  ])("%s runs no reboot", (source) => {
    expect(denyMay(source, "reboot")).toBe(false);
  });

  it.each([
    "export PATH=x",
    "export LD_PRELOAD=x",
    "export X=reboot",
    "readonly X=reboot",
    "readonly BASH_ENV=x",
  ])("%s may run reboot", (source) => {
    expect(denyMay(source, "reboot")).toBe(true);
  });
});

describe("code inside code is read to a bounded depth", () => {
  /** `make CC='…'` around `inner`, `levels` times, each level quoted for the one around it. */
  const nest = (inner: string, levels: number): string => {
    let text = inner;
    for (let i = 0; i < levels; i++) text = `make CC='${text.replaceAll("'", "'\\''")}'`;
    return text;
  };

  it("reads a few levels as what they run, and deeper text as anything", () => {
    expect(denyMay(nest("true", 1), "reboot")).toBe(false);
    expect(denyMay(nest("reboot", 1), "reboot")).toBe(true);
    expect(denyMay(nest("true", 4), "reboot")).toBe(false);
    expect(denyMay(nest("true", 7), "reboot")).toBe(false);
    expect(denyMay(nest("true", 8), "reboot")).toBe(true);
    expect(denyMay(nest("true", 12), "reboot")).toBe(true);
  });

  it("a command inside a command (find -exec) is read to a bounded depth too", () => {
    const finds = (levels: number) => `${"find . -exec ".repeat(levels)}true`;
    expect(denyMay(finds(3), "reboot")).toBe(false);
    expect(denyMay(finds(64), "reboot")).toBe(false);
    expect(denyMay(finds(65), "reboot")).toBe(true);
  });
});

describe("a file the same string may have written", () => {
  it.each([
    "echo x >it; ./it",
    "echo x > it; ./it",
    "echo x 2>it; ./it",
    "echo x >>it; ./it",
    "echo x >|it; ./it",
    "echo x &>it; ./it",
    "echo x >IT; ./it",
    "cp a IT; ./it",
    "cp a it; /tmp/It",
    "cp a b/it; x/it",
  ])("%s may run anything", (source) => {
    expect(denyMay(source, "reboot")).toBe(true);
  });

  it.each(["./it", "it x; ./it", "cp a b; ./it", "cp a it; it", "cp a dir/; ./", "echo x >it; ls it"])(
    "%s runs no reboot",
    (source) => {
      expect(denyMay(source, "reboot")).toBe(false);
    },
  );
});

describe("line continuations: a backslash-newline is removed outside single quotes and comments", () => {
  /** The words of each simple command, in each shell reading that parsed; undefined when none did. */
  const wordsRead = (source: string): string[][][] | undefined => {
    const trace = traceCommand(source, [["x"]]);
    if (trace.unreadable !== undefined) return undefined;
    return trace.readings.map((reading) => reading.commands.map((command) => [...command.words]));
  };
  /** The words, the same in every reading. */
  const same = (source: string): string[][] | undefined => {
    const readings = wordsRead(source);
    if (readings === undefined) return undefined;
    for (const reading of readings) expect(reading, JSON.stringify(source)).toEqual(readings[0]);
    return readings[0];
  };

  it.each([
    ["echo a\\\nb", [["echo", "ab"]]],
    ["ech\\\no a", [["echo", "a"]]],
    ["echo 'a\\\nb'", [["echo", "a\\\nb"]]],
    ['echo "a\\\nb"', [["echo", "ab"]]],
    ["echo a#\\\nb", [["echo", "a#b"]]],
    [
      'echo "$(echo a\\\nb)"',
      [
        ["echo", "$(echo ab)"],
        ["echo", "ab"],
      ],
    ],
    ["echo ${x:-a\\\nb}", [["echo", "${x:-ab}"]]],
    ['echo "${x:-a\\\nb}"', [["echo", "${x:-ab}"]]],
    ['echo "${x:-"a\\\nb"}"', [["echo", '${x:-"ab"}']]],
    ["echo ${x:-'a\\\nb'}", [["echo", "${x:-'a\\\nb'}"]]],
    ["echo $((1\\\n+2))", [["echo", "$((1+2))"]]],
    ["(echo a\\\nb)", [["echo", "ab"]]],
    ["echo a\\\\\nb", [["echo", "a\\"], ["b"]]],
    ["echo 'x'\\\ny", [["echo", "xy"]]],
    ['echo "\'"\\\ny', [["echo", "'y"]]],
    ["echo a\\\n\\\nb", [["echo", "ab"]]],
    ["echo ${x}\\\nb", [["echo", "${x}b"]]],
  ])("%j reads as %j", (source, words) => {
    expect(same(source)).toEqual(words);
  });

  it.each([
    "echo a\\\nb",
    "echo 'a\\\nb'",
    'echo "a\\\nb"',
    "echo a#\\\nb",
    'echo "$(echo a\\\nb)"',
    "echo `echo a\\\nb`",
    "echo $(echo a\\\nb)",
    "echo $( (echo a\\\nb) )",
    "(echo a\\\nb)",
    "echo a\\\\\nb",
    "echo 'x'\\\ny",
    "echo a\\\n\\\nb",
    "echo $(echo ')'\\\n)",
    "echo `echo 'a\\\nb'`",
    'echo "`echo a\\\nb`"',
    "echo 're\\\nboot'",
  ])("%j runs no reboot", (source) => {
    expect(denyMay(source, "reboot")).toBe(false);
  });

  it.each([
    "re\\\nboot",
    "echo $\\\n(reboot)",
    'echo "$\\\n(reboot)"',
    "echo x # a\\\nreboot",
    "echo `re\\\nboot`",
    'echo "`re\\\nboot`"',
    "echo 'a\\\nb'; re\\\nboot",
    "echo a\\\\\nreboot",
    "echo $(echo a)\\\n;re\\\nboot",
  ])("%j may run reboot", (source) => {
    expect(denyMay(source, "reboot")).toBe(true);
  });

  // Each case puts a quote, a `#` or a bracket where only the right frame (double quotes, backquotes, `$(…)`,
  // `${…}`, a comment) reads it right, and a backslash-newline after it; the reader refuses a joining that does
  // not match its parse (null: no reading). Every reading is listed, one per shell dialect that reads alike.
  it.each([
    ['echo "a\'b"\\\nc', [[["echo", "a'bc"]]]],
    ['echo "#"\\\nc', [[["echo", "#c"]]]],
    [
      "echo `echo a` 'x\\\ny'",
      [
        [
          ["echo", "`echo a`", "x\\\ny"],
          ["echo", "a"],
        ],
      ],
    ],
    [
      'echo "`echo a`\'"\\\ny',
      [
        [
          ["echo", "`echo a`'y"],
          ["echo", "a"],
        ],
      ],
    ],
    [
      "echo \"$(echo 'a\\\nb')\"",
      [
        [
          ["echo", "$(echo 'a\\\nb')"],
          ["echo", "a\\\nb"],
        ],
      ],
    ],
    ["echo \"${x:-'a\\\nb'}\"", [[["echo", "${x:-'ab'}"]], [["echo", "${x:-'ab'}"]]]],
    ["echo \"${x}\"'a\\\nb'", [[["echo", "${x}a\\\nb"]], [["echo", "${x}a\\\nb"]]]],
    ['echo "${x:-"\'"}"\'a\\\nb\'', [[["echo", '${x:-"\'"}a\\\nb']], [["echo", '${x:-"\'"}a\\\nb']]]],
    ["echo ${x:-'a\\\nb'}", [[["echo", "${x:-'a\\\nb'}"]], [["echo", "${x:-'a\\\nb'}"]]]],
    ["echo ${x}'a\\\nb'", [[["echo", "${x}a\\\nb"]], [["echo", "${x}a\\\nb"]]]],
    [
      "echo $(echo a)'x\\\ny'",
      [
        [
          ["echo", "$(echo a)x\\\ny"],
          ["echo", "a"],
        ],
      ],
    ],
    [
      "echo $( (echo a) )'x\\\ny'",
      [
        [
          ["echo", "$( (echo a) )x\\\ny"],
          ["echo", "a"],
        ],
      ],
    ],
    [
      "echo $(echo '(')'x\\\ny'",
      [
        [
          ["echo", "$(echo '(')x\\\ny"],
          ["echo", "("],
        ],
      ],
    ],
    ["echo x #a'\\\nb", null],
    ["echo a#'\\\nb'", [[["echo", "a#\\\nb"]]]],
    ["echo a;#x\\\nb", null],
    ["echo a&#x\\\nb", null],
    ["echo a|#x\\\nb", null],
    ["echo a\t#x\\\nb", null],
    ["(#x\\\necho b)", null],
    ["echo $'a\\\nb'", [[["echo", "$'a\\\nb'"]], [["echo", "$a\\\nb"]]]],
    ["echo $'a\\'b\\\nc'", null],
    ["echo 'a\\\nb", null],
    ["echo $'a\\\nb", null],
    ["echo \\\\\\\nb", [[["echo", "\\b"]]]],
    ["echo a\\\n#b", [[["echo", "a#b"]]]],
    ["echo a \\\n#b", [[["echo", "a"]]]],
    ['echo "$(echo ")"\\\na")"', null],
    [
      "echo ${x:-$(echo 'a\\\nb')}",
      [
        [
          ["echo", "${x:-$(echo 'a\\\nb')}"],
          ["echo", "a\\\nb"],
        ],
        [
          ["echo", "${x:-$(echo 'a\\\nb')}"],
          ["echo", "a\\\nb"],
        ],
      ],
    ],
    [
      "echo \"${x:-$(echo 'a\\\nb')}\"",
      [
        [
          ["echo", "${x:-$(echo 'a\\\nb')}"],
          ["echo", "a\\\nb"],
        ],
        [
          ["echo", "${x:-$(echo 'a\\\nb')}"],
          ["echo", "a\\\nb"],
        ],
      ],
    ],
    [
      "echo `echo 'a\\\nb'`",
      [
        [
          ["echo", "`echo 'ab'`"],
          ["echo", "ab"],
        ],
      ],
    ],
    ["echo \"${x:-}\"'a\\\nb'", [[["echo", "${x:-}a\\\nb"]], [["echo", "${x:-}a\\\nb"]]]],
    ["echo ${x:- #a}\\\nb", [[["echo", "${x:- #a}b"]], [["echo", "${x:- #a}b"]]]],
    ['echo "${x:- #a}"\\\nb', [[["echo", "${x:- #a}b"]], [["echo", "${x:- #a}b"]]]],
    ["echo $(echo a #b\\\n)", null],
    ["echo $( (echo a) #b\\\n)", null],
    [
      'echo $(echo "#"\\\na)',
      [
        [
          ["echo", '$(echo "#"a)'],
          ["echo", "#a"],
        ],
      ],
    ],
    ["echo `echo #a`\\\nb", [[["echo", "`echo #a`b"], ["echo"]]]],
    [
      "echo ${x:-$(echo ')')}'a\\\nb'",
      [
        [
          ["echo", "${x:-$(echo ')')}a\\\nb"],
          ["echo", ")"],
        ],
        [
          ["echo", "${x:-$(echo ')')}a\\\nb"],
          ["echo", ")"],
        ],
      ],
    ],
    [
      "echo \"${x:-$(echo ')')}\"'a\\\nb'",
      [
        [
          ["echo", "${x:-$(echo ')')}a\\\nb"],
          ["echo", ")"],
        ],
        [
          ["echo", "${x:-$(echo ')')}a\\\nb"],
          ["echo", ")"],
        ],
      ],
    ],
    [
      "echo \"${x:-`echo '}'`}\"'a\\\nb'",
      [
        [
          ["echo", "${x:-`echo '}'`}a\\\nb"],
          ["echo", "}"],
        ],
        [
          ["echo", "${x:-`echo '}'`}a\\\nb"],
          ["echo", "}"],
        ],
      ],
    ],
    [
      'echo "`echo "\'"`"\'a\\\nb\'',
      [
        [
          ["echo", '`echo "\'"`a\\\nb'],
          ["echo", "'"],
        ],
      ],
    ],
    ["echo $'\\\\'\\\na", [[["echo", "$'\\\\'a"]], [["echo", "$\\\\a"]]]],
    ["echo $'a\\\\\\'b'\\\nc", null],
    ["echo a \\\n\\\n#b", [[["echo", "a"]]]],
    ["echo 'a'#\\\nb", [[["echo", "a#b"]]]],
    ["echo a;\\\n#b", [[["echo", "a"]]]],
    [
      "echo $(echo a)\\\n#b",
      [
        [
          ["echo", "$(echo a)#b"],
          ["echo", "a"],
        ],
      ],
    ],
    ['echo "$(echo a)" #b\\\nc', null],
    ["echo ${x}#\\\nb", [[["echo", "${x}#b"]], [["echo", "${x}#b"]]]],
    [
      "echo $( echo a; echo '(' )'x\\\ny'",
      [
        [
          ["echo", "$( echo a; echo '(' )x\\\ny"],
          ["echo", "a"],
          ["echo", "("],
        ],
      ],
    ],
    ["(echo a) #b\\\nc", null],
    // a quote inside a comment is text: only a comment read as one keeps the next line's quote whole
    [
      "echo x # it's\necho 'a\\\nb'",
      [
        [
          ["echo", "x"],
          ["echo", "a\\\nb"],
        ],
      ],
    ],
    ["echo x#it's\necho 'a\\\nb'", null],
    [
      "echo x;# it's\necho 'a\\\nb'",
      [
        [
          ["echo", "x"],
          ["echo", "a\\\nb"],
        ],
      ],
    ],
    [
      "echo x&# it's\necho 'a\\\nb'",
      [
        [
          ["echo", "x"],
          ["echo", "a\\\nb"],
        ],
      ],
    ],
    [
      "echo x\t# it's\necho 'a\\\nb'",
      [
        [
          ["echo", "x"],
          ["echo", "a\\\nb"],
        ],
      ],
    ],
    ["(# it's\necho 'a\\\nb')", [[["echo", "a\\\nb"]]]],
    [
      "echo \\\\ # it's\necho 'a\\\nb'",
      [
        [
          ["echo", "\\"],
          ["echo", "a\\\nb"],
        ],
      ],
    ],
    ["echo \\\n# it's\necho 'a\\\nb'", [[["echo"], ["echo", "a\\\nb"]]]],
    [
      "echo ${x} # it's\necho 'a\\\nb'",
      [
        [
          ["echo", "${x}"],
          ["echo", "a\\\nb"],
        ],
        [
          ["echo", "${x}"],
          ["echo", "a\\\nb"],
        ],
      ],
    ],
    [
      "echo $(echo a) # it's\necho 'a\\\nb'",
      [
        [
          ["echo", "$(echo a)"],
          ["echo", "a"],
          ["echo", "a\\\nb"],
        ],
      ],
    ],
    [
      "echo \"a\" # it's\necho 'a\\\nb'",
      [
        [
          ["echo", "a"],
          ["echo", "a\\\nb"],
        ],
      ],
    ],
    [
      "echo `echo a` # it's\necho 'a\\\nb'",
      [
        [
          ["echo", "`echo a`"],
          ["echo", "a"],
          ["echo", "a\\\nb"],
        ],
      ],
    ],
    [
      "echo \"$( (echo a); echo 'x\\\ny')\"",
      [
        [
          ["echo", "$( (echo a); echo 'x\\\ny')"],
          ["echo", "a"],
          ["echo", "x\\\ny"],
        ],
      ],
    ],
    [
      "echo $( (echo a); echo 'x\\\ny')",
      [
        [
          ["echo", "$( (echo a); echo 'x\\\ny')"],
          ["echo", "a"],
          ["echo", "x\\\ny"],
        ],
      ],
    ],
    ["echo $'it\\'s'\necho 'a\\\nb'", null],
    [
      "echo $'x'\necho 'a\\\nb'",
      [
        [
          ["echo", "$'x'"],
          ["echo", "a\\\nb"],
        ],
        [
          ["echo", "$x"],
          ["echo", "a\\\nb"],
        ],
      ],
    ],
    [
      "echo $'x' # it's\necho 'a\\\nb'",
      [
        [
          ["echo", "$'x'"],
          ["echo", "a\\\nb"],
        ],
        [
          ["echo", "$x"],
          ["echo", "a\\\nb"],
        ],
      ],
    ],
    [
      "echo \"${x}\" # it's\necho 'a\\\nb'",
      [
        [
          ["echo", "${x}"],
          ["echo", "a\\\nb"],
        ],
        [
          ["echo", "${x}"],
          ["echo", "a\\\nb"],
        ],
      ],
    ],
    [
      "echo ${x:-a} # it's\necho 'a\\\nb'",
      [
        [
          ["echo", "${x:-a}"],
          ["echo", "a\\\nb"],
        ],
        [
          ["echo", "${x:-a}"],
          ["echo", "a\\\nb"],
        ],
      ],
    ],
    // a `#` at the very start is a comment
    ["# it's\necho 'a\\\nb'", [[["echo", "a\\\nb"]]]],
    // an escaped character ends the word's start: the `#` after it is text, and its quote opens a string
    ["echo \\a#'\nx\\\ny'", [[["echo", "a#\nx\\\ny"]]]],
    // inside double quotes, `(`, `{` and `}` are text unless `$(` or `${` opens them, or `}` closes `${`
    ['echo "a(b\'\\\nc"', [[["echo", "a(b'c"]]]],
    ["echo \"a{b\"'x\\\ny'", [[["echo", "a{bx\\\ny"]]]],
    ["echo \"$x\"'a\\\nb'", [[["echo", "$xa\\\nb"]]]],
    ["echo \"a}b'\"'x\\\ny'", [[["echo", "a}b'x\\\ny"]]]],
    // a comment ends at its line's end, not at the end of the string
    [
      "echo x # c\necho a\\\nb",
      [
        [
          ["echo", "x"],
          ["echo", "ab"],
        ],
      ],
    ],
    // `$(…)` inside `${…}` is code, where a `#` after a blank starts a comment
    [
      "echo ${x:-$(echo a # it's\n)}'x\\\ny'",
      [
        [
          ["echo", "${x:-$(echo a # it's\n)}x\\\ny"],
          ["echo", "a"],
        ],
        [
          ["echo", "${x:-$(echo a # it's\n)}x\\\ny"],
          ["echo", "a"],
        ],
      ],
    ],
    // `{` without `$` opens nothing: the `)` after it closes `$(`
    [
      "echo $(echo a{ ) # it's\necho 'x\\\ny'",
      [
        [
          ["echo", "$(echo a{ )"],
          ["echo", "a{"],
          ["echo", "x\\\ny"],
        ],
      ],
    ],
    // a `)` that closes a `(` inside `$(…)` leaves `$(…)` open, and the one after it closes it
    [
      "echo \"$( (echo a) )\"'x\\\ny'",
      [
        [
          ["echo", "$( (echo a) )x\\\ny"],
          ["echo", "a"],
        ],
      ],
    ],
    // a `)` that closes nothing (a case pattern) and a `}` that closes a group are read without a frame to close
    ["case x in a) echo a\\\nb;; esac", null],
    [
      "{ echo a\\\nb; }; echo c",
      [
        [
          ["echo", "ab"],
          ["echo", "c"],
        ],
      ],
    ],
    // inside `${…}`, a `#` after a blank and a `)` are text
    ["echo ${x:- #}'a\\\nb'", [[["echo", "${x:- #}a\\\nb"]], [["echo", "${x:- #}a\\\nb"]]]],
    ["echo ${x:-a) #b}x\\\ny", [[["echo", "${x:-a) #b}xy"]], [["echo", "${x:-a) #b}xy"]]]],
    // only a newline after an odd run of backslashes is a continuation, not another escaped character
    ["echo \\y '\\x' a\\\nb", [[["echo", "y", "\\x", "ab"]]]],
    // `$'…'` ends at its first quote not escaped: after `$'\''` bash, zsh and busybox read the backslash-newline
    // outside quotes, dash (`$` then `'\'`) inside the next single quotes
    ["echo $'\\''\\\n #'", [[["echo", "$'\\''"]], [["echo", "$\\\\\n #"]]]],
    // an escaped character outside quotes after the first newline is no continuation
    [
      "echo a\necho b\\\nc '\\x'",
      [
        [
          ["echo", "a"],
          ["echo", "bc", "\\x"],
        ],
      ],
    ],
    // `((` inside `$((…))` is two parentheses: the `)` after `$((((1))))` closes nothing more
    [
      "echo \"$( echo $((((1)))); echo 'a\\\nb' )\"",
      [
        [
          ["echo", "$( echo $((((1)))); echo 'a\\\nb' )"],
          ["echo", "$((((1))))"],
          ["echo", "a\\\nb"],
        ],
      ],
    ],
    // `$(…)` inside double quotes is code too: a `#` after a blank there starts a comment
    [
      "echo \"$(echo a # it's\n)\"'x\\\ny'",
      [
        [
          ["echo", "$(echo a # it's\n)x\\\ny"],
          ["echo", "a"],
        ],
      ],
    ],
  ] as [string, string[][][] | null][])("%j: every reading", (source, readings) => {
    const trace = traceCommand(source, [["x"]]);
    const got =
      trace.unreadable === undefined ? trace.readings.map((r) => r.commands.map((c) => [...c.words])) : null;
    expect(got).toEqual(readings);
  });

  it("where the shells may disagree (a comment, $'…' against $ and '…') the string has no trusted reading", () => {
    expect(wordsRead("echo x # a\\\necho y")).toBeUndefined();
    expect(denyMay("echo x # re\\\nboot", "reboot")).toBe(true);
  });

  it("a continuation in a plain command keeps it certain for an allow of the joined words", () => {
    expect(allowCertain("echo a\\\nb", "echo")).toBe(true);
    expect(allowCertain("ech\\\no a", "echo")).toBe(true);
    expect(allowCertain("ech\\\no a", "ech")).toBe(false);
  });
});

describe("what a command also runs where its words alone do not show it", () => {
  it.each([
    // every assignment's value is read, not only the last
    "X=reboot Y=true ls",
    // export and readonly: a value that cannot be read may run anything; so may a variable saying where programs
    // are found, even when the word `PATH=…` as a whole cannot be read (`X={` then `}` alone is no command)
    'export X="a\'b"',
    'readonly X="a\'b"',
    "export PATH='{ true; }'",
    // the whole setting cannot be read; its value can, and it runs nothing known: the whole text may run anything
    "git rebase -x 'a(=b' main",
    // a file written earlier, run by a path, when every command word holds a `/`
    "./x it; ./it",
  ])("%j may run reboot", (source) => {
    expect(denyMay(source, "reboot")).toBe(true);
  });

  it.each([
    // a data variable's value is not code, even when it cannot be read
    'export LANG="a\'b"',
    // the value alone is read (`{ true; }`), not the word (`X={ true; }`, which cannot be read)
    "export X='{ true; }'",
    // only export's and readonly's words are assignments
    'test "x=a\'b"',
    "export PATHX",
    // the command word itself is no assignment, though it names export after a path
    "'X=a(/export'",
    // a letter that is a capital only outside ASCII (the Kelvin sign) is not folded: no builtin kill
    "\u212Aill x",
    // a command word without a `/` is looked up in PATH, not in the directory the string wrote to
    "cp a it; ./x; it",
  ])("%j runs no reboot", (source) => {
    expect(denyMay(source, "reboot")).toBe(false);
  });

  it("find's -exec command is only its words", () => {
    expect(denyMay("find . -exec true \\;", "here")).toBe(false);
    expect(denyMay("find . -exec true \\;", "was")).toBe(false);
    expect(denyMay("find . -exec true \\;", "true")).toBe(true);
  });

  it("a code argument that is one plain word is read one level deeper than its command", () => {
    /** `git rebase -x '…' main` around `inner`, `levels` times. */
    const gnest = (inner: string, levels: number): string => {
      let text = inner;
      for (let i = 0; i < levels; i++) text = `git rebase -x '${text.replaceAll("'", "'\\''")}' main`;
      return text;
    };
    expect(denyMay(gnest("true", 8), "reboot")).toBe(false);
    expect(denyMay(gnest("git rebase -x true main", 7), "reboot")).toBe(false);
    expect(denyMay(gnest("git rebase -x true main", 8), "reboot")).toBe(true);
    expect(denyMay(gnest("export X=true", 6), "reboot")).toBe(false);
    expect(denyMay(gnest("export X=true", 7), "reboot")).toBe(true);
    // export's value is read one level deeper than export: past the bound, though `X=true` is read as loose words
    expect(denyMay(gnest("export X=true", 8), "reboot")).toBe(true);
  });
});
