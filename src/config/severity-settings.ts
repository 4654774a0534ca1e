/**
 * The config's `severity` map: per diagnostic code, `off`, `warn` or `error`. Only codes that are warnings by
 * default can be configured (`unlisted-tool`, `unreachable-rule`, `prefix-on-path`, `unbounded-string`,
 * `placeholder-reason`): an
 * error says the policy cannot be loaded as written, or would not mean what it says, so it cannot be turned
 * off or lowered.
 */
import { stageResult } from "../diagnostics/diagnostic.js";
import {
  DEFAULT_SEVERITIES,
  DIAGNOSTIC_CODES,
  type Diagnostic,
  type DiagnosticCode,
  type StageResult,
} from "./diagnostic-codes.js";
import { nearest } from "./nearest.js";
import { childPointer, diagnosticAt, type ParsedFile } from "./parse-yaml.js";

/** A severity setting. */
export type SeveritySetting = "off" | "warn" | "error";

/** The codes whose severity the config may set: those that are warnings by default. */
export const CONFIGURABLE_CODES: readonly DiagnosticCode[] = DIAGNOSTIC_CODES.filter(
  (code) => DEFAULT_SEVERITIES[code] === "warning",
);

/**
 * Reads the `severity` map of a config file (already schema-checked): the settings, and a `config-schema`
 * error at each entry that names an unknown code or a code that cannot be configured (the valid entries are
 * then the `partial` settings).
 */
export function readSeveritySettings(
  config: ParsedFile,
  severity: { readonly [code: string]: SeveritySetting } | undefined,
): StageResult<ReadonlyMap<DiagnosticCode, SeveritySetting>> {
  const settings = new Map<DiagnosticCode, SeveritySetting>();
  const diagnostics: Diagnostic[] = [];
  for (const [code, setting] of Object.entries(severity ?? {})) {
    const pointer = childPointer("/severity", code);
    if ((CONFIGURABLE_CODES as readonly string[]).includes(code)) {
      settings.set(code as DiagnosticCode, setting);
      continue;
    }
    const known = (DIAGNOSTIC_CODES as readonly string[]).includes(code);
    const near = known ? undefined : nearest(code, DIAGNOSTIC_CODES);
    const message = known
      ? `"${code}" is an error that protects the policy's meaning; its severity cannot be changed (configurable: ${CONFIGURABLE_CODES.join(", ")})`
      : `unknown diagnostic code "${code}"; ${near === undefined ? `configurable: ${CONFIGURABLE_CODES.join(", ")}` : `did you mean "${near}"?`}`;
    diagnostics.push(diagnosticAt(config, pointer, "config-schema", message, { prefer: "key" }));
  }
  return stageResult<ReadonlyMap<DiagnosticCode, SeveritySetting>, DiagnosticCode>(settings, diagnostics);
}

/** Applies the settings: `off` drops a diagnostic, `warn` and `error` set its severity. */
export function applySeveritySettings(
  diagnostics: readonly Diagnostic[],
  settings: ReadonlyMap<string, SeveritySetting>,
): Diagnostic[] {
  if (settings.size === 0) return [...diagnostics];
  const out: Diagnostic[] = [];
  for (const d of diagnostics) {
    const setting = settings.get(d.code);
    if (setting === undefined) out.push(d);
    else if (setting !== "off") out.push({ ...d, severity: setting === "warn" ? "warning" : "error" });
  }
  return out;
}
