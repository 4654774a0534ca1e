/**
 * The controller's approvals: an ask becomes a stored, recorded and announced request, or runs under a
 * remembered approval (grant) that covers it; a person's answer is taken from the store once and re-checked
 * against the configuration in force before anything runs; a request decided out of band is waited for.
 */
import {
  type ApprovalNotice,
  type ApprovalRequestedHook,
  NotificationError,
  type NotificationErrorHandler,
} from "../approval-notice.js";
import type { ApprovalStore, StoredApproval } from "../approval-store.js";
import type { PendingApprovals } from "../approvals.js";
import { hashCanonical } from "../canonical-json.js";
import { ApprovalError, isToolgateError } from "../errors.js";
import { type ApprovalGrant, describeGrantScope, grantApplies, hasGrants } from "../grants.js";
import { describeThrown } from "../plain-data.js";
import { errorResult, isPrepared } from "../tool-runtime.js";
import type {
  ApprovalRequest,
  ApprovalResponse,
  PolicyDecision,
  ResolveOptions,
  ToolCall,
  ToolContext,
  ToolResult,
} from "../types.js";
import { type AuditTrail, type DefectState, redactArguments } from "./audit-trail.js";
import { deniedMessage, recheckApproved } from "./decision.js";
import type { Execution, Runnable } from "./execution.js";
import { type Admission, type ContextCopy, EMPTY_CONTEXT, type Intake } from "./intake.js";
import type { Active } from "./settings.js";

/**
 * What `requestApproval` found when no person is needed now: `handle` will run the call (`allow`, or
 * `granted` under a remembered approval) or refuse it (`deny`, `invalid`).
 */
export interface ApprovalNotNeeded {
  readonly kind: "approval-not-needed";
  readonly action: "allow" | "granted" | "deny" | "invalid";
}

/** What the approval steps of one controller work with. */
export interface ApprovalFlowParts {
  readonly approvals: PendingApprovals;
  readonly active: () => Active;
  readonly trail: AuditTrail;
  readonly intake: Intake;
  readonly execution: Execution;
  readonly onApprovalRequested: ApprovalRequestedHook | undefined;
  readonly onNotificationError: NotificationErrorHandler | undefined;
}

/** Options of `waitForDecision`. */
export interface WaitOptions {
  readonly pollMs?: number;
  readonly signal?: AbortSignal;
  readonly context?: ToolContext;
}

/** The approval steps of one controller. */
export class ApprovalFlow {
  readonly #approvals: PendingApprovals;
  readonly #active: () => Active;
  readonly #trail: AuditTrail;
  readonly #intake: Intake;
  readonly #execution: Execution;
  readonly #onApprovalRequested: ApprovalRequestedHook | undefined;
  readonly #onNotificationError: NotificationErrorHandler;

  constructor(parts: ApprovalFlowParts) {
    this.#approvals = parts.approvals;
    this.#active = parts.active;
    this.#trail = parts.trail;
    this.#intake = parts.intake;
    this.#execution = parts.execution;
    this.#onApprovalRequested = parts.onApprovalRequested;
    this.#onNotificationError = parts.onNotificationError ?? warnNotificationError;
  }

  /** Stores, records and announces the request of an ask; a full store is an error result (fail closed). */
  async createRequest(
    call: ToolCall,
    context: ToolContext,
    decision: PolicyDecision,
    fingerprint: string,
  ): Promise<ToolResult | ApprovalRequest> {
    let request: ApprovalRequest;
    try {
      request = await this.#approvals.create(call, decision, context);
    } catch (error) {
      // A full store fails closed, and the model can be told so: nothing was stored, nothing ran.
      if (!isToolgateError(error) || error.code !== "store-full") throw error;
      const content = `needs a person's approval (${decision.reason}), but ${error.message}; nothing ran`;
      await this.#trail.record("call.rejected", call, fingerprint, { reason: content });
      return errorResult(call.callId, content);
    }
    await this.#trail.record("approval.requested", call, fingerprint, {
      outcome: { decision },
      approvalId: request.approvalId,
    });
    this.#notify(request, decision);
    return request;
  }

  /**
   * An ask that a person's remembered approval (a grant in the store) covers runs now: same tool, same
   * arguments, every asking statement covered, unexpired, unrevoked, and for a session grant the same session.
   * `undefined` when no grant applies (the caller then asks). A store that cannot be read fails closed.
   */
  async runGranted(
    call: ToolCall,
    context: ToolContext,
    decision: PolicyDecision,
    fingerprint: string,
    run: Runnable,
  ): Promise<ToolResult | undefined> {
    const grant = await this.findGrant(call, context, decision);
    if (grant === undefined) return undefined;
    await this.#trail.record("approval.granted", call, fingerprint, {
      grantId: grant.grantId,
      approver: grant.approver,
      reason: `remembered approval ${grant.grantId} (${describeGrantScope(grant)}, until ${new Date(grant.expiresAt).toISOString()})`,
    });
    return this.#execution.execute(run, context, fingerprint, { grantId: grant.grantId });
  }

  /** The remembered approval that covers an asked call, if any. A store that cannot be read fails closed. */
  async findGrant(
    call: ToolCall,
    context: ToolContext,
    decision: PolicyDecision,
  ): Promise<ApprovalGrant | undefined> {
    const store = this.#approvals.store;
    const maxMs = this.#active().grantMaxMs;
    if (!hasGrants(store) || maxMs === 0) return undefined;
    const check = {
      toolName: call.toolName,
      argumentsHash: hashCanonical(call.arguments ?? null),
      context,
      decision,
      now: this.#approvals.now(),
    };
    const grants = await store.findGrants(check.toolName, check.argumentsHash, check.now);
    // A grant made under a longer max_hours than the one in force ends where the setting now ends it.
    return grants.find((g) => check.now < g.createdAt + maxMs && grantApplies(g, check));
  }

  /**
   * Applies a person's answer (read at the boundary) to an approval request: taken from the store once,
   * then re-checked (prepared again against the current registry, decided again against the current policy,
   * read after the last write to the audit log). See `ToolController.resolve`.
   */
  async resolve(response: ApprovalResponse, current: ContextCopy | undefined): Promise<ToolResult> {
    let taken: Awaited<ReturnType<PendingApprovals["take"]>>;
    try {
      taken = await this.#approvals.take(response.approvalId);
    } catch (error) {
      if (error instanceof ApprovalError) await this.#recordRefusedTake(error);
      throw error;
    }
    const { request } = taken;
    const defect: DefectState = { recorded: false };
    let call: ToolCall = request.call;
    try {
      // A rejection a person recorded in the store (out of band) wins over any later answer: of two
      // answers, the stricter one holds.
      const answer = taken.response !== undefined && !taken.response.approved ? taken.response : response;
      const fingerprints = { approvalId: request.approvalId, requestFingerprint: request.policyFingerprint };
      const person = answer.approver === undefined ? "" : ` by ${answer.approver}`;
      const fingerprint = () => this.#active().policy.fingerprint;
      const waitedMs = Math.max(0, this.#approvals.now() - request.createdAt);
      if (!answer.approved) {
        await this.#trail.record("approval.rejected", call, fingerprint(), {
          ...fingerprints,
          waitedMs,
          ...(answer.approver === undefined ? {} : { approver: answer.approver }),
          reason: answer.reason ?? "no reason given",
        });
        return errorResult(
          call.callId,
          `the person rejected this call${person}: ${answer.reason ?? "no reason given"}`,
        );
      }
      // A durable store gives back parsed JSON; the memory store gives back the copy made by handle. Either
      // way it crosses the boundary again, and the hash is checked on what will run.
      const admitted = this.#intake.admit(request.call, request.context ?? EMPTY_CONTEXT);
      call = admitted.call;
      const refusal = !admitted.ok
        ? admitted.result.content
        : hashCanonical(call.arguments ?? null) !== request.argumentsHash
          ? "the stored call does not match the approved arguments; nothing ran"
          : undefined;
      if (refusal !== undefined) {
        await this.#trail.record("call.rejected", call, fingerprint(), { ...fingerprints, reason: refusal });
        return errorResult(call.callId, refusal);
      }
      const { context, prepare } = admitted as Admission & { ok: true };
      await this.#trail.record("approval.granted", call, fingerprint(), {
        ...fingerprints,
        waitedMs,
        // The grant given with the approval, as the store recorded it (never one a caller of resolve names).
        ...(taken.response?.approved === true && typeof taken.response.grantId === "string"
          ? { grantId: taken.response.grantId }
          : {}),
        ...(answer.approver === undefined ? {} : { approver: answer.approver }),
        ...(answer.reason === undefined ? {} : { reason: answer.reason }),
      });
      // The re-check reads the configuration after the last await before it: a reload that landed while the
      // approval was taken or recorded decides it.
      const { runtime, policy, mode } = this.#active();
      const prepared = runtime.prepare(call, prepare);
      const rejected = isPrepared(prepared) ? this.#intake.recheckContexts(call, context, current) : prepared;
      if (rejected !== undefined || !isPrepared(prepared)) {
        const result = rejected as ToolResult;
        await this.#trail.record("call.rejected", call, policy.fingerprint, {
          ...fingerprints,
          reason: result.content,
        });
        return result;
      }
      const outcome = recheckApproved(policy, prepared.call, context, current, mode);
      const { decision } = outcome;
      await this.#trail.record("policy.decided", call, policy.fingerprint, { ...fingerprints, outcome });
      if (decision.action === "deny") return errorResult(call.callId, deniedMessage(decision));
      return await this.#execution.execute(
        { runtime, prepared, defect },
        context,
        policy.fingerprint,
        fingerprints,
      );
    } catch (error) {
      await this.#trail.recordDefect(call, error, defect);
      throw error;
    }
  }

  /**
   * Waits until a person decided the request out of band, then resolves it with that decision through
   * `resolve` (the controller's, which reads the answer at the boundary).
   * @throws ApprovalError when the request is unknown, used or expired; an `AbortError` when aborted.
   */
  async waitForDecision(
    approvalId: string,
    options: WaitOptions,
    resolve: (response: ApprovalResponse, options?: ResolveOptions) => Promise<ToolResult>,
  ): Promise<ToolResult> {
    const pollMs = options.pollMs ?? 250;
    // The caller's facts now, as for resolve: the stricter decision of the stored and this context holds.
    const resolveOptions: ResolveOptions = options.context === undefined ? {} : { context: options.context };
    const store = this.#approvals.store as ApprovalStore & {
      waitForDecision?: (id: string, o: { pollMs?: number; signal?: AbortSignal }) => Promise<StoredApproval>;
    };
    for (;;) {
      options.signal?.throwIfAborted();
      const found = await this.#approvals.store.get(approvalId);
      if (!found.found) return resolve({ approvalId, approved: false });
      let approval = found.approval;
      if (approval.state === "pending" && typeof store.waitForDecision === "function") {
        // Durable stores wait efficiently (PostgreSQL: LISTEN/NOTIFY), also for decisions from other processes.
        approval = await store.waitForDecision(approvalId, {
          pollMs,
          ...(options.signal === undefined ? {} : { signal: options.signal }),
        });
      }
      if (approval.state === "approved" || approval.state === "rejected") {
        return resolve(
          approval.response ?? { approvalId, approved: approval.state === "approved" },
          resolveOptions,
        );
      }
      if (approval.state !== "pending" || this.#approvals.now() >= approval.request.expiresAt) {
        // Used or expired: resolve reports it with the right ApprovalError.
        return resolve({ approvalId, approved: false });
      }
      await new Promise<void>((done, fail) => {
        const timer = setTimeout(done, pollMs);
        options.signal?.addEventListener(
          "abort",
          () => {
            clearTimeout(timer);
            fail(options.signal?.reason);
          },
          { once: true },
        );
      });
    }
  }

  /**
   * Tells `onApprovalRequested` about a stored request, after the current turn: the hook's time and failures
   * never reach the decision.
   */
  #notify(request: ApprovalRequest, decision: PolicyDecision): void {
    const hook = this.#onApprovalRequested;
    if (hook === undefined) return;
    const { redact, mode } = this.#active();
    const args = redactArguments(request.call.arguments, redact.get(request.call.toolName));
    const notice: ApprovalNotice = {
      kind: "approval-requested",
      approvalId: request.approvalId,
      callId: request.call.callId,
      toolName: request.call.toolName,
      ...(args === undefined ? {} : { arguments: args }),
      context: request.context ?? EMPTY_CONTEXT,
      reason: request.reason,
      ruleIds: request.ruleIds,
      statements: decision.statements,
      policyFingerprint: request.policyFingerprint,
      mode,
      createdAt: new Date(request.createdAt).toISOString(),
      expiresAt: new Date(request.expiresAt).toISOString(),
    };
    const report = (thrown: unknown): void => {
      for (const error of notificationErrors(thrown, request.approvalId)) {
        try {
          this.#onNotificationError(error, notice);
        } catch {
          // A failing error handler must not become an unhandled rejection either.
        }
      }
    };
    setImmediate(() => {
      try {
        Promise.resolve(hook(notice)).catch(report);
      } catch (error) {
        report(error);
      }
    });
  }

  /** Records a refused take (used or expired) with the request's call, when the store still knows it. */
  async #recordRefusedTake(error: ApprovalError): Promise<void> {
    if (error.code === "not-found") return;
    const found = await this.#approvals.store.get(error.approvalId);
    if (!found.found) return;
    const request = found.approval.request;
    const details = { approvalId: error.approvalId, requestFingerprint: request.policyFingerprint };
    const fingerprint = this.#active().policy.fingerprint;
    const waitedMs = Math.max(0, this.#approvals.now() - request.createdAt);
    if (error.code === "expired")
      await this.#trail.record("approval.expired", request.call, fingerprint, { ...details, waitedMs });
    else
      await this.#trail.record("call.rejected", request.call, fingerprint, {
        ...details,
        reason: error.message,
      });
  }
}

/** The default `onNotificationError`: a process warning, so that a failing notifier is seen but never fatal. */
function warnNotificationError(error: NotificationError): void {
  process.emitWarning(error.message, { type: "ToolgateWarning", code: "TOOLGATE_NOTIFICATION" });
}

/** The hook's failure as a `NotificationError` (or several, for several notifiers). */
function notificationErrors(thrown: unknown, approvalId: string): NotificationError[] {
  if (thrown instanceof NotificationError) return [thrown];
  if (thrown instanceof AggregateError) {
    return thrown.errors.flatMap((error: unknown) => notificationErrors(error, approvalId));
  }
  return [
    new NotificationError("onApprovalRequested", approvalId, describeThrown(thrown), { cause: thrown }),
  ];
}
