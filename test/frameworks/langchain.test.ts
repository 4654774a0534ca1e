// toolgate/langchain with a real LangChain agent (`createAgent`, LangGraph underneath) and a scripted chat
// model built on LangChain's own base class (no network): allow, deny, ask approved / edited / rejected
// through `interrupt()` and `Command({ resume })`, a policy change while paused, a resume sent twice, a
// durable store across a restart, and a hostile model inventing tools and arguments.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage, type ToolMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { Command, MemorySaver } from "@langchain/langgraph";
import { createAgent } from "langchain";
import { createController, loadPolicy, MemoryAuditSink, openApprovalStore, ToolFailure } from "toolgate";
import { LangChainGate, type ToolgateInterrupt } from "toolgate/langchain";
import type { ApprovalStore } from "toolgate/runtime";
import { describe, expect, it } from "vitest";

const CONFIG = "test/fixtures/frameworks/toolgate.config.yaml";
const STRICTER = "test/fixtures/frameworks/stricter/toolgate.config.yaml";

type ScriptedCall = { id: string; name: string; args: Record<string, unknown> };

/** A chat model that answers from a script: each turn is tool calls or a text. */
class ScriptedChatModel extends BaseChatModel {
  readonly turns: (ScriptedCall[] | string)[];
  constructor(turns: (ScriptedCall[] | string)[]) {
    super({});
    this.turns = turns;
  }
  _llmType(): string {
    return "scripted";
  }
  bindTools(): this {
    return this;
  }
  async _generate(): Promise<ChatResult> {
    const next = this.turns.shift() ?? "done";
    const message =
      typeof next === "string"
        ? new AIMessage(next)
        : new AIMessage({
            content: "",
            tool_calls: next.map((c) => ({ id: c.id, name: c.name, args: c.args, type: "tool_call" })),
          });
    return { generations: [{ text: typeof next === "string" ? next : "", message }] };
  }
}

async function setup(options: { config?: string; approvals?: ApprovalStore } = {}) {
  const bundle = await loadPolicy({ config: options.config ?? CONFIG });
  const ran: { tool: string; args: unknown }[] = [];
  const controller = createController({
    bundle,
    handlers: {
      read_file: ({ path }: { path: string }) => {
        ran.push({ tool: "read_file", args: { path } });
        if (path !== "README.md") throw new ToolFailure(`no such file: ${path}`);
        return "# toolgate";
      },
      write_note: ({ text }: { text: string }) => {
        ran.push({ tool: "write_note", args: { text } });
        return `noted: ${text}`;
      },
      delete_project: () => {
        ran.push({ tool: "delete_project", args: {} });
        return "deleted";
      },
    },
    audit: new MemoryAuditSink(),
    ...(options.approvals === undefined ? {} : { approvals: options.approvals }),
  });
  return { controller, ran, gate: new LangChainGate(controller) };
}

const threeCalls = (): ScriptedCall[] => [
  { id: "call_readme", name: "read_file", args: { path: "README.md" } },
  { id: "call_env", name: "read_file", args: { path: ".env" } },
  { id: "call_note", name: "write_note", args: { text: "ship it" } },
];

function agentOf(gate: LangChainGate, model: ScriptedChatModel, checkpointer = new MemorySaver()) {
  return createAgent({ model, tools: gate.tools(), checkpointer });
}

const thread = (id: string) => ({ configurable: { thread_id: id } });

function toolMessages(state: {
  messages: BaseMessage[];
}): Record<string, { content: unknown; status: unknown }> {
  const found: Record<string, { content: unknown; status: unknown }> = {};
  for (const message of state.messages) {
    if (message.getType() !== "tool") continue;
    const tool = message as ToolMessage;
    found[tool.tool_call_id] = { content: tool.content, status: tool.status };
  }
  return found;
}

function interruptsOf(state: unknown): ToolgateInterrupt[] {
  const list = (state as { __interrupt__?: { value: unknown }[] }).__interrupt__ ?? [];
  return list.map((i) => i.value as ToolgateInterrupt);
}

describe("toolgate/langchain with createAgent", () => {
  it("offers the visible tools only, with the specs' schemas", async () => {
    const { gate } = await setup();
    expect(gate.tools().map((t) => t.name)).toEqual(["read_file", "write_note"]);
  });

  it("allow runs, deny is an error tool message, ask interrupts in the middleware's shape and runs nothing", async () => {
    const { gate, ran, controller } = await setup();
    const agent = agentOf(gate, new ScriptedChatModel([threeCalls(), "done"]));
    const paused = await agent.invoke({ messages: [{ role: "user", content: "go" }] }, thread("t1"));
    expect(ran).toEqual([{ tool: "read_file", args: { path: "README.md" } }]);
    const [request] = interruptsOf(paused);
    expect(request?.actionRequests).toEqual([
      {
        name: "write_note",
        args: { text: "ship it" },
        description:
          "write_note needs a person's approval: notes are shared with the team, so a person confirms each one",
      },
    ]);
    expect(request?.reviewConfigs).toEqual([
      { actionName: "write_note", allowedDecisions: ["approve", "edit", "reject"] },
    ]);
    const pending = await controller.approvals.list();
    expect(pending.map((p) => [p.request.approvalId, p.request.call.callId])).toEqual([
      [request?.toolgate.approvalId, "call_note"],
    ]);
  });

  it("an approved call runs once with the approved arguments, and the denied read stays refused", async () => {
    const { gate, ran } = await setup();
    const agent = agentOf(gate, new ScriptedChatModel([threeCalls(), "done"]));
    await agent.invoke({ messages: [{ role: "user", content: "go" }] }, thread("t2"));
    const done = await agent.invoke(
      new Command({ resume: { decisions: [{ type: "approve", approver: "oncall" }] } }),
      thread("t2"),
    );
    expect(ran).toEqual([
      { tool: "read_file", args: { path: "README.md" } },
      { tool: "write_note", args: { text: "ship it" } },
    ]);
    const out = toolMessages(done);
    expect(out.call_readme).toEqual({ content: "# toolgate", status: "success" });
    expect(out.call_env).toEqual({
      content: "denied by policy: secret files are never read (rule: no-dotenv)",
      status: "error",
    });
    expect(out.call_note).toEqual({ content: "noted: ship it", status: "success" });
  });

  it("a rejection runs nothing and tells the model why", async () => {
    const { gate, ran, controller } = await setup();
    const agent = agentOf(gate, new ScriptedChatModel([threeCalls(), "ok"]));
    await agent.invoke({ messages: [{ role: "user", content: "go" }] }, thread("t3"));
    const done = await agent.invoke(
      new Command({ resume: { decisions: [{ type: "reject", message: "not today" }] } }),
      thread("t3"),
    );
    expect(ran.filter((r) => r.tool === "write_note")).toEqual([]);
    expect(String(toolMessages(done).call_note?.content)).toContain("not today");
    expect(await controller.approvals.list()).toEqual([]);
  });

  it("an edit runs the edited arguments only, as the person's approval of exactly them", async () => {
    const { gate, ran } = await setup();
    const agent = agentOf(gate, new ScriptedChatModel([threeCalls(), "ok"]));
    await agent.invoke({ messages: [{ role: "user", content: "go" }] }, thread("t4"));
    await agent.invoke(
      new Command({
        resume: {
          decisions: [
            { type: "edit", editedAction: { name: "write_note", args: { text: "ship it friday" } } },
          ],
        },
      }),
      thread("t4"),
    );
    expect(ran.filter((r) => r.tool === "write_note")).toEqual([
      { tool: "write_note", args: { text: "ship it friday" } },
    ]);
  });

  it("an edit into another tool or into denied arguments runs nothing", async () => {
    const { gate, ran } = await setup();
    const agent = agentOf(gate, new ScriptedChatModel([[threeCalls()[2] as ScriptedCall], "ok"]));
    await agent.invoke({ messages: [{ role: "user", content: "go" }] }, thread("t5"));
    const done = await agent.invoke(
      new Command({
        resume: { decisions: [{ type: "edit", editedAction: { name: "delete_project", args: {} } }] },
      }),
      thread("t5"),
    );
    expect(ran).toEqual([]);
    expect(toolMessages(done).call_note?.status).toBe("error");
  });

  it("a deny that arrives while the run is paused wins over the approval", async () => {
    const store = await openApprovalStore("memory");
    const checkpointer = new MemorySaver();
    const before = await setup({ approvals: store });
    await agentOf(before.gate, new ScriptedChatModel([threeCalls()]), checkpointer).invoke(
      { messages: [{ role: "user", content: "go" }] },
      thread("t6"),
    );
    const after = await setup({ config: STRICTER, approvals: store });
    const done = await agentOf(after.gate, new ScriptedChatModel(["ok"]), checkpointer).invoke(
      new Command({ resume: { decisions: [{ type: "approve" }] } }),
      thread("t6"),
    );
    expect([...before.ran, ...after.ran].filter((r) => r.tool === "write_note")).toEqual([]);
    expect(toolMessages(done).call_note).toEqual({
      content: "denied by policy: notes are frozen for the release (rule: notes-frozen)",
      status: "error",
    });
  });

  it("a resume sent again to the paused checkpoint runs nothing a second time", async () => {
    const { gate, ran } = await setup();
    const checkpointer = new MemorySaver();
    const agent = agentOf(gate, new ScriptedChatModel([threeCalls(), "done", "again"]), checkpointer);
    await agent.invoke({ messages: [{ role: "user", content: "go" }] }, thread("t7"));
    // The checkpoint of the paused run, to resume from it twice.
    const paused = await agent.getState(thread("t7"));
    const resume = new Command({ resume: { decisions: [{ type: "approve" }] } });
    await agent.invoke(resume, paused.config);
    await agent.invoke(resume, paused.config);
    expect(ran.filter((r) => r.tool === "write_note")).toHaveLength(1);
  });

  it("a durable store and checkpointer keep the paused call across a restart; it runs once", async () => {
    const url = `sqlite:${join(mkdtempSync(join(tmpdir(), "toolgate-langchain-")), "state.db")}`;
    const checkpointer = new MemorySaver();
    const first = await setup({ approvals: await openApprovalStore(url) });
    await agentOf(first.gate, new ScriptedChatModel([threeCalls()]), checkpointer).invoke(
      { messages: [{ role: "user", content: "go" }] },
      thread("t8"),
    );
    await first.controller.approvals.store.close();
    const second = await setup({ approvals: await openApprovalStore(url) });
    await agentOf(second.gate, new ScriptedChatModel(["done"]), checkpointer).invoke(
      new Command({ resume: { decisions: [{ type: "approve" }] } }),
      thread("t8"),
    );
    expect(second.ran.filter((r) => r.tool === "write_note")).toEqual([
      { tool: "write_note", args: { text: "ship it" } },
    ]);
    await second.controller.approvals.store.close();
  });

  it("a hostile model's invented tools and arguments run nothing", async () => {
    const { gate, ran, controller } = await setup();
    const agent = agentOf(
      gate,
      new ScriptedChatModel([
        [
          { id: "c1", name: "delete_project", args: {} },
          { id: "c2", name: "read_file", args: { path: "README.md", mode: "raw" } },
          { id: "c3", name: "read_file", args: { path: 42 } },
          { id: "c4", name: "shell", args: { command: "rm -rf /" } },
          { id: "c5", name: "write_note", args: { text: "" } },
        ],
        "done",
      ]),
    );
    const done = await agent.invoke({ messages: [{ role: "user", content: "go" }] }, thread("t9"));
    expect(ran).toEqual([]);
    expect(interruptsOf(done)).toEqual([]);
    expect(await controller.approvals.list()).toEqual([]);
  });
});
