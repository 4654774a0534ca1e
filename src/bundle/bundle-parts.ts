/**
 * What a `PolicyBundle` determines for a controller, as the runtime's plain parts (`ControllerParts`): the
 * bridge from the bundle to `assembleController`, shared by `createController`, the policy-test runner and
 * `toolgate diff`. Nothing here opens a store, reads a secret or reads YAML.
 */
import type { ControllerParts } from "../runtime/assemble.js";
import { canonicalJson } from "../runtime/canonical-json.js";
import { ToolgateError } from "../runtime/errors.js";
import { fingerprintData, policyFingerprint } from "../runtime/fingerprint.js";
import type { ControllerMode } from "../runtime/mode.js";
import { ToolPolicy } from "../runtime/policy.js";
import type { ArgumentValidator } from "../runtime/types.js";
import { ValidatorFactory } from "../validation/argument-validator.js";
import type { PolicyBundle } from "./policy-bundle.js";

/**
 * Compiles the argument validators of a bundle's tools. A load already did (`LoadResult.validators`): hand
 * those over instead where you have them.
 * @throws ToolgateError `invalid-input-schema` when a schema does not compile (a bundle built elsewhere).
 */
export function bundleValidators(bundle: PolicyBundle): ReadonlyMap<string, ArgumentValidator> {
  const factory = new ValidatorFactory();
  const validators = new Map<string, ArgumentValidator>();
  for (const tool of bundle.tools) {
    const compiled = factory.compile(tool.inputSchema);
    if (!compiled.ok)
      throw new ToolgateError("invalid-input-schema", `tool ${tool.name}: ${compiled.message}`);
    validators.set(tool.name, compiled.validator);
  }
  return validators;
}

/** The validator of the bundle's `context_schema`, or `undefined` when the config declares none. */
export function bundleContextValidator(bundle: PolicyBundle): ArgumentValidator | undefined {
  if (bundle.contextSchema === null) return undefined;
  const compiled = new ValidatorFactory().compile(bundle.contextSchema);
  if (!compiled.ok) throw new ToolgateError("invalid-input-schema", `context_schema: ${compiled.message}`);
  return compiled.validator;
}

/** The mode a bundle's config sets (`enforce` when it sets none), as the bundle resolved it when it was made. */
export function bundleMode(bundle: PolicyBundle): ControllerMode {
  return bundle.mode;
}

/**
 * The policy of a bundle, in the config's mode or in `mode`: the fingerprint is the bundle's, or, for another
 * mode, the fingerprint of the same policy in that mode.
 */
export function bundlePolicy(bundle: PolicyBundle, mode: ControllerMode = bundleMode(bundle)): ToolPolicy {
  const fingerprint =
    mode === bundleMode(bundle)
      ? bundle.fingerprint
      : policyFingerprint(bundle.tools, bundle.statements, bundle.contextSchema, mode, bundle.aliases);
  return ToolPolicy.fromStatements(bundle.statements, fingerprint);
}

/**
 * What a bundle determines for a controller, as the runtime's plain parts: specs, validators (compiled
 * here unless given), statements, fingerprint and mode, context validator, audit redaction and approval TTL.
 * The config's notifiers and stores are the composition root's: `createController` adds them.
 * @throws ToolgateError `invalid-input-schema` when a schema does not compile.
 */
export function bundleParts(
  bundle: PolicyBundle,
  validators: ReadonlyMap<string, ArgumentValidator> = bundleValidators(bundle),
): ControllerParts {
  const mode = bundleMode(bundle);
  const contextValidator = bundleContextValidator(bundle);
  const ttlMs = bundle.settings.approvalTtlMs;
  const grantMaxMs = bundleGrantMaxMs(bundle);
  return {
    specs: bundle.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
    })),
    validators,
    statements: bundle.statements,
    mode,
    fingerprint: bundle.fingerprint,
    canonical: () =>
      canonicalJson(
        fingerprintData(bundle.tools, bundle.statements, bundle.contextSchema, mode, bundle.aliases),
      ),
    redact: new Map(Object.entries(bundle.settings.audit?.redact ?? {})),
    ...(contextValidator === undefined ? {} : { contextValidator }),
    ...(ttlMs === undefined ? {} : { approvalTtlMs: ttlMs }),
    ...(grantMaxMs === undefined ? {} : { grantMaxMs }),
  };
}

/** The config's `grants.max_hours` in milliseconds (the longest usable remembered approval), when it sets one. */
export function bundleGrantMaxMs(bundle: PolicyBundle): number | undefined {
  const hours = bundle.settings.grants?.maxHours;
  return hours === undefined ? undefined : Math.round(hours * 3_600_000);
}
