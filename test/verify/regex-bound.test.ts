/**
 * When the verifier reads a `regex` operator as exact on long strings (`regexExact` in field-domain.ts): the
 * runtime's lazy DFA counts each distinct state once per run against its work bound, and a pattern with few
 * consuming instructions has few states, so a short pattern answers true or false however long the string. Checked
 * against the runtime's own bounded test on long generated strings; a pattern with many states is not read as exact,
 * and the runtime does give up on it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseRegexTree, REGEX_WORK_BOUND } from "../../src/runtime/match/regex/index.js";
import { programSize, REGEX_OPS } from "../../src/runtime/match/regex/program.js";
import { regexWorkUpperBound } from "../../src/runtime/match/regex/vm.js";
import { compileRegexOperator } from "../../src/runtime/operators/regex.js";
import { regexExact } from "../../src/verify/field-domain.js";
import { Verifier } from "../../src/verify/verify-properties.js";
import { loadFromText, readFileTools } from "./helpers.js";

const RUNS = Number(process.env.TOOLGATE_VERIFY_RUNS ?? 200);

const ATOMS = ["a", "b", "c", ".", "[ab]", "[^a]", "[a-z]", "\\.", "\\d", "x"];
const pattern: fc.Arbitrary<string> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(...ATOMS),
    fc.constantFrom("^", "$"),
    fc.tuple(tie("node"), tie("node")).map(([a, b]) => `${a}${b}`),
    fc.tuple(tie("node"), tie("node")).map(([a, b]) => `(?:${a}|${b})`),
    fc
      .tuple(tie("node"), fc.constantFrom("*", "+", "?", "{2}", "{0,3}", "{1,}"))
      .map(([a, q]) => `(?:${a})${q}`),
  ),
})).node as fc.Arbitrary<string>;

const PARTS = ["a", "b", "c", ".", "x", "1", "ab", "ba", "aab", "z"];

/** A long string: the pattern's own characters in runs drawn from a seed, so that many DFA states come up. */
const longInput = (maxLength: number) =>
  fc
    .tuple(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: maxLength }))
    .map(([start, length]) => {
      let seed = start;
      let text = "";
      while (text.length < length) {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        text += PARTS[(seed >> 16) % PARTS.length];
      }
      return text.slice(0, length);
    });

/** A field's maxLength (from `min` to 4096) and a few long strings within it. */
const longInputs = (min: number) =>
  fc
    .integer({ min, max: 4096 })
    .chain((maxLength) =>
      fc.tuple(fc.constant(maxLength), fc.array(longInput(maxLength), { minLength: 1, maxLength: 6 })),
    );

interface Bounded {
  testBounded(input: string): boolean | undefined;
  test(input: string): boolean;
}

function regexOf(source: string, flags: string): Bounded | undefined {
  const compiled = compileRegexOperator({ pattern: source, flags });
  return compiled.ok ? (compiled.regex as unknown as Bounded) : undefined;
}

describe("regexExact", () => {
  for (const flags of ["", "i", "s"]) {
    it(`a regex read as exact answers every long string within the runtime's bound (flags "${flags}")`, () => {
      let long = 0;
      fc.assert(
        fc.property(pattern, longInputs(200), (source, [maxLength, inputs]) => {
          const spec = { pattern: source, flags };
          const regex = regexOf(source, flags);
          if (regex === undefined || !regexExact(spec, maxLength)) return;
          for (const text of inputs) {
            expect(text.length).toBeLessThanOrEqual(maxLength);
            expect(regex.testBounded(text), `${source} on ${text.length} characters`).toBe(regex.test(text));
            // Past the bound by length alone: read as exact by the count of states.
            if (
              regexWorkUpperBound(
                programSize(parseRegexTree(source, `${flags}u`) as never),
                2 * text.length,
              ) > REGEX_WORK_BOUND
            )
              long++;
          }
        }),
        { numRuns: RUNS },
      );
      expect(long).toBeGreaterThan(0);
    });
  }

  it("the runtime's lazy DFA has at most 2^(consuming instructions + 1) + 1 states, however many strings it reads", () => {
    fc.assert(
      fc.property(pattern, fc.array(longInput(300), { minLength: 1, maxLength: 20 }), (source, inputs) => {
        const regex = regexOf(source, "") as
          | (Bounded & { machine: { ops: Int32Array; dfaEligible: boolean; dfaStates: unknown[] } })
          | undefined;
        if (regex?.machine === undefined || !regex.machine.dfaEligible) return;
        for (const text of inputs) regex.test(text);
        const { char, set, any } = REGEX_OPS;
        const consuming = [...regex.machine.ops].filter(
          (op) => op === char || op === set || op === any,
        ).length;
        if (consuming < 30)
          expect(regex.machine.dfaStates.length).toBeLessThanOrEqual(2 ** (consuming + 1) + 1);
      }),
      { numRuns: RUNS },
    );
  });

  it("reads a short anchored pattern as exact on strings of any length the schema allows", () => {
    expect(regexExact("^src/[a-z]+\\.ts$", 4096)).toBe(true);
    expect(regexExact("^src/[a-z]+\\.ts$", 1_000_000)).toBe(true);
  });

  it("reads a pattern whose every lazy-DFA state fits the bound as exact at any length (the reference's shell patterns)", () => {
    const reference = [
      "(^|\\s)(--output|--output-directory|-o)(=|\\s|$)",
      "(^|[^A-Za-z0-9_])(\\.[eE][nN][vV]|[iI][dD]_([rR][sS][aA]|[eE][dD]25519|[eE][cC][dD][sS][aA])|\\.[sS][sS][hH]|\\.[aA][wW][sS]|\\.[nN][eE][tT][rR][cC]|\\.[nN][pP][mM][rR][cC])|\\.([pP][eE][mM]|[kK][eE][yY])([^A-Za-z0-9_]|$)",
      "(^|[\\s;&|(])((rg|ag|ack|rgrep)(\\s|$)|[ef]?grep\\s([^;&|\\n]*\\s)?(-[A-Za-z0-9]*[rRd]|--(rec|der|di)))",
      "(^|[\\s=:,{(;&|/]|\\s-[A-Za-z]+)(/|~|\\.\\.(/|$|[\\s;&|)}]))",
      "^https?://localhost",
    ];
    // Printable ASCII, tabs and newlines in a seeded order: strings far longer than the length bound allows.
    let seed = 11;
    const text = (length: number) => {
      let out = "";
      for (let i = 0; i < length; i++) {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        const k = (seed >> 16) % 97;
        out += k === 95 ? "\t" : k === 96 ? "\n" : String.fromCharCode(32 + k);
      }
      return out;
    };
    for (const source of reference) {
      // More consuming instructions than the count by length lets pass at 100,000 characters.
      expect(regexExact(source, 100_000), source).toBe(true);
      const regex = regexOf(source, "") as Bounded;
      for (const length of [1000, 20_000, 100_000]) {
        const input = text(length);
        expect(regex.testBounded(input), `${source} on ${length}`).toBe(regex.test(input));
      }
    }
  });

  for (const flags of ["", "i", "m"]) {
    it(`a regex the Pike VM runs (\\b, flag m) read as exact answers every long string within the bound (flags "${flags}")`, () => {
      let exact = 0;
      fc.assert(
        fc.property(
          pattern.map((p) => `\\b${p}(?:\\b|$)`),
          longInputs(100),
          (source, [maxLength, inputs]) => {
            const spec = { pattern: source, flags };
            const regex = regexOf(source, flags);
            if (regex === undefined || !regexExact(spec, maxLength)) return;
            exact++;
            for (const text of inputs)
              expect(regex.testBounded(text), `${source} on ${text.length} characters`).toBe(
                regex.test(text),
              );
          },
        ),
        { numRuns: RUNS },
      );
      expect(exact).toBeGreaterThan(RUNS / 4);
    });
  }

  it("reads a word-bounded pattern as exact on a field of a few thousand characters, not past its bound", () => {
    const spec = { pattern: "\\bdrop\\b", flags: "i" };
    expect(regexExact(spec, 2000)).toBe(true);
    expect(regexExact(spec, 100_000)).toBe(false);
    // Many live threads on every character: the runtime does give up on a long string.
    const many = "\\b[ab]*a[ab]{60}c";
    expect(regexExact(many, 8000)).toBe(false);
    let seed = 11;
    let text = "";
    for (let i = 0; i < 8000; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      text += (seed >> 16) % 2 === 0 ? "a" : "b";
    }
    expect((regexOf(many, "") as Bounded).testBounded(text)).toBeUndefined();
  });

  it("does not read a pattern with many states as exact on long strings, and the runtime does give up there", () => {
    const source = "^(a|b)*a(a|b){14}$";
    expect(regexExact(source, 30)).toBe(true);
    expect(regexExact(source, 8000)).toBe(false);
    const regex = regexOf(source, "") as Bounded;
    // A random string of a and b passes thousands of distinct states (the last 15 letters).
    let seed = 7;
    let text = "";
    for (let i = 0; i < 8000; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      text += (seed >> 16) % 2 === 0 ? "a" : "b";
    }
    expect(regex.testBounded(text)).toBeUndefined();
  });

  it("lets verify prove a property of a long path field selected by a short regex", () => {
    const { bundle, validators } = loadFromText(
      readFileTools(),
      `version: 1
allow: [read_file]
rules:
  - id: no-secrets
    tools: [read_file]
    decision: deny
    when:
      path: { glob: ["**/.env*", "/**"] }
    reason: no.
`,
    );
    const [result] = new Verifier(bundle, validators).verify([
      {
        id: "sources-allowed",
        tools: ["read_file"],
        where: { path: { regex: "^src/[a-z]+\\.ts$" } },
        kind: "always",
        action: "allow",
      },
    ]);
    expect(result?.status, JSON.stringify(result)).toBe("holds");
  });
});
