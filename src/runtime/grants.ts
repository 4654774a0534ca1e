/**
 * Remembered approvals ("approve and remember"): a person who approves a request may let the same tool run
 * again with exactly the same arguments for a bounded time, or within one session id of the caller context.
 * A grant is never broader than that: there is no grant for a tool whatever its arguments.
 */
import { randomBytes } from "node:crypto";
import { ToolgateError } from "./errors.js";
import type { ApprovalGrant, ApprovalStore, GrantScope, GrantStore } from "./store-contracts.js";
import type { ApprovalRequest, PolicyDecision, ToolContext } from "./types.js";

export type { ApprovalGrant, GrantScope, GrantStore, RevokeGrantResult } from "./store-contracts.js";

/** The longest a grant may last: 24 hours. A stored grant that claims longer is ignored. */
export const MAX_GRANT_MS = 24 * 60 * 60 * 1000;

/** The context field that names the caller's session when the configuration names none. */
export const DEFAULT_SESSION_KEY = "session_id";

/** Whether a store keeps grants. */
export function hasGrants(store: ApprovalStore): store is ApprovalStore & GrantStore {
  const s = store as Partial<GrantStore>;
  return (
    typeof s.respondAndGrant === "function" &&
    typeof s.findGrants === "function" &&
    typeof s.listGrants === "function" &&
    typeof s.revokeGrant === "function"
  );
}

/** A new unguessable grant id: 128 random bits. */
export function newGrantId(): string {
  return `grt_${randomBytes(16).toString("base64url")}`;
}

/** What a person asks to remember: the same arguments for a while, or the same arguments in one session. */
export type RememberScope =
  | { readonly kind: "arguments"; readonly durationMs: number }
  | { readonly kind: "session"; readonly durationMs: number };

/** Options of `buildGrant`. */
export interface BuildGrantOptions {
  readonly remember: RememberScope;
  readonly approver: string;
  readonly reason?: string;
  /** The configured longest grant (at most `MAX_GRANT_MS`). */
  readonly maxMs: number;
  /** The context field naming the session (default `session_id`). */
  readonly sessionKey?: string;
  readonly now: number;
}

/** Why a grant cannot be given. */
export class GrantError extends ToolgateError {}

/**
 * The grant a person gives on `request`.
 * @throws GrantError `grant-too-long` when the duration is not positive or exceeds the cap,
 *   `grants-disabled` when the cap is 0, `no-session` when a session grant is asked for a request whose
 *   context has no string session id.
 */
export function buildGrant(request: ApprovalRequest, options: BuildGrantOptions): ApprovalGrant {
  const cap = Math.min(options.maxMs, MAX_GRANT_MS);
  if (!(cap > 0)) {
    throw new GrantError(
      "grants-disabled",
      "remembering approvals is turned off in the configuration (grants.max_hours: 0); approve once instead",
    );
  }
  const { durationMs } = options.remember;
  if (!Number.isFinite(durationMs) || durationMs <= 0 || durationMs > cap) {
    throw new GrantError(
      "grant-too-long",
      `a remembered approval lasts more than 0 and at most ${formatDuration(cap)} (grants.max_hours); got ${Number.isFinite(durationMs) ? formatDuration(durationMs) : String(durationMs)}`,
    );
  }
  let scope: GrantScope = { kind: "arguments" };
  if (options.remember.kind === "session") {
    const key = options.sessionKey ?? DEFAULT_SESSION_KEY;
    const value = request.context?.[key];
    if (typeof value !== "string" || value === "") {
      throw new GrantError(
        "no-session",
        `the request's context has no session id in "${key}" (grants.session_key), so it cannot be remembered for its session; remember it for a time instead, or approve once`,
      );
    }
    scope = { kind: "session", key, value };
  }
  return Object.freeze({
    kind: "approval-grant",
    grantId: newGrantId(),
    toolName: request.call.toolName,
    argumentsHash: request.argumentsHash,
    scope: Object.freeze(scope),
    ruleIds: Object.freeze([...request.ruleIds]),
    approvalId: request.approvalId,
    approver: options.approver,
    ...(options.reason === undefined ? {} : { reason: options.reason }),
    policyFingerprint: request.policyFingerprint,
    createdAt: options.now,
    expiresAt: options.now + durationMs,
  });
}

/** What a grant is checked against when a call is decided. */
export interface GrantCheck {
  readonly toolName: string;
  /** `sha256:` hash of the canonical JSON of the call's validated arguments. */
  readonly argumentsHash: string;
  readonly context: ToolContext;
  /** The current policy's decision for the call. */
  readonly decision: PolicyDecision;
  readonly now: number;
}

/**
 * Whether a grant lets this call run. Only an `ask` can be turned into a run: a deny or an allow is never
 * changed. The grant must name the same tool and the same arguments, be neither revoked nor expired (nor
 * claim to last longer than `MAX_GRANT_MS`), cover every statement that asks now, and, for a session grant,
 * the context must name the same session.
 */
export function grantApplies(grant: ApprovalGrant, check: GrantCheck): boolean {
  if (check.decision.action !== "ask") return false;
  if (grant.toolName !== check.toolName || grant.argumentsHash !== check.argumentsHash) return false;
  if (grant.revokedAt !== undefined) return false;
  if (!(check.now < grant.expiresAt) || grant.expiresAt - grant.createdAt > MAX_GRANT_MS) return false;
  if (check.decision.ruleIds.length === 0) return false;
  if (!check.decision.ruleIds.every((id) => grant.ruleIds.includes(id))) return false;
  const scope = grant.scope;
  if (scope.kind === "arguments") return true;
  if (scope.kind !== "session") return false;
  const value = Object.hasOwn(check.context, scope.key) ? check.context[scope.key] : undefined;
  return typeof value === "string" && value !== "" && value === scope.value;
}

/** `4h`, `30m`, `1.5h`: a duration in minutes or hours, in milliseconds; `undefined` when unreadable. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*(m|min|h)$/.exec(text.trim());
  if (match === null) return undefined;
  const value = Number(match[1]);
  return Math.round(value * (match[2] === "h" ? 3_600_000 : 60_000));
}

/** A duration as a person reads it: `4h`, `90m`, `1h 30m`. */
export function formatDuration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${minutes}m`;
  return rest === 0 ? `${hours}h` : `${hours}h ${rest}m`;
}

/** A grant's scope as a person reads it. */
export function describeGrantScope(grant: ApprovalGrant): string {
  return grant.scope.kind === "session"
    ? `same arguments in session ${grant.scope.key}=${grant.scope.value}`
    : "same arguments";
}
