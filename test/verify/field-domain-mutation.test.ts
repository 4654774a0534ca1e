/**
 * Edge cases of field-domain.ts the broader tests do not reach (found by mutation testing of `regexExact`, its
 * helpers and the string theory): the exact edges of the regex work bounds, the lazy DFA's state count where it
 * alone decides, the longest string of the sides, and how the string theory reads atoms it models differently.
 */
import { describe, expect, it } from "vitest";
import { compileRegexOperator } from "../../src/runtime/operators/regex.js";
import type { JsonSchema } from "../../src/runtime/types.js";
import { AutomataPool } from "../../src/verify/automata.js";
import {
  FieldDomain,
  type FieldSchema,
  maxLengthOf,
  regexExact,
  SCHEMA_OPERATOR,
  type SchemaSide,
  type StringTheory,
} from "../../src/verify/field-domain.js";
import { AtomTable, fieldRef } from "../../src/verify/formula.js";
import { checkValue } from "../../src/verify/schema-facts.js";
import { reachable, stringField, summary } from "./helpers.js";

const REF = fieldRef("arguments", "f");

function sidesOf(sides: readonly JsonSchema[]): FieldSchema[] {
  return sides.map((schema) => ({ schema, missingAllowed: false }));
}

function field(
  operators: readonly (readonly [string, unknown])[],
  sides: readonly JsonSchema[] = [{ type: "string" }],
): FieldDomain {
  const table = new AtomTable();
  for (const [operator, value] of operators) table.atom(REF, operator, value);
  return new FieldDomain(REF, table.atoms, sidesOf(sides), new AutomataPool());
}

function theoryOf(domain: FieldDomain): StringTheory {
  const theory = domain.strings();
  if (theory === null) throw new Error("strings are not modelled");
  return theory;
}

describe("regexExact at its edges", () => {
  it("reads a regex the runtime does not compile as never exact", () => {
    expect(regexExact("(", 5)).toBe(false);
    // The object form refuses the flag u (always on).
    expect(regexExact({ pattern: "a", flags: "u" }, 5)).toBe(false);
  });

  it("bounds a Pike VM regex by its steps x (3 x consuming instructions + 1), exactly", () => {
    // `\bab\b` has 2 consuming instructions. Without flag u a step per code unit, twice the code points:
    // 2 x 28,571 x 7 = 399,994 fits the work bound, 2 x 28,572 x 7 does not; with u (the object form) one per code
    // point: 57,142 x 7 fits, 57,143 x 7 does not.
    expect(regexExact("\\bab\\b", 28_571)).toBe(true);
    expect(regexExact("\\bab\\b", 28_572)).toBe(false);
    expect(regexExact({ pattern: "\\bab\\b", flags: "i" }, 57_142)).toBe(true);
    expect(regexExact({ pattern: "\\bab\\b", flags: "i" }, 57_143)).toBe(false);
  });

  it("lets a Pike VM regex whose work is exactly the bound pass", () => {
    // `\ba` has 1 consuming instruction: with u, 100,000 steps x (3 x 1 + 1) = 400,000, the work bound itself;
    // without u, two steps per code point: 50,000 code points.
    expect(regexExact({ pattern: "\\ba", flags: "i" }, 100_000)).toBe(true);
    expect(regexExact({ pattern: "\\ba", flags: "i" }, 100_001)).toBe(false);
    expect(regexExact("\\ba", 50_000)).toBe(true);
    expect(regexExact("\\ba", 50_001)).toBe(false);
  });

  it("bounds a lazy-DFA regex with many states by its length, with the larger of its two sizes", () => {
    // 66 instructions (the program's size, 65, is smaller): (2 x 273 + 1) x (11 x 66 + 4) = 399,310 fits the bound,
    // (2 x 274 + 1) x 730 does not, and the pattern has more states than are counted.
    for (const spec of ["^(a|b)*a(a|b){14}$", { pattern: "^(a|b)*a(a|b){14}$", flags: "i" }]) {
      expect(regexExact(spec, 273)).toBe(true);
      expect(regexExact(spec, 274)).toBe(false);
    }
  });

  it("reads the pattern of the object form as the runtime does, at any length", () => {
    expect(regexExact({ pattern: "^[ab]c$", flags: "i" }, 1_000_000)).toBe(true);
    expect(regexExact({ pattern: "^[ab]c$" }, 1_000_000)).toBe(true);
  });

  it("counts a dot as a consuming instruction, with or without the flag s", () => {
    // 2^15 states after `a`: neither bound lets it pass on long strings.
    for (const spec of ["^.*a.{14}$", { pattern: "^.*a.{14}$", flags: "s" }]) {
      expect(regexExact(spec, 1_000_000)).toBe(false);
      expect(regexExact(spec, 30)).toBe(true);
    }
  });

  it("reads a literal as exact at any length, however many states its lazy DFA would have", () => {
    expect(regexExact("ab".repeat(2500), 1_000_000)).toBe(true);
  });

  it("restarts a thread at every character where the pattern is not anchored, with ^ false there", () => {
    // Only the `b` branch restarts: `^a` holds at the start alone.
    expect(regexExact("^a[ab]{14}c|b", 1_000_000)).toBe(true);
    expect(regexExact("(?:^a|b)[ab]{14}c", 1_000_000)).toBe(false);
  });

  it("counts the lazy DFA's states as the runtime makes them: none past a match, none restarted where anchored", () => {
    // The start matches the empty string: a run stops there, whatever the other branch's states.
    expect(regexExact("(?:)|(a|b)*a(a|b){14}", 1_000_000)).toBe(true);
    expect(regexExact("(a|b)*a(a|b){14}", 1_000_000)).toBe(false);
    // Anchored, one thread at a time: a few states; unanchored, a thread starts at every character: 2^15 of them.
    expect(regexExact("^a[ab]{14}c", 1_000_000)).toBe(true);
    expect(regexExact("a[ab]{14}c", 1_000_000)).toBe(false);
  });
});

/** The runtime's bounded test of a regex operator's value: undefined where it gives up (past its work bound). */
function testBounded(spec: string | { pattern: string; flags?: string }, text: string): boolean | undefined {
  const compiled = compileRegexOperator(spec);
  if (!compiled.ok) throw new Error(compiled.message);
  return (compiled.regex as unknown as { testBounded(input: string): boolean | undefined }).testBounded(text);
}

describe("regexExact reads the characters of the pattern as the runtime does", () => {
  it("counts the states of a folded pattern on the letters it folds to (flag i)", () => {
    // `[AB]` with i holds `a` and `b`: a long run of them passes thousands of costly states, and the runtime gives up.
    const spec = { pattern: "[AB]{0,300}c", flags: "i" };
    expect(regexExact(spec, 1_000_000)).toBe(false);
    expect(testBounded(spec, "ab".repeat(3000))).toBeUndefined();
  });

  it("counts the states of an unfolded pattern on the letters it names alone (no flag i)", () => {
    // Without i, `a` and `b` are other letters; `A` and `B` pass the costly states, and the runtime gives up there.
    const spec = { pattern: "[AB]{0,300}c" };
    expect(regexExact(spec, 1_000_000)).toBe(false);
    expect(testBounded(spec, "AB".repeat(3000))).toBeUndefined();
    expect(testBounded(spec, "ab".repeat(3000))).toBe(false);
  });

  it("counts the states of the object form on code points (flag u), an astral one among them", () => {
    const spec = { pattern: "😀[😀ab]{0,300}c" };
    expect(regexExact(spec, 1_000_000)).toBe(false);
    expect(testBounded(spec, "😀".repeat(3000))).toBeUndefined();
  });

  it("counts the states of the string form on code units, the last one (U+FFFF) among them", () => {
    const spec = "\\uffff[\\uffffab]{0,300}c";
    expect(regexExact(spec, 1_000_000)).toBe(false);
    expect(testBounded(spec, "\uffff".repeat(3000))).toBeUndefined();
  });
});

describe("regexExact counts every state of the lazy DFA, each once", () => {
  /** A string of a and b holding every `n` letters in a row once (a de Bruijn sequence), ready to wrap around. */
  function everyWindow(n: number): string {
    const a = new Array<number>(2 * n + 1).fill(0);
    const out: number[] = [];
    const walk = (t: number, p: number): void => {
      if (t > n) {
        if (n % p === 0) for (let j = 1; j <= p; j++) out.push(a[j] as number);
        return;
      }
      a[t] = a[t - p] as number;
      walk(t + 1, p);
      for (let j = (a[t - p] as number) + 1; j < 2; j++) {
        a[t] = j;
        walk(t + 1, t);
      }
    };
    walk(1, 1);
    const text = out.map((x) => (x === 1 ? "b" : "a")).join("");
    return text + text.slice(0, n - 1);
  }

  it("tells apart states whose threads differ, however their numbers are written", () => {
    // Unanchored, `a[ab]{10}c` has a state per set of the last 11 letters that were `a`: 2^11 + 1 = 2,049, which the
    // runtime's own lazy DFA makes on a string holding every 11 letters, all within the count and the bound.
    const regex = compileRegexOperator("a[ab]{10}c");
    if (!regex.ok) throw new Error(regex.message);
    const machine = (regex.regex as unknown as { machine: { dfaStates: unknown[] } }).machine;
    (regex.regex as unknown as { testBounded(input: string): boolean | undefined }).testBounded(
      everyWindow(11),
    );
    expect(machine.dfaStates.length).toBe(2049);
    expect(regexExact("a[ab]{10}c", 1_000_000)).toBe(true);
    // One letter more: 2^12 + 1 = 4,097 states, more than are counted, so it may answer maybe on long strings.
    expect(regexExact("a[ab]{11}c", 1_000_000)).toBe(false);
  });
});

describe("regexExact on patterns with few states of great cost", () => {
  it("adds up the cost of every state: a few hundred states of hundreds of threads each pass the bound", () => {
    expect(regexExact("[ab]{0,300}c", 1_000_000)).toBe(false);
    expect(regexExact("(?:a|b|c|d|e|f|g|h){0,40}x[ab]{6}", 1_000_000)).toBe(false);
    expect(regexExact("(?:[ab]{0,60}c){4}", 1_000_000)).toBe(true);
  });
});

describe("maxLengthOf", () => {
  it("is the largest maxLength of the sides, unbounded when one side has none, 0 with no side", () => {
    expect(maxLengthOf([])).toBe(0);
    expect(maxLengthOf(sidesOf([{ maxLength: 3 }, { maxLength: 7 }, { maxLength: 5 }]))).toBe(7);
    expect(maxLengthOf(sidesOf([{ maxLength: 3 }, { type: "string" }]))).toBe(Number.POSITIVE_INFINITY);
    expect(maxLengthOf(sidesOf([{ type: "string" }, { maxLength: 3 }]))).toBe(Number.POSITIVE_INFINITY);
  });
});

describe("the string theory's atoms", () => {
  it("reads an operator it does not know as free: its strings leave the exact region", () => {
    const table = new AtomTable();
    table.custom(REF, "custom-operator", 1, (v) => (v === "a" ? 1 : 0));
    const domain = new FieldDomain(REF, table.atoms, sidesOf([{ type: "string" }]), new AutomataPool());
    const theory = theoryOf(domain);
    const state = theory.assign(theory.initial, 0, 1, "0:1;");
    expect(state?.exact).toBeNull();
    expect(state?.loose).not.toBeNull();
  });

  it("reads a command list with no first word as free, certain anywhere only of the safe subset", () => {
    const domain = field([["command", []]]);
    const theory = theoryOf(domain);
    const state = theory.assign(theory.initial, 0, 1, "0:1;");
    expect(state === null || state.exact === null).toBe(true);
  });

  it("spells a schema side's listed strings with symbols of their own", () => {
    const schema: JsonSchema = { type: "string", enum: ["b", "xyz"] };
    const side: SchemaSide = { side: "old", schema, missingAllowed: false, absentOnly: false };
    const table = new AtomTable();
    table.custom(REF, SCHEMA_OPERATOR, side, (v) => (checkValue(schema, v, false) ? 1 : 0));
    const domain = new FieldDomain(REF, table.atoms, sidesOf([{ type: "string" }]), new AutomataPool());
    expect(summary(domain)).toEqual(["0=", "1=b"]);
  });

  it("spells a schema side's pattern with symbols of their own", () => {
    const schema: JsonSchema = { type: "string", pattern: "^q$" };
    const side: SchemaSide = { side: "old", schema, missingAllowed: false, absentOnly: false };
    const table = new AtomTable();
    table.custom(REF, SCHEMA_OPERATOR, side, (v) => (checkValue(schema, v, false) ? 1 : 0));
    const domain = new FieldDomain(REF, table.atoms, sidesOf([{ type: "string" }]), new AutomataPool());
    expect(summary(domain)).toEqual(["0=", "1=q"]);
  });
});

describe("the string theory's regex atoms", () => {
  it("reads a regex of the string form without flags: a dot is no newline", () => {
    const domain = field([
      ["regex", "^a.b$"],
      ["equals", "a\nb"],
    ]);
    expect(reachable(domain).map((r) => r.truths)).toEqual(["00", "01", "10"]);
  });

  it("reads a regex of the object form with its flags, and without any", () => {
    const folded = field([
      ["regex", { pattern: "^a$", flags: "i" }],
      ["equals", "A"],
    ]);
    expect(summary(folded)).toEqual(["00=", "10=a", "11=A"]);
    const plain = field([
      ["regex", { pattern: "^a$" }],
      ["equals", "A"],
    ]);
    expect(summary(plain)).toEqual(["00=", "01=A", "10=a"]);
    // Nor the flag s: a dot is no newline.
    const dotted = field([
      ["regex", { pattern: "^a.b$" }],
      ["equals", "a\nb"],
    ]);
    expect(summary(dotted)).toEqual(["00=", "01=a\nb", "10=aab"]);
  });
});

describe("the string theory's alphabet", () => {
  it("reads a side's pattern and a schema side's pattern with the flag u, as the validator does", () => {
    // `\u{71}` is q with the flag u (and 71 u's without it).
    expect(summary(field([["equals", "q"]], [{ type: "string", pattern: "^\\u{71}$" }]))).toEqual(["1=q"]);
    // One code point, however many code units.
    expect(summary(field([["equals", "😀"]], [{ type: "string", pattern: "^.$" }]))).toEqual(["0=a", "1=😀"]);
    const schema: JsonSchema = { type: "string", pattern: "^\\u{71}$" };
    const side: SchemaSide = { side: "old", schema, missingAllowed: false, absentOnly: false };
    const table = new AtomTable();
    table.custom(REF, SCHEMA_OPERATOR, side, (v) => (checkValue(schema, v, false) ? 1 : 0));
    const domain = new FieldDomain(REF, table.atoms, sidesOf([{ type: "string" }]), new AutomataPool());
    expect(summary(domain)).toEqual(["0=", "1=q"]);
    const astral: JsonSchema = { type: "string", pattern: "^😀$" };
    const other = new AtomTable();
    other.custom(REF, SCHEMA_OPERATOR, { ...side, schema: astral }, (v) =>
      checkValue(astral, v, false) ? 1 : 0,
    );
    expect(
      summary(new FieldDomain(REF, other.atoms, sidesOf([{ type: "string" }]), new AutomataPool())),
    ).toEqual(["0=", "1=😀"]);
  });

  it("cuts the alphabet at a side's format and a schema side's format", () => {
    expect(summary(field([["prefix", "1"]], [{ type: "string", format: "ipv4" }]))).toEqual([
      "0=0.0.0.0",
      "1=1.0.0.0",
    ]);
    const schema: JsonSchema = { type: "string", format: "ipv4" };
    const side: SchemaSide = { side: "old", schema, missingAllowed: false, absentOnly: false };
    const table = new AtomTable();
    table.custom(REF, SCHEMA_OPERATOR, side, (v) => (checkValue(schema, v, false) ? 1 : 0));
    const domain = new FieldDomain(REF, table.atoms, sidesOf([{ type: "string" }]), new AutomataPool());
    expect(summary(domain)).toEqual(["0=", "1=0.0.0.0"]);
  });

  it("draws witnesses from letters, digits and the blank", () => {
    expect(summary(field([["regex", "^[^x]$"]], [{ type: "string" }]))).toEqual(["0=", "1=a"]);
    expect(summary(field([["regex", "^[!-~]{2}$"]], [{ type: "string" }]))).toEqual(["0=", "1=aa"]);
    expect(summary(field([["regex", "^[!-@]$"]], [{ type: "string" }]))).toEqual(["0=", "1=0"]);
  });
});

describe("the witnesses of loose regions, by the spellings of paths and URLs they are drawn from", () => {
  /** `truths=witness` of every reachable assignment, the witness as JSON (`~` when loose, `-` for none). */
  function witnesses(operators: [string, unknown][]): string {
    const domain = field(operators);
    return reachable(domain)
      .map((r) => {
        if (r.witness !== undefined)
          expect(domain.atoms.map((a) => a.test(r.witness?.text)).join(""), r.witness.text).toBe(r.truths);
        const text =
          r.witness === undefined ? "-" : `${JSON.stringify(r.witness.text)}${r.witness.loose ? "~" : ""}`;
        return `${r.truths}=${text}`;
      })
      .join(" ");
  }

  it.each<[string, string]>([
    [
      '[["glob","**/x.txt"],["regex","^(?:[a-z/.]|a[a-z/.]{11})*$"]]',
      '00="0" 01="a" 02=- 10="0/x.txt" 11="x.txt" 12=- 20="x.txT" 21="/x.txt" 22=-',
    ],
    ['[["glob","docs/*"],["regex","\\\\\\\\"]]', '00="a" 01="\\\\"~ 10="docs/a" 20="docS/a" 21="docs/\\\\"~'],
    ['[["glob","a/b"],["regex","~"]]', '00="a" 01="~"~ 10="a/b" 11="a~/../a/b"~ 20="a/B" 21=":~"~'],
    ['[["glob","a/b"],["regex","^~"]]', '00="a" 01="~"~ 10="a/b" 20="a/B" 21="~\\u0000"~'],
    ['[["glob","a/b"],["regex",":"]]', '00="a" 01="0:"~ 10="a/b" 20="a/B" 21=":"~'],
    ['[["glob","a/b"],["regex","^[A-Z]"]]', '00="a" 01="A" 10="a/b" 11="A/../a/b"~ 20="a/B" 21="A/b"'],
    ['[["glob","a/b"],["regex","\\\\.$"]]', '00="a" 01="."~ 10="a/b" 11="a/b/."~ 20="a/B" 21=".."~'],
    // A path ending in a blank is no plain path: the glob is never certain there.
    ['[["glob","a/b"],["regex"," $"]]', '00="a" 01="a "~ 10="a/b" 20="a/B" 21=" "~'],
    ['[["glob","a/b"],["regex","^con$"]]', '00="a" 01="con" 10="a/b" 20="a/B"'],
    ['[["path_prefix","/etc"],["regex","\\\\\\\\"]]', '00="a" 01="\\\\"~ 20="/etc" 21="/etc\\\\"~'],
    ['[["path_prefix","/etc/"],["regex","^C:"]]', '00="a" 01="C:/"~ 20="/etc" 21="C:"~'],
    ['[["path_prefix","/etc/"],["regex","^//"]]', '00="a" 01="//"~ 20="/etc" 21="//:"~'],
    ['[["path_prefix","/etc/"],["regex","^\\\\.\\\\./"]]', '00="a" 01=- 20="/etc" 21="../"~'],
    ['[["path_prefix","/etc/"],["regex","[A-Z]"]]', '00="a" 01="A" 20="/etc" 21="/etC"'],
    ['[["path_prefix","a/b"],["regex","/\\\\.$"]]', '00="a" 01="/."~ 10="a/b" 20="a/B" 21="a/b/."~'],
    [
      '[["glob","x/?.md"],["regex","^(?:[a-z/.]|a[a-z/.]{11})*$"]]',
      '00="0" 01="a" 02=- 10="x/0.md" 11="x/a.md" 12=- 20="x/a.mD" 21=""~ 22=-',
    ],
    [
      '[["glob","x/[ab].md"],["regex","^(?:[a-z/.]|a[a-z/.]{11})*$"]]',
      '00="0" 01="a" 02=- 10=- 11="x/a.md" 12=- 20="x/a.mD" 21=""~ 22=-',
    ],
    [
      '[["glob","{a,b}/x"],["regex","^(?:[a-z/.]|a[a-z/.]{11})*$"]]',
      '00="0" 01="a" 02=- 10=- 11="a/x" 12=- 20="a/X" 21=""~ 22=-',
    ],
    [
      '[["url",{"host":"a.io","path":"/d/**"}],["regex","x"]]',
      '00="ws://a" 01="ws://x" 10="ws://a.io/d" 11="ws://a.io/d/x" 20="ws://a.io/D" 21="ws://a.io/D/x"',
    ],
    [
      '[["url",{"host":"a.io","path":"/d/*"}],["regex","x"]]',
      '00="ws://a" 01="ws://x" 10="ws://a.io/d/a" 11="ws://a.io/d/x" 20="ws://a.io/D/a" 21="ws://a.io/D/x"',
    ],
    [
      '[["url",{"host":"a.io","path":"/d/?"}],["regex","x$"]]',
      '00="ws://a" 01="ws://x" 10="ws://a.io/d/a" 11="ws://a.io/d/x" 20="ws://a.io/D/a" 21="ws://a.io/D/x"',
    ],
    [
      '[["url",{"host":"*.a.io","scheme":"http"}],["regex","@"]]',
      '00="ws://a" 01=- 10="http://a.a.io" 11="http://a.a.io/@"~ 20="http://a.a.io/."~ 21="http://a@a.a.io"~',
    ],
    [
      '[["url",{"scheme":"http"}],["regex","@"]]',
      '00="ws://a" 01=- 10="http://a" 11="http://example.com/@"~ 20="http://example.com/."~ 21="http://a@example.com"~',
    ],
    [
      '[["glob","a/b"],["regex","^x/\\\\.\\\\./"]]',
      '00="a" 01="x/../"~ 10="a/b" 11="x/../a/../a/b"~ 20="a/B" 21="x/../:"~',
    ],
    [
      '[["glob","a/b"],["regex","/\\\\./"]]',
      '00="a" 01="/./"~ 10="a/b" 11="a/./../a/b"~ 20="a/B" 21="/./:"~',
    ],
    ['[["glob","a/b"],["regex","a//"]]', '00="a" 01="a//"~ 10="a/b" 11="a//b"~ 20="a/B" 21="a//B"~'],
    ['[["glob","a/b"],["regex","^\\\\.\\\\./"]]', '00="a" 01=- 10="a/b" 11=- 20="a/B" 21="../"~'],
    // The glob's last part is `b`: never certain of a path whose last segment is `b.`.
    ['[["glob","a/b"],["regex","b\\\\.$"]]', '00="a" 01="b."~ 10="a/b" 20="a/B" 21=":b."~'],
    ['[["glob","a/b"],["regex","^A/B$"]]', '00="a" 10="a/b" 20="a/B" 21="A/B"'],
    [
      '[["glob",".git/**"],["regex","\\\\.\\\\./"]]',
      '00="a" 01="a../"~ 10=".git" 11=".git/a/../a"~ 20=".giT" 21=".git/a../"~',
    ],
    ['[["glob",".git/**"],["regex","^\\\\\\\\"]]', '00="a" 01="\\\\"~ 10=".git" 20=".giT" 21="\\\\:"~'],
    ['[["glob","/etc/*"],["regex","^C:/"]]', '00="a" 01="C:/"~ 20="/etc/a" 21="C:/:"~'],
    ['[["glob","/etc/*"],["regex","^//"]]', '00="a" 01="//"~ 20="/etc/a" 21="//:"~'],
    ['[["glob","/etc/*"],["regex","^a/\\\\.\\\\./"]]', '00="a" 01="a/../"~ 20="/etc/a" 21="a/../:"~'],
    ['[["path_prefix","src"],["regex","/\\\\.$"]]', '00="a" 01="/."~ 10="src" 20="srC" 21="src/."~'],
    ['[["path_prefix","src"],["regex","~1"]]', '00="a" 01=- 10="src" 11=- 20="srC" 21="src~1"~'],
    [
      '[["glob","**/*.ts"],["regex","~1"]]',
      '00="a" 01="a~1/a"~ 10=".ts" 11="a~1/../.ts"~ 20=".tS" 21="/~1.ts"~',
    ],
    ['[["glob","**/*.ts"],["regex","^[a-z]:"]]', '00="a" 01="a:/"~ 10=".ts" 20=".tS" 21="a:/.ts"~'],
    ['[["glob","**/*.ts"],["regex","\\\\.\\\\.$"]]', '00="a" 01="a.."~ 10=".ts" 11=- 20=".tS" 21=".."~'],
  ])("%s", (operators, expected) => {
    expect(witnesses(JSON.parse(operators) as [string, unknown][])).toBe(expected);
  });
});

/**
 * Every reachable assignment's truths, each checked to have a witness that is valid on some side and has exactly
 * those truths by the runtime's own answers.
 */
function witnessed(domain: FieldDomain): string[] {
  return reachable(domain).map((r) => {
    const text = r.witness?.text;
    expect(text, `a witness of ${r.truths}`).toBeTypeOf("string");
    expect(domain.atoms.map((a) => a.test(text)).join(""), text).toBe(r.truths);
    expect(
      domain.sides.some((_, i) => domain.validOn(i, text)),
      text,
    ).toBe(true);
    return r.truths;
  });
}

describe("the string theory's narrowing of command lists", () => {
  it("makes a command list true only on the safe subset, and false or a maybe also outside it", () => {
    // `é` is in no word or quote of the safe subset: a string holding it is never certainly `ls`.
    expect(
      witnessed(
        field([
          ["command", ["ls"]],
          ["regex", "é"],
        ]),
      ),
    ).toEqual(["00", "01", "10", "20", "21"]);
    // A list with no prefix has no lines to meet: only the safe subset keeps it from being true there.
    const truths = reachable(
      field([
        ["command", []],
        ["regex", "é"],
      ]),
    ).map((r) => r.truths);
    expect(truths).toContain("01");
    expect(truths).not.toContain("11");
  });

  it("gives a command list its one answer on the plain lines of an inert program the field narrows to", () => {
    // Every string of the regex is a plain `ls` line: the list `ls` is true on each.
    expect(
      witnessed(
        field([
          ["regex", "^ls( [a-z]+)*$"],
          ["command", ["ls"]],
        ]),
      ),
    ).toEqual(["00", "01", "02", "11"]);
    // Lines of `ls` or of `cat`: false on those of `cat`, never a maybe.
    expect(
      witnessed(
        field([
          ["regex", "^(ls|cat)( [a-z]+)*$"],
          ["command", ["ls"]],
        ]),
      ),
    ).toEqual(["00", "01", "02", "10", "11"]);
  });

  it("finds the inert program in the text of any operator that narrows strings, and of a side's schema", () => {
    // `^l[s]( [a-z]+)*$` holds only plain `ls` lines but does not spell `ls`; another operator naming `ls` (which
    // the regex's lines may or may not satisfy) lets the list be true on every one of them, never false or a maybe.
    const lines: [string, unknown] = ["regex", "^l[s]( [a-z]+)*$"];
    const list: [string, unknown] = ["command", ["ls"]];
    for (const named of [
      ["equals", "ls"],
      ["in", ["ls"]],
    ] as [string, unknown][])
      expect(witnessed(field([lines, named, list])), JSON.stringify(named)).toEqual([
        "000",
        "001",
        "002",
        "101",
        "111",
      ]);
    // A prefix `ls` holds `lsa` and `ls-1` too, other programs; the regex's lines are all `ls` ones.
    expect(witnessed(field([lines, ["prefix", "ls"], list]))).toEqual([
      "000",
      "001",
      "002",
      "010",
      "011",
      "012",
      "111",
    ]);
    // A schema side's listed string.
    const schema: JsonSchema = { type: "string", enum: ["ls"] };
    const side: SchemaSide = { side: "old", schema, missingAllowed: false, absentOnly: false };
    const table = new AtomTable();
    table.atom(REF, "regex", "^l[s]( [a-z]+)*$");
    table.custom(REF, SCHEMA_OPERATOR, side, (v) => (checkValue(schema, v, false) ? 1 : 0));
    table.atom(REF, "command", ["ls"]);
    const domain = new FieldDomain(REF, table.atoms, sidesOf([{ type: "string" }]), new AutomataPool());
    expect(witnessed(domain)).toEqual(["000", "001", "002", "101", "111"]);
    // A field of command lists alone, narrowed by its side's pattern: every valid string is an `ls` line.
    expect(witnessed(field([list], [{ type: "string", pattern: "^ls( [a-z]+)*$" }]))).toEqual(["1"]);
  });

  it("leaves a command list free where the region also holds strings that are no inert program's plain line", () => {
    // `lsa` and `ls-1` start with `ls` but are other programs: the list is false or a maybe there.
    expect(
      witnessed(
        field([
          ["regex", "^ls"],
          ["command", ["ls"]],
        ]),
      ),
    ).toEqual(["00", "01", "02", "10", "11", "12"]);
  });

  it("reads the inert lines with an operator the theory does not know among the truths, which has no answer there", () => {
    const domain = stringField(
      [
        ["regex", "^ls( [a-z]+)*$"],
        ["command", ["ls"]],
      ],
      "ls",
    );
    // On the regex's lines the list is true whatever the other operator's answer (which the theory cannot know).
    const onLines = reachable(domain).filter((r) => r.truths.startsWith("1"));
    expect(onLines.map((r) => r.truths[1])).toEqual(onLines.map(() => "1"));
    const text = (truths: string) => onLines.find((r) => r.truths === truths)?.witness?.text;
    expect(text("111")).toBe("ls");
    expect(text("110")).toMatch(/^ls ./);
  });
});

describe("the string theory's settling of a few strings", () => {
  it("keeps only the strings with the truths, so that the one left is the witness however many were listed", () => {
    // 59 strings of two characters, then the one the unknown operator accepts: the last of a loose region's strings
    // in the order they are read, past the candidates drawn from it.
    const listed = [..."abcdef"].flatMap((l) => [..."0123456789"].map((d) => `${l}${d}`)).slice(0, 59);
    const domain = stringField([["in", [...listed, "zzz"]]], "zzz");
    const found = reachable(domain).find((r) => r.truths === "11");
    expect(found?.witness).toEqual({ text: "zzz", loose: true });
    const other = reachable(domain).find((r) => r.truths === "10");
    expect(listed).toContain(other?.witness?.text);
  });
});

describe("the string theory's witnesses", () => {
  /** Every reachable assignment's witnesses, each checked to be a distinct string with its truths. */
  function allWitnesses(domain: FieldDomain): Map<string, readonly { text: string; loose: boolean }[]> {
    const theory = theoryOf(domain);
    const out = new Map<string, readonly { text: string; loose: boolean }[]>();
    for (const r of reachable(domain)) {
      const found = theory.witnesses(r.state, `all:${r.truths}`);
      expect(found[0]).toEqual(r.witness);
      for (const w of found) {
        expect(w.text, r.truths).toBeTypeOf("string");
        expect(domain.atoms.map((a) => a.test(w.text)).join(""), w.text).toBe(r.truths);
      }
      expect(new Set(found.map((w) => w.text)).size, JSON.stringify(found)).toBe(found.length);
      out.set(r.truths, found);
    }
    return out;
  }

  it("adds a compound command of the field's command words where a command list is a maybe", () => {
    const found = allWitnesses(
      field([
        ["command", ["git status"]],
        ["command", ["npm test"]],
      ]),
    );
    // Each list is a maybe on `git status && npm test`, part by part: the controller decides its parts.
    const both = found.get("22");
    expect(both).toHaveLength(2);
    expect(both?.[1]?.loose).toBe(true);
    expect(both?.[1]?.text).toMatch(/^(git status && npm test|npm test && git status)$/);
    // Elsewhere no compound of the two has the truths (nor is one looked for without a maybe).
    for (const [truths, list] of found) if (truths !== "22") expect(list, truths).toHaveLength(1);
  });

  it("gives the compound command once when it is the first witness", () => {
    const found = allWitnesses(
      field([
        ["command", ["git status"]],
        ["command", ["npm test"]],
        ["regex", "^git status && npm test$"],
      ]),
    );
    expect(found.get("221")).toEqual([{ text: "git status && npm test", loose: true }]);
  });

  it("draws the exact region's witness from strings that pass a side's format no automaton describes", () => {
    // The shortest path the glob is false on (`a`) is no relative JSON pointer; `0` is, and no loose candidate is.
    const domain = field([["glob", "a/b"]], [{ type: "string", format: "relative-json-pointer" }]);
    const found = reachable(domain).find((r) => r.truths === "0");
    expect(found?.witness?.loose).toBe(false);
    expect(domain.validOn(0, found?.witness?.text)).toBe(true);
    expect(domain.atoms[0]?.test(found?.witness?.text)).toBe(0);
  });

  it("tries the loose candidates with `--` before the words after a prefix that lists its options", () => {
    // `git log -p` does not list `-p`; after `--` it is an operand, and the list is true. An operator the theory
    // does not know, true on one string none of the candidates is, makes states with no witness: none is made up.
    const domain = stringField(
      [
        ["command", [{ prefix: "git log", options: ["-n"] }]],
        ["regex", " -p"],
      ],
      "zzz",
    );
    const states = reachable(domain);
    for (const r of states)
      if (r.witness !== undefined)
        expect(domain.atoms.map((a) => a.test(r.witness?.text)).join(""), r.witness.text).toBe(r.truths);
    const found = states.find((r) => r.truths === "110");
    expect(found?.witness?.loose).toBe(true);
    expect(found?.witness?.text).toMatch(/^git log -- /);
    expect(states.find((r) => r.truths === "111")?.witness).toBeUndefined();
  });

  it("checks each exact candidate on the sides, whose listed strings the automata do not model", () => {
    // The shortest strings the regex is false and true on (``, `a`) are not listed: the witnesses are others.
    expect(witnessed(field([["regex", "^a"]], [{ type: "string", enum: ["b", "ab"] }]))).toEqual(["0", "1"]);
  });

  it("gives the compound command as the only witness where no other candidate has the truths", () => {
    // An operator the theory does not know, true on the compound command alone: no candidate but it has the truths.
    const domain = stringField(
      [
        ["command", ["git status"]],
        ["command", ["npm test"]],
      ],
      "git status && npm test",
    );
    const state = reachable(domain).find((r) => r.truths === "221")?.state;
    if (state === undefined) throw new Error("221 is reachable");
    expect(theoryOf(domain).witnesses(state, "only")).toEqual([
      { text: "git status && npm test", loose: true },
    ]);
  });
});

describe("regexExact on a pattern too large to read", () => {
  it("answers not exact rather than throwing (a pattern without u that tests surrogate halves)", () => {
    expect(regexExact("😀[😀ab]{0,300}c", 1_000_000)).toBe(false);
    expect(regexExact("^ab$", 10)).toBe(true);
  });
});
