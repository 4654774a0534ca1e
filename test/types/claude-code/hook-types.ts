/**
 * Type tests: toolgate's declared Claude Code hook types against the ones `@anthropic-ai/claude-agent-sdk`
 * publishes (sdk.d.ts and sdk-tools.d.ts, imported from the package itself, a devDependency), and the
 * argument types generated from the Claude Code pack (`toolgate codegen` of policies/packs/claude-code into
 * test/.tmp/claude-code/, done by claude-code-hook-types.test.ts) against the SDK's tool input types.
 * `Same<A, B>` holds when each is assignable to the other; `Fits<A, B>` when A is assignable to B. Each
 * `@ts-expect-error` is a mismatch that must be caught; the test removes them and counts the errors.
 */

import type {
  HookPermissionDecision as SdkHookPermissionDecision,
  PreToolUseHookInput as SdkPreToolUseHookInput,
  PreToolUseHookSpecificOutput as SdkPreToolUseHookSpecificOutput,
  SyncHookJSONOutput as SdkSyncHookJSONOutput,
} from "@anthropic-ai/claude-agent-sdk";
import type {
  AgentInput as SdkAgentInput,
  BashInput as SdkBashInput,
  FileEditInput as SdkFileEditInput,
  FileReadInput as SdkFileReadInput,
  FileWriteInput as SdkFileWriteInput,
  GlobInput as SdkGlobInput,
  GrepInput as SdkGrepInput,
  NotebookEditInput as SdkNotebookEditInput,
  WebFetchInput as SdkWebFetchInput,
  WebSearchInput as SdkWebSearchInput,
} from "@anthropic-ai/claude-agent-sdk/sdk-tools";
import type {
  ClaudeCodePermissionDecision,
  ClaudeCodePreToolUseInput,
  ClaudeCodePreToolUseOutput,
} from "../../../src/adapters/claude-code-hook.js";
import type {
  AgentArgs,
  BashArgs,
  EditArgs,
  GlobArgs,
  GrepArgs,
  NotebookEditArgs,
  ReadArgs,
  WebFetchArgs,
  WebSearchArgs,
  WriteArgs,
} from "../../.tmp/claude-code/pack.js";

type Fits<A, B> = [A] extends [B] ? true : false;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const holds = <T extends true>(value: T): T => value;

// The hook's input: what the SDK says Claude Code sends is what toolgate reads, both ways.
holds<Fits<SdkPreToolUseHookInput, ClaudeCodePreToolUseInput>>(true);
holds<Fits<ClaudeCodePreToolUseInput, SdkPreToolUseHookInput>>(true);

// The answer: toolgate's is a valid SDK hook output, and its decisions are the SDK's minus `defer`.
holds<Fits<ClaudeCodePreToolUseOutput, SdkSyncHookJSONOutput>>(true);
holds<Fits<ClaudeCodePreToolUseOutput["hookSpecificOutput"], SdkPreToolUseHookSpecificOutput>>(true);
holds<Same<ClaudeCodePermissionDecision, Exclude<SdkHookPermissionDecision, "defer">>>(true);
holds<Same<ClaudeCodePreToolUseOutput["hookSpecificOutput"]["hookEventName"], "PreToolUse">>(true);

// The pack's schemas: every input the SDK types allow is a valid pack argument, and (where the pack does not
// widen an enum to a string) the other way round.
holds<Same<BashArgs, SdkBashInput>>(true);
holds<Same<ReadArgs, SdkFileReadInput>>(true);
holds<Same<WriteArgs, SdkFileWriteInput>>(true);
holds<Same<EditArgs, SdkFileEditInput>>(true);
holds<Same<GlobArgs, SdkGlobInput>>(true);
holds<Same<GrepArgs, SdkGrepInput>>(true);
holds<Same<NotebookEditArgs, SdkNotebookEditInput>>(true);
holds<Same<WebFetchArgs, SdkWebFetchInput>>(true);
holds<Same<WebSearchArgs, SdkWebSearchInput>>(true);
holds<Fits<SdkAgentInput, AgentArgs>>(true);

// Mismatches the checks must catch.
// @ts-expect-error a decision of "defer" is not one toolgate answers
holds<Fits<SdkHookPermissionDecision, ClaudeCodePermissionDecision>>(true);
// @ts-expect-error an answer without hookSpecificOutput is not toolgate's answer
holds<Fits<SdkSyncHookJSONOutput, ClaudeCodePreToolUseOutput>>(true);
// @ts-expect-error the pack's Agent model is any string, wider than the SDK's aliases
holds<Fits<AgentArgs, SdkAgentInput>>(true);
// @ts-expect-error Read is not Write
holds<Same<ReadArgs, SdkFileWriteInput>>(true);
