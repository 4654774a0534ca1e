import {
  type ApprovalNotice,
  type ApprovalRequestedHook,
  NotificationError,
  type NotificationErrorHandler,
} from "./approval-notice.js";
import type { ApprovalStore, StoredApproval } from "./approval-store.js";
import { PendingApprovals } from "./approvals.js";
import type { AuditEvent, AuditEventType, AuditSink } from "./audit.js";
import { hashCanonical } from "./canonical-json.js";
import { ApprovalError, InvalidInputError, InvalidOptionError, isToolgateError } from "./errors.js";
import { type ApprovalGrant, describeGrantScope, grantApplies, hasGrants, MAX_GRANT_MS } from "./grants.js";
import {
  applyMode,
  assertControllerMode,
  type ControllerMode,
  DEFAULT_MODE,
  type ModeOutcome,
} from "./mode.js";
import { COPIED_BYTES, copyPlainData, DEFAULT_MAX_ARGUMENT_BYTES, describeThrown } from "./plain-data.js";
import type { ExplainedDecision, ToolPolicy } from "./policy.js";
import { ACTION_RANK } from "./statements.js";
import {
  errorResult,
  formatArgumentIssues,
  isPrepared,
  type PrepareOptions,
  type ToolRuntime,
  tooLargeMessage,
} from "./tool-runtime.js";
import type {
  ApprovalRequest,
  ApprovalResponse,
  ArgumentValidator,
  PolicyDecision,
  PreparedToolCall,
  ResolveOptions,
  ToolCall,
  ToolContext,
  ToolResult,
  ToolSpec,
} from "./types.js";

const EMPTY_CONTEXT: ToolContext = Object.freeze({});

/** The longest delay `setTimeout` keeps (about 24.8 days). */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * What `requestApproval` found when no person is needed now: `handle` will run the call (`allow`, or
 * `granted` under a remembered approval) or refuse it (`deny`, `invalid`).
 */
export interface ApprovalNotNeeded {
  readonly kind: "approval-not-needed";
  readonly action: "allow" | "granted" | "deny" | "invalid";
}

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
   * `enforce` (default) applies every decision; `observe` runs calls the policy denies or asks about and
   * records what it would have done (`wouldHave`); `ci` denies what the policy asks about, as no person is
   * present. Every audit event carries the mode.
   */
  readonly mode?: ControllerMode;
  /**
   * Called once an approval request is stored and recorded, with what an approver needs (arguments redacted
   * as the audit log redacts them). Not awaited: a slow or failing hook never delays or changes the decision.
   */
  readonly onApprovalRequested?: ApprovalRequestedHook;
  /**
   * Receives what `onApprovalRequested` throws or rejects with, as a `NotificationError`. Default: a process
   * warning (`process.emitWarning`, code `TOOLGATE_NOTIFICATION`).
   */
  readonly onNotificationError?: NotificationErrorHandler;
  /**
   * Validates the caller context against the config's `context_schema`. A context that fails it never
   * reaches the policy: the call gets an error result (a misspelt fact must not silently skip a rule).
   */
  readonly contextValidator?: ArgumentValidator;
  /**
   * Ceiling on one call's arguments (and on the context), measured as compact JSON in UTF-8 bytes; default
   * 1 MiB. Larger arguments get an error result naming the limit; nothing runs.
   */
  readonly maxArgumentBytes?: number;
  /**
   * When set, a handler that has not settled after this many milliseconds gives the model an error result
   * (recorded as `tool.failed`). The handler is not stopped: whatever it returns later is ignored.
   */
  readonly handlerTimeoutMs?: number;
  /**
   * The longest a remembered approval (grant) may have been made for, in milliseconds: the config's
   * `grants.max_hours`. A grant is used only within this long after it was made, so lowering the setting
   * shortens grants made before; `0` uses none. Default (and never more than): 24 hours.
   */
  readonly grantMaxMs?: number;
}

/** A call after the input boundary: fresh, frozen, plain data, or the error result that refuses it. */
type Admission =
  | {
      readonly ok: true;
      readonly call: ToolCall;
      readonly context: ToolContext;
      /** What `prepare` needs to skip the second walk of the copied arguments. */
      readonly prepare: PrepareOptions;
    }
  | { readonly ok: false; readonly call: ToolCall; readonly result: ToolResult };

/** A context after the input boundary. */
type ContextCopy =
  | { readonly ok: true; readonly value: ToolContext }
  | { readonly ok: false; readonly reason: string };

/** Whether a defect was already recorded on the way out (so that it is recorded once). */
interface DefectState {
  recorded: boolean;
}

/** What running a prepared call needs (a remembered approval runs it without a new request). */
interface Runnable {
  readonly runtime: ToolRuntime;
  readonly prepared: PreparedToolCall;
  readonly defect: DefectState;
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
  /** Omitted: the mode stays. */
  readonly mode?: ControllerMode;
  /** Omitted: the longest usable grant stays (see `ToolControllerOptions.grantMaxMs`). */
  readonly grantMaxMs?: number;
}

interface Active {
  readonly runtime: ToolRuntime;
  readonly policy: ToolPolicy;
  readonly contextValidator: ArgumentValidator | undefined;
  readonly redact: AuditRedaction;
  readonly mode: ControllerMode;
  readonly grantMaxMs: number;
}

/** Replaces the named fields of plain-data arguments with `"[redacted]"`. */
export function redactArguments(args: unknown, fields: "all" | readonly string[] | undefined): unknown {
  if (fields === undefined) return args;
  if (fields === "all") return undefined;
  if (args === null || typeof args !== "object" || Array.isArray(args)) return args;
  const copy = structuredClone(args) as Record<string, unknown>;
  for (const field of fields) redactPath(copy, field.split("."), 0);
  return copy;
}

/**
 * Replaces the value at `path` (from step `index`) with `"[redacted]"`. An array on the way stands for each
 * of its elements: `files.content` redacts the content of every file.
 */
function redactPath(target: unknown, path: readonly string[], index: number): void {
  if (Array.isArray(target)) {
    for (const element of target) redactPath(element, path, index);
    return;
  }
  if (target === null || typeof target !== "object") return;
  const key = path[index] as string;
  if (!Object.hasOwn(target, key)) return;
  const record = target as Record<string, unknown>;
  if (index === path.length - 1) record[key] = "[redacted]";
  else redactPath(record[key], path, index + 1);
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
  readonly #audit: AuditSink | undefined;
  readonly onAsk: OnAsk;
  readonly #maxArgumentBytes: number;
  readonly #handlerTimeoutMs: number | undefined;
  readonly #onApprovalRequested: ApprovalRequestedHook | undefined;
  readonly #onNotificationError: NotificationErrorHandler;
  /** The context validator that last accepted the empty context (see `#checkContext`). */
  #emptyContextAccepted: ArgumentValidator | undefined = undefined;

  /**
   * @throws InvalidOptionError when `maxArgumentBytes` or `handlerTimeoutMs` is not a positive whole number;
   *   ToolgateError `invalid-option` for an unknown `mode`.
   */
  constructor(options: ToolControllerOptions) {
    const mode = options.mode ?? DEFAULT_MODE;
    assertControllerMode(mode);
    this.#active = {
      runtime: options.runtime,
      policy: options.policy,
      contextValidator: options.contextValidator,
      redact: options.redact ?? new Map(),
      mode,
      grantMaxMs: readGrantMaxMs(options.grantMaxMs),
    };
    this.#onApprovalRequested = options.onApprovalRequested;
    this.#onNotificationError = options.onNotificationError ?? warnNotificationError;
    this.approvals = options.approvals ?? new PendingApprovals();
    this.#audit = options.audit;
    this.onAsk = options.onAsk ?? "queue";
    this.#maxArgumentBytes = options.maxArgumentBytes ?? DEFAULT_MAX_ARGUMENT_BYTES;
    assertPositiveInteger("maxArgumentBytes", this.#maxArgumentBytes, Number.MAX_SAFE_INTEGER);
    this.#handlerTimeoutMs = options.handlerTimeoutMs;
    if (this.#handlerTimeoutMs !== undefined) {
      assertPositiveInteger("handlerTimeoutMs", this.#handlerTimeoutMs, MAX_TIMEOUT_MS);
    }
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
    if (next.mode !== undefined) assertControllerMode(next.mode);
    const now = this.#active;
    this.#active = {
      policy: next.policy,
      runtime: next.runtime ?? now.runtime,
      contextValidator:
        next.contextValidator === undefined ? now.contextValidator : (next.contextValidator ?? undefined),
      redact: next.redact ?? now.redact,
      mode: next.mode ?? now.mode,
      grantMaxMs: next.grantMaxMs === undefined ? now.grantMaxMs : readGrantMaxMs(next.grantMaxMs),
    };
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
    const admitted = this.#admit(call, context);
    if (!admitted.ok) return admitted.result;
    const { runtime, policy } = this.#active;
    const prepared = runtime.prepare(admitted.call, admitted.prepare);
    if (!isPrepared(prepared)) return prepared;
    return (
      this.#checkContext(prepared.call, admitted.context) ?? policy.explain(prepared.call, admitted.context)
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
      const admitted = this.#admit(call, context);
      if (this.#audit !== undefined) return this.#handleAudited(admitted);
      // Without an audit sink nothing needs to wait before the handler: the allowed path is synchronous up to it.
      if (!admitted.ok) return Promise.resolve(admitted.result);
      const { runtime, policy } = this.#active;
      const prepared = runtime.prepare(admitted.call, admitted.prepare);
      if (!isPrepared(prepared)) return Promise.resolve(prepared);
      const rejected = this.#checkContext(prepared.call, admitted.context);
      if (rejected !== undefined) return Promise.resolve(rejected);
      const { decision } = applyMode(policy.decide(prepared.call, admitted.context), this.#active.mode);
      if (decision.action === "allow") return this.#runHandler(runtime, prepared, admitted.context);
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
    const admitted = this.#admit(call, context);
    if (!admitted.ok) return { kind: "approval-not-needed", action: "invalid" };
    const { runtime, policy } = this.#active;
    const prepared = runtime.prepare(admitted.call, admitted.prepare);
    if (!isPrepared(prepared) || this.#checkContext(prepared.call, admitted.context) !== undefined) {
      return { kind: "approval-not-needed", action: "invalid" };
    }
    const outcome = applyMode(policy.decide(prepared.call, admitted.context), this.#active.mode);
    const { decision } = outcome;
    if (decision.action !== "ask") return { kind: "approval-not-needed", action: decision.action };
    if (this.onAsk === "deny") return { kind: "approval-not-needed", action: "deny" };
    if ((await this.#findGrant(prepared.call, admitted.context, decision)) !== undefined) {
      return { kind: "approval-not-needed", action: "granted" };
    }
    await this.#record("call.received", prepared.call, policy.fingerprint, { withArguments: true });
    await this.#record("policy.decided", prepared.call, policy.fingerprint, { outcome });
    const result = await this.#createRequest(prepared.call, admitted.context, decision, policy.fingerprint);
    return "kind" in result ? result : { kind: "approval-not-needed", action: "deny" };
  }

  async #handleAudited(admitted: Admission): Promise<ToolResult | ApprovalRequest> {
    const call = admitted.call;
    const defect: DefectState = { recorded: false };
    try {
      await this.#record("call.received", call, this.#active.policy.fingerprint, { withArguments: true });
      // Read the pair only after the await: a reload that landed meanwhile must decide this call.
      const { runtime, policy } = this.#active;
      const prepared = admitted.ok ? runtime.prepare(call, admitted.prepare) : admitted.result;
      const rejected =
        isPrepared(prepared) && admitted.ok ? this.#checkContext(call, admitted.context) : prepared;
      if (rejected !== undefined || !isPrepared(prepared) || !admitted.ok) {
        const result = rejected as ToolResult;
        await this.#record("call.rejected", call, policy.fingerprint, { reason: result.content });
        return result;
      }
      const outcome = applyMode(policy.decide(prepared.call, admitted.context), this.#active.mode);
      const { decision } = outcome;
      await this.#record("policy.decided", call, policy.fingerprint, { outcome });
      if (decision.action === "allow") {
        return await this.#execute(runtime, prepared, admitted.context, policy.fingerprint, {}, defect);
      }
      return await this.#afterDecision(call, admitted.context, decision, policy.fingerprint, {
        runtime,
        prepared,
        defect,
      });
    } catch (error) {
      await this.#recordDefect(call, error, defect);
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
      await this.#record("call.rejected", call, fingerprint, { reason: content });
      return errorResult(call.callId, content);
    }
    const granted = await this.#runGranted(call, context, decision, fingerprint, run);
    if (granted !== undefined) return granted;
    return this.#createRequest(call, context, decision, fingerprint);
  }

  /** Stores, records and announces the request of an ask; a full store is an error result (fail closed). */
  async #createRequest(
    call: ToolCall,
    context: ToolContext,
    decision: PolicyDecision,
    fingerprint: string,
  ): Promise<ToolResult | ApprovalRequest> {
    let request: ApprovalRequest;
    try {
      request = await this.approvals.create(call, decision, context);
    } catch (error) {
      // A full store fails closed, and the model can be told so: nothing was stored, nothing ran.
      if (!isToolgateError(error) || error.code !== "store-full") throw error;
      const content = `needs a person's approval (${decision.reason}), but ${error.message}; nothing ran`;
      await this.#record("call.rejected", call, fingerprint, { reason: content });
      return errorResult(call.callId, content);
    }
    await this.#record("approval.requested", call, fingerprint, {
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
  async #runGranted(
    call: ToolCall,
    context: ToolContext,
    decision: PolicyDecision,
    fingerprint: string,
    run: Runnable,
  ): Promise<ToolResult | undefined> {
    const grant = await this.#findGrant(call, context, decision);
    if (grant === undefined) return undefined;
    await this.#record("approval.granted", call, fingerprint, {
      grantId: grant.grantId,
      approver: grant.approver,
      reason: `remembered approval ${grant.grantId} (${describeGrantScope(grant)}, until ${new Date(grant.expiresAt).toISOString()})`,
    });
    return this.#execute(
      run.runtime,
      run.prepared,
      context,
      fingerprint,
      { grantId: grant.grantId },
      run.defect,
    );
  }

  /** The remembered approval that covers an asked call, if any. A store that cannot be read fails closed. */
  async #findGrant(
    call: ToolCall,
    context: ToolContext,
    decision: PolicyDecision,
  ): Promise<ApprovalGrant | undefined> {
    const store = this.approvals.store;
    const maxMs = this.#active.grantMaxMs;
    if (!hasGrants(store) || maxMs === 0) return undefined;
    const check = {
      toolName: call.toolName,
      argumentsHash: hashCanonical(call.arguments ?? null),
      context,
      decision,
      now: this.approvals.now(),
    };
    const grants = await store.findGrants(check.toolName, check.argumentsHash, check.now);
    // A grant made under a longer max_hours than the one in force ends where the setting now ends it.
    return grants.find((g) => check.now < g.createdAt + maxMs && grantApplies(g, check));
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
          : this.#copyContext(options.context);
      return this.#resolve(answer, current);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async #resolve(response: ApprovalResponse, current: ContextCopy | undefined): Promise<ToolResult> {
    let taken: Awaited<ReturnType<PendingApprovals["take"]>>;
    try {
      taken = await this.approvals.take(response.approvalId);
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
      const fingerprint = () => this.#active.policy.fingerprint;
      const waitedMs = Math.max(0, this.approvals.now() - request.createdAt);
      if (!answer.approved) {
        await this.#record("approval.rejected", call, fingerprint(), {
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
      const admitted = this.#admit(request.call, request.context ?? EMPTY_CONTEXT);
      call = admitted.call;
      const refusal = !admitted.ok
        ? admitted.result.content
        : hashCanonical(call.arguments ?? null) !== request.argumentsHash
          ? "the stored call does not match the approved arguments; nothing ran"
          : undefined;
      if (refusal !== undefined) {
        await this.#record("call.rejected", call, fingerprint(), { ...fingerprints, reason: refusal });
        return errorResult(call.callId, refusal);
      }
      const { context, prepare } = admitted as Admission & { ok: true };
      await this.#record("approval.granted", call, fingerprint(), {
        ...fingerprints,
        waitedMs,
        // The grant given with the approval, as the store recorded it (never one a caller of resolve names).
        ...(taken.response?.approved === true && typeof taken.response.grantId === "string"
          ? { grantId: taken.response.grantId }
          : {}),
        ...(answer.approver === undefined ? {} : { approver: answer.approver }),
        ...(answer.reason === undefined ? {} : { reason: answer.reason }),
      });
      // The re-check reads the pair after the last await before it: a reload that landed while the
      // approval was taken or recorded decides it.
      const { runtime, policy } = this.#active;
      const prepared = runtime.prepare(call, prepare);
      const rejected = isPrepared(prepared) ? this.#recheckContexts(call, context, current) : prepared;
      if (rejected !== undefined || !isPrepared(prepared)) {
        const result = rejected as ToolResult;
        await this.#record("call.rejected", call, policy.fingerprint, {
          ...fingerprints,
          reason: result.content,
        });
        return result;
      }
      const stored = policy.decide(prepared.call, context);
      const checked =
        current === undefined || !current.ok
          ? stored
          : stricter(stored, policy.decide(prepared.call, current.value));
      // A person answered, so ci's "no person is present" does not apply; observe still runs a denied call.
      const outcome: ModeOutcome =
        this.#active.mode === "observe" ? applyMode(checked, "observe") : { decision: checked };
      const { decision } = outcome;
      await this.#record("policy.decided", call, policy.fingerprint, { ...fingerprints, outcome });
      if (decision.action === "deny") return errorResult(call.callId, deniedMessage(decision));
      return await this.#execute(runtime, prepared, context, policy.fingerprint, fingerprints, defect);
    } catch (error) {
      await this.#recordDefect(call, error, defect);
      throw error;
    }
  }

  /**
   * Tells `onApprovalRequested` about a stored request, after the current turn: the hook's time and failures
   * never reach the decision.
   */
  #notify(request: ApprovalRequest, decision: PolicyDecision): void {
    const hook = this.#onApprovalRequested;
    if (hook === undefined) return;
    const { redact, mode } = this.#active;
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
    const found = await this.approvals.store.get(error.approvalId);
    if (!found.found) return;
    const request = found.approval.request;
    const details = { approvalId: error.approvalId, requestFingerprint: request.policyFingerprint };
    const fingerprint = this.#active.policy.fingerprint;
    const waitedMs = Math.max(0, this.approvals.now() - request.createdAt);
    if (error.code === "expired")
      await this.#record("approval.expired", request.call, fingerprint, { ...details, waitedMs });
    else
      await this.#record("call.rejected", request.call, fingerprint, { ...details, reason: error.message });
  }

  /**
   * Waits until a person decided the request out of band (for example with `toolgate approvals approve`
   * on a durable store), then resolves it with that decision (and `options.context`, as `resolve` takes it).
   * @throws ApprovalError when the request is unknown, used or expired; an `AbortError` when aborted.
   */
  async waitForDecision(
    approvalId: string,
    options: { readonly pollMs?: number; readonly signal?: AbortSignal; readonly context?: ToolContext } = {},
  ): Promise<ToolResult> {
    const pollMs = options.pollMs ?? 250;
    // The caller's facts now, as for resolve: the stricter decision of the stored and this context holds.
    const resolveOptions: ResolveOptions = options.context === undefined ? {} : { context: options.context };
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
        return this.resolve(
          approval.response ?? { approvalId, approved: approval.state === "approved" },
          resolveOptions,
        );
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
    // The validator in force now: callers read the policy from #active in the same step, after their last await.
    const validator = this.#active.contextValidator;
    if (validator === undefined) return undefined;
    // The empty context is frozen: once a validator accepted it, it accepts it on every call.
    if (context === EMPTY_CONTEXT && this.#emptyContextAccepted === validator) return undefined;
    const check = validator(context);
    if (check.ok) {
      if (context === EMPTY_CONTEXT) this.#emptyContextAccepted = validator;
      return undefined;
    }
    return errorResult(
      call.callId,
      `invalid context for ${call.toolName}: ${formatArgumentIssues(check.issues)}`,
    );
  }

  /** The stored context is checked again (a store row can change), and the current one when given. */
  #recheckContexts(
    call: ToolCall,
    stored: ToolContext,
    current: ContextCopy | undefined,
  ): ToolResult | undefined {
    const rejected = this.#checkContext(call, stored);
    if (rejected !== undefined || current === undefined) return rejected;
    if (!current.ok) {
      return errorResult(
        call.callId,
        `invalid current context for ${call.toolName}: ${current.reason}; nothing ran`,
      );
    }
    const invalid = this.#checkContext(call, current.value);
    return invalid === undefined
      ? undefined
      : errorResult(
          call.callId,
          `${invalid.content.replace("invalid context", "invalid current context")}; nothing ran`,
        );
  }

  /**
   * The input boundary: reads the call's fields once each and copies arguments and context into frozen
   * plain data. Refused input becomes an error result with the call's id.
   * @throws InvalidInputError when the call is not an object with a string `callId`.
   */
  #admit(call: ToolCall, context: unknown): Admission {
    let callId: unknown;
    let toolName: unknown;
    let args: unknown;
    try {
      ({ callId, toolName, arguments: args } = call);
    } catch (error) {
      throw new InvalidInputError(
        "invalid-call",
        `the tool call could not be read: ${describeThrown(error)}`,
      );
    }
    if (typeof callId !== "string") {
      throw new InvalidInputError(
        "invalid-call",
        `a tool call needs a string callId, got ${callId === null ? "null" : typeof callId}`,
      );
    }
    const name = typeof toolName === "string" ? toolName : "";
    if (name === "") {
      const call = Object.freeze({ callId, toolName: name, arguments: undefined });
      return {
        ok: false,
        call,
        result: errorResult(
          callId,
          `call ${callId} has no tool name; send the name of one of the offered tools`,
        ),
      };
    }
    const copy = copyPlainData(args, this.#maxArgumentBytes);
    if (!copy.ok) {
      const call = Object.freeze({ callId, toolName: name, arguments: undefined });
      const content = copy.tooLarge
        ? tooLargeMessage(name, this.#maxArgumentBytes)
        : `invalid arguments for ${name}: found ${copy.reason}; send a JSON object of plain data`;
      return { ok: false, call, result: errorResult(callId, content) };
    }
    // The call wrapper is not frozen here (it stays inside the controller, and an approval request freezes
    // its own); its arguments are.
    const admitted: ToolCall = { callId, toolName: name, arguments: copy.value };
    const prepare = { maxArgumentBytes: this.#maxArgumentBytes, [COPIED_BYTES]: copy.bytes };
    if (context === EMPTY_CONTEXT) return { ok: true, call: admitted, context: EMPTY_CONTEXT, prepare };
    const facts = this.#copyContext(context);
    if (!facts.ok) {
      return {
        ok: false,
        call: admitted,
        result: errorResult(callId, `invalid context for ${name}: ${facts.reason}`),
      };
    }
    return { ok: true, call: admitted, context: facts.value, prepare };
  }

  #copyContext(context: unknown): ContextCopy {
    const copy = copyPlainData(context, this.#maxArgumentBytes);
    if (!copy.ok) {
      return {
        ok: false,
        reason: copy.tooLarge
          ? `the context is larger than ${this.#maxArgumentBytes} bytes (maxArgumentBytes)`
          : `found ${copy.reason}; pass the context as a JSON object of plain data`,
      };
    }
    const value = copy.value;
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      return { ok: false, reason: "the context must be an object of facts" };
    }
    return { ok: true, value: value as ToolContext };
  }

  /** Runs the handler, under the timeout when one is set. */
  #runHandler(runtime: ToolRuntime, prepared: PreparedToolCall, context: ToolContext): Promise<ToolResult> {
    const running = runtime.execute(prepared, context);
    const ms = this.#handlerTimeoutMs;
    if (ms === undefined) return running;
    return new Promise<ToolResult>((settle, fail) => {
      const timer = setTimeout(() => {
        settle(
          errorResult(
            prepared.call.callId,
            `the handler of ${prepared.call.toolName} did not finish within ${ms} ms (handlerTimeoutMs); ` +
              "its result will be ignored, and it may still be running",
          ),
        );
      }, ms);
      // Once the timeout answered, a late result or defect is ignored (and never an unhandled rejection).
      running.then(
        (result) => {
          clearTimeout(timer);
          settle(result);
        },
        (error: unknown) => {
          clearTimeout(timer);
          fail(error);
        },
      );
    });
  }

  async #execute(
    runtime: ToolRuntime,
    prepared: PreparedToolCall,
    context: ToolContext,
    fingerprint: string,
    extra: { approvalId?: string; requestFingerprint?: string; grantId?: string },
    defect: DefectState,
  ): Promise<ToolResult> {
    const call = prepared.call;
    let result: ToolResult;
    try {
      result = await this.#runHandler(runtime, prepared, context);
    } catch (error) {
      await this.#recordDefect(call, error, defect, extra, fingerprint);
      throw error;
    }
    await this.#record(result.isError ? "tool.failed" : "tool.executed", call, fingerprint, {
      ...extra,
      ...(result.isError ? { reason: result.content } : {}),
    });
    return result;
  }

  /**
   * Records `tool.defect` once for an unexpected exception (not toolgate's own errors, which say what went
   * wrong themselves). A sink that cannot record it does not replace the defect: the caller gets the original.
   */
  async #recordDefect(
    call: ToolCall,
    error: unknown,
    defect: DefectState,
    extra: { approvalId?: string; requestFingerprint?: string; grantId?: string } = {},
    fingerprint: string = this.#active.policy.fingerprint,
  ): Promise<void> {
    // A handler that returns a non-string is the handler's defect, although toolgate names it.
    if (defect.recorded || (isToolgateError(error) && error.code !== "invalid-handler-result")) return;
    defect.recorded = true;
    try {
      await this.#record("tool.defect", call, fingerprint, { ...extra, reason: describeThrown(error) });
    } catch {
      // The original value is re-thrown by the caller; a second failure must not hide it.
    }
  }

  async #record(
    type: AuditEventType,
    call: ToolCall,
    fingerprint: string,
    details: {
      readonly outcome?: ModeOutcome;
      readonly approvalId?: string;
      readonly waitedMs?: number;
      readonly grantId?: string;
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
    const decision = details.outcome?.decision;
    const wouldHave = details.outcome?.wouldHave;
    const event: AuditEvent = {
      type,
      time: new Date().toISOString(),
      callId: call.callId,
      toolName: call.toolName,
      fingerprint,
      mode: this.#active.mode,
      ...(details.requestFingerprint !== undefined && details.requestFingerprint !== fingerprint
        ? { requestFingerprint: details.requestFingerprint }
        : {}),
      ...(decision === undefined
        ? {}
        : { decision: decision.action, ruleIds: decision.ruleIds, reason: decision.reason }),
      ...(wouldHave === undefined ? {} : { wouldHave }),
      ...(details.approvalId === undefined ? {} : { approvalId: details.approvalId }),
      ...(details.grantId === undefined ? {} : { grantId: details.grantId }),
      ...(details.approver === undefined ? {} : { approver: details.approver }),
      ...(details.waitedMs === undefined ? {} : { waitedMs: details.waitedMs }),
      ...(details.reason === undefined ? {} : { reason: details.reason }),
      ...(redacted === undefined ? {} : { arguments: redacted }),
    };
    await this.#audit.record(event);
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

/** The longest usable grant from an option: a whole number of milliseconds from 0 to 24 hours. */
function readGrantMaxMs(value: number | undefined): number {
  if (value === undefined) return MAX_GRANT_MS;
  if (!Number.isInteger(value) || value < 0 || value > MAX_GRANT_MS) {
    throw new InvalidOptionError(
      `grantMaxMs must be a whole number of milliseconds from 0 to ${MAX_GRANT_MS}, got ${String(value)}`,
    );
  }
  return value;
}

function assertPositiveInteger(name: string, value: number, max: number): void {
  if (!Number.isInteger(value) || value <= 0 || value > max) {
    throw new InvalidOptionError(`${name} must be a whole number from 1 to ${max}, got ${String(value)}`);
  }
}

const RANK = ACTION_RANK;

/** Of two decisions for one call, the stricter (deny over ask over allow); the first when they tie. */
function stricter(first: PolicyDecision, second: PolicyDecision): PolicyDecision {
  return RANK[second.action] > RANK[first.action] ? second : first;
}

/** Reads an approval response's fields once each into a fresh object. */
function readResponse(response: ApprovalResponse): ApprovalResponse {
  let approvalId: unknown;
  let approved: unknown;
  let approver: unknown;
  let reason: unknown;
  try {
    ({ approvalId, approved, approver, reason } = response);
  } catch (error) {
    throw new InvalidInputError(
      "invalid-response",
      `the approval response could not be read: ${describeThrown(error)}`,
    );
  }
  if (typeof approvalId !== "string" || typeof approved !== "boolean") {
    throw new InvalidInputError(
      "invalid-response",
      "an approval response needs a string approvalId and a boolean approved",
    );
  }
  return {
    approvalId,
    approved,
    ...(typeof approver === "string" ? { approver } : {}),
    ...(typeof reason === "string" ? { reason } : {}),
  };
}
