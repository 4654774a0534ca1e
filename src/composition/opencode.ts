/**
 * `toolgate/opencode`: an OpenCode plugin (`.opencode/plugin/toolgate.ts`) that decides each tool call with the
 * toolgate policy before OpenCode runs it. Every export of this file is public API.
 *
 * OpenCode calls a plugin's `tool.execute.before(input, output)` with `input.tool` (the tool's name) and
 * `output.args` (its arguments) before every tool call; throwing refuses the call, and the model reads the
 * error. The plugin reads each call through OpenCode's host adapter (`hosts/opencode.ts`) into the canonical
 * coding-agent tools through the configuration's OpenCode aliases (policies/packs/agents: `bash` → `shell`,
 * `read` → `read_file`, `write`/`edit`/`patch` → `write_file`, `grep`/`glob`/`list` → `search`, `webfetch` →
 * `web_fetch`, `SERVER_TOOL` → `mcp_call`) — unless the configuration declares a tool of that exact name.
 * Allow lets the call run; deny refuses it with toolgate's reason; an ask refuses it too, saying that a
 * person's approval is needed (a plugin cannot ask). A policy that cannot be loaded refuses every call.
 */
import { loadPolicyResult } from "../config/load-policy.js";
import { type OpenCodeAnswer, openCodeAdapter } from "../hosts/opencode.js";
import { hookRoots } from "../hosts/run-hook.js";
import { ToolgateError } from "../runtime/errors.js";
import { decisionController } from "../testing/run-policy-tests.js";

export { openCodeCalls } from "../hosts/opencode.js";

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

/** The error that refuses a call (code `tool-refused`): OpenCode shows its message to the model. */
export class OpenCodeRefusal extends ToolgateError {
  constructor(message: string) {
    super("tool-refused", message);
  }
}

/** Carries out the adapter's answer: returning lets the call run, throwing refuses it. */
function enact(answer: OpenCodeAnswer): void {
  if (answer.action === "refuse") throw new OpenCodeRefusal(answer.message);
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
    const scope = {
      declared: (name: string) => names.has(name),
      roots: hookRoots(projectDir, undefined, bundle?.settings.roots),
      contextSchema: bundle?.contextSchema ?? null,
      aliases: bundle?.aliases ?? [],
    };
    return {
      "tool.execute.before": async (call, output) => {
        if (controller === undefined) {
          return enact(
            openCodeAdapter.failClosed.answer(
              "the toolgate configuration cannot be loaded (run toolgate lint)",
            ),
          );
        }
        const read = openCodeAdapter.read({ tool: call.tool, args: output.args });
        if (!read.ok) return enact(openCodeAdapter.failClosed.answer(read.reason));
        const decide = openCodeAdapter.decide;
        if (decide === undefined)
          return enact(openCodeAdapter.failClosed.answer("the opencode adapter cannot decide"));
        const calls = openCodeAdapter.toCalls(read.message, scope);
        return enact(openCodeAdapter.answer(decide(controller, calls), read.message));
      },
    };
  };
}

/** The plugin with the configuration found from the project directory: `export { ToolgatePlugin } from "toolgate/opencode"`. */
export const ToolgatePlugin = toolgatePlugin();
