/**
 * `toolgate/langchain`: toolgate in front of LangChain tools, for LangChain agents (`createAgent`) and
 * LangGraph graphs (`@langchain/core` and `@langchain/langgraph`, optional peer dependencies). Every export of
 * this file is public API.
 *
 * Each visible spec of a controller becomes a LangChain tool whose schema is the spec's input schema (a tool
 * is declared once; its argument type comes from `toolgate codegen`'s `ToolArgs`):
 * - allow: the tool runs the controller's handler and returns its output;
 * - deny: the tool returns an error `ToolMessage` with toolgate's reason; nothing runs;
 * - ask: the tool stores a toolgate approval request and calls LangGraph's `interrupt()` with a payload in the
 *   shape of LangChain's human-in-the-loop middleware (`actionRequests`, `reviewConfigs`), so the same UI
 *   answers it. The run pauses (a checkpointer keeps it, durably with a durable one); resuming with
 *   `new Command({ resume: { decisions: [{ type: "approve" }] } })` (or `edit` / `reject`) runs the node
 *   again, and the tool finds its request, takes the approval once, re-checks it against the policy in force
 *   and runs the handler with the approved arguments. An `edit` is a new call: it is decided again, and the
 *   person's edit counts as their approval of exactly the edited arguments.
 *
 * Each call is read, turned into canonical calls and answered through the host's adapter
 * (`hosts/langchain.ts`); it fails closed through the adapter's `failClosed`.
 */
import type { DynamicStructuredTool, ToolRunnableConfig } from "@langchain/core/tools";
import type { JsonSchema7Type } from "@langchain/core/utils/json_schema";
import type { FrameworkOutcome } from "../hosts/framework-outcome.js";
import { NO_SCOPE } from "../hosts/host-adapter.js";
import {
  type LangChainDecision,
  type LangChainMessage,
  langChainAdapter,
  langChainInterrupt,
  readLangChainDecision,
} from "../hosts/langchain.js";
import type { ToolController } from "../runtime/controller.js";
import { ToolgateError } from "../runtime/errors.js";
import type { ToolCall, ToolContext, ToolSpec } from "../runtime/types.js";
import { ApprovalBridge, type FrameworkDecision, isApprovalRequest } from "./approval-bridge.js";
import { importPeer } from "./peer.js";

export type { LangChainDecision, ToolgateInterrupt } from "../hosts/langchain.js";

const core = await importPeer<typeof import("@langchain/core/tools")>(
  "@langchain/core/tools",
  "toolgate/langchain",
  "@langchain/core @langchain/langgraph",
);
const messages = await importPeer<typeof import("@langchain/core/messages")>(
  "@langchain/core/messages",
  "toolgate/langchain",
  "@langchain/core @langchain/langgraph",
);
const graph = await importPeer<typeof import("@langchain/langgraph")>(
  "@langchain/langgraph",
  "toolgate/langchain",
  "@langchain/langgraph",
);

type StructuredTool = ReturnType<typeof core.tool>;

/** Options of `LangChainGate`. */
export interface LangChainGateOptions {
  /** The caller facts (validated against the config's `context_schema`) from the tool's run config. */
  readonly context?: (config: ToolRunnableConfig) => ToolContext;
  /** Who approved, when a decision names nobody (default `langchain`). */
  readonly approver?: string;
  /**
   * What an ask does: `interrupt` (default) pauses the graph with LangGraph's `interrupt()`; `message`
   * returns a tool message saying that a person's approval is waiting (for tools used outside a graph; the
   * person then approves with `toolgate approvals approve`, and the model's next call of the same tool with
   * the same arguments and call id runs it).
   */
  readonly onAsk?: "interrupt" | "message";
}

/** The LangChain tools of a controller, by name, typed by `toolgate codegen`'s `ToolArgs`. */
export type GatedLangChainTools<Args> = {
  [Name in keyof Args & string]: DynamicStructuredTool<JsonSchema7Type, Args[Name], Args[Name], unknown>;
};

/** toolgate in front of LangChain tools, over one controller. */
export class LangChainGate<Args = Record<string, unknown>> {
  readonly controller: ToolController;
  readonly #bridge: ApprovalBridge;
  readonly #options: LangChainGateOptions;
  #fallbackIds = 0;

  constructor(controller: ToolController, options: LangChainGateOptions = {}) {
    this.controller = controller;
    this.#options = options;
    this.#bridge = new ApprovalBridge(controller, options.approver ?? "langchain");
  }

  /** One LangChain tool per visible spec (tools denied outright are not offered to the model). */
  tools(): StructuredTool[] {
    return this.controller.visibleSpecs().map((spec) => this.#tool(spec));
  }

  /** The same tools by name. */
  toolsByName(): GatedLangChainTools<Args> {
    return Object.fromEntries(this.tools().map((t) => [t.name, t])) as GatedLangChainTools<Args>;
  }

  #tool(spec: ToolSpec): StructuredTool {
    return core.tool(async (input: unknown, config: ToolRunnableConfig) => this.#run(spec, input, config), {
      name: spec.name,
      description: spec.description,
      // A copy: LangChain's JSON Schema validator annotates the schema object, and the spec's is frozen.
      schema: structuredClone(spec.inputSchema) as JsonSchema7Type,
    }) as StructuredTool;
  }

  /** The call and its caller context, read through the host's adapter. */
  #read(spec: ToolSpec, input: unknown, config: ToolRunnableConfig): LangChainMessage {
    const read = langChainAdapter.read({
      spec,
      input,
      toolCallId: config.toolCall?.id,
      nextCallId: () => `langchain_${Date.now()}_${this.#fallbackIds++}`,
      context: this.#options.context === undefined ? {} : this.#options.context(config),
    });
    // The adapter reads every call LangChain hands over (LangChain parsed its arguments).
    if (!read.ok)
      throw new ToolgateError("tool-refused", langChainAdapter.failClosed.answer(read.reason).content);
    const canonical = langChainAdapter.toCalls(read.message, NO_SCOPE);
    return { call: canonical.calls[0] ?? read.message.call, context: canonical.context };
  }

  async #run(spec: ToolSpec, input: unknown, config: ToolRunnableConfig): Promise<unknown> {
    const message = this.#read(spec, input, config);
    const { call, context } = message;
    const open = await this.#bridge.openRequest(call);
    if (open === undefined && this.#options.onAsk !== "message") {
      // A resume replayed on a step that already used its approval: the stored answer is for that request.
      const closed = await this.#bridge.closedRequest(call);
      if (closed !== undefined) {
        return this.#error(
          message,
          `this call's approval request ${closed.request.approvalId} is ${closed.state}: an answer is applied once; nothing ran`,
        );
      }
    }
    const step = open ?? (await this.#bridge.request(call, context));
    if (!isApprovalRequest(step)) {
      return this.#answer(message, await this.#bridge.execute(call, context, undefined));
    }
    if (this.#options.onAsk === "message") {
      const stored = await this.controller.approvals.store.get(step.approvalId);
      if (stored.found && stored.approval.state !== "pending") {
        return this.#answer(message, await this.#bridge.resolve(step.approvalId, { approved: false }));
      }
      return this.#answer(message, step);
    }
    // The first run stops here; when the graph resumes, the node runs again, finds the same open request
    // and `interrupt` returns the person's answer.
    const answer = readLangChainDecision(graph.interrupt(langChainInterrupt(call, step)));
    if (answer === undefined) {
      const result = await this.#bridge.resolve(step.approvalId, {
        approved: false,
        reason: "the answer to the interrupt was not a decision (approve, edit or reject)",
      });
      return this.#answer(message, result);
    }
    if (answer.type === "reject") {
      const decision: FrameworkDecision = {
        approved: false,
        ...(answer.approver === undefined ? {} : { approver: answer.approver }),
        ...(answer.message === undefined ? {} : { reason: answer.message }),
      };
      return this.#answer(message, await this.#bridge.resolve(step.approvalId, decision));
    }
    const approver = answer.approver === undefined ? {} : { approver: answer.approver };
    const reason = answer.reason === undefined ? {} : { reason: answer.reason };
    if (answer.type === "approve") {
      const result = await this.#bridge.resolve(
        step.approvalId,
        { approved: true, ...approver, ...reason },
        context,
      );
      return this.#answer(message, result);
    }
    return this.#edited(message, step.approvalId, answer);
  }

  /**
   * An edit: the original request is closed as rejected, and the edited call is decided anew; where it asks,
   * the person's edit is their approval of exactly those arguments (stored, taken once, re-checked).
   */
  async #edited(
    message: LangChainMessage,
    approvalId: string,
    answer: Extract<LangChainDecision, { type: "edit" }>,
  ): Promise<unknown> {
    const { call, context } = message;
    const approver = answer.approver === undefined ? {} : { approver: answer.approver };
    await this.#bridge.resolve(approvalId, {
      approved: false,
      ...approver,
      reason: "the person edited the call; the edited call is decided on its own",
    });
    if (answer.editedAction.name !== call.toolName) {
      return this.#error(
        message,
        `an edit may change the arguments of ${call.toolName}, not the tool (${answer.editedAction.name}); nothing ran`,
      );
    }
    const edited: ToolCall = {
      callId: `${call.callId}#edited`,
      toolName: call.toolName,
      arguments: answer.editedAction.args,
    };
    const step = await this.#bridge.request(edited, context);
    if (!isApprovalRequest(step)) {
      return this.#answer(message, await this.#bridge.execute(edited, context, undefined));
    }
    const decision = { approved: true, ...approver, reason: answer.reason ?? "approved as edited" };
    return this.#answer(message, await this.#bridge.resolve(step.approvalId, decision, context));
  }

  /** The tool's return value for an outcome, written by the host's adapter. */
  #answer(message: LangChainMessage, outcome: FrameworkOutcome): unknown {
    const answer = langChainAdapter.answer(outcome, message);
    return answer.kind === "output" ? answer.content : this.#error(message, answer.content);
  }

  /** An error tool message for the call (nothing ran). */
  #error({ call }: LangChainMessage, content: string): unknown {
    return new messages.ToolMessage({
      content,
      tool_call_id: call.callId,
      name: call.toolName,
      status: "error",
    });
  }
}
