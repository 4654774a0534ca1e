// toolgate in front of LangChain tools in a LangChain agent, offline: a scripted chat model proposes three
// calls, toolgate allows the read, refuses the .env, and pauses the graph for the note (interrupt() in the
// human-in-the-loop middleware's shape); the person approves with Command({ resume }), and the note runs.
// Run from the repository root with `npm run example:langchain` (it builds first).
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage } from "@langchain/core/messages";
import { Command, MemorySaver } from "@langchain/langgraph";
import { createAgent } from "langchain";
import { createController, loadPolicy, ToolFailure } from "toolgate";
import { LangChainGate } from "toolgate/langchain";

const bundle = await loadPolicy({ config: "examples/notes-agent/toolgate.config.yaml" });
const controller = createController({
  bundle,
  handlers: {
    read_file: ({ path }) => {
      if (path !== "README.md") throw new ToolFailure(`no such file: ${path}`);
      return "# notes agent";
    },
    write_note: ({ text }) => `noted: ${text}`,
    delete_project: () => "deleted",
  },
});
const gate = new LangChainGate(controller);

/** A stand-in for a real chat model: answers from a script (tool calls, then a text). */
class ScriptedChatModel extends BaseChatModel {
  turns = [
    [
      { id: "c1", name: "read_file", args: { path: "README.md" } },
      { id: "c2", name: "read_file", args: { path: ".env" } },
      { id: "c3", name: "write_note", args: { text: "ship it" } },
    ],
    "Done: read the README and noted it.",
  ];
  _llmType() {
    return "scripted";
  }
  bindTools() {
    return this;
  }
  async _generate() {
    const next = this.turns.shift() ?? "done";
    const message =
      typeof next === "string"
        ? new AIMessage(next)
        : new AIMessage({ content: "", tool_calls: next.map((c) => ({ ...c, type: "tool_call" })) });
    return { generations: [{ text: "", message }] };
  }
}

const agent = createAgent({
  model: new ScriptedChatModel({}),
  tools: gate.tools(),
  checkpointer: new MemorySaver(),
});
const thread = { configurable: { thread_id: "example" } };
const paused = await agent.invoke(
  { messages: [{ role: "user", content: "Read the README and the .env, and note that we ship." }] },
  thread,
);
for (const { value } of paused.__interrupt__ ?? []) {
  const [action] = value.actionRequests;
  console.log(
    `${action.name} ${JSON.stringify(action.args)} -> waits for a person: ${value.toolgate.reason}`,
  );
}
const done = await agent.invoke(
  new Command({ resume: { decisions: [{ type: "approve", approver: "alice" }] } }),
  thread,
);
for (const message of done.messages) {
  if (message.getType() === "tool")
    console.log(`${message.tool_call_id} ${message.name} -> ${message.status}: ${message.content}`);
}
console.log(`model: ${done.messages.at(-1).content}`);
