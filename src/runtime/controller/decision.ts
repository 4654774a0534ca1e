/**
 * The controller's decision: the policy's verdict on a prepared call, with the mode in force applied (and,
 * for an approved call, re-decided under the stored and the current context), and the message a denied
 * call's error result carries.
 */
import { applyMode, type ControllerMode, type ModeOutcome } from "../mode.js";
import type { ToolPolicy } from "../policy.js";
import { ACTION_RANK } from "../statements.js";
import type { PolicyDecision, ToolCall, ToolContext } from "../types.js";
import type { ContextCopy } from "./intake.js";

/** The message a denied call's error result carries: the reason and the deciding rule ids. */
export function deniedMessage(decision: PolicyDecision): string {
  const rules = decision.ruleIds.length === 0 ? "" : ` (rule: ${decision.ruleIds.join(", ")})`;
  return `denied by policy: ${decision.reason}${rules}`;
}

/** What the controller does with a call: the policy's decision, as the mode in force changes it. */
export function decideInMode(
  policy: ToolPolicy,
  call: ToolCall,
  context: ToolContext,
  mode: ControllerMode,
): ModeOutcome {
  return applyMode(policy.decide(call, context), mode);
}

/**
 * The re-check of a call a person approved: decided again with the stored context and, when the caller
 * gives one, the current context (the stricter decision holds). A person answered, so ci's "no person is
 * present" does not apply; observe still runs a denied call.
 */
export function recheckApproved(
  policy: ToolPolicy,
  call: ToolCall,
  stored: ToolContext,
  current: ContextCopy | undefined,
  mode: ControllerMode,
): ModeOutcome {
  const decided = policy.decide(call, stored);
  const checked =
    current === undefined || !current.ok ? decided : stricter(decided, policy.decide(call, current.value));
  return mode === "observe" ? applyMode(checked, "observe") : { decision: checked };
}

/** Of two decisions for one call, the stricter (deny over ask over allow); the first when they tie. */
function stricter(first: PolicyDecision, second: PolicyDecision): PolicyDecision {
  return ACTION_RANK[second.action] > ACTION_RANK[first.action] ? second : first;
}
