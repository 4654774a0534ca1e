/**
 * The facts between `command` operators (facts.ts) against the runtime: on generated command lines, every
 * combination of truths the runtime gives two operators is one the facts allow, so a fact never rules out a call
 * that exists (which would make a `holds` wrong).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Truth } from "../../src/runtime/truth.js";
import { AlphabetBuilder } from "../../src/verify/alphabet.js";
import { Automata } from "../../src/verify/automata.js";
import { FieldFacts } from "../../src/verify/facts.js";
import { AtomTable, fieldRef } from "../../src/verify/formula.js";

const RUNS = Number(process.env.TOOLGATE_VERIFY_RUNS ?? 200) * 3;

const WORDS = [
  "git",
  "status",
  "diff",
  "ls",
  "sudo",
  "rm",
  "-rf",
  "-r",
  "npm",
  "test",
  "--",
  "x",
  "sh",
  "-c",
  "env",
];
const PIECES = [
  ...WORDS,
  "'ls'",
  '"git"',
  "l's'",
  "$X",
  "$(ls)",
  "*",
  ">/dev/null",
  "FOO=1",
  "xargs",
  "timeout 5",
];
const SEPARATORS = [" ", " ", " ", "; ", " && ", " | ", "\n", " || "];

const line = fc
  .array(fc.tuple(fc.constantFrom(...PIECES), fc.constantFrom(...SEPARATORS)), { minLength: 1, maxLength: 6 })
  .map((parts) =>
    parts
      .map(([piece, sep], i) => (i === 0 ? piece : `${sep}${piece}`))
      .join("")
      .trim(),
  );

const prefix = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).chain((words) =>
  fc.constantFrom<unknown>(words.join(" "), `${words.join(" ")}$`, {
    prefix: words.join(" "),
    options: ["-r", "--"],
  }),
);

const prefixes = fc.array(prefix, { minLength: 1, maxLength: 3 });

/** The words of a prefix entry. */
function wordsOf(entry: unknown): string[] {
  const text = typeof entry === "string" ? entry : (entry as { prefix: string }).prefix;
  return text.replace(/\$$/, "").split(" ");
}

/**
 * Two lists and command lines: the second list often made of the first one's words (cut short or run on), and the
 * lines often starting with a prefix of either, so that lines both lists may be certain of come up.
 */
const pairs = prefixes.chain((a) => {
  const related = fc
    .tuple(fc.constantFrom(...a), fc.nat(3), fc.array(fc.constantFrom(...WORDS), { maxLength: 2 }))
    .map(([entry, keep, more]) => [...wordsOf(entry).slice(0, keep + 1), ...more].join(" "));
  const b = fc.oneof(prefixes, fc.array(related, { minLength: 1, maxLength: 2 }));
  return b.chain((bList) => {
    const starts = [...a, ...bList].map((entry) => wordsOf(entry).join(" "));
    const started = fc
      .tuple(
        fc.constantFrom(...starts),
        fc.array(fc.constantFrom(...PIECES), { maxLength: 2 }),
        fc.constantFrom("", "; ", " && "),
      )
      .map(([head, tail, sep]) => {
        const one = [head, ...tail].join(" ");
        return sep === "" ? one : `${one}${sep}${head}`;
      });
    const lines = fc.array(fc.oneof(line, started), { minLength: 1, maxLength: 8 });
    return lines.map((ls): [unknown[], unknown[], string[]] => [a, bList, ls]);
  });
});

describe("command facts", () => {
  it("allow every pair of truths the runtime gives on a command line", () => {
    let bothCertain = 0;
    fc.assert(
      fc.property(pairs, ([a, b, lines]) => {
        const table = new AtomTable();
        const field = fieldRef("arguments", "command");
        const ia = table.atom(field, "command", a);
        const ib = table.atom(field, "command", b);
        const facts = new FieldFacts(new Automata(new AlphabetBuilder().build()), table.atoms);
        for (const text of lines) {
          const ta = (table.atoms[ia]?.test(text) ?? 0) as Truth;
          const tb = (table.atoms[ib]?.test(text) ?? 0) as Truth;
          if (ia === ib) continue;
          if (ta === 1 && tb === 1) bothCertain++;
          expect(
            facts.allows(
              new Map([
                [ia, ta],
                [ib, tb],
              ]),
            ),
            `${text}: ${JSON.stringify(a)} ${ta}, ${JSON.stringify(b)} ${tb}`,
          ).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
    // Lines both lists certainly cover come up: the fact about two certain lists is exercised.
    expect(bothCertain).toBeGreaterThan(RUNS / 20);
  });

  it("rule out two certain lists whose prefixes never agree, and no others", () => {
    const table = new AtomTable();
    const field = fieldRef("arguments", "command");
    const safe = table.atom(field, "command", ["git status", "ls"]);
    const sudo = table.atom(field, "command", ["sudo"]);
    const git = table.atom(field, "command", ["git"]);
    const exact = table.atom(field, "command", ["git status --short$"]);
    const facts = new FieldFacts(new Automata(new AlphabetBuilder().build()), table.atoms);
    const allows = (x: number, y: number) =>
      facts.allows(
        new Map<number, Truth>([
          [x, 1],
          [y, 1],
        ]),
      );
    expect(allows(safe, sudo)).toBe(false);
    expect(allows(sudo, git)).toBe(false);
    expect(allows(safe, git)).toBe(true);
    expect(allows(exact, safe)).toBe(true);
    expect(allows(exact, sudo)).toBe(false);
    expect(
      facts.allows(
        new Map<number, Truth>([
          [safe, 1],
          [sudo, 2],
        ]),
      ),
    ).toBe(true);
  });

  it("let a longer prefix be certain where its first words are only a maybe (git -c), never false", () => {
    const table = new AtomTable();
    const field = fieldRef("arguments", "command");
    const gitC = table.atom(field, "command", ["git -c"]);
    const git = table.atom(field, "command", ["git"]);
    const again = table.atom(field, "command", ["ls", "git -c"]);
    const facts = new FieldFacts(new Automata(new AlphabetBuilder().build()), table.atoms);
    const allows = (pairs: [number, Truth][]) => facts.allows(new Map<number, Truth>(pairs));
    // The runtime's own answers on `git -c`: certain of `git -c`, a maybe for `git`.
    expect(table.atoms[gitC]?.test("git -c")).toBe(1);
    expect(table.atoms[git]?.test("git -c")).toBe(2);
    expect(
      allows([
        [gitC, 1],
        [git, 2],
      ]),
    ).toBe(true);
    expect(
      allows([
        [gitC, 1],
        [git, 0],
      ]),
    ).toBe(false);
    // The same prefix in another list: certain there too.
    expect(
      allows([
        [gitC, 1],
        [again, 2],
      ]),
    ).toBe(false);
    expect(
      allows([
        [gitC, 1],
        [again, 1],
      ]),
    ).toBe(true);
  });
});
