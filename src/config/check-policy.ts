/**
 * Checks of policy layers and their statements: builds the bundle's statement list and runs the policy checks
 * (`policy-checks/`: unknown tools, overlap within a file, reasons, rule ids, fields against input schemas,
 * operator types and values, reachability, unlisted tools), each of which declares its diagnostic's metadata.
 */
import type { BundleTool } from "../bundle/policy-bundle.js";
import { stageResult } from "../diagnostics/diagnostic.js";
import type { StatementSpec } from "../runtime/policy.js";
import type { JsonSchema } from "../runtime/types.js";
import type { Diagnostic, DiagnosticCode, StageResult } from "./diagnostic-codes.js";
import { diagnosticAt } from "./parse-yaml.js";
import { POLICY_CHECKS } from "./policy-checks/index.js";
import type { CheckReport, PolicyCheck } from "./policy-checks/policy-check.js";
import {
  collectPolicyFacts,
  type PolicyCheckOptions,
  type PolicyLayer,
} from "./policy-checks/policy-facts.js";

export { fieldSchema, type PolicyCheckOptions, type PolicyLayer } from "./policy-checks/policy-facts.js";

/**
 * The statements of all layers, with every problem the policy checks find in them.
 * @param checks the checks to run (default: all of them, in their order).
 * @returns the statements with the warnings; when a check found an error, the statements as `partial`.
 */
export function checkPolicy(
  layers: readonly PolicyLayer[],
  tools: readonly BundleTool[],
  declared: ReadonlySet<string>,
  contextSchema: JsonSchema | null,
  options: PolicyCheckOptions = {},
  checks: readonly PolicyCheck<DiagnosticCode>[] = POLICY_CHECKS,
): StageResult<StatementSpec[]> {
  const facts = collectPolicyFacts(layers, tools, declared, contextSchema, options);
  const diagnostics: Diagnostic[] = [];
  for (const check of checks) {
    const { code, severity } = check.meta;
    const report: CheckReport<DiagnosticCode> = {
      at: (parsed, pointer, message, prefer = "value") =>
        diagnostics.push(diagnosticAt(parsed, pointer, code, message, { severity, prefer })),
      push: (diagnostic) => diagnostics.push(diagnostic),
      reported: diagnostics,
    };
    check.run(facts, report);
  }
  return stageResult([...facts.statements], diagnostics);
}
