// Security table of the `command` operator: programs that run some of their arguments as code, and which
// arguments do. Such an argument makes an allow uncertain unless the rule's prefix spells it out (so a policy
// author who wants `make` with a variable assignment writes the assignment in the prefix), and for deny and ask
// it is read as the code it is: shell text with the shell reader itself, anything else as "may run anything".
// This is policy, not parsing: each entry is a judgement a reviewer can check here without reading the reader.
//
// The kinds of code an argument can hold:
// - `shell`: text the program hands to `sh -c` (git's `-c core.pager=…`, make's `CC=…`, find's `-exec … ;` is
//   `argv`); a `name=value` word is read as its value too, and a leading `!`, `+`, `|`, `@` or `-` (git's
//   `!alias`, less's `|filter`, make's recipe prefixes) is taken off;
// - `argv`: the words that follow are a command and its arguments (`find -exec rm {} ;`, `git bisect run`);
// - `opaque`: code of another language (vim's Ex commands, make's `--eval`), or a file of it: it may run
//   anything;
// - `file`: a file of code for the program (make's `-f`): it may run anything when the same string may have
//   written the file.

/** How an argument holds code; see the module comment. */
export type CodeKind = "shell" | "argv" | "opaque" | "file";

/** The arguments of one program (or subcommand) that hold code. */
export interface ProgramForms {
  /**
   * Options whose value holds code: the next word (`-c x=y`), or attached (`--exec=cmd`, `-xcmd`). A value
   * given only attached (git grep's `-O`) is marked with `attachedOnly`.
   */
  readonly valued?: ReadonlyMap<string, CodeKind>;
  /** Options that take the next word as a value that is not code (so that the value is not read as an operand). */
  readonly data?: readonly string[];
  /** Options whose value, when attached, is code, while alone they take none (`git grep -O`, `--exec-path`). */
  readonly attachedOnly?: ReadonlyMap<string, CodeKind>;
  /** Operands holding `=` are code of this kind (make's variable assignments, honoured even after `--`). */
  readonly assignments?: CodeKind;
  /**
   * Words starting with `+` are code of this kind (vim's `+cmd`), except the inert ones: `+`, `+N` (a line)
   * and `+/text` (a search), and the letters listed (less's `+G`).
   */
  readonly plus?: { readonly kind: CodeKind; readonly inertLetters?: string };
  /** Operands after the options are a command (`argv`) or one shell string (`shell`, words joined by blanks). */
  readonly operands?: CodeKind;
  /** `argv` options end at one of these words (find's `-exec … ;`); at the end of the command otherwise. */
  readonly argvEnd?: readonly string[];
  /** The first operand names a subcommand; the subcommands listed have arguments of their own that hold code. */
  readonly subcommands?: ReadonlyMap<string, ProgramForms>;
  /** Words anywhere after the program's name that are code by their start (git's `ext::cmd` remote). */
  readonly anywhere?: readonly (readonly [string, CodeKind])[];
}

const VIM: ProgramForms = {
  valued: new Map<string, CodeKind>([
    ["-c", "opaque"],
    ["--cmd", "opaque"],
    ["-S", "opaque"],
    ["-u", "opaque"],
    ["-U", "opaque"],
    ["-s", "opaque"],
    ["-l", "opaque"],
    ["--remote-send", "opaque"],
    ["--remote-expr", "opaque"],
  ]),
  plus: { kind: "opaque" },
};

const PAGER: ProgramForms = {
  valued: new Map<string, CodeKind>([
    ["-k", "opaque"],
    ["--lesskey-file", "opaque"],
  ]),
  plus: { kind: "opaque", inertLetters: "GFg" },
};

const MAKE: ProgramForms = {
  valued: new Map<string, CodeKind>([
    ["-E", "opaque"],
    ["--eval", "opaque"],
    ["-f", "file"],
    ["--file", "file"],
    ["--makefile", "file"],
  ]),
  data: ["-C", "--directory", "-I", "--include-dir", "-o", "--old-file", "--assume-old", "-W", "--what-if"],
  assignments: "shell",
};

const GIT_FETCH: ProgramForms = { valued: new Map([["--upload-pack", "shell"]]) };
const GIT_PUSH: ProgramForms = {
  valued: new Map<string, CodeKind>([
    ["--receive-pack", "shell"],
    ["--exec", "shell"],
  ]),
};

const GIT: ProgramForms = {
  valued: new Map<string, CodeKind>([
    ["-c", "shell"],
    ["--config-env", "opaque"],
  ]),
  attachedOnly: new Map([["--exec-path", "opaque"]]),
  data: ["-C", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--attr-source", "--list-cmds"],
  anywhere: [["ext::", "opaque"]],
  subcommands: new Map<string, ProgramForms>([
    [
      "rebase",
      {
        valued: new Map<string, CodeKind>([
          ["-x", "shell"],
          ["--exec", "shell"],
        ]),
      },
    ],
    ["bisect", { subcommands: new Map([["run", { operands: "argv" }]]) }],
    ["submodule", { subcommands: new Map([["foreach", { operands: "shell" }]]) }],
    [
      "difftool",
      {
        valued: new Map<string, CodeKind>([
          ["-x", "shell"],
          ["--extcmd", "shell"],
        ]),
      },
    ],
    ["fetch", GIT_FETCH],
    ["pull", GIT_FETCH],
    ["fetch-pack", GIT_FETCH],
    ["ls-remote", GIT_FETCH],
    [
      "clone",
      {
        valued: new Map<string, CodeKind>([
          ["-u", "shell"],
          ["--upload-pack", "shell"],
        ]),
      },
    ],
    ["push", GIT_PUSH],
    ["send-pack", GIT_PUSH],
    ["archive", { valued: new Map([["--exec", "shell"]]) }],
    [
      "grep",
      {
        attachedOnly: new Map<string, CodeKind>([
          ["-O", "shell"],
          ["--open-files-in-pager", "shell"],
        ]),
      },
    ],
    [
      "filter-branch",
      {
        valued: new Map<string, CodeKind>(
          ["env", "tree", "index", "parent", "msg", "commit", "tag-name"].map((f) => [
            `--${f}-filter`,
            "shell",
          ]),
        ),
      },
    ],
    [
      "send-email",
      {
        valued: new Map<string, CodeKind>(
          ["--sendmail-cmd", "--to-cmd", "--cc-cmd", "--header-cmd", "--smtp-server"].map((o) => [
            o,
            "shell",
          ]),
        ),
      },
    ],
    [
      "instaweb",
      {
        valued: new Map<string, CodeKind>([
          ["-d", "shell"],
          ["--httpd", "shell"],
          ["-b", "shell"],
          ["--browser", "shell"],
        ]),
      },
    ],
  ]),
};

const FIND_EXEC = new Map<string, CodeKind>(["-exec", "-execdir", "-ok", "-okdir"].map((o) => [o, "argv"]));

/** ssh's `-o ProxyCommand=…` (and `LocalCommand`, `KnownHostsCommand`), `-F` a configuration file. */
const SSH: ProgramForms = {
  valued: new Map<string, CodeKind>([
    ["-o", "shell"],
    ["-F", "file"],
  ]),
};
/** scp and sftp as ssh, and `-S` the program to use for the connection (sftp's `-D` the server to run). */
const SCP: ProgramForms = {
  valued: new Map<string, CodeKind>([
    ["-o", "shell"],
    ["-F", "file"],
    ["-S", "shell"],
  ]),
};
const SFTP: ProgramForms = { valued: new Map<string, CodeKind>([...(SCP.valued ?? []), ["-D", "shell"]]) };

/**
 * Programs that run some of their arguments as code, by the base name of the command word in lower case (a
 * case-insensitive file system runs `VIM` as `vim`).
 */
export const CODE_ARGUMENT_PROGRAMS: ReadonlyMap<string, ProgramForms> = new Map<string, ProgramForms>([
  ["make", MAKE],
  ["gmake", MAKE],
  ["bmake", MAKE],
  ["pmake", MAKE],
  ["vim", VIM],
  ["vi", VIM],
  ["vim.basic", VIM],
  ["vim.tiny", VIM],
  ["view", VIM],
  ["rview", VIM],
  ["vimdiff", VIM],
  ["rvim", VIM],
  ["ex", VIM],
  ["gvim", VIM],
  ["nvim", VIM],
  ["more", PAGER],
  ["less", PAGER],
  [
    "man",
    {
      valued: new Map<string, CodeKind>([
        ["-P", "shell"],
        ["--pager", "shell"],
        ["-H", "shell"],
        ["--html", "shell"],
      ]),
    },
  ],
  ["git", GIT],
  ["find", { valued: FIND_EXEC, argvEnd: [";", "+"] }],
  [
    "tar",
    {
      valued: new Map<string, CodeKind>([
        ["--to-command", "shell"],
        ["-I", "shell"],
        ["--use-compress-program", "shell"],
        ["--checkpoint-action", "shell"],
        ["-F", "shell"],
        ["--info-script", "shell"],
        ["--new-volume-script", "shell"],
        ["--rsh-command", "shell"],
      ]),
    },
  ],
  [
    "rsync",
    {
      valued: new Map<string, CodeKind>([
        ["-e", "shell"],
        ["--rsh", "shell"],
        ["--rsync-path", "shell"],
      ]),
    },
  ],
  ["ssh", SSH],
  ["scp", SCP],
  ["sftp", SFTP],
]);

/**
 * Environment variables whose value is data to every program that reads it (a locale, a time zone, a colour
 * switch, an author's name): an assignment to one is not read as code. The value of any other variable is
 * read as shell code (a program may run `PAGER`, `EDITOR`, `GIT_EXTERNAL_DIFF`, `LESSOPEN`, `PS4`, … through
 * `sh -c`), and a value the reader cannot read may run anything. Names starting with `LC_` are data too.
 */
export const DATA_ENVIRONMENT: ReadonlySet<string> = new Set([
  "LANG",
  "LANGUAGE",
  "TZ",
  "TERM",
  "COLUMNS",
  "LINES",
  "CI",
  "NODE_ENV",
  "RAILS_ENV",
  "RACK_ENV",
  "DEBUG",
  "FORCE_COLOR",
  "NO_COLOR",
  "CLICOLOR",
  "CLICOLOR_FORCE",
  "COLORTERM",
  "GIT_AUTHOR_NAME",
  "GIT_AUTHOR_EMAIL",
  "GIT_AUTHOR_DATE",
  "GIT_COMMITTER_NAME",
  "GIT_COMMITTER_EMAIL",
  "GIT_COMMITTER_DATE",
  "SOURCE_DATE_EPOCH",
  "RUST_LOG",
  "RUST_BACKTRACE",
  "PYTHONUNBUFFERED",
  "PYTHONDONTWRITEBYTECODE",
]);

/**
 * Environment variables whose value says where programs, libraries, modules or start-up files are found, or
 * adds options to every run of a program (`PATH=.`, `LD_PRELOAD=./x.so`, `HOME=./x` for git's configuration,
 * `NODE_OPTIONS=--require=./x.js`, `BASH_ENV`, `MAKEFLAGS`): a command run with one set may run anything. Names
 * starting with `LD_`, `GIT_CONFIG_`, `npm_config_` or `NPM_CONFIG_` count too.
 */
export const CODE_LOCATING_ENVIRONMENT: ReadonlySet<string> = new Set([
  "PATH",
  "HOME",
  "XDG_CONFIG_HOME",
  "XDG_CONFIG_DIRS",
  "ZDOTDIR",
  "BASH_ENV",
  "ENV",
  "SHELLOPTS",
  "BASHOPTS",
  "IFS",
  "NODE_OPTIONS",
  "NODE_PATH",
  "PYTHONPATH",
  "PYTHONHOME",
  "PYTHONSTARTUP",
  "PERL5OPT",
  "PERL5LIB",
  "PERLLIB",
  "RUBYOPT",
  "RUBYLIB",
  "GIT_EXEC_PATH",
  "GIT_DIR",
  "GIT_CONFIG",
  "GIT_TEMPLATE_DIR",
  "MAKEFLAGS",
  "MFLAGS",
  "GNUMAKEFLAGS",
  "MAKEFILES",
  "VIMINIT",
  "EXINIT",
  "MYVIMRC",
  "LESSKEY",
]);

const CODE_LOCATING_PREFIXES = ["LD_", "GIT_CONFIG_", "npm_config_", "NPM_CONFIG_"];

/** Whether an assignment to `name` may make the command it applies to run anything (see above). */
export function isCodeLocatingVariable(name: string): boolean {
  return CODE_LOCATING_ENVIRONMENT.has(name) || CODE_LOCATING_PREFIXES.some((p) => name.startsWith(p));
}

/** Whether the value of `name` is data to every program (see {@link DATA_ENVIRONMENT}). */
export function isDataVariable(name: string): boolean {
  return DATA_ENVIRONMENT.has(name) || name.startsWith("LC_");
}

/**
 * One argument that holds code: it spans the words `[from, to)` of the command (an option and its value), the
 * code starts at word `valueFrom` (an attached value starts inside word `from`), and `text` is the code.
 */
export interface CodeArgument {
  readonly kind: CodeKind;
  readonly from: number;
  readonly valueFrom: number;
  readonly to: number;
  /** The value (of `-c`, attached, of `+cmd`, after `ext::`), or the code's words joined by blanks. */
  readonly text: string;
}

/** `+`, `+N` (a line) and `+/text` (a search) open a file somewhere; they run nothing. */
const INERT_PLUS = /^\+(?:[0-9]*|\/.*)$/;

/**
 * Calls `visit` for every argument of a command (its literal words, the program name first) that holds code
 * according to {@link CODE_ARGUMENT_PROGRAMS}; nothing for a program not in the table. Stops when `visit`
 * returns true.
 */
export function forEachCodeArgument(
  words: readonly string[],
  visit: (argument: CodeArgument) => boolean,
): void {
  const name = words[0];
  if (name === undefined) return;
  const forms = programForms(name);
  if (forms !== undefined) walkForms(forms, forms.anywhere, words, 1, visit);
}

/** The code-argument forms of the program a command word names, if it is in {@link CODE_ARGUMENT_PROGRAMS}. */
export function programForms(commandWord: string): ProgramForms | undefined {
  const base = commandWord.slice(commandWord.lastIndexOf("/") + 1);
  // Another case of a listed name (`VIM` on a case-insensitive file system) is the same program.
  return CODE_ARGUMENT_PROGRAMS.get(base) ?? CODE_ARGUMENT_PROGRAMS.get(base.toLowerCase());
}

/**
 * Walks the arguments from `start` with `forms`, and the program's `anywhere` forms (which still apply after its
 * subcommand); returns when `visit` asks to stop.
 */
function walkForms(
  forms: ProgramForms,
  anywhere: ProgramForms["anywhere"],
  words: readonly string[],
  start: number,
  visit: (argument: CodeArgument) => boolean,
): void {
  let options = true;
  let firstOperand = true;
  for (let i = start; i < words.length; i++) {
    const word = words[i] as string;
    for (const [begin, kind] of anywhere ?? []) {
      if (word.startsWith(begin) && visit(single(kind, i, word.slice(begin.length)))) return;
    }
    if (options && word === "--") {
      options = false;
    } else if (options && word.length > 1 && word[0] === "-") {
      const option = readOption(forms, words, i);
      if (option === undefined) continue;
      if (option.kind !== undefined && visit(option as CodeArgument)) return;
      i = option.to - 1;
    } else if (forms.assignments !== undefined && word.includes("=")) {
      if (visit(single(forms.assignments, i, word))) return;
    } else if (forms.plus !== undefined && word[0] === "+" && !inertPlus(word, forms.plus.inertLetters)) {
      if (visit(single(forms.plus.kind, i, word.slice(1)))) return;
    } else if (forms.operands !== undefined) {
      const text = words.slice(i).join(" ");
      visit({ kind: forms.operands, from: i, valueFrom: i, to: words.length, text });
      return;
    } else if (firstOperand) {
      // Only the first operand names a subcommand.
      firstOperand = false;
      const sub = forms.subcommands?.get(word);
      if (sub !== undefined) {
        walkForms(sub, anywhere, words, i + 1, visit);
        return;
      }
    }
  }
}

function single(kind: CodeKind, i: number, text: string): CodeArgument {
  return { kind, from: i, valueFrom: i, to: i + 1, text };
}

function inertPlus(word: string, letters: string | undefined): boolean {
  return INERT_PLUS.test(word) || (word.length === 2 && letters?.includes(word[1] as string) === true);
}

/**
 * The option word at `i` and what it takes: a code argument when it holds code (`kind` set), or only where it
 * ends when it takes a data value; undefined for an option that takes no value. A cluster of short options
 * (`-avze cmd`, `-xcmd`) is read as getopt reads it: a letter that takes a value takes the rest of the word, or
 * the next word.
 */
function readOption(
  forms: ProgramForms,
  words: readonly string[],
  i: number,
): { kind: CodeKind | undefined; from: number; valueFrom: number; to: number; text: string } | undefined {
  const word = words[i] as string;
  const next = (kind: CodeKind | undefined) => {
    const to = kind === "argv" ? argvEnd(forms, words, i + 1) : Math.min(i + 2, words.length);
    const text = kind === "argv" ? words.slice(i + 1, to).join(" ") : (words[i + 1] ?? "");
    return { kind, from: i, valueFrom: i + 1, to, text };
  };
  const exact = forms.valued?.get(word);
  if (exact !== undefined) return next(exact);
  if (forms.data?.includes(word) === true) return next(undefined);
  if (word.startsWith("--")) {
    const equals = word.indexOf("=");
    if (equals === -1) return undefined;
    const name = word.slice(0, equals);
    // An option not listed (`--jobs=4`) ends at this word as well: no kind.
    const kind = forms.valued?.get(name) ?? forms.attachedOnly?.get(name);
    return { kind, from: i, valueFrom: i, to: i + 1, text: word.slice(equals + 1) };
  }
  for (let j = 1; j < word.length; j++) {
    const option = `-${word[j]}`;
    const kind =
      forms.valued?.get(option) ?? (j + 1 < word.length ? forms.attachedOnly?.get(option) : undefined);
    if (kind === undefined && forms.data?.includes(option) !== true) continue;
    if (j + 1 < word.length) return { kind, from: i, valueFrom: i, to: i + 1, text: word.slice(j + 1) };
    return next(kind);
  }
  return undefined;
}

/** Where an `argv` value that starts at `from` ends: after a listed end word, or at the end of the command. */
function argvEnd(forms: ProgramForms, words: readonly string[], from: number): number {
  for (let k = from; k < words.length; k++) {
    if (forms.argvEnd?.includes(words[k] as string) === true) return k + 1;
  }
  return words.length;
}
