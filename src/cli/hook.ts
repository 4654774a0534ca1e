/**
 * `toolgate hook claude-code|gemini-cli|codex|cursor`: the commands for Claude Code's `PreToolUse` hook,
 * Gemini CLI's `BeforeTool` hook, Codex's `PreToolUse`/`PermissionRequest` hooks and Cursor's
 * `beforeShellExecution`/`beforeMCPExecution`/`beforeReadFile` hooks. Each reads the hook's JSON on stdin, decides with the configured policy
 * and writes the agent's documented JSON answer on stdout.
 *
 * Exit codes are the agents' for hooks (https://code.claude.com/docs/en/hooks, "Exit code output";
 * https://geminicli.com/docs/hooks/reference, "Global hook mechanics"), not the other commands': 0 with the
 * JSON answer; 2 — a blocking error in both — when the input or the configuration cannot be used. Nothing
 * either command cannot read is ever allowed.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  type ClaudeCodePreToolUseInput,
  type ClaudeCodePreToolUseOutput,
  hookAnswer,
  hookCalls,
  parseHookPayload,
} from "../adapters/claude-code-hook.js";
import { type CodexHookInput, codexAnswer, codexCalls, parseCodexPayload } from "../adapters/codex-hook.js";
import {
  type CursorHookEvent,
  type CursorHookInput,
  cursorAnswer,
  cursorCalls,
  parseCursorPayload,
} from "../adapters/cursor-hook.js";
import {
  type GeminiCliBeforeToolInput,
  type GeminiCliBeforeToolOutput,
  geminiCliAnswer,
  geminiCliCalls,
  parseGeminiCliPayload,
} from "../adapters/gemini-cli-hook.js";
import { isAbsolutePath, linkTarget, MAX_HOOK_INPUT_BYTES } from "../adapters/hook-payload.js";
import { DIAGNOSTICS } from "../config/diagnostic-codes.js";
import { loadPolicyResultSync } from "../config/load-policy.js";
import { formatDiagnostics } from "../diagnostics/format.js";
import { ACTION_RANK } from "../runtime/statements.js";
import type { PolicyAction, ToolCall } from "../runtime/types.js";
import { decisionController } from "../testing/run-policy-tests.js";
import { toolVersion, UsageError } from "./common.js";

/** Exit codes of a command hook (the same for Claude Code and Gemini CLI). */
export const HOOK_EXIT = { answered: 0, block: 2 } as const;

/** Options of `toolgate hook claude-code` (and, with `ask`, of `toolgate hook gemini-cli`). */
export interface HookCommandOptions {
  readonly config?: string;
  /** What a call the policy cannot read (unknown tool, arguments outside the pack's schemas) gets. */
  readonly unreadable: string;
  /** The project directory paths are read against (default: the agent's project variable, else the payload's cwd). */
  readonly project?: string;
  /** `--root`: other directories the agent works in (relative ones against the working directory). */
  readonly root?: readonly string[];
}

/** Where the command reads and writes; the CLI passes the process's streams. */
export interface HookIo {
  readonly readInput: () => Buffer;
  readonly write: (text: string) => void;
  readonly writeError: (text: string) => void;
}

const STRICTNESS: Readonly<Record<PolicyAction, number>> = ACTION_RANK;

/** The payload facts a policy may match under `context:`, when the config's context_schema declares them. */
const CONTEXT_FIELDS = ["permission_mode", "agent_type", "agent_id"] as const;

/**
 * The caller context for a payload: each of `permission_mode`, `agent_type` and `agent_id` that the
 * configuration's `context_schema` declares under `properties`, when the payload has it. A context that
 * then fails the schema makes the call unreadable (never allowed).
 */
function hookContext(
  payload: ClaudeCodePreToolUseInput,
  schema: unknown,
): { readonly [key: string]: unknown } {
  const properties =
    typeof schema === "object" && schema !== null
      ? (schema as { properties?: unknown }).properties
      : undefined;
  if (typeof properties !== "object" || properties === null) return {};
  const context: { [key: string]: unknown } = {};
  for (const field of CONTEXT_FIELDS) {
    const value = (payload as unknown as Record<string, unknown>)[field];
    if (Object.hasOwn(properties, field) && value !== undefined) context[field] = value;
  }
  return context;
}

/**
 * The roots a hook reads absolute paths against: the project directory, then `--root` (relative to the working
 * directory) and the config's `roots:`, each also as its real path (so that a link's target, which is a real
 * path, is compared with the real directory: `/tmp` may be `/private/tmp`).
 */
export function hookRoots(
  project: string,
  flags: readonly string[] | undefined,
  configured: readonly string[] | undefined,
): readonly string[] {
  const given = [project, ...(flags ?? []).map((root) => resolve(root)), ...(configured ?? [])];
  const real = given.flatMap((root) => {
    const target = linkTarget(root);
    return target === undefined ? [] : [target];
  });
  return [...new Set([...given, ...real])];
}

/** Reads all of stdin (file descriptor 0). */
export function readStdin(): Buffer {
  return readFileSync(0);
}

/** What differs between the agents a hook command answers. */
interface HookAgent<P extends { readonly cwd: string }> {
  /** Reads stdin text as the agent's payload, or says why it cannot. */
  readonly parse: (text: string) => { ok: true; payload: P } | { ok: false; reason: string };
  /**
   * The toolgate calls that stand for one payload (see hookCalls); `roots` are the project directory first,
   * then the other roots.
   */
  readonly calls: (
    payload: P,
    declared: (name: string) => boolean,
    roots: readonly string[],
  ) => readonly ToolCall[];
  /**
   * The call as the agent sent it, when its paths may have been read relative to a root: a rule that matches it
   * (an absolute glob, a regex on the absolute text) still holds when it is stricter than the decision.
   */
  readonly sent?: (payload: P) => ToolCall | undefined;
  /** The caller context the policy may match, given the configuration's context_schema. */
  readonly context: (payload: P, schema: unknown) => { readonly [key: string]: unknown };
  /** The answer (exit code 0) for the strictest decision and its reason. */
  readonly answer: (action: PolicyAction, reason: string) => number;
  /** Refuses the call with a blocking exit code, saying why. */
  readonly block: (reason: string) => number;
}

/**
 * Runs one hook invocation for `agent`: reads stdin, loads the configuration, decides every call that stands
 * for the payload and answers the strictest decision. Anything it cannot read or load blocks.
 */
function runAgentHook<P extends { readonly cwd: string }>(
  agent: HookAgent<P>,
  options: HookCommandOptions,
  io: HookIo,
): number {
  const unreadable = options.unreadable;
  if (unreadable !== "ask" && unreadable !== "deny") {
    throw new UsageError(
      `--unreadable must be ask or deny, got "${unreadable}"; a call toolgate cannot read is never allowed`,
    );
  }
  let bytes: Buffer;
  try {
    bytes = io.readInput();
  } catch (error) {
    return agent.block(`cannot read the hook input on stdin (${(error as Error).message})`);
  }
  if (bytes.length > MAX_HOOK_INPUT_BYTES) {
    return agent.block(`the hook input is larger than ${MAX_HOOK_INPUT_BYTES} bytes`);
  }
  const text = new TextDecoder("utf-8", { fatal: false, ignoreBOM: false }).decode(bytes);
  const parsed = agent.parse(text);
  if (!parsed.ok) return agent.block(parsed.reason);

  const loaded = loadPolicyResultSync(options.config === undefined ? {} : { config: options.config });
  if (loaded.bundle === undefined) {
    // No source excerpts: what a hook writes may reach the agent, which needs no lines of the policy to be told
    // that it has errors; `toolgate lint` shows them to the person who fixes it.
    const report = formatDiagnostics("stylish", {
      diagnostics: loaded.diagnostics,
      fingerprint: null,
      color: false,
      toolVersion: toolVersion(),
      table: DIAGNOSTICS,
    });
    io.writeError(report.endsWith("\n") ? report : `${report}\n`);
    return agent.block(
      loaded.configFound
        ? "the toolgate configuration has errors (run toolgate lint)"
        : "no toolgate configuration found (pass --config PATH in the hook's command)",
    );
  }
  const bundle = loaded.bundle;
  const names = new Set(bundle.tools.map((tool) => tool.name));
  const controller = decisionController(bundle, loaded.validators);
  const project = options.project ?? parsed.payload.cwd;
  if (!isAbsolutePath(project))
    return agent.block(`the project directory ${JSON.stringify(project)} is not absolute`);
  const calls = agent.calls(
    parsed.payload,
    (name) => names.has(name),
    hookRoots(project, options.root, bundle.settings.roots),
  );

  const context = agent.context(parsed.payload, bundle.contextSchema);
  let action: PolicyAction = "allow";
  const reasons: string[] = [];
  for (const call of calls) {
    const explained = controller.explain(call, context);
    const decided: { action: PolicyAction; reason: string } =
      "callId" in explained
        ? {
            action: unreadable,
            reason: `toolgate cannot read this call (${explained.content}), so it is not allowed`,
          }
        : {
            action: explained.decision.action,
            reason:
              explained.decision.ruleIds.length === 0
                ? explained.decision.reason
                : `${explained.decision.reason} [${explained.decision.ruleIds.join(", ")}]`,
          };
    if (STRICTNESS[decided.action] > STRICTNESS[action]) {
      action = decided.action;
      reasons.length = 0;
    }
    if (decided.action === action && !reasons.includes(decided.reason)) reasons.push(decided.reason);
  }
  // A rule on the path as sent (absolute) still holds where it is stricter than every reading's decision.
  const sent = agent.sent?.(parsed.payload);
  const asSent = sent === undefined ? undefined : controller.explain(sent, context);
  if (asSent !== undefined && "decision" in asSent) {
    for (const evaluation of asSent.evaluations) {
      const statement = evaluation.statement;
      if (statement.kind !== "rule" || evaluation.match === "no") continue;
      if (STRICTNESS[statement.action] <= STRICTNESS[action]) continue;
      action = statement.action;
      reasons.length = 0;
      reasons.push(`${statement.reason} [${statement.id}] (on the path as sent)`);
    }
  }
  return agent.answer(action, `toolgate: ${reasons.join("; ")}`);
}

/** `toolgate hook claude-code`. Returns the exit code. */
export function runHookClaudeCode(options: HookCommandOptions, io: HookIo): number {
  return runAgentHook(
    {
      parse: parseHookPayload,
      calls: (payload, declared, roots) => hookCalls(payload, declared, roots, linkTarget),
      sent: (payload) =>
        payload.tool_name.startsWith("mcp__")
          ? undefined
          : { callId: "claude-code", toolName: payload.tool_name, arguments: payload.tool_input },
      context: hookContext,
      answer: (action, reason) => {
        const answer: ClaudeCodePreToolUseOutput = hookAnswer(action, reason);
        io.write(`${JSON.stringify(answer)}\n`);
        return HOOK_EXIT.answered;
      },
      block: (reason) => {
        // Exit 2 blocks the tool call; Claude Code shows stderr to Claude as the reason.
        io.writeError(`toolgate: ${reason}; the tool call is blocked\n`);
        return HOOK_EXIT.block;
      },
    },
    options,
    io,
  );
}

/** Options of `toolgate hook gemini-cli`. */
export interface GeminiHookCommandOptions extends HookCommandOptions {
  /**
   * How an ask is answered: `ask` (Gemini CLI's `decision: "ask"`, its confirmation prompt, since 0.36.0) or
   * `deny` (a deny whose reason says a person's approval is needed), for older versions and headless runs.
   */
  readonly ask: string;
}

/** `toolgate hook gemini-cli`. Returns the exit code. */
export function runHookGeminiCli(options: GeminiHookCommandOptions, io: HookIo): number {
  const askAs = options.ask;
  if (askAs !== "ask" && askAs !== "deny") {
    throw new UsageError(`--ask must be ask or deny, got "${askAs}"; an ask is never answered with allow`);
  }
  return runAgentHook<GeminiCliBeforeToolInput>(
    {
      parse: parseGeminiCliPayload,
      calls: (payload, declared, roots) => geminiCliCalls(payload, declared, roots, linkTarget),
      sent: (payload) =>
        payload.mcp_context === undefined
          ? { callId: "gemini-cli", toolName: payload.tool_name, arguments: payload.tool_input }
          : undefined,
      context: () => ({}),
      answer: (action, reason) => {
        const answer: GeminiCliBeforeToolOutput =
          action === "ask" && askAs === "deny"
            ? geminiCliAnswer(
                "deny",
                `${reason}; this call needs a person's approval, and this hook answers asks with deny (--ask deny): a person can run it themselves, or a rule in the toolgate policy can allow it`,
              )
            : geminiCliAnswer(action, reason);
        io.write(`${JSON.stringify(answer)}\n`);
        return HOOK_EXIT.answered;
      },
      block: (reason) => {
        // Exit 2 blocks the tool call with stderr as the reason. Gemini CLI parses stdout first whatever the
        // exit code, so stdout carries the same refusal as a deny: either reading blocks.
        const text = `toolgate: ${reason}; the tool call is blocked`;
        io.write(`${JSON.stringify(geminiCliAnswer("deny", text))}\n`);
        io.writeError(`${text}\n`);
        return HOOK_EXIT.block;
      },
    },
    options,
    io,
  );
}

/** Options of `toolgate hook codex`. */
export interface CodexHookCommandOptions extends HookCommandOptions {
  /** The event this registration answers: `PreToolUse` (default) or `PermissionRequest`. */
  readonly event: string;
}

/**
 * `toolgate hook codex`. Returns the exit code. Codex lets a call run on anything but a well-formed deny or
 * exit code 2, so an ask is answered as a deny under `PreToolUse`, and everything unreadable exits 2.
 */
export function runHookCodex(options: CodexHookCommandOptions, io: HookIo): number {
  const event = options.event;
  if (event !== "PreToolUse" && event !== "PermissionRequest") {
    throw new UsageError(`--event must be PreToolUse or PermissionRequest, got "${event}"`);
  }
  return runAgentHook<CodexHookInput>(
    {
      parse: (text) => parseCodexPayload(text, event),
      calls: (payload, declared, roots) => codexCalls(payload, declared, roots, linkTarget),
      context: () => ({}),
      answer: (action, reason) => {
        const answer = codexAnswer(event, action, reason);
        if (answer !== undefined) io.write(`${JSON.stringify(answer)}\n`);
        return HOOK_EXIT.answered;
      },
      block: (reason) => {
        // Exit 2 blocks the tool call; Codex shows stderr to the model as the reason.
        io.writeError(`toolgate: ${reason}; the tool call is blocked\n`);
        return HOOK_EXIT.block;
      },
    },
    options,
    io,
  );
}

/** `toolgate hook cursor`. Returns the exit code. */
export function runHookCursor(options: HookCommandOptions, io: HookIo): number {
  let event: CursorHookEvent = "beforeShellExecution";
  return runAgentHook<CursorHookInput>(
    {
      parse: (text) => {
        const parsed = parseCursorPayload(text);
        if (parsed.ok) event = parsed.payload.hook_event_name;
        return parsed;
      },
      // Cursor's workspace roots come first; the project directory is the payload's cwd among them.
      calls: (payload, _declared, roots) => cursorCalls(payload, roots.slice(1), linkTarget),
      context: () => ({}),
      answer: (action, reason) => {
        io.write(`${JSON.stringify(cursorAnswer(event, action, reason))}\n`);
        return HOOK_EXIT.answered;
      },
      block: (reason) => {
        // Exit 2 blocks; stdout carries the same refusal, so either reading blocks.
        const text = `toolgate: ${reason}; the call is blocked`;
        io.write(`${JSON.stringify({ permission: "deny", user_message: text, agent_message: text })}\n`);
        io.writeError(`${text}\n`);
        return HOOK_EXIT.block;
      },
    },
    options,
    io,
  );
}
