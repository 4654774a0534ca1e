/**
 * The `PolicyBundle`: what `loadPolicy` produces from YAML — validated, normalised, deep-frozen and
 * fingerprinted (DESIGN.md section 5). Runtime, codegen and compile all start from it.
 */
import { policyFingerprint } from "../runtime/fingerprint.js";
import type { StatementSpec } from "../runtime/policy.js";
import type { JsonSchema, PolicyAction, StatementSource } from "../runtime/types.js";

/** A tool as the bundle holds it. */
export interface BundleTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly source: StatementSource;
}

/** One case of a policy test file. */
export interface PolicyTestCase {
  readonly name: string;
  readonly tool: string;
  readonly arguments: unknown;
  readonly context?: { readonly [key: string]: unknown };
  readonly expect: PolicyAction | "invalid";
  readonly rule?: string;
  readonly source: StatementSource;
}

/** Settings from the config file that are not policy. */
export interface BundleSettings {
  readonly codegenOut?: string;
  readonly compileOut?: string;
  readonly approvals?: string;
  /** How approvers may remember approvals (`grants` in the config): the cap in hours and the session field. */
  readonly grants?: { readonly maxHours?: number; readonly sessionKey?: string };
  readonly audit?: {
    readonly sink: string;
    readonly redact: { readonly [tool: string]: "all" | readonly string[] };
  };
}

/** The loaded policy. Deep-frozen: nothing downstream changes it. */
export interface PolicyBundle {
  readonly kind: "policy-bundle";
  /** `sha256:` + hex SHA-256 of the canonical JSON of tools, statements and context schema. */
  readonly fingerprint: string;
  readonly tools: readonly BundleTool[];
  readonly statements: readonly StatementSpec[];
  readonly contextSchema: JsonSchema | null;
  readonly tests: readonly PolicyTestCase[];
  readonly settings: BundleSettings;
  /** The configuration file, relative to the working directory. */
  readonly configFile: string;
  /** The directory of the configuration file, relative to the working directory (`.` for the same). */
  readonly configDir: string;
}

/** Freezes a value and everything reachable from it (shared with compiled controllers). */
export { deepFreeze } from "../runtime/handlers.js";

/**
 * The fingerprint covers what decides calls — tools (name, description, schema), statements (without their
 * source positions) and the context schema — so that the same policy gives the same fingerprint on every
 * machine, and a moved comment does not change it.
 */
export function fingerprintOf(
  tools: readonly BundleTool[],
  statements: readonly StatementSpec[],
  contextSchema: JsonSchema | null,
): string {
  return policyFingerprint(tools, statements, contextSchema);
}
