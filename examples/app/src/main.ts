/**
 * An application that gates its coding agent's tool calls with toolgate, as a user's would: the handler
 * types come from `toolgate codegen`, the controller from `toolgate compile` (precompiled validators and
 * the frozen policy, importing only `toolgate/runtime`). No YAML is read at run time.
 */
import { type ToolContext, ToolFailure, type ToolResult } from "toolgate/runtime";
import {
  typesFingerprint as compiledTypesFingerprint,
  createController,
  specs,
} from "../generated/toolgate.controller.mjs";
import { type ToolHandlers, typesFingerprint } from "./generated/toolgate.js";

// Both files are generated from the same tools by `npm run build`; a mismatch would not even type-check.
if (compiledTypesFingerprint !== typesFingerprint)
  throw new Error("types and controller come from different tools");

/** A tiny in-memory workspace, so that the example touches no real files. */
const workspace = new Map<string, string>([
  ["README.md", "# demo\n"],
  ["src/index.ts", "export const answer = 42;\n"],
]);

const handlers: ToolHandlers = {
  read_file: ({ path, max_bytes }) => {
    const content = workspace.get(path);
    if (content === undefined) throw new ToolFailure(`no such file: ${path}`);
    return max_bytes === undefined ? content : content.slice(0, max_bytes);
  },
  list_dir: ({ path }) =>
    [...workspace.keys()]
      .filter((file) => path === "." || file.startsWith(`${path}/`))
      .sort()
      .join("\n"),
  search_text: ({ query }) =>
    [...workspace.entries()]
      .filter(([, content]) => content.includes(query))
      .map(([file]) => file)
      .join("\n"),
  write_file: ({ path, content }) => {
    workspace.set(path, content);
    return `wrote ${content.length} characters to ${path}`;
  },
  apply_patch: ({ patch }) => `applied a patch of ${patch.split("\n").length} lines`,
  delete_path: ({ path }) => {
    workspace.delete(path);
    return `deleted ${path}`;
  },
  run_shell: ({ command }) => `(pretend) ran: ${command}`,
  http_fetch: ({ url, method }) => `(pretend) ${method ?? "GET"} ${url}`,
  git_commit: ({ message }) => `(pretend) committed: ${message}`,
};

const controller = createController({ handlers });
const context: ToolContext = { environment: "development", user_role: "developer" };

function show(result: ToolResult): string {
  return result.isError ? `error: ${result.content}` : JSON.stringify(result.content);
}

console.log(`${specs.length} tools, ${controller.visibleSpecs().length} visible to the model`);
const calls = [
  { callId: "call_1", toolName: "read_file", arguments: { path: "src/index.ts" } },
  { callId: "call_2", toolName: "read_file", arguments: { path: "config/.env" } },
  { callId: "call_3", toolName: "run_shell", arguments: { command: "git status --short" } },
  { callId: "call_4", toolName: "run_shell", arguments: { command: "rm -rf build" } },
  { callId: "call_5", toolName: "read_file", arguments: { path: 42 } },
  { callId: "call_6", toolName: "write_file", arguments: { path: "NOTES.md", content: "remember\n" } },
];
for (const call of calls) {
  const outcome = await controller.handle(call, context);
  if ("approvalId" in outcome) {
    console.log(`${call.callId} ${call.toolName} -> ask: ${outcome.reason}`);
    // A person approves it; the controller re-checks the call before running it.
    const result = await controller.resolve({
      approvalId: outcome.approvalId,
      approved: true,
      approver: "oncall",
    });
    console.log(`${call.callId} approved -> ${show(result)}`);
  } else {
    console.log(`${call.callId} ${call.toolName} -> ${show(outcome)}`);
  }
}
