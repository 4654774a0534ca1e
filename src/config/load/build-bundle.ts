/**
 * The bundle at the end of a load without errors: the config's settings as the bundle holds them (camelCase,
 * absent keys left out, paths resolved against the config's directory) and the one `createBundle` call.
 */
import { dirname, resolve } from "node:path";
import {
  type BundleSettings,
  type BundleTool,
  createBundle,
  type NotifierSetting,
  type PolicyBundle,
  type PolicyTestCase,
} from "../../bundle/policy-bundle.js";
import type { StatementSpec } from "../../runtime/policy.js";
import type { ToolAlias } from "../../runtime/tool-aliases.js";
import type { JsonSchema } from "../../runtime/types.js";
import { toDisplayPath } from "./read-files.js";
import type { RawConfig, RawNotifier } from "./validate-config.js";

/** What a load without errors found, besides the config. */
export interface BundleInput {
  readonly tools: readonly BundleTool[];
  readonly statements: readonly StatementSpec[];
  readonly contextSchema: JsonSchema | null;
  readonly tests: readonly PolicyTestCase[];
  readonly aliases: readonly ToolAlias[];
}

/**
 * Builds the frozen, fingerprinted bundle of a load without errors.
 * @param cwd the working directory the bundle's paths are shown relative to.
 * @param configPath the config file (absolute).
 */
export function buildBundle(
  raw: RawConfig,
  input: BundleInput,
  cwd: string,
  configPath: string,
): PolicyBundle {
  const base = dirname(configPath);
  return createBundle({
    ...input,
    settings: bundleSettings(raw, base),
    configFile: toDisplayPath(cwd, configPath),
    configDir: toDisplayPath(cwd, base),
  });
}

/** The config's settings as the bundle holds them; `base` is the config's directory. */
function bundleSettings(raw: RawConfig, base: string): BundleSettings {
  return {
    ...(raw.codegen === undefined ? {} : { codegenOut: raw.codegen.out }),
    ...(raw.compile === undefined ? {} : { compileOut: raw.compile.out }),
    ...(raw.approvals === undefined ? {} : { approvals: raw.approvals }),
    ...(raw.audit === undefined
      ? {}
      : {
          audit: {
            sink: raw.audit.sink,
            redact: raw.audit.redact ?? {},
            ...(raw.audit.otel === true ? { otel: true } : {}),
          },
        }),
    ...(raw.mode === undefined ? {} : { mode: raw.mode }),
    ...(raw.approval_ttl_ms === undefined ? {} : { approvalTtlMs: raw.approval_ttl_ms }),
    ...(raw.notify === undefined ? {} : { notify: notifierSettings(raw.notify) }),
    ...(raw.grants === undefined ? {} : { grants: readGrantSettings(raw.grants) }),
    // Relative roots are relative to the config file, like every other path in it.
    ...(raw.roots === undefined ? {} : { roots: raw.roots.map((root) => resolve(base, root)) }),
  };
}

/** The `notify` list as the bundle holds it (camelCase keys, absent keys left out). */
function notifierSettings(raw: readonly RawNotifier[]): NotifierSetting[] {
  return raw.map((n) =>
    n.kind === "webhook"
      ? {
          kind: "webhook",
          url: n.url,
          ...(n.secret_env === undefined ? {} : { secretEnv: n.secret_env }),
          ...(n.secret_file === undefined ? {} : { secretFile: n.secret_file }),
          ...(n.timeout_ms === undefined ? {} : { timeoutMs: n.timeout_ms }),
          ...(n.max_attempts === undefined ? {} : { maxAttempts: n.max_attempts }),
        }
      : {
          kind: "command",
          command: n.command,
          ...(n.timeout_ms === undefined ? {} : { timeoutMs: n.timeout_ms }),
        },
  );
}

/** The config's `grants` (schema-checked): the longest remembered approval and the session field. */
function readGrantSettings(grants: NonNullable<RawConfig["grants"]>): NonNullable<BundleSettings["grants"]> {
  return {
    ...(grants.max_hours === undefined ? {} : { maxHours: grants.max_hours }),
    ...(grants.session_key === undefined ? {} : { sessionKey: grants.session_key }),
  };
}
