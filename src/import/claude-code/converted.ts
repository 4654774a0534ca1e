/**
 * What converting one Claude Code rule gives: the toolgate rules written for it, how exactly it was carried
 * and what was done instead, and the one fallback for a rule that cannot be carried (an allow dropped, a
 * deny or ask widened to every call of its tools). Never looser.
 */

/** One of Claude Code's three rule lists. */
export type RuleList = "allow" | "ask" | "deny";

/** How a rule was carried. */
export type Carried = "exact" | "stricter" | "not-carried";

/** A toolgate rule as it will be written. */
export interface RuleOut {
  readonly id: string;
  readonly tools: readonly string[];
  readonly decision: RuleList;
  /** `when`, written as JSON (valid YAML flow); absent for a rule on every call. */
  readonly when?: Record<string, unknown>;
  readonly reason: string;
}

/** A converted rule before ids and reasons. */
export interface Converted {
  readonly rules: readonly Omit<RuleOut, "id" | "decision" | "reason">[];
  readonly carried: Carried;
  readonly note?: string;
  /** Why the import must stop: a rule that can be neither carried nor dropped. */
  readonly refuse?: string;
}

/** Rules on every call of `tools`. */
export const whole = (tools: readonly string[]): Converted["rules"] => [{ tools }];

/** What to do with a rule that cannot be carried: drop an allow, widen a deny or ask to every call of its tools. */
export function fallback(list: RuleList, tools: readonly string[], why: string): Converted {
  if (list === "allow") {
    return {
      rules: [],
      carried: "not-carried",
      note: `${why}; not carried, so the calls it allows fall to the fallback (ask): stricter`,
    };
  }
  return {
    rules: whole(tools),
    carried: "stricter",
    note: `${why}; carried as a ${list} of every ${tools.join("/")} call: stricter`,
  };
}
