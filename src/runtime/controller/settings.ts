/**
 * What a `ToolController` is configured with: its options, the configuration in force (`Active`) and what a
 * reload swaps, with the checks that options from plain JavaScript pass before anything uses them.
 */
import type { ApprovalRequestedHook, NotificationErrorHandler } from "../approval-notice.js";
import type { PendingApprovals } from "../approvals.js";
import type { AuditSink } from "../audit.js";
import { InvalidOptionError } from "../errors.js";
import { MAX_GRANT_MS } from "../grants.js";
import { assertControllerMode, type ControllerMode, DEFAULT_MODE } from "../mode.js";
import type { ToolPolicy } from "../policy.js";
import type { ToolRuntime } from "../tool-runtime.js";
import type { ArgumentValidator } from "../types.js";

/** What to do with an `ask` decision: queue it for a person (default), or deny it when nobody can answer. */
export type OnAsk = "queue" | "deny";

/** Per tool: the argument fields (dotted paths) the audit log replaces with `"[redacted]"`, or `"all"`. */
export type AuditRedaction = ReadonlyMap<string, "all" | readonly string[]>;

/** The longest delay `setTimeout` keeps (about 24.8 days). */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

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

/** The configuration in force: what every decision, re-check and audit event reads in one step. */
export interface Active {
  readonly runtime: ToolRuntime;
  readonly policy: ToolPolicy;
  readonly contextValidator: ArgumentValidator | undefined;
  readonly redact: AuditRedaction;
  readonly mode: ControllerMode;
  readonly grantMaxMs: number;
}

/**
 * The configuration a controller starts with.
 * @throws ToolgateError `invalid-option` for an unknown mode; InvalidOptionError for a bad `grantMaxMs`.
 */
export function initialActive(options: ToolControllerOptions): Active {
  const mode = options.mode ?? DEFAULT_MODE;
  assertControllerMode(mode);
  return {
    runtime: options.runtime,
    policy: options.policy,
    contextValidator: options.contextValidator,
    redact: options.redact ?? new Map(),
    mode,
    grantMaxMs: readGrantMaxMs(options.grantMaxMs),
  };
}

/**
 * The configuration after a reload: the parts `next` brings, the others as they are now.
 * @throws ToolgateError `invalid-option` for an unknown mode; InvalidOptionError for a bad `grantMaxMs`.
 */
export function reloadedActive(now: Active, next: ControllerReload): Active {
  if (next.mode !== undefined) assertControllerMode(next.mode);
  return {
    policy: next.policy,
    runtime: next.runtime ?? now.runtime,
    contextValidator:
      next.contextValidator === undefined ? now.contextValidator : (next.contextValidator ?? undefined),
    redact: next.redact ?? now.redact,
    mode: next.mode ?? now.mode,
    grantMaxMs: next.grantMaxMs === undefined ? now.grantMaxMs : readGrantMaxMs(next.grantMaxMs),
  };
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

/**
 * Checks a numeric option.
 * @throws InvalidOptionError when `value` is not a whole number from 1 to `max`.
 */
export function assertPositiveInteger(name: string, value: number, max: number): void {
  if (!Number.isInteger(value) || value <= 0 || value > max) {
    throw new InvalidOptionError(`${name} must be a whole number from 1 to ${max}, got ${String(value)}`);
  }
}
