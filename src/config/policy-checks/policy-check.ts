/**
 * What a policy check is: one unit that finds one kind of problem in the policy layers, carrying its
 * diagnostic's metadata (`{ code, severity, description }`, as an ESLint rule carries `meta`).
 */
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import type { DiagnosticMeta } from "../../diagnostics/diagnostic-table.js";
import type { ParsedFile } from "../parse-yaml.js";
import type { PolicyFacts } from "./policy-facts.js";

/** How a check reports. */
export interface CheckReport {
  /** A finding at `pointer` of `parsed`, with the check's code and severity. */
  readonly at: (parsed: ParsedFile, pointer: string, message: string, prefer?: "key" | "value") => void;
  /** A finding built by the check itself (with the check's code). */
  readonly push: (diagnostic: Diagnostic) => void;
  /** What the checks before this one reported. */
  readonly reported: readonly Diagnostic[];
}

/** One check of the policy layers. */
export interface PolicyCheck {
  readonly meta: Pick<DiagnosticMeta, "code" | "severity" | "description">;
  /** What this check looks for, in words (for whoever reads the list of checks). */
  readonly name: string;
  readonly run: (facts: PolicyFacts, report: CheckReport) => void;
}
