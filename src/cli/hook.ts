/**
 * `toolgate hook claude-code`: the command for Claude Code's `PreToolUse` hook. Reads the hook's JSON on
 * stdin, decides with the configured policy and writes the documented JSON answer on stdout.
 *
 * Exit codes are Claude Code's for hooks (https://code.claude.com/docs/en/hooks, "Exit code output"), not
 * the other commands': 0 with the JSON answer; 2 — a blocking error, which Claude Code honours whatever else
 * happens — when the input or the configuration cannot be used. Nothing it cannot read is ever allowed.
 */
import { readFileSync } from "node:fs";
import {
  type ClaudeCodePreToolUseInput,
  type ClaudeCodePreToolUseOutput,
  hookAnswer,
  hookCalls,
  isAbsolutePath,
  MAX_HOOK_INPUT_BYTES,
  parseHookPayload,
} from "../adapters/claude-code-hook.js";
import { loadPolicyResultSync } from "../config/load-policy.js";
import { formatDiagnostics } from "../diagnostics/format.js";
import type { PolicyAction } from "../runtime/types.js";
import { decisionController } from "../testing/run-policy-tests.js";
import { toolVersion, UsageError } from "./common.js";

/** Exit codes of a Claude Code command hook. */
export const HOOK_EXIT = { answered: 0, block: 2 } as const;

/** Options of `toolgate hook claude-code`. */
export interface HookCommandOptions {
  readonly config?: string;
  /** What a call the policy cannot read (unknown tool, arguments outside the pack's schemas) gets. */
  readonly unreadable: string;
  /** The project directory paths are read against (default: CLAUDE_PROJECT_DIR, else the payload's cwd). */
  readonly project?: string;
}

/** Where the command reads and writes; the CLI passes the process's streams. */
export interface HookIo {
  readonly readInput: () => Buffer;
  readonly write: (text: string) => void;
  readonly writeError: (text: string) => void;
}

const STRICTNESS: Record<PolicyAction, number> = { allow: 0, ask: 1, deny: 2 };

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

/** Reads all of stdin (file descriptor 0). */
export function readStdin(): Buffer {
  return readFileSync(0);
}

/** `toolgate hook claude-code`. Returns the exit code. */
export function runHookClaudeCode(options: HookCommandOptions, io: HookIo): number {
  const unreadable = options.unreadable;
  if (unreadable !== "ask" && unreadable !== "deny") {
    throw new UsageError(
      `--unreadable must be ask or deny, got "${unreadable}"; a call toolgate cannot read is never allowed`,
    );
  }
  const block = (reason: string): number => {
    // Exit 2 blocks the tool call; Claude Code shows stderr to Claude as the reason.
    io.writeError(`toolgate: ${reason}; the tool call is blocked\n`);
    return HOOK_EXIT.block;
  };
  let bytes: Buffer;
  try {
    bytes = io.readInput();
  } catch (error) {
    return block(`cannot read the hook input on stdin (${(error as Error).message})`);
  }
  if (bytes.length > MAX_HOOK_INPUT_BYTES) {
    return block(`the hook input is larger than ${MAX_HOOK_INPUT_BYTES} bytes`);
  }
  const text = new TextDecoder("utf-8", { fatal: false, ignoreBOM: false }).decode(bytes);
  const parsed = parseHookPayload(text);
  if (!parsed.ok) return block(parsed.reason);

  const loaded = loadPolicyResultSync(options.config === undefined ? {} : { config: options.config });
  if (loaded.bundle === undefined) {
    const report = formatDiagnostics("stylish", {
      diagnostics: loaded.diagnostics,
      fingerprint: null,
      color: false,
      toolVersion: toolVersion(),
    });
    io.writeError(report.endsWith("\n") ? report : `${report}\n`);
    return block(
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
    return block(`the project directory ${JSON.stringify(project)} is not absolute`);
  const calls = hookCalls(parsed.payload, (name) => names.has(name), project);

  const context = hookContext(parsed.payload, bundle.contextSchema);
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
  const answer: ClaudeCodePreToolUseOutput = hookAnswer(action, `toolgate: ${reasons.join("; ")}`);
  io.write(`${JSON.stringify(answer)}\n`);
  return HOOK_EXIT.answered;
}
