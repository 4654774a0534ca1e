/**
 * Witnesses for properties that read a URL's text where a `url` rule reads its parts: the candidates are URLs of
 * the rule's parts followed by a path, query or fragment that the other operators narrow (`/@`, `/%`).
 */
import { describe, expect, it } from "vitest";
import { ToolPolicy } from "../../src/runtime/policy.js";
import { Verifier } from "../../src/verify/verify-properties.js";
import { loadFromText } from "./helpers.js";

const TOOLS = `tools:
  - name: fetch
    description: Fetch a URL.
    input_schema:
      type: object
      properties:
        url: { type: string, minLength: 8, maxLength: 2048 }
      required: [url]
      additionalProperties: false
`;

const POLICY = `version: 1
otherwise: { fetch: ask }
rules:
  - id: registry
    tools: [fetch]
    decision: allow
    when:
      url: { url: { scheme: [https], host: [registry.npmjs.org] } }
    reason: the registry.
`;

describe("url witnesses", () => {
  it.each([
    ["@", "an at sign (a scoped package's path, not a user)"],
    ["%", "a percent sign"],
    ["\\?q=", "a query"],
  ])("finds an allowed URL whose text matches %s (%s)", (regex) => {
    const { bundle, validators } = loadFromText(TOOLS, POLICY);
    const [result] = new Verifier(bundle, validators).verify([
      { id: "p", tools: ["fetch"], where: { url: { regex } }, kind: "never", action: "allow" },
    ]);
    expect(result?.status, JSON.stringify(result)).toBe("fails");
    const url = (result?.witness?.arguments as { url?: string } | undefined)?.url ?? "";
    expect(url.startsWith("https://registry.npmjs.org")).toBe(true);
    expect(new RegExp(regex).test(url)).toBe(true);
    const policy = ToolPolicy.fromStatements(bundle.statements);
    expect(policy.decide({ callId: "c", toolName: "fetch", arguments: { url } }).action).toBe("allow");
  });

  it("finds an allowed URL whose path holds the text, when the rule reads the path", () => {
    const policy = `version: 1
rules:
  - id: docs
    tools: [fetch]
    decision: allow
    when:
      url: { url: { host: [example.com], path: ["/docs/**"] } }
    reason: documentation.
`;
    const { bundle, validators } = loadFromText(TOOLS, policy);
    const [result] = new Verifier(bundle, validators).verify([
      { id: "p", tools: ["fetch"], where: { url: { regex: "@" } }, kind: "never", action: "allow" },
    ]);
    expect(result?.status, JSON.stringify(result)).toBe("fails");
    const url = (result?.witness?.arguments as { url?: string } | undefined)?.url ?? "";
    expect(url.startsWith("https://example.com/docs/")).toBe(true);
    expect(url).toContain("@");
    const decided = ToolPolicy.fromStatements(bundle.statements);
    expect(decided.decide({ callId: "c", toolName: "fetch", arguments: { url } }).action).toBe("allow");
  });

  it("finds an allowed URL with an escape of any printable character after a path the rule reads", () => {
    const policy = `version: 1
rules:
  - id: api
    tools: [fetch]
    decision: allow
    when:
      url: { url: { scheme: [https], host: ["*.example.com"], port: [443], path: ["/v1/**"] } }
    reason: the api.
`;
    const { bundle, validators } = loadFromText(TOOLS, policy);
    for (const regex of ["%2[eE]", "%7[eE]"]) {
      const [result] = new Verifier(bundle, validators).verify([
        { id: "p", tools: ["fetch"], where: { url: { regex } }, kind: "never", action: "allow" },
      ]);
      expect(result?.status, JSON.stringify(result)).toBe("fails");
      const url = (result?.witness?.arguments as { url?: string } | undefined)?.url ?? "";
      expect(new RegExp(regex).test(url), url).toBe(true);
      const decided = ToolPolicy.fromStatements(bundle.statements);
      expect(decided.decide({ callId: "c", toolName: "fetch", arguments: { url } }).action).toBe("allow");
    }
  });

  it("still proves that a URL with a user before the host is never allowed", () => {
    const { bundle, validators } = loadFromText(TOOLS, POLICY);
    const [result] = new Verifier(bundle, validators).verify([
      {
        id: "p",
        tools: ["fetch"],
        where: { url: { regex: "^https://[^/?#]*@" } },
        kind: "never",
        action: "allow",
      },
    ]);
    expect(result?.status, JSON.stringify(result)).not.toBe("fails");
  });
});
