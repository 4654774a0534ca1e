/**
 * Turns Claude Code's permission rules (`permissions.allow`, `ask`, `deny` of a settings.json) into a
 * toolgate policy over the Claude Code tool pack (policies/packs/claude-code/tools.yaml), with the same
 * meaning: deny > ask > allow, whatever the order (toolgate's strictest-wins).
 *
 * Rule syntax from https://code.claude.com/docs/en/permissions ("Permission rule syntax", "Tool-specific
 * permission rules") and the rule formats table of https://code.claude.com/docs/en/tools-reference.
 * A rule that cannot be carried exactly becomes a stricter one — an allow narrower or dropped, a deny or ask
 * wider — and is reported with what was done instead. Never looser.
 *
 * This file reads the settings and puts the import together; its parts live in `./claude-code/`: reading
 * the rule syntax (`rule-syntax.ts`), mapping rules onto the pack (`map-rule.ts`, `map-paths.ts`,
 * `map-bash.ts`, with the pack in `pack.ts` and the shell's file commands in `file-commands.ts`) and the
 * report and policy file (`report.ts`).
 */

import type { RuleOut } from "./claude-code/converted.js";
import { convertRule } from "./claude-code/map-rule.js";
import {
  carryModes,
  type ImportFinding,
  type ModeFinding,
  modeCarried,
  writePolicy,
} from "./claude-code/report.js";
import { anchorsFor } from "./claude-code/rule-syntax.js";

export type { Carried, RuleList } from "./claude-code/converted.js";
export { FILE_READ_COMMANDS, FILE_WRITE_COMMANDS } from "./claude-code/file-commands.js";
export type { ImportFinding, ModeFinding } from "./claude-code/report.js";

/** A settings file to import. */
export interface SettingsSource {
  /** The file name, for findings and for anchoring `/path` rules. */
  readonly file: string;
  readonly text: string;
}

/** Options of the import. */
export interface ClaudeCodeImportOptions {
  /** The project directory (Claude Code's `cwd`); default: the directory holding `.claude/`. */
  readonly project?: string;
  /** The home directory that `~/` rules expand to. */
  readonly home: string;
  /**
   * The hook runs with `--unreadable deny`: a deny of a tool outside the pack (`Skill`, `PowerShell`, a
   * tool-name glob such as `*`) is then carried by it. Without it such a deny is refused, never dropped.
   */
  readonly unreadableDeny?: boolean;
}

/** Claude Code's permission modes (`permissions.defaultMode`). */
export const DEFAULT_MODES = [
  "default",
  "acceptEdits",
  "plan",
  "auto",
  "dontAsk",
  "bypassPermissions",
] as const;

/** The result: the policy YAML, every finding, and notes about settings that are not rules. */
export type ClaudeCodeImport =
  | {
      readonly ok: true;
      readonly yaml: string;
      readonly findings: readonly ImportFinding[];
      /** `permissions.defaultMode` of each file that sets one. */
      readonly modes: readonly ModeFinding[];
      readonly notes: readonly string[];
    }
  | { readonly ok: false; readonly message: string };

/** Converts settings files into one policy. */
export function importClaudeCodeSettings(
  sources: readonly SettingsSource[],
  options: ClaudeCodeImportOptions,
): ClaudeCodeImport {
  const rules: RuleOut[] = [];
  const findings: ImportFinding[] = [];
  const notes: string[] = [];
  const modes: ModeFinding[] = [];
  const counters = { allow: 0, ask: 0, deny: 0 };
  for (const source of sources) {
    let settings: unknown;
    try {
      settings = JSON.parse(source.text);
    } catch (error) {
      return { ok: false, message: `${source.file} is not JSON: ${(error as Error).message}` };
    }
    if (typeof settings !== "object" || settings === null || Array.isArray(settings)) {
      return { ok: false, message: `${source.file}: the settings must be a JSON object` };
    }
    const permissions = (settings as Record<string, unknown>).permissions;
    if (permissions === undefined) {
      notes.push(`${source.file} has no "permissions"; nothing to import from it`);
      continue;
    }
    if (typeof permissions !== "object" || permissions === null || Array.isArray(permissions)) {
      return { ok: false, message: `${source.file}: "permissions" must be an object` };
    }
    const perms = permissions as Record<string, unknown>;
    const anchors = anchorsFor(source.file, options.project, options.home);
    for (const list of ["deny", "ask", "allow"] as const) {
      const entries = perms[list];
      if (entries === undefined) continue;
      if (!Array.isArray(entries) || entries.some((e) => typeof e !== "string")) {
        return { ok: false, message: `${source.file}: permissions.${list} must be a list of strings` };
      }
      for (const rule of entries as string[]) {
        counters[list] += 1;
        const base = `claude-${list}-${counters[list]}`;
        const reason = `Claude Code's permissions.${list} rule ${JSON.stringify(rule)} (${source.file})`;
        const out = convertRule(rule, list, anchors, options.unreadableDeny === true);
        if (out.refuse !== undefined) {
          return {
            ok: false,
            message: `${source.file}: permissions.${list} rule ${JSON.stringify(rule)}: ${out.refuse}`,
          };
        }
        const written = out.rules.map((r, i) => ({
          ...r,
          id: out.rules.length === 1 ? base : `${base}-${i + 1}`,
          decision: list,
          reason,
        }));
        rules.push(...written);
        findings.push({
          file: source.file,
          list,
          rule,
          carried: out.carried,
          ...(out.note === undefined ? {} : { note: out.note }),
          ids: written.map((r) => r.id),
        });
      }
    }
    if (perms.defaultMode !== undefined) {
      const mode = perms.defaultMode;
      if (typeof mode !== "string" || !(DEFAULT_MODES as readonly string[]).includes(mode)) {
        return {
          ok: false,
          message: `${source.file}: permissions.defaultMode ${JSON.stringify(mode)} is not a mode this import knows (${DEFAULT_MODES.join(", ")}); it is not dropped silently — remove it or set a known one`,
        };
      }
      if (mode === "plan") {
        return {
          ok: false,
          message: `${source.file}: permissions.defaultMode "plan" cannot be carried: in plan mode Claude Code edits no files and runs no commands that change anything, and a toolgate policy has no mode to say so (its allow rules would let those run). Remove defaultMode, or set "default" or "dontAsk", and import again`,
        };
      }
      modes.push({ file: source.file, mode, ...modeCarried(mode) });
    }
    for (const key of Object.keys(perms)) {
      if (key === "allow" || key === "ask" || key === "deny" || key === "defaultMode") continue;
      notes.push(
        `${source.file}: permissions.${key} is not a rule list and is not carried; the toolgate policy decides without it (${key === "additionalDirectories" ? "reads there ask instead of running: stricter" : "review it by hand"})`,
      );
    }
  }
  const fallbackDecision = carryModes(modes, rules, findings, notes);
  return {
    ok: true,
    yaml: writePolicy(rules, sources, fallbackDecision),
    findings,
    modes,
    notes,
  };
}
