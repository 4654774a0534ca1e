import { describe, expect, it } from "vitest";
import { assertBuilt, runNode } from "./built-package.js";

describe("examples/calculator", () => {
  it("prints the seed's three calls and results and exits 0", () => {
    assertBuilt();
    const { status, stdout, stderr } = runNode(["examples/calculator/main.mjs"]);
    expect(stderr).toBe("");
    expect(status).toBe(0);
    expect(stdout.split("\n")).toEqual([
      'call_1 calculator {"a":40,"b":2} -> 42',
      "call_2 delete_everything {} -> error: unknown tool: delete_everything",
      'call_3 calculator {"a":"x"} -> error: invalid arguments for calculator: /b: is required; /a: must be integer',
      "",
    ]);
  });
});
