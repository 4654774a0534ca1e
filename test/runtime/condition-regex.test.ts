/**
 * The `regex` operator's two forms: a plain pattern (case-sensitive, as always) and `{ pattern, flags }` whose
 * flag `i` folds case with Unicode simple case folding — checked against `RegExp` with `iu` as the oracle.
 */
import fc from "fast-check";
import { compileCondition, type RegexSpec } from "toolgate/runtime";
import { describe, expect, it } from "vitest";
import { compileRegexOperator } from "../../src/runtime/condition.js";

function truth(regex: string | RegexSpec, value: unknown): number {
  const compiled = compileCondition({ field: { regex } });
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
  return compiled.condition({ field: value });
}

describe("regex operator: flags", () => {
  it("keeps the plain string form case-sensitive", () => {
    expect(truth("^insert", "INSERT INTO t")).toBe(0);
    expect(truth("^insert", "insert into t")).toBe(1);
  });

  // [pattern, flags, value, truth]
  const cases: [string, string, string, number][] = [
    ["^insert\\b", "i", "INSERT INTO t", 1],
    ["^insert\\b", "i", "InSeRt into t", 1],
    ["^insert\\b", "", "INSERT INTO t", 0],
    ["^secrets$", "i", "\u017Fecrets", 1], // ſ folds to s
    ["^kube$", "i", "\u212Aube", 1], // the Kelvin sign folds to k
    ["^stra\u00dfe$", "i", "STRASSE", 0], // simple folding: ß is not ss
    ["^file$", "i", "f\u0131le", 0], // dotless i has no simple folding
    ["^\u03c3$", "i", "\u03c2", 1],
    ["^a$", "m", "x\na", 1],
    ["^a.b$", "s", "a\nb", 1],
    ["^a.b$", "", "a\nb", 0],
    ["^.$", "", "\u{1F600}", 1], // the object form reads code points
    // With i, \b counts ſ and the Kelvin sign as letters, as RegExp with iu does: `dropſ` is one word (as it is to
    // SQL, whose identifiers take any letter), `drop ſ` and `DROP` are the keyword.
    ["\\bdrop\\b", "i", "DROP TABLE t", 1],
    ["\\bdrop\\b", "i", "x drop \u017F", 1],
    ["\\bdrop\\b", "i", "drop\u017F", 0],
    ["\\bdrop\\b", "i", "\u212Adrop", 0],
    ["^ls\\b", "i", "ls\u017F", 0],
    ["^ls\\b", "i", "ls -l", 1],
  ];
  it.each(cases)("/%s/%s on %j is %d", (pattern, flags, value, expected) => {
    expect(truth({ pattern, flags }, value)).toBe(expected);
  });

  it("is a maybe past the engine's work bound, in both forms, and decides below it", () => {
    const huge = "ab".repeat(1 << 16);
    expect(truth("(a|b){1,1000}c", huge)).toBe(2);
    expect(truth({ pattern: "(a|b){1,1000}c", flags: "i" }, huge)).toBe(2);
    expect(truth("(a|b){1,1000}c", "ababc")).toBe(1);
    expect(truth("^[ab]+$", huge)).toBe(1);
  });

  it("is a maybe on a non-string, as the plain form", () => {
    expect(truth({ pattern: "a", flags: "i" }, 3)).toBe(2);
  });

  // [flags, message]
  const refused: [string, string][] = [
    [
      "g",
      'unsupported flag "g": a regex rule accepts only i (ignore case), m (multiline) and s (dot matches newlines)',
    ],
    [
      "iy",
      'unsupported flag "y": a regex rule accepts only i (ignore case), m (multiline) and s (dot matches newlines)',
    ],
    ["u", 'flag "u" is always on in the object form (the pattern reads code points); remove it'],
    ["ii", 'flag "i" is given twice; give it once'],
  ];
  it.each(refused)("refuses flags %j, naming the flag", (flags, message) => {
    expect(compileRegexOperator({ pattern: "a", flags })).toEqual({ ok: false, in: "flags", message });
  });

  it("reports a pattern problem in the pattern", () => {
    const result = compileRegexOperator({ pattern: "(?<=a)b", flags: "i" });
    expect(result.ok === false && result.in).toBe("pattern");
  });
});

describe("regex operator with flag i agrees with RegExp iu (property)", () => {
  const atom = fc.constantFrom(
    "a",
    "S",
    "k",
    "K",
    "\u017F",
    "\u212A",
    "\u00e9",
    "\u00c9",
    "\u03c3",
    "\u03a3",
    "\u00df",
    "\u1E9E",
    "\u0131",
    "I",
    ".",
    "\\w",
    "\\W",
    "\\d",
    "\\s",
    "[a-z]",
    "[^k]",
    "[A-Z\u00c0-\u00de]",
    "[\u017F\u212A]",
    "[^\\W]",
  );
  const quantifier = fc.constantFrom("", "", "*", "+", "?", "{2}");
  const pattern = fc
    .tuple(fc.boolean(), fc.array(fc.tuple(atom, quantifier), { minLength: 1, maxLength: 4 }), fc.boolean())
    .map(
      ([start, parts, end]) => `${start ? "^" : ""}${parts.map(([a, q]) => a + q).join("")}${end ? "$" : ""}`,
    );
  const input = fc
    .array(
      fc.constantFrom(
        ..."aAsSkKiI9 _\t\n",
        "\u017F",
        "\u212A",
        "\u00e9",
        "\u00c9",
        "\u03c3",
        "\u03c2",
        "\u03a3",
        "\u00df",
        "\u1E9E",
        "\u0131",
        "\u0130",
        "\u{10400}",
        "\u{10428}",
      ),
      { maxLength: 8 },
    )
    .map((chars) => chars.join(""));

  it("decides true exactly when the oracle matches", () => {
    fc.assert(
      fc.property(pattern, input, (source, value) => {
        const expected = new RegExp(source, "iu").test(value) ? 1 : 0;
        expect(truth({ pattern: source, flags: "i" }, value)).toBe(expected);
      }),
      { numRuns: 5000 },
    );
  });
});
