// The seed's example: one calculator tool behind a ToolController whose policy allows only it.
// Run from the repository root with `npm run example` (it builds first); `toolgate` resolves to this package.
import { defineTool, ToolController, ToolPolicy, ToolRegistry, ToolRuntime } from "toolgate";

const calculator = defineTool(
  {
    name: "calculator",
    description: "Add exactly two integers named a and b.",
    inputSchema: {
      type: "object",
      properties: { a: { type: "integer" }, b: { type: "integer" } },
      required: ["a", "b"],
      additionalProperties: false,
    },
  },
  ({ a, b }) => String(a + b),
);

const controller = new ToolController({
  runtime: new ToolRuntime(new ToolRegistry([calculator])),
  policy: new ToolPolicy({ allowedTools: ["calculator"], confirmationRequiredTools: [] }),
});

// What a model might propose: a good call, a tool that does not exist, and bad arguments.
const calls = [
  { callId: "call_1", toolName: "calculator", arguments: { a: 40, b: 2 } },
  { callId: "call_2", toolName: "delete_everything", arguments: {} },
  { callId: "call_3", toolName: "calculator", arguments: { a: "x" } },
];

for (const call of calls) {
  const outcome = await controller.handle(call);
  if (outcome.kind === "approval-request") {
    console.log(`${outcome.call.callId} ${call.toolName} needs a person's approval: ${outcome.approvalId}`);
    continue;
  }
  // Every result carries the callId of its call.
  const shown = outcome.isError ? `error: ${outcome.content}` : outcome.content;
  console.log(`${outcome.callId} ${call.toolName} ${JSON.stringify(call.arguments)} -> ${shown}`);
}
