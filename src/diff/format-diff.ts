/**
 * Output of `toolgate diff`: `stylish` for a terminal, `markdown` for a pull-request comment (loosenings
 * first, grouped by tool), `json` (the contract shape), `github` (workflow-command annotations on the changed
 * lines) and `sarif`. The github and sarif outputs reuse the escaping and location helpers of the diagnostic
 * formatters; text taken from the policy or from calls is escaped for each medium.
 */

import { escapeControl } from "../diagnostics/escape-control.js";
import { escapeData, escapeProperty } from "../diagnostics/format-github.js";
import { pathToSarifUri, SARIF_SCHEMA_URI, SARIF_SRCROOT } from "../diagnostics/format-sarif.js";
import { canonicalJson } from "../runtime/canonical-json.js";
import { countOf } from "../runtime/plural.js";
import type { StatementSource } from "../runtime/types.js";
import type { ToolRegions } from "../verify/diff-regions.js";
import type { DecisionChange, DecisionChangeKind, PolicyDiff, SideDecision } from "./diff-policies.js";
import type { SettingChange } from "./setting-changes.js";

/** The output formats of `toolgate diff`. */
export const DIFF_FORMATS = ["stylish", "markdown", "json", "github", "sarif"] as const;

/** One of {@link DIFF_FORMATS}. */
export type DiffFormat = (typeof DIFF_FORMATS)[number];

/** What the formats need besides the diff. */
export interface DiffFormatOptions {
  readonly color?: boolean;
  /** The toolgate version (sarif). */
  readonly toolVersion?: string;
  /** Markdown: at most this many calls per tool and kind of change (default 10). */
  readonly maxRowsPerTool?: number;
}

/**
 * The JSON form of a diff, exactly the documented contract:
 * `{ base: { fingerprint }, head: { fingerprint }, statements: { added, removed, changed }, settings: [...],
 * decisions: [...], summary: { loosened, tightened, changed } }` (`settings`: the enforcement settings that
 * changed, each `{ setting, before, after, change, reason }`; the summary counts them with the decisions), and
 * `engine: [...]`: per tool that both sides declare and the change touches, the decision engine's
 * `{ tool, status: "complete" | "unknown", reason?, regions: [{ change, before, after, condition, arguments,
 * context }] }` (`unknown`: whether the tool loosens could not be decided; `--fail-on loosened` fails on it).
 */
export function toPolicyDiffJson(diff: PolicyDiff) {
  return {
    base: { fingerprint: diff.base.fingerprint },
    head: { fingerprint: diff.head.fingerprint },
    statements: diff.statements,
    settings: diff.settings.map((c) => ({
      setting: c.setting,
      before: c.before,
      after: c.after,
      change: c.change,
      reason: c.reason,
    })),
    decisions: diff.decisions.map((d) => ({
      tool: d.tool,
      arguments: d.arguments,
      context: d.context,
      before: { action: d.before.action, statementIds: d.before.statementIds },
      after: { action: d.after.action, statementIds: d.after.statementIds },
      change: d.change,
      source: d.source,
    })),
    summary: diff.summary,
    engine: diff.engine.map((t) => ({
      tool: t.tool,
      status: t.status,
      ...(t.reason === undefined ? {} : { reason: t.reason }),
      regions: t.changes.map((c) => ({
        change: c.change,
        before: c.before,
        after: c.after,
        condition: c.condition,
        arguments: c.arguments,
        context: c.context,
      })),
    })),
  };
}

/** The tools whose loosening the engine could not decide. */
export function unknownTools(diff: PolicyDiff): readonly ToolRegions[] {
  return diff.engine.filter((t) => t.status === "unknown");
}

/** What an `unknown` tool means for CI, in one sentence. */
const UNKNOWN_NOTE = "`--fail-on loosened` fails on it unless `--allow-unknown` is given";

/** The call as one line of JSON: arguments, and the context when there is one. */
function callText(d: DecisionChange): string {
  const args = canonicalJson(d.arguments);
  return Object.keys(d.context).length === 0 ? args : `${args} context ${canonicalJson(d.context)}`;
}

function sideText(s: SideDecision): string {
  return s.statementIds.length === 0 ? s.action : `${s.action} (${s.statementIds.join(", ")})`;
}

/** A setting change as one line: the key, both values and why it moves enforcement. */
function settingText(c: SettingChange): string {
  return `${c.setting}: ${canonicalJson(c.before)} → ${canonicalJson(c.after)} (${c.reason})`;
}

function place(file: string, line: number): string {
  return file === "" ? "(no file)" : `${file}:${line}`;
}

function summaryLine(diff: PolicyDiff): string {
  const s = diff.statements;
  const count = s.added.length + s.removed.length + s.changed.length;
  const other = diff.summary.changed - diff.summary.loosened - diff.summary.tightened;
  const parts = [`${diff.summary.loosened} loosened`, `${diff.summary.tightened} tightened`];
  if (other > 0) parts.push(`${countOf(other, "other change")}`);
  const unknown = unknownTools(diff).length;
  const tail = unknown > 0 ? `; ${countOf(unknown, "tool")} whose loosening is unknown` : "";
  return `${parts.join(", ")}; ${countOf(count, "statement change")}${tail}`;
}

const PAINT: Readonly<Record<DecisionChangeKind, string>> = {
  loosened: "\u001b[31m",
  tightened: "\u001b[32m",
  changed: "\u001b[33m",
};

function formatStylishDiff(diff: PolicyDiff, color: boolean): string {
  const e = (t: string) => escapeControl(t);
  const lines: string[] = [
    `toolgate diff: ${e(diff.base.label)} (${diff.base.fingerprint.slice(0, 19)}…) → ${e(diff.head.label)} (${diff.head.fingerprint.slice(0, 19)}…)`,
  ];
  const s = diff.statements;
  if (s.added.length + s.removed.length + s.changed.length > 0) {
    lines.push("", "statements");
    for (const c of s.changed) {
      const id = c.base.id === c.id ? e(c.id) : `${e(c.base.id)} → ${e(c.id)}`;
      lines.push(
        `  changed  ${id} (${c.kind}: ${c.fields.join(", ")})  ${e(place(c.base.file, c.base.line))} → ${e(place(c.head.file, c.head.line))}`,
      );
    }
    for (const a of s.added)
      lines.push(`  added    ${e(a.id)} (${a.kind}, ${a.action})  ${e(place(a.file, a.line))}`);
    for (const r of s.removed)
      lines.push(`  removed  ${e(r.id)} (${r.kind}, ${r.action})  ${e(place(r.file, r.line))}`);
  }
  if (diff.settings.length > 0) {
    lines.push("", "settings");
    for (const c of diff.settings) {
      const label = c.change.padEnd(9);
      const mark = color ? `${PAINT[c.change]}${label}\u001b[0m` : label;
      lines.push(`  ${mark}  ${e(settingText(c))}`);
    }
  }
  if (diff.decisions.length > 0) {
    lines.push("", "decisions");
    for (const d of diff.decisions) {
      const label = d.change.padEnd(9);
      const mark = color ? `${PAINT[d.change]}${label}\u001b[0m` : label;
      lines.push(`  ${mark}  ${e(d.tool)} ${e(callText(d))}`);
      lines.push(`             ${e(sideText(d.before))} → ${e(sideText(d.after))}  [${d.source}]`);
    }
  }
  if (diff.engine.length > 0) {
    lines.push("", "engine (every valid call of each changed tool)");
    for (const t of diff.engine) {
      const status =
        t.status === "complete"
          ? "complete"
          : `unknown: ${t.reason ?? "not decided"} (${UNKNOWN_NOTE.replaceAll("`", "")})`;
      lines.push(`  ${e(t.tool)}  ${e(status)}`);
      for (const c of t.changes) {
        const label = c.change.padEnd(9);
        const mark = color ? `${PAINT[c.change]}${label}\u001b[0m` : label;
        lines.push(`    ${mark}  where ${e(c.condition.join("; ") || "every call")}`);
        const call = callText({ arguments: c.arguments, context: c.context } as DecisionChange);
        lines.push(`               e.g. ${e(c.tool)} ${e(call)}: ${c.before} → ${c.after}`);
      }
    }
  }
  lines.push("", summaryLine(diff));
  return `${lines.join("\n")}\n`;
}

/** Markdown inline code that survives a table cell: pipes escaped, backticks fenced, controls shown. */
function code(text: string): string {
  const safe = escapeControl(text).replaceAll("|", "\\|");
  const ticks = Math.max(0, ...[...safe.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(ticks + 1);
  const pad = ticks > 0 ? " " : "";
  return `${fence}${pad}${safe}${pad}${fence}`;
}

function mdSide(s: SideDecision): string {
  return s.statementIds.length === 0
    ? `**${s.action}** (default deny)`
    : `**${s.action}** ${s.statementIds.map(code).join(", ")}`;
}

function formatMarkdownDiff(diff: PolicyDiff, maxRows: number): string {
  const out: string[] = [];
  const { loosened, tightened } = diff.summary;
  const headline =
    loosened > 0
      ? `:warning: this change loosens the policy: ${countOf(loosened, "loosening")} — calls that now get through, or settings that enforce less`
      : unknownTools(diff).length > 0
        ? `:warning: whether this change loosens the policy is unknown for ${countOf(unknownTools(diff).length, "tool")} (see the decision engine below)`
        : diff.decisions.length + diff.settings.length > 0
          ? "this change does not loosen the policy"
          : "no decision changes";
  out.push(`### toolgate diff: ${summaryLine(diff)}`, "", headline, "");
  out.push(
    `Base ${code(diff.base.label)} ${code(diff.base.fingerprint)} → head ${code(diff.head.label)} ${code(diff.head.fingerprint)}`,
    "",
  );
  if (diff.settings.length > 0) {
    out.push(
      "#### Settings",
      "",
      "| Change | Setting | Before | After | Why |",
      "| --- | --- | --- | --- | --- |",
    );
    for (const c of diff.settings) {
      out.push(
        `| ${c.change} | ${code(c.setting)} | ${code(canonicalJson(c.before))} | ${code(canonicalJson(c.after))} | ${escapeControl(c.reason).replaceAll("|", "\\|")} |`,
      );
    }
    out.push("");
  }
  const sections: [DecisionChangeKind, string][] = [
    ["loosened", "Loosened"],
    ["tightened", "Tightened"],
    ["changed", "Other decision changes"],
  ];
  for (const [kind, title] of sections) {
    const changes = diff.decisions.filter((d) => d.change === kind);
    if (changes.length === 0) continue;
    out.push(`#### ${title} (${changes.length})`, "");
    const tools = [...new Set(changes.map((d) => d.tool))];
    for (const tool of tools) {
      const rows = changes.filter((d) => d.tool === tool);
      out.push(`**${code(tool)}**`, "", "| Call | Before | After | From |", "| --- | --- | --- | --- |");
      for (const d of rows.slice(0, maxRows)) {
        out.push(`| ${code(callText(d))} | ${mdSide(d.before)} | ${mdSide(d.after)} | ${d.source} |`);
      }
      if (rows.length > maxRows) out.push(`| … and ${rows.length - maxRows} more | | | |`);
      out.push("");
    }
  }
  if (diff.engine.length > 0) {
    out.push("#### Decision engine", "", "| Tool | Status | Regions |", "| --- | --- | --- |");
    for (const t of diff.engine) {
      const status =
        t.status === "complete"
          ? "complete"
          : `**unknown**: ${escapeControl(t.reason ?? "not decided").replaceAll("|", "\\|")} (${UNKNOWN_NOTE})`;
      const regions = t.changes
        .map(
          (c) => `${c.change} ${c.before} → ${c.after} where ${code(c.condition.join("; ") || "every call")}`,
        )
        .join("<br>");
      out.push(`| ${code(t.tool)} | ${status} | ${regions} |`);
    }
    out.push("");
  }
  if (tightened + loosened === 0 && diff.decisions.length === 0) {
    out.push(
      "No call that the policy tests, the recorded calls or the generated witnesses tried is decided differently.",
      "",
    );
  }
  const s = diff.statements;
  if (s.added.length + s.removed.length + s.changed.length > 0) {
    out.push(
      "#### Statement changes",
      "",
      "| Change | Statement | Base | Head |",
      "| --- | --- | --- | --- |",
    );
    for (const c of s.changed) {
      out.push(
        `| changed (${c.fields.join(", ")}) | ${code(c.base.id === c.id ? c.id : `${c.base.id} → ${c.id}`)} | ${code(place(c.base.file, c.base.line))} | ${code(place(c.head.file, c.head.line))} |`,
      );
    }
    for (const a of s.added)
      out.push(`| added (${a.action}) | ${code(a.id)} | | ${code(place(a.file, a.line))} |`);
    for (const r of s.removed)
      out.push(`| removed (${r.action}) | ${code(r.id)} | ${code(place(r.file, r.line))} | |`);
    out.push("");
  }
  return `${out.join("\n")}\n`;
}

/** Where a decision change is shown: the head line of a changed or added statement that explains it. */
function locate(diff: PolicyDiff, d: DecisionChange): StatementSource | { file: string; line: number } {
  const touched = new Set([
    ...diff.statements.added.map((a) => a.id),
    ...diff.statements.changed.map((c) => c.id),
  ]);
  const renamed = new Map(diff.statements.changed.map((c) => [c.base.id, c.id]));
  const candidates = [
    ...d.after.statementIds.filter((id) => touched.has(id)),
    ...d.before.statementIds.map((id) => renamed.get(id) ?? id).filter((id) => touched.has(id)),
    ...diff.statements.changed.filter((c) => c.head.tools.includes(d.tool)).map((c) => c.id),
    ...diff.statements.added.filter((a) => a.tools.includes(d.tool)).map((a) => a.id),
    ...d.after.statementIds,
  ];
  for (const id of candidates) {
    const source = diff.sources.head.get(id);
    if (source !== undefined) return source;
  }
  return { file: diff.head.anchor, line: 1 };
}

interface Finding {
  readonly change: DecisionChangeKind | "unknown";
  readonly file: string;
  readonly line: number;
  readonly message: string;
}

/** One finding per tool, kind of change, place and pair of decisions, with the first witness call. */
function findings(diff: PolicyDiff): Finding[] {
  // A setting has no line of its own in the bundle: it is shown on the head's configuration file.
  const settings: Finding[] = diff.settings.map((c) => ({
    change: c.change,
    file: diff.head.configFile,
    line: 1,
    message: `${c.change}: ${settingText(c)}`,
  }));
  const groups = new Map<string, { finding: Finding; count: number }>();
  for (const d of diff.decisions) {
    const at = locate(diff, d);
    const key = canonicalJson([d.change, d.tool, at.file, at.line, d.before, d.after]);
    const entry = groups.get(key);
    if (entry !== undefined) {
      entry.count++;
      continue;
    }
    groups.set(key, {
      count: 1,
      finding: {
        change: d.change,
        file: at.file,
        line: at.line,
        message: `${d.change}: ${d.tool} was ${sideText(d.before)}, is now ${sideText(d.after)}; for example ${callText(d)} (${d.source})`,
      },
    });
  }
  const unknown: Finding[] = unknownTools(diff).map((t) => ({
    change: "unknown",
    file: diff.head.anchor,
    line: 1,
    message: `unknown: whether ${t.tool} loosens could not be decided (${t.reason ?? "not decided"}); ${UNKNOWN_NOTE}`,
  }));
  return [
    ...settings,
    ...unknown,
    ...[...groups.values()].map(({ finding, count }) =>
      count === 1
        ? finding
        : { ...finding, message: `${finding.message}, and ${countOf(count - 1, "more call")} like it` },
    ),
  ];
}

const GITHUB_LEVEL: Readonly<Record<Finding["change"], string>> = {
  unknown: "warning",
  loosened: "warning",
  tightened: "notice",
  changed: "notice",
};

function formatGithubDiff(diff: PolicyDiff): string {
  let out = "";
  for (const f of findings(diff)) {
    const props = [
      ["file", f.file.replace(/\\/g, "/")],
      ["line", String(f.line)],
      ["title", `toolgate diff: ${f.change}`],
    ]
      .map(([k, v]) => `${k}=${escapeProperty(v as string)}`)
      .join(",");
    out += `::${GITHUB_LEVEL[f.change]} ${props}::${escapeData(f.message)}\n`;
  }
  return out;
}

const SARIF_RULES: Readonly<Record<Finding["change"], { id: string; text: string; level: string }>> = {
  unknown: {
    id: "loosening-unknown",
    text: "Whether the change lets more calls through could not be decided for this tool.",
    level: "warning",
  },
  loosened: {
    id: "decision-loosened",
    text: "The change lets a call through that the policy refused or asked about before.",
    level: "warning",
  },
  tightened: {
    id: "decision-tightened",
    text: "The change refuses or asks about a call that the policy let through before.",
    level: "note",
  },
  changed: {
    id: "decision-changed",
    text: "The change decides a call differently without letting more through.",
    level: "note",
  },
};

function formatSarifDiff(diff: PolicyDiff, toolVersion: string): string {
  const list = findings(diff);
  const kinds = (["loosened", "unknown", "tightened", "changed"] as const).filter((k) =>
    list.some((f) => f.change === k),
  );
  const rules = kinds.map((k) => ({
    id: SARIF_RULES[k].id,
    shortDescription: { text: SARIF_RULES[k].text },
    defaultConfiguration: { level: SARIF_RULES[k].level },
  }));
  const results = list.map((f) => ({
    ruleId: SARIF_RULES[f.change].id,
    ruleIndex: kinds.indexOf(f.change),
    level: SARIF_RULES[f.change].level,
    message: { text: f.message },
    locations: [
      {
        physicalLocation: {
          artifactLocation: pathToSarifUri(f.file),
          ...(f.line >= 1 ? { region: { startLine: f.line } } : {}),
        },
      },
    ],
  }));
  const log = {
    $schema: SARIF_SCHEMA_URI,
    version: "2.1.0",
    runs: [
      {
        tool: { driver: { name: "toolgate", version: toolVersion, rules } },
        originalUriBaseIds: {
          [SARIF_SRCROOT]: {
            description: {
              text: "The working directory toolgate ran in; file locations are relative to it.",
            },
          },
        },
        columnKind: "utf16CodeUnits",
        results,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

/** GitHub refuses comments over 65,536 characters: a longer report is cut at a line, and says so. */
const MAX_MARKDOWN = 60_000;

function truncateMarkdown(text: string): string {
  if (text.length <= MAX_MARKDOWN) return text;
  const cut = text.lastIndexOf("\n", MAX_MARKDOWN);
  return `${text.slice(0, cut)}\n\n… the report is cut here; \`toolgate diff --format json\` prints all of it.\n`;
}

/**
 * Formats a diff.
 * @param format - one of {@link DIFF_FORMATS}.
 * @returns the text to print, ending in a newline (github: empty when nothing changed).
 */
export function formatPolicyDiff(
  diff: PolicyDiff,
  format: DiffFormat,
  options: DiffFormatOptions = {},
): string {
  switch (format) {
    case "json":
      return `${JSON.stringify(toPolicyDiffJson(diff), null, 2)}\n`;
    case "markdown":
      return truncateMarkdown(formatMarkdownDiff(diff, options.maxRowsPerTool ?? 10));
    case "github":
      return formatGithubDiff(diff);
    case "sarif":
      return formatSarifDiff(diff, options.toolVersion ?? "0.0.0");
    case "stylish":
      return formatStylishDiff(diff, options.color === true);
  }
}
