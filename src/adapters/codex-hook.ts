/**
 * Codex's `PreToolUse` and `PermissionRequest` command hooks: the JSON Codex writes to the hook's stdin, the
 * JSON answers it reads back, and the conversion of one payload into calls of the canonical coding-agent tools
 * (policies/packs/agents).
 *
 * Shapes from Codex's hooks documentation (developers.openai.com/codex/hooks) and the JSON Schemas its
 * repository generates for them (codex-rs/hooks/schema/generated: pre-tool-use.command.input/output,
 * permission-request.command.output). Codex runs `PreToolUse` for shell commands (`tool_name: "Bash"`,
 * `tool_input.command` a string), for `apply_patch` (`tool_input.command` the raw patch body) and for MCP
 * tools (`mcp__SERVER__TOOL`, `tool_input` the tool's arguments).
 *
 * Codex's contract fails open: an `ask`, unknown output, a crash or a timeout all let the call run; only a
 * well-formed deny with a reason (or exit code 2 with the reason on stderr) blocks. So under Codex a toolgate
 * ask is a deny that tells the model a person is needed, and everything this hook cannot read blocks.
 */
import { AliasTable } from "../runtime/tool-aliases.js";
import type { PolicyAction, ToolCall } from "../runtime/types.js";
import { aliasCalls } from "./alias-calls.js";
import { linkedReadings, readHookObject } from "./hook-payload.js";
import type { JsonObject } from "./json-data.js";

/** The events toolgate answers. */
export type CodexHookEvent = "PreToolUse" | "PermissionRequest";

/** What Codex writes to a `PreToolUse` or `PermissionRequest` command hook's stdin (the fields read here). */
export interface CodexHookInput {
  readonly session_id: string;
  readonly turn_id?: string;
  readonly transcript_path: string | null;
  /** The session's working directory: the project directory. */
  readonly cwd: string;
  readonly hook_event_name: CodexHookEvent;
  readonly model?: string;
  readonly permission_mode?: string;
  /** `Bash`, `apply_patch`, or `mcp__SERVER__TOOL`. */
  readonly tool_name: string;
  readonly tool_input: { readonly [key: string]: unknown };
  readonly tool_use_id?: string;
}

/** The JSON answer of a `PreToolUse` hook that blocks (exit code 0). */
export interface CodexPreToolUseOutput {
  readonly hookSpecificOutput: {
    readonly hookEventName: "PreToolUse";
    readonly permissionDecision: "deny";
    /** Shown to the model as the reason the call did not run. */
    readonly permissionDecisionReason: string;
  };
}

/** The JSON answer of a `PermissionRequest` hook that refuses Codex's approval prompt. */
export interface CodexPermissionRequestOutput {
  readonly hookSpecificOutput: {
    readonly hookEventName: "PermissionRequest";
    readonly decision: { readonly behavior: "deny"; readonly message: string };
  };
}

/** A payload read from stdin, or why it cannot be read. */
export type CodexPayloadResult =
  | { readonly ok: true; readonly payload: CodexHookInput }
  | { readonly ok: false; readonly reason: string };

/**
 * Reads the hook's stdin text as a `PreToolUse` or `PermissionRequest` payload (`event`). Refuses (with a
 * reason) text that is not one JSON object, repeats a key, names another event, or lacks `tool_name`,
 * `tool_input` (an object) or an absolute `cwd`.
 */
export function parseCodexPayload(text: string, event: CodexHookEvent): CodexPayloadResult {
  const read = readHookObject(text, {
    event,
    command: "toolgate hook codex",
    register: `register it under [[hooks.${event}]] in .codex/config.toml (or hooks.json)`,
  });
  if (!read.ok) return read;
  return { ok: true, payload: read.data as unknown as CodexHookInput };
}

/** One file a patch touches, with what happens to it. */
export interface PatchTarget {
  readonly path: string;
  readonly operation: "add" | "update" | "delete" | "move";
}

/**
 * The files an `apply_patch` body touches (`*** Add File:`, `*** Update File:`, `*** Delete File:`, and the
 * destination of `*** Move to:`), or `undefined` when the body is not a patch toolgate can read (no
 * `*** Begin Patch`, or no file header at all) — such a call is never allowed.
 */
export function patchTargets(body: string): readonly PatchTarget[] | undefined {
  const lines = body.split(/\r?\n/);
  if (!lines.some((line) => line.trim() === "*** Begin Patch")) return undefined;
  const targets: PatchTarget[] = [];
  const headers: readonly [string, PatchTarget["operation"]][] = [
    ["*** Add File: ", "add"],
    ["*** Update File: ", "update"],
    ["*** Delete File: ", "delete"],
    ["*** Move to: ", "move"],
  ];
  for (const line of lines) {
    for (const [prefix, operation] of headers) {
      if (line.startsWith(prefix)) targets.push({ path: line.slice(prefix.length).trim(), operation });
    }
  }
  return targets.length === 0 || targets.some((t) => t.path === "") ? undefined : targets;
}

/**
 * The calls that stand for one payload; the hook decides each and keeps the strictest answer. A tool the
 * configuration declares by its own name (and that is not a canonical tool) is decided as sent. Otherwise the
 * configuration's Codex aliases read it (`policies/packs/agents`: `Bash` → `shell`, `apply_patch` →
 * `write_file`, `mcp__SERVER__TOOL` → `mcp_call`). `apply_patch` is read as one call per file the patch
 * touches, each with `path` (absolute: relative paths against the session's working directory) and
 * `operation`; a patch toolgate cannot read is one call with only `patch`, which an alias that maps `path`
 * leaves without one (never allowed). A tool with no alias keeps its name and input: an unknown tool.
 */
export function codexCalls(
  payload: CodexHookInput,
  declared: (name: string) => boolean,
  roots: string | readonly string[] = payload.cwd,
  resolveLink: (absolutePath: string) => string | undefined = () => undefined,
  table: AliasTable = new AliasTable([], "codex"),
): readonly ToolCall[] {
  const callId = typeof payload.tool_use_id === "string" ? payload.tool_use_id : "codex";
  const input = payload.tool_input as JsonObject;
  const name = payload.tool_name;
  const asSent = { callId, toolName: name, arguments: input };
  if (table.decidesAsItself(name, declared)) return [asSent];
  const reading = { table, readPath: (path: string) => linkedReadings(path, roots, resolveLink) };
  if (name === "apply_patch") {
    const body = input.command ?? input.patch ?? input.input;
    const targets = typeof body === "string" ? patchTargets(body) : undefined;
    const files: JsonObject[] =
      targets === undefined
        ? [{ patch: body ?? null }]
        : targets.map((target) => ({
            path: resolveAgainst(target.path, payload.cwd),
            operation: target.operation,
          }));
    const read = files.map((file) => aliasCalls(reading, { name, arguments: file }, callId));
    if (read.some((one) => one === undefined)) return [asSent];
    return (read as (readonly ToolCall[])[]).flat();
  }
  return aliasCalls(reading, { name, arguments: input }, callId) ?? [asSent];
}

/** A patch path as Codex reads it: relative paths against the session's working directory. */
function resolveAgainst(path: string, cwd: string): string {
  if (path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path)) return path;
  return `${cwd.replace(/\/+$/, "")}/${path}`;
}

/**
 * The answer for a decision, or `undefined` for none (Codex goes on with its own approval settings). A deny
 * blocks with the reason; an ask blocks too (Codex cannot be made to ask), with a reason that tells the model
 * a person's approval is needed; an allow answers nothing, so Codex's own sandbox and approval policy still
 * apply. Under `PermissionRequest` an ask answers nothing either: Codex then asks the person itself.
 */
export function codexAnswer(
  event: CodexHookEvent,
  decision: PolicyAction,
  reason: string,
): CodexPreToolUseOutput | CodexPermissionRequestOutput | undefined {
  if (event === "PermissionRequest") {
    if (decision !== "deny") return undefined;
    return {
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: { behavior: "deny", message: reason },
      },
    };
  }
  if (decision === "allow") return undefined;
  const text =
    decision === "ask"
      ? `${reason}; this call needs a person's approval, which Codex cannot ask for from a hook: a person can run it themselves, or a rule in the toolgate policy can allow it`
      : reason;
  return {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: text,
    },
  };
}
