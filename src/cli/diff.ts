import { DIAGNOSTICS } from "../config/diagnostic-codes.js";
import { type LoadResult, loadPolicyResultSync } from "../config/load-policy.js";
import { formatDiagnostics } from "../diagnostics/format.js";
import { type DiffSide, diffPolicies, hasChanges } from "../diff/diff-policies.js";
import { DIFF_FORMATS, formatPolicyDiff, unknownTools } from "../diff/format-diff.js";
import {
  openPolicySource,
  type PolicySource,
  PolicySourceError,
  workingTreeSource,
} from "../diff/policy-sources.js";
import { type RecordedCall, RecordedCallsError, readRecordedCalls } from "../diff/recorded-calls.js";
import { countOf } from "../runtime/plural.js";
import {
  EXIT,
  parseFormat,
  print,
  printError,
  readSourceFile,
  toolVersion,
  UsageError,
  useColor,
} from "./common.js";

/** Options of `toolgate diff`. */
export interface DiffCommandOptions {
  readonly base: string;
  readonly head?: string;
  readonly config?: string;
  readonly calls?: readonly string[];
  readonly format: string;
  readonly failOn?: string;
  /** With `--fail-on`: a tool whose loosening the engine could not decide is a warning, not a failure. */
  readonly allowUnknown?: boolean;
  readonly color?: boolean;
}

const FAIL_ON = ["loosened", "changed"] as const;

function open(spec: string | undefined, cwd: string, config: string | undefined): PolicySource {
  if (spec === undefined) return workingTreeSource(cwd, config);
  try {
    return openPolicySource(spec, cwd, config);
  } catch (error) {
    if (error instanceof PolicySourceError) throw new UsageError(error.message);
    throw error;
  }
}

/**
 * `toolgate diff --base REF|DIR`: what a policy change allows that was refused before. Exit 0, or 1 with
 * `--fail-on` when something loosened (or changed at all); 2 when a side does not load or a flag is wrong.
 */
export async function runDiff(options: DiffCommandOptions): Promise<number> {
  const format = parseFormat(options.format, DIFF_FORMATS);
  if (options.failOn !== undefined && !(FAIL_ON as readonly string[]).includes(options.failOn)) {
    throw new UsageError(`unknown --fail-on "${options.failOn}"; use loosened or changed`);
  }
  const cwd = process.cwd();
  const recorded: RecordedCall[] = [];
  let redacted = 0;
  for (const spec of options.calls ?? []) {
    try {
      const read = await readRecordedCalls(spec, cwd);
      recorded.push(...read.calls);
      redacted += read.redacted;
    } catch (error) {
      if (error instanceof RecordedCallsError) throw new UsageError(`--calls ${spec}: ${error.message}`);
      throw error;
    }
  }
  const sources: PolicySource[] = [];
  try {
    sources.push(open(options.base, cwd, options.config));
    sources.push(open(options.head, cwd, options.config));
    const loaded: [PolicySource, LoadResult][] = sources.map((source) => [
      source,
      loadPolicyResultSync({
        cwd: source.cwd,
        ...(source.config === undefined ? {} : { config: source.config }),
      }),
    ]);
    let failed = false;
    loaded.forEach(([source, result], index) => {
      if (result.bundle !== undefined) return;
      failed = true;
      const side = index === 0 ? "base" : "head";
      print(
        formatDiagnostics(
          format === "json" || format === "sarif" || format === "github" ? format : "stylish",
          {
            diagnostics: result.diagnostics,
            fingerprint: null,
            color: useColor(options.color),
            toolVersion: toolVersion(),
            table: DIAGNOSTICS,
            readSource: readSourceFile,
          },
        ),
      );
      printError(
        `the ${side} configuration (${source.label}) does not load; its diagnostics are above (paths relative to ${side === "base" && options.base !== undefined ? "that side's root" : "its directory"})`,
      );
    });
    if (failed) return EXIT.usage;
    const [base, head] = loaded.map(
      ([source, result]): DiffSide => ({
        label: source.label,
        bundle: result.bundle as NonNullable<LoadResult["bundle"]>,
        validators: result.validators,
      }),
    ) as [DiffSide, DiffSide];
    const diff = diffPolicies(base, head, { recorded });
    print(formatPolicyDiff(diff, format, { color: useColor(options.color), toolVersion: toolVersion() }));
    if (redacted > 0) {
      printError(
        `${countOf(redacted, "recorded call")} with redacted arguments ${redacted === 1 ? "was" : "were"} not replayed`,
      );
    }
    // Fail closed: a tool whose loosening is unknown may loosen, so `--fail-on` fails on it unless accepted.
    const unknown = unknownTools(diff);
    if (options.failOn !== undefined && unknown.length > 0) {
      printError(
        options.allowUnknown === true
          ? `warning: whether ${unknown.map((t) => t.tool).join(", ")} loosen(s) is unknown; accepted with --allow-unknown`
          : `whether ${unknown.map((t) => t.tool).join(", ")} loosen(s) is unknown (${unknown.map((t) => `${t.tool}: ${t.reason ?? "not decided"}`).join("; ")}); --fail-on ${options.failOn} fails closed: review the change and pass --allow-unknown to accept it`,
      );
    }
    const unknownFails = unknown.length > 0 && options.allowUnknown !== true;
    if (options.failOn === "loosened")
      return diff.summary.loosened > 0 || unknownFails ? EXIT.findings : EXIT.ok;
    if (options.failOn === "changed") return hasChanges(diff) || unknownFails ? EXIT.findings : EXIT.ok;
    return EXIT.ok;
  } finally {
    for (const source of sources) source.dispose();
  }
}
