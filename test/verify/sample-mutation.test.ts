/**
 * Candidates and regions of the string theory the broader tests do not reach (found by mutation testing of
 * field-domain.ts on a sample of its lines): an array padded to `minItems` as the only witness, the alphabet of a
 * single glob cut for its whole text, the inert programs a loose region of lines meets, the operands of an inert
 * program as a loose witness, a fixed path spelling with a stream name, a field's fixed texts joined into a compound
 * command, and the spellings of a path in upper case or in a case a glob's seed reads ignoring case.
 */
import { describe, expect, it } from "vitest";
import { ToolPolicy } from "../../src/runtime/policy.js";
import { Verifier } from "../../src/verify/verify-properties.js";
import { loadFromText, reachable, shellTools, stringField, summary } from "./helpers.js";

/** The witness of `truths` in a field with an operator true on `text` alone. */
function customWitness(operators: readonly (readonly [string, unknown])[], text: string, truths: string) {
  const domain = stringField(operators, text);
  expect(domain.atoms.map((a) => a.test(text)).join("")).toBe(truths);
  return reachable(domain).find((r) => r.truths === truths)?.witness;
}

const STAGE = `tools:
  - name: stage
    description: Stage files.
    input_schema:
      type: object
      properties:
        paths: { type: array, items: { type: string }, minItems: 2, maxItems: 4 }
      required: [paths]
      additionalProperties: false
`;

describe("an array padded to minItems", () => {
  it("is the only witness where every element is to be one value", () => {
    // `all` is true only on arrays whose every element equals `.env`: `[".env"]` is too short for `minItems: 2`, and
    // every array grown with another kind of element has `all` false. The array padded with its first element (which
    // changes no answer) is the one valid array the rule denies.
    const policy = `version: 1
allow: [stage]
rules:
  - id: env-only
    tools: [stage]
    decision: deny
    when: { paths: { all: { equals: .env } } }
    reason: secrets alone.
`;
    const { bundle, validators } = loadFromText(STAGE, policy);
    const [result] = new Verifier(bundle, validators).verify([
      { id: "never-deny", tools: ["stage"], kind: "never", action: "deny" },
    ]);
    expect(result?.status, JSON.stringify(result)).toBe("fails");
    const paths = (result?.witness?.arguments as { paths?: string[] } | undefined)?.paths;
    expect(paths).toEqual([".env", ".env"]);
    const decision = ToolPolicy.fromStatements(bundle.statements).decide({
      callId: "c",
      toolName: "stage",
      arguments: { paths },
    }).action;
    expect(decision).toBe("deny");
  });
});

describe("a single glob cuts the field's alphabet for its whole text", () => {
  it.each([
    // A text not in NFC (`e` and a combining accent): the runtime reads it several ways, so the glob is never
    // certain, and a maybe on the text itself. The glob is also read in NFC (`café` with a precomposed é): the
    // alphabet is cut at that character, which no character of the text as written is.
    ["cafe\u0301", ["0=a", "1=-", "2=cafe\u0301~"]],
    // A class of characters: `ax` is matched as written, `aX` may be ignoring case.
    ["[a-c]x", ["0=a", "1=ax", "2=aX"]],
  ])("glob %s as a string reads as the list of it", (glob, expected) => {
    // The string theory of a field read by one glob written as a string is that of the same glob in a list.
    expect(summary(stringField([["glob", glob]]))).toEqual(expected);
    expect(summary(stringField([["glob", [glob]]]))).toEqual(expected);
  });
});

const SHELL = shellTools("sh", 64);

/** One property on `sh`, and the controller's decision on a command. */
function verifyShell(policy: string, where: unknown, kind: "never" | "always", action: "allow" | "deny") {
  const { bundle, validators } = loadFromText(SHELL, policy);
  const [result] = new Verifier(bundle, validators).verify([
    { id: "p", tools: ["sh"], where: where as never, kind, action },
  ]);
  const decide = (command: string) =>
    ToolPolicy.fromStatements(bundle.statements).decide({
      callId: "c",
      toolName: "sh",
      arguments: { command },
    }).action;
  return { result, decide };
}

describe("the inert programs a loose region of lines meets", () => {
  it("settles the lists by the programs of the region's lines alone, not by another one a rule names", () => {
    // Every `echo` line is allowed by the first list and every `cat` line by the second (each holds its program
    // alone, which never runs its operands). `wc`, which the ask rule's prefix names, is an inert program too, and
    // both lists are false on its lines: were its lines counted in a region of `echo` and `cat` lines, both lists
    // false would seem possible there, and the property would not be proved.
    const policy = `version: 1
rules:
  - { id: echo, tools: [sh], decision: allow, when: { command: { command: [echo, ls] } }, reason: fine. }
  - { id: cat, tools: [sh], decision: allow, when: { command: { command: [cat, ls] } }, reason: fine. }
  - { id: wc, tools: [sh], decision: ask, when: { command: { prefix: "wc " } }, reason: counts. }
`;
    const { result, decide } = verifyShell(
      policy,
      { command: { regex: "^(echo|cat) [a-z]+$" } },
      "always",
      "allow",
    );
    expect(result?.status, JSON.stringify(result)).toBe("holds");
    for (const command of ["echo hi", "cat notes", "echo rm"]) expect(decide(command), command).toBe("allow");
    expect(decide("wc notes")).toBe("ask");
  });
});

describe("the operands of an inert program as a witness", () => {
  it("is loose: `ls rm` is a line of two words where `rm` runs nowhere", () => {
    // `^\w+ rm$` true and the list `rm` false: the runtime runs no `rm` in `ls rm` (`ls` never runs its operands),
    // the pattern sees two words. The witness is a candidate of the loose region, checked by running the atoms.
    expect(
      summary(
        stringField([
          ["regex", "^\\w+ rm$"],
          ["command", ["rm"]],
        ]),
      ),
    ).toEqual(["00=a~", "01=rm~", "02=a a rm~", "10=ls rm~", "11=rm rm~", "12=a rm~"]);
  });
});

describe("a path with a stream name", () => {
  it("is the witness of an operator true on `a/b:c` alone, where the glob `a/b` is a maybe", () => {
    // Windows reads `b:c` as the stream `c` of the file `b`: the path may be `a/b`, which the glob matches; the
    // POSIX reading `a/b:c` it does not. Only the fixed spelling of the path candidates has these truths.
    expect(customWitness([["glob", "a/b"]], "a/b:c", "21")).toEqual({ text: "a/b:c", loose: true });
  });
});

describe("the fixed texts of a field joined into a compound command", () => {
  it("finds `ls && ls`, allowed part by part, where a rule allows only `^ls$`", () => {
    // The runtime decides a compound command by its parts: each `ls` is allowed by the pattern of the whole string
    // `ls`, so `ls && ls` is allowed though no rule's pattern matches it. `ls`, the one string of `^ls$`, is a fixed
    // text of the field, and no command list is true on it.
    const policy = `version: 1
rules:
  - { id: ls, tools: [sh], decision: allow, when: { command: { regex: "^ls$" } }, reason: ls is fine. }
  - { id: rm, tools: [sh], decision: deny, when: { command: { command: ["rm -rf"] } }, reason: no. }
`;
    const { result, decide } = verifyShell(policy, { command: { regex: "&&" } }, "never", "allow");
    expect(result?.status, JSON.stringify(result)).toBe("fails");
    const command = (result?.witness?.arguments as { command?: string } | undefined)?.command ?? "";
    expect(command).toBe("ls && ls");
    expect(decide(command)).toBe("allow");
  });
});

describe("spellings of a path in another case", () => {
  it("tries the upper-case spelling of a path the field's patterns name", () => {
    // A case-insensitive regex takes every spelling of `secret/abc`; the glob `x` is false on all of them. The
    // spelling in upper case, as a case-insensitive file system may read the lower-case one, is tried among the
    // other spellings of the path, and only it has the custom operator true.
    const operators = [
      ["glob", "x"],
      ["regex", { pattern: "^secret/abc$", flags: "i" }],
    ] as const;
    expect(customWitness(operators, "SECRET/ABC", "011")).toEqual({ text: "SECRET/ABC", loose: true });
  });

  it("draws a glob's candidates from its shape read ignoring case", () => {
    // The runtime's glob may match `Ab` on a case-insensitive file system (a maybe): the glob's seed, its own shape
    // read ignoring case, spells `Ab`, which neither the text as written nor its upper case is.
    expect(customWitness([["glob", "ab"]], "Ab", "21")).toEqual({ text: "Ab", loose: true });
  });
});
