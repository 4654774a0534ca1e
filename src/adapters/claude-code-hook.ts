/**
 * Claude Code's `PreToolUse` hook: the JSON it writes to a command hook's stdin, the JSON answer it reads
 * back, and the conversion of one payload into the toolgate calls the policy decides.
 *
 * Shapes from the hooks reference (https://code.claude.com/docs/en/hooks, "Common input fields",
 * "PreToolUse input", "PreToolUse decision control") and checked against the hook types that
 * `@anthropic-ai/claude-agent-sdk` publishes (`PreToolUseHookInput`, `PreToolUseHookSpecificOutput`).
 */
import type { AliasTable } from "../runtime/tool-aliases.js";
import type { PolicyAction, ToolCall } from "../runtime/types.js";
import { aliasCalls, partsOf } from "./alias-calls.js";
import {
  isAbsolutePath,
  linkedReadings,
  mcpStandInCall,
  pathReadingCalls,
  readHookObject,
} from "./hook-payload.js";
import type { JsonObject } from "./json-data.js";

/** What Claude Code writes to a `PreToolUse` command hook's stdin (fields this module reads or passes on). */
export interface ClaudeCodePreToolUseInput {
  readonly session_id: string;
  readonly transcript_path: string;
  /** The working directory: the project directory for a session started there. */
  readonly cwd: string;
  readonly hook_event_name: "PreToolUse";
  readonly tool_name: string;
  /** The tool's arguments; file paths in it are absolute. */
  readonly tool_input: unknown;
  readonly tool_use_id: string;
  /** For `mcp__…` tools: the MCP server the call goes to, as Claude Code configured it. */
  readonly mcp_server?: { readonly name: string; readonly source: string };
  readonly prompt_id?: string;
  readonly permission_mode?: string;
  readonly agent_id?: string;
  readonly agent_type?: string;
  readonly effort?: { readonly level: string };
}

/** The decisions toolgate gives back (Claude Code also knows `defer`, which toolgate never answers). */
export type ClaudeCodePermissionDecision = PolicyAction;

/** The JSON answer on stdout, with exit code 0. */
export interface ClaudeCodePreToolUseOutput {
  readonly hookSpecificOutput: {
    readonly hookEventName: "PreToolUse";
    readonly permissionDecision: ClaudeCodePermissionDecision;
    /** For allow and ask, shown to the person; for deny, shown to Claude. */
    readonly permissionDecisionReason: string;
  };
}

/** The pack's stand-in tool for every MCP tool (`mcp__SERVER__TOOL`). */
export const MCP_TOOL = "MCP";

/** The argument field that holds a file path, per pack tool. */
const PATH_FIELDS: ReadonlyMap<string, string> = new Map([
  ["Read", "file_path"],
  ["Write", "file_path"],
  ["Edit", "file_path"],
  ["MultiEdit", "file_path"],
  ["NotebookEdit", "notebook_path"],
  ["Glob", "path"],
  ["Grep", "path"],
]);

/** A payload read from stdin, or why it cannot be read. */
export type HookPayloadResult =
  | { readonly ok: true; readonly payload: ClaudeCodePreToolUseInput }
  | { readonly ok: false; readonly reason: string };

/**
 * Reads the hook's stdin text as a `PreToolUse` payload. Refuses (with a reason) text that is not one JSON
 * object, repeats a key, names another event, or lacks `tool_name`, `tool_input` (an object) or an absolute
 * `cwd`.
 */
export function parseHookPayload(text: string): HookPayloadResult {
  const read = readHookObject(text, {
    event: "PreToolUse",
    command: "toolgate hook claude-code",
    register: 'register it under "PreToolUse" in settings.json',
  });
  if (!read.ok) return read;
  return { ok: true, payload: read.data as unknown as ClaudeCodePreToolUseInput };
}

/**
 * The calls that stand for one hook payload: one call, or more when the path could be read several ways
 * (inside the project only when case is ignored; a symbolic link and its target). Paths are read against
 * `roots`: the project directory first — not the payload's `cwd`, which follows Claude's `cd`, and `cwd` only
 * when no project directory is known — then any other roots (`--root`, the config's `roots:`); the longest
 * root that holds a path wins. The hook decides each and keeps the strictest answer.
 * `declared` says whether the configuration declares a tool of that exact name (an MCP tool declared by
 * name is decided as itself, not through the `MCP` stand-in).
 */
export function hookCalls(
  payload: ClaudeCodePreToolUseInput,
  declared: (name: string) => boolean,
  roots: string | readonly string[] = payload.cwd,
  resolveLink: (absolutePath: string) => string | undefined = () => undefined,
): readonly ToolCall[] {
  const projectDir = typeof roots === "string" ? roots : (roots[0] ?? payload.cwd);
  const callId = typeof payload.tool_use_id === "string" ? payload.tool_use_id : "claude-code";
  const name = payload.tool_name;
  const input = searchDefaults(name, payload.tool_input as JsonObject, payload.cwd, projectDir);
  if (name.startsWith("mcp__") && !declared(name)) {
    return mcpServerReadings(name, payload.mcp_server).map(({ server, tool }) =>
      mcpStandInCall(callId, MCP_TOOL, { name, server, tool, input }),
    );
  }
  return pathReadingCalls(callId, name, input, PATH_FIELDS.get(name), roots, resolveLink);
}

/**
 * The canonical calls for a payload read through the configuration's Claude Code aliases, or `undefined`
 * when it is decided as it was sent (the configuration declares the tool by its own name — or, for an MCP
 * tool, declares the pack's `MCP` stand-in — or has no alias of its name). Paths read as in `hookCalls`; an
 * `mcp__…` name reads as every server and tool it can stand for.
 */
export function hookAliasCalls(
  payload: ClaudeCodePreToolUseInput,
  declared: (name: string) => boolean,
  roots: string | readonly string[],
  resolveLink: (absolutePath: string) => string | undefined,
  table: AliasTable,
): readonly ToolCall[] | undefined {
  const name = payload.tool_name;
  if (table.size === 0 || table.decidesAsItself(name, declared)) return undefined;
  const isMcp = name.startsWith("mcp__");
  if (isMcp && declared(MCP_TOOL)) return undefined;
  const projectDir = typeof roots === "string" ? roots : (roots[0] ?? payload.cwd);
  const callId = typeof payload.tool_use_id === "string" ? payload.tool_use_id : "claude-code";
  const input = searchDefaults(name, payload.tool_input as JsonObject, payload.cwd, projectDir);
  const reading = { table, readPath: (path: string) => linkedReadings(path, roots, resolveLink) };
  return aliasCalls(
    reading,
    { name, arguments: input },
    callId,
    isMcp ? mcpServerReadings(name, payload.mcp_server).map(partsOf) : undefined,
  );
}

/**
 * Grep and Glob search Claude Code's working directory (`cwd`, which follows its `cd`) when they have no
 * `path`, and read a relative `path` against it. Both become absolute paths here, so that the project reading
 * decides them: inside the project relative to it, outside it absolute (never a certain allow). A search in the
 * project directory itself keeps the path absent, as Claude Code sends it.
 */
function searchDefaults(name: string, input: JsonObject, cwd: string, projectDir: string): JsonObject {
  if (name !== "Grep" && name !== "Glob") return input;
  const path = input.path;
  if (path === undefined) {
    return trimSlashes(cwd) === trimSlashes(projectDir) ? input : { ...input, path: cwd };
  }
  if (typeof path !== "string" || path === "" || isAbsolutePath(path)) return input;
  return { ...input, path: `${trimSlashes(cwd)}/${path}` };
}

function trimSlashes(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, "") : path;
}

/**
 * The server and tool an `mcp__…` name can stand for. With the payload's `mcp_server` provenance, the server
 * is the one it names (and a name that does not start with it reads every way). Without it, a server name that
 * contains `__` makes the split ambiguous (`mcp__a__b__c` is server `a` tool `b__c`, or server `a__b` tool `c`):
 * every split is a reading, and the strictest decision over them holds.
 */
function mcpServerReadings(name: string, provenance: unknown): readonly { server: string; tool: string }[] {
  const rest = name.slice("mcp__".length);
  const known =
    typeof provenance === "object" &&
    provenance !== null &&
    typeof (provenance as { name?: unknown }).name === "string"
      ? (provenance as { name: string }).name
      : undefined;
  if (known !== undefined && rest.startsWith(`${known}__`)) {
    return [{ server: known, tool: rest.slice(known.length + 2) }];
  }
  const readings: { server: string; tool: string }[] = [];
  for (let at = rest.indexOf("__"); at >= 0; at = rest.indexOf("__", at + 1)) {
    readings.push({ server: rest.slice(0, at), tool: rest.slice(at + 2) });
  }
  return readings.length === 0 ? [{ server: rest, tool: "" }] : readings;
}

/** The JSON answer for a decision. */
export function hookAnswer(decision: PolicyAction, reason: string): ClaudeCodePreToolUseOutput {
  return {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: decision,
      permissionDecisionReason: reason,
    },
  };
}
