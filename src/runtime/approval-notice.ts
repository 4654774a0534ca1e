/**
 * What a controller tells the application when a call waits for a person: the `onApprovalRequested` hook
 * receives an `ApprovalNotice`, built from the stored request with the arguments redacted as the audit log
 * redacts them. The hook runs after the request is stored and recorded, and never holds up or changes the
 * decision: whatever it throws or rejects with goes to `onNotificationError`.
 */
import { ToolgateError } from "./errors.js";
import type { ControllerMode } from "./mode.js";
import type { DecidingStatement, ToolContext } from "./types.js";

/** A call waiting for a person, as notifiers (webhook, command, the application's hook) receive it. Plain JSON. */
export interface ApprovalNotice {
  readonly kind: "approval-requested";
  readonly approvalId: string;
  readonly callId: string;
  readonly toolName: string;
  /** The call's arguments, redacted as the config's `audit.redact` says; absent when the tool's arguments are redacted whole. */
  readonly arguments?: unknown;
  /** The caller's facts given to `handle` (`{}` when none). */
  readonly context: ToolContext;
  /** The policy's reason for asking. */
  readonly reason: string;
  /** Ids of the statements that decided to ask. */
  readonly ruleIds: readonly string[];
  /** Those statements, with where they were written. */
  readonly statements: readonly DecidingStatement[];
  readonly policyFingerprint: string;
  readonly mode: ControllerMode;
  /** ISO 8601 time the request was made. */
  readonly createdAt: string;
  /** ISO 8601 time after which the approval can no longer be used. */
  readonly expiresAt: string;
}

/** The `onApprovalRequested` hook. Its result is not awaited by the decision. */
export type ApprovalRequestedHook = (notice: ApprovalNotice) => void | Promise<void>;

/** Receives a notifier's failure; the decision was made and stands. */
export type NotificationErrorHandler = (error: NotificationError, notice: ApprovalNotice) => void;

/** A notifier (webhook, command, or the application's hook) failed to deliver a notice. Never thrown by `handle`. */
export class NotificationError extends ToolgateError {
  /** Which notifier failed: `webhook https://…`, `command NAME`, or `onApprovalRequested`. */
  readonly notifier: string;
  readonly approvalId: string;
  constructor(notifier: string, approvalId: string, message: string, options?: { cause?: unknown }) {
    super("notification-failed", `${notifier}: ${message} (approval ${approvalId})`, options);
    this.notifier = notifier;
    this.approvalId = approvalId;
  }
}

/** Runs several hooks for one notice, each on its own: one failing does not stop the others. */
export function allHooks(hooks: readonly ApprovalRequestedHook[]): ApprovalRequestedHook {
  return async (notice) => {
    const failures = await Promise.allSettled(hooks.map(async (hook) => hook(notice)));
    const errors = failures.flatMap((f) => (f.status === "rejected" ? [f.reason as unknown] : []));
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} notifiers failed`);
  };
}
