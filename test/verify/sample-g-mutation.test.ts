/**
 * Readings of the verify engine the broader tests did not pin (found by the mutation run of a seventh random sample
 * of its lines, docs/verify-mutation.md): a group after a pattern's first word whose alternatives are not read is a
 * blank after that word only when every alternative starts with one; and a command the policy allows, spelt so that a
 * pattern of its start misses it (a blank first, a redirection first, its first word quoted), as the witness of a
 * property of such lines.
 */
import { describe, expect, it } from "vitest";
import { compileCondition } from "../../src/runtime/condition.js";
import { lineStartsRegex } from "../../src/verify/facts.js";
import { expectFailsWith, shellTools } from "./helpers.js";

describe("a group after the first word whose alternatives are not read", () => {
  it.each(["^ls( \\w|x)", "^ls( .|x)", "^ls(?: \\d{2,}|x)", "^ls( [^a]|(x|y))", "^rm(?: a\\b|(?:x))"])(
    "%s names no line start: an alternative without a blank runs on in the first word",
    (pattern) => {
      // The reading of the group's first alternative stops at a class or a boundary; the group is then read as the
      // blank each alternative starts with. The last one starts with no blank: the pattern matches `lsx` (or
      // `rmx`), whose first word is not `ls`.
      expect(lineStartsRegex(pattern)).toBeUndefined();
      const where = compileCondition({ command: { regex: pattern } });
      if (!where.ok) throw new Error("the pattern does not compile");
      expect(where.condition({ command: `${pattern.slice(1, 3)}x` })).toBe(1);
    },
  );

  it.each(["^ls( \\w| b)", "^ls(?: .|\\tb)", "^ls( \\w(a|b)| c)"])(
    "%s starts lines with `ls`: each alternative starts with a blank",
    (pattern) => {
      // A `|` inside a group of an alternative (`(a|b)`) starts no alternative of the outer group.
      expect(lineStartsRegex(pattern)).toEqual([{ words: ["ls"] }]);
    },
  );
});

describe("a command the policy allows, spelt so that a pattern of its start misses it", () => {
  it.each([
    ["^ ", " ls -l"],
    ["^>/dev/null ", ">/dev/null ls -l"],
    ["^2>", "2>/dev/null ls -l"],
    ["^'ls'", "'ls' -l"],
    ["^l'", "l's' -l"],
    ["' -l", "'ls' -l"],
  ])("is the witness of a property of lines of %j: %j", (regex, command) => {
    // Each spelling is `ls -l` to the runtime (a blank, a redirection, quotes around or inside the first word), so
    // the controller allows it; the engine's own strings of the region are not certain to run `ls -l`, and without
    // these candidates the property would only be `unknown`.
    const policy = `version: 1
rules:
  - id: listed
    tools: [run_shell]
    decision: allow
    when: { command: { command: ["ls -l"] } }
    reason: listed
`;
    const property = { id: "p", tools: ["run_shell"], where: { command: { regex } } } as const;
    expectFailsWith(
      shellTools(),
      policy,
      { ...property, kind: "never", action: "allow" },
      { command },
      "allow",
    );
  });
});
