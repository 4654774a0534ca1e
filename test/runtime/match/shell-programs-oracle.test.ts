// Oracle for the table of programs that run some of their arguments as code, and for the environment variable
// tables (src/runtime/match/shell/programs.ts). Every input is written out here, never derived from the table:
// a changed entry changes the decision, not the expectation. `reboot` stands for a command a deny rule names;
// no input here is run.
import { describe, expect, it } from "vitest";
import { forEachCodeArgument } from "../../../src/runtime/match/shell/programs.js";
import { allowCertain, denyMay } from "./shell-decide.js";

describe("an argument a program runs as code makes an allow of the program's name uncertain", () => {
  it.each([
    // make and its other names: a variable assignment (honoured after `--` too), --eval, a makefile
    ["make CC=true", "make"],
    ["gmake CC=true", "gmake"],
    ["bmake CC=true", "bmake"],
    ["pmake CC=true", "pmake"],
    ["make -- X=1", "make"],
    ["make -E x", "make"],
    ["make --eval x", "make"],
    ["make --eval=x", "make"],
    ["make -f x.mk", "make"],
    ["make -fx.mk", "make"],
    ["make --file x.mk", "make"],
    ["make --file=x.mk", "make"],
    ["make --makefile x.mk", "make"],
    // vim and its other names: +cmd, and the options that take Ex commands or a script
    ["vim +q f", "vim"],
    ["vi +q f", "vi"],
    ["vim.basic +q f", "vim.basic"],
    ["vim.tiny +q f", "vim.tiny"],
    ["view +q f", "view"],
    ["rview +q f", "rview"],
    ["vimdiff +q f", "vimdiff"],
    ["rvim +q f", "rvim"],
    ["ex +q f", "ex"],
    ["gvim +q f", "gvim"],
    ["nvim +q f", "nvim"],
    ["vim +G f", "vim"],
    ["vim -c q f", "vim"],
    ["vim --cmd q f", "vim"],
    ["vim -S s.vim", "vim"],
    ["vim -u r.vim f", "vim"],
    ["vim -U g.vim f", "vim"],
    ["vim -s keys f", "vim"],
    ["vim -l x.lua", "vim"],
    ["vim --remote-send q", "vim"],
    ["vim --remote-expr q", "vim"],
    ["vim -cq f", "vim"],
    // the pagers: +cmd (but the inert letters), a lesskey file
    ["less +q f", "less"],
    ["more +q f", "more"],
    ["less +Gq f", "less"],
    ["less -k keys f", "less"],
    ["more -k keys f", "more"],
    ["less --lesskey-file keys f", "less"],
    // man's pager and browser
    ["man -P true ls", "man"],
    ["man --pager true ls", "man"],
    ["man --pager=true ls", "man"],
    ["man -H true ls", "man"],
    ["man --html true ls", "man"],
    // git's own options, and ext:: remotes anywhere
    ["git -c a.b=c log", "git"],
    ["git -ca.b=c log", "git"],
    ["git --config-env a.b=C log", "git"],
    ["git --exec-path=/x log", "git"],
    ["git clone ext::x y", "git clone"],
    ["git fetch ext::x", "git fetch"],
    ["git ls-remote ext::x", "git"],
    // git's subcommands
    ["git rebase -x true main", "git rebase"],
    ["git rebase --exec true main", "git rebase"],
    ["git rebase --exec=true main", "git rebase"],
    ["git rebase -xtrue main", "git rebase"],
    ["git bisect run true", "git bisect"],
    ["git bisect run true", "git bisect run"],
    ["git submodule foreach true", "git submodule"],
    ["git submodule foreach true", "git submodule foreach"],
    ["git difftool -x true", "git difftool"],
    ["git difftool --extcmd true", "git difftool"],
    ["git fetch --upload-pack true origin", "git fetch"],
    ["git pull --upload-pack true origin", "git pull"],
    ["git fetch-pack --upload-pack true origin", "git fetch-pack"],
    ["git ls-remote --upload-pack true origin", "git ls-remote"],
    ["git clone -u true origin", "git clone"],
    ["git clone --upload-pack true origin", "git clone"],
    ["git push --receive-pack true origin", "git push"],
    ["git push --exec true origin", "git push"],
    ["git send-pack --receive-pack true origin", "git send-pack"],
    ["git send-pack --exec true origin", "git send-pack"],
    ["git archive --exec true HEAD", "git archive"],
    ["git grep -Otrue x", "git grep"],
    ["git grep --open-files-in-pager=true x", "git grep"],
    ["git filter-branch --env-filter true", "git filter-branch"],
    ["git filter-branch --tree-filter true", "git filter-branch"],
    ["git filter-branch --index-filter true", "git filter-branch"],
    ["git filter-branch --parent-filter true", "git filter-branch"],
    ["git filter-branch --msg-filter true", "git filter-branch"],
    ["git filter-branch --commit-filter true", "git filter-branch"],
    ["git filter-branch --tag-name-filter true", "git filter-branch"],
    ["git send-email --sendmail-cmd true x.patch", "git send-email"],
    ["git send-email --to-cmd true x.patch", "git send-email"],
    ["git send-email --cc-cmd true x.patch", "git send-email"],
    ["git send-email --header-cmd true x.patch", "git send-email"],
    ["git send-email --smtp-server true x.patch", "git send-email"],
    ["git instaweb -d true", "git instaweb"],
    ["git instaweb --httpd true", "git instaweb"],
    ["git instaweb -b true", "git instaweb"],
    ["git instaweb --browser true", "git instaweb"],
    // find's actions
    ["find . -exec true ;", "find"],
    ["find . -execdir true ;", "find"],
    ["find . -ok true ;", "find"],
    ["find . -okdir true ;", "find"],
    // tar's programs and scripts
    ["tar -xf a.tar --to-command true", "tar"],
    ["tar -I true -xf a.tar", "tar"],
    ["tar -xItrue -f a.tar", "tar"],
    ["tar --use-compress-program true -xf a.tar", "tar"],
    ["tar --checkpoint-action true -xf a.tar", "tar"],
    ["tar -F true -xf a.tar", "tar"],
    ["tar --info-script true -xf a.tar", "tar"],
    ["tar --new-volume-script true -xf a.tar", "tar"],
    ["tar --rsh-command true -xf a.tar", "tar"],
    // rsync's remote shell and remote program
    ["rsync -e true a b", "rsync"],
    ["rsync -avze true a b", "rsync"],
    ["rsync --rsh true a b", "rsync"],
    ["rsync --rsync-path true a b", "rsync"],
    // ssh, scp, sftp
    ["ssh -o ProxyCommand=true h", "ssh"],
    ["ssh -F cfg h", "ssh"],
    ["scp -o ProxyCommand=true a h:b", "scp"],
    ["scp -F cfg a h:b", "scp"],
    ["scp -S true a h:b", "scp"],
    ["sftp -o ProxyCommand=true h", "sftp"],
    ["sftp -F cfg h", "sftp"],
    ["sftp -S true h", "sftp"],
    ["sftp -D true h", "sftp"],
    // a listed name in another case, or after a path
    ["VIM +q f", "VIM"],
    ["Make CC=true", "Make"],
    ["mAke CC=true", "mAke"],
    ["/usr/bin/vim +q f", "/usr/bin/vim"],
  ])("%s, allow %s", (source, allow) => {
    expect(allowCertain(source, allow)).toBe(false);
  });
});

describe("the inert forms of those programs stay certain", () => {
  it.each([
    ["make", "make"],
    ["make -j4 all", "make"],
    ["gmake all", "gmake"],
    // options whose value is data, even when it holds `=`
    ["make -C a=b all", "make"],
    ["make --directory a=b all", "make"],
    ["make -I a=b all", "make"],
    ["make --include-dir a=b all", "make"],
    ["make -o a=b all", "make"],
    ["make --old-file a=b all", "make"],
    ["make --assume-old a=b all", "make"],
    ["make -W a=b all", "make"],
    ["make --what-if a=b all", "make"],
    ["make -sC a=b all", "make"],
    // vim and the pagers: a line, a search, a lone +; less's +G, +F, +g
    ["vim f", "vim"],
    ["vim +42 f", "vim"],
    ["vim + f", "vim"],
    ["vim +/main f", "vim"],
    ["less +G f", "less"],
    ["less +F f", "less"],
    ["less +g f", "less"],
    ["more +G f", "more"],
    ["less +42 f", "less"],
    ["less -N f", "less"],
    ["vim -R f", "vim"],
    // git: options whose value is data (a directory named like a subcommand is not one)
    ["git -C rebase -x true status", "git"],
    ["git --git-dir rebase -x true status", "git"],
    ["git --work-tree rebase -x true status", "git"],
    ["git --namespace rebase -x true status", "git"],
    ["git --super-prefix rebase -x true status", "git"],
    ["git --attr-source rebase -x true status", "git"],
    ["git --list-cmds rebase -x true status", "git"],
    // git: only the first operand names a subcommand; -O and --exec-path alone take no value
    ["git log rebase -x true", "git log"],
    ["git status", "git status"],
    ["git grep -O x", "git grep"],
    ["git grep --open-files-in-pager x", "git grep"],
    ["git --exec-path log", "git"],
    ["git rebase main", "git rebase"],
    ["git rebase -i main", "git rebase"],
    ["git fetch origin", "git fetch"],
    ["git clone -q origin", "git clone"],
    ["git push -u origin main", "git push"],
    ["git bisect good", "git bisect"],
    ["git submodule update", "git submodule"],
    ["git grep -n x", "git grep"],
    ["git difftool --tool vimdiff", "git difftool"],
    // find without actions; tar, rsync, ssh, man without the code options
    ["find . -name x", "find"],
    ["tar -xzf a.tar", "tar"],
    ["rsync -av a b", "rsync"],
    ["ssh -p 22 h", "ssh"],
    ["scp -P 22 a h:b", "scp"],
    ["sftp -P 22 h", "sftp"],
    ["man -k ls", "man"],
    // a program not in the table keeps its assignments as operands
    ["nmake CC=true", "nmake"],
  ])("%s, allow %s", (source, allow) => {
    expect(allowCertain(source, allow)).toBe(true);
  });

  it("is certain when the allow spells the code argument out, up to where it ends", () => {
    expect(allowCertain("make CC=true", "make CC=true")).toBe(true);
    expect(allowCertain("git rebase -x true main", "git rebase -x true")).toBe(true);
    expect(allowCertain("git rebase -x true main", "git rebase -x")).toBe(false);
    expect(allowCertain("git bisect run true", "git bisect run true")).toBe(true);
    expect(allowCertain("git bisect run true x", "git bisect run true")).toBe(false);
    expect(allowCertain("vim +q f", "vim +q")).toBe(true);
    // find's action ends at `;` or `+`; what follows is not part of it
    expect(allowCertain("find . -exec true ';' -print", ["find", ".", "-exec", "true", ";"])).toBe(true);
    expect(allowCertain("find . -exec true x + -print", ["find", ".", "-exec", "true", "x", "+"])).toBe(true);
    expect(allowCertain("find . -exec true x -print", ["find", ".", "-exec", "true", "x"])).toBe(false);
    expect(allowCertain("find . -exec true ';' -exec true ';'", ["find", ".", "-exec", "true", ";"])).toBe(
      false,
    );
  });
});

describe("code in another language or a file of code may run anything, so any deny may match", () => {
  it.each([
    "make -E x",
    "make --eval x",
    "make --eval=x",
    "make -f x.mk",
    "make -fx.mk",
    "make --file x.mk",
    "make --makefile x.mk",
    "make --makefile=x.mk",
    "vim +q f",
    "vim -c q f",
    "vim --cmd q f",
    "vim -S s.vim",
    "vim -u r.vim f",
    "vim -U g.vim f",
    "vim -s keys f",
    "vim -l x.lua",
    "vim --remote-send q",
    "vim --remote-expr q",
    "nvim +q f",
    "less +q f",
    "more +q f",
    "less -k keys f",
    "less --lesskey-file keys f",
    "less --lesskey-file=keys f",
    "git --config-env a.b=C log",
    "git --exec-path=/x log",
    "git clone ext::x y",
    "git fetch ext::x",
    "git -C d push ext::x",
    "ssh -F cfg h",
    "scp -F cfg a h:b",
    "sftp -F cfg h",
    "VIM +q f",
  ])("%s", (source) => {
    expect(denyMay(source, "reboot")).toBe(true);
  });
});

describe("shell text and commands a program runs are read as what they run", () => {
  it.each([
    // the value, read with the shell reader, runs nothing a deny of reboot names
    "make CC=true",
    "make -- X=true",
    "git -c a.b=true log",
    "git rebase -x true main",
    "git rebase -xtrue main",
    "git bisect run true",
    "git submodule foreach true",
    "git submodule foreach re boot",
    "git grep -Otrue x",
    "man -Ptrue ls",
    "find . -exec true ';'",
    "find . -okdir true +",
    "tar -xItrue -f a.tar",
    "rsync -etrue a b",
    "scp -Strue a h:b",
    "sftp -Dtrue h",
    "vim +42 f",
    "less +G f",
  ])("%s runs no reboot", (source) => {
    expect(denyMay(source, "reboot")).toBe(false);
  });

  // Attached values hold no blank or `=`: only the table says they are code.
  it.each([
    "git rebase -xreboot main",
    "git difftool -xreboot",
    "git clone -ureboot origin",
    "git instaweb -dreboot",
    "git instaweb -breboot",
    "git grep -Oreboot x",
    "man -Preboot ls",
    "man -Hreboot ls",
    "tar -xIreboot -f a.tar",
    "tar -Freboot -xf a.tar",
    "rsync -avzereboot a b",
    "scp -Sreboot a h:b",
    "sftp -Sreboot h",
    "sftp -Dreboot h",
    "git submodule foreach reboot",
    "git bisect run reboot",
    "git -C d rebase -xreboot main",
  ])("%s may run reboot", (source) => {
    expect(denyMay(source, "reboot")).toBe(true);
  });
});

describe("environment variables: data, code that locates programs, or shell text", () => {
  // The value of a data variable is never run: `reboot` there is a word.
  it.each([
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
    "LC_ALL",
    "LC_TIME",
  ])("%s=reboot is data", (name) => {
    expect(denyMay(`${name}=reboot ls`, "reboot")).toBe(false);
  });

  // A variable that says where programs, libraries or start-up files are: the command may run anything.
  it.each([
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
    "LD_PRELOAD",
    "LD_LIBRARY_PATH",
    "GIT_CONFIG_COUNT",
    "GIT_CONFIG_PARAMETERS",
    "npm_config_script_shell",
    "NPM_CONFIG_SCRIPT_SHELL",
  ])("%s=x may run anything", (name) => {
    expect(denyMay(`${name}=x ls`, "reboot")).toBe(true);
    expect(denyMay(`export ${name}=x`, "reboot")).toBe(true);
  });

  it("reads any other variable's value as shell text", () => {
    expect(denyMay("PAGER=reboot git log", "reboot")).toBe(true);
    expect(denyMay("PAGER=true git log", "reboot")).toBe(false);
    expect(denyMay("X_LD_=x ls", "reboot")).toBe(false);
    expect(denyMay("XLC_=reboot ls", "reboot")).toBe(true);
    expect(denyMay("LANGX=reboot ls", "reboot")).toBe(true);
    expect(denyMay("XPATH=x ls", "reboot")).toBe(false);
    expect(denyMay("export PAGER=reboot", "reboot")).toBe(true);
    expect(denyMay("export PAGER=true", "reboot")).toBe(false);
  });
});

describe("each option whose value is shell text is read as that text, not as anything", () => {
  it.each([
    "git fetch --upload-pack true origin",
    "git pull --upload-pack true origin",
    "git fetch-pack --upload-pack true origin",
    "git ls-remote --upload-pack true origin",
    "git clone -u true origin",
    "git clone --upload-pack true origin",
    "git push --receive-pack true origin",
    "git push --exec true origin",
    "git send-pack --receive-pack true origin",
    "git send-pack --exec true origin",
    "git rebase --exec true main",
    "git difftool -x true",
    "git difftool --extcmd true",
    "git archive --exec true HEAD",
    "git grep --open-files-in-pager=true x",
    "git filter-branch --env-filter true",
    "git filter-branch --tree-filter true",
    "git filter-branch --index-filter true",
    "git filter-branch --parent-filter true",
    "git filter-branch --msg-filter true",
    "git filter-branch --commit-filter true",
    "git filter-branch --tag-name-filter true",
    "git send-email --sendmail-cmd true x.patch",
    "git send-email --to-cmd true x.patch",
    "git send-email --cc-cmd true x.patch",
    "git send-email --header-cmd true x.patch",
    "git send-email --smtp-server true x.patch",
    "git instaweb -d true",
    "git instaweb --httpd true",
    "git instaweb -b true",
    "git instaweb --browser true",
    "man -P true ls",
    "man --pager true ls",
    "man -H true ls",
    "man --html true ls",
    "tar -xf a.tar --to-command true",
    "tar -I true -xf a.tar",
    "tar --use-compress-program true -xf a.tar",
    "tar --checkpoint-action true -xf a.tar",
    "tar -F true -xf a.tar",
    "tar --info-script true -xf a.tar",
    "tar --new-volume-script true -xf a.tar",
    "tar --rsh-command true -xf a.tar",
    "rsync -e true a b",
    "rsync --rsh true a b",
    "rsync --rsync-path true a b",
    "scp -o ProxyCommand=true a h:b",
    "sftp -o ProxyCommand=true h",
    "sftp -S true h",
    "find . -execdir true ';'",
    "find . -ok true ';'",
  ])("%s runs no reboot", (source) => {
    expect(denyMay(source, "reboot")).toBe(false);
  });
});

describe("how a program's command line is walked", () => {
  it.each([
    // after `--` a word starting with `-` is an operand
    ["make -- -Ex all", "make"],
    // a lone `-` is an operand (the first), so the next word is no subcommand
    ["git - rebase -xtrue", "git"],
    // a word holding `=` or starting with `+` is code only for the programs that read it so
    ["git log a=b", "git log"],
    ["make +x", "make"],
    ["git log +x", "git log"],
    ["find . +x", "find"],
    // a long option that only starts like a listed one is another option
    ["vim --cmdx f", "vim"],
    ["make --evalx", "make"],
    ["make --jobs=4 all", "make"],
    ["git rebase --execx main", "git rebase"],
    // words starting like git's ext:: remote but not it
    ["make Sall", "make"],
    ["vim Sfile", "vim"],
    ["git log ext:x", "git log"],
    ["git log xext::y", "git log"],
    // vim's +N and +/text, but only those
    ["vim +12 f", "vim"],
  ])("%s is certain for an allow of %s", (source, allow) => {
    expect(allowCertain(source, allow)).toBe(true);
  });

  it.each([
    ["vim +q+1 f", "vim"],
    ["vim +12q f", "vim"],
    ["vim +x/y f", "vim"],
    ["less +GG f", "less"],
  ])("%s is uncertain for an allow of %s", (source, allow) => {
    expect(allowCertain(source, allow)).toBe(false);
  });

  it("find's action ends after its `;`, which an allow must spell out", () => {
    expect(allowCertain("find . -exec true ';'", ["find", ".", "-exec", "true"])).toBe(false);
    expect(allowCertain("find . -exec true ';'", ["find", ".", "-exec", "true", ";"])).toBe(true);
  });

  it("lists each code argument with where it starts and ends and its text", () => {
    const list = (words: string[]) => {
      const found: string[] = [];
      forEachCodeArgument(words, (argument) => {
        found.push(`${argument.kind} ${argument.from} ${argument.valueFrom} ${argument.to} ${argument.text}`);
        return false;
      });
      return found;
    };
    expect(list(["find", ".", "-exec", "rm", "{}", ";", "-print"])).toEqual(["argv 2 3 6 rm {} ;"]);
    expect(list(["find", ".", "-exec", "rm", "{}"])).toEqual(["argv 2 3 5 rm {}"]);
    expect(list(["git", "rebase", "--exec=make test", "main"])).toEqual(["shell 2 2 3 make test"]);
    expect(list(["git", "rebase", "-xmake", "main"])).toEqual(["shell 2 2 3 make"]);
    expect(list(["git", "rebase", "-x"])).toEqual(["shell 2 3 3 "]);
    expect(list(["git", "-c", "a=b", "clone", "ext::sh x", "d"])).toEqual([
      "shell 1 2 3 a=b",
      "opaque 4 4 5 sh x",
    ]);
    expect(list(["vim", "+q", "-c", "wq", "f"])).toEqual(["opaque 1 1 2 q", "opaque 2 3 4 wq"]);
    expect(list(["make", "-f", "x.mk", "CC=gcc", "all"])).toEqual(["file 1 2 3 x.mk", "shell 3 3 4 CC=gcc"]);
    expect(list(["git", "submodule", "foreach", "echo", "x"])).toEqual(["shell 3 3 5 echo x"]);
    expect(list(["git", "bisect", "run", "make", "test"])).toEqual(["argv 3 3 5 make test"]);
    expect(list(["git", "grep", "-Oless", "x"])).toEqual(["shell 2 2 3 less"]);
    expect(list(["ls", "-c", "x"])).toEqual([]);
    // the kind of each code argument: another language's code, a file of code, shell text
    expect(list(["vim", "--cmd", "a", "-S", "b", "-u", "c", "-U", "d", "-s", "e", "-l", "f"])).toEqual([
      "opaque 1 2 3 a",
      "opaque 3 4 5 b",
      "opaque 5 6 7 c",
      "opaque 7 8 9 d",
      "opaque 9 10 11 e",
      "opaque 11 12 13 f",
    ]);
    expect(list(["vim", "--remote-send", "a", "--remote-expr", "b"])).toEqual([
      "opaque 1 2 3 a",
      "opaque 3 4 5 b",
    ]);
    expect(list(["less", "-k", "a", "--lesskey-file", "b", "+c"])).toEqual([
      "opaque 1 2 3 a",
      "opaque 3 4 5 b",
      "opaque 5 5 6 c",
    ]);
    expect(list(["make", "-E", "a", "--eval", "b", "--file", "c", "--makefile", "d"])).toEqual([
      "opaque 1 2 3 a",
      "opaque 3 4 5 b",
      "file 5 6 7 c",
      "file 7 8 9 d",
    ]);
    expect(list(["git", "--config-env", "a=B", "--exec-path=/x", "log"])).toEqual([
      "opaque 1 2 3 a=B",
      "opaque 3 3 4 /x",
    ]);
    expect(list(["ssh", "-o", "a=b", "-F", "c", "h"])).toEqual(["shell 1 2 3 a=b", "file 3 4 5 c"]);
    expect(list(["scp", "-F", "c", "a", "h:b"])).toEqual(["file 1 2 3 c"]);
    expect(list(["sftp", "-F", "c", "-D", "d", "h"])).toEqual(["file 1 2 3 c", "shell 3 4 5 d"]);
    expect(list(["make", "--jobs=4", "-f", "x.mk"])).toEqual(["file 2 3 4 x.mk"]);
    expect(list(["make", "-sf", "x.mk"])).toEqual(["file 1 2 3 x.mk"]);
    expect(list(["make", "-sC", "d", "-f", "x.mk"])).toEqual(["file 3 4 5 x.mk"]);
    expect(list([])).toEqual([]);
  });
});

describe("forEachCodeArgument stops when the visitor asks it to", () => {
  const first = (words: string[]) => {
    const found: string[] = [];
    forEachCodeArgument(words, (argument) => {
      found.push(argument.text);
      return true;
    });
    return found;
  };

  it.each([
    [["git", "clone", "ext::a", "ext::b"], ["a"]],
    [["vim", "-c", "a", "-c", "b"], ["a"]],
    [["make", "A=1", "B=2"], ["A=1"]],
    [["vim", "+a", "+b"], ["a"]],
    [["git", "rebase", "-xa", "-xb"], ["a"]],
    [["git", "-c", "a=1", "-c", "b=2", "submodule", "foreach", "c"], ["a=1"]],
  ])("%j", (words, texts) => {
    expect(first(words)).toEqual(texts);
  });
});
