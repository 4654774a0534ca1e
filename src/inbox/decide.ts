/**
 * A person's decision on a pending approval, as `toolgate approvals approve|reject` and the web inbox make
 * it: recorded once in the store (of two deciders, exactly one is recorded), optionally with a grant.
 */
import type { ApprovalStore, RespondResult, StoredApproval } from "../runtime/approval-store.js";
import {
  type ApprovalGrant,
  buildGrant,
  GrantError,
  hasGrants,
  MAX_GRANT_MS,
  type RememberScope,
} from "../runtime/grants.js";

/** What a person decided. */
export interface ApprovalDecision {
  readonly approvalId: string;
  readonly approved: boolean;
  readonly approver: string;
  readonly reason?: string;
  /** Approve and remember: the same arguments for a while, or within the request's session. */
  readonly remember?: RememberScope;
}

/** How grants may be given (from the configuration's `grants`). */
export interface GrantSettings {
  /** The longest grant, in milliseconds (at most 24 hours; 0 turns remembering off). */
  readonly maxMs: number;
  /** The context field naming the session. */
  readonly sessionKey: string;
}

/** Outcome of `decideApproval`: the store's answer, the grant when one was given, or why none could be. */
export type DecideResult =
  | (RespondResult & { readonly grant?: ApprovalGrant })
  | { readonly status: "cannot-remember"; readonly message: string };

/**
 * Records a decision. With `remember`, the grant is checked first (a grant that cannot be given changes
 * nothing) and then stored together with the approval, in one atomic step, only if this decision is the one
 * recorded.
 * @throws StoreUnavailableError when the store cannot be reached.
 */
export async function decideApproval(
  store: ApprovalStore,
  decision: ApprovalDecision,
  settings: GrantSettings,
  now: number,
): Promise<DecideResult> {
  const response = {
    approvalId: decision.approvalId,
    approved: decision.approved,
    approver: decision.approver,
    ...(decision.reason === undefined || decision.reason === "" ? {} : { reason: decision.reason }),
  };
  if (decision.remember === undefined) return store.respond(response, now);
  if (!decision.approved) {
    return { status: "cannot-remember", message: "only an approval can be remembered, not a rejection" };
  }
  if (!hasGrants(store)) {
    return { status: "cannot-remember", message: `the store ${store.name} cannot keep remembered approvals` };
  }
  const found = await store.get(decision.approvalId);
  if (!found.found) return { status: "not-found" };
  const pending: StoredApproval = found.approval;
  let grant: ApprovalGrant;
  try {
    grant = buildGrant(pending.request, {
      remember: decision.remember,
      approver: decision.approver,
      ...(response.reason === undefined ? {} : { reason: response.reason }),
      maxMs: Math.min(settings.maxMs, MAX_GRANT_MS),
      sessionKey: settings.sessionKey,
      now,
    });
  } catch (error) {
    if (error instanceof GrantError) return { status: "cannot-remember", message: error.message };
    throw error;
  }
  const result = await store.respondAndGrant({ ...response, grantId: grant.grantId }, grant, now);
  return result.status === "recorded" ? { ...result, grant } : result;
}
