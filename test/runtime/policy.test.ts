import { PolicyDefinitionError, type ToolCall, ToolPolicy } from "toolgate";
import { describe, expect, it } from "vitest";

function call(toolName: string, args: unknown = {}): ToolCall {
  return { callId: "call_1", toolName, arguments: args };
}

describe("ToolPolicy sets", () => {
  const policy = new ToolPolicy({
    allowedTools: ["read_file"],
    confirmationRequiredTools: ["apply_patch"],
    deniedTools: ["delete_everything"],
    reasons: { apply_patch: "patches change the workspace, so a person confirms each one" },
  });

  it("decides allow, ask and deny from the sets with the statement ids", () => {
    expect(policy.decide(call("read_file"))).toMatchObject({
      action: "allow",
      reason: "tool read_file is allowed by the policy",
      ruleIds: ["allow:read_file"],
    });
    expect(policy.decide(call("apply_patch"))).toMatchObject({
      action: "ask",
      reason: "patches change the workspace, so a person confirms each one",
      ruleIds: ["ask:apply_patch"],
    });
    expect(policy.decide(call("delete_everything"))).toMatchObject({
      action: "deny",
      ruleIds: ["deny:delete_everything"],
    });
  });

  it("denies an unlisted tool by default with a non-empty reason", () => {
    const decision = policy.decide(call("run_shell"));
    expect(decision.action).toBe("deny");
    expect(decision.reason.trim()).not.toBe("");
    expect(decision.reason).toContain("default deny");
    expect(decision.ruleIds).toEqual([]);
    expect(new ToolPolicy().decide(call("anything")).action).toBe("deny");
  });

  it("throws at construction for a tool in two sets", () => {
    expect(() => new ToolPolicy({ allowedTools: ["x"], deniedTools: ["x"] })).toThrow(PolicyDefinitionError);
    expect(() => new ToolPolicy({ allowedTools: ["x"], confirmationRequiredTools: ["x"] })).toThrow(
      'tool "x" is in both allow and ask; keep it in one',
    );
    expect(() => new ToolPolicy({ confirmationRequiredTools: ["x"], deniedTools: ["x"] })).toThrow(
      PolicyDefinitionError,
    );
  });

  it("says which tools are denied outright", () => {
    expect(policy.isDeniedOutright("read_file")).toBe(false);
    expect(policy.isDeniedOutright("apply_patch")).toBe(false);
    expect(policy.isDeniedOutright("delete_everything")).toBe(true);
    expect(policy.isDeniedOutright("unlisted")).toBe(true);
  });
});

describe("ToolPolicy rules", () => {
  const source = { file: "policies/policy.yaml", line: 12, column: 5 };
  const policy = new ToolPolicy({
    allowedTools: ["read_file", "run_shell", "transfer"],
    rules: [
      {
        id: "no-dotenv",
        tools: ["read_file"],
        decision: "deny",
        when: { path: { glob: "**/.env*" } },
        reason: "secret files are never read",
        source,
      },
      {
        id: "git-push-asks",
        tools: ["run_shell"],
        decision: "ask",
        when: { script: { command: ["git push"] } },
        reason: "pushing needs a person",
      },
      {
        id: "only-tests",
        tools: ["run_shell"],
        decision: "deny",
        when: { script: { not: { command: ["npm test", "git status", "git push"] } } },
        reason: "only tests and git status run unattended",
      },
      {
        id: "big-transfer",
        tools: ["transfer"],
        decision: "ask",
        when: { amount: { min: 1000 } },
        reason: "large transfers need a second person",
      },
      {
        id: "tiny-transfer",
        tools: ["transfer"],
        decision: "deny",
        when: { amount: { max: 0 } },
        reason: "amounts must be positive",
      },
      {
        id: "no-admin-tag",
        tools: ["transfer"],
        decision: "deny",
        when: { tags: { any: { equals: "admin" } } },
        reason: "admin transfers are never made by the model",
      },
    ],
  });

  it("a deny rule wins over an allow set entry, with the rule id and source", () => {
    const decision = policy.decide(call("read_file", { path: "config/.env" }));
    expect(decision).toEqual({
      action: "deny",
      reason: "secret files are never read",
      ruleIds: ["no-dotenv"],
      statements: [
        { id: "no-dotenv", kind: "rule", action: "deny", reason: "secret files are never read", source },
      ],
      fingerprint: "unbundled",
    });
  });

  it.each(["config/.env", ".env", "./src/../.env", "a//.env.local", "deep/er/still/.env.production"])(
    "glob **/.env* denies %s",
    (path) => {
      expect(policy.decide(call("read_file", { path })).action).toBe("deny");
    },
  );

  it.each(["src/index.ts", "env/config", "docs/env.md"])("glob **/.env* leaves %s allowed", (path) => {
    const decision = policy.decide(call("read_file", { path }));
    expect(decision.action).toBe("allow");
    expect(decision.ruleIds).toEqual(["allow:read_file"]);
  });

  it("command prefixes match whole words", () => {
    expect(policy.decide(call("run_shell", { script: "npm test" })).action).toBe("allow");
    expect(policy.decide(call("run_shell", { script: "git status --short" })).action).toBe("allow");
    expect(policy.decide(call("run_shell", { script: "git push origin main" }))).toMatchObject({
      action: "ask",
      ruleIds: ["git-push-asks"],
    });
    expect(policy.decide(call("run_shell", { script: "git statusx" }))).toMatchObject({
      action: "deny",
      ruleIds: ["only-tests"],
    });
    expect(policy.decide(call("run_shell", { script: "rm -rf /" })).action).toBe("deny");
  });

  it("a chained command is denied when any part is not allowed", () => {
    expect(policy.decide(call("run_shell", { script: "npm test && rm -rf /" })).action).toBe("deny");
  });

  it("min and max bound numbers", () => {
    expect(policy.decide(call("transfer", { amount: 999 })).action).toBe("allow");
    expect(policy.decide(call("transfer", { amount: 1000 }))).toMatchObject({
      action: "ask",
      ruleIds: ["big-transfer"],
    });
    expect(policy.decide(call("transfer", { amount: 0 }))).toMatchObject({
      action: "deny",
      ruleIds: ["tiny-transfer"],
    });
  });

  it("any matches when one array element matches", () => {
    expect(policy.decide(call("transfer", { amount: 5, tags: ["ops", "admin"] }))).toMatchObject({
      action: "deny",
      ruleIds: ["no-admin-tag"],
    });
    expect(policy.decide(call("transfer", { amount: 5, tags: ["ops"] })).action).toBe("allow");
  });

  it("the strictest matching statement decides and every deciding statement is named", () => {
    const decision = policy.decide(call("transfer", { amount: -5, tags: ["admin"] }));
    expect(decision.action).toBe("deny");
    expect(decision.ruleIds).toEqual(["tiny-transfer", "no-admin-tag"]);
    expect(decision.reason).toBe("amounts must be positive; admin transfers are never made by the model");
  });

  it("an allow rule needs a certain match; a deny rule takes a possible one", () => {
    const conservative = new ToolPolicy({
      rules: [
        {
          id: "src-ok",
          tools: ["read_file"],
          decision: "allow",
          when: { path: { glob: "src/**" } },
          reason: "src",
        },
      ],
    });
    expect(conservative.decide(call("read_file", { path: "src/a.ts" })).action).toBe("allow");
    // Climbing out of the root is uncertain: the allow rule does not match, so default deny.
    expect(conservative.decide(call("read_file", { path: "src/../../etc/passwd" })).action).toBe("deny");
    expect(conservative.decide(call("read_file", { path: 42 })).action).toBe("deny");
  });

  it("explain reports every statement considered", () => {
    const { decision, evaluations } = policy.explain(call("read_file", { path: "config/.env" }));
    expect(decision.action).toBe("deny");
    expect(evaluations.map((e) => [e.statement.id, e.match])).toEqual([
      ["allow:read_file", "certain"],
      ["no-dotenv", "certain"],
    ]);
  });

  it("rejects malformed rules at construction", () => {
    expect(
      () => new ToolPolicy({ rules: [{ id: "r", tools: ["t"], decision: "deny", reason: " " }] }),
    ).toThrow('statement "r" needs a non-empty reason');
    expect(
      () =>
        new ToolPolicy({
          rules: [
            { id: "r", tools: ["t"], decision: "deny", reason: "x", when: { p: { nope: 1 } as never } },
          ],
        }),
    ).toThrow(/rule "r" has an invalid when condition: p: unknown operator "nope"/);
  });
});

describe("ToolPolicy otherwise (fallbacks)", () => {
  const policy = new ToolPolicy({
    rules: [
      {
        id: "safe-commands",
        tools: ["run_shell"],
        decision: "allow",
        when: { command: { command: ["git status", "ls"] } },
        reason: "read-only commands",
      },
      {
        id: "no-rm",
        tools: ["run_shell"],
        decision: "deny",
        when: { command: { command: ["rm"] } },
        reason: "no deletion",
      },
    ],
    otherwise: { run_shell: "ask", fetch_url: "deny", read_file: "allow" },
  });

  it("decides a call that no statement matched, and only such a call", () => {
    expect(policy.decide(call("run_shell", { command: "git status" }))).toMatchObject({
      action: "allow",
      ruleIds: ["safe-commands"],
    });
    expect(policy.decide(call("run_shell", { command: "npm publish" }))).toMatchObject({
      action: "ask",
      reason: "tool run_shell needs a person's approval when no rule matches the call (otherwise)",
      ruleIds: ["otherwise:run_shell"],
    });
    // A maybe for the allow rule is no match, so the fallback asks; a maybe for a deny rule is a match.
    expect(policy.decide(call("run_shell", { command: "ls; npm publish" })).ruleIds).toEqual([
      "otherwise:run_shell",
    ]);
    expect(policy.decide(call("run_shell", { command: "ls; rm -rf /" })).ruleIds).toEqual(["no-rm"]);
    expect(policy.decide(call("read_file", { path: "a" }))).toMatchObject({
      action: "allow",
      ruleIds: ["otherwise:read_file"],
    });
    expect(policy.decide(call("other")).ruleIds).toEqual([]);
  });

  it("explain lists the fallback last, matched only when it decided", () => {
    const decided = policy.explain(call("run_shell", { command: "npm publish" }));
    expect(decided.evaluations.map((e) => [e.statement.id, e.statement.kind, e.matched])).toEqual([
      ["safe-commands", "rule", false],
      ["no-rm", "rule", false],
      ["otherwise:run_shell", "otherwise", true],
    ]);
    const unused = policy.explain(call("run_shell", { command: "ls" }));
    expect(unused.evaluations.at(-1)).toMatchObject({ matched: false, match: "no" });
  });

  it("counts for the tools a policy names and for what the model may see", () => {
    expect([...policy.toolNames].sort()).toEqual(["fetch_url", "read_file", "run_shell"]);
    expect(policy.isDeniedOutright("fetch_url")).toBe(true);
    expect(policy.isDeniedOutright("read_file")).toBe(false);
    expect(policy.isDeniedOutright("run_shell")).toBe(false);
    const denyRulesOnly = new ToolPolicy({
      rules: [{ id: "d", tools: ["x"], decision: "deny", when: { a: { equals: 1 } }, reason: "r" }],
      otherwise: { x: "ask" },
    });
    expect(denyRulesOnly.isDeniedOutright("x")).toBe(false);
  });

  it("refuses a fallback with conditions", () => {
    expect(() =>
      ToolPolicy.fromStatements([
        {
          id: "otherwise:x",
          kind: "otherwise",
          action: "ask",
          tools: ["x"],
          reason: "r",
          when: { a: { equals: 1 } },
        },
      ]),
    ).toThrow(PolicyDefinitionError);
  });
});

describe("one statement builder", () => {
  it("a set entry built in code gives the same id and default reason as the same entry loaded from YAML", () => {
    const built = new ToolPolicy({
      allowedTools: ["a"],
      confirmationRequiredTools: ["b"],
      deniedTools: ["c"],
    });
    expect(["a", "b", "c"].map((tool) => built.decide(call(tool)).reason)).toEqual([
      "tool a is allowed by the policy",
      "tool b needs a person's approval",
      "tool c is denied by the policy",
    ]);
  });
});
