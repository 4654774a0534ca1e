/**
 * Type tests of the framework adapters' declarations (checked by frameworks-types.test.ts with tsc against
 * the built package): the argument types `toolgate codegen` generates flow into each AI SDK tool, and each
 * `@ts-expect-error` marks a mistake those types must reject.
 */
import type { Tool } from "ai";
import type { ToolController } from "toolgate";
import { AiSdkGate } from "toolgate/ai-sdk";
import { type ClaudeAgentGate, releaseHandlers } from "toolgate/claude-agent-sdk";
import { LangChainGate } from "toolgate/langchain";
import type { ReadFileArgs, RunShellArgs, ToolArgs } from "../../generated/toolgate.js";

declare const controller: ToolController;

const tools = new AiSdkGate<ToolArgs>(controller).tools();
export const read: Tool<ReadFileArgs, string> = tools.read_file;
export const shell: Tool<RunShellArgs, string> = tools.run_shell;
// @ts-expect-error a tool the specs do not declare
export const unknown = tools.delete_everything;
// @ts-expect-error read_file's input is not run_shell's
export const swapped: Tool<RunShellArgs, string> = tools.read_file;

export const langchainTools = new LangChainGate<ToolArgs>(controller).tools();
export const releases = releaseHandlers(["Read", "Bash"]);
export type Gate = ClaudeAgentGate;

const byName = new LangChainGate<ToolArgs>(controller).toolsByName();
export const invoked = byName.read_file.invoke({ path: "README.md" });
// @ts-expect-error read_file takes a path, not a command
export const wrongInput = byName.read_file.invoke({ command: "ls" });
