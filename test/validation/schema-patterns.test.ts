import { ValidatorFactory } from "toolgate";
import { describe, expect, it } from "vitest";

describe("input-schema patterns on the linear-time engine", () => {
  it("each schema of one ajv instance tests its own pattern, not the first one the instance compiled", () => {
    // Options of its own: the factory compiles with ajv even the schemas `planValidator` would take.
    const factory = new ValidatorFactory({ allErrors: true });
    const lower = factory.compile({ type: "string", pattern: "^[a-z]+$" });
    const pairs = factory.compile({ type: "string", pattern: "^(ab|cd)+$" });
    if (!lower.ok || !pairs.ok || !lower.validate || !pairs.validate) throw new Error("schemas must compile");
    expect([lower.validate("abc"), lower.validate("AB")]).toEqual([true, false]);
    expect([pairs.validate("abcd"), pairs.validate("abc")]).toEqual([true, false]);
  });

  it("the validators without ajv test each schema's own pattern too", () => {
    const factory = new ValidatorFactory();
    const lower = factory.compile({ type: "string", pattern: "^[a-z]+$" });
    const pairs = factory.compile({ type: "string", pattern: "^(ab|cd)+$" });
    if (!lower.ok || !pairs.ok) throw new Error("schemas must compile");
    expect([lower.validator("abc").ok, lower.validator("AB").ok]).toEqual([true, false]);
    expect([pairs.validator("abcd").ok, pairs.validator("abc").ok]).toEqual([true, false]);
  });
});
