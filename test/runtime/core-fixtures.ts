/** Tools and small doubles shared by the tests of the tool-call core. */
import {
  type ApprovalRequest,
  type ApprovalStore,
  type AuditEvent,
  type AuditSink,
  defineTool,
  MemoryApprovalStore,
  StoreUnavailableError,
  type ToolDefinition,
  type ToolResult,
} from "toolgate";

/** The seed's calculator: adds exactly two integers `a` and `b`. */
export const CALCULATOR_SCHEMA = {
  type: "object",
  properties: { a: { type: "integer" }, b: { type: "integer" } },
  required: ["a", "b"],
  additionalProperties: false,
} as const;

/** A tool whose handler counts its runs, so that a test can say "nothing ran". */
export interface CountedTool {
  readonly definition: ToolDefinition<never>;
  readonly runs: unknown[];
}

/** The calculator with a run log. */
export function countedCalculator(name = "calculator"): CountedTool {
  const runs: unknown[] = [];
  const definition = defineTool<{ a: number; b: number }>(
    { name, description: "Add exactly two integers named a and b.", inputSchema: CALCULATOR_SCHEMA },
    (args) => {
      runs.push(args);
      return String(args.a + args.b);
    },
  );
  return { definition, runs };
}

/** A tool with one string argument `path`, whose handler echoes it. */
export function countedPathTool(name = "read_file"): CountedTool {
  const runs: unknown[] = [];
  const definition = defineTool<{ path: string }>(
    {
      name,
      description: "Read a file.",
      inputSchema: {
        type: "object",
        properties: { path: { type: "string", minLength: 1 } },
        required: ["path"],
        additionalProperties: false,
      },
    },
    (args) => {
      runs.push(args);
      return `contents of ${args.path}`;
    },
  );
  return { definition, runs };
}

/** Narrows a `handle` outcome to a result, failing the test otherwise. */
export function asResult(outcome: ToolResult | ApprovalRequest): ToolResult {
  if ("kind" in outcome)
    throw new Error(`expected a ToolResult, got an approval request ${outcome.approvalId}`);
  return outcome;
}

/** Narrows a `handle` outcome to an approval request, failing the test otherwise. */
export function asApproval(outcome: ToolResult | ApprovalRequest): ApprovalRequest {
  if (!("kind" in outcome) || outcome.kind !== "approval-request") {
    throw new Error(`expected an ApprovalRequest, got ${JSON.stringify(outcome)}`);
  }
  return outcome;
}

/** A memory store whose `put` or `take` fails as an unreachable database would. */
export class FailingApprovalStore extends MemoryApprovalStore implements ApprovalStore {
  readonly #failing: "put" | "take";
  constructor(failing: "put" | "take") {
    super();
    this.#failing = failing;
  }
  override async put(request: ApprovalRequest): Promise<void> {
    if (this.#failing === "put") throw new StoreUnavailableError("failing-store", "connection refused");
    return super.put(request);
  }
  override async take(approvalId: string, now: number) {
    if (this.#failing === "take") throw new StoreUnavailableError("failing-store", "connection refused");
    return super.take(approvalId, now);
  }
}

/** An audit sink that cannot write, optionally only for some event types. */
export class FailingAuditSink implements AuditSink {
  readonly name = "failing-audit";
  readonly events: AuditEvent[] = [];
  readonly #failOn: ReadonlySet<string> | "all";
  constructor(failOn: readonly AuditEvent["type"][] | "all" = "all") {
    this.#failOn = failOn === "all" ? "all" : new Set(failOn);
  }
  async record(event: AuditEvent): Promise<void> {
    if (this.#failOn === "all" || this.#failOn.has(event.type)) {
      throw new StoreUnavailableError(this.name, "disk full");
    }
    this.events.push(event);
  }
  async close(): Promise<void> {}
}
