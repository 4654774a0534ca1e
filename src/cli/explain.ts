import { readFileSync } from "node:fs";
import { nearest } from "../config/nearest.js";
import { escapeControl } from "../diagnostics/escape-control.js";
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
  const explained = controller.explain(
    { callId: "explain", toolName: tool, arguments: args },
    context as { [key: string]: unknown },
  );
  const output =
    "callId" in explained
      ? { tool, action: "invalid" as const, reason: explained.content, ruleIds: [], statements: [] }
      : {
          tool,
          action: explained.decision.action,
          reason: explained.decision.reason,
          ruleIds: explained.decision.ruleIds,
          statements: explained.evaluations.map((e) => ({
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
  if (format === "json") {
    print(JSON.stringify({ ...output, fingerprint: loaded.bundle.fingerprint }, null, 2));
    return EXIT.ok;
  }
  // The tool name, reasons, ids and file names are shown escaped: none of them may drive the terminal.
  const e = (text: string): string => escapeControl(text);
  print(`${e(tool)}: ${output.action.toUpperCase()} — ${e(output.reason)}`);
  if (output.ruleIds.length > 0) {
    // A fallback decides only when nothing else matched: say so, since that is what a reader wonders.
    const fallback = output.statements.some((s) => s.kind === "otherwise" && s.matched);
    print(
      `decided by: ${output.ruleIds.map(e).join(", ")}${fallback ? " (no other statement matched)" : ""}`,
    );
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
  }
  return EXIT.ok;
}
