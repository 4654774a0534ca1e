/**
 * `toolgate/ai-sdk`: toolgate in front of the tools of the Vercel AI SDK (`ai` 6, an optional peer
 * dependency). Every export of this file is public API.
 *
 * Each visible spec of a controller becomes an AI SDK tool whose input schema is the spec's, so a tool is
 * declared once (in the tool spec) and its argument type comes from `toolgate codegen`'s `ToolArgs`:
 * - allow: the SDK calls `execute`, which runs the controller's handler;
 * - deny: `execute` throws the controller's reason, which the SDK hands to the model as a tool error; nothing
 *   runs (`needsApproval` is false, so no approval is offered for a denied call);
 * - ask: `needsApproval` stores a toolgate approval request (it never runs the handler) and answers `true`, so
 *   `generateText`/`streamText` return a `tool-approval-request`. When the conversation comes back with the
 *   SDK's `tool-approval-response`, the SDK asks `needsApproval` again (true only while toolgate's request is
 *   open, so a replayed approval is refused) and calls `execute`, which takes toolgate's approval once,
 *   re-checks it against the policy in force and runs the handler with the approved arguments.
 *
 * Each call is read, turned into canonical calls and answered through the host's adapter
 * (`hosts/ai-sdk.ts`); it fails closed through the adapter's `failClosed`.
 */
import type { ModelMessage, Tool, ToolApprovalResponse, ToolExecutionOptions } from "ai";
import { type AiSdkMessage, aiSdkAdapter, aiSdkApprovalResponses } from "../hosts/ai-sdk.js";
import { NO_SCOPE } from "../hosts/host-adapter.js";
import type { ToolController } from "../runtime/controller.js";
import { ToolgateError } from "../runtime/errors.js";
import type { ToolContext, ToolResult, ToolSpec } from "../runtime/types.js";
import { ApprovalBridge, type FrameworkDecision, isApprovalRequest } from "./approval-bridge.js";
import { importPeer } from "./peer.js";

const ai = await importPeer<typeof import("ai")>("ai", "toolgate/ai-sdk", "ai@6");

/** Options of `AiSdkGate`. */
export interface AiSdkGateOptions {
  /** The caller facts (validated against the config's `context_schema`) from the SDK's `experimental_context`. */
  readonly context?: (experimentalContext: unknown) => ToolContext;
  /** Who approved, when an approval names nobody (default `ai-sdk`). */
  readonly approver?: string;
}

/** The AI SDK tools of a controller, typed by `toolgate codegen`'s `ToolArgs` (tool name → argument type). */
export type GatedTools<Args> = { [Name in keyof Args & string]: Tool<Args[Name], string> };

/** An approval request as `generateText`/`streamText` return it (`result.content` parts). */
export interface AiSdkApprovalRequest {
  readonly type: "tool-approval-request";
  readonly approvalId: string;
  readonly toolCall: { readonly toolCallId: string; readonly toolName: string; readonly input: unknown };
}

/** A person's decision on an approval request. */
export interface AiSdkDecision {
  readonly approver?: string;
  readonly reason?: string;
}

/**
 * The error an `execute` throws when toolgate refused a call or holds it for a person (code `tool-refused`):
 * nothing ran, and the SDK hands its message to the model as the tool's error.
 */
export class ToolgateRefusal extends ToolgateError {
  readonly result: ToolResult;
  constructor(result: ToolResult) {
    super("tool-refused", result.content);
    this.result = result;
  }
}

/** toolgate in front of AI SDK tools, over one controller. */
export class AiSdkGate<Args = Record<string, unknown>> {
  readonly controller: ToolController;
  readonly #bridge: ApprovalBridge;
  readonly #options: AiSdkGateOptions;

  constructor(controller: ToolController, options: AiSdkGateOptions = {}) {
    this.controller = controller;
    this.#options = options;
    this.#bridge = new ApprovalBridge(controller, options.approver ?? "ai-sdk");
  }

  /** One AI SDK tool per visible spec (tools denied outright are not offered to the model). */
  tools(): GatedTools<Args> {
    const tools: Record<string, Tool<unknown, string>> = {};
    for (const spec of this.controller.visibleSpecs()) tools[spec.name] = this.#tool(spec);
    return tools as GatedTools<Args>;
  }

  /**
   * Approves a `tool-approval-request`: records the person in toolgate's store, and returns the
   * `tool-approval-response` to add to the messages (in a `tool` message) before calling the model again.
   */
  async approve(request: AiSdkApprovalRequest, decision: AiSdkDecision = {}): Promise<ToolApprovalResponse> {
    return this.#answer(request, { ...decision, approved: true });
  }

  /**
   * Rejects a `tool-approval-request`: toolgate's request is resolved as rejected (audited; nothing runs), and
   * the returned `tool-approval-response` tells the model why.
   */
  async reject(request: AiSdkApprovalRequest, decision: AiSdkDecision = {}): Promise<ToolApprovalResponse> {
    return this.#answer(request, { ...decision, approved: false });
  }

  /**
   * Records in toolgate the rejections that a conversation carries as `tool-approval-response` parts (as
   * `useChat`'s `addToolApprovalResponse` sends them), so that toolgate's requests of rejected calls are closed
   * and audited. Approvals need nothing here: the SDK's `execute` takes them.
   */
  async recordRejections(messages: readonly ModelMessage[]): Promise<number> {
    let recorded = 0;
    for (const { response, call } of aiSdkApprovalResponses(messages)) {
      if (response.approved) continue;
      const open = await this.#bridge.openRequest(call);
      if (open === undefined) continue;
      await this.#bridge.resolve(open.approvalId, {
        approved: false,
        ...(response.reason === undefined ? {} : { reason: response.reason }),
      });
      recorded++;
    }
    return recorded;
  }

  async #answer(request: AiSdkApprovalRequest, decision: FrameworkDecision): Promise<ToolApprovalResponse> {
    const { toolCallId, toolName, input } = request.toolCall;
    const open = await this.#bridge.openRequest({ callId: toolCallId, toolName, arguments: input });
    if (open !== undefined) {
      if (decision.approved) await this.#bridge.respond(open.approvalId, decision);
      else await this.#bridge.resolve(open.approvalId, decision);
    }
    return {
      type: "tool-approval-response",
      approvalId: request.approvalId,
      approved: decision.approved,
      ...(decision.reason === undefined ? {} : { reason: decision.reason }),
    };
  }

  #context(experimentalContext: unknown): ToolContext {
    return this.#options.context === undefined ? {} : this.#options.context(experimentalContext);
  }

  /** The call, its caller context and the person's answer it carries, read through the host's adapter. */
  #read(
    spec: ToolSpec,
    input: unknown,
    {
      toolCallId,
      messages,
      experimental_context,
    }: Pick<ToolExecutionOptions, "toolCallId" | "messages" | "experimental_context">,
  ): AiSdkMessage {
    const context = this.#context(experimental_context);
    const read = aiSdkAdapter.read({ spec, input, toolCallId, messages, context });
    // The adapter reads every call the SDK hands over (the SDK parsed its arguments).
    if (!read.ok) throw new ToolgateRefusal(refusal(aiSdkAdapter.failClosed.answer(read.reason)));
    const canonical = aiSdkAdapter.toCalls(read.message, NO_SCOPE);
    return { ...read.message, call: canonical.calls[0] ?? read.message.call, context: canonical.context };
  }

  #tool(spec: ToolSpec): Tool<unknown, string> {
    return ai.tool<unknown, string>({
      description: spec.description,
      // toolgate validates the arguments; the SDK only shows the schema to the model.
      inputSchema: ai.jsonSchema(spec.inputSchema as Parameters<typeof ai.jsonSchema>[0]),
      needsApproval: async (input, options) => {
        const { call, context, approval } = this.#read(spec, input, options);
        if (approval !== undefined) {
          // The SDK checks an approval that came back: it stands only while toolgate's request is open.
          return (await this.#bridge.openRequest(call)) !== undefined;
        }
        const step = await this.#bridge.request(call, context);
        return isApprovalRequest(step);
      },
      execute: async (input: unknown, options: ToolExecutionOptions) => {
        const message = this.#read(spec, input, options);
        const outcome = await this.#bridge.execute(
          message.call,
          message.context,
          message.approval?.approved === true ? { approved: true } : undefined,
        );
        const answer = aiSdkAdapter.answer(outcome, message);
        if (answer.kind === "refused") throw new ToolgateRefusal(answer.result);
        return answer.output;
      },
    });
  }
}

/** The result a refusing answer carries. */
function refusal(answer: ReturnType<typeof aiSdkAdapter.failClosed.answer>): ToolResult {
  return answer.kind === "refused"
    ? answer.result
    : { callId: "ai-sdk", content: answer.output, isError: true };
}
