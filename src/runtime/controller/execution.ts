/**
 * The controller's execution step: runs an allowed (or approved, or granted) call's handler, under the
 * handler timeout when one is set, and records what came of it (`tool.executed`, `tool.failed` or, once,
 * `tool.defect`).
 */
import { errorResult, type ToolRuntime } from "../tool-runtime.js";
import type { PreparedToolCall, ToolContext, ToolResult } from "../types.js";
import type { ApprovalLink, AuditTrail, DefectState } from "./audit-trail.js";

/** What running a prepared call needs (a remembered approval runs it without a new request). */
export interface Runnable {
  readonly runtime: ToolRuntime;
  readonly prepared: PreparedToolCall;
  readonly defect: DefectState;
}

/** Runs handlers for one controller and records their outcome in its audit trail. */
export class Execution {
  readonly #trail: AuditTrail;
  readonly #handlerTimeoutMs: number | undefined;

  constructor(trail: AuditTrail, handlerTimeoutMs: number | undefined) {
    this.#trail = trail;
    this.#handlerTimeoutMs = handlerTimeoutMs;
  }

  /** Runs the handler, under the timeout when one is set. */
  runHandler(runtime: ToolRuntime, prepared: PreparedToolCall, context: ToolContext): Promise<ToolResult> {
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

  /**
   * Runs the handler and records its result; a defect is recorded (once) and re-thrown unchanged.
   * @param link the approval or grant the call runs under, for the audit events.
   */
  async execute(
    run: Runnable,
    context: ToolContext,
    fingerprint: string,
    link: ApprovalLink,
  ): Promise<ToolResult> {
    const call = run.prepared.call;
    let result: ToolResult;
    try {
      result = await this.runHandler(run.runtime, run.prepared, context);
    } catch (error) {
      await this.#trail.recordDefect(call, error, run.defect, link, fingerprint);
      throw error;
    }
    await this.#trail.record(result.isError ? "tool.failed" : "tool.executed", call, fingerprint, {
      ...link,
      ...(result.isError ? { reason: result.content } : {}),
    });
    return result;
  }
}
