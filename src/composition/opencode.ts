/**
 * `toolgate/opencode`: an OpenCode plugin (`.opencode/plugin/toolgate.ts`) that decides each tool call with the
 * toolgate policy before OpenCode runs it. Every export of this file is public API.
 *
 * OpenCode calls a plugin's `tool.execute.before(input, output)` with `input.tool` (the tool's name) and
 * `output.args` (its arguments) before every tool call; throwing refuses the call, and the model reads the
 * error. The plugin reads each call into the canonical coding-agent tools (policies/packs/agents) — `bash` →
 * `shell`, `read` → `read_file`, `write`/`edit`/`patch` → `write_file`, `grep`/`glob`/`list` → `search`,
 * `webfetch` → `web_fetch`, any other tool → `mcp_call` (OpenCode names MCP tools `SERVER_TOOL`) — unless the
 * configuration declares a tool of that exact name. Allow lets the call run; deny refuses it with toolgate's
 * reason; an ask refuses it too, saying that a person's approval is needed (a plugin cannot ask). A policy
 * that cannot be loaded refuses every call.
 */
import { projectReadings } from "../adapters/hook-payload.js";
import { copyJsonObject, type JsonObject } from "../adapters/json-data.js";
import { loadPolicyResult } from "../config/load-policy.js";
import { ToolgateError } from "../runtime/errors.js";
import { ACTION_RANK } from "../runtime/statements.js";
import type { PolicyAction, ToolCall } from "../runtime/types.js";
import { decisionController } from "../testing/run-policy-tests.js";

/** What OpenCode passes a plugin (the fields this plugin reads). */
export interface OpenCodePluginInput {
  /** The project directory OpenCode runs in. */
  readonly directory: string;
  readonly worktree?: string;
}

/** The hooks this plugin returns. */
export interface OpenCodeHooks {
  "tool.execute.before": (
    input: { readonly tool: string; readonly sessionID?: string; readonly callID?: string },
    output: { args: unknown },
  ) => Promise<void>;
}

/** Options of `toolgatePlugin`. */
export interface ToolgatePluginOptions {
  /** The configuration file (default: found from the project directory, as `toolgate lint` finds it). */
  readonly config?: string;
}

/** OpenCode's file tools (each with its path in `filePath`): the canonical tool and operation. */
const FILE_TOOLS: ReadonlyMap<string, { readonly tool: string; readonly operation?: string }> = new Map([
  ["read", { tool: "read_file" }],
  ["write", { tool: "write_file", operation: "update" }],
  ["edit", { tool: "write_file", operation: "update" }],
  ["patch", { tool: "write_file", operation: "update" }],
]);

/** OpenCode's search tools, read as `search` (`path`, `pattern`, `include`). */
const SEARCH_TOOLS = new Set(["grep", "glob", "list"]);

/**
 * The canonical calls that stand for one OpenCode tool call (two when a path could be read two ways); the
 * plugin decides each and keeps the strictest answer.
 */
export function openCodeCalls(
  tool: string,
  args: JsonObject,
  projectDir: string,
  declared: (name: string) => boolean,
): readonly ToolCall[] {
  const callId = "opencode";
  if (declared(tool)) return [{ callId, toolName: tool, arguments: args }];
  if (tool === "bash") return [{ callId, toolName: "shell", arguments: { command: args.command ?? null } }];
  if (tool === "webfetch") return [{ callId, toolName: "web_fetch", arguments: { url: args.url ?? null } }];
  const file = FILE_TOOLS.get(tool);
  if (file !== undefined) {
    const path = args.filePath;
    if (typeof path !== "string") return [{ callId, toolName: file.tool, arguments: { path: null } }];
    return projectReadings(path, projectDir).map((reading) => ({
      callId,
      toolName: file.tool,
      arguments: { path: reading, ...(file.operation === undefined ? {} : { operation: file.operation }) },
    }));
  }
  if (SEARCH_TOOLS.has(tool)) {
    const fields: JsonObject = {};
    if (typeof args.pattern === "string") fields.pattern = args.pattern;
    if (typeof args.include === "string") fields.include = args.include;
    const path = args.path;
    if (path === undefined) return [{ callId, toolName: "search", arguments: fields }];
    if (typeof path !== "string")
      return [{ callId, toolName: "search", arguments: { ...fields, path: null } }];
    return projectReadings(path, projectDir).map((reading) => ({
      callId,
      toolName: "search",
      arguments: { ...fields, path: reading },
    }));
  }
  const split = tool.indexOf("_");
  const server = split < 0 ? tool : tool.slice(0, split);
  return [
    {
      callId,
      toolName: "mcp_call",
      arguments: { name: tool, server, tool: split < 0 ? "" : tool.slice(split + 1), input: args },
    },
  ];
}

/** The error that refuses a call (code `tool-refused`): OpenCode shows its message to the model. */
export class OpenCodeRefusal extends ToolgateError {
  constructor(message: string) {
    super("tool-refused", message);
  }
}

/**
 * Makes the plugin: loads the policy once (from `options.config`, else the configuration found from the
 * project directory) and answers every `tool.execute.before`.
 */
export function toolgatePlugin(options: ToolgatePluginOptions = {}) {
  return async (input: OpenCodePluginInput): Promise<OpenCodeHooks> => {
    const projectDir = input.worktree ?? input.directory;
    const loaded = await loadPolicyResult({
      cwd: input.directory,
      ...(options.config === undefined ? {} : { config: options.config }),
    });
    const bundle = loaded.bundle;
    const controller = bundle === undefined ? undefined : decisionController(bundle, loaded.validators);
    const names = new Set(bundle?.tools.map((t) => t.name) ?? []);
    return {
      "tool.execute.before": async (call, output) => {
        if (controller === undefined) {
          throw new OpenCodeRefusal(
            "toolgate: the toolgate configuration cannot be loaded (run toolgate lint); the tool call is blocked",
          );
        }
        const args = copyJsonObject(output.args, { protoKey: "reject" });
        if (!args.ok) {
          throw new OpenCodeRefusal(
            `toolgate: the tool's arguments are not plain JSON (${args.reason}); the tool call is blocked`,
          );
        }
        let action: PolicyAction = "allow";
        const reasons: string[] = [];
        for (const c of openCodeCalls(call.tool, args.value, projectDir, (name) => names.has(name))) {
          const explained = controller.explain(c, {});
          const decided =
            "callId" in explained
              ? { action: "ask" as const, reason: `toolgate cannot read this call (${explained.content})` }
              : {
                  action: explained.decision.action,
                  reason:
                    explained.decision.ruleIds.length === 0
                      ? explained.decision.reason
                      : `${explained.decision.reason} [${explained.decision.ruleIds.join(", ")}]`,
                };
          if (ACTION_RANK[decided.action] > ACTION_RANK[action]) {
            action = decided.action;
            reasons.length = 0;
          }
          if (decided.action === action && !reasons.includes(decided.reason)) reasons.push(decided.reason);
        }
        if (action === "allow") return;
        const reason = `toolgate: ${reasons.join("; ")}`;
        throw new OpenCodeRefusal(
          action === "ask"
            ? `${reason}; this call needs a person's approval, which the plugin cannot ask for: a person can run it themselves, or a rule in the toolgate policy can allow it`
            : reason,
        );
      },
    };
  };
}

/** The plugin with the configuration found from the project directory: `export { ToolgatePlugin } from "toolgate/opencode"`. */
export const ToolgatePlugin = toolgatePlugin();
