import type { ApprovalStore, StoredApproval } from "./approval-store.js";
import { PendingApprovals } from "./approvals.js";
import type { AuditEvent, AuditEventType, AuditSink } from "./audit.js";
import { hashCanonical } from "./canonical-json.js";
import type { ExplainedDecision, ToolPolicy } from "./policy.js";
import { errorResult, formatArgumentIssues, isPrepared, type ToolRuntime } from "./tool-runtime.js";
import type {
  ApprovalRequest,
  ApprovalResponse,
  ArgumentValidator,
  PolicyDecision,
  PreparedToolCall,
  ToolCall,
  ToolContext,
  ToolResult,
  ToolSpec,
} from "./types.js";

const EMPTY_CONTEXT: ToolContext = Object.freeze({});

/** What to do with an `ask` decision: queue it for a person (default), or deny it when nobody can answer. */
export type OnAsk = "queue" | "deny";

/** Per tool: the argument fields (dotted paths) the audit log replaces with `"[redacted]"`, or `"all"`. */
export type AuditRedaction = ReadonlyMap<string, "all" | readonly string[]>;

/** Options of `ToolController`. */
export interface ToolControllerOptions {
  readonly runtime: ToolRuntime;
  readonly policy: ToolPolicy;
  /** Pending approvals; in memory unless given. */
  readonly approvals?: PendingApprovals;
  /** Where each step is recorded; nothing is recorded unless given. */
  readonly audit?: AuditSink;
  readonly redact?: AuditRedaction;
  readonly onAsk?: OnAsk;
  /**
   * Validates the caller context against the config's `context_schema`. A context that fails it never
   * reaches the policy: the call gets an error result (a misspelt fact must not silently skip a rule).
   */
  readonly contextValidator?: ArgumentValidator;
}

/**
 * Everything a reload swaps, in one step: a new configuration brings all of it, or none of it applies.
 * `contextValidator: null` means the new configuration declares no `context_schema`.
 */
export interface ControllerReload {
  readonly policy: ToolPolicy;
  /** Omitted: the runtime stays. */
  readonly runtime?: ToolRuntime;
  /** Omitted: the context validator stays; `null`: the new configuration has none. */
  readonly contextValidator?: ArgumentValidator | null;
  /** Omitted: the audit redaction stays. */
  readonly redact?: AuditRedaction;
}

interface Active {
  readonly runtime: ToolRuntime;
  readonly policy: ToolPolicy;
  readonly contextValidator: ArgumentValidator | undefined;
  readonly redact: AuditRedaction;
}

/** Replaces the named fields of plain-data arguments with `"[redacted]"`. */
export function redactArguments(args: unknown, fields: "all" | readonly string[] | undefined): unknown {
  if (fields === undefined) return args;
  if (fields === "all") return undefined;
  if (args === null || typeof args !== "object" || Array.isArray(args)) return args;
  const copy = structuredClone(args) as Record<string, unknown>;
  for (const field of fields) {
    const path = field.split(".");
    let target: unknown = copy;
    for (let i = 0; i < path.length - 1; i++) {
      target =
        target !== null && typeof target === "object"
          ? (target as Record<string, unknown>)[path[i] as string]
          : null;
    }
    const last = path[path.length - 1] as string;
    if (target !== null && typeof target === "object" && Object.hasOwn(target, last)) {
      (target as Record<string, unknown>)[last] = "[redacted]";
    }
  }
  return copy;
}

/** The message a denied call's error result carries: the reason and the deciding rule ids. */
export function deniedMessage(decision: PolicyDecision): string {
  const rules = decision.ruleIds.length === 0 ? "" : ` (rule: ${decision.ruleIds.join(", ")})`;
  return `denied by policy: ${decision.reason}${rules}`;
}

/**
 * The gate. `handle` prepares a call, asks the policy, and runs the handler only for `allow`; `ask` stores
 * an approval request; `resolve` consumes an approval once and re-checks it against the current registry
 * and policy before running anything.
 */
export class ToolController {
  #active: Active;
  readonly approvals: PendingApprovals;
  readonly #audit: AuditSink | undefined;
  readonly onAsk: OnAsk;

  constructor(options: ToolControllerOptions) {
    this.#active = {
      runtime: options.runtime,
      policy: options.policy,
      contextValidator: options.contextValidator,
      redact: options.redact ?? new Map(),
    };
    this.approvals = options.approvals ?? new PendingApprovals();
    this.#audit = options.audit;
    this.onAsk = options.onAsk ?? "queue";
  }

  /** The policy in force now. */
  get policy(): ToolPolicy {
    return this.#active.policy;
  }

  /** The runtime (registry) in force now. */
  get runtime(): ToolRuntime {
    return this.#active.runtime;
  }

  /**
   * Swaps policy, runtime, context validator and audit redaction in one step: calls already past their
   * decision finish under the old configuration; every later decision, and every later approval re-check,
   * uses the new one. An omitted part stays as it is.
   */
  reload(next: ControllerReload): void {
    const now = this.#active;
    this.#active = {
      policy: next.policy,
      runtime: next.runtime ?? now.runtime,
      contextValidator:
        next.contextValidator === undefined ? now.contextValidator : (next.contextValidator ?? undefined),
      redact: next.redact ?? now.redact,
    };
  }

  /** The specs the model may see: every registered tool that the policy does not deny outright. */
  visibleSpecs(): readonly ToolSpec[] {
    const { runtime, policy } = this.#active;
    return runtime.registry.specs.filter((spec) => !policy.isDeniedOutright(spec.name));
  }

  /** Decides a call as `handle` would, without running or storing anything, with every statement considered. */
  explain(call: ToolCall, context: ToolContext = {}): ExplainedDecision | ToolResult {
    const { runtime, policy } = this.#active;
    const prepared = runtime.prepare(call);
    if (!isPrepared(prepared)) return prepared;
    return this.#checkContext(call, context) ?? policy.explain(call, context);
  }

  /**
   * Handles one proposed call.
   * @returns the tool's result, an error result (unknown tool, invalid arguments, denied, failed), or an
   *   `ApprovalRequest` when a person must approve first.
   * @throws whatever a handler throws that is not a `ToolFailure` (a defect), and `StoreUnavailableError`
   *   when the approval store or audit sink cannot be reached (nothing runs then).
   */
  handle(call: ToolCall, context: ToolContext = EMPTY_CONTEXT): Promise<ToolResult | ApprovalRequest> {
    if (this.#audit !== undefined) return this.#handleAudited(call, context);
    // Without an audit sink nothing needs to wait before the handler: the allowed path is synchronous up to it.
    const { runtime, policy } = this.#active;
    const prepared = runtime.prepare(call);
    if (!isPrepared(prepared)) return Promise.resolve(prepared);
    const rejected = this.#checkContext(call, context);
    if (rejected !== undefined) return Promise.resolve(rejected);
    const decision = policy.decide(call, context);
    if (decision.action === "allow") return runtime.execute(prepared, context);
    return this.#afterDecision(call, context, decision, policy.fingerprint);
  }

  async #handleAudited(call: ToolCall, context: ToolContext): Promise<ToolResult | ApprovalRequest> {
    await this.#record("call.received", call, this.#active.policy.fingerprint, { withArguments: true });
    // Read the pair only after the await: a reload that landed meanwhile must decide this call.
    const { runtime, policy } = this.#active;
    const prepared = runtime.prepare(call);
    const rejected = isPrepared(prepared) ? this.#checkContext(call, context) : prepared;
    if (rejected !== undefined || !isPrepared(prepared)) {
      const result = rejected ?? (prepared as ToolResult);
      await this.#record("call.rejected", call, policy.fingerprint, { reason: result.content });
      return result;
    }
    const decision = policy.decide(call, context);
    await this.#record("policy.decided", call, policy.fingerprint, { decision });
    if (decision.action === "allow") return this.#execute(prepared, context, policy.fingerprint, {});
    return this.#afterDecision(call, context, decision, policy.fingerprint);
  }

  /** Deny and ask (the callers run allow themselves), after the decision was recorded. */
  async #afterDecision(
    call: ToolCall,
    context: ToolContext,
    decision: PolicyDecision,
    fingerprint: string,
  ): Promise<ToolResult | ApprovalRequest> {
    if (decision.action !== "ask") return errorResult(call.callId, deniedMessage(decision));
    if (this.onAsk === "deny") {
      return errorResult(
        call.callId,
        `needs a person's approval (${decision.reason}), and none is available here (onAsk: deny)`,
      );
    }
    const request = await this.approvals.create(call, decision, context);
    await this.#record("approval.requested", call, fingerprint, { decision, approvalId: request.approvalId });
    return request;
  }

  /**
   * Applies a person's answer to an approval request. The request is taken from the store once; an
   * approval is then re-checked (prepared again against the current registry, decided again against the
   * current policy): a deny now wins over the approval. A rejection already recorded in the store (for
   * example by `toolgate approvals reject`) wins over an approving `response`.
   * @throws ApprovalError `not-found`, `already-used` or `expired`; `StoreUnavailableError`; handler defects.
   */
  async resolve(response: ApprovalResponse): Promise<ToolResult> {
    let taken: Awaited<ReturnType<PendingApprovals["take"]>>;
    try {
      taken = await this.approvals.take(response.approvalId);
    } catch (error) {
      if (error instanceof Error && (error as { code?: string }).code === "expired") {
        const found = await this.approvals.store.get(response.approvalId);
        if (found.found) {
          await this.#record(
            "approval.expired",
            found.approval.request.call,
            this.#active.policy.fingerprint,
            {
              approvalId: response.approvalId,
              requestFingerprint: found.approval.request.policyFingerprint,
            },
          );
        }
      }
      throw error;
    }
    // The re-check uses the pair in force after the take: a reload (a new deny) during it must apply.
    const { runtime, policy } = this.#active;
    const { request } = taken;
    // A rejection a person recorded in the store (out of band) wins over any later answer: of two
    // answers, the stricter one holds.
    const answer = taken.response !== undefined && !taken.response.approved ? taken.response : response;
    const call = request.call;
    const context = request.context ?? {};
    const fingerprints = { approvalId: request.approvalId, requestFingerprint: request.policyFingerprint };
    const person = answer.approver === undefined ? "" : ` by ${answer.approver}`;
    if (!answer.approved) {
      await this.#record("approval.rejected", call, policy.fingerprint, {
        ...fingerprints,
        ...(answer.approver === undefined ? {} : { approver: answer.approver }),
        reason: answer.reason ?? "no reason given",
      });
      return errorResult(
        call.callId,
        `the person rejected this call${person}: ${answer.reason ?? "no reason given"}`,
      );
    }
    if (hashCanonical(call.arguments ?? null) !== request.argumentsHash) {
      await this.#record("call.rejected", call, policy.fingerprint, {
        ...fingerprints,
        reason: "stored arguments do not match the approved hash",
      });
      return errorResult(call.callId, "the stored call does not match the approved arguments; nothing ran");
    }
    await this.#record("approval.granted", call, policy.fingerprint, {
      ...fingerprints,
      ...(answer.approver === undefined ? {} : { approver: answer.approver }),
      ...(answer.reason === undefined ? {} : { reason: answer.reason }),
    });
    const prepared = runtime.prepare(call);
    const rejected = isPrepared(prepared) ? this.#checkContext(call, context) : prepared;
    if (rejected !== undefined || !isPrepared(prepared)) {
      const result = rejected ?? (prepared as ToolResult);
      await this.#record("call.rejected", call, policy.fingerprint, {
        ...fingerprints,
        reason: result.content,
      });
      return result;
    }
    const decision = policy.decide(call, context);
    await this.#record("policy.decided", call, policy.fingerprint, { ...fingerprints, decision });
    if (decision.action === "deny") return errorResult(call.callId, deniedMessage(decision));
    return this.#execute(prepared, context, policy.fingerprint, fingerprints);
  }

  /**
   * Waits until a person decided the request out of band (for example with `toolgate approvals approve`
   * on a durable store), then resolves it with that decision.
   * @throws ApprovalError when the request is unknown, used or expired; an `AbortError` when aborted.
   */
  async waitForDecision(
    approvalId: string,
    options: { readonly pollMs?: number; readonly signal?: AbortSignal } = {},
  ): Promise<ToolResult> {
    const pollMs = options.pollMs ?? 250;
    const store = this.approvals.store as ApprovalStore & {
      waitForDecision?: (id: string, o: { pollMs?: number; signal?: AbortSignal }) => Promise<StoredApproval>;
    };
    for (;;) {
      options.signal?.throwIfAborted();
      const found = await this.approvals.store.get(approvalId);
      if (!found.found) return this.resolve({ approvalId, approved: false });
      let approval = found.approval;
      if (approval.state === "pending" && typeof store.waitForDecision === "function") {
        // Durable stores wait efficiently (PostgreSQL: LISTEN/NOTIFY), also for decisions from other processes.
        approval = await store.waitForDecision(approvalId, {
          pollMs,
          ...(options.signal === undefined ? {} : { signal: options.signal }),
        });
      }
      if (approval.state === "approved" || approval.state === "rejected") {
        return this.resolve(approval.response ?? { approvalId, approved: approval.state === "approved" });
      }
      if (approval.state !== "pending" || this.approvals.now() >= approval.request.expiresAt) {
        // Used or expired: resolve reports it with the right ApprovalError.
        return this.resolve({ approvalId, approved: false });
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

  /** An error result when the context fails the context schema; `undefined` when it is fine. */
  #checkContext(call: ToolCall, context: ToolContext): ToolResult | undefined {
    if (context === null || typeof context !== "object" || Array.isArray(context)) {
      return errorResult(
        call.callId,
        `invalid context for ${call.toolName}: the context must be an object of facts`,
      );
    }
    // The validator in force now: callers read the policy from #active in the same step, after their last await.
    const validator = this.#active.contextValidator;
    if (validator === undefined) return undefined;
    const check = validator(context);
    if (check.ok) return undefined;
    return errorResult(
      call.callId,
      `invalid context for ${call.toolName}: ${formatArgumentIssues(check.issues)}`,
    );
  }

  async #execute(
    prepared: PreparedToolCall,
    context: ToolContext,
    fingerprint: string,
    extra: { approvalId?: string; requestFingerprint?: string },
  ): Promise<ToolResult> {
    const call = prepared.call;
    let result: ToolResult;
    try {
      result = await this.#active.runtime.execute(prepared, context);
    } catch (error) {
      await this.#record("tool.defect", call, fingerprint, {
        ...extra,
        reason: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      });
      throw error;
    }
    await this.#record(result.isError ? "tool.failed" : "tool.executed", call, fingerprint, {
      ...extra,
      ...(result.isError ? { reason: result.content } : {}),
    });
    return result;
  }

  async #record(
    type: AuditEventType,
    call: ToolCall,
    fingerprint: string,
    details: {
      readonly decision?: PolicyDecision;
      readonly approvalId?: string;
      readonly requestFingerprint?: string;
      readonly approver?: string;
      readonly reason?: string;
      readonly withArguments?: boolean;
    },
  ): Promise<void> {
    if (this.#audit === undefined) return;
    const redacted = details.withArguments
      ? redactArguments(call.arguments, this.#active.redact.get(call.toolName))
      : undefined;
    const event: AuditEvent = {
      type,
      time: new Date().toISOString(),
      callId: call.callId,
      toolName: call.toolName,
      fingerprint,
      ...(details.requestFingerprint !== undefined && details.requestFingerprint !== fingerprint
        ? { requestFingerprint: details.requestFingerprint }
        : {}),
      ...(details.decision === undefined
        ? {}
        : {
            decision: details.decision.action,
            ruleIds: details.decision.ruleIds,
            reason: details.decision.reason,
          }),
      ...(details.approvalId === undefined ? {} : { approvalId: details.approvalId }),
      ...(details.approver === undefined ? {} : { approver: details.approver }),
      ...(details.reason === undefined ? {} : { reason: details.reason }),
      ...(redacted === undefined ? {} : { arguments: redacted }),
    };
    await this.#audit.record(event);
  }
}
