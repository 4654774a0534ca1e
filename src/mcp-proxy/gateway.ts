/**
 * The gate between an MCP client and one MCP server: `tools/list` offers the visible specs of the tools the
 * start-up check accepted, and every `tools/call` goes through a `ToolController` built from the
 * configuration. Allow forwards the call to the server; deny answers with an error result and never reaches
 * it; ask waits for a person (MCP elicitation, or the approval store decided from a terminal).
 *
 * Transport-free: `serveGateway` wires a gateway to one MCP `Server` (one per client session). The SDK is
 * only referenced by type here, so that loading this file never loads it.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { resolve } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type {
  CallToolRequest,
  CallToolResult,
  ElicitRequestFormParams,
  ElicitResult,
  ServerNotification,
  Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { linkTarget } from "../adapters/hook-payload.js";
import type { PolicyBundle } from "../bundle/policy-bundle.js";
import { createController } from "../composition/create-controller.js";
import { escapeControl } from "../diagnostics/escape-control.js";
import { mcpGatewayAdapter, mcpResultText, mcpText } from "../hosts/mcp-gateway.js";
import type { StoredApproval } from "../runtime/approval-store.js";
import type { AuditEvent, AuditSink } from "../runtime/audit.js";
import { hashCanonical } from "../runtime/canonical-json.js";
import { redactArguments, type ToolController } from "../runtime/controller.js";
import { ApprovalError, ToolFailure } from "../runtime/errors.js";
import type { HandlerMap } from "../runtime/handlers.js";
import type {
  ApprovalRequest,
  ApprovalResponse,
  ArgumentValidator,
  ToolCall,
  ToolResult,
} from "../runtime/types.js";
import { openApprovalStore, openAuditSink } from "../stores/open-store.js";
import { checkServerTools, type ServerTool, type ServerToolCheck } from "./check-server-tools.js";
import {
  decideWithRoots,
  type FieldStep,
  pathFields,
  type RootedDecision,
  withRealPaths,
} from "./path-arguments.js";

/** Default time a `tools/call` waits for a person before answering how to approve: five minutes. */
export const DEFAULT_ASK_TIMEOUT_MS = 5 * 60 * 1000;

/** Options of `McpGateway`. */
export interface McpGatewayOptions {
  readonly bundle: PolicyBundle;
  /** The argument validators the load compiled (`LoadResult.validators`); compiled from the bundle when omitted. */
  readonly validators?: ReadonlyMap<string, ArgumentValidator>;
  /** A client connected to the real server. The gateway forwards allowed calls through it. */
  readonly upstream: Client;
  /** Every tool of the server's `tools/list`. */
  readonly serverTools: readonly ServerTool[];
  /** How long a call waits for an approval from the store before answering how to approve. */
  readonly askTimeoutMs?: number;
  /** How often the store is read while waiting (default 250 ms). */
  readonly pollIntervalMs?: number;
  /** How often a progress notification is sent while waiting, when the client asked for progress (default 5 s). */
  readonly progressIntervalMs?: number;
  /** The command a person runs to approve, before the id (default `toolgate approvals approve`). */
  readonly approveCommand?: string;
  /** Where operator messages go (default stderr). */
  readonly log?: (line: string) => void;
  /** Working directory the bundle was loaded from (default `process.cwd()`). */
  readonly cwd?: string;
  /**
   * Directories the agent works in (`--root`; the config's `roots:` are added): an absolute path argument under
   * one is decided relative to it. Absolute; the client's own roots (MCP `roots/list`) come per session.
   */
  readonly roots?: readonly string[];
  /** Where a path leads once its symbolic links are followed (default: the real path on this machine). */
  readonly resolveLink?: (absolutePath: string) => string | undefined;
}

/** What a `tools/call` handler knows about its request. */
export interface CallExtra {
  readonly signal: AbortSignal;
  readonly progressToken?: string | number;
  readonly sendNotification: (notification: ServerNotification) => Promise<void>;
  /** Present when the client supports form elicitation. */
  readonly elicit?: (params: ElicitRequestFormParams) => Promise<ElicitResult>;
  /** The name the client gives itself (its own claim, never an identity). */
  readonly clientName?: string;
  /** The HTTP session the call came in (absent on stdio, where the proxy has one client). */
  readonly sessionId?: string;
  /** The roots the client declared (MCP `roots/list`, when it has the roots capability), as absolute paths. */
  readonly roots?: () => Promise<readonly string[]>;
}

/** The forwarded call's raw result, kept beside the controller so that the client gets every content item. */
interface CallSlot {
  raw?: CallToolResult;
  readonly signal: AbortSignal;
  /** The arguments as the client sent them, when a path in them was decided as read against a root. */
  readonly sent?: unknown;
  /** Passes the server's progress on to the client, when the client asked for progress. */
  readonly onprogress?: (progress: Progress) => void;
}

/** A progress notification's values, as the SDK reports them. */
type Progress = { progress: number; total?: number | undefined; message?: string | undefined };

/** How long one forwarded call may run at most (progress from the server restarts the clock). */
const UPSTREAM_TIMEOUT_MS = 10 * 60 * 1000;

const isApprovalRequest = (value: ToolResult | ApprovalRequest): value is ApprovalRequest =>
  (value as ApprovalRequest).kind === "approval-request";

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });

/** An MCP gateway over one upstream server. */
export class McpGateway {
  readonly controller: ToolController;
  readonly check: ServerToolCheck;
  readonly #upstream: Client;
  readonly #slots = new AsyncLocalStorage<CallSlot>();
  /** How long a call waits for a person (store or elicitation) before answering how to approve. */
  readonly askTimeoutMs: number;
  readonly #pollIntervalMs: number;
  readonly #progressIntervalMs: number;
  readonly #approveCommand: string;
  readonly #log: (line: string) => void;
  readonly #audit: AuditSink | undefined;
  /** The path arguments of each tool (those its policy reads with `glob` or `path_prefix`). */
  readonly #pathFields: ReadonlyMap<string, readonly (readonly FieldStep[])[]>;
  /** `--root` and the config's `roots:`, each also as its real path. */
  readonly #roots: readonly string[];
  readonly #resolveLink: (absolutePath: string) => string | undefined;
  /** Per call id whose paths were read against a root: the arguments as sent, for the audit. */
  readonly #sent = new Map<string, unknown>();
  /** Per approval id made for a call whose paths were read against a root: the hash of the arguments as sent. */
  readonly #sentHashes = new Map<string, string>();
  readonly #redact: { readonly [tool: string]: "all" | readonly string[] };
  #callCount = 0;

  /**
   * Checks the server's tools and builds the controller (approvals and audit from the configuration).
   * @throws ControllerSetupError, or the store errors of `createController`.
   */
  constructor(options: McpGatewayOptions) {
    this.#upstream = options.upstream;
    this.askTimeoutMs = options.askTimeoutMs ?? DEFAULT_ASK_TIMEOUT_MS;
    this.#pollIntervalMs = options.pollIntervalMs ?? 250;
    this.#progressIntervalMs = options.progressIntervalMs ?? 5000;
    this.#approveCommand = options.approveCommand ?? "toolgate approvals approve";
    this.#log = options.log ?? ((line) => process.stderr.write(`toolgate mcp-proxy: ${line}\n`));
    this.check = checkServerTools(options.serverTools, options.bundle);
    this.#pathFields = pathFields(options.bundle);
    this.#resolveLink = options.resolveLink ?? linkTarget;
    this.#roots = withRealPaths(
      [...(options.roots ?? []), ...(options.bundle.settings.roots ?? [])],
      this.#resolveLink,
    );
    this.#redact = options.bundle.settings.audit?.redact ?? {};
    const handlers: Record<string, HandlerMap[string]> = {};
    for (const tool of options.bundle.tools) {
      handlers[tool.name] = this.check.offered.has(tool.name)
        ? (args: unknown) => this.#forward(tool.name, args)
        : () => {
            throw new ToolFailure(`the server's tool "${tool.name}" was refused at start; nothing ran`);
          };
    }
    // The gateway opens the configured store and sink itself, so that it can close them when the session ends.
    const base = resolve(options.cwd ?? process.cwd(), options.bundle.configDir);
    const { approvals, audit } = options.bundle.settings;
    this.#audit = audit === undefined ? undefined : this.#keepSent(openAuditSink(audit.sink, { cwd: base }));
    this.controller = createController({
      bundle: options.bundle,
      handlers,
      ...(options.validators === undefined ? {} : { validators: options.validators }),
      ...(approvals === undefined ? {} : { approvals: openApprovalStore(approvals, { cwd: base }) }),
      ...(this.#audit === undefined ? {} : { audit: this.#audit }),
    });
  }

  /** The `tools/list` result: the controller's visible specs, limited to the tools the server offers. */
  listTools(): Tool[] {
    return this.controller
      .visibleSpecs()
      .filter((spec) => this.check.offered.has(spec.name))
      .map((spec) => {
        const server = this.check.offered.get(spec.name) as ServerTool;
        return {
          name: spec.name,
          description: spec.description,
          inputSchema: spec.inputSchema as Tool["inputSchema"],
          ...(server.title === undefined ? {} : { title: server.title }),
          ...(server.outputSchema === undefined
            ? {}
            : { outputSchema: server.outputSchema as Tool["outputSchema"] }),
          ...(server.annotations === undefined
            ? {}
            : { annotations: server.annotations as Tool["annotations"] }),
        };
      });
  }

  /** Handles one `tools/call`. Never rejects for a call the policy or the server refuses. */
  async callTool(params: CallToolRequest["params"], extra: CallExtra): Promise<CallToolResult> {
    const reading = mcpGatewayAdapter.read({
      params,
      // Calls of an HTTP session carry its id: a retry takes up only that session's own waiting request.
      nextCallId: () =>
        `mcp_${extra.sessionId === undefined ? process.pid : `s${extra.sessionId}`}_${++this.#callCount}`,
      offered: (tool) => this.check.offered.has(tool),
    });
    if (!reading.ok) return mcpGatewayAdapter.failClosed.answer(reading.reason);
    const sent = reading.message;
    const name = sent.toolName;
    // Path arguments under a root are decided relative to it; the server gets the arguments as sent.
    const { call, explained, changed } = await this.#decide(sent, extra);
    const rewritten = call !== sent;
    const sentHash = rewritten ? hashCanonical(sent.arguments) : undefined;
    const token = extra.progressToken;
    const slot: CallSlot = {
      signal: extra.signal,
      ...(rewritten ? { sent: sent.arguments } : {}),
      ...(token === undefined
        ? {}
        : {
            onprogress: (p: Progress) => {
              void extra
                .sendNotification({
                  method: "notifications/progress",
                  params: {
                    progressToken: token,
                    progress: p.progress,
                    ...(p.total === undefined ? {} : { total: p.total }),
                    ...(p.message === undefined ? {} : { message: p.message }),
                  },
                })
                .catch(() => undefined);
            },
          }),
    };
    const read =
      changed.length === 0
        ? ""
        : // Escaped: the paths come from the model, and no control character may hide part of them.
          escapeControl(
            ` (decided with ${changed.map((c) => `${c.at} ${JSON.stringify(c.value)} read as ${c.readings.map((r) => JSON.stringify(r)).join(" and ")}`).join(", ")})`,
          );
    if (rewritten) this.#sent.set(call.callId, sent.arguments);
    try {
      // A retry of a call that waited for a person: take up the request already in the store.
      if ("decision" in explained && explained.decision.action === "ask") {
        const open = await this.#findOpenRequest(name, call.arguments, extra.sessionId, sentHash);
        if (open !== undefined) {
          if (rewritten) this.#sent.set(open.request.call.callId, sent.arguments);
          try {
            return await this.#awaitApproval(open.request, extra, slot);
          } finally {
            this.#sent.delete(open.request.call.callId);
          }
        }
      }
      const outcome = await this.#slots.run(slot, () => this.controller.handle(call));
      if (!isApprovalRequest(outcome)) return this.#toMcp(outcome, slot, call);
      if (sentHash !== undefined) this.#sentHashes.set(outcome.approvalId, sentHash);
      this.#log(
        `${name} needs a person's approval (${outcome.reason})${read}; approval ${outcome.approvalId} is waiting: ${this.#approveCommand} ${outcome.approvalId}`,
      );
      return await this.#awaitApproval(outcome, extra, slot);
    } finally {
      this.#sent.delete(call.callId);
    }
  }

  /** The call the policy decides (see {@link decideWithRoots}), with the client's roots when it has any. */
  async #decide(sent: ToolCall, extra: CallExtra): Promise<RootedDecision> {
    const fields = this.#pathFields.get(sent.toolName);
    if (fields === undefined) return { call: sent, explained: this.controller.explain(sent), changed: [] };
    const clientRoots = extra.roots === undefined ? [] : await extra.roots();
    const roots =
      clientRoots.length === 0
        ? this.#roots
        : [...this.#roots, ...withRealPaths(clientRoots, this.#resolveLink)];
    return decideWithRoots(this.controller, sent, fields, roots, this.#resolveLink);
  }

  /**
   * The audit sink, with the arguments as sent (redacted like the decided ones) on each event of a call whose
   * paths were read against a root: `arguments` are the ones decided, `sentArguments` the client's.
   */
  #keepSent(sink: AuditSink): AuditSink {
    const sent = this.#sent;
    const redact = () => this.#redact;
    const wrapped: AuditSink = {
      name: sink.name,
      record(event: AuditEvent): Promise<void> {
        const original = sent.get(event.callId);
        if (original === undefined || !("arguments" in event)) return sink.record(event);
        return sink.record({ ...event, sentArguments: redactArguments(original, redact()[event.toolName]) });
      },
      close: () => sink.close(),
    };
    if (sink.head !== undefined) {
      const head = sink.head.bind(sink);
      return { ...wrapped, head };
    }
    return wrapped;
  }

  /** Closes the approval store and the audit sink. */
  async close(): Promise<void> {
    await this.controller.approvals.store.close();
    await this.#audit?.close();
  }

  async #forward(name: string, args: unknown): Promise<string> {
    const slot = this.#slots.getStore();
    let raw: CallToolResult;
    try {
      // The server gets the arguments as the client sent them, never the readings the policy decided.
      const forwarded = (slot?.sent ?? args) as Record<string, unknown>;
      raw = (await this.#upstream.callTool({ name, arguments: forwarded }, undefined, {
        timeout: UPSTREAM_TIMEOUT_MS,
        resetTimeoutOnProgress: true,
        ...(slot === undefined ? {} : { signal: slot.signal }),
        ...(slot?.onprogress === undefined ? {} : { onprogress: slot.onprogress }),
      })) as CallToolResult;
    } catch (error) {
      throw new ToolFailure(
        `the MCP server could not run ${name}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (slot !== undefined) slot.raw = raw;
    const content = mcpResultText(raw);
    if (raw.isError === true) throw new ToolFailure(content === "" ? `${name} failed` : content);
    return content;
  }

  #toMcp(result: ToolResult, slot: CallSlot, call: ToolCall): CallToolResult {
    return mcpGatewayAdapter.answer({ result, ...(slot.raw === undefined ? {} : { raw: slot.raw }) }, call);
  }

  /**
   * The oldest open, unexpired request for the same tool and arguments (with no caller context) — on HTTP, of
   * the same session only, so that one client can never take up (and answer) another client's request.
   */
  async #findOpenRequest(
    tool: string,
    args: unknown,
    sessionId: string | undefined,
    sentHash: string | undefined,
  ): Promise<StoredApproval | undefined> {
    const hash = hashCanonical(args ?? null);
    const now = Date.now();
    const open = await this.controller.approvals.store.list(["pending", "approved", "rejected"]);
    const ownCall = (callId: string) =>
      sessionId === undefined ? !/^mcp_s/.test(callId) : callId.startsWith(`mcp_s${sessionId}_`);
    return open.find(
      (entry) =>
        ownCall(entry.request.call.callId) &&
        entry.request.call.toolName === tool &&
        entry.request.argumentsHash === hash &&
        entry.request.context === undefined &&
        entry.request.expiresAt > now &&
        // Paths read against a root: the same decided arguments may come from other arguments as sent (one
        // relative path under two roots), so only a request made here for the very same ones is taken up.
        this.#sentHashes.get(entry.request.approvalId) === sentHash,
    );
  }

  async #awaitApproval(request: ApprovalRequest, extra: CallExtra, slot: CallSlot): Promise<CallToolResult> {
    // A decision already in the store (a retry after `toolgate approvals approve`) is used as it is.
    const decided = await this.#storedDecision(request);
    if (
      decided === undefined &&
      extra.elicit === undefined &&
      this.controller.approvals.store.name === "memory"
    ) {
      // Nobody can answer: the client cannot be asked, and a memory store cannot be reached from a terminal.
      const why =
        "this MCP client does not support elicitation and the configuration has no approvals store (set approvals: sqlite:.toolgate/state.db to approve with toolgate approvals approve)";
      await this.controller.resolve({
        approvalId: request.approvalId,
        approved: false,
        reason: `nobody can approve it: ${why}`,
      });
      return mcpText(
        `this call needs a person's approval (${request.reason}), and nobody can approve it here: ${why}; nothing ran`,
      );
    }
    const response =
      decided ??
      (extra.elicit === undefined
        ? await this.#pollStore(request, extra)
        : await this.#elicit(request, extra, slot));
    if (response === "aborted")
      return mcpText("the call was cancelled while it waited for approval; nothing ran");
    if (response === "timeout") return mcpText(this.#howToApprove(request));
    if (response === "used")
      return mcpText(`approval ${request.approvalId} was already used by another call; nothing ran again`);
    try {
      const result = await this.#slots.run(slot, () => this.controller.resolve(response));
      return this.#toMcp(result, slot, request.call);
    } catch (error) {
      if (error instanceof ApprovalError) return mcpText(`${error.message}; nothing ran`);
      throw error;
    }
  }

  #howToApprove(request: ApprovalRequest): string {
    return (
      `this call needs a person's approval (${request.reason}) and none came within ${Math.round(this.askTimeoutMs / 1000)} s; nothing ran. ` +
      `Approval ${request.approvalId} is waiting: a person approves it with \`${this.#approveCommand} ${request.approvalId}\`, ` +
      `then call the tool again with the same arguments and it runs once. The request expires at ${new Date(request.expiresAt).toISOString()}.`
    );
  }

  /** The decision recorded in the store for a request, or `undefined` while it is pending. */
  async #storedDecision(request: ApprovalRequest): Promise<ApprovalResponse | "used" | undefined> {
    const found = await this.controller.approvals.store.get(request.approvalId);
    // Gone or expired: resolve() refuses it with its own message (not-found, expired).
    if (!found.found) return { approvalId: request.approvalId, approved: false };
    const { state, response } = found.approval;
    if (state === "pending" && request.expiresAt > Date.now()) return undefined;
    if (state === "used") return "used";
    return {
      approvalId: request.approvalId,
      approved: state === "approved",
      ...(response?.approver === undefined ? {} : { approver: response.approver }),
      ...(response?.reason === undefined ? {} : { reason: response.reason }),
    };
  }

  /** Waits for `toolgate approvals approve|reject` to decide the request in the store. */
  async #pollStore(
    request: ApprovalRequest,
    extra: CallExtra,
  ): Promise<ApprovalResponse | "timeout" | "aborted" | "used"> {
    const started = Date.now();
    const deadline = started + this.askTimeoutMs;
    let nextProgress = started;
    for (;;) {
      if (extra.signal.aborted) return "aborted";
      const decided = await this.#storedDecision(request);
      if (decided !== undefined) return decided;
      const now = Date.now();
      if (now >= deadline) return "timeout";
      if (extra.progressToken !== undefined && now >= nextProgress) {
        nextProgress = now + this.#progressIntervalMs;
        await extra
          .sendNotification({
            method: "notifications/progress",
            params: {
              progressToken: extra.progressToken,
              progress: (now - started) / 1000,
              total: this.askTimeoutMs / 1000,
              message: `waiting for a person to approve ${request.approvalId}: ${this.#approveCommand} ${request.approvalId}`,
            },
          })
          .catch(() => undefined);
      }
      await sleep(Math.min(this.#pollIntervalMs, Math.max(1, deadline - now)), extra.signal);
    }
  }

  /** Asks the person at the MCP client (form elicitation); anything but an explicit yes is a rejection. */
  async #elicit(
    request: ApprovalRequest,
    extra: CallExtra,
    slot: CallSlot,
  ): Promise<ApprovalResponse | "timeout" | "aborted" | "used"> {
    const elicit = extra.elicit as NonNullable<CallExtra["elicit"]>;
    // The approver is the client (a session of it), not a person's name: the name a client gives itself is its
    // own claim, kept in the reason only.
    const approver = `mcp-client${extra.sessionId === undefined ? "" : ` session ${extra.sessionId}`}`;
    const claimed =
      extra.clientName === undefined ? "" : ` (the client calls itself ${JSON.stringify(extra.clientName)})`;
    let answer: ElicitResult;
    try {
      answer = await elicit({
        mode: "form",
        message:
          // Escaped: arguments come from the model, and no control character may hide part of them.
          `toolgate: the model calls ${escapeControl(request.call.toolName)} with ${escapeControl(JSON.stringify(slot.sent ?? request.call.arguments) ?? "{}")}${slot.sent === undefined ? "" : ` (decided as ${escapeControl(JSON.stringify(request.call.arguments) ?? "{}")}, its paths relative to their roots)`}. ` +
          `It needs your approval: ${escapeControl(request.reason)}. Approve this one call?`,
        requestedSchema: {
          type: "object",
          properties: {
            approve: {
              type: "boolean",
              title: "Approve this call",
              description: `Run ${request.call.toolName} once with the arguments shown`,
              default: false,
            },
          },
          required: ["approve"],
        },
      });
    } catch {
      if (extra.signal.aborted) return "aborted";
      // No answer (the client timed out or failed): the request stays in the store; say how to approve it.
      return "timeout";
    }
    if (answer.action === "accept" && answer.content?.approve === true) {
      return {
        approvalId: request.approvalId,
        approved: true,
        approver,
        reason: `approved in the MCP client${claimed}`,
      };
    }
    return {
      approvalId: request.approvalId,
      approved: false,
      approver,
      reason: `${answer.action === "accept" ? "not approved in the MCP client" : `the person chose ${answer.action}`}${claimed}`,
    };
  }
}
