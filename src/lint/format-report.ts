/**
 * The public `formatDiagnostics`: the formatters of `diagnostics/` with toolgate's own diagnostics table filled
 * in. The formatters sit below `config/` and are handed the table (only SARIF reads it); an application that
 * formats a lint report should not have to know that.
 */
import { DIAGNOSTICS } from "../config/diagnostic-codes.js";
import {
  type FormatInput as FormatterInput,
  formatDiagnostics as formatWith,
  type OutputFormat,
} from "../diagnostics/format.js";

/** What `formatDiagnostics` takes: the formatters' input, with `table` defaulting to toolgate's `DIAGNOSTICS`. */
export type FormatInput = Omit<FormatterInput, "table"> & { readonly table?: FormatterInput["table"] };

/**
 * Formats diagnostics in the given output format.
 * @returns The formatted report (the empty string for `stylish` and `github` when there is nothing to report).
 */
export function formatDiagnostics(format: OutputFormat, input: FormatInput): string {
  return formatWith(format, { ...input, table: input.table ?? DIAGNOSTICS });
}
