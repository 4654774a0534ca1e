/**
 * `createController`: a `ToolController` from a loaded `PolicyBundle` and the application's handlers. This
 * folder is the composition root: the one place where a bundle, the stores and audit sinks its settings name,
 * its notifiers and the application's options are put together (and, in `watch-policy.ts`, kept up to date).
 */
import { resolve } from "node:path";
import { bundleParts } from "../bundle/bundle-parts.js";
import type { PolicyBundle } from "../bundle/policy-bundle.js";
import { notifiersFromSettings } from "../notify/from-settings.js";
import type { ApprovalRequestedHook, NotificationErrorHandler } from "../runtime/approval-notice.js";
import type { ApprovalStore } from "../runtime/approval-store.js";
import type { PendingApprovals } from "../runtime/approvals.js";
import { assembleController, assembleState } from "../runtime/assemble.js";
import type { AuditSink } from "../runtime/audit.js";
import type { OnAsk, ToolController } from "../runtime/controller.js";
import { ToolgateError } from "../runtime/errors.js";
import type { HandlerMap } from "../runtime/handlers.js";
import type { ControllerMode } from "../runtime/mode.js";
import type { ArgumentValidator } from "../runtime/types.js";
import { openApprovalStore, openAuditSink } from "../stores/open-store.js";
import { OtelAuditSink } from "../stores/otel-audit-sink.js";

// The handler check lives in the runtime, so that compiled controllers share it; re-exported here as before.
export { assertHandlersFit, ControllerSetupError, type HandlerMap } from "../runtime/handlers.js";

/** Options of `createController`. */
export interface CreateControllerOptions {
  readonly bundle: PolicyBundle;
  readonly handlers: HandlerMap;
  /**
   * The argument validators of the bundle's tools, by tool name, as the load compiled them
   * (`LoadResult.validators`); compiled from the bundle when omitted.
   */
  readonly validators?: ReadonlyMap<string, ArgumentValidator>;
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
 * @param validators the argument validators the load compiled (`LoadResult.validators`); compiled from the
 *   bundle when omitted.
 */
export function reloadController(
  controller: ToolController,
  bundle: PolicyBundle,
  handlers: HandlerMap,
  validators?: ReadonlyMap<string, ArgumentValidator>,
): void {
  refuseStoreChange(controller, bundle);
  const parts = bundleParts(bundle, validators);
  controller.reload(assembleState(parts, handlers, modeOptions.get(controller) ?? parts.mode));
}

/**
 * Creates a controller from a bundle and handlers: the bundle's parts, the config's stores and notifiers
 * (opened and set up here), and the application's options, put together by `assembleController`.
 * @throws ControllerSetupError when a tool that can run has no handler, or a handler names no tool.
 */
export function createController(options: CreateControllerOptions): ToolController {
  const { bundle, handlers } = options;
  const parts = bundleParts(bundle, options.validators);
  // The assembly is built once, before any store opens or any secret is read: the mode in force (the
  // application's, else the one the bundle resolved) is checked there, the handlers are checked and the
  // policy is built. It is handed on as it is; nothing after this reads or checks the mode again.
  const assembly = assembleState(parts, handlers, options.mode ?? parts.mode);
  const base = resolve(options.cwd ?? process.cwd(), bundle.configDir);
  // Notifiers are set up (secrets read) before any store opens: a missing secret stops start-up cleanly.
  const notifiers = notifiersFromSettings(bundle.settings.notify ?? [], base);
  const approvalsOption = options.approvals ?? bundle.settings.approvals;
  const approvals =
    typeof approvalsOption === "string" ? openApprovalStore(approvalsOption, { cwd: base }) : approvalsOption;
  const auditOption = options.audit ?? bundle.settings.audit?.sink;
  const opened = typeof auditOption === "string" ? openAuditSink(auditOption, { cwd: base }) : auditOption;
  // `audit.otel` reports to OpenTelemetry after the sink in force (the config's or the application's).
  const audit =
    bundle.settings.audit?.otel === true && opened !== undefined && !(opened instanceof OtelAuditSink)
      ? new OtelAuditSink({ next: opened })
      : opened;
  const controller = assembleController(
    { ...parts, notifiers },
    {
      handlers,
      ...(approvals === undefined ? {} : { approvals }),
      ...(audit === undefined ? {} : { audit }),
      ...(options.onAsk === undefined ? {} : { onAsk: options.onAsk }),
      ...(options.onApprovalRequested === undefined
        ? {}
        : { onApprovalRequested: options.onApprovalRequested }),
      ...(options.onNotificationError === undefined
        ? {}
        : { onNotificationError: options.onNotificationError }),
      ...(options.approvalTtlMs === undefined ? {} : { approvalTtlMs: options.approvalTtlMs }),
      ...(options.maxArgumentBytes === undefined ? {} : { maxArgumentBytes: options.maxArgumentBytes }),
      ...(options.handlerTimeoutMs === undefined ? {} : { handlerTimeoutMs: options.handlerTimeoutMs }),
    },
    assembly,
  );
  if (options.mode !== undefined) modeOptions.set(controller, options.mode);
  storeSources.set(controller, {
    approvals: options.approvals === undefined ? { url: bundle.settings.approvals } : "application",
    audit: options.audit === undefined ? { url: bundle.settings.audit?.sink } : "application",
  });
  return controller;
}
