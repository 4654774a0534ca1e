/**
 * Every string the witness search finds for each assignment of truths a string field admits (`witnessCandidates`,
 * up to sixteen, in the order they are tried), on a fixed corpus of command, path and URL operators drawn from the
 * answer corpus's leaves, against a snapshot. Each string is checked to have its assignment's truths by the
 * runtime's own operators. The engine needs one witness per assignment; this pins the others too, so that a
 * candidate dropped, added or moved in the lists the search reads (field-domain.ts) is seen even where another
 * string would still be found first. Update with `npx vitest run test/verify/witness-candidates.test.ts -u` after a
 * deliberate change, and read the snapshot's diff.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonSchema } from "../../src/runtime/types.js";
import { commandLeaf, pathLeaf, urlLeaf } from "./answer-corpus.js";
import { reachable, stringField } from "./helpers.js";

const SCHEMAS: readonly JsonSchema[] = [
  { type: "string", minLength: 1, maxLength: 512 },
  { type: "string", minLength: 1, maxLength: 24 },
  { type: "string", minLength: 1, maxLength: 40, pattern: "^[a-z0-9 ./|;&>'-]*$" },
];

interface FieldCase {
  readonly name: string;
  readonly operators: readonly (readonly [string, unknown])[];
  readonly schema: JsonSchema;
}

function cases(
  name: string,
  leaf: fc.Arbitrary<Record<string, unknown>>,
  seed: number,
  count: number,
): FieldCase[] {
  const scenario = fc.record({
    leaves: fc.array(leaf, { minLength: 1, maxLength: 3 }),
    schema: fc.constantFrom(...SCHEMAS),
  });
  return fc.sample(scenario, { seed, numRuns: count }).map((s, n) => ({
    name: `${name} ${n}`,
    operators: s.leaves.flatMap((l) => Object.entries(l)),
    schema: s.schema,
  }));
}

/** A string as printable ASCII: other code points (lone surrogates too, which a snapshot file cannot hold) as `\u{…}`. */
function printable(s: string): string {
  let out = "";
  for (const c of s) {
    const cp = c.codePointAt(0) as number;
    out += cp >= 0x20 && cp < 0x7f && c !== "\\" ? c : `\\u{${cp.toString(16)}}`;
  }
  return out;
}

const COUNT = Number(process.env.TOOLGATE_CANDIDATE_CASES ?? 100);
const CASES = [
  ...cases("command", commandLeaf, 1207, COUNT),
  ...cases("path", pathLeaf, 1208, COUNT),
  ...cases("url", urlLeaf, 1209, COUNT),
];

describe("the witnesses the search finds for each assignment of truths", () => {
  it.each(CASES.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const domain = stringField(c.operators, undefined, c.schema);
    const theory = domain.strings();
    if (theory === null) throw new Error("strings are not modelled");
    const lines = reachable(domain).map(({ truths, state }) => {
      const found = theory.witnessCandidates(state, 16);
      for (const w of found)
        expect(domain.atoms.map((a) => a.test(w.text)).join(""), `${truths}: ${w.text}`).toBe(truths);
      return `${truths}=${found.map((w) => `${printable(w.text)}${w.loose ? "~" : ""}`).join(" | ")}`;
    });
    expect({ operators: c.operators, schema: c.schema, lines }).toMatchSnapshot();
  });
});
