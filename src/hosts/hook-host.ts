/**
 * What a coding agent's command hook adds to the host shape: the command's options, the agent's project
 * variable, and the answer as a process writes it (stdout, stderr, exit code). One `HookHost` per agent; the
 * registry (`hook-hosts.ts`) lists them, and `toolgate hook <host>` looks its host up there.
 */
import { ACTION_RANK } from "../runtime/statements.js";
import type { PolicyAction } from "../runtime/types.js";
import type {
  CanonicalCalls,
  DecidingController,
  FailClosed,
  HostAdapter,
  HostDecision,
} from "./host-adapter.js";

/**
 * Exit codes of a command hook (the same for Claude Code, Gemini CLI, Codex and Cursor): 0 with the JSON
 * answer; 2, a blocking error, when the input or the configuration cannot be used.
 */
export const HOOK_EXIT = { answered: 0, block: 2 } as const;

/** What a hook process writes and the exit code it ends with. */
export interface HookReply {
  readonly exitCode: number;
  readonly stdout?: string;
  readonly stderr?: string;
}

/** A hook adapter: stdin text in, a process reply out. */
export type HookAdapter<Payload> = HostAdapter<string, Payload, HookReply>;

/** One option of a hook command beyond those every hook has (`--config`, `--unreadable`, `--project`, `--root`). */
export interface HookOption {
  /** The option's key in the parsed options (`ask`), also its flag (`--ask <value>`). */
  readonly key: string;
  readonly valueName: string;
  readonly description: string;
  readonly default: string;
  /** The values it takes; any other is a usage error with `invalid`'s message. */
  readonly choices: readonly string[];
  readonly invalid: (got: string) => string;
}

/** `--unreadable`, which every hook has. */
export const UNREADABLE_OPTION: HookOption = {
  key: "unreadable",
  valueName: "decision",
  description: "ask or deny: the answer for a call the policy cannot read",
  default: "ask",
  choices: ["ask", "deny"],
  invalid: (got) =>
    `--unreadable must be ask or deny, got "${got}"; a call toolgate cannot read is never allowed`,
};

/** The options a hook's adapter is built from: `--unreadable` and the host's own options, checked. */
export interface HookAdapterOptions {
  readonly unreadable: "ask" | "deny";
  readonly [key: string]: string;
}

/** One agent's hook command. */
export interface HookHost {
  /** The command's name (`toolgate hook NAME`). */
  readonly name: string;
  /** The agent's hook events, for the command's description. */
  readonly events: string;
  /** The environment variable holding the agent's project directory, the default of `--project`. */
  readonly projectVariable?: string;
  /** The host's own options. */
  readonly options: readonly HookOption[];
  /** The adapter for one run, from checked options. */
  readonly adapter: (options: HookAdapterOptions) => HookAdapter<{ readonly cwd: string }>;
}

/** Why a call the policy cannot read is not allowed, from the validation's text (the hook commands' wording). */
const NOT_ALLOWED = (content: string): string =>
  `toolgate cannot read this call (${content}), so it is not allowed`;

/**
 * Decides a hook's canonical calls through one controller: the strictest decision over every call (a call the
 * policy cannot read gets `unreadable`), then any rule on the call as sent that is stricter still.
 * @param unreadableReason the reason given for a call the policy cannot read (a host keeps its own wording).
 */
export function decideHookCalls(
  controller: DecidingController,
  canonical: CanonicalCalls,
  unreadable: "ask" | "deny",
  unreadableReason: (content: string) => string = NOT_ALLOWED,
): HostDecision {
  let action: PolicyAction = "allow";
  const reasons: string[] = [];
  for (const call of canonical.calls) {
    const explained = controller.explain(call, canonical.context);
    const decided: { action: PolicyAction; reason: string } =
      "callId" in explained
        ? { action: unreadable, reason: unreadableReason(explained.content) }
        : {
            action: explained.decision.action,
            reason:
              explained.decision.ruleIds.length === 0
                ? explained.decision.reason
                : `${explained.decision.reason} [${explained.decision.ruleIds.join(", ")}]`,
          };
    if (ACTION_RANK[decided.action] > ACTION_RANK[action]) {
      action = decided.action;
      reasons.length = 0;
    }
    if (decided.action === action && !reasons.includes(decided.reason)) reasons.push(decided.reason);
  }
  // A rule on the path as sent (absolute) still holds where it is stricter than every reading's decision.
  const asSent =
    canonical.sent === undefined ? undefined : controller.explain(canonical.sent, canonical.context);
  if (asSent !== undefined && "decision" in asSent) {
    for (const evaluation of asSent.evaluations) {
      const statement = evaluation.statement;
      if (statement.kind !== "rule" || evaluation.match === "no") continue;
      if (ACTION_RANK[statement.action] <= ACTION_RANK[action]) continue;
      action = statement.action;
      reasons.length = 0;
      reasons.push(`${statement.reason} [${statement.id}] (on the path as sent)`);
    }
  }
  return { action, reason: `toolgate: ${reasons.join("; ")}` };
}

/** A reply that writes one JSON answer on stdout and exits 0. */
export function jsonReply(answer: unknown): HookReply {
  return { exitCode: HOOK_EXIT.answered, stdout: `${JSON.stringify(answer)}\n` };
}

/**
 * Failing closed by exit code 2 with the reason on stderr: Claude Code and Codex block the call and show stderr
 * to the model as the reason.
 */
export const BLOCK_WITH_REASON_ON_STDERR: FailClosed<HookReply> = {
  exitCode: HOOK_EXIT.block,
  answer: (reason) => ({
    exitCode: HOOK_EXIT.block,
    stderr: `toolgate: ${reason}; the tool call is blocked\n`,
  }),
};
