/** The diagnostics module: the Diagnostic shape, its codes, and the output formatters. */

export {
  DIAGNOSTIC_CODES,
  type Diagnostic,
  type DiagnosticCode,
  hasErrors,
  type Severity,
  type StageResult,
  sortDiagnostics,
  stageResult,
  stageValue,
} from "./diagnostic.js";
export { DIAGNOSTICS, type DiagnosticMeta, diagnosticMeta } from "./diagnostic-table.js";
export {
  type FormatInput,
  formatDiagnostics,
  isOutputFormat,
  OUTPUT_FORMATS,
  type OutputFormat,
} from "./format.js";
export { escapeData, escapeProperty, formatGithub } from "./format-github.js";
export { formatJson, type JsonReportInput } from "./format-json.js";
export {
  diagnosticsToJunit,
  escapeXmlAttribute,
  escapeXmlText,
  formatJunit,
  type JunitCase,
  type JunitFailure,
  type JunitSuite,
  stripInvalidXmlChars,
} from "./format-junit.js";
export {
  DEFAULT_SEVERITIES,
  fingerprintDiagnostic,
  formatSarif,
  pathToSarifUri,
  RULE_DESCRIPTIONS,
  SARIF_FINGERPRINT_KEY,
  SARIF_SCHEMA_URI,
  SARIF_SRCROOT,
  type SarifOptions,
} from "./format-sarif.js";
export { formatStylish, type StylishOptions } from "./format-stylish.js";
export { helpUri, REFERENCE_URL, RULE_HELP, type RuleHelp } from "./rule-help.js";
