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
 */
import type {
  CanUseTool,
  HookCallback,
  HookCallbackMatcher,
  HookEvent,
  PermissionResult,
} from "@anthropic-ai/claude-agent-sdk";
import { type ClaudeCodePreToolUseInput, hookCalls } from "../adapters/claude-code-hook.js";
import { linkTarget } from "../adapters/hook-payload.js";
import type { ToolController } from "../runtime/controller.js";
import type { HandlerMap } from "../runtime/handlers.js";
import { applyMode } from "../runtime/mode.js";
import { ACTION_RANK } from "../runtime/statements.js";
import type { ApprovalRequest, PolicyAction, ToolCall, ToolContext, ToolResult } from "../runtime/types.js";
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

/** What toolgate decided for one SDK call (the strictest over the calls that stand for it). */
interface Reading {
  readonly action: PolicyAction;
  readonly reason: string;
  /** The call that decided: the one to run or to ask about. */
  readonly call: ToolCall;
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
    const reading = this.#read(input.tool_name, input.tool_input, toolUseID ?? input.tool_use_id);
    return {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: reading.action,
        permissionDecisionReason: reading.reason,
      },
    };
  };

  /** The `canUseTool` option for `query()`. */
  readonly canUseTool: CanUseTool = async (toolName, input, options) => {
    const reading = this.#read(toolName, input, options.toolUseID);
    const context = this.#options.context ?? {};
    if (reading.action === "deny") return deny(reading.reason, options.toolUseID);
    if (reading.action === "allow") {
      return this.#release(
        await this.#bridge.execute(reading.call, context, undefined),
        input,
        options.toolUseID,
      );
    }
    const step = await this.#bridge.request(reading.call, context);
    if (!isApprovalRequest(step)) {
      // A remembered approval covers it, or the policy changed since the reading: handle decides now.
      return this.#release(
        await this.#bridge.execute(reading.call, context, undefined),
        input,
        options.toolUseID,
      );
    }
    const result = await this.#answer(step, options.signal);
    const permission = this.#release(result, input, options.toolUseID);
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

  /** The SDK's permission for a result: allow with the exact input after a release, deny otherwise. */
  #release(
    outcome: ToolResult | ApprovalRequest,
    input: Record<string, unknown>,
    toolUseID: string,
  ): PermissionResult {
    if (isApprovalRequest(outcome)) {
      return deny(
        `needs a person's approval (${outcome.reason}); approval ${outcome.approvalId} is waiting`,
        toolUseID,
      );
    }
    if (outcome.isError) return deny(outcome.content, toolUseID);
    return { behavior: "allow", updatedInput: structuredClone(input), toolUseID };
  }

  /** The calls that stand for one SDK call, decided as `handle` would (mode applied); the strictest wins. */
  #read(toolName: string, input: unknown, toolUseId: string | undefined): Reading {
    const payload = {
      session_id: "",
      transcript_path: "",
      cwd: this.#options.projectDir,
      hook_event_name: "PreToolUse",
      tool_name: toolName,
      tool_input: input,
      tool_use_id: toolUseId ?? `claude-agent-sdk_${this.#fallbackIds++}`,
    } satisfies ClaudeCodePreToolUseInput;
    const registry = this.controller.runtime.registry;
    const calls = hookCalls(
      payload,
      (name) => registry.resolve(name).found,
      this.#options.projectDir,
      linkTarget,
    );
    let reading: Reading | undefined;
    for (const call of calls) {
      const explained = this.controller.explain(call, this.#options.context ?? {});
      const next: Reading =
        "callId" in explained
          ? {
              action: "deny",
              reason: `toolgate cannot read this call (${explained.content}), so it does not run`,
              call,
            }
          : { ...describe(applyMode(explained.decision, this.controller.mode).decision), call };
      if (reading === undefined || ACTION_RANK[next.action] > ACTION_RANK[reading.action]) reading = next;
    }
    return (
      reading ?? {
        action: "deny",
        reason: "toolgate found no call to decide, so it does not run",
        call: calls[0] as ToolCall,
      }
    );
  }
}

function describe(decision: { action: PolicyAction; reason: string; ruleIds: readonly string[] }) {
  const rules = decision.ruleIds.length === 0 ? "" : ` [${decision.ruleIds.join(", ")}]`;
  return { action: decision.action, reason: `${decision.reason}${rules}` };
}

function deny(message: string, toolUseID: string): PermissionResult {
  return { behavior: "deny", message, toolUseID };
}
