/**
 * The import's report and output: what happened to each rule (`ImportFinding`) and to each
 * `permissions.defaultMode` (`ModeFinding`), what the modes make of the rules, and the policy file written.
 */
import type { Carried, RuleList, RuleOut } from "./converted.js";
import { PACK_TOOLS } from "./pack.js";

/** What happened to one rule. */
export interface ImportFinding {
  readonly file: string;
  readonly list: RuleList;
  readonly rule: string;
  readonly carried: Carried;
  /** What was done, for every rule not carried exactly. */
  readonly note?: string;
  /** The ids of the toolgate rules written for it. */
  readonly ids: readonly string[];
}

/** How `permissions.defaultMode` was carried. */
export interface ModeFinding {
  readonly file: string;
  readonly mode: string;
  readonly carried: Carried;
  readonly note: string;
}

/**
 * Carries the files' modes into the rules, findings and notes: under `dontAsk` every ask rule is a deny
 * (and the findings of ask rules say so), else the notes say what the `ask` fallback differs in.
 * @returns the decision of calls no rule matches (the policy's `otherwise`).
 */
export function carryModes(
  modes: readonly ModeFinding[],
  rules: RuleOut[],
  findings: ImportFinding[],
  notes: string[],
): "ask" | "deny" {
  const dontAsk = modes.some((m) => m.mode === "dontAsk");
  if (dontAsk) {
    // dontAsk: whatever would prompt is denied. Every ask rule becomes a deny, and so does the fallback.
    for (const [i, rule] of rules.entries()) {
      if (rule.decision === "ask") rules[i] = { ...rule, decision: "deny" };
    }
    for (const [i, f] of findings.entries()) {
      if (f.list !== "ask") continue;
      findings[i] = {
        ...f,
        note: `${f.note === undefined ? "" : `${f.note}; `}${
          f.ids.length > 0
            ? 'written as deny: defaultMode "dontAsk" denies what would ask'
            : 'defaultMode "dontAsk" denies what would ask: run the hook with --unreadable deny so these calls are denied too'
        }`,
      };
    }
    notes.push(
      'defaultMode "dontAsk": calls no imported rule allows are denied (otherwise: deny) and every ask rule is a deny, as Claude Code denies whatever would prompt; run the hook with --unreadable deny so that tools outside the pack are denied too',
    );
  } else {
    notes.push(
      "calls no imported rule matches get the fallback ask (otherwise), where Claude Code runs some of them without a prompt (reads and searches inside the project, its read-only commands, preapproved domains): stricter",
    );
  }
  return dontAsk ? "deny" : "ask";
}

/** How a mode other than plan is carried. */
export function modeCarried(mode: string): { carried: Carried; note: string } {
  switch (mode) {
    case "dontAsk":
      return {
        carried: "stricter",
        note: "carried: every ask rule is written as deny, and calls no rule allows are denied (otherwise: deny); Claude Code still runs what needs no approval (reads inside the project, its read-only commands), which is denied here too unless a rule allows it: stricter",
      };
    case "default":
      return { carried: "exact", note: "Claude Code's standard mode: nothing to carry" };
    case "acceptEdits":
      return {
        carried: "not-carried",
        note: "not carried: edits and file-system commands that Claude Code would accept without a prompt ask (otherwise), unless a rule allows them: stricter",
      };
    case "auto":
      return {
        carried: "not-carried",
        note: "not carried: calls Claude Code would approve after its background check ask (otherwise), unless a rule allows them: stricter",
      };
    default:
      return {
        carried: "not-carried",
        note: "not carried: Claude Code would run every call without a prompt (denies aside); the policy keeps every ask rule and asks where no rule decides: stricter",
      };
  }
}

/** The policy file: every rule, and an `ask` fallback for each pack tool that has no unconditional rule. */
export function writePolicy(
  rules: readonly RuleOut[],
  sources: readonly { readonly file: string }[],
  fallbackDecision: "ask" | "deny",
): string {
  const q = (v: unknown): string => JSON.stringify(v);
  const unconditional = new Set(rules.filter((r) => r.when === undefined).flatMap((r) => r.tools));
  const lines = [
    `# Imported by \`toolgate import claude-code\` from ${sources.map((s) => s.file).join(", ")}.`,
    "# Tools: the Claude Code pack (node_modules/toolgate/policies/packs/claude-code/tools.yaml).",
    `# Strictest wins (deny > ask > allow), as in Claude Code. A call no rule matches ${fallbackDecision === "ask" ? "asks" : "is denied (defaultMode dontAsk)"} (otherwise).`,
    "version: 1",
  ];
  const fallbacks = PACK_TOOLS.filter((t) => !unconditional.has(t));
  if (fallbacks.length > 0) {
    lines.push("otherwise:");
    for (const tool of fallbacks) {
      lines.push(
        fallbackDecision === "ask"
          ? `  ${tool}: { decision: ask, reason: ${q(`no imported Claude Code rule decides this ${tool} call, so a person confirms it`)} }`
          : `  ${tool}: { decision: deny, reason: ${q(`no imported Claude Code rule allows this ${tool} call, and defaultMode dontAsk denies it`)} }`,
      );
    }
  }
  if (rules.length > 0) lines.push("rules:");
  for (const rule of rules) {
    lines.push(`  - id: ${rule.id}`);
    lines.push(`    tools: [${rule.tools.join(", ")}]`);
    lines.push(`    decision: ${rule.decision}`);
    if (rule.when !== undefined) lines.push(`    when: ${q(rule.when)}`);
    lines.push(`    reason: ${q(rule.reason)}`);
  }
  return `${lines.join("\n")}\n`;
}
