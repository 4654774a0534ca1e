/**
 * Gemini CLI's `BeforeTool` hook: the JSON it writes to a command hook's stdin, the JSON answer it reads back,
 * and the conversion of one payload into the toolgate calls the policy decides.
 *
 * Shapes from Gemini CLI 0.61.0: its hooks reference (docs/hooks/reference.md, "Base input schema", "Common
 * output fields", "BeforeTool"; https://geminicli.com/docs/hooks/reference) and the types
 * `@google/gemini-cli-core` 0.61.0 publishes (`BeforeToolInput`, `McpToolContext`, `HookOutput`,
 * `HookDecision`). Its `decision: "ask"` is in `HookDecision` and honoured for `BeforeTool` since Gemini CLI
 * 0.36.0 (it forces the confirmation prompt), though the reference lists only allow and deny.
 */
import type { AliasTable } from "../runtime/tool-aliases.js";
import type { PolicyAction, ToolCall } from "../runtime/types.js";
import { aliasCalls, partsOf } from "./alias-calls.js";
import { linkedReadings, mcpStandInCall, pathReadingCalls, readHookObject } from "./hook-payload.js";
import type { JsonObject } from "./json-data.js";

/** `mcp_context` of a `BeforeTool` payload: which MCP server and tool an MCP tool call goes to. */
export interface GeminiCliMcpContext {
  readonly server_name: string;
  readonly tool_name: string;
  readonly command?: string;
  readonly args?: readonly string[];
  readonly cwd?: string;
  readonly url?: string;
  readonly tcp?: string;
}

/** What Gemini CLI writes to a `BeforeTool` command hook's stdin. */
export interface GeminiCliBeforeToolInput {
  readonly session_id: string;
  readonly transcript_path: string;
  /** The working directory Gemini CLI runs in (also the hook's GEMINI_PROJECT_DIR). */
  readonly cwd: string;
  readonly hook_event_name: "BeforeTool";
  /** ISO 8601 time of the call. */
  readonly timestamp: string;
  readonly tool_name: string;
  /** The model's arguments as it sent them: paths may be relative (to the project) or absolute. */
  readonly tool_input: { readonly [key: string]: unknown };
  /** Present for MCP tools. */
  readonly mcp_context?: GeminiCliMcpContext;
  /** The tool first requested, when this call is a tail call an AfterTool hook asked for. */
  readonly original_request_name?: string;
}

/** The decisions toolgate answers (Gemini CLI also reads `block` and `approve`, aliases it never writes). */
export type GeminiCliDecision = PolicyAction;

/** The JSON answer on stdout, with exit code 0. */
export interface GeminiCliBeforeToolOutput {
  readonly decision: GeminiCliDecision;
  /** For deny, sent to the model as the tool's error; for ask, shown with the confirmation prompt. */
  readonly reason: string;
  /** For ask: shown to the person in the confirmation prompt. */
  readonly systemMessage?: string;
}

/** The pack's stand-in tool for every MCP tool (`mcp_SERVER_TOOL`, or `SERVER__TOOL` in older versions). */
export const GEMINI_MCP_TOOL = "MCP";

/** The argument field that holds a file or directory path, per pack tool. */
const PATH_FIELDS: ReadonlyMap<string, string> = new Map([
  ["read_file", "file_path"],
  ["write_file", "file_path"],
  ["replace", "file_path"],
  ["glob", "dir_path"],
  ["grep_search", "dir_path"],
  ["list_directory", "dir_path"],
  ["run_shell_command", "dir_path"],
]);

/** A payload read from stdin, or why it cannot be read. */
export type GeminiCliPayloadResult =
  | { readonly ok: true; readonly payload: GeminiCliBeforeToolInput }
  | { readonly ok: false; readonly reason: string };

/**
 * Reads the hook's stdin text as a `BeforeTool` payload. Refuses (with a reason) text that is not one JSON
 * object, repeats a key, names another event, lacks `tool_name`, `tool_input` (an object) or an absolute
 * `cwd`, or carries an `mcp_context` without string `server_name` and `tool_name`.
 */
export function parseGeminiCliPayload(text: string): GeminiCliPayloadResult {
  const read = readHookObject(text, {
    event: "BeforeTool",
    command: "toolgate hook gemini-cli",
    register: 'register it under "BeforeTool" in .gemini/settings.json',
  });
  if (!read.ok) return read;
  const context = read.data.mcp_context;
  if (context !== undefined) {
    const fields = typeof context === "object" && context !== null && !Array.isArray(context) ? context : {};
    for (const key of ["server_name", "tool_name"] as const) {
      if (typeof (fields as JsonObject)[key] !== "string") {
        return { ok: false, reason: `mcp_context.${key} is not a string; an MCP call toolgate cannot name` };
      }
    }
  }
  return { ok: true, payload: read.data as unknown as GeminiCliBeforeToolInput };
}

/**
 * The calls that stand for one payload: one call, or two when a path could be read two ways (inside the
 * project only when case is ignored); the hook decides each and keeps the strictest answer. An MCP tool call
 * (one with `mcp_context`, or named `mcp_…` or `…__…`) becomes a call of the pack's `MCP` stand-in, unless
 * `declared` says the configuration declares a tool of that exact name. Absolute paths are read against
 * `roots` (the project directory, then any other roots; the longest that holds a path wins), and where a
 * symbolic link on them leads (`resolveLink`); relative ones, which Gemini CLI resolves against the project,
 * stay as they are.
 */
export function geminiCliCalls(
  payload: GeminiCliBeforeToolInput,
  declared: (name: string) => boolean,
  roots: string | readonly string[] = payload.cwd,
  resolveLink: (absolutePath: string) => string | undefined = () => undefined,
): readonly ToolCall[] {
  const callId = "gemini-cli";
  const input = payload.tool_input as JsonObject;
  const name = payload.tool_name;
  const mcp = mcpParts(payload);
  if (mcp !== undefined && !declared(name)) {
    return [mcpStandInCall(callId, GEMINI_MCP_TOOL, { name, ...mcp, input })];
  }
  return pathReadingCalls(callId, name, input, PATH_FIELDS.get(name), roots, resolveLink);
}

/**
 * The canonical calls for a payload read through the configuration's Gemini CLI aliases, or `undefined` when
 * it is decided as it was sent (the configuration declares the tool by its own name and it is not a canonical
 * tool, or — for an MCP tool — declares the pack's `MCP` stand-in, or there is no alias of its name). An MCP
 * call keeps the server and tool the payload names (`mcp_context`), whatever its name.
 */
export function geminiCliAliasCalls(
  payload: GeminiCliBeforeToolInput,
  declared: (name: string) => boolean,
  roots: string | readonly string[],
  resolveLink: (absolutePath: string) => string | undefined,
  table: AliasTable,
): readonly ToolCall[] | undefined {
  const name = payload.tool_name;
  if (table.size === 0 || table.decidesAsItself(name, declared)) return undefined;
  const mcp = mcpParts(payload);
  if (mcp !== undefined && declared(GEMINI_MCP_TOOL)) return undefined;
  const reading = { table, readPath: (path: string) => linkedReadings(path, roots, resolveLink) };
  return aliasCalls(
    reading,
    { name, arguments: payload.tool_input as JsonObject },
    "gemini-cli",
    mcp === undefined ? undefined : [partsOf(mcp)],
  );
}

/** The server and tool of an MCP call, or undefined for a call that does not look like one. */
function mcpParts(payload: GeminiCliBeforeToolInput): { server: string; tool: string } | undefined {
  const context = payload.mcp_context;
  if (context !== undefined) return { server: context.server_name, tool: context.tool_name };
  const name = payload.tool_name;
  if (name.startsWith("mcp_")) {
    // mcp_SERVER_TOOL: Gemini CLI reads the server as the text up to the next "_".
    const rest = name.slice("mcp_".length);
    const split = rest.indexOf("_");
    return split < 0
      ? { server: rest, tool: "" }
      : { server: rest.slice(0, split), tool: rest.slice(split + 1) };
  }
  const split = name.indexOf("__");
  if (split > 0) return { server: name.slice(0, split), tool: name.slice(split + 2) };
  return undefined;
}

/**
 * The JSON answer for a decision. `ask` is Gemini CLI's `decision: "ask"` with the reason also as the
 * confirmation prompt's `systemMessage`.
 */
export function geminiCliAnswer(decision: GeminiCliDecision, reason: string): GeminiCliBeforeToolOutput {
  return decision === "ask" ? { decision, reason, systemMessage: reason } : { decision, reason };
}
