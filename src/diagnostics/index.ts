/** The diagnostics module: the Diagnostic shape, its codes, and the output formatters. */

export {
  type Diagnostic,
  hasErrors,
  type Severity,
  type StageResult,
  sortDiagnostics,
  stageResult,
  stageValue,
} from "./diagnostic.js";
export {
  type DiagnosticMeta,
  STAGE_DIAGNOSTICS,
  type StageDiagnosticCode,
  stageDiagnosticMeta,
} from "./diagnostic-table.js";
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
  fingerprintDiagnostic,
  formatSarif,
  pathToSarifUri,
  SARIF_FINGERPRINT_KEY,
  SARIF_SCHEMA_URI,
  SARIF_SRCROOT,
  type SarifOptions,
} from "./format-sarif.js";
export { formatStylish, type StylishOptions } from "./format-stylish.js";
export { helpUri, REFERENCE_URL, type RuleHelp } from "./rule-help.js";
