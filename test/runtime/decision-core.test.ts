/**
 * Tests aimed at bugs a mutation run found that the rest of the suite lets through: rules that read
 * `Object.prototype` members, a context *maybe* counted as certain, an AND that keeps only its last answer,
 * and a stored context that is not validated again at resolve.
 */
import {
  type ApprovalRequest,
  type ArgumentValidator,
  compileArgumentValidator,
  MemoryApprovalStore,
  PendingApprovals,
  type TakeResult,
  type ToolCall,
  ToolController,
  type ToolDefinition,
  ToolPolicy,
  type ToolPolicyOptions,
  ToolRegistry,
  ToolRuntime,
} from "toolgate";
import { describe, expect, it } from "vitest";
import { asApproval, asResult, countedPathTool } from "./core-fixtures.js";

/** The members every plain object inherits; an argument may be named like any of them. */
const PROTOTYPE_NAMES = [
  "toString",
  "constructor",
  "valueOf",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "__defineGetter__",
  "__defineSetter__",
  "__lookupGetter__",
  "__lookupSetter__",
] as const;

/**
 * A validator that reads own properties only: optional string fields `path` and `name`, nothing else. It
 * stands in for the schema validator, so that these tests look at rule matching alone.
 */
function ownStringFields(...names: string[]): ArgumentValidator {
  return (args) => {
    if (args === null || typeof args !== "object" || Array.isArray(args)) {
      return { ok: false, issues: [{ path: "", message: "must be object" }] };
    }
    for (const key of Object.keys(args)) {
      if (!names.includes(key))
        return { ok: false, issues: [{ path: `/${key}`, message: "is not allowed" }] };
      if (typeof (args as Record<string, unknown>)[key] !== "string") {
        return { ok: false, issues: [{ path: `/${key}`, message: "must be string" }] };
      }
    }
    return { ok: true };
  };
}

function controllerFor(name: string, policy: ToolPolicyOptions) {
  const runs: unknown[] = [];
  const tool: ToolDefinition<never> = {
    spec: {
      name: "t",
      description: "A tool with an optional argument named like an Object.prototype member.",
      inputSchema: { type: "object", properties: { path: { type: "string" }, [name]: { type: "string" } } },
    },
    validateArguments: ownStringFields("path", name),
    handler: (args: never) => {
      runs.push(args);
      return "ran";
    },
  };
  const controller = new ToolController({
    runtime: new ToolRuntime(new ToolRegistry([tool])),
    policy: new ToolPolicy(policy),
  });
  return { controller, runs };
}

const call = (args: unknown): ToolCall => ({ callId: "c", toolName: "t", arguments: args });

describe("rule matching reads own properties only", () => {
  it.each(PROTOTYPE_NAMES)(
    "an absent optional argument named %s is absent to exists and equals",
    async (name) => {
      // Allowed only when the argument is absent; denied when it exists; asked when it equals "x".
      const { controller, runs } = controllerFor(name, {
        rules: [
          {
            id: "allow-absent",
            tools: ["t"],
            decision: "allow",
            when: { [name]: { exists: false } },
            reason: "absent",
          },
          {
            id: "deny-present",
            tools: ["t"],
            decision: "deny",
            when: { [name]: { exists: true } },
            reason: "present",
          },
          { id: "ask-x", tools: ["t"], decision: "ask", when: { [name]: { equals: "x" } }, reason: "x" },
          {
            id: "deny-nested",
            tools: ["t"],
            decision: "deny",
            when: { [`path.${name}`]: { exists: true } },
            reason: "nested",
          },
        ],
      });
      expect(asResult(await controller.handle(call({ path: "a" })))).toEqual({
        callId: "c",
        content: "ran",
        isError: false,
      });
      expect(asResult(await controller.handle(call({})))).toMatchObject({ content: "ran" });
      // Present as own data, the same rules see it.
      expect(asResult(await controller.handle(call({ [name]: "y" })))).toEqual({
        callId: "c",
        content: "denied by policy: present (rule: deny-present)",
        isError: true,
      });
      expect(asResult(await controller.handle(call({ [name]: "x" }))).content).toContain("deny-present");
      expect(runs).toHaveLength(2);
      // The same through explain, which evaluates every statement.
      const explained = controller.explain(call({ path: "a" }));
      expect("decision" in explained && explained.decision.action).toBe("allow");
    },
  );

  it.each(PROTOTYPE_NAMES)(
    "an equals rule on %s, indexed for speed, does not see the inherited member",
    (name) => {
      const policy = new ToolPolicy({
        allowedTools: ["t"],
        rules: [
          {
            id: "deny-inherited",
            tools: ["t"],
            decision: "deny",
            when: { [name]: { equals: String(Object.prototype[name as keyof object]) } },
            reason: "inherited",
          },
        ],
      });
      expect(policy.decide(call({})).action).toBe("allow");
      expect(policy.decide(call({ [name]: String(Object.prototype[name as keyof object]) })).action).toBe(
        "deny",
      );
    },
  );
});

describe("three-valued joins", () => {
  /** A rule whose `when` part is certain and whose `context` part is a maybe (a glob on a non-string). */
  const WHEN_AND_CONTEXT: ToolPolicyOptions = {
    rules: [
      {
        id: "allow-src-on-feature",
        tools: ["t"],
        decision: "allow",
        when: { path: { glob: "src/**" } },
        context: { branch: { glob: "feature/**" } },
        reason: "feature branches may read src",
      },
    ],
  };

  it("a maybe from the context part is not certain: no allow", () => {
    const policy = new ToolPolicy(WHEN_AND_CONTEXT);
    expect(policy.decide(call({ path: "src/a.ts" }), { branch: "feature/x" }).action).toBe("allow");
    expect(policy.decide(call({ path: "src/a.ts" }), { branch: 42 }).action).toBe("deny");
    const explained = policy.explain(call({ path: "src/a.ts" }), { branch: 42 });
    expect(explained.evaluations[0]).toMatchObject({ matched: false, match: "no" });
  });

  it("a maybe from the when part with a certain context part is not certain either", () => {
    const policy = new ToolPolicy(WHEN_AND_CONTEXT);
    // A path that climbs out of its root may be anywhere: a maybe.
    expect(policy.decide(call({ path: "../src/a.ts" }), { branch: "feature/x" }).action).toBe("deny");
    expect(policy.decide(call({ path: 7 }), { branch: "feature/x" }).action).toBe("deny");
  });

  it("a maybe from the context part still counts for deny and ask rules", () => {
    const policy = new ToolPolicy({
      allowedTools: ["t"],
      rules: [
        {
          id: "ask-on-main",
          tools: ["t"],
          decision: "ask",
          when: { path: { glob: "src/**" } },
          context: { branch: { glob: "main" } },
          reason: "main needs a person",
        },
      ],
    });
    expect(policy.decide(call({ path: "src/a.ts" }), { branch: 42 }).action).toBe("ask");
    expect(policy.decide(call({ path: "src/a.ts" }), { branch: "dev" }).action).toBe("allow");
  });

  it("an AND over several fields keeps every field's answer, not only the last one's", () => {
    const policy = new ToolPolicy({
      rules: [
        {
          id: "allow-src-read",
          tools: ["t"],
          decision: "allow",
          when: { path: { glob: "src/**" }, mode: { equals: "read" } },
          reason: "reading src",
        },
      ],
    });
    expect(policy.decide(call({ path: "src/a.ts", mode: "read" })).action).toBe("allow");
    // First field a maybe, last field certain.
    expect(policy.decide(call({ path: "../a.ts", mode: "read" })).action).toBe("deny");
    // First field certainly not, last field certain.
    expect(policy.decide(call({ path: "docs/a.md", mode: "read" })).action).toBe("deny");
    // First field certain, last field certainly not.
    expect(policy.decide(call({ path: "src/a.ts", mode: "write" })).action).toBe("deny");
  });

  it("an AND over several operators on one field keeps every operator's answer", () => {
    const policy = new ToolPolicy({
      rules: [
        {
          id: "allow-ts-in-src",
          tools: ["t"],
          decision: "allow",
          when: { path: { glob: "src/**", regex: "\\.ts$" } },
          reason: "TypeScript under src",
        },
      ],
    });
    expect(policy.decide(call({ path: "src/a.ts" })).action).toBe("allow");
    expect(policy.decide(call({ path: "../src/a.ts" })).action).toBe("deny");
    expect(policy.decide(call({ path: "lib/a.ts" })).action).toBe("deny");
    expect(policy.decide(call({ path: "src/a.js" })).action).toBe("deny");
  });
});

describe("resolve validates the stored context again", () => {
  it("a stored context changed in the store (a row edited by hand) is refused; nothing runs", async () => {
    /** Gives back a request whose stored context no longer fits the schema, as an edited row would. */
    class EditedStore extends MemoryApprovalStore {
      override async take(approvalId: string, now: number): Promise<TakeResult> {
        const taken = await super.take(approvalId, now);
        if (taken.status !== "taken") return taken;
        const request: ApprovalRequest = { ...taken.request, context: { environment: "prod" } };
        return { status: "taken", request };
      }
    }
    const reader = countedPathTool();
    const controller = new ToolController({
      runtime: new ToolRuntime(new ToolRegistry([reader.definition])),
      policy: new ToolPolicy({ confirmationRequiredTools: ["read_file"] }),
      approvals: new PendingApprovals({ store: new EditedStore() }),
      contextValidator: compileArgumentValidator({
        type: "object",
        properties: { environment: { enum: ["development", "production"] } },
        additionalProperties: false,
      }),
    });
    const request = asApproval(
      await controller.handle(
        { callId: "c", toolName: "read_file", arguments: { path: "a" } },
        { environment: "development" },
      ),
    );
    expect(await controller.resolve({ approvalId: request.approvalId, approved: true })).toEqual({
      callId: "c",
      content: "invalid context for read_file: /environment: must be equal to one of the allowed values",
      isError: true,
    });
    expect(reader.runs).toEqual([]);
  });
});
