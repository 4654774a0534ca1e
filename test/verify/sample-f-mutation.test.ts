/**
 * Readings of the verify engine the broader tests did not pin (found by the mutation run of a sixth random sample of
 * its lines, docs/verify-mutation.md): a program named in letters whose capitals meet another's (`lſ` and `ls`), and
 * the witness of a property searched by the parts of compound commands, which is the part itself wherever that part
 * alone breaks the property.
 */
import { describe, expect, it } from "vitest";
import { compileCondition } from "../../src/runtime/condition.js";
import { expectFailsWith, shellTools, stringField, summary } from "./helpers.js";

describe("two programs whose names meet only in capitals", () => {
  it("are apart: `ls` is run where `lſ` is not", () => {
    // `ſ` (a long s) is `S` in capitals and itself in small letters: the runtime reads a program's name in small
    // letters, so `ls` runs the prefix `ls` and never `lſ`. A reading in capitals would take `lſ` to run wherever
    // `ls` may, and rule out every line of `ls` alone.
    const field = stringField([
      ["command", ["ls"]],
      ["command", ["lſ"]],
    ]);
    const reached = summary(field);
    expect(reached).toContain("10=ls~");
    expect(reached).toContain("20=a ls~");
    const ls = compileCondition({ f: { command: ["ls"] } });
    const longS = compileCondition({ f: { command: ["lſ"] } });
    if (!ls.ok || !longS.ok) throw new Error("the conditions do not compile");
    expect([ls.condition({ f: "ls" }), longS.condition({ f: "ls" })]).toEqual([1, 0]);
  });
});

describe("the witness of a property searched by the parts of compound commands", () => {
  it("is the part alone where it breaks the property, not the part joined with itself", () => {
    // `rm` is allowed: the property that every line that may run `rm` is denied fails on `rm` itself. The joined
    // line `rm | rm` breaks it too, and is tried only where the part alone does not.
    const policy = `version: 1
rules:
  - id: tools
    tools: [run_shell]
    decision: allow
    when: { command: { command: ["ls", "rm"] } }
    reason: listed
`;
    const rm = { id: "rm", tools: ["run_shell"], where: { command: { command: ["rm"] } } } as const;
    const controller = expectFailsWith(
      shellTools(),
      policy,
      { ...rm, kind: "always", action: "deny" },
      { command: "rm" },
      "allow",
    );
    expect(
      controller.decide({ callId: "c", toolName: "run_shell", arguments: { command: "rm | rm" } }).action,
    ).toBe("allow");
  });
});
