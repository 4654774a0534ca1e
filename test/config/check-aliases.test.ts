/**
 * The pieces of the alias checks that the corpus (test/fixtures/config/alias-*) does not pin one by one: what
 * makes a name pattern malformed, and how each written mapping value becomes a source.
 */
import { describe, expect, it } from "vitest";
import { aliasSource, namePatternProblem } from "../../src/config/check-aliases.js";

describe("namePatternProblem", () => {
  it("accepts plain names and patterns whose parts are separated by text", () => {
    for (const name of [
      "Bash",
      "mcp__{server}__{tool}",
      "{tool}",
      "before{Event}",
      "a{_x1}b",
      "run-shell.cmd",
    ]) {
      expect(namePatternProblem(name), name).toBeUndefined();
    }
  });

  it("refuses a stray brace, a part named twice, and parts that touch", () => {
    expect(namePatternProblem("mcp__{server")).toMatch(/has a "\{" or "\}" that is not a \{part\}/);
    expect(namePatternProblem("mcp__{1st}")).toMatch(/that is not a \{part\}/);
    expect(namePatternProblem("x}")).toMatch(/that is not a \{part\}/);
    expect(namePatternProblem("{a}_{a}")).toBe(
      'the name "{a}_{a}" has the part {a} twice; name each part once',
    );
    expect(namePatternProblem("{a}{b}")).toMatch(/the parts \{a\} and \{b\} .* touch/);
  });
});

describe("aliasSource", () => {
  it("reads each written form as its kind", () => {
    expect(aliasSource("command")).toEqual({ kind: "argument", name: "command" });
    expect(aliasSource({ argument: "command" })).toEqual({ kind: "argument", name: "command" });
    expect(aliasSource({ path: "file_path" })).toEqual({ kind: "path", name: "file_path" });
    expect(aliasSource({ value: { a: [1, null] } })).toEqual({ kind: "value", value: { a: [1, null] } });
    expect(aliasSource({ value: null })).toEqual({ kind: "value", value: null });
    expect(aliasSource({ tool_name: true })).toEqual({ kind: "tool-name" });
    expect(aliasSource({ name_part: "server" })).toEqual({ kind: "name-part", part: "server" });
    expect(aliasSource({ all_arguments: true })).toEqual({ kind: "all-arguments" });
    expect(aliasSource({ absent: true })).toEqual({ kind: "absent" });
  });
});
