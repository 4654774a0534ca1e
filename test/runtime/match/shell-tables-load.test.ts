// The command operator's modules build their tables when they load. A table built wrong can make a module throw
// while it loads; a test file that imports it at its top then fails to load, which a mutation run does not count
// as a failing test. Here the modules are loaded inside a test, which then fails.
import { expect, it } from "vitest";

it("the matcher and its tables load, and decide a command", async () => {
  const shell = await import("../../../src/runtime/match/shell.js");
  expect(shell.matchCommand("git rebase -x true main", [["git", "rebase"]])).toEqual({
    certain: false,
    possible: true,
  });
  expect(shell.matchCommand("ls", [["ls"]])).toEqual({ certain: true, possible: true });
});

it("the host canonicaliser loads", async () => {
  const host = await import("../../../src/runtime/match/host.js");
  expect(host.readHost("127.1")?.ascii).toBe("127.0.0.1");
});
