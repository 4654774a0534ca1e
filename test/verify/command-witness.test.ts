/**
 * Witnesses of shell properties that only a spelling the runtime reads as other words breaks: an option a prefix
 * lists quoted after its first character, the later words of another list's prefix after an allowed one, a text a
 * pattern needs in a quoted word, and a compound command whose later part's run is quoted whole. Each witness is
 * decided again by the controller.
 */
import { describe, expect, it } from "vitest";
import { ToolPolicy } from "../../src/runtime/policy.js";
import { type Property, Verifier } from "../../src/verify/verify-properties.js";
import { loadFromText } from "./helpers.js";

const TOOLS = JSON.stringify({
  tools: [
    {
      name: "terminal",
      description: "Runs a command.",
      input_schema: {
        type: "object",
        properties: { command: { type: "string", minLength: 1, maxLength: 2048 } },
        required: ["command"],
        additionalProperties: false,
      },
    },
  ],
});

const POLICY = JSON.stringify({
  version: 1,
  otherwise: { terminal: "ask" },
  rules: [
    {
      id: "read-only",
      tools: ["terminal"],
      decision: "allow",
      when: {
        command: {
          command: [
            "git status$",
            "git diff",
            "ls",
            { prefix: "npm run", options: ["--silent"] },
            "make test$",
          ],
        },
      },
      reason: "read-only",
    },
    {
      id: "push",
      tools: ["terminal"],
      decision: "ask",
      when: { command: { command: ["git push"] } },
      reason: "pushes are reviewed",
    },
    {
      id: "make-only-trusted",
      tools: ["terminal"],
      decision: "deny",
      when: { command: { command: ["make"], not: { command: ["make test$"] } } },
      reason: "builds",
    },
  ],
});

const property = (
  id: string,
  regex: string,
  kind: "never" | "always",
  action: "allow" | "ask",
): Property => ({
  id,
  tools: ["terminal"],
  where: { command: { regex } },
  kind,
  action,
});

describe("witnesses of spellings the runtime reads as other words", () => {
  const { bundle, validators } = loadFromText(TOOLS, POLICY);
  const policy = ToolPolicy.fromStatements(bundle.statements);
  const decide = (command: string) =>
    policy.decide({ callId: "c", toolName: "terminal", arguments: { command } }).action;

  it.each([
    // `-'-silent'` is the listed option `--silent` to the runtime, and `-` then a quote to the pattern.
    [property("short-option", "^npm run -[^-]", "never", "allow"), "allow"],
    // `git diff push`: the runtime may read `push` as git's subcommand, so the ask of `git push` may match.
    [property("diff-word", "^git diff [a-z]+$", "never", "ask"), "ask"],
    // `git diff --stat push`: the same after an option, which a maybe seeded only at the line's start misses.
    [property("option-word", "^git diff --stat [a-z]+$", "always", "allow"), "ask"],
    // `ls '&&make'`: one simple command (the separator is quoted), allowed as `ls`.
    [property("quoted-run", "&&\\s*make", "never", "allow"), "allow"],
  ] as const)("%# breaks %o", (p, action) => {
    const [result] = new Verifier(bundle, validators).verify([p]);
    expect(result?.status, JSON.stringify(result)).toBe("fails");
    const command = String((result?.witness?.arguments as { command?: string } | undefined)?.command);
    const where = p.where?.command as { regex: string };
    expect(new RegExp(where.regex).test(command), command).toBe(true);
    expect(decide(command), command).toBe(action);
    expect(result?.witness?.decision).toBe(action);
  });
});

describe("witnesses of a first word spelt in parts", () => {
  it("finds a line continuation inside an allowed program's name that a pattern of its start reads", () => {
    const policy = JSON.stringify({
      version: 1,
      otherwise: { terminal: "ask" },
      rules: [
        {
          id: "tidy",
          tools: ["terminal"],
          decision: "allow",
          when: { command: { command: ["rmdir", "ls"] } },
          reason: "tidy",
        },
      ],
    });
    const { bundle, validators } = loadFromText(TOOLS, policy);
    const [result] = new Verifier(bundle, validators).verify([
      property("rm-start", "^rm\\b", "never", "allow"),
    ]);
    expect(result?.status, JSON.stringify(result)).toBe("fails");
    const command = String((result?.witness?.arguments as { command?: string } | undefined)?.command);
    expect(/^rm\b/.test(command), command).toBe(true);
    const decided = ToolPolicy.fromStatements(bundle.statements);
    expect(decided.decide({ callId: "c", toolName: "terminal", arguments: { command } }).action).toBe(
      "allow",
    );
  });
});

describe("witnesses of an operand spelt in parts", () => {
  it("finds a later word quoted from a character on, which a pattern of its text does not see", () => {
    const policy = JSON.stringify({
      version: 1,
      otherwise: { terminal: "ask" },
      rules: [
        {
          id: "read-only",
          tools: ["terminal"],
          decision: "allow",
          when: { command: { command: ["cat", "ls"] } },
          reason: "reads",
        },
        {
          id: "secrets",
          tools: ["terminal"],
          decision: "deny",
          when: { command: { regex: "\\.env\\b|id_rsa" } },
          reason: "secrets",
        },
      ],
    });
    const { bundle, validators } = loadFromText(TOOLS, policy);
    const [result] = new Verifier(bundle, validators).verify([
      {
        id: "env",
        tools: ["terminal"],
        where: { command: { command: ["cat .env"] } },
        kind: "never",
        action: "allow",
      },
    ]);
    expect(result?.status, JSON.stringify(result)).toBe("fails");
    const command = String((result?.witness?.arguments as { command?: string } | undefined)?.command);
    expect(command).toMatch(/^cat \S*'/);
    const decided = ToolPolicy.fromStatements(bundle.statements);
    expect(decided.decide({ callId: "c", toolName: "terminal", arguments: { command } }).action).toBe(
      "allow",
    );
  });
});

describe("witnesses of words a program's operands name", () => {
  const verifyOne = (
    rules: unknown[],
    otherwise: string,
    regex: string,
    kind: "never" | "always",
    action: "allow",
  ) => {
    const policy = JSON.stringify({ version: 1, otherwise: { terminal: otherwise }, rules });
    const { bundle, validators } = loadFromText(TOOLS, policy);
    const [result] = new Verifier(bundle, validators).verify([
      { id: "p", tools: ["terminal"], where: { command: { regex } }, kind, action },
    ]);
    const decided = ToolPolicy.fromStatements(bundle.statements);
    const command = String((result?.witness?.arguments as { command?: string } | undefined)?.command);
    return {
      result,
      command,
      decision: decided.decide({ callId: "c", toolName: "terminal", arguments: { command } }).action,
    };
  };

  it("finds an operand that may run anything (a shell or wrapper's name) after an allowed program", () => {
    const { result, command, decision } = verifyOne(
      [
        {
          id: "find",
          tools: ["terminal"],
          decision: "allow",
          when: { command: { command: [{ prefix: "find", options: ["-name"] }] } },
          reason: "find",
        },
        {
          id: "exec",
          tools: ["terminal"],
          decision: "deny",
          when: { command: { command: ["docker exec"] } },
          reason: "no",
        },
      ],
      "ask",
      "^find [a-z.]+ -name [a-z]+$",
      "always",
      "allow",
    );
    expect(result?.status, JSON.stringify(result)).toBe("fails");
    expect(command).toMatch(/^find [a-z.]+ -name [a-z]+$/);
    expect(decision).not.toBe("allow");
  });

  it("finds a code option whose value runs anything (`git log -c -r`, `git status -cr`), not only the option", () => {
    // git's `-c` takes shell text (`core.pager=…`); `r` is zsh's builtin that runs a command again, so the runtime
    // reads the line as one that may run every prefix. `-c -a` runs only a program `a`, which no list names.
    const rules = [
      {
        id: "blocked",
        tools: ["terminal"],
        decision: "deny",
        when: { command: { command: ["rm", "sudo", "git push --force"] } },
        reason: "no",
      },
    ];
    for (const regex of ["^git log( -[a-z])*$", "^git status -[a-z]+$"]) {
      const { result, command, decision } = verifyOne(rules, "allow", regex, "always", "allow");
      expect(result?.status, JSON.stringify(result)).toBe("fails");
      expect(command).toMatch(/ -c ?-?r$/);
      expect(command).toMatch(new RegExp(regex));
      expect(decision).toBe("deny");
    }
  });

  it("finds a denied program's name as the operand of an inert program, which runs none", () => {
    const { result, command, decision } = verifyOne(
      [
        {
          id: "rm",
          tools: ["terminal"],
          decision: "deny",
          when: { command: { command: ["rm"] } },
          reason: "no",
        },
      ],
      "allow",
      "^[a-z]+ rm$",
      "never",
      "allow",
    );
    expect(result?.status, JSON.stringify(result)).toBe("fails");
    expect(command).toMatch(/^(ls|echo) rm$/);
    expect(decision).toBe("allow");
  });

  it("finds a line continuation before a denied program's name, which the runtime removes", () => {
    const { result, command, decision } = verifyOne(
      [
        {
          id: "rm",
          tools: ["terminal"],
          decision: "deny",
          when: { command: { command: ["rm"] } },
          reason: "no",
        },
        {
          id: "rm-start",
          tools: ["terminal"],
          decision: "deny",
          when: { command: { regex: "^rm" } },
          reason: "no",
        },
      ],
      "allow",
      "\\\\\\nrm",
      "never",
      "allow",
    );
    expect(result?.status, JSON.stringify(result)).toBe("fails");
    expect(command).toMatch(/\\\nrm$/);
    expect(decision).toBe("allow");
  });
});
