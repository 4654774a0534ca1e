/**
 * What the coding-agent hooks (Claude Code's `PreToolUse`, Gemini CLI's `BeforeTool`) have in common: one
 * JSON object on stdin, read strictly; file paths read against the project directory; and the stand-in call
 * for an MCP tool. Each agent's own module reads its fields and writes its answer.
 */
import { realpathSync } from "node:fs";
import { dirname } from "node:path";
import { normalizePath } from "../runtime/match/path.js";
import type { ToolCall } from "../runtime/types.js";
import { copyJsonObject, findDuplicateKey, type JsonObject, quoteValue } from "./json-data.js";

/**
 * Where an absolute path leads once every symbolic link on it is followed: the real path of the path, or of its
 * longest existing parent with the rest of the path after it (a file about to be written does not exist yet,
 * but the directory it goes into may be a link). `undefined` when nothing on it resolves, and for a path that is
 * not an absolute POSIX path (a Windows path names nothing on this machine).
 */
export function linkTarget(path: string): string | undefined {
  if (!isAbsolutePosix(path)) return undefined;
  let head = path;
  let rest = "";
  for (;;) {
    try {
      const real = realpathSync(head);
      return rest === "" ? real : `${real === "/" ? "" : real}/${rest}`;
    } catch {
      const parent = dirname(head);
      if (parent === head) return undefined;
      const name = head.slice(parent.length).replace(/^\/+/, "");
      rest = rest === "" ? name : name === "" ? rest : `${name}/${rest}`;
      head = parent;
    }
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
 * more when the path could be read several ways (inside a root only when case is ignored; a symbolic link and
 * its target). `roots` are the project directory and any other roots (`--root`, the config's `roots:`); see
 * {@link projectReadings}. The hook decides each and keeps the strictest answer.
 */
export function pathReadingCalls(
  callId: string,
  toolName: string,
  input: JsonObject,
  field: string | undefined,
  roots: string | readonly string[],
  resolveLink: (absolutePath: string) => string | undefined = () => undefined,
): readonly ToolCall[] {
  const path = field === undefined ? undefined : input[field];
  if (field === undefined || typeof path !== "string") return [{ callId, toolName, arguments: input }];
  const readings = linkedReadings(path, roots, resolveLink);
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
 * The readings of a path and of where it leads: a symbolic link is read as itself and as its target, as the
 * agent checks both and the file system follows the link — a rule on either holds, and a target outside every
 * root stays absolute, so a link out of the roots is never a certain allow.
 */
export function linkedReadings(
  path: string,
  roots: string | readonly string[],
  resolveLink: (absolutePath: string) => string | undefined,
): readonly string[] {
  const target = isAbsolutePath(path) ? resolveLink(path) : undefined;
  const paths = target === undefined || target === path ? [path] : [path, target];
  return [...new Set(paths.flatMap((p) => projectReadings(p, roots)))];
}

/**
 * The readings of an absolute path against the roots (the project directory, and any others): relative to the
 * longest root it is inside (a plain text prefix after the root: `.` and `..` segments stay, for the policy's
 * path matching to treat conservatively — one that climbs out reads as any file), unchanged when outside every
 * root, and both when only a case-insensitive or Unicode-normalising file system would put it inside one. A
 * relative path, or a Windows path, stays as it is. The roots themselves are normalised (`/a/./b/` is `/a/b`);
 * a root `/` holds nothing here.
 */
export function projectReadings(path: string, roots: string | readonly string[]): readonly string[] {
  if (!isAbsolutePosix(path)) return [path];
  const dirs: string[] = [];
  for (const root of typeof roots === "string" ? [roots] : roots) {
    const normal = normalizePath(root);
    if (normal.ok && normal.absolute && normal.path !== "/") dirs.push(normal.path);
  }
  // The first (longest) root that holds the path wins.
  dirs.sort((a, b) => b.length - a.length);
  for (const root of dirs) {
    const inside = relativeTo(path, root);
    if (inside !== undefined) return [inside];
  }
  for (const root of dirs) {
    const folded = relativeTo(fold(path), fold(root));
    if (folded === undefined) continue;
    // Same length after folding only if the folding kept every character's length; otherwise the
    // relative part is cut from the folded text, which is still a reading a deny rule must see.
    const tail = fold(path).length === path.length ? path.slice(path.length - folded.length) : folded;
    return [path, tail === "" ? "." : tail];
  }
  return [path];
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
