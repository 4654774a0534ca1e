// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the test data is shell source, where ${...} is parameter expansion
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  matchCommand,
  matchCommandPrefix,
  parseShellCommand,
  type SimpleCommand,
  splitCommandPrefix,
} from "../../../src/runtime/match/shell.js";

/** Each simple command as its words, `~` marking a non-literal word. */
function words(source: string): string[][] {
  const parsed = parseShellCommand(source);
  if (!parsed.ok) throw new Error(`${source}: ${parsed.message}`);
  return parsed.commands.map((c) => c.words.map((w) => (w.literal ? w.text : `~${w.text}`)));
}

function commands(source: string): readonly SimpleCommand[] {
  const parsed = parseShellCommand(source);
  if (!parsed.ok) throw new Error(`${source}: ${parsed.message}`);
  return parsed.commands;
}

function refusal(source: string): string {
  const parsed = parseShellCommand(source);
  if (parsed.ok) throw new Error(`${source} parsed`);
  return parsed.message;
}

function only(source: string): SimpleCommand {
  const all = commands(source);
  expect(all).toHaveLength(1);
  return all[0] as SimpleCommand;
}

describe("parseShellCommand: words and quoting", () => {
  // [source, words of each simple command]
  const cases: [string, string[][]][] = [
    ["git status", [["git", "status"]]],
    ["  git   status  ", [["git", "status"]]],
    ["g'it' status", [["git", "status"]]],
    ['"git" "status"', [["git", "status"]]],
    ["git\\ status", [["git status"]]],
    ["\\git status", [["git", "status"]]],
    ["git st\\\natus", [["git", "status"]]],
    ["git \\\n status", [["git", "status"]]],
    ["echo 'a \"b\" $c'", [["echo", 'a "b" $c']]],
    ["echo \"a 'b' \\$c \\\\ \\x\"", [["echo", "a 'b' $c \\ \\x"]]],
    ['echo "$HOME"', [["echo", "~$HOME"]]],
    ["echo $HOME/x", [["echo", "~$HOME/x"]]],
    ["echo ${HOME}", [["echo", "~${HOME}"]]],
    ["echo $1 $@ $? $$", [["echo", "~$1", "~$@", "~$?", "~$$"]]],
    ["echo $", [["echo", "$"]]],
    ['echo "$"', [["echo", "$"]]],
    ["echo $'\\x72m'", [["echo", "~$'\\x72m'"]]],
    ['echo $"x"', [["echo", '~$"x"']]],
    ["echo $((1 + 2))", [["echo", "~$((1 + 2))"]]],
    ["ls *.ts", [["ls", "~*.ts"]]],
    ["ls a?", [["ls", "~a?"]]],
    ["ls [ab]", [["ls", "~[ab]"]]],
    ["ls '*.ts'", [["ls", "*.ts"]]],
    ["ls ~/x", [["ls", "~~/x"]]],
    ["ls a~", [["ls", "a~"]]],
    ["{rm,-rf,/}", [["~{rm,-rf,/}"]]],
    ["echo }", [["echo", "}"]]],
    ["echo a#b # comment", [["echo", "~a#b"]]],
    ["echo 'a#b' # comment", [["echo", "a#b"]]],
    ["# only a comment\ngit status", [["git", "status"]]],
    ["make CC=gcc", [["make", "CC=gcc"]]],
    ["time git status", [["time", "git", "status"]]],
    ["echo if then fi", [["echo", "if", "then", "fi"]]],
    ['"if" x', [["if", "x"]]],
  ];
  it.each(cases)("%j", (source, expected) => {
    expect(words(source)).toEqual(expected);
  });
});

describe("parseShellCommand: operators, groups and substitutions", () => {
  const cases: [string, string[][]][] = [
    [
      "git status; rm -rf /",
      [
        ["git", "status"],
        ["rm", "-rf", "/"],
      ],
    ],
    ["a && b || c | d |& e & f", [["a"], ["b"], ["c"], ["d"], ["e"], ["f"]]],
    ["a\nb\n\n  c", [["a"], ["b"], ["c"]]],
    ["a;", [["a"]]],
    ["a &", [["a"]]],
    ["a &&\n b", [["a"], ["b"]]],
    ["a |\n b", [["a"], ["b"]]],
    ["a;b", [["a"], ["b"]]],
    ["(rm -rf /)", [["rm", "-rf", "/"]]],
    ["(a; (b && c))", [["a"], ["b"], ["c"]]],
    ["{ rm -rf /; }", [["rm", "-rf", "/"]]],
    ["{ a; b\n}", [["a"], ["b"]]],
    ["x | { a; } && (b)", [["x"], ["a"], ["b"]]],
    [
      "git status $(rm -rf /)",
      [
        ["git", "status", "~$(rm -rf /)"],
        ["rm", "-rf", "/"],
      ],
    ],
    [
      "echo `rm -rf /`",
      [
        ["echo", "~`rm -rf /`"],
        ["rm", "-rf", "/"],
      ],
    ],
    [
      'echo "x $(a "b") y"',
      [
        ["echo", '~x $(a "b") y'],
        ["a", "b"],
      ],
    ],
    ["echo `a \\`b\\``", [["echo", "~`a \\`b\\``"], ["a", "~`b`"], ["b"]]],
    ["echo $(a $(b))", [["echo", "~$(a $(b))"], ["a", "~$(b)"], ["b"]]],
    ["echo $( (a) )", [["echo", "~$( (a) )"], ["a"]]],
    ["echo $()", [["echo", "~$()"]]],
    ["diff <(ls a) >(cat)", [["diff", "~<(ls a)", "~>(cat)"], ["ls", "a"], ["cat"]]],
    [
      "echo ${x:-$(rm -rf /)}",
      [
        ["echo", "~${x:-$(rm -rf /)}"],
        ["rm", "-rf", "/"],
      ],
    ],
    ["echo $(( $(b) + 1 ))", [["echo", "~$(( $(b) + 1 ))"], ["b"]]],
    [
      "FOO=$(rm -rf /) git status",
      [
        ["git", "status"],
        ["rm", "-rf", "/"],
      ],
    ],
  ];
  it.each(cases)("%j", (source, expected) => {
    expect(words(source)).toEqual(expected);
  });

  it("counts leading assignments, keeps their values and keeps later NAME=value words", () => {
    expect(only("FOO=1 BAR+=2 git status")).toEqual({
      words: [
        { text: "git", literal: true },
        { text: "status", literal: true },
      ],
      assignments: 2,
      names: ["FOO", "BAR"],
      values: [
        { text: "1", literal: true },
        { text: "2", literal: true },
      ],
      redirections: [],
    });
    expect(only("FOO=1")).toEqual({
      words: [],
      assignments: 1,
      names: ["FOO"],
      values: [{ text: "1", literal: true }],
      redirections: [],
    });
    expect(only("X='a b'$Y").values).toEqual([{ text: "'a b'$Y", literal: false }]);
    expect(only('"FOO"=1 x').assignments).toBe(0);
  });

  it("collects redirections with their targets", () => {
    expect(only("git status > ~/.bashrc 2>&1 </dev/null").redirections).toEqual([
      ">~/.bashrc",
      "2>&1",
      "</dev/null",
    ]);
    expect(only("a >>log 2>/dev/null &>out &>>all >|f <>rw 3<&0 >&2").redirections).toEqual([
      ">>log",
      "2>/dev/null",
      "&>out",
      "&>>all",
      ">|f",
      "<>rw",
      "3<&0",
      ">&2",
    ]);
    expect(only('cat > "/dev/null"').redirections).toEqual([">/dev/null"]);
    expect(only("cat >$HOME/x").redirections).toEqual([">$HOME/x"]);
    expect(only("cat <<< word").redirections).toEqual(["<<<word"]);
    expect(only(">out git status").words.map((w) => w.text)).toEqual(["git", "status"]);
    expect(only("echo a2>x").words.map((w) => w.text)).toEqual(["echo", "a2"]);
  });

  it("adds a group's redirections to every command in it", () => {
    const all = commands("(a; b) > f");
    expect(all.map((c) => c.redirections)).toEqual([[">f"], [">f"]]);
    expect(commands("{ a; } 2>/dev/null")[0]?.redirections).toEqual(["2>/dev/null"]);
  });

  it("lists the commands of a redirection target's process substitution", () => {
    expect(words("cat < <(rm -rf /)")).toEqual([["cat"], ["rm", "-rf", "/"]]);
  });
});

describe("parseShellCommand: refusals", () => {
  // [source, message]
  const cases: [string, string][] = [
    ["", "the command is empty"],
    ["   \n  # just a comment", "the command is empty"],
    ["echo 'abc", "the single quote at offset 5 is never closed"],
    ['echo "abc', "the double quote at offset 5 is never closed"],
    ["echo `abc", "the backquote at offset 5 is never closed"],
    ["echo $(abc", 'the command substitution "$(" at offset 5 is never closed'],
    ["echo ${abc", 'the parameter expansion "${" at offset 5 is never closed'],
    ["echo $((1 + 2", 'the arithmetic expansion "$((" at offset 5 is never closed'],
    [
      "echo $((1 + 2)",
      '"$((" at offset 5 is neither arithmetic nor clearly a nested subshell: write "$( (" with a space',
    ],
    ["echo $'abc", "the quote $' at offset 5 is never closed"],
    ["(a", 'the subshell "(" at offset 0 is never closed'],
    ["{ a; ", 'the brace group "{" at offset 0 is never closed'],
    ["{ a }", 'the brace group "{" at offset 0 is never closed'],
    ["a)", 'unexpected ")" at offset 1'],
    ["()", 'the subshell "(" at offset 0 holds no command'],
    [
      "}",
      '"}" at offset 0 starts shell syntax that is not supported here (if, for, while, case, functions, [[ ]], !): write plain commands joined by ;, &&, || or |',
    ],
    [
      "cat <<EOF\nhello\nEOF",
      'here-documents ("<<" at offset 4) are not supported: pass the text another way',
    ],
    [
      "cat <<-EOF\nhello\nEOF",
      'here-documents ("<<" at offset 4) are not supported: pass the text another way',
    ],
    ["a && && b", 'expected a command after "&&" at offset 2'],
    ["a &&", 'expected a command after "&&" at offset 2'],
    ["a |", 'expected a command after "|" at offset 2'],
    ["a || ;", 'expected a command after "||" at offset 2'],
    ["; a", 'expected a command before ";" at offset 0'],
    ["a;;b", '";;" at offset 1 is only valid inside case'],
    ["a; ; b", 'expected a command before ";" at offset 3'],
    ["a & & b", 'expected a command before "&" at offset 4'],
    ["a >", 'the redirection ">" at offset 2 has no target'],
    ["a > ;", 'the redirection ">" at offset 2 has no target'],
    ["f() { rm -rf /; }", 'function definitions and array assignments are not supported ("(" at offset 1)'],
    ["a=(1 2)", 'function definitions and array assignments are not supported ("(" at offset 2)'],
    ["echo (", 'function definitions and array assignments are not supported ("(" at offset 5)'],
    ["((x = 1))", 'arithmetic command "((" at offset 0 is not supported'],
    ["echo $[1+2]", '"$[" at offset 5 (old arithmetic) is not supported'],
    [
      "echo $((a) && (b))",
      '"$((" at offset 5 is neither arithmetic nor clearly a nested subshell: write "$( (" with a space',
    ],
    ["echo a\\", "the command ends with a lone backslash"],
    ["echo `echo 'x`", "in the backquoted command at offset 5: the single quote at offset 5 is never closed"],
    [`${"$(".repeat(100)}x${")".repeat(100)}`, "substitutions nested more than 64 deep"],
    [`echo ${"${x:-".repeat(100)}${"}".repeat(100)}`, "parameter expansions nested more than 64 deep"],
  ];
  it.each(cases)("refuses %j", (source, message) => {
    expect(parseShellCommand(source)).toEqual({ ok: false, message });
  });

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
  ];
  it.each(reserved)("refuses the reserved word %j in command position", (word) => {
    expect(refusal(`${word} x; y`)).toBe(
      `"${word}" at offset 0 starts shell syntax that is not supported here (if, for, while, case, functions, [[ ]], !): write plain commands joined by ;, &&, || or |`,
    );
    expect(refusal(`a && ${word} x`)).toContain(`"${word}" at offset 5`);
  });

  it("refuses real compound commands", () => {
    for (const source of [
      "if true; then rm -rf /; fi",
      "for f in *; do rm $f; done",
      "while true; do :; done",
      "case x in a) rm;; esac",
      "[[ -f x ]] && rm x",
      "! git status",
      "function f { rm; }",
      "FOO=1 { a; }",
    ]) {
      expect(parseShellCommand(source).ok, source).toBe(false);
    }
  });

  it("never throws on arbitrary strings (property)", () => {
    const shellish = fc
      .array(
        fc.constantFrom(
          "a",
          "git",
          " ",
          "\n",
          ";",
          "&",
          "|",
          "(",
          ")",
          "{",
          "}",
          "$",
          "`",
          "'",
          '"',
          "\\",
          "<",
          ">",
          "#",
          "=",
          "*",
          "~",
          "[",
          "]",
          "2",
          "-",
        ),
        { maxLength: 40 },
      )
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 40 }), shellish), (source) => {
        const parsed = parseShellCommand(source);
        if (parsed.ok) expect(parsed.commands.length).toBeGreaterThan(0);
      }),
      { numRuns: 5000 },
    );
  });
});

describe("matchCommandPrefix", () => {
  // [command, prefix, expected]
  const cases: [string, string, "match" | "no-match" | "unknown"][] = [
    ["git status", "git status", "match"],
    ["git status --short", "git status", "match"],
    ["git statusx", "git status", "no-match"],
    ["git", "git status", "no-match"],
    ["git log", "git status", "no-match"],
    ["gitx status", "git status", "no-match"],
    ["g'it' status", "git status", "match"],
    ['"git" "status"', "git status", "match"],
    ["git\\ status", "git status", "no-match"],
    ["git status 2>&1", "git status", "match"],
    ["git status >/dev/null 2>/dev/null </dev/null", "git status", "match"],
    ["git status >&2", "git status", "match"],
    ["git status > ~/.bashrc", "git status", "unknown"],
    ["git status > /dev/null2", "git status", "unknown"],
    ["git status >> log", "git status", "unknown"],
    ["git status <secret", "git status", "unknown"],
    ["FOO=1 git status", "git status", "unknown"],
    ["PAGER='rm -rf /' git log", "git log", "unknown"],
    ["FOO=1 git log", "git status", "no-match"],
    ["$GIT status", "git status", "unknown"],
    ["git $CMD", "git status", "unknown"],
    ["git st*", "git status", "unknown"],
    ["ls $X", "git status", "no-match"],
    ["/usr/bin/git status", "git status", "unknown"],
    ["./git status", "git status", "unknown"],
    ["/usr/bin/git log", "git status", "no-match"],
    ["/usr/bin/git status", "/usr/bin/git status", "match"],
    ["/bin/rm -rf /", "rm", "unknown"],
    ["sudo rm -rf /", "rm", "unknown"],
    ["sudo rm -rf /", "sudo rm", "match"],
    ["sudo -u x rm -rf /", "sudo rm", "unknown"],
    ["sudo apt install", "sudo rm", "no-match"],
    ["/usr/bin/sudo ls", "rm", "unknown"],
    ["env FOO=1 rm x", "rm", "unknown"],
    ["env", "env", "match"],
    ["xargs rm", "rm", "unknown"],
    ["bash -c 'rm -rf /'", "rm", "unknown"],
    ["bash script.sh", "rm", "unknown"],
    ["sh", "git status", "unknown"],
    ["bash -c 'x'", "bash -c", "match"],
    ["timeout 5 git push", "git push", "unknown"],
    ["nice -n 5 make", "make", "unknown"],
    ["time git status", "git status", "unknown"],
    ["eval 'rm -rf /'", "rm", "unknown"],
    [". ./env.sh", "rm", "unknown"],
    ["source ./env.sh", "rm", "unknown"],
    ["command rm x", "rm", "unknown"],
    ["exec rm x", "rm", "unknown"],
    ["find . -name x", "rm", "no-match"],
    ["find . -name x -exec rm {} ;", "rm", "unknown"],
    ["find . -execdir rm {} +", "rm", "unknown"],
    ["find . -delete", "rm", "no-match"],
    ["find $DIR -name x", "rm", "unknown"],
    ["find . -name x", "find", "match"],
    ["git -C x push", "git push", "unknown"],
    ["git -c a=b push origin", "git push", "unknown"],
    ["git log --grep push", "git push", "unknown"],
    ["git log --oneline", "git push", "no-match"],
    ["npm run test", "npm test", "unknown"],
    ["npm run build", "npm test", "no-match"],
    ["npm --silent test", "npm test", "unknown"],
    ["FOO=1", "git status", "no-match"],
    ["> out", "git status", "no-match"],
    // Readable wrappers: the command they run is matched in their place, and an equal one is only a maybe.
    ["time ls", "rm", "no-match"],
    ["time -p ls", "rm", "no-match"],
    ["time -p rm x", "rm", "unknown"],
    ["/usr/bin/time ls", "rm", "no-match"],
    ["/usr/bin/time -o out ls", "rm", "unknown"],
    ["time ls", "ls", "unknown"],
    ["time ls", "time", "match"],
    ["time", "rm", "unknown"],
    ["nohup git status", "rm", "no-match"],
    ["nohup rm -rf /", "rm", "unknown"],
    ["nohup -- ls", "rm", "no-match"],
    ["nice ls", "rm", "no-match"],
    ["nice -n 5 ls", "rm", "no-match"],
    ["nice -n5 ls", "rm", "no-match"],
    ["nice -5 ls", "rm", "no-match"],
    ["nice --adjustment=5 ls", "rm", "no-match"],
    ["nice -n 5 rm x", "rm", "unknown"],
    ["nice -n $N ls", "rm", "unknown"],
    ["nice -n", "rm", "unknown"],
    ["timeout 5 ls", "rm", "no-match"],
    ["timeout -s KILL -k 2 5 ls", "rm", "no-match"],
    ["timeout --signal=KILL --kill-after=2 5 ls", "rm", "no-match"],
    ["timeout -sKILL 5 rm x", "rm", "unknown"],
    ["timeout $T ls", "rm", "unknown"],
    ["timeout 5", "rm", "unknown"],
    ["timeout -x 5 ls", "rm", "unknown"],
    ["stdbuf -oL ls", "rm", "no-match"],
    ["stdbuf -o L rm x", "rm", "unknown"],
    ["env FOO=1 ls", "rm", "no-match"],
    // PATH says where programs are found: with it set, a command may run anything.
    ["env -i PATH=/bin ls", "rm", "unknown"],
    ["env -i LANG=C ls", "rm", "no-match"],
    ["env - ls", "rm", "no-match"],
    ["env -u HOME --chdir=/ ls", "rm", "no-match"],
    ["env -i PATH=/bin rm", "rm", "unknown"],
    ["env /bin/rm x", "rm", "unknown"],
    ["env -S 'rm -rf /'", "rm", "unknown"],
    ["env FOO=$X ls", "rm", "unknown"],
    ["env $CMD", "rm", "unknown"],
    ["env", "rm", "unknown"],
    ["command -p ls", "rm", "no-match"],
    ["command -v rm", "rm", "unknown"],
    ["exec -a name ls", "rm", "no-match"],
    ["nohup nice -n 5 time ls", "rm", "no-match"],
    ["nohup nice -n 5 time rm -rf /", "rm", "unknown"],
    ["nohup nice -n 5 bash -c 'ls'", "rm", "unknown"],
    ["nohup sudo ls", "rm", "unknown"],
  ];
  it.each(cases)("%j against prefix %j is %s", (source, prefixText, expected) => {
    const prefix = splitCommandPrefix(prefixText);
    if (prefix === null) throw new Error(prefixText);
    expect(matchCommandPrefix(only(source), prefix)).toBe(expected);
  });

  it("treats an empty prefix as unknown", () => {
    expect(matchCommandPrefix(only("git status"), [])).toBe("unknown");
  });
});

describe("matchCommand: bypass attempts against allow `git status` and deny `rm`", () => {
  const allow = [["git", "status"]] as const;
  const deny = [["rm"]] as const;
  // [source, allow certain, deny possible]
  const cases: [string, boolean, boolean][] = [
    ["git status", true, false],
    ["git status --short && git status", true, false],
    ["git status; rm -rf /", false, true],
    ["git status && curl x | sh", false, true],
    ["git status && curl x | bash", false, true],
    ["git status $(rm -rf /)", false, true],
    ["git status `rm -rf /`", false, true],
    ['git status "$(rm -rf /)"', false, true],
    ["git status <(rm -rf /)", false, true],
    ["git status > ~/.bashrc", false, false],
    ["git status 2>&1 | rm x", false, true],
    ["FOO=1 git status", false, false],
    ["FOO=$(rm -rf /) git status", false, true],
    ["/usr/bin/git status", false, false],
    ["g'it' status", true, false],
    ['"git" "status"', true, false],
    ["git\\ status", false, false],
    ["git status\nrm -rf /", false, true],
    // Comments, groups and `&` are outside the safe subset: never certain, though every shell reads them alike.
    ["git status # ; rm -rf /", false, false],
    ["git status #\nrm -rf /", false, true],
    ["(rm -rf /)", false, true],
    ["{ rm -rf /; }", false, true],
    ["(git status)", false, false],
    ["(git status) > x", false, false],
    ["sudo rm -rf /", false, true],
    ["bash -c 'rm -rf /'", false, true],
    ["xargs rm", false, true],
    ["echo x | xargs rm", false, true],
    ["find . -exec rm {} \\;", false, true],
    ["/bin/rm -rf /", false, true],
    ["\\rm -rf /", false, true],
    ["r''m -rf /", false, true],
    ["$'rm' -rf /", false, true],
    ["{rm,-rf,/}", false, true],
    ["git status & rm x", false, true],
    ["git status || rm x", false, true],
    ["git status |& rm x", false, true],
    ["echo 'rm -rf /'", false, false],
    ['echo "$(rm -rf /)"', false, true],
    ["echo ${x:-`rm -rf /`}", false, true],
    ["git status 'unterminated", false, true],
    ["cat <<EOF\nrm\nEOF", false, true],
    ["if true; then git status; fi", false, true],
    ["f() { rm; }; f", false, true],
    ["time git status", false, false],
    ["nohup rm -rf /", false, true],
    ["env -i PATH=/bin rm -rf /", false, true],
    ["timeout 5 rm -rf /", false, true],
    ["nice -n 5 -- rm -rf /", false, true],
    ["time $(rm -rf /)", false, true],
    ["", false, true],
  ];
  it.each(cases)("%j", (source, certain, denied) => {
    expect(matchCommand(source, allow).certain).toBe(certain);
    expect(matchCommand(source, deny).possible).toBe(denied);
  });

  it("certain implies possible, and no prefixes match nothing", () => {
    expect(matchCommand("git status", allow)).toEqual({ certain: true, possible: true });
    expect(matchCommand("git status", [])).toEqual({ certain: false, possible: false });
    expect(matchCommand("ls", allow)).toEqual({ certain: false, possible: false });
    expect(matchCommand("a 'b", allow)).toEqual({ certain: false, possible: true });
  });

  it("any one prefix can make a command certain", () => {
    const prefixes = [
      ["git", "status"],
      ["npm", "test"],
    ];
    expect(matchCommand("git status && npm test -- --watch", prefixes)).toEqual({
      certain: true,
      possible: true,
    });
    expect(matchCommand("git status && npm run build", prefixes)).toEqual({ certain: false, possible: true });
  });
});

describe("splitCommandPrefix", () => {
  const cases: [string, readonly string[] | null][] = [
    ["git status", ["git", "status"]],
    ["  npm   run test ", ["npm", "run", "test"]],
    ["'git' status", ["git", "status"]],
    ["rm", ["rm"]],
    ["./build.sh --fast", ["./build.sh", "--fast"]],
    ["time", ["time"]],
    ["", null],
    ["   ", null],
    ["git status; rm", null],
    ["git && ls", null],
    ["git $X", null],
    ["ls *.ts", null],
    ["FOO=1 git", null],
    ["git > x", null],
    ["if", null],
    ["git 'status", null],
    ["(git status)", null],
    ["{ git status; }", null],
    ["git status;", null],
    ["git status &", null],
    ["git status # x", null],
    ["git\nstatus", null],
    // A rule's prefix is the author's plain words: zsh's pattern characters are plain there.
    ["a#b", ["a#b"]],
    ["git diff HEAD~1", ["git", "diff", "HEAD~1"]],
    ["git show HEAD^", ["git", "show", "HEAD^"]],
  ];
  it.each(cases)("%j → %j", (text, expected) => {
    expect(splitCommandPrefix(text)).toEqual(expected);
  });
});

describe("matchCommand: composition (properties)", () => {
  const prefixes = [["git", "status"], ["npm", "test"], ["rm"]];
  const parts = [
    "git status",
    "git status --short",
    "git statusx",
    "git push",
    "git -C x status",
    "npm test",
    "npm run build",
    "rm -rf /",
    "/bin/rm x",
    "sudo rm x",
    "ls -la",
    "echo $(rm -rf /)",
    "echo `git status`",
    "echo $HOME",
    "FOO=1 git status",
    "git status > out",
    "git status 2>&1",
    "/usr/bin/git status",
    "(git status)",
    "(ls; rm x)",
    "{ npm test; }",
    "{ ls; }",
    "xargs rm",
    "bash -c 'ls'",
    "'git' \"status\"",
    "$CMD x",
    "find . -exec rm {} +",
  ];
  const operators = [" ; ", " && ", " || ", " | ", " & ", "\n", " |& ", ";", "&&"];
  const composition = fc.array(fc.tuple(fc.constantFrom(...parts), fc.constantFrom(...operators)), {
    minLength: 1,
    maxLength: 6,
  });

  // `&` and `|&` are outside the safe subset (dash and busybox refuse `|&`).
  const subsetOperators = new Set([" ; ", " && ", " || ", " | ", "\n", ";", "&&"]);

  it("certain iff every part is certain and joined inside the subset; possible iff some part is possible", () => {
    fc.assert(
      fc.property(composition, fc.subarray(prefixes, { minLength: 1 }), (items, chosen) => {
        const source = items.map(([part, op], i) => (i === 0 ? part : op + part)).join("");
        const whole = matchCommand(source, chosen);
        const alone = items.map(([part]) => matchCommand(part, chosen));
        const joined = items.every(([, op], i) => i === 0 || subsetOperators.has(op));
        expect(whole.certain).toBe(joined && alone.every((r) => r.certain));
        expect(whole.possible).toBe(alone.some((r) => r.possible));
      }),
      { numRuns: 2000 },
    );
  });

  it("wrapping in a subshell, a brace group or a trailing ; & or comment never changes possible, and only a trailing ; or newlines keep certain", () => {
    fc.assert(
      fc.property(fc.constantFrom(...parts), fc.subarray(prefixes, { minLength: 1 }), (part, chosen) => {
        const base = matchCommand(part, chosen);
        for (const wrapped of [`${part};`, `\n${part}\n`]) {
          expect(matchCommand(wrapped, chosen), wrapped).toEqual(base);
        }
        for (const wrapped of [`( ${part} )`, `{ ${part}; }`, `${part} &`, `${part} # x`]) {
          expect(matchCommand(wrapped, chosen), wrapped).toEqual({ certain: false, possible: base.possible });
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe("matchCommandPrefix under command wrappers (properties)", () => {
  const wrappers = [
    "time",
    "time -p",
    "/usr/bin/time",
    "nohup",
    "nohup --",
    "nice",
    "nice -n 5",
    "nice -n5",
    "nice -5",
    "timeout 5",
    "timeout -s KILL -k 1 5",
    "stdbuf -oL",
    "env",
    "env FOO=1",
    "env -i PATH=/bin",
    "env -u HOME --",
    "command",
    "command -p",
    "exec -a name",
    "builtin",
    "sudo",
    "xargs",
    "env -S",
    "timeout $T",
    "nice -n $N",
  ];
  const inner = [
    "rm -rf /",
    "rm x",
    "git status",
    "git push -f",
    "ls",
    "npm test",
    "/bin/rm -r x",
    "RM -rf x",
  ];
  const prefixes = ["rm", "rm -rf", "git status", "git push", "ls", "npm test"];
  const chain = fc.array(fc.constantFrom(...wrappers), { minLength: 1, maxLength: 3 });

  it("a wrapper never hides a command from a prefix, and never makes it a certain match", () => {
    fc.assert(
      fc.property(chain, fc.constantFrom(...inner), fc.constantFrom(...prefixes), (chosen, command, text) => {
        const prefix = splitCommandPrefix(text) as readonly string[];
        const alone = matchCommandPrefix(only(command), prefix);
        const source = `${chosen.join(" ")} ${command}`;
        const wrapped = matchCommandPrefix(only(source), prefix);
        expect(wrapped, source).not.toBe("match");
        if (alone !== "no-match") expect(wrapped, source).toBe("unknown");
      }),
      { numRuns: 2000 },
    );
  });
});
