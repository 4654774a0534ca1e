/**
 * Candidates and facts of the verify engine the broader tests do not reach (found by mutation testing of
 * field-domain.ts and facts.ts): the pieces of the number line whose multiples are all found though not all tried,
 * the spellings of an `equals` or `in` text as a path, when a compound command is offered as a second witness, and
 * URL path globs whose texts meet only as written, not in lower case.
 */
import { describe, expect, it } from "vitest";
import { ToolPolicy } from "../../src/runtime/policy.js";
import { type FieldDomain, numberRepresentatives, type StringTheory } from "../../src/verify/field-domain.js";
import { Verifier } from "../../src/verify/verify-properties.js";
import { factsOf, ruledOut } from "./facts-harness.js";
import { loadFromText, reachable, readFileTools, stringField } from "./helpers.js";

function theoryOf(domain: FieldDomain): StringTheory {
  const theory = domain.strings();
  if (theory === null) throw new Error("strings are not modelled");
  return theory;
}

describe("the multiples of a piece the search does not try to its end", () => {
  it("marks no piece uncertain where a multiple of every kind is found", () => {
    // The pieces past 0 are open: the multiples are tried 64 steps in and never leave them. 0.5 (or 1) is a multiple
    // of 0.5, the only kind that matters, so both pieces are certain.
    const one = numberRepresentatives([0], [0.5]);
    expect(one.uncertain).toEqual([]);
    expect(one.values).toContain(0.5);
    // With two steps, each kind of a multiple of some of them: 2 (of 2 only), 3 (of 3 only), 6 (of both), and their
    // negatives below 0.
    const two = numberRepresentatives([0], [2, 3]);
    expect(two.uncertain).toEqual([]);
    for (const v of [2, 3, 6, -2, -3, -6]) expect(two.values).toContain(v);
    // Where a side reads only integers, an integer multiple of each kind (0.5 and 1 of 0.5).
    expect(numberRepresentatives([0], [0.5], "some").uncertain).toEqual([]);
    expect(numberRepresentatives([0], [2, 3], "all").uncertain).toEqual([]);
  });
});

const READ_FILE = readFileTools("^[^A-Z]*$");

/** The witness path of a property on `read_file`, and the controller's decision on it. */
function readFileWitness(
  policy: string,
  where: unknown,
): { status?: string; path?: string; decision?: string } {
  const { bundle, validators } = loadFromText(READ_FILE, policy);
  const [result] = new Verifier(bundle, validators).verify([
    { id: "p", tools: ["read_file"], where: where as never, kind: "never", action: "allow" },
  ]);
  const path = (result?.witness?.arguments as { path?: string } | undefined)?.path;
  if (path === undefined) return { status: result?.status };
  const decision = ToolPolicy.fromStatements(bundle.statements).decide({
    callId: "c",
    toolName: "read_file",
    arguments: { path },
  }).action;
  return { status: result?.status, path, decision };
}

describe("an `equals` or `in` text spelt as a path", () => {
  // The schema takes no capital letter: `.ENV`, which the glob may match ignoring case, is no call.

  it("finds `./.env` where a deny rule names `.env` with `equals`", () => {
    // `equals` compares the text as written, the glob reads the path's normal form: `./.env` is `.env` to the glob
    // and not to the rule, and the other files the property names (`.env.local`) are denied by a glob. The glob's own
    // text (`.env,.env.a` with its braces and wildcard dropped) spells no path it matches: the witness is the
    // rule's text spelt so.
    const policy = `version: 1
allow: [read_file]
rules:
  - id: env
    tools: [read_file]
    decision: deny
    when: { path: { equals: .env } }
    reason: secrets.
  - id: env-variants
    tools: [read_file]
    decision: deny
    when: { path: { glob: ".env.*" } }
    reason: secrets.
`;
    const found = readFileWitness(policy, { path: { glob: "{.env,.env.*}" } });
    expect(found).toEqual({ status: "fails", path: "./.env", decision: "allow" });
  });

  it("finds `./.env` where a deny rule names the files with `in`", () => {
    const policy = `version: 1
allow: [read_file]
rules:
  - id: env
    tools: [read_file]
    decision: deny
    when: { path: { in: [.env, .env.local] } }
    reason: secrets.
`;
    const found = readFileWitness(policy, { path: { glob: "{.env,.env.local}" } });
    expect(found).toEqual({ status: "fails", path: "./.env", decision: "allow" });
  });
});

describe("other spellings of a path a glob names", () => {
  it.each([
    // Windows drops a trailing dot: the glob may match `.env.`, and only that spelling has these truths.
    [".env", ".env.", "21"],
    ["src/.env", "src/.env.", "21"],
    // A dot segment, a doubled slash or a climb back are the same path to every platform: the glob is certain.
    [".env", "./.env", "11"],
    [".env", ".env/", "11"],
    [".env", ".env/.", "11"],
    [".env", "x/../.env", "11"],
    ["src/.env", "src/./.env", "11"],
    ["src/.env", "src//.env", "11"],
    ["src/.env", "src/.env/", "11"],
    // A climb out of the workspace may name any file; a backslash is a separator on Windows only.
    [".env", "../.env", "21"],
    ["src/.env", "src\\.env", "21"],
  ])("glob %s: the witness of an operator true on %s alone", (glob, text, truths) => {
    // An operator the theory does not know, true on one string: the only witness is that string, among the
    // spellings of the glob's own shortest paths.
    const domain = stringField([["glob", glob]], text);
    expect(domain.atoms.map((a) => a.test(text)).join("")).toBe(truths);
    const found = reachable(domain).find((r) => r.truths === truths);
    expect(found?.witness).toEqual({ text, loose: true });
  });
});

describe("a compound command as a second witness", () => {
  it("is offered where a command list is a maybe, and not where each is certain or false", () => {
    // One list of both prefixes is certain of `git status && npm test` (each part starts with one of them): with the
    // list true, the compound has the truths, but the controller decides it as it decides `git status`, so it is
    // not offered.
    const single = stringField([["command", ["git status", "npm test"]]]);
    const certain = reachable(single).find((r) => r.truths === "1");
    if (certain === undefined) throw new Error("1 is reachable");
    expect(theoryOf(single).witnesses(certain.state, "certain")).toEqual([
      { text: "git status", loose: true },
    ]);
    // A `url` operator is a maybe on a line it cannot read as a URL, the compound too; a maybe of another operator
    // than a command list is no reason to offer it.
    const url = stringField([
      ["command", ["git status", "npm test"]],
      ["url", { host: "x.org" }],
    ]);
    expect(url.atoms.map((a) => a.test("git status && npm test")).join("")).toBe("12");
    const other = reachable(url).find((r) => r.truths === "12");
    if (other === undefined) throw new Error("12 is reachable");
    expect(theoryOf(url).witnesses(other.state, "other")).toEqual([{ text: "git status", loose: true }]);
    // Beside a list of `git status` alone, which is a maybe on the compound (its part `npm test` runs no
    // `git status`, its part `git status` does): offered after the first witness.
    const pair = stringField([
      ["command", ["git status"]],
      ["command", ["git status", "npm test"]],
    ]);
    expect(pair.atoms.map((a) => a.test("git status && npm test")).join("")).toBe("21");
    const maybe = reachable(pair).find((r) => r.truths === "21");
    if (maybe === undefined) throw new Error("21 is reachable");
    const found = theoryOf(pair).witnesses(maybe.state, "maybe");
    expect(found).toHaveLength(2);
    expect(found[1]).toEqual({ text: "git status && npm test", loose: true });
  });
});

describe("URL path globs whose texts meet only as written", () => {
  it("keeps a glob apart from another only where neither spelling of it meets the other's text", () => {
    // `/AΣ*` in lower case is `/aς*` (a final sigma: nothing follows the Σ but the wildcard), and `/AΣB` is `/aσb`:
    // the lower-case texts do not meet. But the glob as written matches `/AΣB`: the runtime is certain of both on
    // `https://x.org/A%CE%A3B`, so no assignment is ruled out.
    const ops = [
      ["url", { path: "/AΣB" }],
      ["url", { path: "/AΣ*" }],
    ] as const;
    const { facts, atoms } = factsOf(ops);
    const truths = atoms.map((a) => a.test("https://x.org/A%CE%A3B"));
    expect(truths).toEqual([1, 1]);
    expect(facts.allows(new Map(truths.map((t, i) => [i, t])))).toBe(true);
    expect(ruledOut(facts, ops.length)).toEqual([]);
  });
});
