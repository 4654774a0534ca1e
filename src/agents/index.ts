/**
 * `toolgate/agents`: toolgate in front of the tools of the OpenAI Agents SDK (`@openai/agents`, an optional
 * peer dependency). Every export of this file is public API.
 *
 * Each visible spec of a controller becomes an SDK function tool whose `needsApproval` and `execute` delegate
 * to the controller:
 * - allow: `execute` runs the controller's handler and returns its output;
 * - deny: the tool's output is the controller's error text (the reason and rule ids); nothing runs;
 * - ask: `needsApproval` stores a toolgate approval request (it never runs the handler, not even when a
 *   remembered approval covers the call: then it answers `false` and `execute` runs it) and answers `true`, so
 *   the run stops with an interruption; approving the interruption through `RunState` (`state.approve(item)` or `gate.approve`)
 *   lets the SDK call `execute`, which resolves toolgate's approval — taken once, and re-checked against the
 *   policy in force — and runs the handler. `gate.reject` records the rejection in toolgate too.
 */
import { randomUUID } from "node:crypto";
import { type FunctionTool, type RunContext, type RunToolApprovalItem, tool } from "@openai/agents";
import { NO_SCOPE } from "../hosts/host-adapter.js";
import { openAIAgentsAdapter } from "../hosts/openai-agents.js";
import { hashCanonical } from "../runtime/canonical-json.js";
import type { ToolController } from "../runtime/controller.js";
import { ApprovalError, ToolFailure } from "../runtime/errors.js";
import type { ApprovalRequest, ToolCall, ToolContext, ToolSpec } from "../runtime/types.js";

/** Options of `AgentsGate`. */
export interface AgentsGateOptions<TContext = unknown> {
  /** The caller facts (validated against the config's `context_schema`) for a run; default none. */
  readonly context?: (runContext: RunContext<TContext> | undefined) => ToolContext;
  /** Who approved, when an interruption is approved with `state.approve` alone (default `openai-agents`). */
  readonly approver?: string;
}

/** What the gate uses of a `RunState` (any `RunState` of any agent has it). */
export interface ApprovableState {
  approve(item: RunToolApprovalItem, options?: { alwaysApprove?: boolean }): void;
  reject(item: RunToolApprovalItem, options?: { alwaysReject?: boolean; message?: string }): void;
}

/** A person's decision on an interruption. */
export interface AgentsDecision {
  readonly approver?: string;
  readonly reason?: string;
}

const isApprovalRequest = (value: unknown): value is ApprovalRequest =>
  (value as ApprovalRequest).kind === "approval-request";

/** Where one tool call stands between `needsApproval` and `execute`: the request it waits for. */
type Pending = { readonly kind: "approval"; readonly approvalId: string; readonly argumentsHash: string };

/** toolgate in front of `@openai/agents` tools, over one controller. */
export class AgentsGate<TContext = unknown> {
  readonly controller: ToolController;
  readonly #options: AgentsGateOptions<TContext>;
  /** By the SDK's call id: the approval a call waits for, or the result the controller already gave it. */
  readonly #pending = new Map<string, Pending>();

  constructor(controller: ToolController, options: AgentsGateOptions<TContext> = {}) {
    this.controller = controller;
    this.#options = options;
  }

  /**
   * The SDK tools of the controller's visible specs (tools denied outright are not offered). Their JSON
   * schemas are the specs' input schemas, passed with `strict: false`; toolgate validates the arguments.
   */
  tools(): FunctionTool<TContext>[] {
    return this.controller.visibleSpecs().map((spec) => this.#tool(spec));
  }

  /**
   * Approves an interruption: records the approver in toolgate's approval store, then `state.approve(item)`.
   * The call runs once, when the run continues from `state`.
   */
  async approve(
    state: ApprovableState,
    item: RunToolApprovalItem,
    decision: AgentsDecision = {},
  ): Promise<void> {
    const approvalId = await this.#approvalIdOf(item);
    if (approvalId !== undefined) {
      await this.controller.approvals.store.respond(
        {
          approvalId,
          approved: true,
          approver: decision.approver ?? this.#options.approver ?? "openai-agents",
          ...(decision.reason === undefined ? {} : { reason: decision.reason }),
        },
        Date.now(),
      );
    }
    state.approve(item);
  }

  /**
   * Rejects an interruption: resolves toolgate's approval as rejected (audited; nothing runs), then
   * `state.reject(item)` with toolgate's rejection text as the message the model reads.
   */
  async reject(
    state: ApprovableState,
    item: RunToolApprovalItem,
    decision: AgentsDecision = {},
  ): Promise<void> {
    const approvalId = await this.#approvalIdOf(item);
    let message = `the person rejected this call: ${decision.reason ?? "no reason given"}`;
    if (approvalId !== undefined) {
      const result = await this.controller
        .resolve({
          approvalId,
          approved: false,
          approver: decision.approver ?? this.#options.approver ?? "openai-agents",
          ...(decision.reason === undefined ? {} : { reason: decision.reason }),
        })
        .catch((error: unknown) => {
          if (error instanceof ApprovalError) return undefined;
          throw error;
        });
      if (result !== undefined) message = result.content;
    }
    state.reject(item, { message });
  }

  /** The call and its caller context, read through the host's adapter. */
  #read(
    spec: ToolSpec,
    input: unknown,
    callId: string | undefined,
    runContext: RunContext<TContext> | undefined,
  ): { readonly call: ToolCall; readonly context: ToolContext } {
    const context = this.#options.context === undefined ? {} : this.#options.context(runContext);
    const read = openAIAgentsAdapter.read({ spec, input, callId, context });
    // The adapter reads every call the SDK hands over (the SDK parsed its arguments).
    if (!read.ok) throw new ToolFailure(openAIAgentsAdapter.failClosed.answer(read.reason));
    const canonical = openAIAgentsAdapter.toCalls(read.message, NO_SCOPE);
    return { call: canonical.calls[0] as ToolCall, context: canonical.context };
  }

  /** The toolgate approval id behind an interruption of one of these tools, if any. */
  async #approvalIdOf(item: RunToolApprovalItem): Promise<string | undefined> {
    const raw = item.rawItem as { callId?: unknown; arguments?: unknown };
    if (typeof raw.callId !== "string") return undefined;
    let input: unknown;
    try {
      input = typeof raw.arguments === "string" ? JSON.parse(raw.arguments) : {};
    } catch {
      return undefined;
    }
    const pending =
      this.#known(raw.callId, input) ?? (await this.#stored(item.name ?? "", raw.callId, input));
    return pending?.kind === "approval" ? pending.approvalId : undefined;
  }

  /** What a call already has in this process (for the same arguments). */
  #known(callId: string, input: unknown): Pending | undefined {
    const known = this.#pending.get(callId);
    return known !== undefined && known.argumentsHash === hashCanonical(input ?? null) ? known : undefined;
  }

  /**
   * The open request of a call in the store — after a `RunState` was restored in another process, the
   * (durable) store holds it — for the same call id, tool and arguments.
   */
  async #stored(toolName: string, callId: string, input: unknown): Promise<Pending | undefined> {
    const argumentsHash = hashCanonical(input ?? null);
    const open = await this.controller.approvals.store.list(["pending", "approved", "rejected"]);
    const found = open.find(
      (entry) =>
        entry.request.call.callId === callId &&
        entry.request.call.toolName === toolName &&
        entry.request.argumentsHash === argumentsHash,
    );
    return found === undefined
      ? undefined
      : { kind: "approval", approvalId: found.request.approvalId, argumentsHash };
  }

  #tool(spec: ToolSpec): FunctionTool<TContext> {
    return tool({
      name: spec.name,
      description: spec.description,
      parameters: spec.inputSchema as never,
      strict: false,
      // A defect (anything but a ToolFailure) fails the run instead of becoming a model-visible string.
      errorFunction: null,
      needsApproval: async (runContext, input, callId) => {
        const { call, context } = this.#read(spec, input, callId, runContext as RunContext<TContext>);
        // Asked again (the SDK re-evaluates after a state is restored): the call keeps what it has.
        const known = callId === undefined ? undefined : this.#known(callId, input);
        if (known !== undefined) return known.kind === "approval";
        const explained = this.controller.explain(call, context);
        // Allow, deny and invalid calls go to execute, where the controller answers them.
        if (!("decision" in explained) || explained.decision.action !== "ask") return false;
        // A state restored in another process: its request is in the (durable) store.
        const stored = callId === undefined ? undefined : await this.#stored(spec.name, callId, input);
        if (stored !== undefined) {
          this.#pending.set(call.callId, stored);
          return true;
        }
        // Decide and store the request, never run: a call a remembered approval covers (or that the policy
        // now allows or refuses) needs no interruption, and execute runs or refuses it through handle.
        const outcome = await this.controller.requestApproval(call, context);
        if (!isApprovalRequest(outcome)) return false;
        const argumentsHash = hashCanonical(input ?? null);
        this.#pending.set(call.callId, { kind: "approval", approvalId: outcome.approvalId, argumentsHash });
        return true;
      },
      execute: async (input, runContext, details) => {
        const callId = details?.toolCall?.callId;
        const { call, context } = this.#read(spec, input, callId, runContext as RunContext<TContext>);
        let pending = callId === undefined ? undefined : this.#known(callId, input);
        if (pending === undefined && callId !== undefined) {
          // Only an asked call can have a request in the store; other calls skip the look-up.
          const explained = this.controller.explain(call, context);
          if ("decision" in explained && explained.decision.action === "ask")
            pending = await this.#stored(spec.name, callId, input);
        }
        if (callId !== undefined) this.#pending.delete(callId);
        if (pending?.kind === "approval") {
          // `alwaysApprove` approves every later call of the tool at once; a toolgate ask needs a person's
          // approval per call. A call id nobody approved shows whether the SDK's approval is such a blanket one.
          const blanket =
            runContext?.isToolApproved({ toolName: spec.name, callId: `toolgate_probe_${randomUUID()}` }) ===
            true;
          if (blanket && !(await this.#approvedInStore(pending.approvalId))) {
            return this.#refuseBlanket(pending.approvalId);
          }
          return this.#resolveApproved(pending.approvalId);
        }
        return openAIAgentsAdapter.answer(await this.controller.handle(call, context), { call, context });
      },
    }) as FunctionTool<TContext>;
  }

  async #approvedInStore(approvalId: string): Promise<boolean> {
    const stored = await this.controller.approvals.store.get(approvalId);
    return stored.found && stored.approval.state === "approved";
  }

  /** An approval given only by `alwaysApprove`: toolgate's request is rejected (audited), and nothing runs. */
  async #refuseBlanket(approvalId: string): Promise<string> {
    const reason =
      "approved only with alwaysApprove, which toolgate does not honour: each asked call needs its own approval";
    try {
      const result = await this.controller.resolve({ approvalId, approved: false, reason });
      return result.content;
    } catch (error) {
      if (error instanceof ApprovalError) return `${error.message}; nothing ran`;
      throw error;
    }
  }

  /** The SDK approved the interruption: take toolgate's approval once and run the re-checked call. */
  async #resolveApproved(approvalId: string): Promise<string> {
    const stored = await this.controller.approvals.store.get(approvalId);
    const response = stored.found ? stored.approval.response : undefined;
    try {
      const result = await this.controller.resolve({
        approvalId,
        approved: true,
        approver: response?.approver ?? this.#options.approver ?? "openai-agents",
        ...(response?.reason === undefined ? {} : { reason: response.reason }),
      });
      return result.content;
    } catch (error) {
      if (error instanceof ApprovalError) return `${error.message}; nothing ran`;
      throw error;
    }
  }
}
