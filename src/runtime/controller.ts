/**
 * `ToolController`, the gate, and its call intake: each public method takes a call (or a person's answer)
 * through the input boundary, reads the configuration in force in one step, and hands it on to the decision,
 * the approvals and the execution with its audit trail (`./controller/`).
 */
import { PendingApprovals } from "./approvals.js";
import { ApprovalFlow, type ApprovalNotNeeded } from "./controller/approval-flow.js";
import { AuditTrail, type DefectState } from "./controller/audit-trail.js";
import { decideInMode, deniedMessage } from "./controller/decision.js";
import { Execution, type Runnable } from "./controller/execution.js";
import { type Admission, EMPTY_CONTEXT, Intake, readResponse } from "./controller/intake.js";
import {
  type Active,
  assertPositiveInteger,
  type ControllerReload,
  initialActive,
  MAX_TIMEOUT_MS,
  type OnAsk,
  reloadedActive,
  type ToolControllerOptions,
} from "./controller/settings.js";
import type { ControllerMode } from "./mode.js";
import { DEFAULT_MAX_ARGUMENT_BYTES } from "./plain-data.js";
import type { ExplainedDecision, ToolPolicy } from "./policy.js";
import { errorResult, isPrepared, type ToolRuntime } from "./tool-runtime.js";
import type {
  ApprovalRequest,
  ApprovalResponse,
  PolicyDecision,
  ResolveOptions,
  ToolCall,
  ToolContext,
  ToolResult,
  ToolSpec,
} from "./types.js";

export type { ApprovalNotNeeded } from "./controller/approval-flow.js";
export { redactArguments } from "./controller/audit-trail.js";
export { deniedMessage } from "./controller/decision.js";
export type {
  AuditRedaction,
  ControllerReload,
  OnAsk,
  ToolControllerOptions,
} from "./controller/settings.js";

/**
 * The gate. `handle` prepares a call, asks the policy, and runs the handler only for `allow`; `ask` stores
 * an approval request; `resolve` consumes an approval once and re-checks it against the current registry
 * and policy before running anything.
 *
 * Input boundary: `handle` and `resolve` first copy the call's arguments and the context into deeply
 * frozen plain JSON data (see `copyPlainData`); the validator, the policy, the approval request and the
 * handler all see that copy, never the caller's objects.
 *
 * Error boundary: neither `handle` nor `resolve` throws synchronously. A handler's `ToolFailure` becomes an
 * error result; anything else thrown on the way (a defect) is recorded as `tool.defect` and re-thrown
 * unchanged through the returned promise.
 */
export class ToolController {
  #active: Active;
  readonly approvals: PendingApprovals;
  readonly onAsk: OnAsk;
  readonly #intake: Intake;
  readonly #trail: AuditTrail;
  readonly #execution: Execution;
  readonly #flow: ApprovalFlow;

  /**
   * @throws InvalidOptionError when `maxArgumentBytes` or `handlerTimeoutMs` is not a positive whole number;
   *   ToolgateError `invalid-option` for an unknown `mode`.
   */
  constructor(options: ToolControllerOptions) {
    this.#active = initialActive(options);
    this.approvals = options.approvals ?? new PendingApprovals();
    this.onAsk = options.onAsk ?? "queue";
    const maxArgumentBytes = options.maxArgumentBytes ?? DEFAULT_MAX_ARGUMENT_BYTES;
    assertPositiveInteger("maxArgumentBytes", maxArgumentBytes, Number.MAX_SAFE_INTEGER);
    const handlerTimeoutMs = options.handlerTimeoutMs;
    if (handlerTimeoutMs !== undefined) {
      assertPositiveInteger("handlerTimeoutMs", handlerTimeoutMs, MAX_TIMEOUT_MS);
    }
    const active = (): Active => this.#active;
    this.#intake = new Intake(maxArgumentBytes, () => this.#active.contextValidator);
    this.#trail = new AuditTrail(options.audit, active);
    this.#execution = new Execution(this.#trail, handlerTimeoutMs);
    this.#flow = new ApprovalFlow({
      approvals: this.approvals,
      active,
      trail: this.#trail,
      intake: this.#intake,
      execution: this.#execution,
      onApprovalRequested: options.onApprovalRequested,
      onNotificationError: options.onNotificationError,
    });
  }

  /** The policy in force now. */
  get policy(): ToolPolicy {
    return this.#active.policy;
  }

  /** The enforcement mode in force now. */
  get mode(): ControllerMode {
    return this.#active.mode;
  }

  /** The runtime (registry) in force now. */
  get runtime(): ToolRuntime {
    return this.#active.runtime;
  }

  /**
   * Swaps policy, runtime, context validator, audit redaction and mode in one step: calls already past their
   * decision finish under the old configuration; every later decision, and every later approval re-check,
   * uses the new one. An omitted part stays as it is.
   * @throws ToolgateError `invalid-option` for an unknown mode (nothing is swapped then).
   */
  reload(next: ControllerReload): void {
    this.#active = reloadedActive(this.#active, next);
  }

  /** The specs the model may see: every registered tool that the policy does not deny outright. */
  visibleSpecs(): readonly ToolSpec[] {
    const { runtime, policy } = this.#active;
    return runtime.registry.specs.filter((spec) => !policy.isDeniedOutright(spec.name));
  }

  /**
   * Decides a call as `handle` would, without running or storing anything, with every statement considered.
   * @throws InvalidInputError when the call has no string `callId`.
   */
  explain(call: ToolCall, context: ToolContext = EMPTY_CONTEXT): ExplainedDecision | ToolResult {
    const admitted = this.#intake.admit(call, context);
    if (!admitted.ok) return admitted.result;
    const { runtime, policy } = this.#active;
    const prepared = runtime.prepare(admitted.call, admitted.prepare);
    if (!isPrepared(prepared)) return prepared;
    return (
      this.#intake.checkContext(prepared.call, admitted.context) ??
      policy.explain(prepared.call, admitted.context)
    );
  }

  /**
   * Handles one proposed call. Never throws synchronously.
   * @returns the tool's result, an error result (unknown tool, arguments that are not plain data, too
   *   large or invalid, a bad context, denied, failed, timed out), or an `ApprovalRequest` when a person
   *   must approve first.
   * @throws (rejects with) whatever a handler throws that is not a `ToolFailure` (a defect, unchanged),
   *   `StoreUnavailableError` when the approval store or audit sink cannot be reached (nothing runs then),
   *   and `InvalidInputError` when the call has no string `callId`.
   */
  handle(call: ToolCall, context: ToolContext = EMPTY_CONTEXT): Promise<ToolResult | ApprovalRequest> {
    try {
      // The boundary comes before any await: a caller changing its objects later changes nothing.
      const admitted = this.#intake.admit(call, context);
      if (this.#trail.sink !== undefined) return this.#handleAudited(admitted);
      // Without an audit sink nothing needs to wait before the handler: the allowed path is synchronous up to it.
      if (!admitted.ok) return Promise.resolve(admitted.result);
      const { runtime, policy, mode } = this.#active;
      const prepared = runtime.prepare(admitted.call, admitted.prepare);
      if (!isPrepared(prepared)) return Promise.resolve(prepared);
      const rejected = this.#intake.checkContext(prepared.call, admitted.context);
      if (rejected !== undefined) return Promise.resolve(rejected);
      const { decision } = decideInMode(policy, prepared.call, admitted.context, mode);
      if (decision.action === "allow") {
        return this.#execution.runHandler(runtime, prepared, admitted.context);
      }
      return this.#afterDecision(prepared.call, admitted.context, decision, policy.fingerprint, {
        runtime,
        prepared,
        defect: { recorded: false },
      });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Decides a call as `handle` does and never runs it: the approval step of a framework whose approval step
   * comes before its execute step (AI SDK's `needsApproval`, a LangGraph interrupt, OpenAI Agents'
   * `needsApproval`). An ask that no remembered approval covers becomes a stored request — audited and
   * notified as in `handle` — returned for the framework to show; every other outcome is an
   * `ApprovalNotNeeded` saying what `handle` would do, and the framework's execute step calls `handle`, which
   * runs, refuses or (under a grant) runs the call then.
   * @throws (rejects with) `StoreUnavailableError` when the store or audit sink cannot be reached, and
   *   `InvalidInputError` when the call has no string `callId`.
   */
  async requestApproval(
    call: ToolCall,
    context: ToolContext = EMPTY_CONTEXT,
  ): Promise<ApprovalRequest | ApprovalNotNeeded> {
    const admitted = this.#intake.admit(call, context);
    if (!admitted.ok) return { kind: "approval-not-needed", action: "invalid" };
    const { runtime, policy, mode } = this.#active;
    const prepared = runtime.prepare(admitted.call, admitted.prepare);
    if (!isPrepared(prepared) || this.#intake.checkContext(prepared.call, admitted.context) !== undefined) {
      return { kind: "approval-not-needed", action: "invalid" };
    }
    const outcome = decideInMode(policy, prepared.call, admitted.context, mode);
    const { decision } = outcome;
    if (decision.action !== "ask") return { kind: "approval-not-needed", action: decision.action };
    if (this.onAsk === "deny") return { kind: "approval-not-needed", action: "deny" };
    if ((await this.#flow.findGrant(prepared.call, admitted.context, decision)) !== undefined) {
      return { kind: "approval-not-needed", action: "granted" };
    }
    await this.#trail.record("call.received", prepared.call, policy.fingerprint, { withArguments: true });
    await this.#trail.record("policy.decided", prepared.call, policy.fingerprint, { outcome });
    const result = await this.#flow.createRequest(
      prepared.call,
      admitted.context,
      decision,
      policy.fingerprint,
    );
    return "kind" in result ? result : { kind: "approval-not-needed", action: "deny" };
  }

  async #handleAudited(admitted: Admission): Promise<ToolResult | ApprovalRequest> {
    const call = admitted.call;
    const defect: DefectState = { recorded: false };
    try {
      await this.#trail.record("call.received", call, this.#active.policy.fingerprint, {
        withArguments: true,
      });
      // Read the configuration only after the await: a reload that landed meanwhile must decide this call.
      const { runtime, policy, mode } = this.#active;
      const prepared = admitted.ok ? runtime.prepare(call, admitted.prepare) : admitted.result;
      const rejected =
        isPrepared(prepared) && admitted.ok ? this.#intake.checkContext(call, admitted.context) : prepared;
      if (rejected !== undefined || !isPrepared(prepared) || !admitted.ok) {
        const result = rejected as ToolResult;
        await this.#trail.record("call.rejected", call, policy.fingerprint, { reason: result.content });
        return result;
      }
      const outcome = decideInMode(policy, prepared.call, admitted.context, mode);
      const { decision } = outcome;
      await this.#trail.record("policy.decided", call, policy.fingerprint, { outcome });
      const run: Runnable = { runtime, prepared, defect };
      if (decision.action === "allow") {
        return await this.#execution.execute(run, admitted.context, policy.fingerprint, {});
      }
      return await this.#afterDecision(call, admitted.context, decision, policy.fingerprint, run);
    } catch (error) {
      await this.#trail.recordDefect(call, error, defect);
      throw error;
    }
  }

  /** Deny and ask (the callers run allow themselves), after the decision was recorded. */
  async #afterDecision(
    call: ToolCall,
    context: ToolContext,
    decision: PolicyDecision,
    fingerprint: string,
    run: Runnable,
  ): Promise<ToolResult | ApprovalRequest> {
    if (decision.action !== "ask") return errorResult(call.callId, deniedMessage(decision));
    if (this.onAsk === "deny") {
      const content = `needs a person's approval (${decision.reason}), and none is available here (onAsk: deny)`;
      await this.#trail.record("call.rejected", call, fingerprint, { reason: content });
      return errorResult(call.callId, content);
    }
    const granted = await this.#flow.runGranted(call, context, decision, fingerprint, run);
    if (granted !== undefined) return granted;
    return this.#flow.createRequest(call, context, decision, fingerprint);
  }

  /**
   * Applies a person's answer to an approval request. Never throws synchronously. The request is taken from
   * the store once; an approval is then re-checked (prepared again against the current registry, decided
   * again against the current policy, read after the last write to the audit log): a deny now wins over the
   * approval. A rejection already recorded in the store (for example by `toolgate approvals reject`) wins over
   * an approving `response`.
   *
   * With `options.context`, the caller's facts now are validated like `handle`'s context and the re-check
   * decides with both the stored and the current context: the stricter decision holds. The handler receives
   * the stored context, the one the person approved.
   * @throws (rejects with) ApprovalError `not-found`, `already-used` or `expired` (the last two are
   *   audited); `StoreUnavailableError`; `InvalidInputError` for a response without a string `approvalId`
   *   or a boolean `approved`; handler defects, unchanged.
   */
  resolve(response: ApprovalResponse, options: ResolveOptions = {}): Promise<ToolResult> {
    try {
      const answer = readResponse(response);
      // Copied before the first await, as in handle.
      const current =
        options === null || typeof options !== "object" || options.context === undefined
          ? undefined
          : this.#intake.copyContext(options.context);
      return this.#flow.resolve(answer, current);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Waits until a person decided the request out of band (for example with `toolgate approvals approve`
   * on a durable store), then resolves it with that decision (and `options.context`, as `resolve` takes it).
   * @throws ApprovalError when the request is unknown, used or expired; an `AbortError` when aborted.
   */
  waitForDecision(
    approvalId: string,
    options: { readonly pollMs?: number; readonly signal?: AbortSignal; readonly context?: ToolContext } = {},
  ): Promise<ToolResult> {
    return this.#flow.waitForDecision(approvalId, options, (answer, resolveOptions) =>
      this.resolve(answer, resolveOptions),
    );
  }
}
