/**
 * `toolgate import claude-code SETTINGS.json…`: writes a toolgate policy over the Claude Code pack from
 * Claude Code's permission rules, and reports every rule that was not carried exactly.
 */

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { escapeControl } from "../diagnostics/escape-control.js";
import { importClaudeCodeSettings } from "../import/claude-code.js";
import { importCodexRules } from "../import/codex.js";
import { countOf } from "../runtime/plural.js";
import { EXIT, parseFormat, print, UsageError } from "./common.js";

/** Options of `toolgate import claude-code`. */
export interface ImportCommandOptions {
  readonly out?: string;
  readonly force?: boolean;
  readonly project?: string;
  readonly home?: string;
  readonly unreadableDeny?: boolean;
  readonly format: string;
}

/** `toolgate import claude-code FILES…`. Returns the exit code. */
export function runImportClaudeCode(files: readonly string[], options: ImportCommandOptions): number {
  const format = parseFormat(options.format, ["stylish", "json"] as const);
  const sources = files.map((file) => {
    try {
      return { file, text: readFileSync(file, "utf8") };
    } catch (error) {
      throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
    }
  });
  const result = importClaudeCodeSettings(sources, {
    home: options.home ?? homedir(),
    unreadableDeny: options.unreadableDeny === true,
    ...(options.project === undefined ? {} : { project: options.project }),
  });
  if (!result.ok) throw new UsageError(result.message);
  if (options.out !== undefined) {
    if (existsSync(options.out) && options.force !== true) {
      throw new UsageError(`${options.out} exists; pass --force to overwrite it`);
    }
    writeFileSync(options.out, result.yaml);
  }
  const report = (text: string) =>
    options.out === undefined ? process.stderr.write(`${text}\n`) : print(text);
  if (options.out === undefined) process.stdout.write(result.yaml);
  if (format === "json") {
    report(JSON.stringify({ findings: result.findings, modes: result.modes, notes: result.notes }, null, 2));
    return EXIT.ok;
  }
  const e = (text: string) => escapeControl(text);
  report(
    `${countOf(result.findings.length, "rule")} read; ${tally(result.findings)}, each listed below${options.out === undefined ? "" : `; policy written to ${e(options.out)}`}`,
  );
  for (const f of result.findings) {
    report(
      `  ${f.list.padEnd(5)}  ${e(f.rule)}  ${f.carried}${f.note === undefined ? "" : `: ${e(f.note)}`}${f.ids.length > 0 ? ` [${f.ids.join(", ")}]` : ""}`,
    );
  }
  for (const m of result.modes) {
    report(`  mode   defaultMode ${e(JSON.stringify(m.mode))} (${e(m.file)})  ${m.carried}: ${e(m.note)}`);
  }
  for (const note of result.notes) report(`  note: ${e(note)}`);
  return EXIT.ok;
}

/** Options of `toolgate import codex`. */
export interface ImportCodexOptions {
  readonly out?: string;
  readonly force?: boolean;
  readonly tool: string;
  readonly field: string;
  readonly format: string;
}

/** `toolgate import codex FILES…`. Returns the exit code. */
export function runImportCodex(files: readonly string[], options: ImportCodexOptions): number {
  const format = parseFormat(options.format, ["stylish", "json"] as const);
  if (!/^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(options.tool)) {
    throw new UsageError(`--tool "${options.tool}" is not a tool name`);
  }
  if (!/^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_-]*)*$/.test(options.field)) {
    throw new UsageError(`--field "${options.field}" is not a field path`);
  }
  const sources = files.map((file) => {
    try {
      return { file, text: readFileSync(file, "utf8") };
    } catch (error) {
      throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
    }
  });
  const result = importCodexRules(sources, { tool: options.tool, field: options.field });
  if (!result.ok) throw new UsageError(result.message);
  if (options.out !== undefined) {
    if (existsSync(options.out) && options.force !== true) {
      throw new UsageError(`${options.out} exists; pass --force to overwrite it`);
    }
    writeFileSync(options.out, result.yaml);
  } else process.stdout.write(result.yaml);
  const report = (text: string) =>
    options.out === undefined ? process.stderr.write(`${text}\n`) : print(text);
  if (format === "json") {
    report(JSON.stringify({ findings: result.findings }, null, 2));
    return EXIT.ok;
  }
  const e = (text: string) => escapeControl(text);
  report(
    `${countOf(result.findings.length, "rule")} read; ${tally(result.findings)}, each listed below${options.out === undefined ? "" : `; policy written to ${e(options.out)}`}`,
  );
  for (const f of result.findings) {
    report(
      `  ${e(f.file)}:${f.line}  ${e(f.rule)}  ${f.carried}${f.note === undefined ? "" : `: ${e(f.note)}`}${f.ids.length > 0 ? ` [${f.ids.join(", ")}]` : ""}`,
    );
  }
  return EXIT.ok;
}

/** "N exact, N stricter, N not carried". */
function tally(findings: readonly { readonly carried: string }[]): string {
  const count = (c: string) => findings.filter((f) => f.carried === c).length;
  return `${count("exact")} exact, ${count("stricter")} stricter, ${count("not-carried")} not carried`;
}
