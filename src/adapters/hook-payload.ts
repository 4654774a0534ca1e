/**
 * What the coding-agent hooks (Claude Code's `PreToolUse`, Gemini CLI's `BeforeTool`) have in common: one
 * JSON object on stdin, read strictly; file paths read against the project directory; and the stand-in call
 * for an MCP tool. Each agent's own module reads its fields and writes its answer.
 */
import { realpathSync } from "node:fs";
import type { ToolCall } from "../runtime/types.js";
import { copyJsonObject, findDuplicateKey, type JsonObject, quoteValue } from "./json-data.js";

/** Where a path leads once every symbolic link on it is followed, or `undefined` when it does not resolve. */
export function linkTarget(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** The most stdin a hook reads; the agents' own tool inputs are far smaller. */
export const MAX_HOOK_INPUT_BYTES = 16 * 1024 * 1024;

/** A payload read from stdin, or why it cannot be read. */
export type HookObjectResult =
  | { readonly ok: true; readonly data: JsonObject }
  | { readonly ok: false; readonly reason: string };

/**
 * Reads a hook's stdin text as one JSON object naming `hook.event` in `hook_event_name`, with a non-empty
 * `tool_name`, a `tool_input` object and an absolute `cwd`. Refuses (with a reason) anything else, a repeated
 * key or a `__proto__` key. `hook.command` and `hook.register` name the command and where it belongs, for
 * the reason of a wrong event.
 */
export function readHookObject(
  text: string,
  hook: { readonly event: string; readonly command: string; readonly register: string },
): HookObjectResult {
  const read = readJsonPayload(text);
  if (!read.ok) return read;
  const data = read.data;
  if (data.hook_event_name !== hook.event) {
    return {
      ok: false,
      reason: `hook_event_name is ${quoteValue(data.hook_event_name)}; ${hook.command} answers ${hook.event} only (${hook.register})`,
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
  if (!isAbsolutePath(data.cwd as string)) {
    return { ok: false, reason: `cwd is ${quoteValue(data.cwd)}, not an absolute path` };
  }
  return { ok: true, data };
}

/**
 * Reads a hook's stdin text as one plain JSON object, strictly: not JSON, a repeated key, a `__proto__` key or
 * anything but an object is refused with a reason. Every hook reads its payload through this.
 */
export function readJsonPayload(text: string): HookObjectResult {
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
  return { ok: true, data: copy.value };
}

/**
 * The calls that stand for one call of `toolName` whose argument `field` may hold a file path: one call, or
 * two when the path could be read two ways (inside the project only when case is ignored). The hook decides
 * each and keeps the strictest answer.
 */
export function pathReadingCalls(
  callId: string,
  toolName: string,
  input: JsonObject,
  field: string | undefined,
  projectDir: string,
  resolveLink: (absolutePath: string) => string | undefined = () => undefined,
): readonly ToolCall[] {
  const path = field === undefined ? undefined : input[field];
  if (field === undefined || typeof path !== "string") return [{ callId, toolName, arguments: input }];
  // A symbolic link is read as itself and as its target, as the agent checks both: a rule on either holds.
  const target = isAbsolutePath(path) ? resolveLink(path) : undefined;
  const paths = target === undefined || target === path ? [path] : [path, target];
  const readings = [...new Set(paths.flatMap((p) => projectReadings(p, projectDir)))];
  return readings.map((reading) => ({
    callId,
    toolName,
    arguments: { ...input, [field]: reading },
  }));
}

/** The call of a pack's `MCP` stand-in tool for one MCP tool call: `{ name, server, tool, input }`. */
export function mcpStandInCall(
  callId: string,
  standIn: string,
  parts: {
    readonly name: string;
    readonly server: string;
    readonly tool: string;
    readonly input: JsonObject;
  },
): ToolCall {
  return {
    callId,
    toolName: standIn,
    arguments: { name: parts.name, server: parts.server, tool: parts.tool, input: parts.input },
  };
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
