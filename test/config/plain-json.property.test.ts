/**
 * Policy files that are plain JSON are read with JSON.parse and a scan for positions (`plainJson`), without the
 * YAML parse. For any JSON text, `parseYaml` gives what the YAML parse alone
 * gives: the same outcome, the same data (down to -0 and `__proto__` keys), the same diagnostics and the same
 * positions; texts the short cut must not take (duplicate keys, numbers out of range, tabs, long keys, control
 * characters) are left to the YAML parse.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseYaml, parseYamlText, plainJson } from "../../src/config/parse-yaml.js";

/** Data compared exactly: -0 is not 0, and keys keep their order. */
function exact(value: unknown): unknown {
  if (typeof value === "number" && Object.is(value, -0)) return "-0";
  if (Array.isArray(value)) return value.map(exact);
  if (value !== null && typeof value === "object") {
    return Object.entries(value).map(([k, v]) => [k, exact(v)]);
  }
  return value;
}

function compare(text: string): boolean {
  const bytes = new TextEncoder().encode(text);
  const both = parseYaml(bytes, "f.json");
  const yaml = parseYamlText(new TextDecoder().decode(bytes).replace(/^\uFEFF/, ""), "f.json");
  expect(both.ok).toBe(yaml.ok);
  expect(both.diagnostics).toEqual(yaml.diagnostics);
  if (both.ok && yaml.ok) {
    expect(exact(both.value.data)).toEqual(exact(yaml.value.data));
    expect([...both.value.positions]).toEqual([...yaml.value.positions]);
  }
  return plainJson(text) !== undefined;
}

const key = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom(
    "__proto__",
    "constructor",
    "1",
    "0",
    "-1",
    "a:b",
    'q"uote',
    "back\\slash",
    "ü",
    "😀",
    "\t",
    "\u2028",
  ),
);
const leaf = fc.oneof(
  fc.string({ maxLength: 10 }),
  fc.string({ unit: "binary", maxLength: 6 }),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.constantFrom(-0, 0, 1e21, 2 ** 53 + 2, 0.1, 1.5e-7, true, false, null),
);
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    leaf,
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(key, tie("value"), { maxKeys: 4 }),
  ),
}));
const top = fc.oneof(fc.dictionary(key, value, { maxKeys: 5 }), fc.array(value, { maxLength: 4 }));

describe("plain JSON files", () => {
  it("read like the YAML parse reads them", () => {
    let taken = 0;
    fc.assert(
      fc.property(top, fc.constantFrom(0, 1, 2, 4, "\t"), fc.boolean(), (data, indent, crlf) => {
        let text = `${JSON.stringify(data, null, indent)}\n`;
        if (crlf) text = text.replaceAll("\n", "\r\n");
        if (compare(text)) taken++;
      }),
      { numRuns: Number(process.env.PLAIN_JSON_RUNS ?? 1000) },
    );
    expect(taken).toBeGreaterThan(Number(process.env.PLAIN_JSON_RUNS ?? 1000) * 0.3);
  });

  it.each([
    ["a duplicate key", '{"a": 1, "a": 2}'],
    ["a duplicate key in a nested object", '{"a": {"b": 1, "c": {}, "b": 3}}'],
    ["a number beyond the double range", '{"a": 1e400}'],
    ["a number of many digits", '{"a": 12345678901234567890123}'],
    ["a tab", '{\t"a": 1}'],
    ["a key longer than YAML allows", `{"${"k".repeat(1100)}": 1}`],
    ["a control character in a string", '{"a": "\u0001"}'],
    ["a C1 control character", '{"a": "\u0085"}'],
    ["a byte order mark inside", '{"a": "\uFEFF"}'],
    ["a scalar at the top", '"just a string"'],
    ["JSON with a comment (YAML)", '{"a": 1} # note'],
    ["not JSON", "{a: 1}"],
  ])("leaves %s to the YAML parse", (_label, text) => {
    expect(plainJson(text)).toBeUndefined();
    compare(text);
  });

  it("reads an ordinary tool file with the positions the YAML parse gives", () => {
    const text = JSON.stringify(
      { tools: [{ name: "read_file", input_schema: { type: "object" } }] },
      null,
      2,
    );
    expect(compare(text)).toBe(true);
    const parsed = parseYaml(new TextEncoder().encode(text), "tools.json");
    expect(parsed.ok && parsed.value.positions.get("/tools/0/name")).toEqual({
      value: { line: 4, column: 15, endLine: 4, endColumn: 26 },
      key: { line: 4, column: 7, endLine: 4, endColumn: 13 },
    });
  });
});
