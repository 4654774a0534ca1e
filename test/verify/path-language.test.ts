/**
 * On the simple paths, the verifier's automata of `glob` and `path_prefix` give exactly the runtime's answers:
 * certain where the `glob` (or the `path_prefix`) operator is certain, possible where it is possible. Paths
 * are drawn from letters in both cases, digits, `.`, `/`, `-`, `_`, a backslash, `:`, `~`, a blank and a letter
 * outside ASCII, so that the generator also makes the paths outside the simple subset, which must be left out.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileCondition } from "../../src/runtime/condition.js";
import { compileGlob } from "../../src/runtime/match/glob.js";
import { readSimplePath } from "../../src/runtime/match/path.js";
import { AlphabetBuilder } from "../../src/verify/alphabet.js";
import { Automata } from "../../src/verify/automata.js";
import { accepts } from "../../src/verify/dfa.js";
import { PathLanguages } from "../../src/verify/path-language.js";

const CHARS = [
  "a",
  "b",
  "A",
  "c",
  "o",
  "n",
  ".",
  "/",
  "/",
  "-",
  "_",
  "1",
  "\\",
  ":",
  "~",
  " ",
  "é",
  "S",
  "s",
];
const path = fc.array(fc.constantFrom(...CHARS), { maxLength: 9 }).map((cs) => cs.join(""));
const GLOB_PARTS = ["**", "*", "?", "a", "b", ".a", "A", "con", "[ab]", "[!a]", "{a,b}", "s", "*.a"];
const glob = fc
  .tuple(fc.boolean(), fc.array(fc.constantFrom(...GLOB_PARTS), { minLength: 1, maxLength: 3 }))
  .map(([absolute, parts]) => `${absolute ? "/" : ""}${parts.join("/")}`);
const prefix = fc.constantFrom("a", "a/", "A", "src", "s", ".a", "a/b", "/a", "/", "co");

/** The simple subset, written without automata: what the runtime reads the same on every platform. */
function isSimple(value: string): boolean {
  if (readSimplePath(value) !== undefined) return true;
  if (value === "/") return true;
  if (!value.startsWith("/")) return false;
  return value
    .slice(1)
    .split("/")
    .every((segment) => /^[A-Za-z0-9_.-]*[A-Za-z0-9_-]$/.test(segment));
}

function languages(globs: readonly string[], prefixes: readonly string[], values: readonly string[]) {
  const builder = new AlphabetBuilder();
  PathLanguages.addBoundaries(builder, globs, prefixes);
  for (const v of values) builder.addText(v);
  const automata = new Automata(builder.build());
  return { alphabet: automata.alphabet, paths: new PathLanguages(automata) };
}

describe("PathLanguages", () => {
  it("accepts exactly the simple paths", () => {
    fc.assert(
      fc.property(fc.array(path, { minLength: 1, maxLength: 20 }), (values) => {
        const { alphabet, paths } = languages([], [], values);
        for (const v of values)
          expect(accepts(paths.simple, alphabet.symbols(v)), JSON.stringify(v)).toBe(isSimple(v));
      }),
      { numRuns: 300 },
    );
  });

  it("gives the glob operator's answers on simple paths", () => {
    fc.assert(
      fc.property(
        fc.array(glob, { minLength: 1, maxLength: 2 }),
        fc.array(path, { minLength: 1, maxLength: 20 }),
        (globs, values) => {
          if (!globs.every((g) => compileGlob(g).ok)) return;
          const { alphabet, paths } = languages(globs, [], values);
          const { certain, possible } = paths.glob(globs);
          const compiled = compileCondition({ f: { glob: globs } });
          if (!compiled.ok) return;
          for (const v of values) {
            if (!isSimple(v)) continue;
            const truth = compiled.condition({ f: v });
            const symbols = alphabet.symbols(v);
            expect(accepts(certain, symbols), `${globs} certain ${JSON.stringify(v)}`).toBe(truth === 1);
            expect(accepts(possible, symbols), `${globs} possible ${JSON.stringify(v)}`).toBe(truth !== 0);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it("gives path_prefix's answers on simple paths", () => {
    fc.assert(
      fc.property(prefix, fc.array(path, { minLength: 1, maxLength: 20 }), (p, values) => {
        const compiled = compileCondition({ f: { path_prefix: p } });
        if (!compiled.ok) return;
        const { alphabet, paths } = languages([], [p], values);
        const { certain, possible } = paths.pathPrefix(p);
        for (const v of values) {
          if (!isSimple(v)) continue;
          const truth = compiled.condition({ f: v });
          const symbols = alphabet.symbols(v);
          expect(accepts(certain, symbols), `${p} certain ${JSON.stringify(v)}`).toBe(truth === 1);
          expect(accepts(possible, symbols), `${p} possible ${JSON.stringify(v)}`).toBe(truth !== 0);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("PathLanguages on every short path", () => {
  const LETTERS = ["a", "b", "A", "/", "."];
  const ALL: string[] = [""];
  let layer = [""];
  for (let n = 1; n <= 4; n++) {
    layer = layer.flatMap((s) => LETTERS.map((c) => s + c));
    ALL.push(...layer);
  }
  const SIMPLE = ALL.filter(isSimple);

  it("gives the glob operator's answers on every simple path of up to 4 of a, b, A, /, .", () => {
    fc.assert(
      fc.property(fc.array(glob, { minLength: 1, maxLength: 2 }), (globs) => {
        if (!globs.every((g) => compileGlob(g).ok)) return;
        const compiled = compileCondition({ f: { glob: globs } });
        if (!compiled.ok) return;
        const { alphabet, paths } = languages(globs, [], LETTERS);
        const { certain, possible } = paths.glob(globs);
        const wrong = SIMPLE.filter((v) => {
          const truth = compiled.condition({ f: v });
          const symbols = alphabet.symbols(v);
          return accepts(certain, symbols) !== (truth === 1) || accepts(possible, symbols) !== (truth !== 0);
        });
        expect(wrong.slice(0, 5), JSON.stringify(globs)).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it("gives path_prefix's answers on every simple path of up to 4 of a, b, A, /, .", () => {
    for (const p of ["a", "a/", "A", "a/b", "/a", "/", "b.a", "a/b/"]) {
      const compiled = compileCondition({ f: { path_prefix: p } });
      if (!compiled.ok) continue;
      const { alphabet, paths } = languages([], [p], LETTERS);
      const { certain, possible } = paths.pathPrefix(p);
      const wrong = SIMPLE.filter((v) => {
        const truth = compiled.condition({ f: v });
        const symbols = alphabet.symbols(v);
        return accepts(certain, symbols) !== (truth === 1) || accepts(possible, symbols) !== (truth !== 0);
      });
      expect(wrong.slice(0, 5), p).toEqual([]);
    }
  });
});
