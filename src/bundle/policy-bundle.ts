/**
 * The `PolicyBundle`: what `loadPolicy` produces from YAML — validated, normalised, deep-frozen and
 * fingerprinted (DESIGN.md section 5). Runtime assembly, codegen and compile all start from it, and none of
 * them reads YAML: they import this folder, not the loader.
 */
import { policyFingerprint } from "../runtime/fingerprint.js";
import { deepFreeze } from "../runtime/handlers.js";
import { type ControllerMode, DEFAULT_MODE } from "../runtime/mode.js";
import type { StatementSpec } from "../runtime/policy.js";
import type { ToolAlias } from "../runtime/tool-aliases.js";
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

/** A notifier of the config's `notify` list: who hears that an approval waits. */
export type NotifierSetting =
  | {
      readonly kind: "webhook";
      readonly url: string;
      /** The environment variable that holds the signing secret. */
      readonly secretEnv?: string;
      /** The file that holds the signing secret, relative to the config file. */
      readonly secretFile?: string;
      readonly timeoutMs?: number;
      readonly maxAttempts?: number;
    }
  | {
      readonly kind: "command";
      /** The program and its arguments (no shell). */
      readonly command: readonly string[];
      readonly timeoutMs?: number;
    };

/** Settings from the config file that are not policy (the mode is, and is also in the fingerprint). */
export interface BundleSettings {
  /** The enforcement mode as the config file sets it; absent means `enforce` (the bundle's `mode`). */
  readonly mode?: ControllerMode;
  /** How long approval requests stay usable, in milliseconds. */
  readonly approvalTtlMs?: number;
  readonly notify?: readonly NotifierSetting[];
  readonly codegenOut?: string;
  readonly compileOut?: string;
  readonly approvals?: string;
  /** How approvers may remember approvals (`grants` in the config): the cap in hours and the session field. */
  readonly grants?: { readonly maxHours?: number; readonly sessionKey?: string };
  readonly audit?: {
    readonly sink: string;
    readonly redact: { readonly [tool: string]: "all" | readonly string[] };
    /** Also report to OpenTelemetry, after the sink. */
    readonly otel?: boolean;
  };
  /**
   * The config's `roots`, absolute (relative ones resolved against the config file's directory): directories
   * the agent works in, under which `mcp-proxy` and the hooks decide absolute paths relative to the root.
   */
  readonly roots?: readonly string[];
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
  /**
   * The tool aliases of the tool files: each a host's tool read as a declared tool, in config order of the
   * files and the order written in each, with where it is written. Part of the fingerprint when there are any.
   */
  readonly aliases: readonly ToolAlias[];
  readonly settings: BundleSettings;
  /**
   * The enforcement mode the policy is written for, resolved once when the bundle is made: the config's
   * `mode`, else `enforce`. Everything downstream reads this, never `settings.mode` with its own default.
   */
  readonly mode: ControllerMode;
  /** The configuration file, relative to the working directory. */
  readonly configFile: string;
  /** The directory of the configuration file, relative to the working directory (`.` for the same). */
  readonly configDir: string;
}

/** What a bundle holds besides its kind, mode and fingerprint, which `createBundle` adds. */
export type BundleContents = Omit<PolicyBundle, "kind" | "mode" | "fingerprint">;

/**
 * The one way a bundle is made: the contents deep-frozen (the same freeze compiled controllers use), with the
 * mode their settings name (resolved here, once: `enforce` when they name none) and the fingerprint of their
 * tools, statements, context schema and that mode.
 */
export function createBundle(contents: BundleContents): PolicyBundle {
  const mode = contents.settings.mode ?? DEFAULT_MODE;
  return deepFreeze({
    kind: "policy-bundle",
    fingerprint: fingerprintOf(
      contents.tools,
      contents.statements,
      contents.contextSchema,
      mode,
      contents.aliases,
    ),
    ...contents,
    mode,
  });
}

/**
 * The fingerprint covers what decides calls — tools (name, description, schema), statements (without their
 * source positions), the context schema, a mode other than `enforce` and the tool aliases when there are any —
 * so that the same policy gives the same fingerprint on every machine, and a moved comment does not change it.
 */
export function fingerprintOf(
  tools: readonly BundleTool[],
  statements: readonly StatementSpec[],
  contextSchema: JsonSchema | null,
  mode?: ControllerMode,
  aliases: readonly ToolAlias[] = [],
): string {
  return policyFingerprint(tools, statements, contextSchema, mode, aliases);
}
