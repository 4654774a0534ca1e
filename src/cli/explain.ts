import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { linkTarget } from "../adapters/hook-payload.js";
import { nearest } from "../config/nearest.js";
import { escapeControl } from "../diagnostics/escape-control.js";
import { decideWithRoots, pathFields, withRealPaths } from "../mcp-proxy/path-arguments.js";
import { type OperatorTrace, traceCondition } from "../runtime/condition-trace.js";
import type { CommandTrace } from "../runtime/match/shell.js";
import type { ControllerMode } from "../runtime/mode.js";
import type { StatementSpec } from "../runtime/policy.js";
import type { PolicyAction } from "../runtime/types.js";
import { decisionController } from "../testing/run-policy-tests.js";
import { EXIT, parseFormat, print, printError, UsageError } from "./common.js";
import { loadBundleOrReport } from "./load-bundle.js";

/** Options of `toolgate explain`. */
export interface ExplainCommandOptions {
  readonly config?: string;
  readonly args?: string;
  readonly context?: string;
  readonly format: string;
  readonly color?: boolean;
  readonly trace?: boolean;
  /** `--root`: directories absolute path arguments are read against, as `toolgate mcp-proxy --root` reads them. */
  readonly root?: readonly string[];
}

/** Reads a JSON flag value: inline JSON, or `@path` to a JSON file. */
function readJsonFlag(flag: string, value: string | undefined, fallback: unknown): unknown {
  if (value === undefined) return fallback;
  let text = value;
  if (value.startsWith("@")) {
    try {
      text = readFileSync(value.slice(1), "utf8");
    } catch {
      throw new UsageError(`${flag} ${value}: cannot read ${value.slice(1)}`);
    }
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(
      `${flag} is not valid JSON (${(error as Error).message}); pass a JSON object or @file.json`,
    );
  }
}

/** `toolgate explain TOOL`: the decision for one call, its reason, and every statement considered. */
export async function runExplain(tool: string, options: ExplainCommandOptions): Promise<number> {
  const format = parseFormat(options.format, ["stylish", "json"] as const);
  const args = readJsonFlag("--args", options.args, {});
  const context = readJsonFlag("--context", options.context, {});
  if (context === null || typeof context !== "object" || Array.isArray(context)) {
    throw new UsageError("--context must be a JSON object");
  }
  const loaded = loadBundleOrReport(options.config, options.color, "first");
  if ("exit" in loaded) return loaded.exit;
  const controller = decisionController(loaded.bundle, loaded.validators);
  const names = loaded.bundle.tools.map((t) => t.name);
  if (!names.includes(tool)) {
    // The decision is "invalid" either way; the name is likely a typo worth saying so about.
    const near = nearest(tool, names);
    printError(
      `tool "${escapeControl(tool)}" is not declared in any tool file${near === undefined ? `; declared: ${names.join(", ") || "none"}` : `; did you mean "${near}"?`}`,
    );
  }
  // Roots (--root and the config's roots:) read path arguments as toolgate mcp-proxy reads them.
  const roots = withRealPaths(
    [...(options.root ?? []).map((root) => resolve(root)), ...(loaded.bundle.settings.roots ?? [])],
    linkTarget,
  );
  const withContext = {
    explain: (call: Parameters<typeof controller.explain>[0]) =>
      controller.explain(call, context as { [key: string]: unknown }),
  };
  const rooted = decideWithRoots(
    withContext,
    { callId: "explain", toolName: tool, arguments: args },
    pathFields(loaded.bundle).get(tool),
    roots,
    linkTarget,
  );
  const explained = rooted.explained;
  const decidedArgs = rooted.call.arguments;
  const specs = new Map(
    loaded.bundle.statements.filter((st) => st.kind === "rule").map((st) => [st.id, st] as const),
  );
  const output =
    "callId" in explained
      ? { tool, action: "invalid" as const, reason: explained.content, ruleIds: [], statements: [] }
      : {
          tool,
          action: explained.decision.action,
          reason: explained.decision.reason,
          ruleIds: explained.decision.ruleIds,
          // A compound command decided part by part: each simple command's own decision.
          ...(explained.parts === undefined
            ? {}
            : {
                parts: explained.parts.map((part) => ({
                  field: part.field,
                  command: part.command,
                  action: part.decision.action,
                  reason: part.decision.reason,
                  ruleIds: part.decision.ruleIds,
                })),
              }),
          statements: explained.evaluations.map((e) => ({
            ...(options.trace === true
              ? { trace: traceStatement(specs.get(e.statement.id), decidedArgs, context) }
              : {}),
            id: e.statement.id,
            kind: e.statement.kind,
            action: e.statement.action,
            matched: e.matched,
            match: e.match,
            reason: e.statement.reason,
            ...(e.statement.source === undefined
              ? {}
              : {
                  file: e.statement.source.file,
                  line: e.statement.source.line,
                  layer: e.statement.source.layer ?? 0,
                }),
          })),
        };
  const mode = loaded.bundle.mode;
  // What the controller does with this decision in the configured mode (observe runs it, ci denies an ask).
  const outcome = output.action === "invalid" ? "invalid" : modeOutcomeAction(output.action, mode);
  if (format === "json") {
    const read = rooted.changed.length === 0 ? {} : { arguments: decidedArgs, sentArguments: args };
    print(
      JSON.stringify({ ...output, ...read, mode, outcome, fingerprint: loaded.bundle.fingerprint }, null, 2),
    );
    return EXIT.ok;
  }
  // The tool name, reasons, ids and file names are shown escaped: none of them may drive the terminal.
  const e = (text: string): string => escapeControl(text);
  print(`${e(tool)}: ${output.action.toUpperCase()} — ${e(output.reason)}`);
  if (mode !== "enforce") print(modeLine(mode, output.action));
  for (const change of rooted.changed)
    print(
      `read: ${e(change.at)} ${e(JSON.stringify(change.value))} as ${change.readings.map((r) => e(JSON.stringify(r))).join(" and ")} (against the roots; the strictest reading decides)`,
    );
  if (output.ruleIds.length > 0) {
    // A fallback decides only when nothing else matched: say so, since that is what a reader wonders.
    const fallback = output.statements.some((s) => s.kind === "otherwise" && s.matched);
    print(
      `decided by: ${output.ruleIds.map(e).join(", ")}${fallback ? " (no other statement matched)" : ""}`,
    );
  }
  if ("parts" in output && output.parts !== undefined) {
    print(`decided part by part, each simple command of ${e(output.parts[0]?.field ?? "")} on its own:`);
    for (const part of output.parts) {
      const by = part.ruleIds.length > 0 ? ` (${part.ruleIds.map(e).join(", ")})` : "";
      print(`  \`${e(part.command)}\` → ${part.action.toUpperCase()}${by}`);
    }
    print("the whole string, statement by statement:");
  }
  for (const s of output.statements) {
    const where = "file" in s ? `  ${e(s.file)}:${s.line}` : "";
    const mark =
      s.kind === "otherwise"
        ? s.matched
          ? "fallback"
          : "not used"
        : s.matched
          ? s.match === "possible"
            ? "may match"
            : "matched"
          : "no match";
    print(`  ${mark.padEnd(9)}  ${s.action.padEnd(5)}  ${e(s.id)}${where}`);
    if ("trace" in s && s.trace !== undefined)
      for (const line of traceLines(s.trace)) print(`             ${e(line)}`);
  }
  return EXIT.ok;
}

/** The action a controller in `mode` takes for the policy's `action`. */
function modeOutcomeAction(action: PolicyAction, mode: ControllerMode): PolicyAction {
  if (mode === "observe") return "allow";
  if (mode === "ci" && action === "ask") return "deny";
  return action;
}

/** The line that says what a mode other than enforce does with the decision. */
function modeLine(mode: ControllerMode, action: PolicyAction | "invalid"): string {
  if (action === "invalid") return `mode: ${mode} — an invalid call never runs`;
  if (mode === "observe") {
    if (action === "allow") return "mode: observe — the call runs";
    const verb = action === "deny" ? "denies it" : "asks a person about it";
    return `mode: observe — the call runs anyway, and the audit log records that the policy ${verb} (wouldHave: ${action})`;
  }
  return action === "ask"
    ? "mode: ci — no person is present, so the call is denied"
    : `mode: ci — asks are denied; this call is ${action === "allow" ? "allowed" : "denied"}`;
}

/** Where a traced operator looked: the call's arguments (`when`) or its context (`context`). */
type StatementTrace = (OperatorTrace & { readonly on: "when" | "context" })[];

function traceStatement(spec: StatementSpec | undefined, args: unknown, context: unknown): StatementTrace {
  if (spec === undefined) return [];
  return [
    ...(spec.when === undefined
      ? []
      : traceCondition(spec.when, args).map((t) => ({ on: "when" as const, ...t }))),
    ...(spec.context === undefined
      ? []
      : traceCondition(spec.context, context).map((t) => ({ on: "context" as const, ...t }))),
  ];
}

/** The trace of one statement as indented lines: each operator, and for `command` each simple command. */
function traceLines(trace: StatementTrace): string[] {
  const lines: string[] = [];
  for (const t of trace) {
    lines.push(`${t.on} ${t.field}: ${t.operator} ${JSON.stringify(t.value)} → ${t.result}`);
    if (t.command !== undefined) lines.push(...commandLines(t.command));
  }
  return lines;
}

function commandLines(trace: CommandTrace): string[] {
  const lines: string[] = [];
  if (trace.unreadable !== undefined) lines.push(`  ${trace.unreadable} (maybe for every prefix)`);
  trace.readings.forEach((reading, index) => {
    const name = trace.readings.length === 1 ? "as read" : `reading ${index + 1}`;
    if (reading.opaque) lines.push(`  ${name}: an expansion may run code, so more may run than is listed`);
    for (const command of reading.commands) {
      const met = command.prefixes.filter((p) => p.match !== "no-match");
      const which =
        met.length === 0
          ? "no prefix"
          : met.map((p) => `"${p.prefix}" (${p.match === "match" ? "match" : "may match"})`).join(", ");
      lines.push(`  ${name}: \`${command.words.join(" ")}\` → ${which}`);
    }
  });
  if (trace.safe === undefined) lines.push("  outside the safe shell subset: at most a maybe");
  else {
    for (const command of trace.safe) {
      lines.push(
        `  safe subset: \`${command.words.join(" ")}\` ${command.coveredBy === null ? "is covered by no prefix" : `is covered by "${command.coveredBy}"`}`,
      );
    }
  }
  return lines;
}
