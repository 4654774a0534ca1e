/** Builders for the facts tests: one field's atoms made by the runtime, over an alphabet cut as the verifier cuts it. */
import { parseCommandPrefixSpec } from "../../src/runtime/match/shell.js";
import type { UrlSpec } from "../../src/runtime/match/url.js";
import type { Truth } from "../../src/runtime/truth.js";
import { AlphabetBuilder } from "../../src/verify/alphabet.js";
import { Automata } from "../../src/verify/automata.js";
import { FieldFacts } from "../../src/verify/facts.js";
import { type Atom, AtomTable, fieldRef } from "../../src/verify/formula.js";
import { PathLanguages } from "../../src/verify/path-language.js";
import { UrlLanguages } from "../../src/verify/url-language.js";

/** One operator of the field: `[name, value]`. */
export type Op = readonly [string, unknown];

/** The automata a field of these atoms gets (as `field-domain.ts` cuts its alphabet for them). */
export function automataFor(atoms: readonly Atom[]): Automata {
  const builder = new AlphabetBuilder();
  const globs: string[] = [];
  const prefixes: string[] = [];
  const urls: UrlSpec[] = [];
  for (const a of atoms) {
    if (a.operator === "glob")
      globs.push(...(typeof a.value === "string" ? [a.value] : (a.value as string[])));
    if (a.operator === "path_prefix") prefixes.push(a.value as string);
    if (a.operator === "url") urls.push(a.value as UrlSpec);
    if (a.operator === "command")
      for (const spec of a.value as unknown[]) {
        const read = parseCommandPrefixSpec(spec);
        if (read.ok) for (const w of read.prefix.words) builder.addText(w);
      }
  }
  if (globs.length > 0 || prefixes.length > 0) PathLanguages.addBoundaries(builder, globs, prefixes);
  if (urls.length > 0) UrlLanguages.addBoundaries(builder, urls);
  builder.addRanges([0x20, 0x20, 0x30, 0x39, 0x41, 0x5a, 0x61, 0x7a]);
  return new Automata(builder.build());
}

/** The facts of one field's operators, made as the runtime compiles them; atom `i` is `ops[i]`. */
export function factsOf(ops: readonly Op[]): { facts: FieldFacts; atoms: readonly Atom[] } {
  const table = new AtomTable();
  const field = fieldRef("arguments", "p");
  ops.forEach(([operator, value], i) => {
    const id = table.atom(field, operator, value);
    if (id !== i) throw new Error(`operator ${i} repeats operator ${id}`);
  });
  return { facts: new FieldFacts(automataFor(table.atoms), table.atoms), atoms: table.atoms };
}

/**
 * Atoms written by hand (values the runtime would refuse, or ids of a larger verification), with a test that is
 * never run; atom `ids[i]` (by default `i`) is `ops[i]`.
 */
export function rawFacts(ops: readonly Op[], ids: readonly number[] = ops.map((_, i) => i)): FieldFacts {
  const field = fieldRef("arguments", "p");
  const atoms: Atom[] = ops.map(([operator, value], i) => ({
    id: ids[i] as number,
    field,
    operator,
    value,
    test: () => 2,
  }));
  return new FieldFacts(automataFor(atoms), atoms);
}

const TRUTHS = [0, 1, 2] as const;

/** Every assignment of truths to atoms `0..n-1`. */
export function assignments(n: number): Truth[][] {
  let out: Truth[][] = [[]];
  for (let i = 0; i < n; i++) out = out.flatMap((t) => TRUTHS.map((x) => [...t, x]));
  return out;
}

/** The assignments of truths to atoms `0..n-1` the facts rule out, each written as its digits (`"10"`). */
export function ruledOut(facts: FieldFacts, n: number): string[] {
  return assignments(n)
    .filter((t) => !facts.allows(new Map(t.map((x, i) => [i, x]))))
    .map((t) => t.join(""));
}
