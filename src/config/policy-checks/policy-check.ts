/**
 * What a policy check is: one unit that finds one kind of problem in the policy layers, declaring its
 * diagnostic's metadata (`{ code, severity, description, meaning, fix }`, as an ESLint rule declares `meta`).
 * The list of checks (`./index.ts`) gathers these rows, and the table of diagnostic codes is composed from them
 * above the checks (`../diagnostic-codes.ts`): a check knows its own code, never the whole table.
 */

import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import type { DiagnosticMeta } from "../../diagnostics/diagnostic-table.js";
import type { ParsedFile } from "../parsed-file.js";
import type { PolicyFacts } from "./policy-facts.js";

/** How a check reports: every finding it makes carries its own code. */
export interface CheckReport<Code extends string = string> {
  /** A finding at `pointer` of `parsed`, with the check's code and severity. */
  readonly at: (parsed: ParsedFile, pointer: string, message: string, prefer?: "key" | "value") => void;
  /** A finding built by the check itself (with the check's code). */
  readonly push: (diagnostic: Diagnostic<Code>) => void;
  /** What the checks before this one reported. */
  readonly reported: readonly Diagnostic[];
}

/** One check of the policy layers, reporting the code of its `meta`. */
export interface PolicyCheck<Code extends string = string> {
  readonly meta: DiagnosticMeta<Code>;
  /** What this check looks for, in words (for whoever reads the list of checks). */
  readonly name: string;
  readonly run: (facts: PolicyFacts, report: CheckReport<Code>) => void;
}

/** Declares a policy check, keeping its code a literal type (from which `DiagnosticCode` is derived). */
export function definePolicyCheck<Code extends string>(check: PolicyCheck<Code>): PolicyCheck<Code> {
  return check;
}
