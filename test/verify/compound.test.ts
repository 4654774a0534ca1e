import { describe, expect, it } from "vitest";
import { ToolPolicy } from "../../src/runtime/policy.js";
import { Verifier } from "../../src/verify/verify-properties.js";
import { loadFromText } from "./helpers.js";

const TOOLS = `tools:
  - name: shell
    description: Run a shell command.
    input_schema:
      type: object
      properties:
        command: { type: string, maxLength: 64 }
      required: [command]
      additionalProperties: false
`;

describe("compound commands", () => {
  it("does not say holds where the parts of a compound command are allowed one by one", () => {
    const { bundle, validators } = loadFromText(
      TOOLS,
      `version: 1
rules:
  - id: ls
    tools: [shell]
    decision: allow
    when:
      command: { regex: "^ls$" }
    reason: ls is fine.
  - id: no-rm
    tools: [shell]
    decision: deny
    when:
      command: { command: ["rm -rf"] }
    reason: no.
`,
    );
    // The runtime allows `ls && ls` part by part, though the whole string matches no allow statement.
    const policy = ToolPolicy.fromStatements(bundle.statements);
    expect(policy.decide({ callId: "c", toolName: "shell", arguments: { command: "ls && ls" } }).action).toBe(
      "allow",
    );
    const v = new Verifier(bundle, validators);
    const [result] = v.verify([
      {
        id: "no-and-allowed",
        tools: ["shell"],
        where: { command: { regex: "&&" } },
        kind: "never",
        action: "allow",
      },
    ]);
    expect(result?.status, JSON.stringify(result)).not.toBe("holds");
    if (result?.status === "fails") expect(result.witness?.decision).toBe("allow");
  });

  it("still proves what a certain deny of the whole string decides", () => {
    const { bundle, validators } = loadFromText(
      TOOLS,
      `version: 1
rules:
  - id: ls
    tools: [shell]
    decision: allow
    when:
      command: { regex: "^ls$" }
    reason: ls is fine.
  - id: no-rm
    tools: [shell]
    decision: deny
    when:
      command: { command: ["rm -rf"] }
    reason: no.
`,
    );
    const v = new Verifier(bundle, validators);
    const [result] = v.verify([
      {
        id: "rm",
        tools: ["shell"],
        where: { command: { command: ["rm -rf"] } },
        kind: "always",
        action: "deny",
      },
    ]);
    expect(result?.status, JSON.stringify(result)).toBe("holds");
  });

  it("finds the versioned name of a code runner an allowed command may run (git status sudo2)", () => {
    const { bundle, validators } = loadFromText(
      TOOLS,
      `version: 1
rules:
  - id: read-only
    tools: [shell]
    decision: allow
    when:
      command: { command: ["git status"] }
    reason: fine.
  - id: no-rm
    tools: [shell]
    decision: deny
    when:
      command: { command: ["rm -rf"] }
    reason: no.
`,
    );
    const policy = ToolPolicy.fromStatements(bundle.statements);
    const decide = (command: string) =>
      policy.decide({ callId: "c", toolName: "shell", arguments: { command } }).action;
    // `sudo` after git's words may run anything, so the deny rule is a maybe there; `sudo2` may run only sudo.
    expect(decide("git status sudo")).toBe("deny");
    expect(decide("git status sudo2")).toBe("allow");
    const [result] = new Verifier(bundle, validators).verify([
      {
        id: "sudo-never-allowed",
        tools: ["shell"],
        where: { command: { command: ["sudo"] } },
        kind: "never",
        action: "allow",
      },
    ]);
    expect(result?.status, JSON.stringify(result)).toBe("fails");
    expect(result?.witness?.decision).toBe("allow");
    const witness = result?.witness?.arguments as { command: string } | undefined;
    expect(decide(witness?.command ?? "")).toBe("allow");
  });
});
