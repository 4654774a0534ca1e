/**
 * Properties whose `where` names only how a command line's first word starts (`^sh`, `^(rm|sudo)\\b`, `prefix:
 * python`), and a `not` of a list beside an allow list with options: decided by the facts (facts.ts
 * `firstWordStarts`, a prefix with options certain makes the same words certain) and by the parts of compound
 * commands (verify-properties.ts `lineStartOf`). Each answer is checked against the controller on lines that start
 * so, simple and compound.
 */
import { describe, expect, it } from "vitest";
import { ToolPolicy } from "../../src/runtime/policy.js";
import { type Property, Verifier } from "../../src/verify/verify-properties.js";
import { loadFromText } from "./helpers.js";

const TOOLS = JSON.stringify({
  tools: [
    {
      name: "shell",
      description: "Runs a command.",
      input_schema: {
        type: "object",
        properties: { command: { type: "string", maxLength: 300 } },
        required: ["command"],
        additionalProperties: false,
      },
    },
  ],
});

const rule = (id: string, decision: string, command: unknown[]) => ({
  id,
  tools: ["shell"],
  decision,
  when: { command: { command } },
  reason: id,
});

const POLICY = JSON.stringify({
  version: 1,
  otherwise: { shell: "ask" },
  rules: [
    rule("safe", "allow", [
      "git status",
      "ls",
      "cat",
      "echo",
      "npm test$",
      { prefix: "git log", options: ["--oneline", "-n"] },
    ]),
    rule("no-rm", "deny", ["rm -rf", "rm -r"]),
    rule("no-sudo", "deny", ["sudo", "doas"]),
    rule("no-python", "deny", ["python", "sh"]),
    rule("push", "ask", ["git push"]),
  ],
});

const property = (
  id: string,
  where: Record<string, unknown>,
  kind: "never" | "always",
  action: "allow" | "ask" | "deny",
): Property => ({ id, tools: ["shell"], where: { command: where }, kind, action });

/** Heads and tails that make lines of many shapes: quoted, glued, versioned, compound. */
const HEADS = ["rm", "sudo", "doas", "sh", "python", "python3", "ls", "echo", "git", "l", "ec"];
const GLUE = ["", "x", "'x'", ".x", "/ls", "-x", "2", " ", " -rf /", " status", "''", "\\\nx"];
const TAILS = ["", " && ls", "; echo a", " | cat", "\nls", " && git status"];

function lines(): string[] {
  const out: string[] = [];
  for (const head of HEADS)
    for (const glue of GLUE)
      for (const tail of TAILS) out.push(`${head}${glue}${tail}`, `'${head}'${glue}${tail}`);
  return out;
}

describe("a where that names how the first word starts", () => {
  const { bundle, validators } = loadFromText(TOOLS, POLICY);
  const policy = ToolPolicy.fromStatements(bundle.statements);
  const decide = (command: string) =>
    policy.decide({ callId: "c", toolName: "shell", arguments: { command } }).action;

  it("holds where no line that starts so is allowed, and fails with a witness the controller confirms", () => {
    const properties = [
      property("rm-sudo", { regex: "^(rm|sudo|doas)\\b" }, "never", "allow"),
      property("sh", { regex: "^sh" }, "never", "allow"),
      property("python", { prefix: "python" }, "never", "allow"),
      property(
        "unlisted",
        { not: { command: ["git status", "ls", "cat", "echo", "npm test", "git log"] } },
        "never",
        "allow",
      ),
      property("l", { regex: "^l" }, "never", "allow"),
      property("rm-ls", { regex: "^(rm|ls)\\b" }, "never", "allow"),
      property("ec", { prefix: "ec" }, "always", "deny"),
    ];
    const results = new Verifier(bundle, validators).verify(properties);
    expect(results.map((r) => [r.id, r.status])).toEqual([
      ["rm-sudo", "holds"],
      ["sh", "holds"],
      ["python", "holds"],
      ["unlisted", "holds"],
      ["l", "fails"],
      ["rm-ls", "fails"],
      ["ec", "fails"],
    ]);
    for (const r of results.filter((x) => x.status === "fails")) {
      const command = String((r.witness?.arguments as { command?: string } | undefined)?.command);
      expect(r.witness?.decision, r.id).toBe(decide(command));
      if (r.id !== "ec") expect(decide(command), `${r.id}: ${JSON.stringify(command)}`).toBe("allow");
      else expect(decide(command), JSON.stringify(command)).not.toBe("deny");
    }
  });

  it("agrees with the controller on every line of the sample that the holding properties select", () => {
    const selects: readonly [string, (c: string) => boolean][] = [
      ["rm-sudo", (c) => /^(rm|sudo|doas)\b/.test(c)],
      ["sh", (c) => c.startsWith("sh")],
      ["python", (c) => c.startsWith("python")],
    ];
    let selected = 0;
    for (const command of lines()) {
      for (const [id, selects_] of selects) {
        if (!selects_(command)) continue;
        selected++;
        expect(decide(command), `${id}: ${JSON.stringify(command)}`).not.toBe("allow");
      }
    }
    expect(selected).toBeGreaterThan(200);
    // And the sample has allowed lines of the other heads, so the check can fail.
    expect(lines().filter((c) => decide(c) === "allow").length).toBeGreaterThan(20);
  });
});
