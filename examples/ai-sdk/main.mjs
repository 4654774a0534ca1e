// toolgate in front of Vercel AI SDK tools, offline: the AI SDK's own mock model proposes three calls, toolgate
// allows the read, refuses the .env, and holds the note for a person; the person approves, and the note runs.
// Run from the repository root with `npm run example:ai-sdk` (it builds first); `toolgate` resolves to this
// package.
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { createController, loadPolicy, ToolFailure } from "toolgate";
import { AiSdkGate } from "toolgate/ai-sdk";

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
const gate = new AiSdkGate(controller);

// The model: three tool calls, then a closing text (a scripted stand-in for a real provider).
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
const call = (toolCallId, toolName, input) => ({
  type: "tool-call",
  toolCallId,
  toolName,
  input: JSON.stringify(input),
});
const turns = [
  [
    call("c1", "read_file", { path: "README.md" }),
    call("c2", "read_file", { path: ".env" }),
    call("c3", "write_note", { text: "ship it" }),
  ],
  [{ type: "text", text: "Done: read the README and noted it." }],
];
const model = new MockLanguageModelV3({
  doGenerate: async () => {
    const content = turns.shift() ?? [{ type: "text", text: "done" }];
    const calls = content.some((c) => c.type === "tool-call");
    return {
      content,
      finishReason: { unified: calls ? "tool-calls" : "stop", raw: undefined },
      usage,
      warnings: [],
    };
  },
});

const messages = [{ role: "user", content: "Read the README and the .env, and note that we ship." }];
const first = await generateText({ model, tools: gate.tools(), messages, stopWhen: stepCountIs(3) });
messages.push(...first.response.messages);
for (const part of first.steps.flatMap((s) => s.content)) {
  if (part.type === "tool-result") console.log(`${part.toolCallId} ${part.toolName} -> ${part.output}`);
  if (part.type === "tool-error")
    console.log(`${part.toolCallId} ${part.toolName} -> refused: ${part.error.message}`);
}
const approvals = [];
for (const part of first.content) {
  if (part.type !== "tool-approval-request") continue;
  console.log(`${part.toolCall.toolCallId} ${part.toolCall.toolName} -> waits for a person`);
  approvals.push(await gate.approve(part, { approver: "alice" })); // your UI asks the person here
}
messages.push({ role: "tool", content: approvals });
const second = await generateText({ model, tools: gate.tools(), messages, stopWhen: stepCountIs(3) });
for (const message of second.response.messages) {
  if (message.role !== "tool") continue;
  for (const part of message.content)
    console.log(`${part.toolCallId} ${part.toolName} -> ${part.output.value}`);
}
console.log(`model: ${second.text}`);
