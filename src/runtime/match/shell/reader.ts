// POSIX shell command parsing for the `command` operator: the reader used for the deny/ask side (the union
// of readings). The allow side reads only the safe subset (safe-subset.ts).
//
// The parser reads a command string the way a POSIX shell (and bash, where bash adds syntax an attacker could
// use) would split it into simple commands, so that a rule sees every command that would run: commands joined
// by `;`, `&&`, `||`, `|`, `|&`, `&` or newlines; commands inside subshells `( )` and brace groups `{ ; }`; and
// commands inside command substitutions `$( )` and backquotes and process substitutions `<( )` / `>( )`.
// Anything it cannot read with certainty is refused (here-documents, `if`/`for`/`case`/... compound commands,
// function definitions, `(( ))`, unterminated quotes): the policy treats a refused command as "may match" for
// deny and ask rules and "does not match" for allow rules.
//
// Choices:
// - `time` is read as an ordinary command word (not bash's reserved word); the matcher treats it as a wrapper.
// - A word is non-literal when its value is unknown statically: any `$` expansion (`$X`, `${...}`, `$(...)`,
//   `$((...))`, bash's `$'...'` and `$"..."`), backquotes, process substitution, unquoted `*`, `?`, `[`, an
//   unquoted `{` (bash brace expansion turns `{rm,-rf,/}` into `rm -rf /`), a leading `~`, or a `~` after the `=`
//   of a word shaped like NAME=… or after a `:` in its value (bash expands those too).
// - A redirection is recorded as its operator with any fd number, then its target: the target's text after
//   quote removal when literal, else the target's source text (`2>&1`, `>/dev/null`, `>$HOME/x`).
// - A group's redirections (`( a; b ) > f`) are added to each command inside the group.
// - Comments (`#` at the start of a word) run to the end of the line.
// - Shells disagree on a few tokens, so the reader takes a dialect: bash reads `$'…'` as one quoted word, `&>` as
//   a redirection and a `'` inside `"${x:-…}"` as a quote; bash --posix, busybox sh and zsh read that `'` as a
//   plain character; dash also reads `$'` as `$` then a single-quoted string and `&>` as `&` then `>`.
//   `readShellCommand` parses once per dialect that the string could tell apart.
// - An expansion that can evaluate text as code in some shell (`$((…))`, and any `${…}` other than a plain
//   name or special parameter: `${x:=…}`, `${!x}`, `${x@P}`, `${a[…]}`, `${x:0:y}`) marks the whole parse
//   `opaque`: what runs then depends on values the reader cannot see.

import { countContinuations, type JoinedSource, joinContinuations } from "./continuations.js";
import { PARSER_RESERVED_WORDS } from "./tables.js";

/** One word of a simple command. */
export interface ShellWord {
  /** The word after quote removal; expansions are kept as their source text. */
  readonly text: string;
  /** False when the word's value depends on an expansion or a glob, so `text` is not what the shell runs. */
  readonly literal: boolean;
  /**
   * Another text the word may have, for a literal word: zsh with EXTENDED_GLOB reads `a~b` as the files named
   * `a` (none but `b`), so `HEAD~1` is `HEAD~1`, or `HEAD` when such a file exists.
   */
  readonly also?: string;
}

/**
 * One simple command: its words, how many `NAME=value` assignments precede them (their names, and their values,
 * which a program or a later expansion or builtin may run as code), and its redirections.
 */
export interface SimpleCommand {
  readonly words: readonly ShellWord[];
  readonly assignments: number;
  /** The names of the assignments, in order (`+=` read as `=`). */
  readonly names: readonly string[];
  readonly values: readonly ShellWord[];
  readonly redirections: readonly string[];
}

/**
 * Result of {@link parseShellCommand}. `opaque` is true when an expansion could evaluate a value as code (see
 * the module comment), so that the commands listed may not be all that runs.
 */
export type ParseShellResult =
  | { readonly ok: true; readonly commands: readonly SimpleCommand[]; readonly opaque: boolean }
  | { readonly ok: false; readonly message: string };

/** How the shells that the reader imitates split words; see the module comment. */
export interface ShellDialect {
  /** `$'…'` is one ANSI-C quoted string (bash, zsh, busybox), not `$` then `'…'` (dash). */
  readonly ansiC: boolean;
  /** `&>` is a redirection (bash, zsh, busybox), not `&` then `>` (dash). */
  readonly ampersandRedirection: boolean;
  /** A `'` inside `"${…}"` opens a quote (bash), rather than being a plain character (POSIX). */
  readonly quoteInQuotedParameter: boolean;
}

/** bash outside POSIX mode. */
export const BASH_DIALECT: ShellDialect = {
  ansiC: true,
  ampersandRedirection: true,
  quoteInQuotedParameter: true,
};

/** bash --posix, busybox sh and zsh as sh. */
export const POSIX_BASH_DIALECT: ShellDialect = {
  ansiC: true,
  ampersandRedirection: true,
  quoteInQuotedParameter: false,
};

/** dash. */
export const DASH_DIALECT: ShellDialect = {
  ansiC: false,
  ampersandRedirection: false,
  quoteInQuotedParameter: false,
};

/** Nesting deeper than this (substitutions, groups) is refused, so that parsing never exhausts the stack. */
const MAX_DEPTH = 64;

interface MutableCommand {
  words: ShellWord[];
  assignments: number;
  names: string[];
  values: ShellWord[];
  redirections: string[];
}

interface Word {
  readonly text: string;
  readonly literal: boolean;
  /** No quoting, escapes or expansions at all: only such a word can be a reserved word or an assignment. */
  readonly plain: boolean;
  readonly assignment: boolean;
  /** The word's source text. */
  readonly raw: string;
  /** The text before its first unquoted `~` (see {@link ShellWord.also}). */
  readonly also: string | undefined;
}

/** What one parse collects, shared by the nested parsers of groups and substitutions. */
interface ParseState {
  readonly commands: MutableCommand[];
  /** Operators, groups and comments seen: zero for a plain list of words. */
  syntax: number;
  /** An expansion that may evaluate a value as code was seen. */
  opaque: boolean;
  readonly dialect: ShellDialect;
  /**
   * A rule's command prefix is read, not a command: zsh's EXTENDED_GLOB and EQUALS operators (`~`, `^`, `#` in a
   * word, `=cmd`) are the author's plain characters there (`git diff HEAD~1`).
   */
  readonly prefix?: boolean;
  /**
   * When backslash-newlines were removed before parsing (continuations.ts): the joined text, where they were
   * removed, how many the parse found inside single quotes and comments, and whether one was removed there.
   */
  readonly joined: (JoinedSource & { kept: number; removedInside: boolean }) | undefined;
}

class ShellSyntaxError {
  constructor(readonly message: string) {}
}

const ASSIGNMENT_NAME = /^[A-Za-z_][A-Za-z0-9_]*\+?$/;

/**
 * The characters after which a `$` is a plain `$` in every shell (`a$`, `$/`, `cost: $.`); before any other
 * character it is an expansion in some shell, or may be. The empty string stands for the end of the text.
 */
const LITERAL_AFTER_DOLLAR = [
  "",
  "'",
  " ",
  "\t",
  "\n",
  ";",
  "&",
  "|",
  ")",
  "<",
  ">",
  "/",
  ".",
  ",",
  ":",
  "%",
  "]",
  "}",
];

/** The inside of a `${…}` that only reads a value (its length with `#`): nothing in it is evaluated. */
const SIMPLE_PARAMETER = /^#?(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])$/;

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= "0" && c <= "9";
}

function isNameStart(c: string | undefined): boolean {
  return c !== undefined && ((c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_");
}

function isNameChar(c: string | undefined): boolean {
  return isNameStart(c) || isDigit(c);
}

/** Characters that end an unquoted word. */
function isWordEnd(c: string | undefined): boolean {
  return (
    c === undefined ||
    c === " " ||
    c === "\t" ||
    c === "\n" ||
    c === ";" ||
    c === "&" ||
    c === "|" ||
    c === "(" ||
    c === ")" ||
    c === "<" ||
    c === ">"
  );
}

/** The ASCII characters that {@link isOrdinary} refuses, by code: word ends and the special characters. */
const NOT_ORDINARY = (() => {
  const table = new Uint8Array(128);
  for (const c of " \t\n;&|()<>\\'\"$`*?[{~=^#") table[c.charCodeAt(0)] = 1;
  return table;
})();

/** Characters with no special meaning unquoted: runs of them are copied in one slice. */
function isOrdinary(c: string): boolean {
  const code = c.charCodeAt(0);
  return code < 128 ? NOT_ORDINARY[code] === 0 : true;
}

type ListEnd = "eof" | ")" | "}";

class ShellParser {
  private pos = 0;

  constructor(
    private readonly src: string,
    private depth: number,
    private readonly state: ParseState,
  ) {}

  private get commands(): MutableCommand[] {
    return this.state.commands;
  }

  private fail(message: string): never {
    throw new ShellSyntaxError(message);
  }

  /**
   * Notes that `[from, to)` of the joined text was read as a single-quoted string or a comment, where a shell
   * keeps a backslash-newline: it must hold exactly the ones the joining kept (continuations.ts).
   */
  private noteQuoted(from: number, to: number): void {
    const joined = this.state.joined;
    if (joined === undefined || this.src !== joined.text) return;
    joined.kept += countContinuations(joined.text, from, to);
    if (joined.removed.some((at) => at > from && at < to)) joined.removedInside = true;
  }

  /** The operator or character ahead; never at the end nor at a newline (each caller has ruled them out). */
  private describeHere(): string {
    const c = this.src[this.pos];
    return `"${this.peekOperator() ?? c}" at offset ${this.pos}`;
  }

  /** The depth for a nested construct, refused past `MAX_DEPTH`. */
  private enter(what: string): number {
    const depth = this.depth + 1;
    if (depth > MAX_DEPTH) this.fail(`${what} nested more than ${MAX_DEPTH} deep`);
    return depth;
  }

  /** Parses the whole source as one list. */
  parseAll(allowEmpty: boolean): void {
    this.parseList("eof", allowEmpty, "");
  }

  /** Skips blanks, line continuations and comments; newlines too when `newlines`. */
  private skipFiller(newlines: boolean): void {
    const src = this.src;
    for (;;) {
      const c = src[this.pos];
      if (c === " " || c === "\t") this.pos++;
      else if (c === "\\" && src[this.pos + 1] === "\n") this.pos += 2;
      else if (c === "#") {
        this.state.syntax++;
        const end = src.indexOf("\n", this.pos);
        this.noteQuoted(this.pos, end === -1 ? src.length : end);
        this.pos = end === -1 ? src.length : end;
      } else if (newlines && c === "\n") this.pos++;
      else return;
    }
  }

  /** The control operator at `pos`, if any (`&>` is a redirection, not `&`). */
  private peekOperator(): string | undefined {
    const c = this.src[this.pos];
    const next = this.src[this.pos + 1];
    switch (c) {
      case "\n":
        return "\n";
      case ";":
        return next === ";" ? ";;" : next === "&" ? ";&" : ";";
      case "&":
        return next === "&"
          ? "&&"
          : next === ">" && this.state.dialect.ampersandRedirection
            ? undefined
            : "&";
      case "|":
        return next === "|" ? "||" : next === "&" ? "|&" : "|";
      default:
        return undefined;
    }
  }

  private atListEnd(end: ListEnd, opener: string): boolean {
    const c = this.src[this.pos];
    if (c === undefined) {
      if (end === "eof") return true;
      this.fail(`${opener} is never closed`);
    }
    if (end === ")") return c === ")";
    if (end === "}") return c === "}" && isWordEnd(this.src[this.pos + 1]);
    return false;
  }

  /** A list: and-or lists separated by `;`, `&` or newlines, up to `end` (not consumed). */
  private parseList(end: ListEnd, allowEmpty: boolean, opener: string): void {
    let empty = true;
    for (;;) {
      this.skipFiller(true);
      if (this.atListEnd(end, opener)) {
        if (empty && !allowEmpty) {
          this.fail(end === "eof" ? "the command is empty" : `${opener} holds no command`);
        }
        return;
      }
      const early = this.peekOperator();
      if (early !== undefined) this.fail(`expected a command before ${this.describeHere()}`);
      this.parseAndOr(end, opener);
      empty = false;
      this.skipFiller(false);
      if (this.atListEnd(end, opener)) return;
      const op = this.peekOperator();
      if (op === ";" || op === "&" || op === "\n") {
        this.state.syntax++;
        this.pos++;
        continue;
      }
      if (op === ";;" || op === ";&") this.fail(`"${op}" at offset ${this.pos} is only valid inside case`);
      this.fail(`unexpected ${this.describeHere()}`);
    }
  }

  /** Commands joined by `&&`, `||`, `|` or `|&`. */
  private parseAndOr(end: ListEnd, opener: string): void {
    this.parseCommand();
    for (;;) {
      this.skipFiller(false);
      const op = this.peekOperator();
      if (op !== "&&" && op !== "||" && op !== "|" && op !== "|&") return;
      const at = this.pos;
      this.state.syntax++;
      this.pos += op.length;
      this.skipFiller(true);
      if (this.atListEnd(end, opener) || this.peekOperator() !== undefined) {
        this.fail(`expected a command after "${op}" at offset ${at}`);
      }
      this.parseCommand();
    }
  }

  private parseCommand(): void {
    const src = this.src;
    const start = this.pos;
    const c = src[start];
    const first = this.commands.length;
    if (c === "(" || c === "{") this.state.syntax++;
    if (c === "(") {
      if (src[start + 1] === "(") this.fail(`arithmetic command "((" at offset ${start} is not supported`);
      const inner = new ShellParser(src, this.enter("subshells"), this.state);
      inner.pos = start + 1;
      inner.parseList(")", false, `the subshell "(" at offset ${start}`);
      this.pos = inner.pos + 1;
      this.parseGroupRedirections(first);
      return;
    }
    if (c === "{" && (src[start + 1] === " " || src[start + 1] === "\t" || src[start + 1] === "\n")) {
      const inner = new ShellParser(src, this.enter("brace groups"), this.state);
      inner.pos = start + 1;
      inner.parseList("}", false, `the brace group "{" at offset ${start}`);
      this.pos = inner.pos + 1;
      this.parseGroupRedirections(first);
      return;
    }
    this.parseSimpleCommand();
  }

  /** Redirections after `)` or `}` apply to every command inside the group. */
  private parseGroupRedirections(first: number): void {
    const redirections: string[] = [];
    for (;;) {
      this.skipFiller(false);
      if (!this.redirectionAhead()) break;
      redirections.push(this.parseRedirection());
    }
    for (let i = first; i < this.commands.length; i++) {
      (this.commands[i] as MutableCommand).redirections.push(...redirections);
    }
  }

  private parseSimpleCommand(): void {
    const command: MutableCommand = { words: [], assignments: 0, names: [], values: [], redirections: [] };
    // Listed before the commands of its own substitutions.
    this.commands.push(command);
    const start = this.pos;
    for (;;) {
      this.skipFiller(false);
      if (this.redirectionAhead()) {
        command.redirections.push(this.parseRedirection());
        continue;
      }
      const c = this.src[this.pos];
      if (c === undefined || c === "\n" || c === ";" || c === "&" || c === "|" || c === ")") break;
      if (c === "(") {
        this.fail(
          command.words.length > 0 || command.assignments > 0
            ? `function definitions and array assignments are not supported ("(" at offset ${this.pos})`
            : `unexpected "(" at offset ${this.pos}`,
        );
      }
      const wordStart = this.pos;
      const word = this.readWord();
      if (command.words.length === 0) {
        if (word.assignment) {
          command.assignments++;
          const equals = word.raw.indexOf("=");
          command.names.push(word.raw.slice(0, word.raw[equals - 1] === "+" ? equals - 1 : equals));
          // The value as the shell stores it (after quote removal) is what a program hands to `sh -c`; an
          // expansion leaves it unknown, and then its source text stands for it.
          const value = word.literal
            ? word.text.slice(word.text.indexOf("=") + 1)
            : word.raw.slice(equals + 1);
          command.values.push({ text: value, literal: word.literal });
          continue;
        }
        if (word.plain && PARSER_RESERVED_WORDS.has(word.text)) {
          this.fail(
            `"${word.text}" at offset ${wordStart} starts shell syntax that is not supported here (if, for, while, case, functions, [[ ]], !): write plain commands joined by ;, &&, || or |`,
          );
        }
      }
      command.words.push(
        word.literal && word.also !== undefined
          ? { text: word.text, literal: true, also: word.also }
          : { text: word.text, literal: word.literal },
      );
    }
    if (command.words.length === 0 && command.assignments === 0 && command.redirections.length === 0) {
      this.pos = start;
      this.fail(`unexpected ${this.describeHere()}`);
    }
  }

  /** A redirection starts here: `[n]>`, `[n]<`, `&>` and friends, but not process substitution `<(`. */
  private redirectionAhead(): boolean {
    const src = this.src;
    let i = this.pos;
    if (src[i] === "&") return src[i + 1] === ">" && this.state.dialect.ampersandRedirection;
    while (isDigit(src[i])) i++;
    const c = src[i];
    if (c !== "<" && c !== ">") return false;
    return src[i + 1] !== "(" || i > this.pos;
  }

  private parseRedirection(): string {
    const src = this.src;
    const start = this.pos;
    let i = start;
    while (isDigit(src[i])) i++;
    const rest = src.slice(i, i + 3);
    let op: string;
    if (rest === "<<<") op = "<<<";
    else if (rest.startsWith("<<")) {
      this.fail(`here-documents ("<<" at offset ${i}) are not supported: pass the text another way`);
    } else if (rest === "&>>") op = "&>>";
    else {
      const two = rest.slice(0, 2);
      op = [">>", ">&", ">|", "<&", "<>", "&>"].includes(two) ? two : rest.slice(0, 1);
    }
    this.pos = i + op.length;
    const operator = src.slice(start, this.pos);
    this.skipFiller(false);
    const c = src[this.pos];
    const target = isWordEnd(c) && !((c === "<" || c === ">") && src[this.pos + 1] === "(");
    if (target) this.fail(`the redirection "${operator}" at offset ${start} has no target`);
    const word = this.readWord();
    return operator + (word.literal ? word.text : word.raw);
  }

  /** One word at `pos` (which is not at a word end). */
  private readWord(): Word {
    const src = this.src;
    const start = this.pos;
    let text = "";
    let literal = true;
    let plain = true;
    let assignment = false;
    let sawEquals = false;
    /** The text before the word's first unquoted `~` (zsh's EXTENDED_GLOB exclusion `a~b` names `a`). */
    let beforeTilde: string | undefined;
    for (;;) {
      const c = src[this.pos];
      if (c === undefined) break;
      if (isOrdinary(c)) {
        let end = this.pos + 1;
        while (end < src.length && isOrdinary(src[end] as string)) end++;
        text += src.slice(this.pos, end);
        this.pos = end;
        continue;
      }
      if (c === "<" || c === ">") {
        if (src[this.pos + 1] !== "(") break;
        const open = this.pos;
        this.parseSubstitution(this.pos + 2, `the process substitution "${c}(" at offset ${open}`);
        text += src.slice(open, this.pos);
        literal = false;
        plain = false;
        continue;
      }
      if (isWordEnd(c)) break;
      switch (c) {
        case "\\": {
          const next = src[this.pos + 1];
          if (next === undefined) this.fail("the command ends with a lone backslash");
          this.pos += 2;
          if (next !== "\n") {
            text += next;
            plain = false;
          }
          break;
        }
        case "'": {
          const close = src.indexOf("'", this.pos + 1);
          if (close === -1) this.fail(`the single quote at offset ${this.pos} is never closed`);
          this.noteQuoted(this.pos, close + 1);
          text += src.slice(this.pos + 1, close);
          this.pos = close + 1;
          plain = false;
          break;
        }
        case '"': {
          const quoted = this.readDoubleQuoted();
          text += quoted.text;
          if (!quoted.literal) literal = false;
          plain = false;
          break;
        }
        case "$": {
          const dollar = this.readDollar(false);
          text += dollar.text;
          if (!dollar.literal) literal = false;
          plain = false;
          break;
        }
        case "`":
          text += this.readBackquoted(false);
          literal = false;
          plain = false;
          break;
        case "=":
          // zsh (EQUALS) replaces a word that starts with `=cmd` by the path of cmd.
          if (this.pos === start && this.state.prefix !== true) literal = false;
          if (!sawEquals) {
            sawEquals = true;
            assignment = plain && ASSIGNMENT_NAME.test(text);
          }
          text += c;
          this.pos++;
          break;
        case "~":
          // bash expands a `~` at the start, and after the `=` of NAME=… or an unquoted `:` in its value, in
          // assignments and (outside POSIX mode) in arguments shaped like them: `echo a=~` prints `a=/root`.
          // zsh with EXTENDED_GLOB reads a `~` inside a word as a pattern operator: `a~b` names the file `a`
          // when there is one, so the word may also be the text before it (`rm~x` may run `rm`).
          if (this.pos === start || (assignment && (src[this.pos - 1] === "=" || src[this.pos - 1] === ":")))
            literal = false;
          else if (this.state.prefix !== true) beforeTilde ??= text;
          text += c;
          this.pos++;
          break;
        default:
          // `*`, `?`, `[` (globs), `{` (brace expansion), and zsh's EXTENDED_GLOB operators: `#` anywhere (`x#`
          // is any run of x) and `^` where a pattern starts, at the word's start or after a `/` (`^x` is every
          // name but x).
          if (this.state.prefix === true && (c === "^" || c === "#")) {
            // A rule's prefix: the author's plain characters.
          } else if (c !== "^" || this.pos === start || src[this.pos - 1] === "/") literal = false;
          text += c;
          this.pos++;
      }
    }
    return { text, literal, plain, assignment, raw: src.slice(start, this.pos), also: beforeTilde };
  }

  /** `"..."` at `pos`: `$`, backquote and `\` stay special. */
  private readDoubleQuoted(): { text: string; literal: boolean } {
    const src = this.src;
    const open = this.pos;
    this.pos++;
    let text = "";
    let literal = true;
    for (;;) {
      const c = src[this.pos];
      if (c === undefined) this.fail(`the double quote at offset ${open} is never closed`);
      if (c === '"') {
        this.pos++;
        return { text, literal };
      }
      if (c === "\\") {
        const next = src[this.pos + 1];
        if (next === "\n") this.pos += 2;
        else if (next === "$" || next === "`" || next === '"' || next === "\\") {
          text += next;
          this.pos += 2;
        } else {
          text += c;
          this.pos++;
        }
      } else if (c === "$") {
        const dollar = this.readDollar(true);
        text += dollar.text;
        if (!dollar.literal) literal = false;
      } else if (c === "`") {
        text += this.readBackquoted(true);
        literal = false;
      } else {
        text += c;
        this.pos++;
      }
    }
  }

  /** `$...` at `pos`: an expansion (non-literal) or a lone literal `$`. Returns its source text. */
  private readDollar(inDoubleQuotes: boolean): { text: string; literal: boolean } {
    const src = this.src;
    const start = this.pos;
    const next = src[start + 1];
    if (next === "(") {
      if (src[start + 2] === "(") {
        this.state.opaque = true;
        this.readArithmetic();
      } else this.parseSubstitution(start + 2, `the command substitution "$(" at offset ${start}`);
    } else if (next === "{") {
      this.readParameter(inDoubleQuotes);
    } else if (next === "'" && !inDoubleQuotes && this.state.dialect.ansiC) {
      // bash ANSI-C quoting: `\` escapes anything, including the quote.
      let i = start + 2;
      while (i < src.length && src[i] !== "'") i += src[i] === "\\" ? 2 : 1;
      if (i >= src.length) this.fail(`the quote $' at offset ${start} is never closed`);
      this.noteQuoted(start, i + 1);
      this.pos = i + 1;
    } else if (next === '"' && !inDoubleQuotes) {
      this.pos++;
      this.readDoubleQuoted();
    } else if (isNameStart(next)) {
      let i = start + 2;
      while (isNameChar(src[i])) i++;
      this.pos = i;
    } else if (isDigit(next) || (next !== undefined && "@*#?-$!".includes(next))) {
      this.pos = start + 2;
    } else if (next === "[") {
      this.fail(`"$[" at offset ${start} (old arithmetic) is not supported`);
    } else {
      this.pos++;
      // A `$` before any other character may start an expansion in some shell (zsh's `$=x`, `$~x`, `$^x`,
      // `$+x`): only the characters listed are known to leave it a plain `$`.
      return {
        text: "$",
        literal: LITERAL_AFTER_DOLLAR.includes(next ?? "") || (inDoubleQuotes && next === '"'),
      };
    }
    return { text: src.slice(start, this.pos), literal: false };
  }

  /** `$(` or `<(` / `>(` whose list starts at `from`: parses it and leaves `pos` after the `)`. */
  private parseSubstitution(from: number, opener: string): void {
    const inner = new ShellParser(this.src, this.enter("substitutions"), this.state);
    inner.pos = from;
    inner.parseList(")", true, opener);
    this.pos = inner.pos + 1;
  }

  /** `${...}` at `pos`; in double quotes a `'` inside is a quote only in bash's dialect. */
  private readParameter(inDoubleQuotes: boolean): void {
    const src = this.src;
    const open = this.pos;
    this.depth = this.enter("parameter expansions");
    this.pos += 2;
    const quotes = !inDoubleQuotes || this.state.dialect.quoteInQuotedParameter;
    for (;;) {
      const c = src[this.pos];
      if (c === undefined) this.fail(`the parameter expansion "\${" at offset ${open} is never closed`);
      if (c === "}") {
        this.pos++;
        this.depth--;
        if (!SIMPLE_PARAMETER.test(src.slice(open + 2, this.pos - 1))) this.state.opaque = true;
        return;
      }
      if (c === "\\") this.pos += 2;
      else if (c === "'" && quotes) {
        const close = src.indexOf("'", this.pos + 1);
        if (close === -1) this.fail(`the single quote at offset ${this.pos} is never closed`);
        // Inside "${…}" every shell removes a backslash-newline even where bash reads `'` as a quote.
        if (!inDoubleQuotes) this.noteQuoted(this.pos, close + 1);
        this.pos = close + 1;
      } else if (c === '"') this.readDoubleQuoted();
      else if (c === "$") this.readDollar(false);
      else if (c === "`") this.readBackquoted(false);
      else if (c === "{") this.fail(`"{" inside "\${" at offset ${open} is not supported`);
      else this.pos++;
    }
  }

  /** `$((...))` at `pos`: arithmetic; substitutions inside it are parsed. */
  private readArithmetic(): void {
    const src = this.src;
    const open = this.pos;
    this.depth = this.enter("arithmetic expansions");
    this.pos += 3;
    let depth = 0;
    for (;;) {
      const c = src[this.pos];
      if (c === undefined) this.fail(`the arithmetic expansion "$((" at offset ${open} is never closed`);
      if (c === "(") {
        depth++;
        this.pos++;
      } else if (c === ")") {
        if (depth > 0) {
          depth--;
          this.pos++;
        } else if (src[this.pos + 1] === ")") {
          this.pos += 2;
          this.depth--;
          return;
        } else {
          this.fail(
            `"$((" at offset ${open} is neither arithmetic nor clearly a nested subshell: write "$( (" with a space`,
          );
        }
      } else if (c === "$") this.readDollar(false);
      else if (c === "`") this.readBackquoted(false);
      else if (c === "'" || c === '"') this.fail(`quotes inside "$((" at offset ${open} are not supported`);
      else if (c === "\\") this.pos += 2;
      else this.pos++;
    }
  }

  /** A backquoted command substitution at `pos`; its commands are parsed and listed. Returns its source. */
  private readBackquoted(inDoubleQuotes: boolean): string {
    const src = this.src;
    const open = this.pos;
    let content = "";
    let i = open + 1;
    for (;;) {
      const c = src[i];
      if (c === undefined) this.fail(`the backquote at offset ${open} is never closed`);
      if (c === "`") break;
      if (c === "\\") {
        const next = src[i + 1];
        if (next === "`" || next === "$" || next === "\\" || (inDoubleQuotes && next === '"')) {
          content += next;
          i += 2;
          continue;
        }
        if (next === "\n") {
          i += 2;
          continue;
        }
      }
      content += c;
      i++;
    }
    this.pos = i + 1;
    const inner = new ShellParser(content, this.enter("substitutions"), this.state);
    try {
      inner.parseAll(true);
    } catch (error) {
      if (error instanceof ShellSyntaxError) {
        this.fail(`in the backquoted command at offset ${open}: ${error.message}`);
      }
      throw error;
    }
    return src.slice(open, this.pos);
  }
}

/**
 * Splits a shell command string into the simple commands a POSIX shell (or bash) would run, including those
 * nested in groups and substitutions (see the module comment for what is read and what is refused).
 *
 * @param source - the command string, for example the `script` argument of a shell tool.
 * @returns `{ ok: true, commands }` (never empty), or `{ ok: false, message }` saying what could not be
 *   read. Never throws.
 */
export function parseShellCommand(source: string, dialect: ShellDialect = BASH_DIALECT): ParseShellResult {
  const parsed = parse(source, dialect);
  return parsed instanceof ShellSyntaxError
    ? { ok: false, message: parsed.message }
    : { ok: true, commands: parsed.commands, opaque: parsed.opaque };
}

/**
 * Every reading of `source` that a supported shell could make: bash's, and when the string holds a token the
 * shells read differently (`${`, `$'`, `&>`), the POSIX readings too.
 *
 * @returns the readings (each one parsed), or the first refusal (a string that any reading cannot parse).
 */
export function readShellCommand(
  source: string,
):
  | { readonly ok: true; readonly readings: readonly Extract<ParseShellResult, { ok: true }>[] }
  | { readonly ok: false; readonly message: string } {
  const dialects = [BASH_DIALECT];
  // The tokens that tell the dialects apart, also when a backslash-newline splits them.
  const probe = source.includes("\\\n") ? source.replaceAll("\\\n", "") : source;
  if (probe.includes("${")) dialects.push(POSIX_BASH_DIALECT);
  if (probe.includes("$'") || probe.includes("&>")) dialects.push(DASH_DIALECT);
  const readings: Extract<ParseShellResult, { ok: true }>[] = [];
  for (const dialect of dialects) {
    const reading = parseShellCommand(source, dialect);
    if (!reading.ok) return reading;
    readings.push(reading);
  }
  return { ok: true, readings };
}

function parse(
  source: string,
  dialect: ShellDialect = BASH_DIALECT,
  prefix = false,
): ParseState | ShellSyntaxError {
  // Every shell removes a backslash-newline outside single quotes and comments before it reads the text.
  const joined = source.includes("\\\n")
    ? { ...joinContinuations(source, dialect.ansiC), kept: 0, removedInside: false }
    : undefined;
  const state: ParseState = { commands: [], syntax: 0, opaque: false, dialect, joined, prefix };
  try {
    new ShellParser(joined?.text ?? source, 0, state).parseAll(false);
  } catch (error) {
    if (error instanceof ShellSyntaxError) return error;
    throw error;
  }
  if (
    joined !== undefined &&
    (joined.removedInside || joined.kept !== countContinuations(joined.text, 0, joined.text.length))
  )
    return new ShellSyntaxError(
      "a backslash-newline stands where the shells may not agree whether it continues the line: write the command on one line",
    );
  return state;
}

/**
 * A policy's command prefix: its words, whether the command must end after them (`"npm test$"`), and, for
 * the object form `{ prefix, options }`, the only options (words starting with `-`) that may follow them.
 */
export interface CommandPrefix {
  readonly words: readonly string[];
  readonly exact: boolean;
  readonly options?: ReadonlySet<string>;
}

/** One entry of a `command` list as written in a policy: a prefix, or a prefix with the options it allows. */
export type CommandPrefixSpec = string | { readonly prefix: string; readonly options: readonly string[] };

/** Why an entry of a `command` list is refused; `at` is the key inside the object form it concerns. */
export type ParseCommandPrefixSpecResult =
  | { readonly ok: true; readonly prefix: CommandPrefix }
  | {
      readonly ok: false;
      readonly message: string;
      readonly at?: readonly ["prefix"] | readonly ["options", number];
    };

const PLAIN_PREFIX_HINT = 'must be plain words such as "git status" (no quotes, operators or expansions)';

/**
 * Reads one entry of a `command` list: a prefix string (see {@link parseCommandPrefix}) or the object form
 * `{ prefix: "git log", options: ["--oneline", "-n"] }`, whose options must each be one plain word starting
 * with `-`. An exact prefix (`$`) with options is refused: nothing may follow it.
 */
export function parseCommandPrefixSpec(spec: unknown): ParseCommandPrefixSpecResult {
  if (typeof spec === "string") {
    const prefix = parseCommandPrefix(spec);
    return prefix === null || prefix.words.length === 0
      ? { ok: false, message: `command prefix ${JSON.stringify(spec)} ${PLAIN_PREFIX_HINT}` }
      : { ok: true, prefix };
  }
  const shape =
    'a command prefix is a string such as "git status" or an object such as { prefix: "git log", options: ["--oneline"] }';
  if (spec === null || typeof spec !== "object" || Array.isArray(spec)) return { ok: false, message: shape };
  const { prefix: text, options } = spec as { prefix?: unknown; options?: unknown };
  const extra = Object.keys(spec).filter((key) => key !== "prefix" && key !== "options");
  if (extra.length > 0) return { ok: false, message: `unknown key ${JSON.stringify(extra[0])}: ${shape}` };
  if (typeof text !== "string") return { ok: false, message: `"prefix" is missing: ${shape}` };
  const prefix = parseCommandPrefix(text);
  if (prefix === null || prefix.words.length === 0)
    return {
      ok: false,
      at: ["prefix"],
      message: `command prefix ${JSON.stringify(text)} ${PLAIN_PREFIX_HINT}`,
    };
  if (!Array.isArray(options))
    return {
      ok: false,
      message: `command prefix ${JSON.stringify(text)} in object form needs "options", a list such as ["--oneline", "-n"] (for the prefix alone, write it as a string)`,
    };
  if (prefix.exact)
    return {
      ok: false,
      at: ["prefix"],
      message: `command prefix ${JSON.stringify(text)} ends with "$", so nothing may follow it, yet it lists options: drop the "$" or the options`,
    };
  const allowed = new Set<string>();
  for (const [i, option] of options.entries()) {
    const words = typeof option === "string" ? splitWords(option) : null;
    if (words === null || words.length !== 1 || !(words[0] as string).startsWith("-") || words[0] !== option)
      return {
        ok: false,
        at: ["options", i],
        message: `option ${JSON.stringify(option)} of command prefix ${JSON.stringify(text)} must be one plain word starting with "-", such as "--oneline" or "-n"`,
      };
    allowed.add(option);
  }
  return { ok: true, prefix: { words: prefix.words, exact: false, options: allowed } };
}

/**
 * Tokenises a policy's command prefix (`"git status"`, `"npm run test"`, `"npm test$"`) with the same shell
 * tokenizer. A `$` at the very end, outside quotes, makes the prefix exact: the command must end there.
 *
 * @returns the prefix, or `null` when the text is not a single plain list of literal words (it holds an
 *   operator, a group, a comment, an expansion, a glob, an assignment, a redirection, or nothing).
 */
export function parseCommandPrefix(prefix: string): CommandPrefix | null {
  // Callers checking YAML before its schema may pass anything: not a string is not a prefix.
  if (typeof prefix !== "string") return null;
  const trimmed = prefix.trimEnd();
  if (trimmed.endsWith("$")) {
    const words = splitWords(trimmed.slice(0, -1));
    if (words !== null) return { words, exact: true };
  }
  const words = splitWords(prefix);
  return words === null ? null : { words, exact: false };
}

/**
 * The words of a policy's command prefix (see {@link parseCommandPrefix}; an exact prefix's `$` is dropped).
 *
 * @returns the words, or `null` when the text is not a single plain list of literal words.
 */
export function splitCommandPrefix(prefix: string): readonly string[] | null {
  return parseCommandPrefix(prefix)?.words ?? null;
}

function splitWords(prefix: string): readonly string[] | null {
  const parsed = parse(prefix, BASH_DIALECT, true);
  if (parsed instanceof ShellSyntaxError || parsed.syntax > 0 || parsed.commands.length !== 1) return null;
  const command = parsed.commands[0] as SimpleCommand;
  if (command.assignments > 0 || command.redirections.length > 0 || command.words.length === 0) return null;
  const words: string[] = [];
  for (const word of command.words) {
    if (!word.literal) return null;
    words.push(word.text);
  }
  return words;
}
