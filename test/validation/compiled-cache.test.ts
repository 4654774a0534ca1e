/**
 * A schema object compiled once with the default options is not compiled again while it is unchanged: a load
 * compiles every tool's schema, and `createController` given the loaded bundle reuses those validators.
 */
import { describe, expect, it } from "vitest";
import { bundleValidators } from "../../src/bundle/bundle-parts.js";
import { loadPolicyResult } from "../../src/config/load-policy.js";
import { ValidatorFactory } from "../../src/validation/argument-validator.js";

describe("compiled validators by schema object", () => {
  it("gives the same validator for the same unchanged schema, from any default factory", () => {
    const schema = { type: "string", maxLength: 2 };
    const first = new ValidatorFactory().compile(schema);
    const second = new ValidatorFactory().compile(schema);
    if (!first.ok || !second.ok) throw new Error("schema refused");
    expect(second.validator).toBe(first.validator);
  });

  it("compiles a schema again after it changed", () => {
    const schema: { type: string; maxLength: number } = { type: "string", maxLength: 2 };
    const before = new ValidatorFactory().compile(schema);
    schema.maxLength = 4;
    const after = new ValidatorFactory().compile(schema);
    if (!before.ok || !after.ok) throw new Error("schema refused");
    expect(after.validator).not.toBe(before.validator);
    expect(after.validator("abcd").ok).toBe(true);
    expect(before.validator("abcd").ok).toBe(false);
  });

  it("does not share between factories with other options", () => {
    const schema = { type: "string" };
    const plain = new ValidatorFactory().compile(schema);
    const other = new ValidatorFactory({ allErrors: false }).compile(schema);
    if (!plain.ok || !other.ok) throw new Error("schema refused");
    expect(other.validator).not.toBe(plain.validator);
  });

  it("keeps a refused schema refused, with its message, every time", () => {
    const schema = { type: "strin" };
    const first = new ValidatorFactory().compile(schema);
    const second = new ValidatorFactory().compile(schema);
    expect(first.ok).toBe(false);
    expect(second).toEqual(first);
  });

  it("gives an equal schema of another tool the same validator, within one factory's life", () => {
    const factory = new ValidatorFactory();
    const first = factory.compile({ type: "object", properties: { path: { type: "string", maxLength: 4 } } });
    const equal = factory.compile({ type: "object", properties: { path: { type: "string", maxLength: 4 } } });
    const other = factory.compile({ type: "object", properties: { path: { type: "string", maxLength: 5 } } });
    if (!first.ok || !equal.ok || !other.ok) throw new Error("schema refused");
    expect(equal.validator).toBe(first.validator);
    expect(other.validator).not.toBe(first.validator);
    expect(equal.validator({ path: "abcde" })).toEqual(first.validator({ path: "abcde" }));
    factory.reset();
    const again = factory.compile({ type: "object", properties: { path: { type: "string", maxLength: 4 } } });
    if (!again.ok) throw new Error("schema refused");
    expect(again.validator).not.toBe(first.validator);
  });

  it("refuses each copy of a refused schema with the same message", () => {
    const factory = new ValidatorFactory();
    const first = factory.compile({ type: "object", properties: { a: { type: "strin" } } });
    const second = factory.compile({ type: "object", properties: { a: { type: "strin" } } });
    expect(first.ok).toBe(false);
    expect(second).toEqual(first);
  });

  it("hands a loaded bundle's tools the validators the load compiled", async () => {
    const result = await loadPolicyResult({ cwd: process.cwd() });
    if (result.bundle === undefined) throw new Error("the repository's policy did not load");
    const validators = bundleValidators(result.bundle);
    for (const [name, validator] of result.validators) expect(validators.get(name)).toBe(validator);
  });
});
