/**
 * Arrays read by `any` and `all`: when the items' schema lists its values, every set of them is tried, so a
 * property is decided (a `holds` only when no set breaks it); otherwise arrays of the values the operators name are
 * tried as witnesses and the answer may be `unknown`. `diff` finds the calls an `any` → `all` change lets through.
 */
import { describe, expect, it } from "vitest";
import { diffRegions } from "../../src/verify/diff-regions.js";
import { Verifier } from "../../src/verify/verify-properties.js";
import { loadFromText } from "./helpers.js";

const tools = (items: string) => `tools:
  - name: tag
    description: Tag a record.
    input_schema:
      type: object
      properties:
        tags: { type: array, items: ${items}, maxItems: 3 }
      required: [tags]
      additionalProperties: false
`;

const POLICY = `version: 1
allow: [tag]
rules:
  - id: x-with-another
    tools: [tag]
    decision: deny
    when:
      tags: { any: { equals: x }, not: { all: { equals: x } } }
    reason: x goes alone
`;

describe("arrays read by any and all", () => {
  it("finds the set of items that only two items make", () => {
    const { bundle, validators } = loadFromText(tools("{ type: string, enum: [x, y, z] }"), POLICY);
    const [never, always] = new Verifier(bundle, validators).verify([
      { id: "never-deny", tools: ["tag"], kind: "never", action: "deny" },
      {
        id: "only-x-alone",
        tools: ["tag"],
        where: { tags: { all: { equals: "x" } } },
        kind: "never",
        action: "deny",
      },
    ]);
    expect(never?.status, JSON.stringify(never)).toBe("fails");
    const tags = (never?.witness?.arguments as { tags?: string[] } | undefined)?.tags ?? [];
    expect(tags).toContain("x");
    expect(tags.some((t) => t !== "x")).toBe(true);
    expect(always?.status, JSON.stringify(always)).toBe("holds");
  });

  it("tries the named values when the items are not listed, and never says holds", () => {
    const { bundle, validators } = loadFromText(tools("{ type: string }"), POLICY);
    const [never, holds] = new Verifier(bundle, validators).verify([
      { id: "never-deny", tools: ["tag"], kind: "never", action: "deny" },
      {
        id: "only-x-alone",
        tools: ["tag"],
        where: { tags: { all: { equals: "x" } } },
        kind: "never",
        action: "deny",
      },
    ]);
    expect(never?.status, JSON.stringify(never)).toBe("fails");
    expect(holds?.status).not.toBe("fails");
  });

  it("diff reports the arrays an any to all change lets through", () => {
    const before = loadFromText(tools("{ type: string, enum: [x, y] }"), POLICY);
    const after = loadFromText(
      tools("{ type: string, enum: [x, y] }"),
      POLICY.replace("any: { equals: x }, not: { all: { equals: x } }", "all: { equals: y }"),
    );
    const regions = diffRegions(before, after);
    const tag = regions.find((r) => r.tool === "tag");
    expect(tag?.status, JSON.stringify(tag)).toBe("complete");
    const loosened = tag?.changes.filter((c) => c.change === "loosened") ?? [];
    expect(loosened.length).toBeGreaterThan(0);
    for (const change of loosened) expect(change.after).toBe("allow");
  });
});
