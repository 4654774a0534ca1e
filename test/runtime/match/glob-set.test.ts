import { describe, expect, it } from "vitest";
import { compileGlob, type Glob, GlobSet } from "../../../src/runtime/match/glob.js";

function glob(pattern: string): Glob {
  const compiled = compileGlob(pattern);
  if (!compiled.ok) throw new Error(`${pattern}: ${compiled.message}`);
  return compiled.glob;
}

describe("GlobSet answers each glob as matchPathGlobs does", () => {
  it("tells a certain match from a possible one", () => {
    const set = new GlobSet([glob("**/.env*"), glob("/**"), glob("**/.ssh/**")]);
    expect([...set.match("config/.env").answers]).toEqual([1, 0, 0]);
    expect([...set.match("config/.ENV").answers]).toEqual([2, 0, 0]);
    // An absolute path is never plain: at most possible.
    expect([...set.match("/home/u/.ssh/id").answers]).toEqual([0, 2, 2]);
    expect([...set.match("src/index.ts").answers]).toEqual([0, 0, 0]);
  });
});
