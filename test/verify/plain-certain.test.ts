/**
 * `plainCertain` (field-domain.ts) against the runtime: on a line of one simple command of plain words (one blank
 * between them, no `=`, a first word the safe subset does not refuse), a `command` list is certain only where the
 * line's words start with one of its prefixes' words as written (exactly them for an exact prefix). The string
 * theory cuts a list's certain region to the other lines and those. And the verifier uses it: a plain `where` with
 * more words than an exact allow list's is never allowed.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SUBSET_REFUSED_FIRST_WORDS } from "../../src/runtime/match/shell/tables.js";
import { parseCommandPrefixSpec } from "../../src/runtime/match/shell.js";
import { plainCertain } from "../../src/verify/field-domain.js";
import { AtomTable, fieldRef } from "../../src/verify/formula.js";
import { Verifier } from "../../src/verify/verify-properties.js";
import { loadFromText, shellTools } from "./helpers.js";

const RUNS = Number(process.env.TOOLGATE_VERIFY_RUNS ?? 200) * 3;

/** Words of prefixes, and the same programs spelt other ways (case, paths, versions, suffixes). */
const WORDS = [
  "git",
  "status",
  "log",
  "-n",
  "5",
  "npm",
  "test",
  "run",
  "lint",
  "ls",
  "-la",
  "python",
  "-c",
  "rm",
  "-rf",
  "GIT",
  "Status",
  "/usr/bin/git",
  "./git",
  "python3",
  "python3.12",
  "git2",
  "status.",
  "ls,x",
  "sudo",
  "env",
  "bash",
  "x",
  "--",
  "@a",
  "%1",
  "a:b",
  "+x",
];
/** First words the safe subset refuses (read otherwise), and one that only starts like one. */
const REFUSED = ["eval", "exec", "time", "command", "builtin", "export", "evalx"];
const PREFIX_WORDS = [
  "git",
  "status",
  "log",
  "npm",
  "test",
  "run",
  "lint",
  "ls",
  "python",
  "-c",
  "rm",
  "-rf",
];

const prefix = fc.array(fc.constantFrom(...PREFIX_WORDS), { minLength: 1, maxLength: 3 }).chain((words) =>
  fc.constantFrom<unknown>(words.join(" "), `${words.join(" ")}$`, {
    prefix: words.join(" "),
    options: ["-n", "-la"],
  }),
);
const list = fc.array(
  prefix.filter((entry) => parseCommandPrefixSpec(entry).ok),
  { minLength: 1, maxLength: 3 },
);
/** Lines of a few words, mostly one blank apart (the lines `plainCertain` speaks of), sometimes otherwise. */
const line = fc
  .tuple(
    fc.array(fc.constantFrom(...WORDS, ...PREFIX_WORDS, ...PREFIX_WORDS), { minLength: 1, maxLength: 5 }),
    fc.option(fc.constantFrom(...REFUSED), { freq: 5, nil: undefined }),
    fc.constantFrom(" ", " ", " ", " ", "  ", "\t", " 'a' ", "=", " && "),
  )
  .map(([words, first, odd]) => {
    const all = first === undefined ? words : [first, ...words];
    return all.length > 1 && odd !== " " ? `${all[0]}${odd}${all.slice(1).join(" ")}` : all.join(" ");
  });

describe("plainCertain", () => {
  it("a list the runtime is certain of on a plain line starts it with a prefix's words as written", () => {
    let plainLines = 0;
    let certainPlain = 0;
    fc.assert(
      fc.property(list, fc.array(line, { minLength: 1, maxLength: 8 }), (entries, others) => {
        // Lines that start with the list's own prefixes too, the rest of them other words.
        const lines = [
          ...others,
          ...entries.flatMap((entry, i) => {
            const read = parseCommandPrefixSpec(entry);
            if (!read.ok) return [];
            const words = read.prefix.words.join(" ");
            const tail = others[i % others.length] as string;
            return [words, `${words} ${tail}`, `${tail} ${words}`];
          }),
        ];
        const read = plainCertain(entries);
        if (read === undefined) return;
        const table = new AtomTable();
        const atom = table.atoms[table.atom(fieldRef("arguments", "command"), "command", entries)];
        if (atom === undefined) return;
        const plain = new RegExp(read.lines, "u");
        const starts = new RegExp(read.starts, "u");
        for (const text of lines) {
          if (!plain.test(text)) continue;
          plainLines++;
          if (atom.test(text) !== 1) continue;
          certainPlain++;
          expect(starts.test(text), `${JSON.stringify(entries)} on ${JSON.stringify(text)}`).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
    expect(plainLines).toBeGreaterThan(RUNS);
    expect(certainPlain).toBeGreaterThan(RUNS / 20);
  });

  it("speaks of no line whose first word the safe subset refuses, nor of lines that are not plain", () => {
    const read = plainCertain(["git status$"]);
    if (read === undefined) throw new Error("no reading");
    const outside = (text: string) =>
      !new RegExp(read.lines, "u").test(text) || new RegExp(read.starts, "u").test(text);
    expect(
      [
        "git status",
        "eval git",
        "time ls",
        "git  status x",
        "git status 'x'",
        "a=b git",
        "git status && ls",
      ].map(outside),
    ).toEqual([true, true, true, true, true, true, true]);
    expect(["git status x", "GIT status", "/usr/bin/git status", "evalx git"].map(outside)).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(SUBSET_REFUSED_FIRST_WORDS.has("eval")).toBe(true);
    expect(plainCertain(["git status", { prefix: "git log" }])).toBeUndefined();
  });

  it("lets the verifier prove that a plain line with more words than an exact allow list's is never allowed", () => {
    const tools = shellTools();
    const policy = JSON.stringify({
      version: 1,
      otherwise: { run_shell: "deny" },
      rules: [
        {
          id: "exact",
          tools: ["run_shell"],
          decision: "allow",
          when: { command: { command: ["git status$", "npm run lint$"] } },
          reason: "these alone",
        },
      ],
    });
    const { bundle, validators } = loadFromText(tools, policy);
    const results = new Verifier(bundle, validators).verify([
      {
        id: "more",
        tools: ["run_shell"],
        where: { command: { regex: "^git status [a-z]+$" } },
        kind: "never",
        action: "allow",
      },
      {
        id: "lint",
        tools: ["run_shell"],
        where: { command: { regex: "^npm run lint( [a-z]+)+$" } },
        kind: "always",
        action: "deny",
      },
    ]);
    expect(results.map((r) => r.status)).toEqual(["holds", "holds"]);
  });
});
