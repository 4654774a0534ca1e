/**
 * Enforcement modes: what a controller does with the policy's decision. `enforce` applies it; `observe` runs
 * every call the policy would refuse or hold and records what it would have done (to watch a policy before
 * enforcing it); `ci` has no person to ask, so an ask is refused.
 */
import { ToolgateError } from "./errors.js";
import type { PolicyAction, PolicyDecision } from "./types.js";

/** Every enforcement mode. */
export const CONTROLLER_MODES = ["enforce", "observe", "ci"] as const;

/** One enforcement mode; `enforce` is the default. */
export type ControllerMode = (typeof CONTROLLER_MODES)[number];

/** The mode a controller uses when none is given. */
export const DEFAULT_MODE: ControllerMode = "enforce";

/** True when `value` names an enforcement mode. */
export function isControllerMode(value: unknown): value is ControllerMode {
  return typeof value === "string" && (CONTROLLER_MODES as readonly string[]).includes(value);
}

/**
 * Checks a mode given as an option.
 * @throws ToolgateError `invalid-option` naming the accepted modes.
 */
export function assertControllerMode(value: unknown): asserts value is ControllerMode {
  if (!isControllerMode(value)) {
    throw new ToolgateError(
      "invalid-option",
      `mode must be one of ${CONTROLLER_MODES.join(", ")}, got ${JSON.stringify(value) ?? String(value)}`,
    );
  }
}

/** The decision a controller acts on in a mode, and what the policy decided when the mode changed it. */
export interface ModeOutcome {
  readonly decision: PolicyDecision;
  /** In `observe` mode, when the policy denied or asked: what it would have done. */
  readonly wouldHave?: Exclude<PolicyAction, "allow">;
}

/**
 * Applies a mode to the policy's decision. The deciding statements and fingerprint stay the policy's; the
 * action and reason say what the controller does: in `observe` a deny or ask becomes allow (with
 * `wouldHave`), in `ci` an ask becomes deny with a reason saying that no person is present.
 */
export function applyMode(decision: PolicyDecision, mode: ControllerMode): ModeOutcome {
  if (mode === "ci" && decision.action === "ask") {
    return {
      decision: {
        ...decision,
        action: "deny",
        reason: `needs a person's approval (${decision.reason}), and no person is present to give it (mode: ci)`,
      },
    };
  }
  if (mode === "observe" && decision.action !== "allow") {
    const verb = decision.action === "deny" ? "denied" : "asked a person about";
    return {
      decision: {
        ...decision,
        action: "allow",
        reason: `the policy would have ${verb} this call (${decision.reason}); it ran because the mode is observe`,
      },
      wouldHave: decision.action,
    };
  }
  return { decision };
}
