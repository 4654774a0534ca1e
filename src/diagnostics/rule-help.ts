/**
 * The longer text of each diagnostic code, for SARIF rules (`fullDescription`, `help`, `helpUri`) and the
 * reference: what the code means, and what to do about it, as the diagnostics table holds it.
 * docs/policy-reference.md section 14 shows the same table; a test keeps the two equal.
 */
import { DIAGNOSTICS, type DiagnosticCode } from "./diagnostic-table.js";

/** What a code means and what to do. */
export interface RuleHelp {
  readonly meaning: string;
  readonly fix: string;
}

/** Where the reference lives; each code has an anchor `diagnostic-<code>` in its table. */
export const REFERENCE_URL = "https://toolgate.dev/docs/policy-reference.md";

/** The reference anchor of a code. */
export function helpUri(code: DiagnosticCode): string {
  return `${REFERENCE_URL}#diagnostic-${code}`;
}

/** Meaning and fix of every code, read from the diagnostics table. */
export const RULE_HELP: Readonly<Record<DiagnosticCode, RuleHelp>> = Object.freeze(
  Object.fromEntries(DIAGNOSTICS.map((d) => [d.code, { meaning: d.meaning, fix: d.fix }])) as Record<
    DiagnosticCode,
    RuleHelp
  >,
);
