/**
 * A faithful description of the hook and tool-input types that `@anthropic-ai/claude-agent-sdk` 0.3.328
 * publishes (sdk.d.ts: `BaseHookInput`, `PreToolUseHookInput`, `HookPermissionDecision`,
 * `PreToolUseHookSpecificOutput`, `SyncHookJSONOutput`; sdk-tools.d.ts: `BashInput`, `FileReadInput`, …),
 * written out here field by field because the package itself is not a dependency (its optional
 * dependencies ship a native Claude Code binary per platform). Comments name the published type.
 */

/** sdk.d.ts `BaseHookInput`. */
export type SdkBaseHookInput = {
  session_id: string;
  transcript_path: string;
  cwd: string;
  prompt_id?: string;
  permission_mode?: string;
  agent_id?: string;
  agent_type?: string;
  effort?: { level: string };
};

/** sdk.d.ts `McpServerProvenance`. */
export type SdkMcpServerProvenance = { name: string; source: string };

/** sdk.d.ts `PreToolUseHookInput`. */
export type SdkPreToolUseHookInput = SdkBaseHookInput & {
  hook_event_name: "PreToolUse";
  tool_name: string;
  tool_input: unknown;
  tool_use_id: string;
  mcp_server?: SdkMcpServerProvenance;
};

/** sdk.d.ts `HookPermissionDecision`. */
export type SdkHookPermissionDecision = "allow" | "deny" | "ask" | "defer";

/** sdk.d.ts `PreToolUseHookSpecificOutput`. */
export type SdkPreToolUseHookSpecificOutput = {
  hookEventName: "PreToolUse";
  permissionDecision?: SdkHookPermissionDecision;
  permissionDecisionReason?: string;
  updatedInput?: Record<string, unknown>;
  additionalContext?: string;
};

/** sdk.d.ts `SyncHookJSONOutput`, with `hookSpecificOutput` narrowed to the PreToolUse member of its union. */
export type SdkSyncHookJSONOutput = {
  continue?: boolean;
  suppressOutput?: boolean;
  stopReason?: string;
  decision?: "approve" | "block";
  systemMessage?: string;
  terminalSequence?: string;
  reason?: string;
  hookSpecificOutput?: SdkPreToolUseHookSpecificOutput;
};

/** sdk-tools.d.ts `BashInput`. */
export interface SdkBashInput {
  command: string;
  timeout?: number;
  description?: string;
  run_in_background?: boolean;
  dangerouslyDisableSandbox?: boolean;
}
/** sdk-tools.d.ts `FileReadInput`. */
export interface SdkFileReadInput {
  file_path: string;
  offset?: number;
  limit?: number;
  pages?: string;
  allow_large?: boolean;
}
/** sdk-tools.d.ts `FileWriteInput`. */
export interface SdkFileWriteInput {
  file_path: string;
  content: string;
}
/** sdk-tools.d.ts `FileEditInput`. */
export interface SdkFileEditInput {
  file_path: string;
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}
/** sdk-tools.d.ts `GlobInput`. */
export interface SdkGlobInput {
  pattern: string;
  path?: string;
}
/** sdk-tools.d.ts `GrepInput`. */
export interface SdkGrepInput {
  pattern: string;
  path?: string;
  glob?: string;
  output_mode?: "content" | "files_with_matches" | "count";
  "-B"?: number;
  "-A"?: number;
  "-C"?: number;
  context?: number;
  "-n"?: boolean;
  "-i"?: boolean;
  "-o"?: boolean;
  type?: string;
  head_limit?: number;
  offset?: number;
  multiline?: boolean;
}
/** sdk-tools.d.ts `NotebookEditInput`. */
export interface SdkNotebookEditInput {
  notebook_path: string;
  cell_id?: string;
  new_source: string;
  cell_type?: "code" | "markdown";
  edit_mode?: "replace" | "insert" | "delete";
}
/** sdk-tools.d.ts `WebFetchInput`. */
export interface SdkWebFetchInput {
  url: string;
  prompt: string;
  offset?: number;
}
/** sdk-tools.d.ts `WebSearchInput`. */
export interface SdkWebSearchInput {
  query: string;
  allowed_domains?: string[];
  blocked_domains?: string[];
}
/** sdk-tools.d.ts `AgentInput`. */
export interface SdkAgentInput {
  description: string;
  prompt: string;
  subagent_type?: string;
  model?: "sonnet" | "opus" | "haiku" | "fable";
  effort?: "low" | "medium" | "high" | "xhigh" | "max";
  run_in_background?: boolean;
  name?: string;
  team_name?: string;
  mode?: "acceptEdits" | "auto" | "bypassPermissions" | "default" | "dontAsk" | "plan";
  isolation?: "worktree" | "remote";
}
