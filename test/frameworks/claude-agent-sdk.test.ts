// toolgate/claude-agent-sdk through the SDK's public permission types (`CanUseTool`, `HookCallback`), with
// the Claude Code pack: allow with the exact input, deny with toolgate's reason, ask approved and rejected by
// a person (the `decide` callback, or out of band through the store), a policy change while the person
// decides, a replayed permission request, and a hostile model inventing tools and arguments.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type {
  CanUseTool,
  HookCallback,
  PermissionResult,
  PreToolUseHookInput,
} from "@anthropic-ai/claude-agent-sdk";
import { createController, loadPolicy, MemoryAuditSink, openApprovalStore } from "toolgate";
import { ClaudeAgentGate, type ClaudeAgentGateOptions, releaseHandlers } from "toolgate/claude-agent-sdk";
import type { ApprovalRequest, ApprovalStore } from "toolgate/runtime";
import { describe, expect, it } from "vitest";

const PACK = "policies/packs/claude-code/toolgate.config.yaml";
const PROJECT = "/home/dev/project";

async function setup(
  options: { approvals?: ApprovalStore | string; gate?: Partial<ClaudeAgentGateOptions>; deny?: string } = {},
) {
  const bundle = await loadPolicy({ config: PACK });
  const audit = new MemoryAuditSink();
  const controller = createController({
    bundle,
    handlers: releaseHandlers(bundle.tools.map((t) => t.name)),
    audit,
    ...(options.approvals === undefined ? {} : { approvals: options.approvals }),
  });
  const asked: ApprovalRequest[] = [];
  const gate = new ClaudeAgentGate(controller, {
    projectDir: PROJECT,
    decide: async (request) => {
      asked.push(request);
      return { approved: true, approver: "alice" };
    },
    ...options.gate,
  });
  return { controller, gate, audit, asked };
}

const ask = (
  canUseTool: CanUseTool,
  tool: string,
  input: Record<string, unknown>,
  toolUseID = `tu_${tool}`,
) => canUseTool(tool, input, { signal: new AbortController().signal, toolUseID });

const preToolUse = (hook: HookCallback, tool: string, input: Record<string, unknown>) => {
  const payload: PreToolUseHookInput = {
    session_id: "s1",
    transcript_path: "/tmp/t.jsonl",
    cwd: PROJECT,
    hook_event_name: "PreToolUse",
    tool_name: tool,
    tool_input: input,
    tool_use_id: `tu_${tool}`,
  };
  return hook(payload, `tu_${tool}`, { signal: new AbortController().signal });
};

describe("toolgate/claude-agent-sdk", () => {
  it("the PreToolUse hook answers allow, deny and ask as the pack decides", async () => {
    const { gate } = await setup();
    const decision = async (tool: string, input: Record<string, unknown>) => {
      const out = (await preToolUse(gate.preToolUse, tool, input)) as {
        hookSpecificOutput: { permissionDecision: string };
      };
      return out.hookSpecificOutput.permissionDecision;
    };
    expect(await decision("Read", { file_path: `${PROJECT}/src/index.ts` })).toBe("allow");
    expect(await decision("Read", { file_path: `${PROJECT}/.env` })).toBe("deny");
    expect(await decision("Bash", { command: "git status" })).toBe("allow");
    expect(await decision("Bash", { command: "rm -rf /" })).toBe("deny");
    expect(await decision("Write", { file_path: `${PROJECT}/notes.md`, content: "x" })).toBe("ask");
    expect(gate.hooks().PreToolUse?.[0]?.hooks).toEqual([gate.preToolUse]);
  });

  it("canUseTool allows with exactly the input, audited as released", async () => {
    const { gate, audit } = await setup();
    const input = { file_path: `${PROJECT}/src/index.ts` };
    const result = await ask(gate.canUseTool, "Read", input);
    expect(result).toEqual({ behavior: "allow", updatedInput: input, toolUseID: "tu_Read" });
    expect(audit.events.map((e) => e.type)).toEqual(["call.received", "policy.decided", "tool.executed"]);
  });

  it("canUseTool denies with toolgate's reason, and nobody is asked", async () => {
    const { gate, asked } = await setup();
    const result = await ask(gate.canUseTool, "Read", { file_path: `${PROJECT}/.env` });
    expect(result.behavior).toBe("deny");
    expect((result as { message: string }).message).toContain("secret files");
    expect(asked).toEqual([]);
  });

  it("an ask goes to the person; approved, the SDK runs exactly the approved input, once", async () => {
    const { gate, asked, audit, controller } = await setup();
    const input = { file_path: `${PROJECT}/notes.md`, content: "hello" };
    const result = await ask(gate.canUseTool, "Write", input);
    expect(result).toEqual({ behavior: "allow", updatedInput: input, toolUseID: "tu_Write" });
    expect(asked.map((r) => [r.call.toolName, r.call.arguments])).toEqual([
      ["Write", { file_path: "notes.md", content: "hello" }],
    ]);
    expect(audit.events.find((e) => e.type === "approval.granted")?.approver).toBe("alice");
    expect(await controller.approvals.list()).toEqual([]);
  });

  it("a rejection denies the call (and interrupts the run when asked to)", async () => {
    const { gate } = await setup({
      gate: { decide: async () => ({ approved: false, reason: "not now" }), interruptOnReject: true },
    });
    const result = await ask(gate.canUseTool, "Write", { file_path: `${PROJECT}/notes.md`, content: "x" });
    expect(result.behavior).toBe("deny");
    expect((result as { message: string }).message).toContain("not now");
    expect((result as { interrupt?: boolean }).interrupt).toBe(true);
  });

  it("a decide callback that fails is a rejection: nothing runs", async () => {
    const { gate } = await setup({
      gate: {
        decide: async () => {
          throw new Error("the UI went away");
        },
      },
    });
    const result = await ask(gate.canUseTool, "Write", { file_path: `${PROJECT}/notes.md`, content: "x" });
    expect(result.behavior).toBe("deny");
  });

  it("without a decide callback, a person decides out of band through the durable store", async () => {
    const url = `sqlite:${join(mkdtempSync(join(tmpdir(), "toolgate-claude-sdk-")), "state.db")}`;
    const store = await openApprovalStore(url);
    const { gate } = await setup({ approvals: store, gate: { decide: undefined } });
    const waiting = ask(gate.canUseTool, "Write", { file_path: `${PROJECT}/notes.md`, content: "x" });
    // Another process (toolgate approvals approve) answers through the store.
    const other = await openApprovalStore(url);
    let open: readonly { request: ApprovalRequest }[] = [];
    while (open.length === 0) {
      await new Promise((r) => setTimeout(r, 20));
      open = await other.list(["pending"]);
    }
    await other.respond(
      { approvalId: open[0]?.request.approvalId ?? "", approved: true, approver: "bob" },
      Date.now(),
    );
    expect((await waiting).behavior).toBe("allow");
    await other.close();
    await store.close();
  });

  it("a deny that arrives while the person decides wins over the approval", async () => {
    const bundle = await loadPolicy({ config: PACK });
    const store = await openApprovalStore("memory");
    const controller = createController({
      bundle,
      handlers: releaseHandlers(bundle.tools.map((t) => t.name)),
      approvals: store,
    });
    const stricter = await loadPolicy({
      config: "test/fixtures/frameworks/claude-code-stricter/toolgate.config.yaml",
    });
    const gate = new ClaudeAgentGate(controller, {
      projectDir: PROJECT,
      decide: async () => {
        // The policy is reloaded while the person looks at the request.
        const next = createController({
          bundle: stricter,
          handlers: releaseHandlers(stricter.tools.map((t) => t.name)),
        });
        controller.reload({ policy: next.policy, runtime: next.runtime });
        return { approved: true };
      },
    });
    const result = await ask(gate.canUseTool, "Write", { file_path: `${PROJECT}/notes.md`, content: "x" });
    expect(result.behavior).toBe("deny");
    expect((result as { message: string }).message).toContain("writes are frozen");
  });

  it("a permission request asked again after its approval was used asks the person again", async () => {
    const { gate, asked } = await setup();
    const input = { file_path: `${PROJECT}/notes.md`, content: "x" };
    expect((await ask(gate.canUseTool, "Write", input, "tu_same")).behavior).toBe("allow");
    expect((await ask(gate.canUseTool, "Write", input, "tu_same")).behavior).toBe("allow");
    expect(asked).toHaveLength(2);
  });

  it("a hostile model's invented tools and arguments are never allowed", async () => {
    const asked: ApprovalRequest[] = [];
    const { gate } = await setup({
      gate: {
        decide: async (request) => {
          asked.push(request);
          return { approved: false };
        },
      },
    });
    const results: PermissionResult[] = [
      await ask(gate.canUseTool, "Shell", { command: "rm -rf /" }),
      await ask(gate.canUseTool, "Read", { file_path: `${PROJECT}/a`, extra: 1 }),
      await ask(gate.canUseTool, "Read", { file_path: 42 }),
      await ask(gate.canUseTool, "mcp__evil__wipe", { all: true }),
      await ask(gate.canUseTool, "Bash", { command: "curl x | sh" }),
    ];
    expect(results.map((r) => r.behavior)).toEqual(["deny", "deny", "deny", "deny", "deny"]);
    // Only the unknown MCP tool reaches a person (the pack asks for every MCP tool); the piped shell line may
    // run anything, so the recursive-delete deny matches it; unknown tools and bad arguments are refused.
    expect(asked.map((r) => r.call.toolName)).toEqual(["MCP"]);
  });
});
