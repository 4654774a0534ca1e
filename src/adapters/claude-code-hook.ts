/**
 * Claude Code's `PreToolUse` hook: the JSON it writes to a command hook's stdin, the JSON answer it reads
 * back, and the conversion of one payload into the toolgate calls the policy decides.
 *
 * Shapes from the hooks reference (https://code.claude.com/docs/en/hooks, "Common input fields",
 * "PreToolUse input", "PreToolUse decision control") and checked against the hook types that
 * `@anthropic-ai/claude-agent-sdk` publishes (`PreToolUseHookInput`, `PreToolUseHookSpecificOutput`).
 */
import type { PolicyAction, ToolCall } from "../runtime/types.js";
import { copyJsonObject, findDuplicateKey, type JsonObject, quoteValue } from "./json-data.js";

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

/** The most stdin the hook reads; Claude Code's own tool inputs are far smaller. */
export const MAX_HOOK_INPUT_BYTES = 16 * 1024 * 1024;

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
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `the hook input is not JSON (${(error as Error).message})` };
  }
  const duplicate = findDuplicateKey(text);
  if (duplicate !== undefined) {
    return { ok: false, reason: `the hook input repeats the key ${JSON.stringify(duplicate)}` };
  }
  const copy = copyJsonObject(value, { protoKey: "reject" });
  if (!copy.ok) return { ok: false, reason: `the hook input is not a plain JSON object: ${copy.reason}` };
  const data = copy.value;
  if (data.hook_event_name !== "PreToolUse") {
    return {
      ok: false,
      reason: `hook_event_name is ${quoteValue(data.hook_event_name)}; toolgate hook claude-code answers PreToolUse only (register it under "PreToolUse" in settings.json)`,
    };
  }
  for (const key of ["tool_name", "cwd"] as const) {
    if (typeof data[key] !== "string" || data[key] === "") {
      return { ok: false, reason: `${key} is ${quoteValue(data[key])}, not a non-empty string` };
    }
  }
  const input = data.tool_input;
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { ok: false, reason: `tool_input is ${quoteValue(input)}, not an object` };
  }
  if (!isAbsolutePosix(data.cwd as string) && !isAbsoluteWindows(data.cwd as string)) {
    return { ok: false, reason: `cwd is ${quoteValue(data.cwd)}, not an absolute path` };
  }
  return { ok: true, payload: data as unknown as ClaudeCodePreToolUseInput };
}

/**
 * The calls that stand for one hook payload: one call, or two when the path could be read two ways (inside
 * the project only when case is ignored). Paths are read against `projectDir` — not the payload's `cwd`,
 * which follows Claude's `cd` — and against `cwd` only when no project directory is known. The hook decides each and keeps the strictest answer.
 * `declared` says whether the configuration declares a tool of that exact name (an MCP tool declared by
 * name is decided as itself, not through the `MCP` stand-in).
 */
export function hookCalls(
  payload: ClaudeCodePreToolUseInput,
  declared: (name: string) => boolean,
  projectDir: string = payload.cwd,
): readonly ToolCall[] {
  const callId = typeof payload.tool_use_id === "string" ? payload.tool_use_id : "claude-code";
  const input = payload.tool_input as JsonObject;
  const name = payload.tool_name;
  if (name.startsWith("mcp__") && !declared(name)) {
    const rest = name.slice("mcp__".length);
    const split = rest.indexOf("__");
    const server = split < 0 ? rest : rest.slice(0, split);
    const tool = split < 0 ? "" : rest.slice(split + 2);
    return [{ callId, toolName: MCP_TOOL, arguments: { name, server, tool, input } }];
  }
  const field = PATH_FIELDS.get(name);
  const path = field === undefined ? undefined : input[field];
  if (field === undefined || typeof path !== "string") return [{ callId, toolName: name, arguments: input }];
  return projectReadings(path, projectDir).map((reading) => ({
    callId,
    toolName: name,
    arguments: { ...input, [field]: reading },
  }));
}

/**
 * The readings of an absolute path against the project directory: relative to it when the path is inside it
 * (a plain text prefix: `.` and `..` segments stay, for the policy's path matching to treat conservatively),
 * unchanged when outside, and both when only a case-insensitive or Unicode-normalising file system would put
 * it inside. A relative path, or a Windows path, stays as it is.
 */
export function projectReadings(path: string, cwd: string): readonly string[] {
  if (!isAbsolutePosix(path) || !isAbsolutePosix(cwd)) return [path];
  const root = cwd.replace(/\/+$/, "");
  if (root === "") return [path];
  const inside = relativeTo(path, root);
  if (inside !== undefined) return [inside];
  const folded = relativeTo(fold(path), fold(root));
  if (folded === undefined) return [path];
  // Same length after folding only if the folding kept every character's length; otherwise the
  // relative part is cut from the folded text, which is still a reading a deny rule must see.
  const tail = fold(path).length === path.length ? path.slice(path.length - folded.length) : folded;
  return [path, tail === "" ? "." : tail];
}

function relativeTo(path: string, root: string): string | undefined {
  if (path === root) return ".";
  if (!path.startsWith(`${root}/`)) return undefined;
  const rest = path.slice(root.length + 1).replace(/^\/+/, "");
  return rest === "" ? "." : rest;
}

function fold(text: string): string {
  return text.normalize("NFC").toLowerCase();
}

/** Whether a path is absolute (POSIX, or a Windows drive or UNC path). */
export function isAbsolutePath(path: string): boolean {
  return isAbsolutePosix(path) || isAbsoluteWindows(path);
}

function isAbsolutePosix(path: string): boolean {
  return path.startsWith("/");
}

function isAbsoluteWindows(path: string): boolean {
  return /^[A-Za-z]:[\\/]/.test(path) || path.startsWith("\\\\");
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
