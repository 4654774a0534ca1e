/**
 * Cursor's agent hooks (`.cursor/hooks.json`): `beforeShellExecution`, `beforeMCPExecution` and
 * `beforeReadFile`. The JSON Cursor writes to the hook's stdin, the JSON answer it reads back, and the
 * conversion of one payload into a call of the canonical coding-agent tools (policies/packs/agents).
 *
 * Shapes from Cursor's hooks documentation (cursor.com/docs/agent/hooks): every payload carries
 * `hook_event_name`, `conversation_id`, `generation_id` and `workspace_roots`; `beforeShellExecution` adds
 * `command` and `cwd`; `beforeMCPExecution` adds `tool_name`, `tool_input` (an object, or its JSON text in some
 * versions) and the server's `url` or `command`; `beforeReadFile` adds `file_path` and `content`. The answer is
 * `{ permission: "allow" | "deny" | "ask", user_message?, agent_message? }`; `beforeReadFile` takes allow or
 * deny only. Cursor fails open (a crash or unreadable answer lets the call run) unless the registration sets
 * `failClosed: true`; exit code 2 blocks.
 */
import { AliasTable } from "../runtime/tool-aliases.js";
import type { PolicyAction, ToolCall } from "../runtime/types.js";
import { aliasCalls } from "./alias-calls.js";
import { isAbsolutePath, linkedReadings, readJsonPayload } from "./hook-payload.js";
import { copyJsonObject, type JsonObject, quoteValue } from "./json-data.js";

/** The events toolgate answers. */
export const CURSOR_EVENTS = ["beforeShellExecution", "beforeMCPExecution", "beforeReadFile"] as const;

/** One of them. */
export type CursorHookEvent = (typeof CURSOR_EVENTS)[number];

/** A Cursor payload, read: the event, its fields, and the directory paths are read against. */
export interface CursorHookInput {
  readonly hook_event_name: CursorHookEvent;
  readonly conversation_id?: string;
  readonly generation_id?: string;
  /** The workspace's root folders (absolute). */
  readonly workspace_roots: readonly string[];
  /** The directory a shell command runs in, else the first workspace root: the project directory. */
  readonly cwd: string;
  readonly command?: string;
  readonly tool_name?: string;
  readonly tool_input?: JsonObject;
  readonly url?: string;
  readonly file_path?: string;
}

/** The JSON answer on stdout. */
export interface CursorHookOutput {
  readonly permission: PolicyAction;
  /** Shown to the person. */
  readonly user_message?: string;
  /** Sent to the model. */
  readonly agent_message?: string;
}

/** A payload read from stdin, or why it cannot be read. */
export type CursorPayloadResult =
  | { readonly ok: true; readonly payload: CursorHookInput }
  | { readonly ok: false; readonly reason: string };

/**
 * Reads the hook's stdin text as one of the three payloads. Refuses (with a reason) text that is not one
 * JSON object, repeats a key, names another event, has no absolute workspace root, or lacks the event's
 * fields (`command`; `tool_name` and an object `tool_input`; `file_path`).
 */
export function parseCursorPayload(text: string): CursorPayloadResult {
  const read = readJsonPayload(text);
  if (!read.ok) return read;
  const data = read.data;
  const event = data.hook_event_name;
  if (!(CURSOR_EVENTS as readonly unknown[]).includes(event)) {
    return {
      ok: false,
      reason: `hook_event_name is ${quoteValue(event)}; toolgate hook cursor answers ${CURSOR_EVENTS.join(", ")} (register it under those events in .cursor/hooks.json)`,
    };
  }
  const roots = data.workspace_roots;
  if (
    !Array.isArray(roots) ||
    roots.length === 0 ||
    !roots.every((r) => typeof r === "string" && isAbsolutePath(r))
  ) {
    return { ok: false, reason: `workspace_roots is ${quoteValue(roots)}, not a list of absolute paths` };
  }
  const root = roots[0] as string;
  const cwd = typeof data.cwd === "string" && isAbsolutePath(data.cwd) ? data.cwd : root;
  const base = { hook_event_name: event as CursorHookEvent, workspace_roots: roots as string[], cwd };
  if (event === "beforeShellExecution") {
    if (typeof data.command !== "string")
      return { ok: false, reason: `command is ${quoteValue(data.command)}, not a string` };
    return { ok: true, payload: { ...base, command: data.command } };
  }
  if (event === "beforeReadFile") {
    if (typeof data.file_path !== "string" || data.file_path === "") {
      return { ok: false, reason: `file_path is ${quoteValue(data.file_path)}, not a non-empty string` };
    }
    return { ok: true, payload: { ...base, file_path: data.file_path } };
  }
  if (typeof data.tool_name !== "string" || data.tool_name === "") {
    return { ok: false, reason: `tool_name is ${quoteValue(data.tool_name)}, not a non-empty string` };
  }
  const input = readToolInput(data.tool_input);
  if (input === undefined)
    return { ok: false, reason: `tool_input is ${quoteValue(data.tool_input)}, not an object` };
  const server =
    typeof data.url === "string" ? data.url : typeof data.command === "string" ? data.command : "";
  return { ok: true, payload: { ...base, tool_name: data.tool_name, tool_input: input, url: server } };
}

/** `tool_input` as an object: given as one, or as the JSON text of one. */
function readToolInput(value: unknown): JsonObject | undefined {
  let parsed = value;
  if (typeof value === "string") {
    try {
      parsed = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  const copy = copyJsonObject(parsed, { protoKey: "reject" });
  return copy.ok ? copy.value : undefined;
}

/**
 * The calls that stand for one payload, read through the configuration's Cursor aliases: the host tool is the
 * hook event (`policies/packs/agents`: `beforeShellExecution { command }` → `shell`, `beforeReadFile
 * { file_path }` → `read_file`, `beforeMCPExecution { tool_name, tool_input, url }` → `mcp_call`, where `url`
 * is the server's URL or, for a local server, its command). The hook decides each and keeps the strictest
 * answer. A file path is read relative to the workspace root (or other root: `roots`, from `--root` and the
 * config) it lies in, the longest that holds it; outside every root it stays absolute, and so is never certain
 * for an allow rule. Where a symbolic link on it leads (`resolveLink`) is read the same way. An event with no
 * alias is a call of an unknown tool (never allowed).
 */
export function cursorCalls(
  payload: CursorHookInput,
  roots: readonly string[] = [],
  resolveLink: (absolutePath: string) => string | undefined = () => undefined,
  table: AliasTable = new AliasTable([], "cursor"),
): readonly ToolCall[] {
  const callId = payload.generation_id ?? "cursor";
  const name = payload.hook_event_name;
  const args: JsonObject =
    name === "beforeShellExecution"
      ? { command: payload.command ?? null }
      : name === "beforeMCPExecution"
        ? {
            tool_name: payload.tool_name ?? "",
            tool_input: payload.tool_input ?? {},
            url: payload.url ?? "",
          }
        : { file_path: payload.file_path ?? "" };
  const workspace = payload.workspace_roots.length > 0 ? payload.workspace_roots : [payload.cwd];
  const reading = {
    table,
    readPath: (path: string) => linkedReadings(path, [...workspace, ...roots], resolveLink),
  };
  const asSent = { callId, toolName: name, arguments: args };
  return aliasCalls(reading, { name, arguments: args }, callId) ?? [asSent];
}

/**
 * The answer for a decision: `permission` with the reason for the person and the model. `beforeReadFile`
 * takes allow or deny only, so there an ask is a deny that says a person's approval is needed.
 */
export function cursorAnswer(
  event: CursorHookEvent,
  decision: PolicyAction,
  reason: string,
): CursorHookOutput {
  if (event === "beforeReadFile") {
    if (decision === "allow") return { permission: "allow" };
    const text =
      decision === "ask"
        ? `${reason}; reading this file needs a person's approval, which Cursor cannot ask for before a read`
        : reason;
    return { permission: "deny", user_message: text, agent_message: text };
  }
  return decision === "allow"
    ? { permission: "allow" }
    : { permission: decision, user_message: reason, agent_message: reason };
}
