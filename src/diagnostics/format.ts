/** Picks a formatter by name: the `--format` flag of the CLI. */

import type { Diagnostic } from "./diagnostic.js";
import type { DiagnosticMeta } from "./diagnostic-table.js";
import { formatGithub } from "./format-github.js";
import { formatJson } from "./format-json.js";
import { diagnosticsToJunit, formatJunit } from "./format-junit.js";
import { formatSarif } from "./format-sarif.js";
import { formatStylish } from "./format-stylish.js";

/** Every output format, in the order the CLI lists them. */
export const OUTPUT_FORMATS = ["stylish", "json", "sarif", "github", "junit"] as const;

/** A `--format` value. */
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/**
 * Tells whether a string names an output format.
 *
 * @param value - A candidate, such as a command-line argument.
 * @returns True when `value` is one of {@link OUTPUT_FORMATS}.
 */
export function isOutputFormat(value: string): value is OutputFormat {
  return (OUTPUT_FORMATS as readonly string[]).includes(value);
}

/** What every formatter may need; each uses only its part. */
export interface FormatInput {
  readonly diagnostics: readonly Diagnostic[];
  /** The bundle fingerprint, or null when no bundle was built (only `json` prints it). */
  readonly fingerprint: string | null;
  /** ANSI colour (only `stylish` uses it). */
  readonly color: boolean;
  /** The toolgate version (only `sarif` uses it). */
  readonly toolVersion: string;
  /** The table of diagnostic codes, `DIAGNOSTICS` (only `sarif` uses it, for its rules). */
  readonly table: readonly DiagnosticMeta[];
  /** Where each code is explained, for the SARIF rules' `helpUri` (only `sarif` uses it; default: the policy reference). */
  readonly helpUri?: (code: string) => string;
  /** The text of a diagnostic's file, for the source excerpts of `stylish` (none when not given). */
  readonly readSource?: (file: string) => string | undefined;
}

/**
 * Formats diagnostics in the given output format.
 *
 * @param format - The output format.
 * @param input - The diagnostics and what the formats need besides them.
 * @returns The formatted report (the empty string for `stylish` and `github` when there is nothing to report).
 */
export function formatDiagnostics(format: OutputFormat, input: FormatInput): string {
  switch (format) {
    case "stylish":
      return formatStylish(input.diagnostics, {
        color: input.color,
        ...(input.readSource === undefined ? {} : { readSource: input.readSource }),
      });
    case "json":
      return formatJson({ fingerprint: input.fingerprint, diagnostics: input.diagnostics });
    case "sarif":
      return formatSarif(input.diagnostics, {
        toolVersion: input.toolVersion,
        table: input.table,
        ...(input.helpUri === undefined ? {} : { helpUri: input.helpUri }),
      });
    case "github":
      return formatGithub(input.diagnostics);
    case "junit":
      return formatJunit(diagnosticsToJunit(input.diagnostics));
  }
}
