/** Wrong `holds` the brute-force test found, each kept as a case of its own. */
import { describe, expect, it } from "vitest";
import { ToolPolicy } from "../../src/runtime/policy.js";
import type { Property } from "../../src/verify/verify-properties.js";
import { Verifier } from "../../src/verify/verify-properties.js";
import { loadFromText } from "./helpers.js";

function tools(properties: Record<string, unknown>): string {
  return JSON.stringify({
    tools: [
      {
        name: "t",
        description: "A tool.",
        input_schema: { type: "object", properties, additionalProperties: false },
      },
    ],
  });
}

function check(
  toolsText: string,
  policy: unknown,
  property: Omit<Property, "id" | "tools">,
  breaking: unknown,
) {
  const { bundle, validators } = loadFromText(toolsText, JSON.stringify(policy));
  const decision = ToolPolicy.fromStatements(bundle.statements).decide({
    callId: "c",
    toolName: "t",
    arguments: breaking,
  });
  const [result] = new Verifier(bundle, validators).verify([{ id: "p", tools: ["t"], ...property }]);
  return { decision: decision.action, result };
}

describe("verify regressions", () => {
  it("path_prefix a/ matches the folder a itself", () => {
    const { decision, result } = check(
      tools({ f: { type: "string", maxLength: 1, pattern: "^[ab/.]*$" } }),
      {
        version: 1,
        rules: [{ id: "r0", tools: ["t"], decision: "allow", when: { f: { regex: "/.*" } }, reason: "r" }],
      },
      { where: { f: { equals: "a", path_prefix: "a/" } }, kind: "never", action: "deny" },
      { f: "a" },
    );
    expect(decision).toBe("deny");
    expect(result?.status).toBe("fails");
    expect(result?.witness?.arguments).toEqual({ f: "a" });
  });

  it("a simple path read by an operator not modelled (command) is still a value of the field", () => {
    const field = { type: "string", maxLength: 1, pattern: "^[ls &]*$" };
    const { decision, result } = check(
      tools({ f: field, g: field }),
      {
        version: 1,
        rules: [
          { id: "r0", tools: ["t"], decision: "allow", when: { g: { command: ["l"] } }, reason: "r" },
          {
            id: "r1",
            tools: ["t"],
            decision: "allow",
            when: { g: { not: { path_prefix: "a" } } },
            reason: "r",
          },
        ],
      },
      { where: { f: { equals: "" }, g: { regex: "l" } }, kind: "never", action: "allow" },
      { f: "", g: "l" },
    );
    expect(decision).toBe("allow");
    expect(result?.status, JSON.stringify(result)).not.toBe("holds");
    if (result?.status === "fails") expect(result.witness?.decision).toBe("allow");
  });
});
