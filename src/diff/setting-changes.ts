/**
 * The configuration settings that change how strictly a policy is enforced, compared between two bundles. A
 * policy can be loosened without touching a rule: `mode: observe` runs every denied call, a longer
 * `grants.max_hours` or `approval_ttl_ms` lets one approval cover more, a new `audit.redact` entry hides what
 * ran, and dropping the audit sink records nothing. Each such change is reported with its direction, so that
 * `toolgate diff --fail-on loosened` fails on it whether or not a call flips.
 */
import type { BundleSettings } from "../bundle/policy-bundle.js";
import { canonicalJson } from "../runtime/canonical-json.js";
import { DEFAULT_MODE } from "../runtime/mode.js";
import { describeAlias, isNamePattern, type ToolAlias } from "../runtime/tool-aliases.js";

/** How a setting moved: as for decisions, `loosened` lets more through or hides more. */
export type SettingChangeKind = "loosened" | "tightened" | "changed";

/** One setting that differs between the two sides. */
export interface SettingChange {
  /** The configuration key (`mode`, `grants.max_hours`, `audit.redact.TOOL`, …). */
  readonly setting: string;
  readonly before: unknown;
  readonly after: unknown;
  readonly change: SettingChangeKind;
  /** Why the change moves enforcement that way. */
  readonly reason: string;
}

/** Modes from the loosest to the strictest: observe runs everything, ci refuses every ask. */
const MODE_RANK: Readonly<Record<string, number>> = { observe: 0, enforce: 1, ci: 2 };

/** The defaults the runtime uses when a setting is absent. */
const DEFAULT_GRANT_HOURS = 24;
const DEFAULT_TTL_MS = 3_600_000;

/** Every enforcement setting that differs, loosened ones first. */
export function compareSettings(base: BundleSettings, head: BundleSettings): SettingChange[] {
  const changes: SettingChange[] = [];
  const compare = (
    setting: string,
    before: unknown,
    after: unknown,
    looser: (b: unknown, a: unknown) => boolean | undefined,
    reasons: { readonly loosened: string; readonly tightened: string },
  ) => {
    if (canonicalJson(before ?? null) === canonicalJson(after ?? null)) return;
    const direction = looser(before, after);
    const change: SettingChangeKind =
      direction === undefined ? "changed" : direction ? "loosened" : "tightened";
    const reason = change === "changed" ? "the setting changed" : reasons[change];
    changes.push({ setting, before: before ?? null, after: after ?? null, change, reason });
  };
  const number = (b: unknown, a: unknown) => (a as number) > (b as number);

  const modeBefore = base.mode ?? DEFAULT_MODE;
  const modeAfter = head.mode ?? DEFAULT_MODE;
  compare(
    "mode",
    modeBefore,
    modeAfter,
    (b, a) => (MODE_RANK[a as string] ?? 0) < (MODE_RANK[b as string] ?? 0),
    {
      loosened:
        modeAfter === "observe"
          ? "observe runs every call the policy denies or asks about, and only records what it would have done"
          : "asks reach a person again instead of being refused",
      tightened:
        modeBefore === "observe"
          ? "calls the policy denies or asks about no longer run"
          : "asks are refused, since no person is present (ci)",
    },
  );
  compare(
    "grants.max_hours",
    base.grants?.maxHours ?? DEFAULT_GRANT_HOURS,
    head.grants?.maxHours ?? DEFAULT_GRANT_HOURS,
    number,
    {
      loosened: "a remembered approval may cover the same call for longer",
      tightened: "remembered approvals are shorter",
    },
  );
  compare("grants.session_key", base.grants?.sessionKey, head.grants?.sessionKey, () => undefined, {
    loosened: "",
    tightened: "",
  });
  compare(
    "approval_ttl_ms",
    base.approvalTtlMs ?? DEFAULT_TTL_MS,
    head.approvalTtlMs ?? DEFAULT_TTL_MS,
    number,
    {
      loosened: "an approval request stays usable for longer",
      tightened: "approval requests expire sooner",
    },
  );
  compare(
    "audit.sink",
    base.audit?.sink,
    head.audit?.sink,
    (b, a) => (a === undefined ? true : b === undefined ? false : undefined),
    {
      loosened: "the audit log no longer records what runs",
      tightened: "an audit log records what runs",
    },
  );
  const tools = new Set([...Object.keys(base.audit?.redact ?? {}), ...Object.keys(head.audit?.redact ?? {})]);
  for (const tool of [...tools].sort()) {
    compare(`audit.redact.${tool}`, base.audit?.redact[tool], head.audit?.redact[tool], redactLooser, {
      loosened: "the audit log hides more of what this tool's calls carried",
      tightened: "the audit log shows more of this tool's calls",
    });
  }
  const order: Readonly<Record<SettingChangeKind, number>> = { loosened: 0, tightened: 1, changed: 2 };
  return changes.sort((x, y) => order[x.change] - order[y.change]);
}

/** A redaction is looser when it hides a field it did not hide before, tighter when it hides strictly less. */
function redactLooser(before: unknown, after: unknown): boolean | undefined {
  const fields = (value: unknown): Set<string> | "all" =>
    value === "all" ? "all" : new Set(Array.isArray(value) ? (value as string[]) : []);
  const b = fields(before);
  const a = fields(after);
  if (a === "all") return b === "all" ? undefined : true;
  if (b === "all") return false;
  const added = [...a].some((f) => !b.has(f));
  const removed = [...b].some((f) => !a.has(f));
  return added ? true : removed ? false : undefined;
}

/**
 * The tool aliases that differ, as setting changes keyed `aliases.HOST.NAME`. An alias added reads a host tool
 * that was unknown (never allowed) as a canonical call the policy may allow: loosened. An alias removed makes a
 * host tool unknown again: tightened. An alias whose canonical tool or mapping changed may let through calls
 * the old mapping did not, and which way it moves cannot be told from the mapping alone: reported as loosened,
 * so that `--fail-on loosened` asks a person to look. The order of patterns matters too (the first that fits
 * wins), so a host whose patterns were reordered is reported the same way.
 */
export function compareAliases(base: readonly ToolAlias[], head: readonly ToolAlias[]): SettingChange[] {
  const key = (alias: ToolAlias) => `aliases.${alias.host}.${alias.name}`;
  const shown = (alias: ToolAlias | undefined) => (alias === undefined ? null : describeAlias(alias));
  const before = new Map(base.map((alias) => [key(alias), alias]));
  const after = new Map(head.map((alias) => [key(alias), alias]));
  const changes: SettingChange[] = [];
  for (const setting of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const b = before.get(setting);
    const a = after.get(setting);
    if (b !== undefined && a !== undefined && shown(b) === shown(a)) continue;
    const change: SettingChangeKind = a === undefined ? "tightened" : "loosened";
    const reason =
      b === undefined
        ? "a host tool that was unknown (never allowed) is now read as a canonical call the policy may allow"
        : a === undefined
          ? "the host tool is unknown again: never allowed"
          : "the host tool maps differently; the new mapping may let through calls the old one did not";
    changes.push({ setting, before: shown(b), after: shown(a), change, reason });
  }
  for (const host of new Set(head.map((alias) => alias.host))) {
    const order = (aliases: readonly ToolAlias[]) =>
      aliases.filter((alias) => alias.host === host && isNamePattern(alias.name)).map((alias) => alias.name);
    const was = order(base);
    const now = order(head);
    const common = now.filter((name) => was.includes(name));
    if (common.join("\n") !== was.filter((name) => now.includes(name)).join("\n")) {
      changes.push({
        setting: `aliases.${host}`,
        before: was,
        after: now,
        change: "loosened",
        reason:
          "the host's name patterns are tried in another order, so a tool name may map through another alias",
      });
    }
  }
  return changes;
}
