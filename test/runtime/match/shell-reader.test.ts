// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the test data is shell source, where ${...} is parameter expansion
import { describe, expect, it } from "vitest";
import {
  BASH_DIALECT,
  DASH_DIALECT,
  type ParseShellResult,
  POSIX_BASH_DIALECT,
  parseCommandPrefix,
  parseCommandPrefixSpec,
  parseShellCommand,
  readShellCommand,
  type ShellDialect,
  splitCommandPrefix,
} from "../../../src/runtime/match/shell.js";

// The shell reader, token by token: what each construct is read as (the words a rule sees, whether each is
// literal, assignments, redirections, whether the reading is opaque), and the exact refusal for what it cannot
// read. A word the reader calls literal is compared by its text; a wrong `literal: true` would let a deny rule
// miss a command, a wrong refusal would turn a plain command into a maybe.

/** Each simple command as its words, `~` marking a non-literal word. */
function words(source: string, dialect?: ShellDialect): string[][] {
  const parsed = parseShellCommand(source, dialect);
  if (!parsed.ok) throw new Error(`${source}: ${parsed.message}`);
  return parsed.commands.map((c) => c.words.map((w) => (w.literal ? w.text : `~${w.text}`)));
}

function opaque(source: string, dialect?: ShellDialect): boolean {
  const parsed = parseShellCommand(source, dialect);
  if (!parsed.ok) throw new Error(`${source}: ${parsed.message}`);
  return parsed.opaque;
}

function refusal(source: string, dialect?: ShellDialect): string {
  const parsed = parseShellCommand(source, dialect);
  if (parsed.ok) throw new Error(`${source} parsed: ${JSON.stringify(parsed.commands)}`);
  return parsed.message;
}

/** The full reading, for comparing whole results. */
function reading(source: string, dialect?: ShellDialect): ParseShellResult {
  return parseShellCommand(source, dialect);
}

const RESERVED_MESSAGE =
  "starts shell syntax that is not supported here (if, for, while, case, functions, [[ ]], !): write plain commands joined by ;, &&, || or |";

describe("words: which characters a word is made of and whether it is literal", () => {
  const cases: [string, string[][]][] = [
    // Digits and name characters at the edges of their ranges.
    ["echo $a $z $A $Z $_", [["echo", "~$a", "~$z", "~$A", "~$Z", "~$_"]]],
    ["echo $0 $9 $- $! $# $*", [["echo", "~$0", "~$9", "~$-", "~$!", "~$#", "~$*"]]],
    ["echo $x0_9Zz.y", [["echo", "~$x0_9Zz.y"]]],
    // A `$` that starts no expansion is a literal character.
    // zsh reads `$+x` (is x set), `$=x`, `$~x` and `$^x` as expansions: a `$` is plain only before the
    // characters known to leave it so.
    ["echo a$ $. $/ $+ $%", [["echo", "a$", "$.", "$/", "~$+", "$%"]]],
    ["echo $=x $~x $^x", [["echo", "~$=x", "~$~x", "~$^x"]]],
    // Each special character inside a word ends its run of ordinary characters, not the word.
    ["echo a'b'c\"d\"e\\fg", [["echo", "abcdefg"]]],
    ["echo a=b=c", [["echo", "a=b=c"]]],
    ["echo a*b a?b a[b a{b", [["echo", "~a*b", "~a?b", "~a[b", "~a{b"]]],
    // zsh's EXTENDED_GLOB: `x~y` is the file x (none but y), so literal with another text (below); `^x` is
    // everything but x, `x#` any run of x.
    ["echo ~ ~x x~y", [["echo", "~~", "~~x", "x~y"]]],
    ["echo ^x a/^x r#m 'r#m'", [["echo", "~^x", "~a/^x", "~r#m", "r#m"]]],
    [
      "echo a]b a}b a,b a!b a%b a^b a:b a@b a+b",
      [["echo", "a]b", "a}b", "a,b", "a!b", "a%b", "a^b", "a:b", "a@b", "a+b"]],
    ],
    // Blanks and operators end a word.
    ["a\tb", [["a", "b"]]],
    ["a;b", [["a"], ["b"]]],
    ["a&b", [["a"], ["b"]]],
    ["a|b", [["a"], ["b"]]],
    ["a\nb", [["a"], ["b"]]],
    ["(a)", [["a"]]],
    ["a>b c", [["a", "c"]]],
    ["a<b c", [["a", "c"]]],
    // Escapes: any character, kept literal; a line continuation disappears.
    ["echo \\$x \\` \\' \\\" \\\\ \\*", [["echo", "$x", "`", "'", '"', "\\", "*"]]],
    ["ec\\\nho a\\\nb", [["echo", "ab"]]],
    // Single quotes: everything literal.
    ["echo '$x `y` \\ \"z\" *'", [["echo", '$x `y` \\ "z" *']]],
    ["echo ''", [["echo", ""]]],
    // Double quotes: `\` escapes only $ ` " \ and a newline.
    [
      'echo "a\\"b" "a\\`b" "a\\$b" "a\\\\b" "a\\nb" "a\\\nb"',
      [["echo", 'a"b', "a`b", "a$b", "a\\b", "a\\nb", "ab"]],
    ],
    ['echo "a*b?c[d{e~f"', [["echo", "a*b?c[d{e~f"]]],
    ['echo "$x" "a$" "$" "`b`"', [["echo", "~$x", "a$", "$", "~`b`"], ["b"]]],
    // Inside double quotes `$'` and `$"` are a literal `$` then the quote's own meaning.
    ["echo \"$'x'\"", [["echo", "$'x'"]]],
    ['echo "$"x""', [["echo", "$x"]]],
    // Outside them they are bash's ANSI-C and locale quoting: not literal.
    ["echo $'it\\'s' x", [["echo", "~$'it\\'s'", "x"]]],
    ["echo $'a' $\"b\"", [["echo", "~$'a'", '~$"b"']]],
  ];
  it.each(cases)("%j", (source, expected) => {
    expect(words(source)).toEqual(expected);
  });

  it("reads `$'…'` in dash as a literal `$` and a single-quoted string", () => {
    expect(words("echo $'x'", DASH_DIALECT)).toEqual([["echo", "$x"]]);
    expect(words("echo $'a b' c", DASH_DIALECT)).toEqual([["echo", "$a b", "c"]]);
    expect(refusal("echo $'it\\'s' x", DASH_DIALECT)).toBe("the single quote at offset 12 is never closed");
    expect(words("echo $'x'", POSIX_BASH_DIALECT)).toEqual([["echo", "~$'x'"]]);
  });

  it("refuses an ANSI-C quote that a trailing backslash leaves open", () => {
    expect(refusal("echo $'a\\")).toBe("the quote $' at offset 5 is never closed");
    expect(refusal("echo $'a\\'")).toBe("the quote $' at offset 5 is never closed");
    expect(refusal("echo $'")).toBe("the quote $' at offset 5 is never closed");
  });

  it("refuses unterminated quotes with their offset", () => {
    expect(refusal("echo a'b")).toBe("the single quote at offset 6 is never closed");
    expect(refusal('echo a"b')).toBe("the double quote at offset 6 is never closed");
    expect(refusal('echo "a\\"')).toBe("the double quote at offset 5 is never closed");
    expect(refusal("echo \\")).toBe("the command ends with a lone backslash");
  });
});

describe("reserved words and assignments: only a plain word in command position", () => {
  it("reads a word made of a line continuation as the reserved word it spells", () => {
    expect(refusal("i\\\nf x")).toBe(`"if" at offset 0 ${RESERVED_MESSAGE}`);
    expect(refusal("x; f\\\nor a")).toBe(`"for" at offset 3 ${RESERVED_MESSAGE}`);
  });

  it("reads a quoted or escaped reserved word as a command name", () => {
    expect(words("\\if x")).toEqual([["if", "x"]]);
    expect(words("'if' x")).toEqual([["if", "x"]]);
    expect(words("i'f' x")).toEqual([["if", "x"]]);
    expect(words('"if" x')).toEqual([["if", "x"]]);
    expect(words('fo"r" x')).toEqual([["for", "x"]]);
    expect(words("$x if")).toEqual([["~$x", "if"]]);
  });

  it("refuses a reserved word after assignments and redirections, where the shell still reads it", () => {
    expect(refusal("A=1 if x")).toBe(`"if" at offset 4 ${RESERVED_MESSAGE}`);
    expect(refusal(">f while")).toBe(`"while" at offset 3 ${RESERVED_MESSAGE}`);
  });

  const assignments: [string, number, string[], string[]][] = [
    // [source, assignments, their values ("~" non-literal), words]
    ["A=1 x", 1, ["1"], ["x"]],
    ["_=1 x", 1, ["1"], ["x"]],
    ["a_Z9=1 x", 1, ["1"], ["x"]],
    ["zZ=1 x", 1, ["1"], ["x"]],
    ["A+=1 x", 1, ["1"], ["x"]],
    ["A= x", 1, [""], ["x"]],
    ["A=b=c x", 1, ["b=c"], ["x"]],
    ["A=$b x", 1, ["~$b"], ["x"]],
    // A value as the shell stores it, after quote removal: what a program hands to `sh -c`.
    ['A="b c" x', 1, ["b c"], ["x"]],
    ["A=1 B=2", 2, ["1", "2"], []],
    // Not names: the word is an ordinary argument (here the command name).
    ["1A=1 x", 0, [], ["1A=1", "x"]],
    ["-A=1 x", 0, [], ["-A=1", "x"]],
    ["A-B=1 x", 0, [], ["A-B=1", "x"]],
    ["A+b=1 x", 0, [], ["A+b=1", "x"]],
    ["A++=1 x", 0, [], ["A++=1", "x"]],
    // zsh (EQUALS) replaces `=cmd` by the path of cmd.
    ["=1 x", 0, [], ["~=1", "x"]],
    ["A.b=1 x", 0, [], ["A.b=1", "x"]],
    // Quoting or an escape before the `=` makes it a word; after it, it is part of the value.
    ["\\A=1 x", 0, [], ["A=1", "x"]],
    ["'A'=1 x", 0, [], ["A=1", "x"]],
    ['"A"=1 x', 0, [], ["A=1", "x"]],
    ["A'x'=1 y", 0, [], ["Ax=1", "y"]],
    ["$A=1 x", 0, [], ["~$A=1", "x"]],
    // Once a word is read, later NAME=value words are arguments.
    ["x A=1", 0, [], ["x", "A=1"]],
  ];
  it.each(assignments)("%j", (source, count, values, expectedWords) => {
    const parsed = parseShellCommand(source);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.commands).toHaveLength(1);
    const command = parsed.commands[0];
    expect(command?.assignments).toBe(count);
    expect(command?.values.map((v) => (v.literal ? v.text : `~${v.text}`))).toEqual(values);
    expect(command?.words.map((w) => (w.literal ? w.text : `~${w.text}`))).toEqual(expectedWords);
  });
});

describe("operators and lists", () => {
  it("reads `|&` and `&&` / `||` without spaces", () => {
    expect(words("a|&b")).toEqual([["a"], ["b"]]);
    expect(words("a&&b||c")).toEqual([["a"], ["b"], ["c"]]);
    expect(words("a ||\n\n b")).toEqual([["a"], ["b"]]);
  });

  it("skips comments up to the newline only", () => {
    expect(words("a # x ; b\nc")).toEqual([["a"], ["c"]]);
    expect(words("a #x")).toEqual([["a"]]);
    expect(words("#x\n#y\na")).toEqual([["a"]]);
    // An empty comment: its newline right after the `#` (at offset 1) still ends it.
    expect(words("#\na")).toEqual([["a"]]);
    expect(words("a \\\n b")).toEqual([["a", "b"]]);
    expect(words("a\t\tb \t c")).toEqual([["a", "b", "c"]]);
  });

  const refusals: [string, string][] = [
    ["&& a", 'expected a command before "&&" at offset 0'],
    ["|| a", 'expected a command before "||" at offset 0'],
    ["| a", 'expected a command before "|" at offset 0'],
    ["|& a", 'expected a command before "|&" at offset 0'],
    ["& a", 'expected a command before "&" at offset 0'],
    [";; a", 'expected a command before ";;" at offset 0'],
    [";& a", 'expected a command before ";&" at offset 0'],
    ["  ; a", 'expected a command before ";" at offset 2'],
    ["a;&b", '";&" at offset 1 is only valid inside case'],
    ["a ;; b", '";;" at offset 2 is only valid inside case'],
    ["a |& ;", 'expected a command after "|&" at offset 2'],
    ["a || ", 'expected a command after "||" at offset 2'],
    ["a | | b", 'expected a command after "|" at offset 2'],
    ["(a) b", 'unexpected "b" at offset 4'],
    ["(a) (b)", 'unexpected "(" at offset 4'],
    ["{ a; } b", 'unexpected "b" at offset 7'],
    [")", 'unexpected ")" at offset 0'],
    ["a && )", 'unexpected ")" at offset 5'],
    ["a; )", 'unexpected ")" at offset 3'],
    [">f (a)", 'unexpected "(" at offset 3'],
    ["A=1 (a)", 'function definitions and array assignments are not supported ("(" at offset 4)'],
    ["echo a (", 'function definitions and array assignments are not supported ("(" at offset 7)'],
    ["x=(", 'function definitions and array assignments are not supported ("(" at offset 2)'],
    ["\n\t # c\n", "the command is empty"],
  ];
  it.each(refusals)("refuses %j", (source, message) => {
    expect(refusal(source)).toBe(message);
  });

  it("reads `&>` as `&` then a redirection in dash, and as a redirection elsewhere", () => {
    expect(reading("a &>f", DASH_DIALECT)).toEqual({
      ok: true,
      opaque: false,
      commands: [
        { words: [{ text: "a", literal: true }], assignments: 0, names: [], values: [], redirections: [] },
        { words: [], assignments: 0, names: [], values: [], redirections: [">f"] },
      ],
    });
    expect(reading("a &>f")).toEqual({
      ok: true,
      opaque: false,
      commands: [
        {
          words: [{ text: "a", literal: true }],
          assignments: 0,
          names: [],
          values: [],
          redirections: ["&>f"],
        },
      ],
    });
    expect(words("a&>f b", POSIX_BASH_DIALECT)).toEqual([["a", "b"]]);
    expect(words("a && b", DASH_DIALECT)).toEqual([["a"], ["b"]]);
    expect(words("a & b", DASH_DIALECT)).toEqual([["a"], ["b"]]);
  });
});

describe("groups and subshells", () => {
  it("opens a brace group only before a blank or a newline", () => {
    expect(words("{ a; }")).toEqual([["a"]]);
    expect(words("{\ta; }")).toEqual([["a"]]);
    expect(words("{\na\n}")).toEqual([["a"]]);
    expect(words("{a,b}")).toEqual([["~{a,b}"]]);
    expect(refusal("{a; }")).toBe(`"}" at offset 4 ${RESERVED_MESSAGE}`);
  });

  it("closes a brace group only at a `}` that is a word of its own", () => {
    expect(words("{ echo }x; }")).toEqual([["echo", "}x"]]);
    expect(words("{ a;}")).toEqual([["a"]]);
    expect(words("{ a; }; b")).toEqual([["a"], ["b"]]);
    expect(words("{ a; }|b")).toEqual([["a"], ["b"]]);
    expect(words("({ a; })")).toEqual([["a"]]);
    expect(words("{ a; }&&b")).toEqual([["a"], ["b"]]);
    expect(refusal("{ a; }x")).toBe('the brace group "{" at offset 0 is never closed');
    expect(refusal("{ }")).toBe('the brace group "{" at offset 0 holds no command');
    expect(refusal("{ a; } }")).toBe('unexpected "}" at offset 7');
  });

  it("gives a group's redirections to the commands inside it only", () => {
    const parsed = parseShellCommand("a; (b; c $(d)) >f 2>&1 <g; e");
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.commands.map((c) => [c.words[0]?.text, c.redirections])).toEqual([
      ["a", []],
      ["b", [">f", "2>&1", "<g"]],
      ["c", [">f", "2>&1", "<g"]],
      ["d", [">f", "2>&1", "<g"]],
      ["e", []],
    ]);
    const braces = parseShellCommand("{ a >x; } >y");
    if (!braces.ok) throw new Error(braces.message);
    expect(braces.commands[0]?.redirections).toEqual([">x", ">y"]);
  });

  it("reads `((` only as a refused arithmetic command", () => {
    expect(refusal("((1))")).toBe('arithmetic command "((" at offset 0 is not supported');
    expect(refusal("a; ((1))")).toBe('arithmetic command "((" at offset 3 is not supported');
    expect(words("( (a) )")).toEqual([["a"]]);
  });
});

describe("redirections", () => {
  const cases: [string, string[], string[]][] = [
    // [source, words, redirections]
    ["echo 0>a 9>b 12>c", ["echo"], ["0>a", "9>b", "12>c"]],
    ["echo a0>b", ["echo", "a0"], [">b"]],
    ["echo >a>b", ["echo"], [">a", ">b"]],
    ["echo > 'a b' >\"$x\" >'$x' >$x", ["echo"], [">a b", '>"$x"', ">$x", ">$x"]],
    ["echo > *.txt", ["echo"], [">*.txt"]],
    ["echo <<<'a b'", ["echo"], ["<<<a b"]],
    ["echo 2<<<x", ["echo"], ["2<<<x"]],
    ["echo &>>a", ["echo"], ["&>>a"]],
    ["echo >&- <&-", ["echo"], [">&-", "<&-"]],
    ["echo 2>|f 1<>g", ["echo"], ["2>|f", "1<>g"]],
    ["echo <a", ["echo"], ["<a"]],
    ["echo >>a 2>>b", ["echo"], [">>a", "2>>b"]],
  ];
  it.each(cases)("%j", (source, expectedWords, redirections) => {
    const parsed = parseShellCommand(source);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.commands).toHaveLength(1);
    expect(parsed.commands[0]?.words.map((w) => w.text)).toEqual(expectedWords);
    expect(parsed.commands[0]?.redirections).toEqual(redirections);
  });

  it("reads a process substitution as a redirection's target, and lists its commands", () => {
    expect(reading("cat < <(a) > >(b)")).toEqual({
      ok: true,
      opaque: false,
      commands: [
        {
          words: [{ text: "cat", literal: true }],
          assignments: 0,
          names: [],
          values: [],
          redirections: ["<<(a)", ">>(b)"],
        },
        { words: [{ text: "a", literal: true }], assignments: 0, names: [], values: [], redirections: [] },
        { words: [{ text: "b", literal: true }], assignments: 0, names: [], values: [], redirections: [] },
      ],
    });
  });

  it("reads a process substitution inside a word, not as a redirection", () => {
    expect(words("cat x<(a) <(b)y")).toEqual([["cat", "~x<(a)", "~<(b)y"], ["a"], ["b"]]);
    expect(words("tee x>(a) >(b)y")).toEqual([["tee", "~x>(a)", "~>(b)y"], ["a"], ["b"]]);
    expect(refusal("cat <(ls")).toBe('the process substitution "<(" at offset 4 is never closed');
    expect(refusal("cat a>(ls")).toBe('the process substitution ">(" at offset 5 is never closed');
  });

  const refusals: [string, string][] = [
    ["cat 2<(ls)", 'the redirection "2<" at offset 4 has no target'],
    ["a > <f", 'the redirection ">" at offset 2 has no target'],
    ["a > >f", 'the redirection ">" at offset 2 has no target'],
    ["a >|", 'the redirection ">|" at offset 2 has no target'],
    ["a 2>&", 'the redirection "2>&" at offset 2 has no target'],
    ["a &>>", 'the redirection "&>>" at offset 2 has no target'],
    ["a <<<", 'the redirection "<<<" at offset 2 has no target'],
    ["a > | b", 'the redirection ">" at offset 2 has no target'],
    ["a > & b", 'the redirection ">" at offset 2 has no target'],
    ["a >\nb", 'the redirection ">" at offset 2 has no target'],
    ["a > (b)", 'the redirection ">" at offset 2 has no target'],
    ["a > )", 'the redirection ">" at offset 2 has no target'],
    ["a 2<<x", 'here-documents ("<<" at offset 3) are not supported: pass the text another way'],
    ["a <<", 'here-documents ("<<" at offset 2) are not supported: pass the text another way'],
  ];
  it.each(refusals)("refuses %j", (source, message) => {
    expect(refusal(source)).toBe(message);
  });
});

describe("expansions: what they list and when the reading is opaque", () => {
  const plain = [
    "echo ${x}",
    "echo ${_x9}",
    "echo ${Zz}",
    "echo ${#x}",
    "echo ${10}",
    "echo ${0}",
    "echo ${9}",
    "echo ${@} ${*} ${#} ${?} ${$} ${!} ${-}",
    "echo ${#@} ${#1} ${##}",
    'echo "${x}"',
    "echo $x $(a) `b`",
  ];
  it.each(plain)("%j only reads values: not opaque", (source) => {
    expect(opaque(source)).toBe(false);
  });

  const evaluating = [
    "echo ${x:-y}",
    "echo ${!x}",
    "echo ${x@P}",
    "echo ${a[0]}",
    "echo ${x:0:1}",
    "echo ${}",
    "echo ${1a}",
    "echo ${a1-}",
    "echo ${#x-}",
    "echo ${##x}",
    "echo ${-x}",
    "echo ${x.}",
    "echo ${.}",
    "echo ${ab }",
    "echo $((1))",
    'echo "$((1))"',
    "echo ${x:-${y}} z",
  ];
  it.each(evaluating)("%j may evaluate a value: opaque", (source) => {
    expect(opaque(source)).toBe(true);
  });

  it("keeps an inner plain parameter from clearing the opacity of an outer one", () => {
    expect(opaque("echo ${x:-$y}")).toBe(true);
    expect(opaque("echo $((1)) ${x}")).toBe(true);
  });

  it("reads the inside of `${…}`: quotes, escapes and substitutions", () => {
    expect(words("echo ${x:-'}'} y")).toEqual([["echo", "~${x:-'}'}", "y"]]);
    expect(words('echo ${x:-"}"} y')).toEqual([["echo", '~${x:-"}"}', "y"]]);
    expect(words("echo ${x:-\\}} y")).toEqual([["echo", "~${x:-\\}}", "y"]]);
    expect(words("echo ${x:-`a`} y")).toEqual([["echo", "~${x:-`a`}", "y"], ["a"]]);
    expect(words("echo ${x:-${y:-$(a)}} y")).toEqual([["echo", "~${x:-${y:-$(a)}}", "y"], ["a"]]);
    expect(words("echo ${x:-; b} c")).toEqual([["echo", "~${x:-; b}", "c"]]);
  });

  it('reads a `\'` inside `"${…}"` as a quote in bash only', () => {
    // bash: `'}"; b; '` is quoted, so the expansion ends at the last `}`: one command.
    const source = 'echo "${x:-\'}"; b; \'}"';
    expect(words(source, BASH_DIALECT)).toEqual([["echo", "~${x:-'}\"; b; '}"]]);
    // POSIX: the `'` is a plain character, so the expansion ends at the first `}`, `b` would run, and the last
    // `'` is never closed.
    expect(refusal(source, POSIX_BASH_DIALECT)).toBe("the single quote at offset 19 is never closed");
    expect(refusal(source, DASH_DIALECT)).toBe("the single quote at offset 19 is never closed");
    const other = "echo \"${x:-'}\" b '}'";
    expect(words(other, POSIX_BASH_DIALECT)).toEqual([["echo", "~${x:-'}", "b", "}"]]);
    expect(refusal(other, BASH_DIALECT)).toBe("the double quote at offset 5 is never closed");
  });

  const refusals: [string, string][] = [
    ["echo ${x:-'a", "the single quote at offset 10 is never closed"],
    ["echo ${x:-{a}}", '"{" inside "${" at offset 5 is not supported'],
    ["echo ${x:-\\", 'the parameter expansion "${" at offset 5 is never closed'],
    ["echo ${x:-$(a", 'the command substitution "$(" at offset 10 is never closed'],
    ["echo $((1 + '2'))", 'quotes inside "$((" at offset 5 are not supported'],
    ['echo $((1 + "2"))', 'quotes inside "$((" at offset 5 are not supported'],
    [
      "echo $((1) + 2)",
      '"$((" at offset 5 is neither arithmetic nor clearly a nested subshell: write "$( (" with a space',
    ],
    ["echo $((1 + \\", 'the arithmetic expansion "$((" at offset 5 is never closed'],
    ["echo $((1 + $(a)", 'the arithmetic expansion "$((" at offset 5 is never closed'],
    ["echo $[1]", '"$[" at offset 5 (old arithmetic) is not supported'],
  ];
  it.each(refusals)("refuses %j", (source, message) => {
    expect(refusal(source)).toBe(message);
  });

  it("reads arithmetic: nested parentheses, substitutions, escapes", () => {
    expect(words("echo $(( (1 + 2) * (3) )) x")).toEqual([["echo", "~$(( (1 + 2) * (3) ))", "x"]]);
    expect(words("echo $((1 + $(a) + `b` + ${c})) x")).toEqual([
      ["echo", "~$((1 + $(a) + `b` + ${c}))", "x"],
      ["a"],
      ["b"],
    ]);
    expect(words("echo $((1 \\) )) x")).toEqual([["echo", "~$((1 \\) ))", "x"]]);
    expect(words("echo $((x));y")).toEqual([["echo", "~$((x))"], ["y"]]);
  });

  it("reads a backquoted command with its escapes", () => {
    expect(words("echo `echo \\$x`")).toEqual([
      ["echo", "~`echo \\$x`"],
      ["echo", "~$x"],
    ]);
    expect(words("echo `a \\\\\\\\ b`")).toEqual([
      ["echo", "~`a \\\\\\\\ b`"],
      ["a", "\\", "b"],
    ]);
    expect(words("echo `a \\b`")).toEqual([
      ["echo", "~`a \\b`"],
      ["a", "b"],
    ]);
    expect(words("echo `a\\\nb`")).toEqual([["echo", "~`ab`"], ["ab"]]);
    expect(words('echo "`echo \\"x\\"`"')).toEqual([
      ["echo", '~`echo \\"x\\"`'],
      ["echo", "x"],
    ]);
    expect(words('echo `echo \\"x\\"`')).toEqual([
      ["echo", '~`echo \\"x\\"`'],
      ["echo", '"x"'],
    ]);
    expect(words("echo ``")).toEqual([["echo", "~``"]]);
    expect(words("echo `a;b` c")).toEqual([["echo", "~`a;b`", "c"], ["a"], ["b"]]);
  });

  it("refuses what a backquoted command cannot read, saying where the backquote is", () => {
    expect(refusal("echo x `a &&`")).toBe(
      'in the backquoted command at offset 7: expected a command after "&&" at offset 2',
    );
    expect(refusal("echo `a \\")).toBe("the backquote at offset 5 is never closed");
  });

  it("reads an empty substitution but not an empty subshell", () => {
    expect(words("echo $( ) <( )")).toEqual([["echo", "~$( )", "~<( )"]]);
    expect(refusal("( )")).toBe('the subshell "(" at offset 0 holds no command');
  });
});

describe("nesting depth: at most 64 levels of each construct", () => {
  const nested: [string, (n: number) => string, string][] = [
    ["subshells", (n) => `${"( ".repeat(n)}a${")".repeat(n)}`, "subshells nested more than 64 deep"],
    ["brace groups", (n) => `${"{ ".repeat(n)}a${"; }".repeat(n)}`, "brace groups nested more than 64 deep"],
    [
      "substitutions",
      (n) => `echo ${"$(".repeat(n)}a${")".repeat(n)}`,
      "substitutions nested more than 64 deep",
    ],
    [
      "parameters",
      (n) => `echo ${"${x:-".repeat(n)}a${"}".repeat(n)}`,
      "parameter expansions nested more than 64 deep",
    ],
    [
      "arithmetic",
      (n) => `echo ${"$((".repeat(n)}1${"))".repeat(n)}`,
      "arithmetic expansions nested more than 64 deep",
    ],
    [
      "a backquote inside substitutions",
      (n) => `echo ${"$(".repeat(n - 1)}\`a\`${")".repeat(n - 1)}`,
      "substitutions nested more than 64 deep",
    ],
  ];
  it.each(nested)("%s: 64 levels are read, 65 are refused", (_, build, message) => {
    expect(parseShellCommand(build(64)).ok).toBe(true);
    expect(refusal(build(65))).toBe(message);
  });

  it("counts the depth of nesting, not the number of expansions one after another", () => {
    expect(parseShellCommand(`echo ${"${x} ".repeat(80)}`).ok).toBe(true);
    expect(parseShellCommand(`echo ${"$((1)) ".repeat(80)}`).ok).toBe(true);
    expect(parseShellCommand(`echo ${"$(a) `b` (c) ".repeat(80)}`.replace(/\(c\)/g, "")).ok).toBe(true);
    expect(parseShellCommand(`${"(a); { b; }; ".repeat(80)}c`).ok).toBe(true);
  });
});

describe("readShellCommand: one reading per dialect the string could tell apart", () => {
  const cases: [string, number][] = [
    ["ls", 1],
    ["echo $x", 1],
    ["echo ${x}", 2],
    ["echo $'x'", 2],
    ["a &>f", 2],
    ["a & >f", 1],
    ["echo ${x} $'y'", 3],
    ["echo ${x} &>f", 3],
  ];
  it.each(cases)("%j has %i readings", (source, count) => {
    const read = readShellCommand(source);
    if (!read.ok) throw new Error(read.message);
    expect(read.readings).toHaveLength(count);
  });

  it("gives the readings in the order bash, POSIX bash, dash", () => {
    const read = readShellCommand("echo ${x} $'y' &>f");
    if (!read.ok) throw new Error(read.message);
    expect(read.readings).toEqual([
      parseShellCommand("echo ${x} $'y' &>f", BASH_DIALECT),
      parseShellCommand("echo ${x} $'y' &>f", POSIX_BASH_DIALECT),
      parseShellCommand("echo ${x} $'y' &>f", DASH_DIALECT),
    ]);
    expect(read.readings.map((r) => (r.ok ? r.commands.length : -1))).toEqual([1, 1, 2]);
  });

  it("refuses a string that one of the readings cannot parse", () => {
    expect(readShellCommand("echo $'it\\'s'")).toEqual({
      ok: false,
      message: "the single quote at offset 12 is never closed",
    });
    expect(readShellCommand('echo "${x:-\'}"; b; \'}"')).toEqual({
      ok: false,
      message: "the single quote at offset 19 is never closed",
    });
    expect(readShellCommand("")).toEqual({ ok: false, message: "the command is empty" });
  });

  it("reads with bash's dialect by default", () => {
    expect(parseShellCommand("echo $'x' &>f")).toEqual(parseShellCommand("echo $'x' &>f", BASH_DIALECT));
    expect(words("echo $'x'")).toEqual([["echo", "~$'x'"]]);
  });
});

describe("command prefixes: a single plain list of literal words", () => {
  const prefixes: [string, readonly string[] | null][] = [
    ["git status", ["git", "status"]],
    ["  git\tstatus  ", ["git", "status"]],
    ["'git' \"status\" \\-x", ["git", "status", "-x"]],
    ["git\\ status", ["git status"]],
    ["git status;", null],
    ["git status &", null],
    ["git status\n", null],
    ["git status # comment", null],
    ["(git status)", null],
    ["{ git status; }", null],
    ["git && ls", null],
    ["git | ls", null],
    ["git $(ls)", null],
    ["git `ls`", null],
    ["git <(ls)", null],
    ["git ${x}", null],
    ["git *", null],
    ["git ~", null],
    ["A=1 git", null],
    ["A=1", null],
    ["git >f", null],
    [">f", null],
    ["git 2>&1", null],
    ["", null],
    ["   ", null],
    ["git 'status", null],
    ["if", null],
  ];
  it.each(prefixes)("splitCommandPrefix(%j)", (text, expected) => {
    expect(splitCommandPrefix(text)).toEqual(expected);
  });

  it("makes a prefix exact with a `$` at its very end, outside quotes", () => {
    expect(parseCommandPrefix("git status$")).toEqual({ words: ["git", "status"], exact: true });
    expect(parseCommandPrefix("git status $\t ")).toEqual({ words: ["git", "status"], exact: true });
    expect(parseCommandPrefix("ls$")).toEqual({ words: ["ls"], exact: true });
    expect(splitCommandPrefix("git status$")).toEqual(["git", "status"]);
    // A `$` that is a word of the prefix: the text before it is no prefix, so the `$` is read as a word.
    expect(parseCommandPrefix("$")).toEqual({ words: ["$"], exact: false });
    expect(parseCommandPrefix("git \\$")).toEqual({ words: ["git", "$"], exact: false });
    expect(parseCommandPrefix("git '$'")).toEqual({ words: ["git", "$"], exact: false });
    expect(parseCommandPrefix("git status$;")).toBeNull();
    expect(parseCommandPrefix("; git$")).toBeNull();
    expect(splitCommandPrefix("$x")).toBeNull();
  });

  it("is null for a value that is not a string", () => {
    expect(parseCommandPrefix(42 as unknown as string)).toBeNull();
    expect(parseCommandPrefix(undefined as unknown as string)).toBeNull();
    expect(splitCommandPrefix(null as unknown as string)).toBeNull();
  });
});

describe("parseCommandPrefixSpec: a prefix string, or { prefix, options }", () => {
  const shape =
    'a command prefix is a string such as "git status" or an object such as { prefix: "git log", options: ["--oneline"] }';

  it("reads a prefix string", () => {
    expect(parseCommandPrefixSpec("git log")).toEqual({
      ok: true,
      prefix: { words: ["git", "log"], exact: false },
    });
    expect(parseCommandPrefixSpec("git log$")).toEqual({
      ok: true,
      prefix: { words: ["git", "log"], exact: true },
    });
    expect(parseCommandPrefixSpec("git $x")).toEqual({
      ok: false,
      message:
        'command prefix "git $x" must be plain words such as "git status" (no quotes, operators or expansions)',
    });
    expect(parseCommandPrefixSpec("")).toEqual({
      ok: false,
      message:
        'command prefix "" must be plain words such as "git status" (no quotes, operators or expansions)',
    });
  });

  it("reads the object form with its options", () => {
    expect(parseCommandPrefixSpec({ prefix: "git log", options: ["--oneline", "-n"] })).toEqual({
      ok: true,
      prefix: { words: ["git", "log"], exact: false, options: new Set(["--oneline", "-n"]) },
    });
    expect(parseCommandPrefixSpec({ options: [], prefix: "ls" })).toEqual({
      ok: true,
      prefix: { words: ["ls"], exact: false, options: new Set() },
    });
    expect(parseCommandPrefixSpec({ prefix: "ls", options: ["-", "--a=b"] })).toEqual({
      ok: true,
      prefix: { words: ["ls"], exact: false, options: new Set(["-", "--a=b"]) },
    });
  });

  const refused: [unknown, { message: string; at?: unknown }][] = [
    [null, { message: shape }],
    [undefined, { message: shape }],
    [42, { message: shape }],
    [["git", "log"], { message: shape }],
    [{ prefix: "git log", options: [], opts: [] }, { message: `unknown key "opts": ${shape}` }],
    [{ options: [] }, { message: `"prefix" is missing: ${shape}` }],
    [{ prefix: 1, options: [] }, { message: `"prefix" is missing: ${shape}` }],
    [
      { prefix: "git; ls", options: [] },
      {
        at: ["prefix"],
        message:
          'command prefix "git; ls" must be plain words such as "git status" (no quotes, operators or expansions)',
      },
    ],
    [
      { prefix: "git log" },
      {
        message:
          'command prefix "git log" in object form needs "options", a list such as ["--oneline", "-n"] (for the prefix alone, write it as a string)',
      },
    ],
    [
      { prefix: "git log", options: "--oneline" },
      {
        message:
          'command prefix "git log" in object form needs "options", a list such as ["--oneline", "-n"] (for the prefix alone, write it as a string)',
      },
    ],
    [
      { prefix: "git log$", options: [] },
      {
        at: ["prefix"],
        message:
          'command prefix "git log$" ends with "$", so nothing may follow it, yet it lists options: drop the "$" or the options',
      },
    ],
  ];
  it.each(refused)("refuses %j", (spec, expected) => {
    expect(parseCommandPrefixSpec(spec)).toEqual({ ok: false, ...expected });
  });

  const badOptions: [unknown, number][] = [
    [["--ok", 5], 1],
    [["oneline"], 0],
    [["--a --b"], 0],
    [["-n", "'-n'"], 1],
    [["\\-n"], 0],
    [["--$x"], 0],
    [["-a;"], 0],
    [[""], 0],
    [[" -n"], 0],
    [[null], 0],
  ];
  it.each(badOptions)("refuses the options %j at their bad entry", (options, at) => {
    const option = (options as unknown[])[at];
    expect(parseCommandPrefixSpec({ prefix: "git log", options })).toEqual({
      ok: false,
      at: ["options", at],
      message: `option ${JSON.stringify(option)} of command prefix "git log" must be one plain word starting with "-", such as "--oneline" or "-n"`,
    });
  });
});
