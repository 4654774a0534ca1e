/**
 * `plainCommandPatterns` (plain-command.ts) against the runtime: on a plain line of one command that is not read
 * specially, a `command` list is false wherever no prefix may run, and true wherever a prefix covers the line. Both
 * are checked on every line of up to two words of a vocabulary that spells the runtime's special words (wrappers,
 * shells, runners, builtins, code options, versions, paths, case), and on longer generated lines; then the verifier
 * proves, with them, plain properties it could only leave unknown before.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bundleParts } from "../../src/bundle/bundle-parts.js";
import { assembleController } from "../../src/runtime/assemble.js";
import { CommandPrefixSet, parseCommandPrefixSpec } from "../../src/runtime/match/shell.js";
import { applyMode } from "../../src/runtime/mode.js";
import {
  codeWords,
  notPlainReadLines,
  PLAIN_COMMAND_LINE,
  plainCommandPatterns,
  programLines,
  runnerLines,
  specialLines,
} from "../../src/verify/plain-command.js";
import { type Property, Verifier } from "../../src/verify/verify-properties.js";
import { loadFromText, shellTools } from "./helpers.js";

const RUNS = Number(process.env.TOOLGATE_VERIFY_RUNS ?? 200);

/** Words of prefixes, the same programs spelt otherwise, and words the runtime reads specially. */
const WORDS = [
  "git",
  "Git",
  "git2",
  "git-2.1",
  "/usr/bin/git",
  "log",
  "push",
  "--force",
  "status",
  "-n",
  "5",
  "-rf",
  "-r",
  "-f",
  "rm",
  "RM",
  "src/rm",
  "rm3",
  "npm",
  "run",
  "lint",
  "find",
  ".",
  "-name",
  "-exec",
  "-delete",
  "x",
  "xargs",
  "Xargs",
  "sudo",
  "bash",
  "zsh5",
  "fish",
  "crush",
  "env",
  "timeout",
  "nice",
  "echo",
  "ls",
  "cd",
  "eval",
  "source",
  "exec",
  "command",
  "python3.11",
  "-c",
  "-e",
  "node",
  "--upload-pack",
  "-C",
  "+x",
  "ext::x",
  "less",
  "make",
  "-E",
  "ssh",
  "bisect",
  "rebase",
  "-x",
  "-Ofoo",
  "grep",
  "--",
  "-",
  "if",
  "alias",
  "docker",
  "-a",
];

const SPECS: readonly unknown[] = [
  "git",
  "git log",
  "git push",
  "git push --force",
  "rm",
  "rm -rf",
  "npm run lint$",
  "git status$",
  "Git log",
  "/usr/bin/git log",
  "xargs rm",
  "timeout 5 rm",
  "find",
  "ls",
  "echo",
  "bash",
  "python3 -c",
  "make",
  "docker ps",
  { prefix: "find", options: ["-name", "-type"] },
  { prefix: "git log", options: ["-n", "--oneline", "--"] },
  { prefix: "rm", options: ["-r"] },
];

interface Sets {
  readonly truth: (line: string) => "true" | "maybe" | "false";
  readonly knownFalse: (line: string) => boolean;
  readonly knownTrue: (line: string) => boolean;
  readonly knownPossible: (line: string) => boolean;
  /** Never true: a plain line the plain walk reads (special or not) that no prefix may cover. */
  readonly neverTrue: (line: string) => boolean;
}

function setsOf(entries: readonly unknown[]): Sets | undefined {
  const patterns = plainCommandPatterns(entries);
  if (patterns === undefined) return undefined;
  const set = new CommandPrefixSet();
  const prefixes = entries.map((entry) => {
    const read = parseCommandPrefixSpec(entry);
    if (!read.ok) throw new Error(`${JSON.stringify(entry)} does not parse`);
    return read.prefix;
  });
  const { from, to } = set.add(prefixes);
  const re = (p: string) => new RegExp(p, "u");
  const lines = re(PLAIN_COMMAND_LINE);
  // Made anew from the tables, not read from the module's cache (as `specialCommandLines` reads them).
  const special = specialLines().map(re);
  const mayRun = patterns.mayRun.map(re);
  const covered = re(patterns.covered);
  const mayCover = re(patterns.mayCover);
  const notRead = re(notPlainReadLines());
  const plain = (line: string) => lines.test(line) && !special.some((part) => part.test(line));
  const runners = runnerLines();
  const within = runners.within.map(re);
  const outside = runners.outside.map(re);
  return {
    knownPossible: (line) => within.every((r) => r.test(line)) && !outside.some((r) => r.test(line)),
    truth: (line) => {
      const m = set.match(line, from, to);
      return m.certain ? "true" : m.possible ? "maybe" : "false";
    },
    knownFalse: (line) => plain(line) && !mayRun.some((m) => m.test(line)),
    knownTrue: (line) => plain(line) && covered.test(line),
    neverTrue: (line) => lines.test(line) && !notRead.test(line) && !mayCover.test(line),
  };
}

/** Checks every line against the runtime; returns how many each set held (`special`: never true on a special line). */
function check(
  entries: readonly unknown[],
  lines: Iterable<string>,
): { known: number; lines: number; special: number } {
  const sets = setsOf(entries);
  if (sets === undefined) throw new Error(`no patterns for ${JSON.stringify(entries)}`);
  let known = 0;
  let count = 0;
  let special = 0;
  for (const line of lines) {
    count++;
    if (sets.neverTrue(line)) {
      expect(sets.truth(line), `${JSON.stringify(entries)} never true on ${JSON.stringify(line)}`).not.toBe(
        "true",
      );
      if (!sets.knownFalse(line) && sets.truth(line) === "maybe") special++;
    }
    const f = sets.knownFalse(line);
    const t = sets.knownTrue(line);
    const p = sets.knownPossible(line);
    if (!f && !t && !p) continue;
    known++;
    const where = `${JSON.stringify(entries)} on ${JSON.stringify(line)}`;
    expect(f && (t || p), where).toBe(false);
    if (f || t) expect(sets.truth(line), where).toBe(f ? "false" : "true");
    else expect(sets.truth(line), where).not.toBe("false");
  }
  return { known, lines: count, special };
}

function* linesUpTo2(): Generator<string> {
  for (const a of WORDS) {
    yield a;
    for (const b of WORDS) yield `${a} ${b}`;
  }
}

describe("plainCommandPatterns", () => {
  it("is false only where the runtime says false, and true only where it is certain, on every short line", () => {
    let special = 0;
    for (const spec of SPECS) {
      const { known, lines, special: more } = check([spec], linesUpTo2());
      expect(known, JSON.stringify(spec)).toBeGreaterThan(lines / 4);
      special += more;
    }
    // Never true where the list is a maybe: lines read specially (a code option, a wrapper) that no prefix covers.
    expect(special).toBeGreaterThan(100);
    const both = check(["git log", "rm -rf", { prefix: "find", options: ["-name"] }], linesUpTo2());
    expect(both.known).toBeGreaterThan(both.lines / 4);
  });

  it("holds on longer generated lines and lists", () => {
    let known = 0;
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...SPECS), { minLength: 1, maxLength: 3 }),
        fc.array(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 }), {
          minLength: 1,
          maxLength: 10,
        }),
        (entries, lines) => {
          const prefixWords = entries.flatMap((entry) => {
            const read = parseCommandPrefixSpec(entry);
            return read.ok ? [read.prefix.words.join(" ")] : [];
          });
          const texts = lines.flatMap((words, i) => {
            const text = words.join(" ");
            const start = prefixWords[i % prefixWords.length] as string;
            return [text, `${start} ${text}`, start];
          });
          known += check(entries, texts).known;
        },
      ),
      { numRuns: RUNS },
    );
    expect(known).toBeGreaterThan(RUNS);
  });

  it("says nothing of special lines, lines that are not plain, or lists that do not parse", () => {
    const sets = setsOf(["rm"]);
    if (sets === undefined) throw new Error("no patterns");
    // Each may run `rm`, or is read otherwise: never known false.
    for (const line of [
      "sudo ls",
      "xargs ls",
      "ls xargs",
      "bash x",
      "crush x",
      "eval x",
      "/bin/ls x",
      "git -c x=y log",
      "git --upload-pack x fetch",
      "git bisect run x",
      "make -E x",
      "less +x",
      "git ext::x",
      "ssh host x",
      "ls  x",
      "ls 'x'",
      "ls && x",
      "a=b ls",
      "find . -exec x",
      "git -cx log",
      "git grep -Ox",
      "git rebase -i --exec x",
    ]) {
      expect(sets.knownFalse(line), line).toBe(false);
    }
    // Ordinary lines of programs that may run code elsewhere: a long option is no cluster, `+1` is no code to git.
    for (const line of [
      "git log",
      "git log --oneline -n 5",
      "git diff --cached",
      "git status --short",
      "git log +1",
      "find . -name x -type f",
      "make test",
      "python3 x.py",
      "npm run build",
      "docker ps -a",
      "cargo build --release",
      "git push origin",
      "git fetch origin",
      "git grep x",
    ]) {
      expect(sets.knownFalse(line), line).toBe(true);
    }
    // A later word of a prefix that is no option cluster is needed as written (`-n5`, `run-a`).
    expect(setsOf(["git log -n5"])?.knownFalse("git log -n 5")).toBe(true);
    expect(setsOf(["npm run-a"])?.knownFalse("npm test")).toBe(true);
    expect(
      ["git log -n 5", "npm test"].map((l, i) => setsOf([["git log -n5", "npm run-a"][i]])?.truth(l)),
    ).toEqual(["false", "false"]);
    // The letters of an option cluster are not read: `rm -rf` may run on `rm -r -f`, `rm -f` and `rm x` alike.
    const rf = setsOf(["rm -rf"]);
    expect(["rm -r -f", "rm -f", "rm x", "ls -rf"].map((l) => rf?.knownFalse(l))).toEqual([
      false,
      false,
      false,
      true,
    ]);
    expect(["rm -r -f", "rm -fr x"].map((l) => rf?.truth(l))).toEqual(["maybe", "maybe"]);
    // A later shell or runner: every list may run, unless the command word never runs its operands or is special.
    expect(
      ["git log sh", "make xargs", "find . -name Bash5", "ls sh", "sudo sh", "git -c x sh"].map(
        sets.knownPossible,
      ),
    ).toEqual([true, true, true, false, false, false]);
    expect(plainCommandPatterns([])).toBeUndefined();
    expect(plainCommandPatterns(["git", 3])).toBeUndefined();
    expect(plainCommandPatterns("git")).toBeUndefined();
  });

  it("lets the verifier decide plain properties of programs that are neither inert nor listed", () => {
    const tools = shellTools();
    const policy = JSON.stringify({
      version: 1,
      otherwise: { run_shell: "deny" },
      rules: [
        {
          id: "deny-danger",
          tools: ["run_shell"],
          decision: "deny",
          when: { command: { command: ["rm", "git push --force", "sudo"] } },
          reason: "dangerous",
        },
        {
          id: "ask-push",
          tools: ["run_shell"],
          decision: "ask",
          when: { command: { command: ["git push", "git commit"] } },
          reason: "a person looks first",
        },
        {
          id: "allow-reading",
          tools: ["run_shell"],
          decision: "allow",
          when: {
            command: {
              command: [
                "git status$",
                { prefix: "git log", options: ["-n", "--oneline", "--graph"] },
                { prefix: "find", options: ["-name", "-type"] },
              ],
            },
          },
          reason: "reading",
        },
      ],
    });
    const { bundle, validators } = loadFromText(tools, policy);
    const property = (
      id: string,
      regex: string,
      kind: "always" | "never",
      action: "allow" | "ask" | "deny",
    ) => ({
      id,
      tools: ["run_shell"],
      where: { command: { regex } },
      kind,
      action,
    });
    const results = new Verifier(bundle, validators).verify([
      property("log-n", "^git log -n [0-9]+$", "always", "allow"),
      property("log-opts", "^git log( --oneline| -n [0-9]+| --graph)*$", "always", "allow"),
      property("commit", "^git commit -m [abc]+$", "always", "ask"),
      property("find-type", "^find \\. -type [a-z]$", "always", "allow"),
      property("push-words", "^git push( [a-z]+)*$", "never", "allow"),
      // A later `sh` or `su` may run anything: the deny list is a maybe there, so deny, never ask.
      property("find-words", "^find \\. -type [a-z]+$", "never", "ask"),
      // Not so: `git log -p` takes an option the allow list does not (so `otherwise` denies it), and
      // `git push -f x` is asked, not denied (`git push --force` is not `-f`).
      property("log-short", "^git log( -[a-z])*$", "always", "allow"),
      property("push-deny", "^git push -f [a-z]+$", "always", "deny"),
    ]);
    const status = Object.fromEntries(results.map((r) => [r.id, r.status]));
    expect(status).toEqual({
      "log-n": "holds",
      "log-opts": "holds",
      commit: "holds",
      "find-type": "holds",
      "push-words": "holds",
      "find-words": "holds",
      "log-short": "fails",
      "push-deny": "fails",
    });
  });

  it("never says holds where a plain line breaks the property, on finite languages enumerated whole", () => {
    const tools = shellTools("shell", 200);
    const firsts = ["git", "find", "rm", "make", "ls", "npm", "sh", "Git", "xargs", "docker"];
    const laters = [
      "log",
      "push",
      "-n",
      "5",
      "--force",
      "-rf",
      "x",
      "sh",
      ".",
      "-name",
      "run",
      "lint",
      "ps",
      "-a",
      "rm",
    ];
    const words = (from: readonly string[]) =>
      fc.uniqueArray(fc.constantFrom(...from), { minLength: 1, maxLength: 3 });
    const scenario = fc.record({
      rules: fc.array(
        fc.record({
          decision: fc.constantFrom("allow", "ask", "deny"),
          prefixes: fc.array(fc.constantFrom(...SPECS), { minLength: 1, maxLength: 3 }),
        }),
        { minLength: 1, maxLength: 3 },
      ),
      otherwise: fc.constantFrom("allow", "ask", "deny"),
      first: words(firsts),
      later: words(laters),
      count: fc.integer({ min: 0, max: 2 }),
      kind: fc.constantFrom("never", "always"),
      action: fc.constantFrom("allow", "ask", "deny"),
    });
    const quoted = (w: string) => w.replace(/[.-]/g, (c) => `\\${c}`);
    let decided = 0;
    let runs = 0;
    fc.assert(
      fc.property(scenario, (s) => {
        runs++;
        const policy = JSON.stringify({
          version: 1,
          otherwise: { shell: s.otherwise },
          rules: s.rules.map((r, i) => ({
            id: `r${i}`,
            tools: ["shell"],
            decision: r.decision,
            when: { command: { command: r.prefixes } },
            reason: `rule ${i}`,
          })),
        });
        const { bundle, validators } = loadFromText(tools, policy);
        const controller = assembleController(bundleParts(bundle, validators), {
          handlers: { shell: () => 1 },
        });
        const decide = (command: string) => {
          const explained = controller.explain(
            { callId: "c", toolName: "shell", arguments: { command } },
            {},
          );
          if ("callId" in explained) throw new Error(`${command} is not valid`);
          return applyMode(explained.decision, bundle.mode).decision.action;
        };
        const later = `(?: (?:${s.later.map(quoted).join("|")}))?`;
        const regex = `^(?:${s.first.map(quoted).join("|")})${later.repeat(s.count)}$`;
        // The language, enumerated: every first word, then up to `count` later words.
        let lines = [...s.first];
        let all = [...lines];
        for (let k = 0; k < s.count; k++) {
          lines = lines.flatMap((l) => s.later.map((w) => `${l} ${w}`));
          all = [...all, ...lines];
        }
        const breaks = (command: string) =>
          s.kind === "never" ? decide(command) === s.action : decide(command) !== s.action;
        const property: Property = {
          id: "p",
          tools: ["shell"],
          where: { command: { regex } },
          kind: s.kind,
          action: s.action,
        };
        const [result] = new Verifier(bundle, validators).verify([property]);
        const where = `${regex} ${s.kind} ${s.action} under ${policy}`;
        if (result?.status === "holds") {
          decided++;
          for (const line of all) expect(breaks(line), `${line}: ${where}`).toBe(false);
        }
        if (result?.status === "fails") {
          decided++;
          const command = (result.witness?.arguments as { command?: string } | undefined)?.command ?? "";
          expect(breaks(command), `${command}: ${where}`).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
    // Finite plain languages are decided nearly always (a line with `sh` or `xargs` may be left to a witness).
    expect(decided).toBeGreaterThan((runs * 9) / 10);
  });

  it("reads a program's code words over its subcommands, and every line of one whose operands are code", () => {
    const forms = {
      valued: new Map([
        ["-c", "shell" as const],
        ["--run", "shell" as const],
      ]),
      attachedOnly: new Map([["-O", "shell" as const]]),
      plus: { kind: "opaque" as const },
      anywhere: [["ext::", "opaque"] as const],
      subcommands: new Map([
        ["each", { operands: "argv" as const }],
        ["fix", { valued: new Map([["-x", "shell" as const]]) }],
      ]),
    };
    expect(codeWords({ operands: "shell" })).toBeUndefined();
    const parts = programLines(
      new Map([
        ["tool", forms],
        ["tool2", forms],
        ["runs", { operands: "shell" as const }],
        ["plain", {}],
      ]),
    ).map((p) => new RegExp(p, "u"));
    const special = (line: string) => parts.some((p) => p.test(line));
    const yes = [
      "tool -c x",
      "TOOL2 --run x",
      "tool -aO",
      "tool +x",
      "tool ext::y",
      "tool a each b",
      "tool fix -vx",
    ];
    const no = ["tool x", "tool --cached", "tool -a -v", "tool2 eac", "tool fixx", "plain -c x", "other -c"];
    expect(yes.map(special)).toEqual(yes.map(() => true));
    expect(no.map(special)).toEqual(no.map(() => false));
    expect(["runs", "Runs x"].map(special)).toEqual([true, true]);
    // The programs with the same code words share one pattern; one without any has none.
    expect(parts).toHaveLength(2);
  });
});
