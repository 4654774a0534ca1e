// toolgate/agents with the real @openai/agents Runner and a scripted Model (no network): allow, deny and an
// approved interruption, each tool executing at most once.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  Agent,
  type AgentOutputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
  Runner,
  RunState,
  Usage,
} from "@openai/agents";
import { createController, loadPolicy, MemoryAuditSink, openApprovalStore, ToolFailure } from "toolgate";
import { AgentsGate } from "toolgate/agents";
import { describe, expect, it } from "vitest";
import { decideApproval } from "../../src/inbox/decide.js";

const CONFIG = "test/fixtures/agents/toolgate.config.yaml";

/** A model that answers from a script, one response per turn, and keeps every request it was sent. */
class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  readonly #turns: AgentOutputItem[][];
  constructor(turns: AgentOutputItem[][]) {
    this.#turns = [...turns];
  }
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const output = this.#turns.shift();
    if (output === undefined) throw new Error("the script has no more turns");
    return { usage: new Usage(), output, responseId: `resp_${this.requests.length}` };
  }
  // biome-ignore lint/correctness/useYield: the runs in these tests are not streamed
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error("not streamed");
  }
}

const call = (callId: string, name: string, args: unknown): AgentOutputItem => ({
  type: "function_call",
  id: `fc_${callId}`,
  callId,
  name,
  arguments: JSON.stringify(args),
  status: "completed",
});

const say = (text: string): AgentOutputItem => ({
  type: "message",
  id: `msg_${text.length}`,
  role: "assistant",
  status: "completed",
  content: [{ type: "output_text", text }],
});

/** The output the model was sent for a call id, in its next request. */
function outputFor(request: ModelRequest | undefined, callId: string): string {
  const items = Array.isArray(request?.input) ? request.input : [];
  const item = items.find(
    (i) =>
      (i as { type?: string }).type === "function_call_result" &&
      (i as { callId?: string }).callId === callId,
  ) as { output?: unknown } | undefined;
  if (item === undefined) throw new Error(`no output for ${callId} in ${JSON.stringify(items)}`);
  const output = item.output as string | { type: string; text?: string };
  return typeof output === "string" ? output : (output.text ?? JSON.stringify(output));
}

async function setup(approvals?: string) {
  const bundle = await loadPolicy({ config: CONFIG });
  const ran: { tool: string; args: unknown }[] = [];
  const audit = new MemoryAuditSink();
  const controller = createController({
    bundle,
    handlers: {
      read_file: ({ path }: { path: string }) => {
        ran.push({ tool: "read_file", args: { path } });
        if (path === ".env") return "TOKEN=leaked";
        if (path !== "README.md") throw new ToolFailure(`no such file: ${path}`);
        return "# toolgate";
      },
      write_note: ({ text }: { text: string }) => {
        ran.push({ tool: "write_note", args: { text } });
        return `noted: ${text}`;
      },
    },
    audit,
    ...(approvals === undefined ? {} : { approvals }),
  });
  return { controller, ran, audit, gate: new AgentsGate(controller) };
}

const runner = new Runner({ tracingDisabled: true });

const script = () =>
  new ScriptedModel([
    [
      call("call_readme", "read_file", { path: "README.md" }),
      call("call_env", "read_file", { path: ".env" }),
      call("call_note", "write_note", { text: "ship it" }),
    ],
    [say("done")],
  ]);

describe("toolgate/agents with the Agents SDK Runner", () => {
  it("offers the visible tools only", async () => {
    const { gate } = await setup();
    expect(gate.tools().map((t) => t.name)).toEqual(["read_file", "write_note"]);
  });

  it("allow runs, deny is the tool's error output, ask interrupts; approving through RunState runs it once", async () => {
    const { gate, ran, audit, controller } = await setup();
    const model = script();
    const agent = new Agent({ name: "assistant", instructions: "Help.", model, tools: gate.tools() });

    const first = await runner.run(agent, "read the readme, the .env, and note it");
    expect(first.interruptions).toHaveLength(1);
    const item = first.interruptions[0];
    expect(item?.name).toBe("write_note");
    // The allowed read ran; the denied one and the asked note did not.
    expect(ran).toEqual([{ tool: "read_file", args: { path: "README.md" } }]);
    const pending = await controller.approvals.list();
    expect(pending.map((p) => [p.request.call.callId, p.request.call.toolName, p.state])).toEqual([
      ["call_note", "write_note", "pending"],
    ]);

    await gate.approve(first.state, item as NonNullable<typeof item>, { approver: "oncall" });
    const second = await runner.run(agent, first.state);
    expect(second.finalOutput).toBe("done");
    expect(ran).toEqual([
      { tool: "read_file", args: { path: "README.md" } },
      { tool: "write_note", args: { text: "ship it" } },
    ]);

    const last = model.requests.at(-1);
    expect(outputFor(last, "call_readme")).toBe("# toolgate");
    expect(outputFor(last, "call_env")).toBe(
      "denied by policy: secret files are never read (rule: no-dotenv)",
    );
    expect(outputFor(last, "call_note")).toBe("noted: ship it");
    expect(JSON.stringify(model.requests)).not.toContain("TOKEN=leaked");

    const granted = audit.events.filter((e) => e.type === "approval.granted");
    expect(granted).toHaveLength(1);
    expect(granted[0]).toMatchObject({ callId: "call_note", approver: "oncall" });
    expect(audit.events.filter((e) => e.type === "tool.executed").map((e) => e.callId)).toEqual([
      "call_readme",
      "call_note",
    ]);
    // toolgate's approval was taken: a second resolve of it runs nothing.
    const approvalId = granted[0]?.approvalId as string;
    await expect(controller.resolve({ approvalId, approved: true })).rejects.toThrow(/already used/);
    expect(ran).toHaveLength(2);
  });

  it("needsApproval never runs the handler, even when a remembered approval covers the call", async () => {
    const { gate, ran, controller } = await setup();
    const note = gate.tools().find((t) => t.name === "write_note") as NonNullable<
      ReturnType<typeof gate.tools>[number]
    >;
    const ask = (callId: string) => note.needsApproval(undefined as never, { text: "ship it" }, callId);
    // First call: a request is stored and the run would stop; nothing ran.
    expect(await ask("call_1")).toBe(true);
    const [open] = await controller.approvals.list();
    const decided = await decideApproval(
      controller.approvals.store,
      {
        approvalId: open?.request.approvalId as string,
        approved: true,
        approver: "oncall",
        remember: { kind: "arguments", durationMs: 3_600_000 },
      },
      { maxMs: 24 * 3_600_000, sessionKey: "session_id" },
      Date.now(),
    );
    expect(decided.status).toBe("recorded");
    // The same call again, now covered by the remembered approval: no interruption, and still nothing ran.
    expect(await ask("call_2")).toBe(false);
    expect(ran).toEqual([]);
  });

  it("an interruption approved with state.approve alone resolves toolgate's approval too, once", async () => {
    const { gate, ran, audit } = await setup();
    const agent = new Agent({
      name: "assistant",
      instructions: "Help.",
      model: script(),
      tools: gate.tools(),
    });
    const first = await runner.run(agent, "go");
    const item = first.interruptions[0] as NonNullable<(typeof first.interruptions)[0]>;
    first.state.approve(item);
    const second = await runner.run(agent, first.state);
    expect(second.finalOutput).toBe("done");
    expect(ran.filter((r) => r.tool === "write_note")).toHaveLength(1);
    expect(audit.events.find((e) => e.type === "approval.granted")).toMatchObject({
      approver: "openai-agents",
    });
  });

  it("alwaysApprove is no toolgate approval: the call does not run, and the model is told why", async () => {
    const { gate, ran, audit } = await setup();
    const model = script();
    const agent = new Agent({ name: "assistant", instructions: "Help.", model, tools: gate.tools() });
    const first = await runner.run(agent, "go");
    const item = first.interruptions[0] as NonNullable<(typeof first.interruptions)[0]>;
    first.state.approve(item, { alwaysApprove: true });
    const second = await runner.run(agent, first.state);
    expect(second.finalOutput).toBe("done");
    expect(ran.filter((r) => r.tool === "write_note")).toEqual([]);
    expect(outputFor(model.requests.at(-1), "call_note")).toBe(
      "the person rejected this call: approved only with alwaysApprove, which toolgate does not honour: each asked call needs its own approval",
    );
    expect(audit.events.filter((e) => e.type === "approval.rejected")).toHaveLength(1);
  });

  it("a rejection records toolgate's rejection, tells the model why, and runs nothing", async () => {
    const { gate, ran, audit } = await setup();
    const model = script();
    const agent = new Agent({ name: "assistant", instructions: "Help.", model, tools: gate.tools() });
    const first = await runner.run(agent, "go");
    const item = first.interruptions[0] as NonNullable<(typeof first.interruptions)[0]>;
    await gate.reject(first.state, item, { approver: "lead", reason: "not today" });
    const second = await runner.run(agent, first.state);
    expect(second.finalOutput).toBe("done");
    expect(ran.filter((r) => r.tool === "write_note")).toEqual([]);
    expect(outputFor(model.requests.at(-1), "call_note")).toBe(
      "the person rejected this call by lead: not today",
    );
    expect(audit.events.find((e) => e.type === "approval.rejected")).toMatchObject({ approver: "lead" });
  });

  it("a RunState restored in another process (new controller, same SQLite store) runs the approved call once", async () => {
    const store = `sqlite:${join(mkdtempSync(join(tmpdir(), "toolgate-agents-")), "state.db")}`;
    const before = await setup(store);
    const agent1 = new Agent({
      name: "assistant",
      instructions: "Help.",
      model: script(),
      tools: before.gate.tools(),
    });
    const first = await runner.run(agent1, "go");
    const saved = first.state.toString();
    await before.controller.approvals.store.close();

    const after = await setup(store);
    const model = new ScriptedModel([[say("done")]]);
    const agent2 = new Agent({ name: "assistant", instructions: "Help.", model, tools: after.gate.tools() });
    const restored = await RunState.fromString(agent2, saved);
    const item = restored.getInterruptions()[0] as NonNullable<
      ReturnType<typeof restored.getInterruptions>[0]
    >;
    await after.gate.approve(restored, item, { approver: "oncall" });
    const second = await runner.run(agent2, restored);
    expect(second.finalOutput).toBe("done");
    expect(after.ran).toEqual([{ tool: "write_note", args: { text: "ship it" } }]);
    expect(outputFor(model.requests.at(-1), "call_note")).toBe("noted: ship it");
    const stored = await openApprovalStore(store).list(["used"]);
    expect(stored.map((s) => s.request.call.callId)).toEqual(["call_note"]);
    await after.controller.approvals.store.close();
  });
});
