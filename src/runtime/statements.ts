/**
 * What a policy statement is in plain data (`StatementSpec`, `PolicyRule`), and the one place that builds
 * statements and ranks actions: a set entry, an argument rule and a fallback become a `StatementSpec` here, whether the YAML loader or `new ToolPolicy({ … })` asks, so both give the same ids and
 * the same default reasons.
 */
import type { ConditionSpec } from "./condition.js";
import type { PolicyAction, StatementSource } from "./types.js";

/** What a statement is: a set entry, an argument rule, or a tool's fallback for calls nothing else matched. */
export type StatementKind = "set" | "rule" | "otherwise";

/**
 * A policy statement in plain data: a set entry (no conditions), an argument rule, or an `otherwise`
 * fallback (no conditions; it decides a call of its tool only when no other statement matched it).
 */
export interface StatementSpec {
  readonly id: string;
  readonly kind: StatementKind;
  readonly action: PolicyAction;
  readonly tools: readonly string[];
  readonly reason: string;
  readonly when?: ConditionSpec;
  readonly context?: ConditionSpec;
  readonly source?: StatementSource;
}

/** An argument rule as given to `new ToolPolicy({ rules })`. */
export interface PolicyRule {
  readonly id: string;
  readonly tools: readonly string[];
  readonly decision: PolicyAction;
  readonly when?: ConditionSpec;
  readonly context?: ConditionSpec;
  readonly reason: string;
  readonly source?: StatementSource;
}

/** The actions, from the loosest to the strictest. */
export const ACTIONS: readonly PolicyAction[] = Object.freeze(["allow", "ask", "deny"]);

/** How strict an action is: the strictest matching statement wins (deny > ask > allow). */
export const ACTION_RANK: Readonly<Record<PolicyAction, number>> = Object.freeze({
  allow: 0,
  ask: 1,
  deny: 2,
});

/** The rank of `allow`: an allow statement needs a certain match. */
export const ALLOW_RANK = ACTION_RANK.allow;

const SET_REASON: Readonly<Record<PolicyAction, (tool: string) => string>> = {
  allow: (tool) => `tool ${tool} is allowed by the policy`,
  ask: (tool) => `tool ${tool} needs a person's approval`,
  deny: (tool) => `tool ${tool} is denied by the policy`,
};

const FALLBACK_REASON: Readonly<Record<PolicyAction, (tool: string) => string>> = {
  allow: (tool) => `tool ${tool} is allowed when no rule matches the call (otherwise)`,
  ask: (tool) => `tool ${tool} needs a person's approval when no rule matches the call (otherwise)`,
  deny: (tool) => `tool ${tool} is denied when no rule matches the call (otherwise)`,
};

/** Where a statement comes from and what it says, besides its tool and action. */
export interface StatementOptions {
  /** Prefix of the id: `LABEL/` for a baseline layer (`extends`), empty for the policy itself. */
  readonly idPrefix?: string;
  /** The reason; without it, the default reason of the statement's kind and action. */
  readonly reason?: string;
  readonly source?: StatementSource;
}

/** The statement of a set entry (`allow`, `ask`, `deny`): id `ACTION:TOOL`. */
export function setStatement(
  tool: string,
  action: PolicyAction,
  options: StatementOptions = {},
): StatementSpec {
  return {
    id: `${options.idPrefix ?? ""}${action}:${tool}`,
    kind: "set",
    action,
    tools: [tool],
    reason: options.reason ?? SET_REASON[action]?.(tool) ?? `tool ${tool}: ${String(action)}`,
    ...(options.source === undefined ? {} : { source: options.source }),
  };
}

/** The fallback statement of one tool (`otherwise`): id `otherwise:TOOL`. */
export function otherwiseStatement(
  tool: string,
  action: PolicyAction,
  options: StatementOptions = {},
): StatementSpec {
  return {
    id: `${options.idPrefix ?? ""}otherwise:${tool}`,
    kind: "otherwise",
    action,
    tools: [tool],
    reason: options.reason ?? FALLBACK_REASON[action]?.(tool) ?? `tool ${tool}: otherwise ${String(action)}`,
    ...(options.source === undefined ? {} : { source: options.source }),
  };
}

/** The statement of an argument rule: its own id and reason. */
export function ruleStatement(rule: PolicyRule): StatementSpec {
  return {
    id: rule.id,
    kind: "rule",
    action: rule.decision,
    tools: rule.tools,
    reason: rule.reason,
    ...(rule.when === undefined ? {} : { when: rule.when }),
    ...(rule.context === undefined ? {} : { context: rule.context }),
    ...(rule.source === undefined ? {} : { source: rule.source }),
  };
}
