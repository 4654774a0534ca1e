/**
 * A validator factory forgets what it compiled when it is reset: a finished load must not keep its validators
 * alive through the shared factory (ajv keeps every compiled function in its code scope even after
 * `removeSchema()`, so a watcher reloading a large policy grew by the size of its validators on each reload).
 */

import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { loadPolicyResult } from "../../src/config/load-policy.js";
import { ValidatorFactory } from "../../src/validation/argument-validator.js";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

/**
 * Lets the current job end (WeakRef targets stay alive until it does), then collects garbage, until every
 * given reference is cleared or ten rounds have passed: under load one round may meet a job that still holds
 * a target, and a reference that survives ten rounds is held by something real.
 */
async function settle(refs: readonly WeakRef<object>[]): Promise<void> {
  for (let round = 0; round < 10; round++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    collectGarbage();
    if (refs.every((ref) => ref.deref() === undefined)) return;
  }
}

/**
 * Compiles a distinct schema and returns a weak reference to it, keeping no strong one: ajv's compiled
 * function holds its schema, so the schema outlives the compile exactly as long as something keeps the
 * function.
 */
function compileOnce(factory: ValidatorFactory, k: number): WeakRef<object> {
  const schema = {
    type: "object",
    properties: { [`field_${k}`]: { type: "string", maxLength: k + 1 } },
    additionalProperties: false,
  };
  const compiled = factory.compile(schema);
  if (!compiled.ok) throw new Error(compiled.message);
  return new WeakRef(schema);
}

/** Loads the repository's own policy and returns a weak reference to what the load compiled. */
async function loadAndDrop(): Promise<WeakRef<object>> {
  const result = await loadPolicyResult({ cwd: process.cwd() });
  expect(result.bundle).toBeDefined();
  expect(result.validators.size).toBeGreaterThan(0);
  return new WeakRef(result.validators);
}

describe("a finished load", () => {
  it("keeps nothing it compiled alive once the caller drops its result", async () => {
    const validators = await loadAndDrop();
    await settle([validators]);
    expect(validators.deref()).toBeUndefined();
  });
});

describe("ValidatorFactory.reset", () => {
  it("leaves nothing compiled before it reachable from the factory", async () => {
    const factory = new ValidatorFactory();
    const refs = Array.from({ length: 20 }, (_, k) => compileOnce(factory, k));
    factory.reset();
    await settle(refs);
    expect(refs.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
  });

  it("keeps the factory usable and its validators correct after a reset", () => {
    const factory = new ValidatorFactory();
    const before = factory.compile({ type: "string", maxLength: 2 });
    factory.reset();
    const after = factory.compile({ type: "string", maxLength: 2 });
    if (!before.ok || !after.ok) throw new Error("schema refused");
    for (const validator of [before.validator, after.validator]) {
      expect(validator("ab").ok).toBe(true);
      expect(validator("abc").ok).toBe(false);
    }
  });
});
