/**
 * `createController`: a `ToolController` from a loaded `PolicyBundle` and the application's handlers.
 */
import { resolve } from "node:path";
import { cachedValidators } from "../config/load-policy.js";
import type { PolicyBundle } from "../config/policy-bundle.js";
import { notifiersFromSettings } from "../notify/from-settings.js";
import {
  type ApprovalRequestedHook,
  allHooks,
  type NotificationErrorHandler,
} from "../runtime/approval-notice.js";
import type { ApprovalStore } from "../runtime/approval-store.js";
import { PendingApprovals } from "../runtime/approvals.js";
import type { AuditSink } from "../runtime/audit.js";
import {
  type AuditRedaction,
  type ControllerReload,
  type OnAsk,
  ToolController,
} from "../runtime/controller.js";
import { ToolgateError } from "../runtime/errors.js";
import { policyFingerprint } from "../runtime/fingerprint.js";
import { assertHandlersFit, type HandlerMap, refuseHandler } from "../runtime/handlers.js";
import { assertControllerMode, type ControllerMode, DEFAULT_MODE } from "../runtime/mode.js";
import { ToolPolicy } from "../runtime/policy.js";
import { ToolRegistry } from "../runtime/registry.js";
import { ToolRuntime } from "../runtime/tool-runtime.js";
import type { ArgumentValidator, ToolDefinition, ToolHandler } from "../runtime/types.js";
import { openApprovalStore, openAuditSink, resolveStoreUrl } from "../stores/open-store.js";
import { OtelAuditSink } from "../stores/otel-audit-sink.js";
import { ValidatorFactory } from "../validation/argument-validator.js";

// The handler check lives in the runtime, so that compiled controllers share it; re-exported here as before.
export { assertHandlersFit, ControllerSetupError, type HandlerMap } from "../runtime/handlers.js";

/** Options of `createController`. */
export interface CreateControllerOptions {
  readonly bundle: PolicyBundle;
  readonly handlers: HandlerMap;
  /** A store, a store URL (`memory`, `sqlite:PATH`, `postgres://…`), or ready `PendingApprovals`. Default: the config's `approvals`, else memory. */
  readonly approvals?: PendingApprovals | ApprovalStore | string;
  /** An audit sink or its URL (`jsonl:PATH`, `sqlite:PATH`, `postgres://…`). Default: the config's `audit`, else none. */
  readonly audit?: AuditSink | string;
  readonly onAsk?: OnAsk;
  /**
   * The enforcement mode (`enforce`, `observe` or `ci`); default: the config's `mode`, else `enforce`. A mode
   * given here that differs from the config's changes the fingerprint the controller decides, audits and
   * stores approvals under (the fingerprint of the same policy in that mode), and survives reloads.
   */
  readonly mode?: ControllerMode;
  /**
   * Called when an approval request is stored, besides the config's `notify` list; never awaited by the
   * decision. See `ToolControllerOptions.onApprovalRequested`.
   */
  readonly onApprovalRequested?: ApprovalRequestedHook;
  /** Receives notifier failures (default: a process warning). */
  readonly onNotificationError?: NotificationErrorHandler;
  /** How long approval requests stay usable; default: the config's `approval_ttl_ms`, else one hour. */
  readonly approvalTtlMs?: number;
  /** Working directory the bundle was loaded from, for relative store paths in the config (default `process.cwd()`). */
  readonly cwd?: string;
  /** Ceiling on one call's arguments, in bytes of compact JSON (default 1 MiB); see `ToolControllerOptions`. */
  readonly maxArgumentBytes?: number;
  /** When set, a handler that has not settled after this many milliseconds gives an error result. */
  readonly handlerTimeoutMs?: number;
}

/** Builds the validators of a bundle's tools (reusing those compiled while loading, when there are). */
export function bundleValidators(bundle: PolicyBundle): ReadonlyMap<string, ArgumentValidator> {
  const cached = cachedValidators(bundle);
  if (cached !== undefined) return cached;
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

/** The mode a bundle's config sets (`enforce` when it sets none). */
export function bundleMode(bundle: PolicyBundle): ControllerMode {
  return bundle.settings.mode ?? DEFAULT_MODE;
}

/**
 * The policy of a bundle, in the config's mode or in `mode`: the fingerprint is the bundle's, or, for another
 * mode, the fingerprint of the same policy in that mode.
 */
export function bundlePolicy(bundle: PolicyBundle, mode: ControllerMode = bundleMode(bundle)): ToolPolicy {
  const fingerprint =
    mode === bundleMode(bundle)
      ? bundle.fingerprint
      : policyFingerprint(bundle.tools, bundle.statements, bundle.contextSchema, mode);
  return ToolPolicy.fromStatements(bundle.statements, fingerprint);
}

/** The runtime (registry of validated tools with their handlers) of a bundle. */
export function bundleRuntime(bundle: PolicyBundle, handlers: HandlerMap): ToolRuntime {
  const validators = bundleValidators(bundle);
  const definitions: ToolDefinition<unknown>[] = bundle.tools.map((tool) => ({
    spec: { name: tool.name, description: tool.description, inputSchema: tool.inputSchema },
    validateArguments: validators.get(tool.name) as ArgumentValidator,
    handler: Object.hasOwn(handlers, tool.name)
      ? (handlers[tool.name] as ToolHandler<unknown>)
      : refuseHandler,
  }));
  return new ToolRuntime(new ToolRegistry(definitions));
}

/** The audit redaction of a bundle, by tool name. */
export function bundleRedaction(bundle: PolicyBundle): AuditRedaction {
  return new Map(Object.entries(bundle.settings.audit?.redact ?? {}));
}

/**
 * Everything a bundle determines for a running controller, built and checked before anything is swapped:
 * policy, runtime (tools, argument validators, visible specs, handlers), context validator and redaction.
 * @throws ControllerSetupError when the handlers do not fit; ToolgateError when a schema does not compile.
 */
function bundleState(
  bundle: PolicyBundle,
  handlers: HandlerMap,
  modeOption: ControllerMode | undefined,
): Required<ControllerReload> {
  const mode = modeOption ?? bundleMode(bundle);
  const policy = bundlePolicy(bundle, mode);
  assertHandlersFit(
    bundle.tools.map((t) => t.name),
    policy,
    handlers,
  );
  return {
    policy,
    runtime: bundleRuntime(bundle, handlers),
    contextValidator: bundleContextValidator(bundle) ?? null,
    redact: bundleRedaction(bundle),
    mode,
  };
}

/** The mode each controller's application chose in `createController`: it wins over the config's on reload. */
const modeOptions = new WeakMap<ToolController, ControllerMode>();

/** A store setting of the config that a controller took its store from, or `"application"` when the
 * application passed its own store or sink (the config's setting is then not in force). */
type StoreSource = { readonly url: string | undefined } | "application";

/**
 * The store settings each controller was created with: a running controller cannot move its pending
 * approvals or its audit trail, so a reload that changes a setting in force is refused.
 */
const storeSources = new WeakMap<
  ToolController,
  { readonly approvals: StoreSource; readonly audit: StoreSource }
>();

function refuseStoreChange(controller: ToolController, bundle: PolicyBundle): void {
  const sources = storeSources.get(controller);
  if (sources === undefined) return;
  const next = { approvals: bundle.settings.approvals, audit: bundle.settings.audit?.sink };
  const changes: string[] = [];
  for (const key of ["approvals", "audit"] as const) {
    const source = sources[key];
    if (source === "application" || source.url === next[key]) continue;
    const setting = key === "approvals" ? "approvals" : "audit.sink";
    const kept = key === "approvals" ? "approval store (its pending requests live there)" : "audit sink";
    changes.push(
      `${setting} changed from ${source.url ?? "(none)"} to ${next[key] ?? "(none)"}, but a running controller keeps its ${kept}; restore ${setting} or restart the application to switch`,
    );
  }
  if (changes.length > 0) throw new ToolgateError("reload-refused", changes.join("; "));
}

/**
 * Swaps a controller to a new bundle with the same handlers, in one step: policy, tools and their argument
 * validators (so the visible specs), context validator and audit redaction together. When anything about the
 * new bundle cannot be used, nothing is swapped and the controller keeps the whole old configuration.
 * @throws ControllerSetupError when the handlers do not fit the new bundle; ToolgateError `reload-refused`
 *   when the bundle moves the approval store or audit sink the controller was created with from the config,
 *   and `invalid-input-schema` when a schema of a bundle loaded elsewhere does not compile.
 */
export function reloadController(
  controller: ToolController,
  bundle: PolicyBundle,
  handlers: HandlerMap,
): void {
  refuseStoreChange(controller, bundle);
  controller.reload(bundleState(bundle, handlers, modeOptions.get(controller)));
}

function storePath(url: string, base: string): string {
  return resolveStoreUrl(url, base);
}

/**
 * Creates a controller from a bundle and handlers.
 * @throws ControllerSetupError when a tool that can run has no handler, or a handler names no tool.
 */
export function createController(options: CreateControllerOptions): ToolController {
  const { bundle, handlers } = options;
  if (options.mode !== undefined) assertControllerMode(options.mode);
  const { policy, runtime, contextValidator, redact, mode } = bundleState(bundle, handlers, options.mode);
  const base = resolve(options.cwd ?? process.cwd(), bundle.configDir);
  // Notifiers are set up (secrets read) before any store opens: a missing secret stops start-up cleanly.
  const hooks = notifiersFromSettings(bundle.settings.notify ?? [], base);
  if (options.onApprovalRequested !== undefined) hooks.push(options.onApprovalRequested);
  const approvalsOption = options.approvals ?? bundle.settings.approvals;
  const ttlMs = options.approvalTtlMs ?? bundle.settings.approvalTtlMs;
  const ttl = ttlMs === undefined ? {} : { ttlMs };
  const approvals =
    approvalsOption instanceof PendingApprovals
      ? approvalsOption
      : new PendingApprovals({
          ...ttl,
          ...(approvalsOption === undefined
            ? {}
            : {
                store:
                  typeof approvalsOption === "string"
                    ? openApprovalStore(storePath(approvalsOption, base))
                    : approvalsOption,
              }),
        });
  const auditOption = options.audit ?? bundle.settings.audit?.sink;
  const opened = typeof auditOption === "string" ? openAuditSink(storePath(auditOption, base)) : auditOption;
  // `audit.otel` reports to OpenTelemetry after the sink in force (the config's or the application's).
  const audit =
    bundle.settings.audit?.otel === true && opened !== undefined && !(opened instanceof OtelAuditSink)
      ? new OtelAuditSink({ next: opened })
      : opened;
  const controller = new ToolController({
    runtime,
    policy,
    approvals,
    ...(audit === undefined ? {} : { audit }),
    redact,
    ...(options.onAsk === undefined ? {} : { onAsk: options.onAsk }),
    mode,
    ...(hooks.length === 0
      ? {}
      : { onApprovalRequested: hooks.length === 1 ? (hooks[0] as ApprovalRequestedHook) : allHooks(hooks) }),
    ...(options.onNotificationError === undefined
      ? {}
      : { onNotificationError: options.onNotificationError }),
    ...(options.maxArgumentBytes === undefined ? {} : { maxArgumentBytes: options.maxArgumentBytes }),
    ...(options.handlerTimeoutMs === undefined ? {} : { handlerTimeoutMs: options.handlerTimeoutMs }),
    ...(contextValidator === null ? {} : { contextValidator }),
  });
  if (options.mode !== undefined) modeOptions.set(controller, options.mode);
  storeSources.set(controller, {
    approvals: options.approvals === undefined ? { url: bundle.settings.approvals } : "application",
    audit: options.audit === undefined ? { url: bundle.settings.audit?.sink } : "application",
  });
  return controller;
}
