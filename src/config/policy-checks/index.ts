/**
 * The policy checks, in the order they run, and the diagnostic rows they declare, gathered by code (the table
 * of codes, `../diagnostic-codes.ts`, is composed from these above the checks). `condition-compiles` runs after
 * every check of a rule's conditions (it stays quiet on a rule they reported on); the reachability checks run
 * last.
 */
import type { DiagnosticMeta } from "../../diagnostics/diagnostic-table.js";
import { aliasUnmappedArgumentCheck } from "./alias-unmapped-argument.js";
import { conditionCompilesCheck } from "./condition-compiles.js";
import { duplicateRuleIdCheck } from "./duplicate-rule-id.js";
import { operatorTypeCheck } from "./operator-type.js";
import { operatorValueCheck } from "./operator-value.js";
import { overlapCheck } from "./overlap.js";
import { placeholderReasonCheck } from "./placeholder-reason.js";
import { prefixOnPathCheck } from "./prefix-on-path.js";
import { reasonWithoutEntryCheck } from "./reason-without-entry.js";
import { unboundedStringCheck } from "./unbounded-string.js";
import { unknownArgumentCheck } from "./unknown-argument.js";
import { unknownToolCheck } from "./unknown-tool.js";
import { unlistedToolCheck } from "./unlisted-tool.js";
import { unreachableFallbackCheck } from "./unreachable-fallback.js";
import { unreachableRuleCheck } from "./unreachable-rule.js";

/** Every policy check. */
export const POLICY_CHECKS = Object.freeze([
  unknownToolCheck,
  overlapCheck,
  reasonWithoutEntryCheck,
  duplicateRuleIdCheck,
  unknownArgumentCheck,
  operatorTypeCheck,
  unboundedStringCheck,
  prefixOnPathCheck,
  operatorValueCheck("invalid-regex"),
  operatorValueCheck("invalid-glob"),
  operatorValueCheck("invalid-url"),
  operatorValueCheck("invalid-command"),
  conditionCompilesCheck,
  unreachableRuleCheck,
  unreachableFallbackCheck,
  unlistedToolCheck,
  placeholderReasonCheck,
  aliasUnmappedArgumentCheck,
] as const);

/** A code a policy check reports. */
export type PolicyCheckCode = (typeof POLICY_CHECKS)[number]["meta"]["code"];

/** The row each policy check declares, by its code (checks that share a code share its row). */
export const POLICY_CHECK_DIAGNOSTICS = Object.freeze(
  Object.fromEntries(POLICY_CHECKS.map((check) => [check.meta.code, check.meta])),
) as { readonly [Code in PolicyCheckCode]: DiagnosticMeta<Code> };
