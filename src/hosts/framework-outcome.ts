/**
 * What a framework adapter's `answer` is given: the controller's result for a call (it ran, or was refused),
 * or the approval request it waits on. Shared by the framework hosts, so that every framework says the same
 * thing to its model when a call waits for a person.
 */
import type { ApprovalRequest, ToolResult } from "../runtime/types.js";

/** The controller's outcome for one framework call. */
export type FrameworkOutcome = ToolResult | ApprovalRequest;

/** True for a stored approval request (as opposed to a result or "no approval needed"). */
export function isApprovalRequest(value: unknown): value is ApprovalRequest {
  return (
    typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "approval-request"
  );
}

/** The text a model reads when a call waits for a person and did not run. */
export function waitingMessage(request: ApprovalRequest): string {
  return `needs a person's approval (${request.reason}); approval ${request.approvalId} is waiting, and the call did not run`;
}
