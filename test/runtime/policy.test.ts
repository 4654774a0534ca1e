import {
  PolicyDefinitionError,
  type PolicyRule,
  type ToolCall,
  type ToolContext,
  ToolPolicy,
} from "toolgate";
import { beforeAll, describe, expect, it } from "vitest";

function call(toolName: string, args: unknown = {}): ToolCall {
  return { callId: "call_1", toolName, arguments: args };
}

describe("ToolPolicy sets", () => {
  // Built before the tests, not while the file is collected: a policy that fails to build then fails
  // the tests of this block instead of the whole file.
  let policy: ToolPolicy;
  beforeAll(() => {
    policy = new ToolPolicy({
      allowedTools: ["read_file"],
      confirmationRequiredTools: ["apply_patch"],
      deniedTools: ["delete_everything"],
      reasons: { apply_patch: "patches change the workspace, so a person confirms each one" },
    });
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
  let policy: ToolPolicy;
  beforeAll(() => {
    policy = new ToolPolicy({
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
  let policy: ToolPolicy;
  beforeAll(() => {
    policy = new ToolPolicy({
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

// The policies below are built inside each test, so that a policy that fails to build fails that test.
const rule = (
  id: string,
  decision: PolicyRule["decision"],
  when: PolicyRule["when"],
  extra: Partial<PolicyRule> = {},
): PolicyRule => ({ id, tools: ["t"], decision, when, reason: `reason ${id}`, ...extra });

/** decide's answer, checked against explain's (which evaluates every statement one by one). */
function decided(policy: ToolPolicy, args: unknown, context: ToolContext = {}) {
  const decision = policy.decide(call("t", args), context);
  expect(decision).toEqual(policy.explain(call("t", args), context).decision);
  return { action: decision.action, ruleIds: decision.ruleIds };
}

describe("decide through its index of equals rules, as evaluating every statement would", () => {
  it("finds every rule of a field's value, and names all the strictest ones and no milder one", () => {
    const policy = new ToolPolicy({
      allowedTools: ["t"],
      rules: [
        rule("d1", "deny", { mode: { equals: "x" } }),
        rule("d2", "deny", { mode: { equals: "x" } }),
        rule("d3", "deny", { mode: { equals: "y" } }),
        rule("a1", "allow", { other: { equals: 1 } }),
        rule("d4", "deny", { level: { equals: 3 } }),
        rule("n1", "deny", { gone: { equals: null } }),
      ],
    });
    expect(decided(policy, { mode: "x" })).toEqual({ action: "deny", ruleIds: ["d1", "d2"] });
    expect(decided(policy, { mode: "y" })).toEqual({ action: "deny", ruleIds: ["d3"] });
    expect(decided(policy, { mode: "x", level: 3 })).toEqual({ action: "deny", ruleIds: ["d1", "d2", "d4"] });
    expect(decided(policy, { mode: "y", other: 1 })).toEqual({ action: "deny", ruleIds: ["d3"] });
    expect(decided(policy, { gone: null })).toEqual({ action: "deny", ruleIds: ["n1"] });
    expect(decided(policy, { mode: "z", other: 1 })).toEqual({ action: "allow", ruleIds: ["allow:t", "a1"] });
    expect(policy.decide(call("t", { mode: "x" })).reason).toBe("reason d1; reason d2");
  });

  it("an equals rule with anything more is decided by all of its conditions", () => {
    const policy = new ToolPolicy({
      allowedTools: ["t"],
      rules: [
        rule("c1", "deny", { mode: { equals: "x" } }, { context: { tenant: { equals: "a" } } }),
        rule("m1", "deny", { a: { equals: 1 }, b: { equals: 2 } }),
        rule("n1", "deny", { "cfg.level": { equals: 1 } }),
        rule("k1", "deny", { n: { min: 5 } }),
        rule("o1", "deny", { obj: { equals: { x: 1 } } }),
        rule("q1", "deny", { q: { equals: "x", regex: "y" } }),
        rule("u1", "deny", { missing: { equals: undefined } } as PolicyRule["when"]),
      ],
    });
    const present = { missing: 0 };
    expect(decided(policy, { ...present, mode: "x" }, { tenant: "b" }).action).toBe("allow");
    expect(decided(policy, { ...present, mode: "x" }, { tenant: "a" })).toEqual({
      action: "deny",
      ruleIds: ["c1"],
    });
    expect(decided(policy, { ...present, a: 1, b: 3 }).action).toBe("allow");
    expect(decided(policy, { ...present, a: 1, b: 2 })).toEqual({ action: "deny", ruleIds: ["m1"] });
    expect(decided(policy, { ...present, cfg: { level: 1 } })).toEqual({ action: "deny", ruleIds: ["n1"] });
    expect(decided(policy, { ...present, n: 10 })).toEqual({ action: "deny", ruleIds: ["k1"] });
    expect(decided(policy, { ...present, n: 1 }).action).toBe("allow");
    expect(decided(policy, { ...present, obj: { x: 1 } })).toEqual({ action: "deny", ruleIds: ["o1"] });
    expect(decided(policy, { ...present, q: "x" }).action).toBe("allow");
    // `equals: undefined` (from code) asks for a missing field.
    expect(decided(policy, {})).toEqual({ action: "deny", ruleIds: ["u1"] });
  });

  it("equals NaN (possible from code) matches nothing, NaN included, as the condition says", () => {
    const policy = new ToolPolicy({
      rules: [rule("a1", "allow", { x: { equals: Number.NaN } }), rule("a2", "allow", { y: { equals: 1 } })],
    });
    expect(decided(policy, { x: Number.NaN })).toEqual({ action: "deny", ruleIds: [] });
    expect(decided(policy, { x: Number.NaN, y: 1 })).toEqual({ action: "allow", ruleIds: ["a2"] });
  });

  it("reads only an argument object's own fields, not what its prototype holds", () => {
    const policy = new ToolPolicy({
      rules: [rule("a1", "allow", { mode: { equals: "read" } }), rule("d1", "deny", { n: { equals: 1 } })],
    });
    const inherited = Object.create({ mode: "read", n: 1 }) as object;
    expect(decided(policy, inherited)).toEqual({ action: "deny", ruleIds: [] });
    expect(decided(policy, Object.assign(Object.create({ n: 1 }) as object, { mode: "read" }))).toEqual({
      action: "allow",
      ruleIds: ["a1"],
    });
  });

  it("never throws, and reads no field of arguments that are not an object", () => {
    const policy = new ToolPolicy({
      allowedTools: ["t"],
      rules: [rule("l1", "deny", { length: { equals: 2 } })],
    });
    for (const args of [null, "ab", ["a", "b"], 5, undefined]) {
      expect(decided(policy, args)).toEqual({ action: "allow", ruleIds: ["allow:t"] });
    }
    expect(decided(policy, { length: 2 })).toEqual({ action: "deny", ruleIds: ["l1"] });
  });

  it("names the deciding rules in statement order, whichever way each was found", () => {
    const policy = new ToolPolicy({
      rules: [rule("s1", "deny", { n: { min: 1 } }), rule("e2", "deny", { mode: { equals: "x" } })],
    });
    expect(policy.decide(call("t", { n: 2, mode: "x" }))).toEqual({
      action: "deny",
      reason: "reason s1; reason e2",
      ruleIds: ["s1", "e2"],
      statements: [
        { id: "s1", kind: "rule", action: "deny", reason: "reason s1" },
        { id: "e2", kind: "rule", action: "deny", reason: "reason e2" },
      ],
      fingerprint: "unbundled",
    });
  });
});

describe("decide through its glob and regex sets, as evaluating every statement would", () => {
  it("matches every glob and regex rule of a field, the strictest deciding", () => {
    const policy = new ToolPolicy({
      allowedTools: ["t"],
      rules: [
        rule("g1", "deny", { path: { glob: ["**/.env*", "**/*.pem"] } }),
        rule("g2", "ask", { path: { glob: "secrets/**" } }),
        rule("r1", "deny", { path: { regex: "\\.key$" } }),
        rule("r2", "ask", { path: { regex: "^tmp/" } }),
        rule("c1", "deny", { cmd: { regex: "rm" } }),
        rule("e1", "deny", { other: { glob: [] } }),
        rule("b1", "ask", { b: { equals: 1 } }),
        rule("b2", "deny", { b: { equals: 2 } }),
      ],
    });
    const allowed = { action: "allow", ruleIds: ["allow:t"] };
    expect(decided(policy, { path: "cfg/.env.local" })).toEqual({ action: "deny", ruleIds: ["g1"] });
    expect(decided(policy, { path: "k/server.pem" })).toEqual({ action: "deny", ruleIds: ["g1"] });
    expect(decided(policy, { path: "cfg/.env.pem" })).toEqual({ action: "deny", ruleIds: ["g1"] });
    expect(decided(policy, { path: "secrets/a" })).toEqual({ action: "ask", ruleIds: ["g2"] });
    expect(decided(policy, { path: "id.key" })).toEqual({ action: "deny", ruleIds: ["r1"] });
    expect(decided(policy, { path: "tmp/a" })).toEqual({ action: "ask", ruleIds: ["r2"] });
    expect(decided(policy, { path: "tmp/a.key" })).toEqual({ action: "deny", ruleIds: ["r1"] });
    expect(decided(policy, { path: "src/x.ts" })).toEqual(allowed);
    // A missing field matches no glob or regex; a value that is not a string may match every one.
    expect(decided(policy, {})).toEqual(allowed);
    expect(decided(policy, { path: 5 })).toEqual({ action: "deny", ruleIds: ["g1", "r1"] });
    // A match that holds only when case is ignored is a maybe, which a deny rule takes.
    expect(decided(policy, { path: "a/.ENV" })).toEqual({ action: "deny", ruleIds: ["g1"] });
    expect(decided(policy, { cmd: "rm -rf /" })).toEqual({ action: "deny", ruleIds: ["c1"] });
    expect(decided(policy, { cmd: "ls" })).toEqual(allowed);
    // An empty glob list still may match a path that climbs out of the workspace.
    expect(decided(policy, { other: "../x" })).toEqual({ action: "deny", ruleIds: ["e1"] });
    expect(decided(policy, { other: "x" })).toEqual(allowed);
    // A rule found through the index does not hide a stricter, or an equally strict, pattern rule.
    expect(decided(policy, { b: 1, path: "x/.env" })).toEqual({ action: "deny", ruleIds: ["g1"] });
    expect(decided(policy, { b: 2, path: "x/.env" })).toEqual({ action: "deny", ruleIds: ["g1", "b2"] });
  });

  it("an allow glob rule needs a certain match by one of its globs, and names every allowing rule", () => {
    const policy = new ToolPolicy({
      rules: [
        rule("a1", "allow", { path: { glob: ["src/**", "SRC/**"] } }),
        rule("a2", "allow", { path: { glob: "docs/**" } }),
        rule("a3", "allow", { path: { glob: "docs/*.md" } }),
        rule("a4", "allow", { path: { regex: "^lib/" } }),
      ],
    });
    expect(decided(policy, { path: "src/a" })).toEqual({ action: "allow", ruleIds: ["a1"] });
    expect(decided(policy, { path: "SRC/a" })).toEqual({ action: "allow", ruleIds: ["a1"] });
    expect(decided(policy, { path: "Src/a" })).toEqual({ action: "deny", ruleIds: [] });
    expect(decided(policy, { path: "docs/x.md" })).toEqual({ action: "allow", ruleIds: ["a2", "a3"] });
    expect(decided(policy, { path: "lib/x" })).toEqual({ action: "allow", ruleIds: ["a4"] });
    expect(decided(policy, { path: 5 })).toEqual({ action: "deny", ruleIds: [] });
  });

  it("a deny glob rule that several of its globs match only when case is ignored is named once", () => {
    const policy = new ToolPolicy({
      allowedTools: ["t"],
      rules: [rule("d1", "deny", { path: { glob: ["Data/**", "data/X*", "DATA/x1"] } })],
    });
    expect(decided(policy, { path: "data/x1" })).toEqual({ action: "deny", ruleIds: ["d1"] });
    // One certain match among the maybes.
    expect(decided(policy, { path: "data/X1" })).toEqual({ action: "deny", ruleIds: ["d1"] });
  });

  it("a regex left undecided by the work bound is a maybe: a deny rule takes it, an allow rule does not", () => {
    const policy = new ToolPolicy({
      rules: [
        { ...rule("allow-ab", "allow", { s: { regex: "(?:a|b){1,1000}c" } }), tools: ["t"] },
        { ...rule("deny-ab", "deny", { s: { regex: "(?:a|b){1,1000}c" } }), tools: ["u"] },
        { ...rule("allow-u", "allow", undefined), tools: ["u"] },
      ],
    });
    const long = { s: "ab".repeat(1 << 16) };
    expect(decided(policy, long)).toEqual({ action: "deny", ruleIds: [] });
    const onU = policy.decide(call("u", long));
    expect(onU).toEqual(policy.explain(call("u", long)).decision);
    expect(onU).toMatchObject({ action: "deny", ruleIds: ["deny-ab"] });
    expect(decided(policy, { s: "abc" })).toEqual({ action: "allow", ruleIds: ["allow-ab"] });
  });
});

describe("ToolPolicy construction and the tool-level answers", () => {
  it("says what is wrong with a statement, naming it", () => {
    expect(() => new ToolPolicy({ allowedTools: ["x", "x"] })).toThrow(
      'tool "x" is listed twice in allow; list it once',
    );
    expect(() => new ToolPolicy({ rules: [rule("r", "maybe" as "deny", undefined)] })).toThrow(
      'statement "r" has action "maybe"; use allow, ask or deny',
    );
    for (const reason of ["  ", undefined, 5] as unknown as string[]) {
      expect(() => new ToolPolicy({ rules: [rule("r", "deny", undefined, { reason })] })).toThrow(
        'statement "r" needs a non-empty reason',
      );
    }
    expect(
      () => new ToolPolicy({ rules: [rule("r", "deny", { a: { regex: "(" }, b: { glob: "[" } })] }),
    ).toThrow(/^rule "r" has an invalid when condition: a: regex "\(": .*; b: glob "\[": /);
    expect(
      () => new ToolPolicy({ rules: [rule("r", "deny", undefined, { context: { c: { regex: "(" } } })] }),
    ).toThrow(/^rule "r" has an invalid context condition: c: regex/);
    for (const conditions of [{ when: { a: { equals: 1 } } }, { context: { a: { equals: 1 } } }]) {
      expect(() =>
        ToolPolicy.fromStatements([
          { id: "o", kind: "otherwise", action: "allow", tools: ["t"], reason: "r", ...conditions },
        ]),
      ).toThrow('otherwise statement "o" cannot have conditions');
    }
  });

  it("takes reasons and fallbacks as a Map or an object, and marks a policy built by hand unbundled", () => {
    for (const policy of [
      new ToolPolicy({
        allowedTools: ["t"],
        deniedTools: ["u"],
        reasons: new Map([["t", "t is harmless"]]),
        otherwise: new Map([["v", "ask" as const]]),
      }),
      new ToolPolicy({
        allowedTools: ["t"],
        deniedTools: ["u"],
        reasons: { t: "t is harmless" },
        otherwise: { v: "ask" },
      }),
    ]) {
      expect(policy.decide(call("t"))).toMatchObject({ action: "allow", reason: "t is harmless" });
      expect(policy.decide(call("u"))).toMatchObject({ action: "deny", ruleIds: ["deny:u"] });
      expect(policy.decide(call("v"))).toMatchObject({ action: "ask", ruleIds: ["otherwise:v"] });
    }
    const built = ToolPolicy.fromStatements([
      { id: "s", kind: "rule", action: "allow", tools: ["t"], reason: "r" },
    ]);
    expect(built.decide(call("t")).fingerprint).toBe("unbundled");
    expect(Object.hasOwn(built.decide(call("t")).statements[0] as object, "source")).toBe(false);
    expect(built.decide(call("nothing"))).toEqual({
      action: "deny",
      reason: "no policy statement allows tool nothing (default deny)",
      ruleIds: [],
      statements: [],
      fingerprint: "unbundled",
    });
  });

  it("of several fallbacks of a tool the strictest decides, all of that strictness named", () => {
    const fallback = (id: string, action: PolicyRule["decision"]) =>
      ({ id, kind: "otherwise", action, tools: ["t"], reason: `reason ${id}` }) as const;
    const policy = ToolPolicy.fromStatements([
      fallback("o1", "allow"),
      fallback("o2", "ask"),
      fallback("o3", "ask"),
      { id: "r", kind: "rule", action: "deny", tools: ["t"], reason: "no x", when: { x: { equals: 1 } } },
    ]);
    expect(policy.decide(call("t", {}))).toMatchObject({ action: "ask", ruleIds: ["o2", "o3"] });
    expect(
      policy.explain(call("t", {})).evaluations.map((e) => [e.statement.id, e.matched, e.match]),
    ).toEqual([
      ["r", false, "no"],
      ["o1", false, "no"],
      ["o2", true, "certain"],
      ["o3", true, "certain"],
    ]);
    expect(policy.isDeniedOutright("t")).toBe(false);
  });

  it("a tool is denied outright by an unconditional deny whatever else it has, or by deny statements alone", () => {
    const policy = new ToolPolicy({
      allowedTools: ["conditional"],
      deniedTools: ["entry"],
      rules: [
        { id: "e-allow", tools: ["entry"], decision: "allow", when: { a: { equals: 1 } }, reason: "r" },
        { id: "w-deny", tools: ["when-empty", "only-deny"], decision: "deny", when: {}, reason: "r" },
        { id: "w-allow", tools: ["when-empty"], decision: "allow", when: { a: { equals: 1 } }, reason: "r" },
        { id: "c-deny", tools: ["conditional"], decision: "deny", when: { a: { equals: 1 } }, reason: "r" },
        { id: "o-deny", tools: ["only-deny"], decision: "deny", when: { a: { equals: 1 } }, reason: "r" },
        { id: "x-deny", tools: ["ctx"], decision: "deny", context: { a: { equals: 1 } }, reason: "r" },
        { id: "x-allow", tools: ["ctx"], decision: "allow", when: { a: { equals: 1 } }, reason: "r" },
        { id: "y-deny", tools: ["deny-rules"], decision: "deny", when: { a: { equals: 1 } }, reason: "r" },
        { id: "z-deny", tools: ["deny-rules"], decision: "deny", context: { a: { equals: 1 } }, reason: "r" },
      ],
    });
    expect(policy.isDeniedOutright("entry")).toBe(true);
    expect(policy.isDeniedOutright("when-empty")).toBe(true);
    expect(policy.isDeniedOutright("only-deny")).toBe(true);
    expect(policy.isDeniedOutright("conditional")).toBe(false);
    expect(policy.isDeniedOutright("ctx")).toBe(false);
    expect(policy.isDeniedOutright("deny-rules")).toBe(true);
  });
});
