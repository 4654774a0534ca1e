/**
 * Command strings outside what the automata model: a loose region of a few strings is settled by running every
 * atom on each, and a compound command made of the policy's own command words is tried as a witness.
 */
import { describe, expect, it } from "vitest";
import { ToolPolicy } from "../../src/runtime/policy.js";
import { AlphabetBuilder } from "../../src/verify/alphabet.js";
import {
  ANY_LENGTH,
  allStrings,
  complement,
  constant,
  lengthRange,
  literals,
  union,
} from "../../src/verify/dfa.js";
import { Verifier } from "../../src/verify/verify-properties.js";
import { loadFromText } from "./helpers.js";

describe("allStrings", () => {
  const builder = new AlphabetBuilder();
  builder.addText("ab c");
  // A class of many code points: the digits, never split by a text above.
  builder.addRanges([0x30, 0x39]);
  const alphabet = builder.build();

  it("lists every string of a finite language of single code points, shortest first", () => {
    const dfa = literals(alphabet, ["ab", "a", "c", "ba c"]);
    expect(allStrings(alphabet, dfa, ANY_LENGTH, 10)?.sort()).toEqual(["a", "ab", "ba c", "c"]);
    expect(allStrings(alphabet, dfa, lengthRange(2, 3), 10)).toEqual(["ab"]);
    expect(allStrings(alphabet, literals(alphabet, []), ANY_LENGTH, 10)).toEqual([]);
    expect(allStrings(alphabet, literals(alphabet, [""]), ANY_LENGTH, 10)).toEqual([""]);
  });

  it("gives up on more strings than asked, an infinite language, or an automaton past its states", () => {
    const four = literals(alphabet, ["a", "b", "c", "ab"]);
    expect(allStrings(alphabet, four, ANY_LENGTH, 3)).toBeUndefined();
    expect(allStrings(alphabet, four, ANY_LENGTH, 4)).toHaveLength(4);
    // More strings than asked, even when the lengths asked for hold fewer.
    expect(allStrings(alphabet, four, lengthRange(2, 2), 3)).toBeUndefined();
    expect(allStrings(alphabet, constant(alphabet.size, true), lengthRange(0, 0), 100)).toBeUndefined();
    expect(allStrings(alphabet, complement(four), ANY_LENGTH, 1000)).toBeUndefined();
    const digit = literals(alphabet, ["7"]);
    expect(allStrings(alphabet, union(four, digit), ANY_LENGTH, 20, 2)).toBeUndefined();
    expect(allStrings(alphabet, union(four, digit), ANY_LENGTH, 20)).toHaveLength(14);
  });

  it("spells a symbol of several code points as each of them (the automaton reads every digit as `7`)", () => {
    const digit = literals(alphabet, ["7"]);
    expect(allStrings(alphabet, digit, ANY_LENGTH, 10)).toEqual([..."0123456789"]);
    expect(allStrings(alphabet, digit, ANY_LENGTH, 9)).toBeUndefined();
    const pairs = literals(alphabet, ["a7", "77"]);
    expect(allStrings(alphabet, pairs, ANY_LENGTH, 110)).toHaveLength(110);
    expect(allStrings(alphabet, pairs, lengthRange(2, 2), 109)).toBeUndefined();
    // A symbol for the rest of Unicode is never spelt out.
    const other = literals(alphabet, ["\u{1f600}"]);
    expect(allStrings(alphabet, other, ANY_LENGTH, 1000)).toBeUndefined();
  });
});

const TOOLS = JSON.stringify({
  tools: [
    {
      name: "run_shell",
      description: "Runs a shell command.",
      input_schema: {
        type: "object",
        properties: { command: { type: "string" } },
        required: ["command"],
        additionalProperties: false,
      },
    },
  ],
});

const POLICY = JSON.stringify({
  version: 1,
  rules: [
    {
      id: "safe",
      tools: ["run_shell"],
      decision: "allow",
      when: { command: { command: ["git status", "ls"] } },
      reason: "read-only",
    },
    {
      id: "test-suite",
      tools: ["run_shell"],
      decision: "allow",
      when: { command: { regex: "^npm test$" } },
      reason: "exactly npm test",
    },
    {
      id: "test-suite-with-words",
      tools: ["run_shell"],
      decision: "ask",
      when: { command: { command: ["npm test"], not: { regex: "^npm test$" } } },
      reason: "words after npm test",
    },
  ],
});

/** The policy with a rule that asks for quotes and backslashes (which hide words from the other rules). */
const QUOTES_ASK = JSON.stringify({
  ...JSON.parse(POLICY),
  rules: [
    ...(JSON.parse(POLICY) as { rules: unknown[] }).rules,
    {
      id: "quotes-ask",
      tools: ["run_shell"],
      decision: "ask",
      when: { command: { regex: "['\"\\\\]" } },
      reason: "quotes hide words",
    },
  ],
});

function verify(where: unknown) {
  const { bundle, validators } = loadFromText(TOOLS, POLICY);
  const [result] = new Verifier(bundle, validators).verify([
    { id: "p", tools: ["run_shell"], where: where as never, kind: "never", action: "allow" },
  ]);
  return { result, policy: ToolPolicy.fromStatements(bundle.statements) };
}

describe("command properties", () => {
  it("holds where the only string a regex allows gives the property's command atom false", () => {
    const { result } = verify({ command: { command: ["npm test --"] } });
    expect(result?.status, JSON.stringify(result)).toBe("holds");
  });

  it("settles a region of a few strings through a class of characters (`find . -maxdepth [0-9]`)", () => {
    const policy = JSON.stringify({
      version: 1,
      rules: [
        {
          id: "inspect",
          tools: ["run_shell"],
          decision: "allow",
          when: { command: { command: [{ prefix: "find", options: ["-name", "-maxdepth"] }] } },
          reason: "read-only",
        },
        {
          id: "changes-files",
          tools: ["run_shell"],
          decision: "deny",
          when: { command: { command: ["find -delete", "find -exec"] } },
          reason: "changes files",
        },
      ],
    });
    const { bundle, validators } = loadFromText(TOOLS, policy);
    const verifier = new Verifier(bundle, validators);
    const results = verifier.verify([
      {
        id: "depth",
        tools: ["run_shell"],
        where: { command: { regex: "^find \\. -maxdepth [0-9]$" } },
        kind: "always",
        action: "allow",
      },
      {
        id: "depth-or-delete",
        tools: ["run_shell"],
        where: { command: { regex: "^find \\. -(maxdepth [0-9]|delete)$" } },
        kind: "always",
        action: "allow",
      },
    ]);
    expect(
      results.map((r) => r.status),
      JSON.stringify(results),
    ).toEqual(["holds", "fails"]);
    expect(results[1]?.witness?.arguments).toEqual({ command: "find . -delete" });
  });

  it("fails with a program named with a version the shorter name's list misses (python3-1, not python)", () => {
    const policy = JSON.stringify({
      version: 1,
      otherwise: { run_shell: "ask" },
      rules: [
        {
          id: "no-interpreters",
          tools: ["run_shell"],
          decision: "deny",
          when: { command: { command: ["python", "rm"] } },
          reason: "no",
        },
      ],
    });
    const { bundle, validators } = loadFromText(TOOLS, policy);
    const [result] = new Verifier(bundle, validators).verify([
      {
        id: "p",
        tools: ["run_shell"],
        where: { command: { command: ["python3"] } },
        kind: "always",
        action: "deny",
      },
    ]);
    expect(result?.status, JSON.stringify(result)).toBe("fails");
    const args = result?.witness?.arguments as { command: string };
    expect(args.command).toMatch(/^python3[-_]/);
    expect(
      ToolPolicy.fromStatements(bundle.statements).decide({
        callId: "c",
        toolName: "run_shell",
        arguments: args,
      }).action,
    ).toBe("ask");
  });

  it("fails with a quoted plain word in a part, which the runtime writes back without quotes (ls 'a' && ls)", () => {
    const { bundle, validators } = loadFromText(TOOLS, QUOTES_ASK);
    const policy = ToolPolicy.fromStatements(bundle.statements);
    for (const quote of ["'", '"']) {
      const [result] = new Verifier(bundle, validators).verify([
        {
          id: "p",
          tools: ["run_shell"],
          where: { command: { regex: quote } },
          kind: "never",
          action: "allow",
        },
      ]);
      expect(result?.status, JSON.stringify(result)).toBe("fails");
      const args = result?.witness?.arguments as { command: string };
      expect(args.command).toContain(`${quote}a${quote}`);
      expect(policy.decide({ callId: "c", toolName: "run_shell", arguments: args }).action).toBe("allow");
    }
  });

  it("fails with a compound command allowed part by part, which the controller confirms", () => {
    const { result, policy } = verify({ command: { command: ["npm test"], not: { regex: "^npm test$" } } });
    expect(result?.status, JSON.stringify(result)).toBe("fails");
    const args = result?.witness?.arguments as { command: string };
    expect(args.command).toMatch(/ (&&|\|) /);
    expect(result?.witness?.decision).toBe("allow");
    expect(policy.decide({ callId: "c", toolName: "run_shell", arguments: args }).action).toBe("allow");
  });

  it("fails with two allowed commands joined by the separator the where reads (a pipe, a `;`)", () => {
    // Quotes ask, so a separator inside them (`ls '|'`) is no witness: only two commands joined by it are.
    const { bundle, validators } = loadFromText(TOOLS, QUOTES_ASK);
    const policy = ToolPolicy.fromStatements(bundle.statements);
    for (const [regex, separator] of [
      ["\\|", "|"],
      [";", ";"],
      ["\\n", "\n"],
    ] as const) {
      const [result] = new Verifier(bundle, validators).verify([
        { id: "p", tools: ["run_shell"], where: { command: { regex } }, kind: "never", action: "allow" },
      ]);
      expect(result?.status, `${regex}: ${JSON.stringify(result)}`).toBe("fails");
      const args = result?.witness?.arguments as { command: string };
      expect(args.command).toContain(separator);
      expect(args.command).toMatch(/^(git status|ls)\b/);
      expect(policy.decide({ callId: "c", toolName: "run_shell", arguments: args }).action).toBe("allow");
    }
  });

  it("decides a line by the part after a separator: holds for a program no prefix starts, fails by a joined part", () => {
    const policy = ToolPolicy.fromStatements(loadFromText(TOOLS, POLICY).bundle.statements);
    // Quoted, the separator and the program are one word of an allowed command.
    const quoted = verify({ command: { regex: "\\| *sh" } }).result;
    expect(quoted?.status, JSON.stringify(quoted)).toBe("fails");
    expect(JSON.stringify(quoted?.witness?.arguments)).toMatch(/^\{"command":"(ls|git status) ['\\"]/);
    const { bundle, validators } = loadFromText(TOOLS, QUOTES_ASK);
    for (const regex of ["\\| *sh", ";\\s*curl(\\s|$)", "^rm", "curl.*\\|\\s*sh"]) {
      const [result] = new Verifier(bundle, validators).verify([
        { id: "p", tools: ["run_shell"], where: { command: { regex } }, kind: "never", action: "allow" },
      ]);
      expect(result?.status, `${regex}: ${JSON.stringify(result)}`).toBe("holds");
    }
    for (const regex of ["\\|\\| *npm", "&& *git", "\\| *l", "&&\\s*npm(\\s|$)"]) {
      const { result } = verify({ command: { regex } });
      expect(result?.status, `${regex}: ${JSON.stringify(result)}`).toBe("fails");
      const args = result?.witness?.arguments as { command: string };
      expect(policy.decide({ callId: "c", toolName: "run_shell", arguments: args }).action).toBe("allow");
      expect(new RegExp(regex).test(args.command), args.command).toBe(true);
    }
  });

  it("fails with an allowed command and a redirection the runtime reads as harmless (`ls 2>&1`)", () => {
    const policy = ToolPolicy.fromStatements(loadFromText(TOOLS, POLICY).bundle.statements);
    for (const regex of [">", "/dev/null", "<", "2>"]) {
      const { result } = verify({ command: { regex } });
      expect(result?.status, `${regex}: ${JSON.stringify(result)}`).toBe("fails");
      const args = result?.witness?.arguments as { command: string };
      expect(args.command).toMatch(/^(git status|ls) [0-9&]*[<>]/);
      expect(policy.decide({ callId: "c", toolName: "run_shell", arguments: args }).action).toBe("allow");
    }
  });
});
