import fc from "fast-check";
import { loadPolicy } from "toolgate";
import { describe, expect, it } from "vitest";
import { checkServerTools, firstDifference } from "../../src/mcp-proxy/check-server-tools.js";
import { canonicalJson } from "../../src/runtime/canonical-json.js";

const json = fc.jsonValue({ maxDepth: 4 });

describe("firstDifference", () => {
  it("finds no difference exactly when the canonical JSON texts are equal", () => {
    fc.assert(
      fc.property(json, json, (a, b) => {
        expect(firstDifference(a, b) === undefined).toBe(canonicalJson(a) === canonicalJson(b));
      }),
    );
  });

  it("a value never differs from a copy of itself with its keys in another order", () => {
    const reorder = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(reorder)
        : v !== null && typeof v === "object"
          ? Object.fromEntries(
              Object.entries(v)
                .reverse()
                .map(([k, x]) => [k, reorder(x)]),
            )
          : v;
    fc.assert(
      fc.property(json, (a) => {
        expect(firstDifference(a, reorder(a))).toBeUndefined();
      }),
    );
  });

  it("names the first differing place as a JSON pointer", () => {
    expect(firstDifference({ a: { b: [1, 2] } }, { a: { b: [1, 3] } })).toBe("/a/b/1");
    expect(firstDifference({ a: 1 }, { a: 1, "x/y~": 2 })).toBe("/x~1y~0");
    expect(firstDifference([1], [1, 2])).toBe("/1");
    expect(firstDifference({ a: 1 }, [1])).toBe("");
  });
});

describe("checkServerTools", () => {
  it("offers declared tools with identical schemas and refuses the rest, each with its reason", async () => {
    const bundle = await loadPolicy({ config: "test/fixtures/agents/toolgate.config.yaml" });
    const readFile = bundle.tools.find((t) => t.name === "read_file");
    const writeNote = bundle.tools.find((t) => t.name === "write_note");
    const check = checkServerTools(
      [
        { name: "read_file", inputSchema: structuredClone(readFile?.inputSchema) },
        {
          name: "write_note",
          inputSchema: { ...(writeNote?.inputSchema as object), additionalProperties: true },
        },
        { name: "run_anything", inputSchema: { type: "object" } },
        { name: "twice", inputSchema: { type: "object" } },
        { name: "twice", inputSchema: { type: "object" } },
      ],
      bundle,
    );
    expect([...check.offered.keys()]).toEqual(["read_file"]);
    expect(check.refused.map((r) => r.name)).toEqual([
      "write_note",
      "run_anything",
      "twice",
      "delete_project",
    ]);
    expect(check.refused[0]?.reason).toBe(
      "its inputSchema differs from the one declared in test/fixtures/agents/tools.yaml:11 at \"/additionalProperties\" (server: true, declared: false); copy the server's schema into the spec, then review the policy's rules for it",
    );
    expect(check.refused[1]?.reason).toContain("no tool spec in the configuration declares it");
    expect(check.refused[2]?.reason).toContain("more than once");
    expect(check.refused[3]?.reason).toBe("declared in the configuration, but the server does not list it");
  });
});
