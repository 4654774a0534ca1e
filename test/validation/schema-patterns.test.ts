import { ValidatorFactory } from "toolgate";
import { describe, expect, it } from "vitest";

describe("input-schema patterns on the linear-time engine", () => {
  it("each schema of one ajv instance tests its own pattern, not the first one the instance compiled", () => {
    const factory = new ValidatorFactory();
    const lower = factory.compile({ type: "string", pattern: "^[a-z]+$" });
    const pairs = factory.compile({ type: "string", pattern: "^(ab|cd)+$" });
    if (!lower.ok || !pairs.ok) throw new Error("schemas must compile");
    expect([lower.validate("abc"), lower.validate("AB")]).toEqual([true, false]);
    expect([pairs.validate("abcd"), pairs.validate("abc")]).toEqual([true, false]);
  });
});
