/**
 * `toolgate/claude-agent-sdk`: toolgate in front of the tools of the Claude Agent SDK
 * (`@anthropic-ai/claude-agent-sdk`, an optional peer dependency). Every export of this file is public API.
 *
 * The SDK runs its tools itself (Bash, Read, Edit, MCP tools, …); toolgate decides whether each may run, with
 * the Claude Code pack's tool specs (policies/packs/claude-code) or your own, and reads the SDK's calls exactly
 * as `toolgate hook claude-code` reads Claude Code's (paths against the project directory, MCP tools through
 * the pack's `MCP` stand-in unless declared by name). Two entry points, used together or alone:
 * - `hooks()`: an in-process `PreToolUse` hook that answers allow, deny or ask — the SDK evaluates it before
 *   its own deny and ask rules, and an ask reaches `canUseTool`;
 * - `canUseTool`: the permission callback. Allow → `{ behavior: "allow" }` with the exact input; deny →
 *   `{ behavior: "deny" }` with toolgate's reason; ask → a toolgate approval request, answered by your
 *   `decide` callback (your UI) or, without one, by a person out of band (`toolgate approvals approve`, the
 *   inbox) while the SDK waits; the answer is taken once, re-checked against the policy in force and audited,
 *   and only then does the SDK run the call, with exactly the approved input.
 *
 * The controller's handlers are releases, not tool code: `releaseHandlers` gives one per tool, so that
 * toolgate's audit records each released call (`tool.executed`) while the SDK runs it.
 *
 * Each call is read, turned into canonical calls and answered through the host's adapter
 * (`hosts/claude-agent-sdk.ts`); it fails closed through the adapter's `failClosed`.
 */
import type {
  CanUseTool,
  HookCallback,
  HookCallbackMatcher,
  HookEvent,
  PermissionResult,
} from "@anthropic-ai/claude-agent-sdk";
import {
  type ClaudeAgentMessage,
  type ClaudeAgentReading,
  claudeAgentHookOutput,
  claudeAgentSdkAdapter,
  decideClaudeAgentCalls,
} from "../hosts/claude-agent-sdk.js";
import type { FrameworkOutcome } from "../hosts/framework-outcome.js";
import type { ToolController } from "../runtime/controller.js";
import type { HandlerMap } from "../runtime/handlers.js";
import type { ApprovalRequest, ToolContext, ToolResult } from "../runtime/types.js";
import { ApprovalBridge, type FrameworkDecision, isApprovalRequest } from "./approval-bridge.js";
import { importPeer } from "./peer.js";

// Types only are used from the SDK; the import checks that it is installed, with a clear error if not.
await importPeer(
  "@anthropic-ai/claude-agent-sdk",
  "toolgate/claude-agent-sdk",
  "@anthropic-ai/claude-agent-sdk",
);

/** Options of `ClaudeAgentGate`. */
export interface ClaudeAgentGateOptions {
  /** The project directory the SDK works in (its `cwd` option); paths inside it reach rules relative to it. */
  readonly projectDir: string;
  /**
   * Asks a person about a call toolgate holds (your UI). Without it, the gate waits until someone decides the
   * request out of band (`toolgate approvals approve|reject`, the approvals inbox) — use a durable store then.
   */
  readonly decide?: (
    request: ApprovalRequest,
    options: { signal: AbortSignal },
  ) => Promise<FrameworkDecision>;
  /** Who approved, when a decision names nobody (default `claude-agent-sdk`). */
  readonly approver?: string;
  /** The caller facts (validated against the config's `context_schema`) for every call. */
  readonly context?: ToolContext;
  /** Stop the whole run when a person rejects a call (`interrupt: true`); default false. */
  readonly interruptOnReject?: boolean;
}

/**
 * One release per tool for a controller whose tools the SDK runs: the handler returns the validated arguments
 * as JSON, so that the controller's audit records the release.
 */
export function releaseHandlers(toolNames: Iterable<string>): HandlerMap {
  const release = (args: unknown) => JSON.stringify(args);
  return Object.fromEntries([...toolNames].map((name) => [name, release]));
}

/** toolgate in front of the Claude Agent SDK's tools, over one controller. */
export class ClaudeAgentGate {
  readonly controller: ToolController;
  readonly #bridge: ApprovalBridge;
  readonly #options: ClaudeAgentGateOptions;
  #fallbackIds = 0;

  constructor(controller: ToolController, options: ClaudeAgentGateOptions) {
    this.controller = controller;
    this.#options = options;
    this.#bridge = new ApprovalBridge(controller, options.approver ?? "claude-agent-sdk");
  }

  /** The `hooks` option for `query()`: a `PreToolUse` hook that answers toolgate's decision. */
  hooks(): Partial<Record<HookEvent, HookCallbackMatcher[]>> {
    return { PreToolUse: [{ hooks: [this.preToolUse] }] };
  }

  /** The in-process `PreToolUse` hook (allow, deny or ask; an ask reaches `canUseTool`). */
  readonly preToolUse: HookCallback = async (input, toolUseID) => {
    if (input.hook_event_name !== "PreToolUse") return {};
    const read = this.#read(input.tool_name, input.tool_input, toolUseID ?? input.tool_use_id);
    return claudeAgentHookOutput(read.ok ? read.reading : { action: "deny", reason: read.reason });
  };

  /** The `canUseTool` option for `query()`. */
  readonly canUseTool: CanUseTool = async (toolName, input, options) => {
    const read = this.#read(toolName, input, options.toolUseID);
    if (!read.ok) return claudeAgentSdkAdapter.failClosed.answer(read.reason);
    const { message, reading } = read;
    const context = message.context;
    if (reading.action === "deny") return this.#release(message, denied(reading.reason));
    if (reading.action === "allow") {
      return this.#release(message, await this.#bridge.execute(reading.call, context, undefined));
    }
    const step = await this.#bridge.request(reading.call, context);
    if (!isApprovalRequest(step)) {
      // A remembered approval covers it, or the policy changed since the reading: handle decides now.
      return this.#release(message, await this.#bridge.execute(reading.call, context, undefined));
    }
    const result = await this.#answer(step, options.signal);
    const permission = this.#release(message, result);
    if (permission.behavior === "deny" && this.#options.interruptOnReject === true) {
      return { ...permission, interrupt: true };
    }
    return permission;
  };

  /** The person's answer, taken once and re-checked (the store's recorded answer wins over `decide`'s). */
  async #answer(request: ApprovalRequest, signal: AbortSignal): Promise<ToolResult> {
    const decide = this.#options.decide;
    if (decide === undefined) {
      return this.controller.waitForDecision(request.approvalId, {
        signal,
        context: this.#options.context ?? {},
      });
    }
    let decision: FrameworkDecision;
    try {
      decision = await decide(request, { signal });
    } catch (error) {
      // No answer is a rejection: the call does not run.
      decision = { approved: false, reason: `no decision (${(error as Error).message ?? String(error)})` };
    }
    return this.#bridge.resolve(request.approvalId, decision, this.#options.context);
  }

  /** The SDK's permission for an outcome, written by the host's adapter: allow with the exact input, or deny. */
  #release(message: ClaudeAgentMessage, outcome: FrameworkOutcome): PermissionResult {
    return claudeAgentSdkAdapter.answer(outcome, message);
  }

  /** The SDK call read through the host's adapter, and what toolgate decides for it. */
  #read(
    toolName: string,
    input: unknown,
    toolUseId: string | undefined,
  ):
    | { readonly ok: true; readonly message: ClaudeAgentMessage; readonly reading: ClaudeAgentReading }
    | { readonly ok: false; readonly reason: string } {
    const projectDir = this.#options.projectDir;
    const read = claudeAgentSdkAdapter.read({
      toolName,
      input,
      toolUseId,
      nextCallId: () => `claude-agent-sdk_${this.#fallbackIds++}`,
      projectDir,
      context: this.#options.context ?? {},
    });
    if (!read.ok) return read;
    const registry = this.controller.runtime.registry;
    const canonical = claudeAgentSdkAdapter.toCalls(read.message, {
      declared: (name) => registry.resolve(name).found,
      roots: [projectDir],
      contextSchema: null,
    });
    return { ok: true, message: read.message, reading: decideClaudeAgentCalls(this.controller, canonical) };
  }
}

/** A refusal as the controller's result, so that the adapter writes it (nothing ran). */
function denied(reason: string): ToolResult {
  return { callId: "claude-agent-sdk", content: reason, isError: true };
}
