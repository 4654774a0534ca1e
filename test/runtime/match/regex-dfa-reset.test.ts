// The lazy DFA's work count must not depend on what earlier runs left in its cache: when the cache is started
// afresh in the middle of a bounded run (its memory cap), a set of threads met before the reset and again after it
// counts once, as it does on a machine whose cache never filled.
import { describe, expect, it } from "vitest";
import { compileRegex } from "../../../src/runtime/match/regex/index.js";
import type { Machine } from "../../../src/runtime/match/regex/vm.js";

/** A fresh machine for `pattern` (each compile gets its own cache). */
function machineOf(pattern: string): Machine {
  const compiled = compileRegex(pattern, "");
  if (!compiled.ok) throw new Error(compiled.message);
  return (compiled.regex as unknown as { machine: Machine }).machine;
}

/** Deterministic text over `a` and `b` (a linear congruential generator). */
function text(seed: number, length: number): string {
  let x = seed;
  let out = "";
  for (let i = 0; i < length; i++) {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    out += x & 0x10000 ? "a" : "b";
  }
  return out;
}

/** The least budget with which `run` answers (does not give up), by bisection. */
function threshold(run: (budget: number) => boolean | undefined): number {
  let low = 0;
  let high = 1;
  while (run(high) === undefined) high *= 2;
  while (low + 1 < high) {
    const mid = Math.floor((low + high) / 2);
    if (run(mid) === undefined) low = mid;
    else high = mid;
  }
  return high;
}

describe("the lazy DFA's work bound across a reset of its cache", () => {
  // `.*a.{12}`: a state is the set of the last 13 characters that were `a`, up to 8,192 of them, more than the
  // cache holds (4,096), so a long input fills it and it starts afresh in the middle of a run.
  const pattern = ".*a.{12}c";
  // Starts and ends with the same run of `b`s: the all-`b` state is met before the reset and again after it.
  const input = `${"b".repeat(20)}${text(7, 9000)}${"b".repeat(20)}`;

  it("has a machine that makes more states in one run than its cache holds (the premise of the tests)", () => {
    const machine = machineOf(pattern);
    expect(machine.dfaEligible).toBe(true);
    expect(machine.runDfa(input)).toBe(false);
    // After the run the cache holds fewer states than the run passed through: it was started afresh.
    const states = (machine as unknown as { dfaStates: unknown[] }).dfaStates.length;
    expect(states).toBeLessThan(4096);
    expect(states).toBeGreaterThan(0);
  });

  it("gives up at the same budget whatever earlier runs left in the cache", () => {
    const fresh = threshold((budget) => machineOf(pattern).runDfa(input, budget));
    for (const warmSeed of [1, 2, 3]) {
      const warmed = threshold((budget) => {
        const machine = machineOf(pattern);
        machine.runDfa(text(warmSeed, 1500 * warmSeed));
        return machine.runDfa(input, budget);
      });
      expect(warmed).toBe(fresh);
    }
  });
});
