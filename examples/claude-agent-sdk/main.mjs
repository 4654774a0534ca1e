// toolgate in front of the Claude Agent SDK's tools, offline: the SDK's permission callbacks (`hooks()` and
// `canUseTool`) decided with the Claude Code pack, for calls as the SDK passes them. In an application, pass
// both to `query({ prompt, options: { cwd, hooks: gate.hooks(), canUseTool: gate.canUseTool } })`.
// Run from the repository root with `npm run example:claude-agent-sdk` (it builds first).
import { createController, loadPolicy } from "toolgate";
import { ClaudeAgentGate, releaseHandlers } from "toolgate/claude-agent-sdk";

const bundle = await loadPolicy({ config: "policies/packs/claude-code/toolgate.config.yaml" });
// The SDK runs the tools; toolgate's handlers only release each call (and its audit records the release).
const controller = createController({ bundle, handlers: releaseHandlers(bundle.tools.map((t) => t.name)) });
const project = "/home/dev/project";
const gate = new ClaudeAgentGate(controller, {
  projectDir: project,
  // Your UI: here the person approves every note and nothing else.
  decide: async (request) => ({ approved: request.call.toolName === "Write", approver: "alice" }),
});

const calls = [
  ["Read", { file_path: `${project}/src/index.ts` }],
  ["Read", { file_path: `${project}/.env` }],
  ["Bash", { command: "git status" }],
  ["Bash", { command: "rm -rf build" }],
  ["Write", { file_path: `${project}/NOTES.md`, content: "ship it" }],
  ["WebFetch", { url: "https://example.com", prompt: "summarise" }],
];
for (const [tool, input] of calls) {
  const result = await gate.canUseTool(tool, input, {
    signal: new AbortController().signal,
    toolUseID: `tu_${tool}`,
  });
  const detail = result.behavior === "allow" ? JSON.stringify(result.updatedInput) : result.message;
  console.log(`${tool} -> ${result.behavior}: ${detail}`);
}
