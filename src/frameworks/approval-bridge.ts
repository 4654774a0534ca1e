/**
 * What every framework adapter shares: the way from a framework's two steps — an approval step (AI SDK's
 * `needsApproval`, a LangGraph interrupt, a Claude Agent SDK permission callback) and an execute step — to one
 * toolgate controller, so that
 * - the approval step decides and stores a request but never runs anything;
 * - the execute step runs a call only on the policy's allow, a remembered approval, or a person's approval of
 *   exactly those arguments, taken once from the store and re-checked against the policy in force;
 * - a replayed or resumed step finds the request it already made (by call id, tool and arguments, also in a
 *   durable store after a restart) instead of making a second one, and a used approval runs nothing again.
 */
import type { ApprovalState, StoredApproval } from "../runtime/approval-store.js";
import { hashCanonical } from "../runtime/canonical-json.js";
import type { ApprovalNotNeeded, ToolController } from "../runtime/controller.js";
import { ApprovalError } from "../runtime/errors.js";
import type { ApprovalRequest, ToolCall, ToolContext, ToolResult } from "../runtime/types.js";

export { isApprovalRequest, waitingMessage } from "../hosts/framework-outcome.js";

const OPEN_STATES: readonly ApprovalState[] = ["pending", "approved", "rejected"];
const CLOSED_STATES: readonly ApprovalState[] = ["used", "expired"];

/** A person's answer, as a framework carries it. */
export interface FrameworkDecision {
  readonly approved: boolean;
  /** Who answered; the adapter's default approver when absent. */
  readonly approver?: string;
  readonly reason?: string;
}

/** What the approval step found: a request waits for a person, or none is needed. */
export type ApprovalStep = ApprovalRequest | ApprovalNotNeeded;

/** One controller behind a framework's approval and execute steps. */
export class ApprovalBridge {
  readonly controller: ToolController;
  readonly #approver: string;

  /**
   * @param controller the loaded or compiled controller that decides and runs every call.
   * @param approver who approved, when the framework's answer names nobody (for example `ai-sdk`).
   */
  constructor(controller: ToolController, approver: string) {
    this.controller = controller;
    this.#approver = approver;
  }

  /**
   * The approval step: the open request this call already has (a replayed or resumed step), or the
   * controller's `requestApproval`. Runs nothing.
   */
  async request(call: ToolCall, context: ToolContext): Promise<ApprovalStep> {
    const open = await this.openRequest(call);
    return open ?? this.controller.requestApproval(call, context);
  }

  /**
   * The open request (pending, or decided and not yet used) of this call id, tool and arguments, if any —
   * also one a durable store kept from another process.
   */
  async openRequest(call: ToolCall): Promise<ApprovalRequest | undefined> {
    return (await this.#find(call, OPEN_STATES))?.request;
  }

  /**
   * The request this call id, tool and arguments had that is closed now (used or expired), if the store
   * still remembers it (durable stores do; the memory store keeps its last closed requests). A framework that
   * replays a step with a stored answer (a LangGraph resume sent twice) checks it, so that the old answer is
   * never applied to a new request that nobody was shown.
   */
  async closedRequest(call: ToolCall): Promise<StoredApproval | undefined> {
    return this.#find(call, CLOSED_STATES);
  }

  async #find(call: ToolCall, states: readonly ApprovalState[]): Promise<StoredApproval | undefined> {
    const argumentsHash = hashCanonical(call.arguments ?? null);
    const found = await this.controller.approvals.store.list(states);
    return found.find(
      (entry) =>
        entry.request.call.callId === call.callId &&
        entry.request.call.toolName === call.toolName &&
        entry.request.argumentsHash === argumentsHash,
    );
  }

  /**
   * Records a person's answer on a request without running anything (the execute step runs it). An answer
   * already recorded (for example by `toolgate approvals reject` from another shell) is kept.
   */
  async respond(approvalId: string, decision: FrameworkDecision): Promise<void> {
    await this.controller.approvals.store.respond(
      {
        approvalId,
        approved: decision.approved,
        approver: decision.approver ?? this.#approver,
        ...(decision.reason === undefined ? {} : { reason: decision.reason }),
      },
      Date.now(),
    );
  }

  /**
   * The execute step. When the framework says a person approved this call, the call's open request is
   * resolved — taken once, re-checked against the policy in force (a deny now wins, and a rejection recorded
   * in the store wins over the framework's approval) — and the handler runs with the stored, validated
   * arguments; with no open request (used, expired, or never made) nothing runs, so an approval is never
   * spent twice nor on a request that nobody was shown. Without an approval the call goes through `handle`:
   * the policy's allow or a remembered approval runs it, a deny refuses it, and an ask stores a new request
   * and runs nothing.
   * @throws what `handle` and `resolve` throw for defects and unreachable stores (nothing runs then).
   */
  async execute(
    call: ToolCall,
    context: ToolContext,
    approved: FrameworkDecision | undefined,
  ): Promise<ToolResult | ApprovalRequest> {
    if (approved?.approved !== true) return this.controller.handle(call, context);
    const open = await this.openRequest(call);
    if (open !== undefined) return this.resolve(open.approvalId, approved, context);
    return {
      callId: call.callId,
      content: `no open approval request for this call of ${call.toolName} (already used, expired, or never made): the approval is not applied again; nothing ran`,
      isError: true,
    };
  }

  /** Resolves a request with the store's recorded answer, else `decision`; a used or expired one runs nothing. */
  async resolve(approvalId: string, decision: FrameworkDecision, context?: ToolContext): Promise<ToolResult> {
    const stored = await this.controller.approvals.store.get(approvalId);
    const recorded = stored.found ? stored.approval.response : undefined;
    const response = recorded ?? {
      approvalId,
      approved: decision.approved,
      approver: decision.approver ?? this.#approver,
      ...(decision.reason === undefined ? {} : { reason: decision.reason }),
    };
    try {
      return await this.controller.resolve(response, context === undefined ? {} : { context });
    } catch (error) {
      if (!(error instanceof ApprovalError)) throw error;
      const callId = stored.found ? stored.approval.request.call.callId : approvalId;
      return { callId, content: `${error.message}; nothing ran`, isError: true };
    }
  }
}
