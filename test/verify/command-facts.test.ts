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

const prefix = fc
  .array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 })
  .chain((words) =>
    fc.constantFrom<unknown>(words.join(" "), `${words.join(" ")}$`, {
      prefix: words.join(" "),
      options: ["-r", "--"],
    }),
  );

const prefixes = fc.array(prefix, { minLength: 1, maxLength: 3 });

describe("command facts", () => {
  it("allow every pair of truths the runtime gives on a command line", () => {
    let bothCertain = 0;
    fc.assert(
      fc.property(prefixes, prefixes, fc.array(line, { minLength: 1, maxLength: 8 }), (a, b, lines) => {
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
    expect(bothCertain).toBeGreaterThan(0);
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
});
