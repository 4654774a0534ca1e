import { DuplicateToolError, ToolgateError, ToolRegistry } from "toolgate";
import { describe, expect, it } from "vitest";
import { countedCalculator, countedPathTool } from "./core-fixtures.js";

describe("ToolRegistry", () => {
  it("keeps the specs in the order given and resolves names exactly", () => {
    const calculator = countedCalculator();
    const reader = countedPathTool();
    const registry = new ToolRegistry([reader.definition, calculator.definition]);
    expect(registry.specs.map((s) => s.name)).toEqual(["read_file", "calculator"]);
    expect(registry.names).toEqual(["read_file", "calculator"]);
    expect(registry.resolve("calculator")).toEqual({ found: true, definition: calculator.definition });
    expect(registry.resolve("Calculator")).toEqual({ found: false, toolName: "Calculator" });
    expect(registry.has("read_file")).toBe(true);
    expect(registry.has("__proto__")).toBe(false);
    expect(Object.isFrozen(registry.specs)).toBe(true);
  });

  it("rejects a repeated tool name with DuplicateToolError", () => {
    const build = () => new ToolRegistry([countedCalculator().definition, countedCalculator().definition]);
    expect(build).toThrow(DuplicateToolError);
    expect(build).toThrow("duplicate tool name: calculator");
    try {
      build();
    } catch (error) {
      expect(error).toBeInstanceOf(ToolgateError);
      expect(error).toMatchObject({ code: "duplicate-tool", toolName: "calculator" });
    }
  });
});
