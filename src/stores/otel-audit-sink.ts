/**
 * An audit sink that reports decisions to OpenTelemetry: one span per policy decision, and metrics for
 * decisions by action, approval wait time and expired approvals. It is written against
 * `@opentelemetry/api` alone (an optional peer dependency, loaded only when this sink is created); the
 * application brings and registers the SDK and its exporters.
 *
 * Attribute names follow the OpenTelemetry GenAI semantic conventions where they name the field
 * (`gen_ai.tool.name`, `gen_ai.tool.call.id`, `gen_ai.tool.call.arguments`); the rest are `toolgate.*`.
 */
import { createRequire } from "node:module";
import type { Attributes, Counter, Histogram, Meter, Span, Tracer } from "@opentelemetry/api";
import type { AuditEvent, AuditHead, AuditSink } from "../runtime/audit.js";
import { ToolgateError } from "../runtime/errors.js";

/** Span and metric attribute names. */
export const OTEL_ATTRIBUTES = {
  toolName: "gen_ai.tool.name",
  callId: "gen_ai.tool.call.id",
  arguments: "gen_ai.tool.call.arguments",
  action: "toolgate.decision.action",
  wouldHave: "toolgate.decision.would_have",
  reason: "toolgate.decision.reason",
  ruleIds: "toolgate.decision.rule_ids",
  fingerprint: "toolgate.policy.fingerprint",
  requestFingerprint: "toolgate.policy.request_fingerprint",
  approvalId: "toolgate.approval.id",
  approvalOutcome: "toolgate.approval.outcome",
  mode: "toolgate.mode",
  rejected: "toolgate.call.rejected_reason",
} as const;

/** Metric names. */
export const OTEL_METRICS = {
  decisions: "toolgate.decisions",
  approvalWait: "toolgate.approval.wait_time",
  expired: "toolgate.approvals.expired",
} as const;

/** Options of `OtelAuditSink`. */
export interface OtelAuditSinkOptions {
  /** Default: `trace.getTracer("toolgate")` of the registered provider. */
  readonly tracer?: Tracer;
  /** Default: `metrics.getMeter("toolgate")` of the registered provider. */
  readonly meter?: Meter;
  /**
   * A sink that records every event first (for example a JSONL log): its failure fails the call closed, as
   * it would alone. OpenTelemetry export is observability, not the audit record.
   */
  readonly next?: AuditSink;
  /** Whether spans carry the (redacted) arguments as `gen_ai.tool.call.arguments` (default true). */
  readonly includeArguments?: boolean;
  /** How many calls may wait between their events (arguments, an ask awaiting its request) (default 10000). */
  readonly maxPending?: number;
}

type OtelApi = typeof import("@opentelemetry/api");

const require = createRequire(import.meta.url);

function loadApi(): OtelApi {
  try {
    return require("@opentelemetry/api") as OtelApi;
  } catch (error) {
    throw new ToolgateError(
      "optional-dependency-missing",
      'the otel audit sink needs the package "@opentelemetry/api" (an optional peer dependency of toolgate; the application brings the OpenTelemetry SDK); install it with: npm install @opentelemetry/api',
      { cause: error },
    );
  }
}

/** A decision waiting for the event that says what became of its ask (the approval id, or a refusal). */
interface PendingDecision {
  readonly attributes: Attributes;
  readonly start: number;
}

/**
 * Reports each `policy.decided` event as a span named `toolgate.decision TOOL`, with the tool, call id,
 * action (`wouldHave` in observe mode), reason, rule ids, fingerprint, mode, approval id and redacted
 * arguments. An ask decided by `handle` is reported once its approval request (or refusal) is recorded, so
 * that its span carries the approval id. Metrics: `toolgate.decisions` (counter, by action, mode and tool),
 * `toolgate.approval.wait_time` (histogram, seconds from request to answer, by outcome) and
 * `toolgate.approvals.expired` (counter).
 *
 * `record` never fails because of OpenTelemetry; it fails only when `next` does.
 * @throws ToolgateError `optional-dependency-missing` (from the constructor) when no tracer and meter are
 *   given and `@opentelemetry/api` is not installed.
 */
export class OtelAuditSink implements AuditSink {
  readonly name: string;
  readonly #tracer: Tracer;
  readonly #decisions: Counter;
  readonly #wait: Histogram;
  readonly #expired: Counter;
  readonly #next: AuditSink | undefined;
  readonly #includeArguments: boolean;
  readonly #maxPending: number;
  /** Arguments of `call.received`, by call, until the call's decision. */
  readonly #arguments = new Map<string, string>();
  readonly #pending = new Map<string, PendingDecision>();

  constructor(options: OtelAuditSinkOptions = {}) {
    const api = options.tracer === undefined || options.meter === undefined ? loadApi() : undefined;
    this.#tracer = options.tracer ?? (api as OtelApi).trace.getTracer("toolgate");
    const meter = options.meter ?? (api as OtelApi).metrics.getMeter("toolgate");
    this.#decisions = meter.createCounter(OTEL_METRICS.decisions, {
      description: "Policy decisions, by the action the controller took",
      unit: "{decision}",
    });
    this.#wait = meter.createHistogram(OTEL_METRICS.approvalWait, {
      description: "Time from an approval request to the person's answer being applied",
      unit: "s",
    });
    this.#expired = meter.createCounter(OTEL_METRICS.expired, {
      description: "Approval requests used after they expired",
      unit: "{approval}",
    });
    this.#next = options.next;
    this.name = options.next === undefined ? "otel" : `otel+${options.next.name}`;
    this.#includeArguments = options.includeArguments ?? true;
    this.#maxPending = options.maxPending ?? 10_000;
  }

  /** Records to `next` first (its failure is the caller's), then reports to OpenTelemetry. */
  async record(event: AuditEvent): Promise<void> {
    if (this.#next !== undefined) await this.#next.record(event);
    try {
      this.#report(event);
    } catch {
      // Telemetry never decides whether a call runs.
    }
  }

  /** The head of `next`'s chain, when it has one. */
  async head(): Promise<AuditHead> {
    if (this.#next?.head === undefined) {
      throw new ToolgateError("no-chain", `${this.name} does not chain its events`);
    }
    return this.#next.head();
  }

  /** Ends the spans of asks still waiting, and closes `next`. */
  async close(): Promise<void> {
    for (const [key, pending] of this.#pending) this.#emit(key, pending, Date.now(), {});
    this.#pending.clear();
    this.#arguments.clear();
    await this.#next?.close();
  }

  #report(event: AuditEvent): void {
    const key = `${event.callId}\u0000${event.toolName}`;
    const time = Date.parse(event.time);
    const waiting = this.#pending.get(key);
    if (waiting !== undefined && event.type !== "policy.decided") {
      // What became of an ask: its request (with the approval id), or the refusal that replaced it.
      this.#emit(key, waiting, time, {
        ...(event.approvalId === undefined ? {} : { [OTEL_ATTRIBUTES.approvalId]: event.approvalId }),
        ...(event.type === "call.rejected" && event.reason !== undefined
          ? { [OTEL_ATTRIBUTES.rejected]: event.reason }
          : {}),
      });
    }
    switch (event.type) {
      case "call.received":
        if (this.#includeArguments && event.arguments !== undefined) {
          this.#remember(this.#arguments, key, JSON.stringify(event.arguments));
        }
        return;
      case "call.rejected":
        this.#arguments.delete(key);
        return;
      case "policy.decided":
        this.#decided(key, event, time);
        return;
      case "approval.granted":
      case "approval.rejected":
        if (event.waitedMs !== undefined) {
          this.#wait.record(event.waitedMs / 1000, {
            [OTEL_ATTRIBUTES.approvalOutcome]: event.type === "approval.granted" ? "granted" : "rejected",
            [OTEL_ATTRIBUTES.toolName]: event.toolName,
          });
        }
        return;
      case "approval.expired":
        this.#expired.add(1, { [OTEL_ATTRIBUTES.toolName]: event.toolName });
        return;
      default:
        return;
    }
  }

  #decided(key: string, event: AuditEvent, time: number): void {
    const action = event.decision ?? "deny";
    const args = this.#arguments.get(key);
    this.#arguments.delete(key);
    const attributes: Attributes = {
      [OTEL_ATTRIBUTES.toolName]: event.toolName,
      [OTEL_ATTRIBUTES.callId]: event.callId,
      [OTEL_ATTRIBUTES.action]: action,
      [OTEL_ATTRIBUTES.ruleIds]: [...(event.ruleIds ?? [])],
      [OTEL_ATTRIBUTES.fingerprint]: event.fingerprint,
      [OTEL_ATTRIBUTES.mode]: event.mode ?? "enforce",
      ...(event.reason === undefined ? {} : { [OTEL_ATTRIBUTES.reason]: event.reason }),
      ...(event.wouldHave === undefined ? {} : { [OTEL_ATTRIBUTES.wouldHave]: event.wouldHave }),
      ...(event.approvalId === undefined ? {} : { [OTEL_ATTRIBUTES.approvalId]: event.approvalId }),
      ...(event.requestFingerprint === undefined
        ? {}
        : { [OTEL_ATTRIBUTES.requestFingerprint]: event.requestFingerprint }),
      ...(args === undefined ? {} : { [OTEL_ATTRIBUTES.arguments]: args }),
    };
    this.#decisions.add(1, {
      [OTEL_ATTRIBUTES.action]: action,
      [OTEL_ATTRIBUTES.mode]: event.mode ?? "enforce",
      [OTEL_ATTRIBUTES.toolName]: event.toolName,
      ...(event.wouldHave === undefined ? {} : { [OTEL_ATTRIBUTES.wouldHave]: event.wouldHave }),
    });
    // An ask from handle (no approval id yet) waits for its request; everything else is reported now.
    if (action === "ask" && event.approvalId === undefined) {
      const earlier = this.#pending.get(key);
      if (earlier !== undefined) this.#emit(key, earlier, time, {});
      this.#remember(this.#pending, key, { attributes, start: time });
      return;
    }
    this.#span(attributes, time, time);
  }

  #emit(key: string, pending: PendingDecision, end: number, extra: Attributes): void {
    this.#pending.delete(key);
    this.#span({ ...pending.attributes, ...extra }, pending.start, end);
  }

  #span(attributes: Attributes, start: number, end: number): void {
    const name = `toolgate.decision ${String(attributes[OTEL_ATTRIBUTES.toolName])}`;
    const span: Span = this.#tracer.startSpan(name, { startTime: start, attributes });
    span.end(Math.max(start, end));
  }

  /** Adds to a bounded map: the oldest entry goes when it is full (an ask's span is then ended as it is). */
  #remember<V>(map: Map<string, V>, key: string, value: V): void {
    map.delete(key);
    map.set(key, value);
    if (map.size <= this.#maxPending) return;
    const oldest = map.keys().next().value as string;
    const pending = this.#pending.get(oldest);
    if (map === (this.#pending as Map<string, unknown>) && pending !== undefined) {
      this.#emit(oldest, pending, Date.now(), {});
    } else map.delete(oldest);
  }
}
