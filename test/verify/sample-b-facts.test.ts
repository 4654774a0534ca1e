/**
 * Answers of the verify engine the broader tests do not reach (found by mutation testing of a sample of its lines):
 * a search that runs out of its budget (set small through the Verifier's options) is `unknown`, never `holds`; the
 * reason kept when a property's parts and its whole strings both stay `unknown`; a later part's `regex` that is not a
 * sequence; `diff` reading a tightening of a shell tool's `command` list as complete; a `{` in a pattern's start
 * that is no quantifier; and the shell's reserved words (`do`, `in`, `function`, `coproc`, …), which are no plain first words.
 */
import { describe, expect, it } from "vitest";
import { diffRegions } from "../../src/verify/diff-regions.js";
import { firstWordStarts, lineStartsRegex, plainFirstWord } from "../../src/verify/facts.js";
import { laterPartStartOf, type Property, Verifier } from "../../src/verify/verify-properties.js";
import { loadFromText, shellTools } from "./helpers.js";

const BUDGET_TOOLS = `tools:
  - name: t
    description: A name and an object.
    input_schema:
      type: object
      properties:
        name: { type: string, maxLength: 8 }
        meta: { type: object }
      required: [name]
      additionalProperties: false
`;

const BUDGET_POLICY = `version: 1
allow: [t]
rules:
  - id: no-rm
    tools: [t]
    decision: deny
    when: { name: { regex: "^rm" } }
    reason: no rm.
`;

// True: a call whose name is `ls` never starts with `rm`. `meta` equal to an object is read from an option the
// engine cannot build (an object whose contents are not enumerated): only the second search, which may leave a field
// abstract, visits it, so that search needs more visits than the first.
const NEVER_DENY_LS: Property = {
  id: "p",
  tools: ["t"],
  kind: "never",
  action: "deny",
  where: { meta: { equals: { a: 1 } }, name: { equals: "ls" } },
};

describe("a search that runs out of its budget", () => {
  const { bundle, validators } = loadFromText(BUDGET_TOOLS, BUDGET_POLICY);
  const verify = (budget?: number) =>
    new Verifier(bundle, validators, budget === undefined ? {} : { budget }).verify([NEVER_DENY_LS])[0];
  const outOfBudget = { id: "p", status: "unknown", reason: "the search ran out of its budget" };

  it("holds with the default budget, and with a large one", () => {
    // The property is true; the default budget, and any budget large enough, decides it.
    expect(verify()).toEqual({ id: "p", status: "holds" });
    expect(verify(1000)).toEqual({ id: "p", status: "holds" });
  });

  it("is unknown when the search for calls the engine can build runs out", () => {
    // One visit: the first search (calls the engine builds) stops at once.
    expect(verify(1)).toEqual(outOfBudget);
  });

  it("is unknown when only the search for calls it cannot build runs out", () => {
    // Seven visits: the first search completes (six visits, no call), the second (nine visits, through the object
    // it cannot build) stops. Without a model, an incomplete search says nothing: `holds` would be unsound.
    expect(verify(7)).toEqual(outOfBudget);
  });

  it("never holds until the budget suffices, and holds from then on", () => {
    // Whatever the budget, the answer is the budget's `unknown` or `holds`, and a larger budget never loses `holds`.
    const answers = Array.from({ length: 16 }, (_, i) => verify(i + 1));
    for (const answer of answers) expect([outOfBudget, { id: "p", status: "holds" }]).toContainEqual(answer);
    const first = answers.findIndex((a) => a?.status === "holds");
    expect(first).toBeGreaterThan(6);
    expect(answers.slice(first).every((a) => a?.status === "holds")).toBe(true);
  });
});

describe("a first search that runs out of its budget where the second would find a call", () => {
  it("is unknown for the budget, not for the call the second search would find", () => {
    // `meta` equal to both { a: 1 } and { a: 2 } is no object, but the engine does not enumerate the contents of
    // objects: a call may break the property as far as it knows (the second search finds one in nine visits, with
    // the first value of `n`). The first search finds none of the calls it builds only after trying every value of
    // `n` (eighteen visits). With twelve, it runs out: an incomplete search, whatever the second one would say.
    const tools = `tools:
  - name: t
    description: A count and an object.
    input_schema:
      type: object
      properties:
        n: { type: integer, minimum: 0, maximum: 10 }
        meta: { type: object }
      required: [n]
      additionalProperties: false
`;
    const policy = `version: 1
allow: [t]
rules:
  - { id: big, tools: [t], decision: deny, when: { n: { min: 3 }, meta: { equals: { a: 2 } } }, reason: no. }
`;
    const { bundle, validators } = loadFromText(tools, policy);
    const property: Property = {
      id: "p",
      tools: ["t"],
      kind: "never",
      action: "deny",
      where: { meta: { equals: { a: 1 } } },
    };
    const verify = (budget?: number) =>
      new Verifier(bundle, validators, budget === undefined ? {} : { budget }).verify([property])[0];
    expect(verify()).toEqual({
      id: "p",
      status: "unknown",
      reason: "no witness found, but a call may break it: meta: the contents of objects are not enumerated",
    });
    expect(verify(12)).toEqual({ id: "p", status: "unknown", reason: "the search ran out of its budget" });
  });
});

describe("a property decided by parts whose parts and whole strings both stay unknown", () => {
  it("reports the parts' reason", () => {
    // No call of `sh` is valid (two properties needed, one declared): every call the engine finds is refused by the
    // controller. The parts' search (a `never allow` on the `command` field) finds one such call, the whole strings'
    // search four: both `unknown`, and the parts' answer, the one asked first, is the one reported.
    const tools = `tools:
  - name: sh
    description: No call of it is valid.
    input_schema:
      type: object
      properties:
        command: { type: string, minLength: 1, maxLength: 64 }
      required: [command]
      additionalProperties: false
      minProperties: 2
`;
    const policy = `version: 1
rules:
  - { id: ls, tools: [sh], decision: allow, when: { command: { command: ["ls"] } }, reason: listing. }
  - { id: rm, tools: [sh], decision: deny, when: { command: { regex: "rm" } }, reason: no rm. }
`;
    const { bundle, validators } = loadFromText(tools, policy);
    const [result] = new Verifier(bundle, validators).verify([
      { id: "p", tools: ["sh"], kind: "never", action: "allow" },
    ]);
    expect(result).toEqual({
      id: "p",
      status: "unknown",
      reason: "1 call(s) the engine found were not confirmed by the controller",
    });
  });
});

describe("laterPartStartOf on a pattern that is not a sequence", () => {
  it("reads no later part from a pattern the parser refuses", () => {
    // `a(` does not parse: no reading (and no error).
    expect(laterPartStartOf({ regex: "a(" })).toBeUndefined();
    expect(laterPartStartOf({ regex: "(?<=a)b" })).toBeUndefined();
  });

  it("reads no line start from a top-level alternative", () => {
    // `^rm|sh` matches `echo sh` too: the `^` names the start of the first alternative only, so the pattern says
    // nothing of how the line starts (read as its whole, `rm|sh` would be a word start).
    expect(laterPartStartOf({ regex: "^rm|sh" })).toBeUndefined();
    expect(laterPartStartOf({ regex: "^a|b" })).toBeUndefined();
    expect(/^rm|sh/.test("echo sh")).toBe(true);
  });
});

describe("diff of a shell tool whose deny list grows", () => {
  it("is a tightening, complete: no whole string is decided more loosely, so no compound command either", () => {
    const policy = (deny: string) => `version: 1
otherwise: { shell: ask }
rules:
  - { id: safe, tools: [shell], decision: allow, when: { command: { command: ["ls", "pwd"] } }, reason: safe. }
  - { id: bad, tools: [shell], decision: deny, when: { command: { command: [${deny}] } }, reason: bad. }
`;
    const side = (label: string, deny: string) => ({
      label,
      ...loadFromText(shellTools("shell", 200), policy(deny)),
    });
    // Only when the search for a string decided more loosely is exhaustive over the atoms both sides read can the
    // compound commands be read by their parts; an incomplete answer would be `unknown`.
    const [shell] = diffRegions(side("base", '"rm"'), side("head", '"rm", "curl"'));
    expect(shell?.status, JSON.stringify(shell)).toBe("complete");
    expect(shell?.changes.some((c) => c.change === "loosened")).toBe(false);
    expect(shell?.changes.some((c) => c.change === "tightened")).toBe(true);
  });
});

describe("a `{` in a pattern's start that is no quantifier", () => {
  it("ends the reading of the group that holds it", () => {
    // `a{x` is the text `a{x` (the `{` is no count): the group is not read, and the line start is `ls` and a blank
    // alone, not `ls a` or `ls x` (the `x` would be read as an alternative of the group).
    expect(lineStartsRegex("^ls (a{x)")).toEqual([{ words: ["ls"] }]);
    expect(firstWordStarts("regex", "^(a{x)")).toBeUndefined();
    expect(/^ls (a{x)/.test("ls a{x")).toBe(true);
    expect(/^ls (a{x)/.test("ls x")).toBe(false);
  });
});

describe("reserved words", () => {
  it.each([
    ...["if", "then", "else", "elif", "fi", "do", "done", "case", "esac", "while", "until", "for", "in"],
    ...["function", "select", "time", "coproc"],
  ])("%s is no plain first word", (word) => {
    // The POSIX shell's reserved words, and bash's and zsh's `function`, `select`, `time` and `coproc` (`function f
    // { … }` defines a function, `coproc cmd` runs a coprocess): the word is the shell's, not a program's, so a line
    // starting with it is not a simple command named by it.
    expect(plainFirstWord(word)).toBe(false);
    expect(lineStartsRegex(`^${word} x`)).toBeUndefined();
    // A program name that merely starts with it is plain.
    expect(plainFirstWord(`${word}s`)).toBe(true);
  });
});
