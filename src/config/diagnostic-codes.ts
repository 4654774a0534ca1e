/**
 * The table of diagnostic codes, composed from the rows the stages declare (`STAGE_DIAGNOSTICS`) and the
 * `meta` every policy check declares (gathered by the list of checks, `policy-checks/index.ts`; no check
 * imports this module): `DiagnosticCode` is derived from both, the SARIF formatter is handed
 * the table, and docs/policy-reference.md section 14 shows it (a test keeps the two equal). Codes are stable:
 * extend, never rename; a new code goes at the end.
 */
import type {
  Diagnostic as AnyDiagnostic,
  StageResult as AnyStageResult,
  Severity,
} from "../diagnostics/diagnostic.js";
import {
  type DiagnosticMeta,
  type StageDiagnosticCode,
  stageDiagnosticMeta as stage,
} from "../diagnostics/diagnostic-table.js";
import type { RuleHelp } from "../diagnostics/rule-help.js";
import { POLICY_CHECK_DIAGNOSTICS, type PolicyCheckCode } from "./policy-checks/index.js";

/** One of the stable diagnostic codes: a stage's own, or one a policy check declares. */
export type DiagnosticCode = StageDiagnosticCode | PolicyCheckCode;

/** A diagnostic with one of these codes: what the loader, lint and the public API report. */
export type Diagnostic = AnyDiagnostic<DiagnosticCode>;

/** The result of a stage that reports these codes. */
export type StageResult<T> = AnyStageResult<T, DiagnosticCode>;

/** The row a policy check declares for `code`. */
function check<Code extends PolicyCheckCode>(code: Code): DiagnosticMeta<Code> {
  return POLICY_CHECK_DIAGNOSTICS[code];
}

/** Every diagnostic code with its metadata, in code order (the order of the reference's table). */
export const DIAGNOSTICS = Object.freeze([
  stage("yaml-syntax"),
  stage("duplicate-key"),
  stage("yaml-alias"),
  stage("file-too-large"),
  stage("file-not-found"),
  stage("config-not-found"),
  stage("invalid-encoding"),
  stage("config-schema"),
  stage("invalid-tool-name"),
  stage("duplicate-tool"),
  stage("invalid-input-schema"),
  check("unknown-tool"),
  check("overlap"),
  check("duplicate-rule-id"),
  check("unknown-argument"),
  check("operator-type-mismatch"),
  check("invalid-regex"),
  check("invalid-glob"),
  check("invalid-command"),
  stage("unknown-rule"),
  stage("extends-cycle"),
  stage("missing-handler"),
  stage("unknown-handler"),
  stage("reload-refused"),
  stage("identifier-collision"),
  check("unlisted-tool"),
  check("unreachable-rule"),
  check("prefix-on-path"),
  check("invalid-url"),
  check("unbounded-string"),
  stage("test-failed"),
  stage("codegen-stale"),
  check("placeholder-reason"),
  stage("alias-unknown-tool"),
  stage("alias-unknown-host"),
  stage("alias-duplicate"),
  stage("alias-unknown-argument"),
  stage("alias-bad-mapping"),
  check("alias-unmapped-argument"),
] as const satisfies readonly DiagnosticMeta<DiagnosticCode>[]);

// The table holds every code, a stage's or a check's: a code missing from it fails to compile here.
type Missing = Exclude<DiagnosticCode, (typeof DIAGNOSTICS)[number]["code"]>;
const everyCodeListed: [Missing] extends [never] ? true : Missing = true;
void everyCodeListed;

/** Stable diagnostic codes, in code order: extend, never rename. They are also the SARIF `ruleId`. */
export const DIAGNOSTIC_CODES: readonly DiagnosticCode[] = Object.freeze(DIAGNOSTICS.map((d) => d.code));

const BY_CODE: ReadonlyMap<string, DiagnosticMeta<DiagnosticCode>> = new Map(
  DIAGNOSTICS.map((d) => [d.code, d]),
);

/** The metadata of a code. */
export function diagnosticMeta(code: DiagnosticCode): DiagnosticMeta<DiagnosticCode> {
  return BY_CODE.get(code) as DiagnosticMeta<DiagnosticCode>;
}

/** The severity each code is reported with unless a stage or the `severity` setting says otherwise. */
export const DEFAULT_SEVERITIES: Readonly<Record<DiagnosticCode, Severity>> = Object.freeze(
  Object.fromEntries(DIAGNOSTICS.map((d) => [d.code, d.severity])) as Record<DiagnosticCode, Severity>,
);

/** One short sentence per code (the SARIF rule's `shortDescription`). */
export const RULE_DESCRIPTIONS: Readonly<Record<DiagnosticCode, string>> = Object.freeze(
  Object.fromEntries(DIAGNOSTICS.map((d) => [d.code, d.description])) as Record<DiagnosticCode, string>,
);

/** Meaning and fix of every code. */
export const RULE_HELP: Readonly<Record<DiagnosticCode, RuleHelp>> = Object.freeze(
  Object.fromEntries(DIAGNOSTICS.map((d) => [d.code, { meaning: d.meaning, fix: d.fix }])) as Record<
    DiagnosticCode,
    RuleHelp
  >,
);
