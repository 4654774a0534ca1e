// Compound commands decided part by part, as Codex, Claude Code and Gemini CLI decide them: each simple command
// by the rules that match it, the string by the strictest of its parts (and of a deny or ask the whole gets).
import { type StatementSpec, type ToolCall, ToolPolicy } from "toolgate";
import { describe, expect, it } from "vitest";
import { renderSafeCommand, splitCompound } from "../../src/runtime/compound-command.js";
import { readSafeSubset } from "../../src/runtime/match/shell.js";

function rule(id: string, action: StatementSpec["action"], when: StatementSpec["when"]): StatementSpec {
  return { id, kind: "rule", action, tools: ["run_shell"], reason: `${id} says so`, when };
}
const otherwise = (action: StatementSpec["action"]): StatementSpec => ({
  id: "otherwise:run_shell",
  kind: "otherwise",
  action,
  tools: ["run_shell"],
  reason: "anything else asks",
});
const shell = (command: string, cwd = "src"): ToolCall => ({
  callId: "c1",
  toolName: "run_shell",
  arguments: { command, cwd },
});

const policy = ToolPolicy.fromStatements([
  rule("git-read", "allow", { command: { command: ["git status", "git diff"] } }),
  rule("tests", "allow", { command: { command: ["npm test"] } }),
  rule("push", "ask", { command: { command: ["git push"] } }),
  rule("no-rm", "deny", { command: { command: ["rm -rf"] } }),
  rule("copy", "allow", { command: { command: ["cp", "./it"] } }),
  otherwise("ask"),
]);

describe("a compound command is decided part by part", () => {
  it("allows commands that different rules allow", () => {
    const decision = policy.decide(shell("git status && npm test"));
    expect(decision.action).toBe("allow");
    expect(decision.ruleIds).toEqual(["git-read", "tests"]);
    expect(policy.decide(shell("git status; git diff --stat | npm test")).action).toBe("allow");
  });

  it("takes the strictest part: an ask, a deny, or the fallback of a part no rule matches", () => {
    expect(policy.decide(shell("git status && git push"))).toMatchObject({
      action: "ask",
      ruleIds: ["push"],
    });
    expect(policy.decide(shell("npm test && rm -rf build"))).toMatchObject({
      action: "deny",
      ruleIds: ["no-rm"],
    });
    expect(policy.decide(shell("git status && make"))).toMatchObject({
      action: "ask",
      ruleIds: ["otherwise:run_shell"],
    });
  });

  it("keeps today's meaning for a string outside the safe subset", () => {
    // `$(x)` may run anything: the deny may match, and no allow is certain.
    expect(policy.decide(shell("git status && npm test $(x)")).action).toBe("deny");
    expect(policy.decide(shell("git status && npm test >out")).action).toBe("ask");
    expect(policy.explain(shell("git status && npm test $(x)")).parts).toBeUndefined();
  });

  it("still reads the whole string for what only the whole shows: a file one part writes and another runs", () => {
    // Each part alone is allowed; together `./it` may be the file `cp` wrote, which may run `rm -rf`.
    expect(policy.decide(shell("cp")).action).toBe("allow");
    expect(policy.decide(shell("./it")).action).toBe("allow");
    expect(policy.decide(shell("cp /tmp/x it; ./it"))).toMatchObject({ action: "deny", ruleIds: ["no-rm"] });
  });

  it("decides each part with every other field as it is: a rule that also conditions another field holds per part", () => {
    const scoped = ToolPolicy.fromStatements([
      rule("src-git", "allow", { command: { command: ["git status"] }, cwd: { path_prefix: "src" } }),
      rule("any-tests", "allow", { command: { command: ["npm test"] } }),
      otherwise("ask"),
    ]);
    expect(scoped.decide(shell("git status && npm test", "src")).action).toBe("allow");
    expect(scoped.decide(shell("git status && npm test", "docs")).action).toBe("ask");
  });

  it("explains each part", () => {
    const explained = policy.explain(shell("git status && npm test && make"));
    expect(explained.parts?.map((p) => [p.command, p.decision.action])).toEqual([
      ["git status", "allow"],
      ["npm test", "allow"],
      ["make", "ask"],
    ]);
    expect(explained.decision).toMatchObject({ action: "ask", ruleIds: ["otherwise:run_shell"] });
    // A statement that decides the whole string decides it: no parts.
    expect(policy.explain(shell("git status && git push")).parts).toBeUndefined();
    // The whole string's statement by statement evaluation is still there, one entry per statement.
    expect(explained.evaluations.map((e) => e.statement.id)).toEqual([
      "git-read",
      "tests",
      "push",
      "no-rm",
      "copy",
      "otherwise:run_shell",
    ]);
  });
});

describe("the parts", () => {
  it("are written back so that they read as exactly their words", () => {
    for (const source of [
      "git commit -m 'it'\"'\"'s done' && ls",
      "echo '' \"a b\" ; ls 2>/dev/null",
      "git log --format=%h,%s | head -n 5",
    ]) {
      const commands = readSafeSubset(source) ?? [];
      for (const command of commands) {
        expect(readSafeSubset(renderSafeCommand(command))).toEqual([command]);
      }
    }
  });

  it("split only a field some command rule reads, holding two simple commands or more", () => {
    expect(splitCompound({ command: "a && b" }, [["command"]])?.parts).toEqual(["a", "b"]);
    expect(splitCompound({ command: "a" }, [["command"]])).toBeUndefined();
    expect(splitCompound({ other: "a && b" }, [["command"]])).toBeUndefined();
    expect(splitCompound({ command: "a && $(b)" }, [["command"]])).toBeUndefined();
  });
});
