/**
 * The one shape every host takes. A host is anything that proposes tool calls from outside the application
 * (a coding agent's hook, the MCP gateway, an agents framework, a model provider's message format). Its adapter
 * reads the host's message, turns it into canonical calls (tool, arguments, caller context, working directory
 * and roots), lets one controller decide them, writes the host's answer, and says how the host fails closed.
 * Conversion-only shapes (OpenAI, Anthropic) have no `decide`: the application decides with its own
 * controller and converts the result back with `answer`.
 *
 * The steps are methods, so that a host's adapter (over its own message type) is one of the registry's.
 */
import type { ToolController } from "../runtime/controller.js";
import type { ToolAlias } from "../runtime/tool-aliases.js";
import type { PolicyAction, ToolCall, ToolContext } from "../runtime/types.js";

/** A host's message as read: the message, or why it cannot be read (the host then fails closed). */
export type HostRead<Message> =
  | { readonly ok: true; readonly message: Message }
  | { readonly ok: false; readonly reason: string };

/** What the policy tells an adapter when it turns a message into canonical calls. */
export interface HostScope {
  /** Whether the policy declares a tool of this name. */
  readonly declared: (name: string) => boolean;
  /** The directories paths are read against: the project (working) directory first, then the other roots. */
  readonly roots: readonly string[];
  /** The configuration's `context_schema`: which caller facts a policy may match. */
  readonly contextSchema: unknown;
  /** The configuration's tool aliases: how a host's own tools read as canonical tools (none: `[]`). */
  readonly aliases?: readonly ToolAlias[];
}

/** The canonical calls that stand for one host message, decided together. */
export interface CanonicalCalls {
  readonly calls: readonly ToolCall[];
  /** The caller facts the policy may match under `context:`. */
  readonly context: ToolContext;
  /**
   * The call as the host sent it, when its paths were read relative to a root: a rule that matches it (an
   * absolute glob, a regex on the absolute text) still holds where it is stricter than the decision.
   */
  readonly sent?: ToolCall;
}

/** What one controller decided for a message: the strictest action and the reasons for it. */
export interface HostDecision {
  readonly action: PolicyAction;
  readonly reason: string;
}

/** The part of a controller a deciding adapter uses. */
export type DecidingController = Pick<ToolController, "explain">;

/** How a host fails closed: what it receives when toolgate cannot read its message or load the policy. */
export interface FailClosed<Answer> {
  /** The process's exit code, for hosts that run toolgate as a command (hooks). */
  readonly exitCode?: number;
  /** The host's answer that refuses, saying why (a blocking hook answer, an error result, a refusal text). */
  readonly answer: (reason: string) => Answer;
}

/**
 * One host's adapter.
 * @typeParam Input what the host hands toolgate (hook stdin text, an MCP `tools/call`, an SDK tool call).
 * @typeParam Message the message once read.
 * @typeParam Answer what toolgate hands back, in the host's format.
 * @typeParam Outcome what `answer` is given: a decision (hooks: the host runs the tool) or a controller's
 *   result (the tool ran here, or was refused).
 */
export interface HostAdapter<Input, Message, Answer, Outcome = HostDecision> {
  /** The host's name (`claude-code`, `mcp-gateway`, `openai`, …). */
  readonly host: string;
  /**
   * `hook` adapters decide with `decide`; `gateway` and `framework` ones hand their calls to a controller's
   * `handle` (where an ask waits for a person); `conversion` ones only convert.
   */
  readonly role: "hook" | "gateway" | "framework" | "conversion";
  /** Reads the host's message, or says why it cannot. */
  read(input: Input): HostRead<Message>;
  /** The canonical calls that stand for a message. */
  toCalls(message: Message, scope: HostScope): CanonicalCalls;
  /** Decides the calls through one controller; absent where the application decides (conversion shapes). */
  decide?(controller: DecidingController, calls: CanonicalCalls): Outcome;
  /** The host's answer for an outcome. */
  answer(outcome: Outcome, message: Message): Answer;
  /** How the host fails closed. */
  readonly failClosed: FailClosed<Answer>;
}

/** A scope for hosts whose calls carry no paths to read against roots and no caller facts of their own. */
export const NO_SCOPE: HostScope = Object.freeze({
  declared: () => true,
  roots: Object.freeze([]) as readonly string[],
  contextSchema: null,
});
