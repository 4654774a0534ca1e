/**
 * The controller's audit trail: every step of a call as an `AuditEvent` (arguments redacted as the
 * configuration in force says, with its mode), and the one `tool.defect` record of an unexpected exception.
 */
import type { AuditEvent, AuditEventType, AuditSink } from "../audit.js";
import { isToolgateError } from "../errors.js";
import type { ModeOutcome } from "../mode.js";
import { describeThrown } from "../plain-data.js";
import type { ToolCall } from "../types.js";
import type { Active } from "./settings.js";

/** Whether a defect was already recorded on the way out (so that it is recorded once). */
export interface DefectState {
  recorded: boolean;
}

/** What ties an event to an approval or a grant. */
export interface ApprovalLink {
  readonly approvalId?: string;
  readonly requestFingerprint?: string;
  readonly grantId?: string;
}

/** What an audit event says besides its type, call, fingerprint and mode. */
export interface AuditDetails extends ApprovalLink {
  readonly outcome?: ModeOutcome;
  readonly waitedMs?: number;
  readonly approver?: string;
  readonly reason?: string;
  readonly withArguments?: boolean;
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

/** Records a controller's steps in its sink (nothing, without one), under the configuration in force. */
export class AuditTrail {
  readonly sink: AuditSink | undefined;
  readonly #active: () => Active;

  constructor(sink: AuditSink | undefined, active: () => Active) {
    this.sink = sink;
    this.#active = active;
  }

  /**
   * Records `tool.defect` once for an unexpected exception (not toolgate's own errors, which say what went
   * wrong themselves). A sink that cannot record it does not replace the defect: the caller gets the original.
   */
  async recordDefect(
    call: ToolCall,
    error: unknown,
    defect: DefectState,
    link: ApprovalLink = {},
    fingerprint: string = this.#active().policy.fingerprint,
  ): Promise<void> {
    // A handler that returns a non-string is the handler's defect, although toolgate names it.
    if (defect.recorded || (isToolgateError(error) && error.code !== "invalid-handler-result")) return;
    defect.recorded = true;
    try {
      await this.record("tool.defect", call, fingerprint, { ...link, reason: describeThrown(error) });
    } catch {
      // The original value is re-thrown by the caller; a second failure must not hide it.
    }
  }

  /** Records one step of a call. */
  async record(
    type: AuditEventType,
    call: ToolCall,
    fingerprint: string,
    details: AuditDetails,
  ): Promise<void> {
    if (this.sink === undefined) return;
    const { redact, mode } = this.#active();
    const redacted = details.withArguments
      ? redactArguments(call.arguments, redact.get(call.toolName))
      : undefined;
    const decision = details.outcome?.decision;
    const wouldHave = details.outcome?.wouldHave;
    const event: AuditEvent = {
      type,
      time: new Date().toISOString(),
      callId: call.callId,
      toolName: call.toolName,
      fingerprint,
      mode,
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
    await this.sink.record(event);
  }
}
