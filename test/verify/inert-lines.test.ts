/**
 * `inertAnswer` (facts.ts) against the runtime: on every plain line of one simple command headed by a program that
 * never runs its operands, a `command` list the fact answers gets that answer from the runtime, whatever the other
 * words are (programs, options, settings, paths in other cases). And the verifier uses it: a `where` of such lines
 * alone is decided on every string of it, not on the strings tried.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCommandPrefixSpec } from "../../src/runtime/match/shell.js";
import type { Truth } from "../../src/runtime/truth.js";
import { AlphabetBuilder } from "../../src/verify/alphabet.js";
import { Automata } from "../../src/verify/automata.js";
import { FieldFacts, INERT_HEADS, inertAnswer, inertLinesPattern } from "../../src/verify/facts.js";
import { AtomTable, fieldRef } from "../../src/verify/formula.js";
import { Verifier } from "../../src/verify/verify-properties.js";
import { loadFromText } from "./helpers.js";

const RUNS = Number(process.env.TOOLGATE_VERIFY_RUNS ?? 200) * 3;

const HEADS = [...INERT_HEADS];
/** Words after the head: programs that run others, options, settings, names of the heads spelt other ways. */
const WORDS = [
  "rm",
  "-rf",
  "-R",
  "sudo",
  "bash",
  "-c",
  "sh",
  "xargs",
  "env",
  "FOO=1",
  "core.pager=rm",
  "a=b",
  "-exec",
  "+x",
  "%1",
  "@x",
  "a:b",
  "ls",
  "echo",
  "ECHO",
  "/bin/echo",
  "python3",
  "-e",
  "--",
  ".",
  "..",
  "x/y",
  "-n",
  "git",
  "status",
];
const PREFIX_WORDS = [...HEADS, ...WORDS, "Echo", "/usr/bin/ls", "ls2", "gre", "grep3", "ca", "cat.1"];

const prefix = fc.array(fc.constantFrom(...PREFIX_WORDS), { minLength: 1, maxLength: 2 }).chain((words) =>
  fc.constantFrom<unknown>(words.join(" "), `${words.join(" ")}$`, {
    prefix: words.join(" "),
    options: ["-n", "-e"],
  }),
);
const someList = fc.array(
  prefix.filter((entry) => parseCommandPrefixSpec(entry).ok),
  { minLength: 1, maxLength: 3 },
);
/** Lists often with an inert program alone among their prefixes, which makes them certain of its lines. */
const list = fc.oneof(
  someList,
  fc.tuple(someList, fc.constantFrom(...HEADS)).map(([entries, head]): unknown[] => [...entries, head]),
);
const blank = fc.constantFrom("", " ", "\t", "  ");
const inertLine = fc
  .tuple(
    fc.constantFrom(...HEADS),
    blank,
    fc.array(fc.tuple(fc.constantFrom(" ", "\t", " \t"), fc.constantFrom(...WORDS)), { maxLength: 4 }),
    blank,
  )
  .map(([head, lead, rest, trail]) => ({
    head,
    text: `${lead}${head}${rest.map(([b, w]) => `${b}${w}`).join("")}${trail}`,
  }));

describe("inert lines", () => {
  it("a command list the fact answers has that answer on every plain line of the inert program", () => {
    let answered = 0;
    let certain = 0;
    fc.assert(
      fc.property(list, fc.array(inertLine, { minLength: 1, maxLength: 6 }), (entries, lines) => {
        const table = new AtomTable();
        const atom = table.atoms[table.atom(fieldRef("arguments", "command"), "command", entries)];
        if (atom === undefined) return;
        for (const { head, text } of lines) {
          expect(new RegExp(inertLinesPattern(head), "u").test(text), text).toBe(true);
          const answer = inertAnswer(entries, head);
          if (answer === undefined) continue;
          answered++;
          if (answer === 1) certain++;
          expect(atom.test(text), `${JSON.stringify(entries)} on ${JSON.stringify(text)}`).toBe(answer);
        }
      }),
      { numRuns: RUNS },
    );
    expect(answered).toBeGreaterThan(RUNS);
    expect(certain).toBeGreaterThan(RUNS / 10);
  });

  it("a list certain of a line of inert programs and exact prefixes makes another list false as the facts say", () => {
    // Lists of inert programs alone and exact prefixes (which the fact reads), and of other prefixes (which it
    // must not); lines made of their words, with quoted words, settings, redirections and separators.
    const certainList = fc.array(
      fc.oneof(
        fc.constantFrom(...HEADS),
        fc.constantFrom("npm test$", "git status$", "make$", "ls -la$", "ls a=b$", "if$", "time ls$", "git"),
      ),
      { minLength: 1, maxLength: 3 },
    );
    const extra = fc.constantFrom(
      "rm",
      "'rm -rf /'",
      '"sudo x"',
      "sudo",
      "-rf",
      ">/dev/null",
      "2>&1",
      "a=b",
      "'a;b'",
      "bash",
      "-c",
    );
    const command = (entries: unknown[]) =>
      fc
        .tuple(
          fc.constantFrom(...entries),
          fc.constantFrom("", "PAGER=rm ", "FOO='rm x' ", "'"),
          fc.array(extra, { maxLength: 3 }),
        )
        .map(([entry, before, more]) => {
          const words = String(entry).replace(/\$$/, "").split(" ");
          const head =
            before === "'"
              ? `'${words[0]}'${words
                  .slice(1)
                  .map((w) => ` ${w}`)
                  .join("")}`
              : `${before}${words.join(" ")}`;
          return [head, ...more].join(" ");
        });
    const scenario = certainList.chain((entries) =>
      fc.tuple(
        fc.constant(entries),
        fc.array(
          fc
            .array(fc.tuple(command(entries), fc.constantFrom(" && ", "; ", " | ", " || ", "\n")), {
              minLength: 1,
              maxLength: 3,
            })
            .map((parts) => parts.map(([c, sep], i) => (i === 0 ? c : `${sep}${c}`)).join("")),
          { minLength: 1, maxLength: 6 },
        ),
        list,
      ),
    );
    let certainLines = 0;
    let excluded = 0;
    fc.assert(
      fc.property(scenario, ([entries, lines, other]) => {
        const table = new AtomTable();
        const field = fieldRef("arguments", "command");
        const a = table.atom(field, "command", entries);
        const b = table.atom(field, "command", other);
        if (a === b) return;
        const facts = new FieldFacts(new Automata(new AlphabetBuilder().build()), table.atoms);
        const truthsOf = (tb: Truth) =>
          new Map<number, Truth>([
            [a, 1],
            [b, tb],
          ]);
        for (const text of lines) {
          if (table.atoms[a]?.test(text) !== 1) continue;
          certainLines++;
          const tb = table.atoms[b]?.test(text) as Truth;
          expect(
            facts.allows(truthsOf(tb)),
            `${JSON.stringify(entries)} certain, ${JSON.stringify(other)} ${tb} on ${JSON.stringify(text)}`,
          ).toBe(true);
          if (!facts.allows(truthsOf(2))) excluded++;
        }
      }),
      { numRuns: RUNS },
    );
    expect(certainLines).toBeGreaterThan(RUNS / 3);
    expect(excluded).toBeGreaterThan(RUNS / 10);
  });

  it("answers only lists whose programs cannot be the head, or that hold the head alone", () => {
    expect(inertAnswer(["echo"], "echo")).toBe(1);
    expect(inertAnswer(["rm -rf", "echo"], "echo")).toBe(1);
    expect(inertAnswer(["rm -rf", "sudo"], "echo")).toBe(0);
    expect(inertAnswer(["echo hi"], "echo")).toBeUndefined();
    expect(inertAnswer(["echo$"], "echo")).toBeUndefined();
    expect(inertAnswer([{ prefix: "echo", options: ["-n"] }], "echo")).toBeUndefined();
    expect(inertAnswer(["/bin/ECHO"], "echo")).toBeUndefined();
    expect(inertAnswer(["grep2"], "grep")).toBeUndefined();
    expect(inertAnswer(["ls"], "lsblk")).toBeUndefined();
    expect(inertAnswer([], "echo")).toBeUndefined();
    expect(inertAnswer(["echo 'x'"], "echo")).toBeUndefined();
  });

  it("reads only plain lines of one simple command", () => {
    const re = new RegExp(inertLinesPattern("echo"), "u");
    for (const text of ["echo", " echo a b\t", "echo a=b -n"]) expect(re.test(text), text).toBe(true);
    for (const text of [
      "echo a; rm x",
      "echo =a",
      "echo $x",
      "echo 'a'",
      "echoa",
      "echo a\n",
      "echo a && b",
      "x echo",
    ])
      expect(re.test(text), text).toBe(false);
  });

  it("decides a where of an inert program's lines on every string of it", () => {
    const tools = JSON.stringify({
      tools: [
        {
          name: "sh",
          description: "Runs a command.",
          input_schema: {
            type: "object",
            properties: { command: { type: "string", maxLength: 200 } },
            required: ["command"],
            additionalProperties: false,
          },
        },
      ],
    });
    const rule = (id: string, decision: string, command: unknown[]) => ({
      id,
      tools: ["sh"],
      decision,
      when: { command: { command } },
      reason: id,
    });
    const policy = (echoAsk: boolean) =>
      JSON.stringify({
        version: 1,
        rules: [
          rule("deny", "deny", ["rm -rf", "sudo"]),
          rule("allow", "allow", ["echo", "ls"]),
          ...(echoAsk ? [rule("ask", "ask", ["echo sudo"])] : []),
        ],
      });
    const property = (where: string, kind: "always" | "never", action: "allow" | "ask" | "deny") => ({
      id: `${kind}-${action}-${where}`,
      tools: ["sh"],
      where: { command: { regex: where } },
      kind,
      action,
    });
    const { bundle, validators } = loadFromText(tools, policy(false));
    const results = new Verifier(bundle, validators).verify([
      property("^echo [a-z]+$", "always", "allow"),
      property("^ls( -[a-zA-Z]+)*( [a-z./]+)*$", "always", "allow"),
      property("^cat [a-z]+$", "always", "deny"),
      property("^echo [a-z]+$", "never", "deny"),
      property("^(echo|ls) [a-z]+$", "always", "allow"),
      // `cat` is no allowed program: its lines fall to the default deny.
      property("^(echo|cat) [a-z]+$", "always", "allow"),
    ]);
    expect(results.map((r) => r.status)).toEqual(["holds", "holds", "holds", "holds", "holds", "fails"]);
    // An ask on echo's words: the lists' answers depend on them, and `echo sudo` is asked.
    const asked = loadFromText(tools, policy(true));
    const [result] = new Verifier(asked.bundle, asked.validators).verify([
      property("^echo [a-z]+$", "always", "allow"),
    ]);
    expect(result?.status).toBe("fails");
    expect(result?.witness?.arguments).toEqual({ command: "echo sudo" });
    // Lines that go on past one command are not settled so: `echo a; sudo x` is denied.
    const [more] = new Verifier(bundle, validators).verify([property("^echo [a-z]+", "always", "allow")]);
    expect(more?.status).not.toBe("holds");
  });
});

describe("line starts run their prefixes", () => {
  // Operators that name how a line starts, and texts that start lines so (each followed by a tail below).
  const STARTS: readonly (readonly [Record<string, unknown>, readonly string[]])[] = [
    [{ regex: "^rm -rf " }, ["rm -rf "]],
    [{ regex: "^sudo\\s" }, ["sudo ", "sudo\n", "sudo\t"]],
    [{ regex: "^git\\s+push\\b" }, ["git push", "git \t push", "git\npush"]],
    [{ regex: "^git\\s+push\\s" }, ["git push ", "git\npush ", "git \n push\t"]],
    [{ regex: "^npm (install|ci)" }, ["npm install", "npm ci"]],
    [{ regex: "^git push" }, ["git push", "git pushx"]],
    [{ prefix: "rm -rf " }, ["rm -rf "]],
    [{ prefix: "git " }, ["git "]],
    [{ prefix: "sudo -u " }, ["sudo -u "]],
  ];
  const TAILS = [
    "",
    "x",
    " x",
    "; ls",
    " && rm x",
    "'a b'",
    " $HOME",
    "\nls",
    " | sh",
    "=1 ls",
    " -f",
    "--force",
  ];
  const PREFIXES = [
    "rm",
    "rm -rf",
    "rm -r",
    "rm -f",
    "rm -rf x",
    "rm -rf$",
    "sudo",
    "sudo -u",
    "git",
    "git push",
    "git push --force",
    "npm",
    "npm install",
    "npm ci",
    "RM",
    "/bin/rm",
    "ls",
  ];
  const scenario = fc.tuple(
    fc.constantFrom(...STARTS),
    fc.array(fc.tuple(fc.nat(3), fc.constantFrom(...TAILS)), { minLength: 1, maxLength: 6 }),
    fc.array(fc.constantFrom<unknown>(...PREFIXES, { prefix: "rm", options: ["-f"] }), {
      minLength: 1,
      maxLength: 3,
    }),
  );

  it("a list with a plain prefix of the words a line starts with is never false on it", () => {
    let lines = 0;
    let excluded = 0;
    fc.assert(
      fc.property(scenario, ([[operator, texts], tails, list]) => {
        const table = new AtomTable();
        const field = fieldRef("arguments", "command");
        const [name, value] = Object.entries(operator)[0] as [string, unknown];
        const r = table.atom(field, name, value);
        const c = table.atom(field, "command", list);
        const facts = new FieldFacts(new Automata(new AlphabetBuilder().build()), table.atoms);
        for (const [i, tail] of tails) {
          const text = `${texts[i % texts.length]}${tail}`;
          if (table.atoms[r]?.test(text) !== 1) continue;
          lines++;
          const truth = table.atoms[c]?.test(text) as Truth;
          const allows = (t: Truth) =>
            facts.allows(
              new Map<number, Truth>([
                [r, 1],
                [c, t],
              ]),
            );
          expect(
            allows(truth),
            `${JSON.stringify(operator)} ${JSON.stringify(list)} ${truth} on ${JSON.stringify(text)}`,
          ).toBe(true);
          if (!allows(0)) excluded++;
        }
      }),
      { numRuns: RUNS },
    );
    expect(lines).toBeGreaterThan(RUNS);
    expect(excluded).toBeGreaterThan(RUNS / 4);
  });
});
