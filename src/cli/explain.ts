import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { linkTarget } from "../adapters/hook-payload.js";
import type { JsonObject } from "../adapters/json-data.js";
import type { PolicyBundle } from "../bundle/policy-bundle.js";
import { nearest } from "../config/nearest.js";
import { escapeControl } from "../diagnostics/escape-control.js";
import { hostToolCalls } from "../hosts/host-tool-calls.js";
import { hookRoots } from "../hosts/run-hook.js";
import {
  decideWithRoots,
  pathFields,
  type RootedDecision,
  withRealPaths,
} from "../mcp-proxy/path-arguments.js";
import { type OperatorTrace, traceCondition } from "../runtime/condition-trace.js";
import type { CommandTrace } from "../runtime/match/shell.js";
import type { ControllerMode } from "../runtime/mode.js";
import type { StatementKind, StatementSpec } from "../runtime/policy.js";
import { ACTION_RANK } from "../runtime/statements.js";
import {
  ALIAS_HOSTS,
  type AliasHost,
  AliasTable,
  describeAlias,
  type ToolAlias,
} from "../runtime/tool-aliases.js";
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
  /** `--host`: read the tool name as this host's tool, through the configuration's aliases. */
  readonly host?: string;
  /** `--project`: with `--host`, the project directory path arguments are read against (default: cwd). */
  readonly project?: string;
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

/** One call as `explain` decided it, in the shape `--format json` prints (without mode and fingerprint). */
interface ExplainedCall {
  readonly output: ExplainOutput;
  /** Path arguments read against the roots (`read:` lines; empty when none changed). */
  readonly changed: RootedDecision["changed"];
  /** The arguments as decided (after reading paths against the roots) and as given. */
  readonly decidedArgs: unknown;
  readonly sentArgs: unknown;
}

/** A call's decision with every statement considered: the fields `--format json` has always printed. */
interface ExplainOutput {
  readonly tool: string;
  readonly action: PolicyAction | "invalid";
  readonly reason: string;
  readonly ruleIds: readonly string[];
  readonly parts?: readonly {
    readonly field: string;
    readonly command: string;
    readonly action: PolicyAction;
    readonly reason: string;
    readonly ruleIds: readonly string[];
  }[];
  readonly statements: readonly {
    readonly trace?: StatementTrace;
    readonly id: string;
    readonly kind: StatementKind;
    readonly action: PolicyAction;
    readonly matched: boolean;
    readonly match: string;
    readonly reason: string;
    readonly file?: string;
    readonly line?: number;
    readonly layer?: number;
  }[];
}

/** What deciding one call needs: the loaded policy, its controller, the context and the roots. */
interface ExplainSetup {
  readonly bundle: PolicyBundle;
  readonly controller: ReturnType<typeof decisionController>;
  readonly context: { readonly [key: string]: unknown };
  readonly roots: readonly string[];
  readonly trace: boolean;
}

/** Decides one canonical call, reading its path arguments against the roots as `toolgate mcp-proxy` does. */
function explainCall(setup: ExplainSetup, tool: string, args: unknown): ExplainedCall {
  const { bundle, controller, context } = setup;
  const withContext = {
    explain: (call: Parameters<typeof controller.explain>[0]) => controller.explain(call, context),
  };
  const rooted = decideWithRoots(
    withContext,
    { callId: "explain", toolName: tool, arguments: args },
    pathFields(bundle).get(tool),
    setup.roots,
    linkTarget,
  );
  const explained = rooted.explained;
  const decidedArgs = rooted.call.arguments;
  const specs = new Map(
    bundle.statements.filter((st) => st.kind === "rule").map((st) => [st.id, st] as const),
  );
  const output: ExplainOutput =
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
            ...(setup.trace
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
  return { output, changed: rooted.changed, decidedArgs, sentArgs: args };
}

/** How strict an outcome is among a host call's canonical calls: an invalid call is never run, so it ranks first. */
function strictness(action: PolicyAction | "invalid"): number {
  return action === "invalid" ? ACTION_RANK.deny + 1 : ACTION_RANK[action];
}

/** How `--host` read the name: as a declared tool itself, or through an alias into canonical calls. */
interface HostReading {
  readonly host: string;
  readonly name: string;
  /** The configuration declares the host's tool by its own name: decided as itself. */
  readonly asItself: boolean;
  /** The alias that read it (none: decided as itself, or read by the host's own stand-in). */
  readonly alias: ToolAlias | undefined;
  readonly calls: readonly ExplainedCall[];
  /** The index in `calls` of the call whose decision is the answer (the strictest). */
  readonly deciding: number;
}

/** `toolgate explain TOOL`: the decision for one call, its reason, and every statement considered. */
export async function runExplain(tool: string, options: ExplainCommandOptions): Promise<number> {
  const format = parseFormat(options.format, ["stylish", "json"] as const);
  const host = options.host;
  if (host !== undefined && !(ALIAS_HOSTS as readonly string[]).includes(host)) {
    const near = nearest(host, ALIAS_HOSTS);
    throw new UsageError(
      `--host ${JSON.stringify(host)} is not a host read through aliases; ${near === undefined ? `use one of ${ALIAS_HOSTS.join(", ")}` : `did you mean "${near}"?`}`,
    );
  }
  if (host === undefined && options.project !== undefined) {
    throw new UsageError("--project reads a host's path arguments: use it with --host");
  }
  const args = readJsonFlag("--args", options.args, {});
  const context = readJsonFlag("--context", options.context, {});
  if (context === null || typeof context !== "object" || Array.isArray(context)) {
    throw new UsageError("--context must be a JSON object");
  }
  const loaded = loadBundleOrReport(options.config, options.color, "first", undefined, format);
  if ("exit" in loaded) return loaded.exit;
  const bundle = loaded.bundle;
  const names = bundle.tools.map((t) => t.name);
  // Roots (--root and the config's roots:) read path arguments as toolgate mcp-proxy reads them.
  const roots = withRealPaths(
    [...(options.root ?? []).map((root) => resolve(root)), ...(bundle.settings.roots ?? [])],
    linkTarget,
  );
  const setup: ExplainSetup = {
    bundle,
    controller: decisionController(bundle, loaded.validators),
    context: context as { [key: string]: unknown },
    roots,
    trace: options.trace === true,
  };
  let reading: HostReading | undefined;
  if (host !== undefined) {
    const found = readThroughHost(setup, host as AliasHost, tool, args, options);
    if (!found.ok) {
      printError(found.message);
      return EXIT.findings;
    }
    reading = found.reading;
  } else if (!names.includes(tool)) {
    // The decision is "invalid" either way; the name is likely a typo worth saying so about.
    const near = nearest(tool, names);
    printError(
      `tool "${escapeControl(tool)}" is not declared in any tool file${near === undefined ? `; declared: ${names.join(", ") || "none"}` : `; did you mean "${near}"?`}`,
    );
  }
  const decided = reading === undefined ? explainCall(setup, tool, args) : reading.calls[reading.deciding];
  const { output, changed, decidedArgs, sentArgs } = decided as ExplainedCall;
  const mode = bundle.mode;
  // What the controller does with this decision in the configured mode (observe runs it, ci denies an ask).
  const outcome = output.action === "invalid" ? "invalid" : modeOutcomeAction(output.action, mode);
  if (format === "json") {
    const read = changed.length === 0 ? {} : { arguments: decidedArgs, sentArguments: sentArgs };
    const hostData = reading === undefined ? {} : { host: hostJson(reading) };
    print(
      JSON.stringify(
        { ...output, ...read, ...hostData, mode, outcome, fingerprint: bundle.fingerprint },
        null,
        2,
      ),
    );
    return EXIT.ok;
  }
  // The tool name, reasons, ids and file names are shown escaped: none of them may drive the terminal.
  const e = (text: string): string => escapeControl(text);
  if (reading !== undefined) for (const line of hostLines(reading)) print(e(line));
  print(`${e(output.tool)}: ${output.action.toUpperCase()} — ${e(output.reason)}`);
  if (mode !== "enforce") print(modeLine(mode, output.action));
  for (const change of changed)
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
  if (output.parts !== undefined) {
    print(`decided part by part, each simple command of ${e(output.parts[0]?.field ?? "")} on its own:`);
    for (const part of output.parts) {
      const by = part.ruleIds.length > 0 ? ` (${part.ruleIds.map(e).join(", ")})` : "";
      print(`  \`${e(part.command)}\` → ${part.action.toUpperCase()}${by}`);
    }
    print("the whole string, statement by statement:");
  }
  for (const s of output.statements) {
    const where = s.file === undefined ? "" : `  ${e(s.file)}:${s.line}`;
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
    if (s.trace !== undefined) for (const line of traceLines(s.trace)) print(`             ${e(line)}`);
  }
  return EXIT.ok;
}

/**
 * Reads a host's tool call as that host's hook reads it (`hostToolCalls`: the declared-name rule, the aliases,
 * the host's own readings, paths against the project and the roots): the canonical calls it stands for, each
 * decided; the strictest decides. A name the hook reads as an unknown tool is an error that lists the host's
 * aliased tools.
 */
function readThroughHost(
  setup: ExplainSetup,
  host: AliasHost,
  name: string,
  args: unknown,
  options: ExplainCommandOptions,
): { readonly ok: true; readonly reading: HostReading } | { readonly ok: false; readonly message: string } {
  if (args === null || typeof args !== "object" || Array.isArray(args)) {
    throw new UsageError("--args must be a JSON object: the host tool's arguments");
  }
  const names = new Set(setup.bundle.tools.map((t) => t.name));
  const declared = (tool: string) => names.has(tool);
  const table = new AliasTable(setup.bundle.aliases, host);
  const asItself = table.decidesAsItself(name, declared);
  const alias = asItself ? undefined : table.find(name)?.alias;
  const project = resolve(options.project ?? process.cwd());
  const read = hostToolCalls(host, name, args as JsonObject, {
    declared,
    roots: hookRoots(project, options.root, setup.bundle.settings.roots),
    contextSchema: setup.bundle.contextSchema,
    aliases: setup.bundle.aliases,
  });
  if (!read.ok) {
    return { ok: false, message: `the ${host} hook cannot read this call: ${escapeControl(read.reason)}` };
  }
  if (read.calls.every((call) => !names.has(call.toolName))) {
    const aliased = setup.bundle.aliases.filter((a) => a.host === host).map((a) => a.name);
    return {
      ok: false,
      message: `no tool is declared as "${escapeControl(name)}" and no alias reads the ${host} tool of that name, so the hook cannot read it (never allowed); ${
        aliased.length === 0
          ? `${host} has no aliases: add one under aliases: in a tool file`
          : `${host} tools with aliases: ${aliased.map((n) => escapeControl(n)).join(", ")}`
      }`,
    };
  }
  const calls = read.calls.map((call) => explainCall(setup, call.toolName, call.arguments));
  let deciding = 0;
  calls.forEach((call, index) => {
    const best = calls[deciding] as ExplainedCall;
    if (strictness(call.output.action) > strictness(best.output.action)) deciding = index;
  });
  return { ok: true, reading: { host, name, asItself, alias, calls, deciding } };
}

/** The lines before a host call's decision: how it was read, and each canonical call with its decision. */
function hostLines(reading: HostReading): string[] {
  const lines = [
    reading.asItself
      ? `${reading.name} (${reading.host}) is a declared tool: decided as itself`
      : reading.alias === undefined
        ? `${reading.name} (${reading.host}) → ${[...new Set(reading.calls.map((call) => call.output.tool))].join(", ")}: read by the ${reading.host} hook (no alias)`
        : describeAlias(reading.alias),
  ];
  const many = reading.calls.length > 1;
  reading.calls.forEach((call, index) => {
    const label = many ? `call ${index + 1} of ${reading.calls.length}` : "call";
    lines.push(
      `${label}: ${call.output.tool} ${JSON.stringify(call.sentArgs)} → ${call.output.action.toUpperCase()}`,
    );
  });
  if (many) lines.push(`the strictest decides: call ${reading.deciding + 1}`);
  return lines;
}

/** The `host` object of `--format json`: the host, its tool's name, the alias (or null) and each canonical call. */
function hostJson(reading: HostReading): unknown {
  return {
    name: reading.host,
    tool: reading.name,
    alias:
      reading.alias === undefined
        ? null
        : {
            name: reading.alias.name,
            tool: reading.alias.tool,
            arguments: reading.alias.arguments.map(([target, source]) => ({ argument: target, ...source })),
            description: describeAlias(reading.alias),
            ...(reading.alias.source === undefined
              ? {}
              : { file: reading.alias.source.file, line: reading.alias.source.line }),
          },
    calls: reading.calls.map((call) => ({
      tool: call.output.tool,
      arguments: call.sentArgs,
      action: call.output.action,
      reason: call.output.reason,
      ruleIds: call.output.ruleIds,
    })),
  };
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
