/**
 * Properties of the controller, stated in words: a handler runs only after allow or one taken approval,
 * every result carries its call's callId, and an approval id executes at most once.
 */
import fc from "fast-check";
import {
  ApprovalError,
  type ApprovalRequest,
  type ApprovalStore,
  defineTool,
  MemoryApprovalStore,
  PendingApprovals,
  type PolicyAction,
  type TakeResult,
  type ToolCall,
  ToolController,
  type ToolDefinition,
  ToolFailure,
  ToolPolicy,
  ToolRegistry,
  type ToolResult,
  ToolRuntime,
} from "toolgate";
import { describe, expect, it } from "vitest";

const NUM_RUNS = 1000;
const TOOLS = ["t0", "t1", "t2"] as const;
type ToolName = (typeof TOOLS)[number];
type Assignment = PolicyAction | "unlisted";

/** Every handler appends the callId it ran for (passed in the context); compared with the model's log. */
const ranFor: string[] = [];

const definitions: ToolDefinition<never>[] = TOOLS.map((name) =>
  defineTool<{ x: number }>(
    {
      name,
      description: `Tool ${name}.`,
      inputSchema: {
        type: "object",
        properties: { x: { type: "integer" } },
        required: ["x"],
        additionalProperties: false,
      },
    },
    (_args, context) => {
      ranFor.push(String(context.callId));
      return `ran ${name}`;
    },
  ),
);
const runtime = new ToolRuntime(new ToolRegistry(definitions));

function policyOf(assignment: Readonly<Record<ToolName, Assignment>>): ToolPolicy {
  const of = (action: PolicyAction) => TOOLS.filter((t) => assignment[t] === action);
  return new ToolPolicy({
    allowedTools: of("allow"),
    confirmationRequiredTools: of("ask"),
    deniedTools: of("deny"),
  });
}

// `ask` is drawn twice as often: approvals are where the interesting interleavings are.
const actionArb = fc.constantFrom<Assignment>("allow", "ask", "ask", "deny", "unlisted");
const assignmentArb = fc.record({ t0: actionArb, t1: actionArb, t2: actionArb });

type Operation =
  | { readonly op: "handle"; readonly tool: ToolName | "ghost"; readonly args: unknown }
  | {
      readonly op: "resolve";
      readonly pick: number;
      readonly target: "open" | "any" | "unknown";
      readonly approved: boolean;
    }
  | { readonly op: "reload"; readonly assignment: Record<ToolName, Assignment> };

const argsArb = fc.oneof(
  { weight: 4, arbitrary: fc.record({ x: fc.integer() }) },
  fc.constant({}),
  fc.record({ x: fc.string() }),
  fc.record({ x: fc.integer(), y: fc.integer() }),
  fc.constant(null),
);

const operationArb: fc.Arbitrary<Operation> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant("handle" as const),
      tool: fc.constantFrom(...TOOLS, "ghost" as const),
      args: argsArb,
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant("resolve" as const),
      pick: fc.nat(),
      // Mostly an id still open; sometimes any id issued so far (maybe used); sometimes one never issued.
      target: fc.constantFrom<"open" | "any" | "unknown">("open", "open", "open", "any", "unknown"),
      approved: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("reload" as const), assignment: assignmentArb }) },
);

function isValid(args: unknown): boolean {
  if (args === null || typeof args !== "object") return false;
  const keys = Object.keys(args);
  return keys.length === 1 && keys[0] === "x" && Number.isInteger((args as { x: unknown }).x);
}

function isApproval(outcome: ToolResult | ApprovalRequest): outcome is ApprovalRequest {
  return "kind" in outcome && outcome.kind === "approval-request";
}

describe("controller properties", () => {
  it("a handler runs only for a call the current policy allows, or for a taken approval whose re-check did not deny", async () => {
    await fc.assert(
      fc.asyncProperty(
        assignmentArb,
        fc.array(operationArb, { minLength: 5, maxLength: 40 }),
        async (initial, operations) => {
          ranFor.length = 0;
          const expectedRuns: string[] = [];
          let assignment = initial;
          const controller = new ToolController({ runtime, policy: policyOf(assignment) });
          /** The approvals issued so far, as the model sees them. */
          const approvals: { id: string; callId: string; tool: ToolName; used: boolean }[] = [];
          let next = 0;
          for (const operation of operations) {
            if (operation.op === "reload") {
              assignment = operation.assignment;
              controller.reload({ policy: policyOf(assignment) });
            } else if (operation.op === "handle") {
              const callId = `call_${next++}`;
              const call: ToolCall = { callId, toolName: operation.tool, arguments: operation.args };
              const outcome = await controller.handle(call, { callId });
              expect(isApproval(outcome) ? outcome.call.callId : outcome.callId).toBe(callId);
              const action =
                operation.tool === "ghost" || !isValid(operation.args)
                  ? "invalid"
                  : assignment[operation.tool];
              if (action === "allow") {
                expectedRuns.push(callId);
                expect(outcome).toEqual({ callId, content: `ran ${operation.tool}`, isError: false });
              } else if (action === "ask") {
                if (!isApproval(outcome)) throw new Error(`expected an approval request for ${callId}`);
                approvals.push({
                  id: outcome.approvalId,
                  callId,
                  tool: operation.tool as ToolName,
                  used: false,
                });
              } else {
                expect(outcome).toMatchObject({ callId, isError: true });
              }
            } else {
              const candidates =
                operation.target === "unknown"
                  ? []
                  : approvals.filter((a) => operation.target === "any" || !a.used);
              const entry = candidates[operation.pick % Math.max(1, candidates.length)];
              const approvalId = entry?.id ?? `apr_unknown_${operation.pick}`;
              const settled = await controller.resolve({ approvalId, approved: operation.approved }).then(
                (result) => ({ result }),
                (error: unknown) => ({ error }),
              );
              if (entry === undefined || entry.used) {
                expect(settled).toEqual({ error: expect.any(ApprovalError) });
                const { error } = settled as { error: ApprovalError };
                expect(error.code).toBe(entry === undefined ? "not-found" : "already-used");
              } else {
                entry.used = true;
                const { result } = settled as { result: ToolResult };
                const now = assignment[entry.tool];
                if (operation.approved && (now === "allow" || now === "ask")) {
                  expectedRuns.push(entry.callId);
                  expect(result).toEqual({
                    callId: entry.callId,
                    content: `ran ${entry.tool}`,
                    isError: false,
                  });
                } else {
                  expect(result).toMatchObject({ callId: entry.callId, isError: true });
                }
              }
            }
            expect(ranFor).toEqual(expectedRuns);
          }
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it("every ToolResult carries the callId of its call", async () => {
    const flaky = defineTool(
      {
        name: "flaky",
        description: "Fails on odd numbers.",
        inputSchema: { type: "object", properties: { n: { type: "integer" } } },
      },
      (args: { n?: number }) => {
        if ((args.n ?? 0) % 2 !== 0) throw new ToolFailure(`odd: ${args.n}`);
        return "even";
      },
    );
    const registry = new ToolRegistry([...definitions, flaky]);
    await fc.assert(
      fc.asyncProperty(
        assignmentArb,
        fc.constantFrom<PolicyAction>("allow", "ask", "deny"),
        fc.array(
          fc.record({
            callId: fc.string(),
            toolName: fc.constantFrom(...TOOLS, "flaky", "ghost", "__proto__", ""),
            arguments: fc.oneof(
              fc.jsonValue(),
              fc.record({ x: fc.integer() }),
              fc.record({ n: fc.integer() }),
            ),
            approved: fc.boolean(),
          }),
          { maxLength: 10 },
        ),
        async (assignment, flakyAction, calls) => {
          const of = (action: PolicyAction) => [
            ...TOOLS.filter((t) => assignment[t] === action),
            ...(flakyAction === action ? ["flaky"] : []),
          ];
          const controller = new ToolController({
            runtime: new ToolRuntime(registry),
            policy: new ToolPolicy({
              allowedTools: of("allow"),
              confirmationRequiredTools: of("ask"),
              deniedTools: of("deny"),
            }),
          });
          for (const { approved, ...call } of calls) {
            const outcome = await controller.handle(call, { callId: call.callId });
            if (isApproval(outcome)) {
              expect(outcome.call.callId).toBe(call.callId);
              const result = await controller.resolve({ approvalId: outcome.approvalId, approved });
              expect(result.callId).toBe(call.callId);
            } else {
              expect(outcome.callId).toBe(call.callId);
            }
          }
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it("an approval id executes at most once, also when several resolves for it run concurrently", async () => {
    /** A memory store whose `take` first waits a few microtasks, so that concurrent resolves interleave. */
    class SlowStore extends MemoryApprovalStore implements ApprovalStore {
      delays: number[] = [];
      override async take(approvalId: string, now: number): Promise<TakeResult> {
        const delay = this.delays.shift() ?? 0;
        for (let i = 0; i < delay; i++) await Promise.resolve();
        return super.take(approvalId, now);
      }
    }
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ approved: fc.boolean(), delay: fc.nat({ max: 5 }) }), {
          minLength: 2,
          maxLength: 8,
        }),
        async (answers) => {
          ranFor.length = 0;
          const store = new SlowStore();
          const controller = new ToolController({
            runtime,
            policy: policyOf({ t0: "ask", t1: "deny", t2: "unlisted" }),
            approvals: new PendingApprovals({ store }),
          });
          const request = await controller.handle(
            { callId: "call_c", toolName: "t0", arguments: { x: 1 } },
            { callId: "call_c" },
          );
          if (!isApproval(request)) throw new Error("expected an approval request");
          store.delays = answers.map((a) => a.delay);
          const settled = await Promise.allSettled(
            answers.map(({ approved }) => controller.resolve({ approvalId: request.approvalId, approved })),
          );
          const fulfilled = settled.filter((s) => s.status === "fulfilled");
          const rejected = settled.filter((s) => s.status === "rejected");
          expect(fulfilled).toHaveLength(1);
          expect(rejected).toHaveLength(answers.length - 1);
          for (const r of rejected) {
            expect(r.reason).toBeInstanceOf(ApprovalError);
            expect(r.reason).toMatchObject({ code: "already-used" });
          }
          const winner = (fulfilled[0] as PromiseFulfilledResult<ToolResult>).value;
          expect(winner.callId).toBe("call_c");
          expect(ranFor).toEqual(winner.isError ? [] : ["call_c"]);
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });
});
