// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the test data is shell source, where ${...} is parameter expansion
import { describe, expect, it } from "vitest";
import {
  DASH_DIALECT,
  matchCommand,
  parseShellCommand,
  type ShellDialect,
} from "../../../src/runtime/match/shell.js";

// The shell reader where a backslash, a newline or an operator sits next to another construct: inside
// backquotes, inside `${…}` and `$((…))`, after a group, before a redirection's target. Each expectation is what
// bash does with the same string (checked with bash 5).

/** Each simple command as its words, `~` marking a non-literal word. */
function words(source: string, dialect?: ShellDialect): string[][] {
  const parsed = parseShellCommand(source, dialect);
  if (!parsed.ok) throw new Error(`${source}: ${parsed.message}`);
  return parsed.commands.map((c) => c.words.map((w) => (w.literal ? w.text : `~${w.text}`)));
}

function refusal(source: string, dialect?: ShellDialect): string {
  const parsed = parseShellCommand(source, dialect);
  if (parsed.ok) throw new Error(`${source} parsed: ${JSON.stringify(parsed.commands)}`);
  return parsed.message;
}

describe("backslashes inside backquotes", () => {
  it("reads \\` as a backquote of the inner command, which nests a substitution", () => {
    expect(words("echo `a \\`b\\``")).toEqual([["echo", "~`a \\`b\\``"], ["a", "~`b`"], ["b"]]);
  });

  it('keeps \\" as it is outside double quotes and reads it as " inside them', () => {
    // bash: echo ${x:-`echo \"a\"`} prints "a" (with the quotes); "`echo \'a`" prints 'a.
    expect(words('echo ${x:-`echo \\"a\\"`}')).toEqual([
      ["echo", '~${x:-`echo \\"a\\"`}'],
      ["echo", '"a"'],
    ]);
    expect(words('echo $((`echo \\"1\\"`))')).toEqual([
      ["echo", '~$((`echo \\"1\\"`))'],
      ["echo", '"1"'],
    ]);
    expect(words('echo "`echo \\\'a`"')).toEqual([
      ["echo", "~`echo \\'a`"],
      ["echo", "'a"],
    ]);
  });

  it("drops a backslash-newline before the inner command is read, even inside its quotes and comments", () => {
    // bash: echo `echo 'a\<newline>b'` prints ab.
    expect(words("echo `echo 'a\\\nb'`")).toEqual([
      // The word's source text is what the shells read: the backslash-newline is already removed.
      ["echo", "~`echo 'ab'`"],
      ["echo", "ab"],
    ]);
    expect(words("echo `a #x\\\nb`")).toEqual([["echo", "~`a #xb`"], ["a"]]);
  });
});

describe("a backslash inside ${…}", () => {
  it("escapes the next character, so a quote there opens nothing", () => {
    // bash: echo ${x:-\'} y prints ' y.
    expect(words("echo ${x:-\\'} y")).toEqual([["echo", "~${x:-\\'}", "y"]]);
    expect(words("echo ${x:-\\`} y")).toEqual([["echo", "~${x:-\\`}", "y"]]);
    expect(words("echo ${x:-\\$(a)} y")).toEqual([["echo", "~${x:-\\$(a)}", "y"]]);
  });
});

describe("ANSI-C and locale quotes inside ${…} and $((…))", () => {
  it("reads $'…' inside an unquoted ${…} with its escapes", () => {
    // bash: echo ${x:-$'\''} y prints ' y.
    expect(words("echo ${x:-$'\\''} y")).toEqual([["echo", "~${x:-$'\\''}", "y"]]);
  });

  it('reads $"…" inside $((…)) as a quoted string, not as a refused quote', () => {
    // bash: echo $(( $"1" + 1 )) prints 2.
    expect(words('echo $(( $"1" + 1 ))')).toEqual([["echo", '~$(( $"1" + 1 ))']]);
  });
});

describe("a `~` after the `=` of NAME=… or after a `:` in its value", () => {
  it("is not literal: bash expands it, in an assignment and in an argument shaped like one", () => {
    // bash: echo a=~ A1=~/q a=x:~ a=:~ prints a=/root A1=/root/q a=x:/root a=:/root (the home directory).
    expect(words("echo a=~ A1=~/q a=x:~ a=:~ a+=~ a=~root")).toEqual([
      ["echo", "~a=~", "~A1=~/q", "~a=x:~", "~a=:~", "~a+=~", "~a=~root"],
    ]);
    const parsed = parseShellCommand("A=~/bin B=x:~ C=~ x");
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.commands[0]?.values).toEqual([
      { text: "~/bin", literal: false },
      { text: "x:~", literal: false },
      { text: "~", literal: false },
    ]);
  });

  it("so a deny rule that spells out the home directory may match it", () => {
    expect(matchCommand("make PREFIX=~", [["make", "PREFIX=/root"]]).possible).toBe(true);
    expect(matchCommand("make PREFIX=x:~/bin", [["make", "PREFIX=x:/home/u/bin"]]).possible).toBe(true);
    // zsh with EXTENDED_GLOB reads any unquoted `~` in a word as a pattern operator: unknown too.
    expect(matchCommand("make PREFIX=x~", [["make", "PREFIX=x/root"]]).possible).toBe(true);
  });

  it("is literal where no shell expands it", () => {
    // bash: echo --a=~ a.b=~ "a"=~ a\\=~ a=\\~ a=x~ a=':'~ x:~ prints each word as written.
    expect(words("echo --a=~ a.b=~ \"a\"=~ a\\=~ a=\\~ a=x~ a=':'~ x:~")).toEqual([
      ["echo", "--a=~", "a.b=~", "a=~", "a=~", "a=~", "a=x~", "a=:~", "x:~"],
    ]);
  });
});

describe("newlines and operators next to other constructs", () => {
  it("reads a newline after a group as the end of its command", () => {
    expect(words("(a)\nb")).toEqual([["a"], ["b"]]);
    expect(words("{ a; }\n>f b")).toEqual([["a"], ["b"]]);
    const parsed = parseShellCommand("(a)\n>f");
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.commands.map((c) => c.redirections)).toEqual([[], [">f"]]);
  });

  it("refuses an operator at the start of a line, as after any separator", () => {
    expect(refusal("a\n;b")).toBe('expected a command before ";" at offset 2');
    expect(refusal("a\n&b")).toBe('expected a command before "&" at offset 2');
    expect(refusal("a\n\n|b")).toBe('expected a command before "|" at offset 3');
  });

  it("reads `&>` at the start of a command as a redirection, not as `&`", () => {
    const parsed = parseShellCommand("&>f a && &>g b");
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.commands.map((c) => [c.words.map((w) => w.text), c.redirections])).toEqual([
      [["a"], ["&>f"]],
      [["b"], ["&>g"]],
    ]);
    expect(refusal("&>f a", DASH_DIALECT)).toBe('expected a command before "&" at offset 0');
  });

  it("refuses a redirection whose target would be an operator or a group", () => {
    expect(refusal("a > |(b)")).toBe('the redirection ">" at offset 2 has no target');
    expect(refusal("a > ;(b)")).toBe('the redirection ">" at offset 2 has no target');
    expect(refusal("a > ((b))")).toBe('the redirection ">" at offset 2 has no target');
  });
});
