/**
 * The one controller assembly. `createController` (from a loaded bundle), the policy-test runner and every
 * compiled controller module build their `ToolController` here, so that the wiring that decides security —
 * which tools need a handler, the argument and context validators, the audit redaction, `onAsk`, the mode and
 * its fingerprint, the approval store and its time to live — exists once, in typed code.
 *
 * The parts are plain runtime values (specs, validators, statements): nothing here reads YAML, compiles a
 * schema or opens a store by URL.
 */
import { type ApprovalRequestedHook, allHooks, type NotificationErrorHandler } from "./approval-notice.js";
import type { ApprovalStore } from "./approval-store.js";
import { PendingApprovals } from "./approvals.js";
import type { AuditSink } from "./audit.js";
import { type AuditRedaction, type ControllerReload, type OnAsk, ToolController } from "./controller.js";
import { ToolgateError } from "./errors.js";
import { modeFingerprint } from "./fingerprint.js";
import { MAX_GRANT_MS } from "./grants.js";
import { assertHandlersFit, type HandlerMap, refuseHandler } from "./handlers.js";
import { assertControllerMode, type ControllerMode } from "./mode.js";
import { type StatementSpec, ToolPolicy } from "./policy.js";
import { ToolRegistry } from "./registry.js";
import { ToolRuntime } from "./tool-runtime.js";
import type { ArgumentValidator, ToolDefinition, ToolHandler, ToolSpec } from "./types.js";

/** Everything a policy determines for a controller, as runtime values. */
export interface ControllerParts {
  /** The tools' specs, in the order the controller lists them. */
  readonly specs: readonly ToolSpec[];
  /** The argument validator of every tool, by tool name. */
  readonly validators: ReadonlyMap<string, ArgumentValidator>;
  /** The policy statements. */
  readonly statements: readonly StatementSpec[];
  /** The mode the policy is written for, and its fingerprint in that mode. */
  readonly mode: ControllerMode;
  readonly fingerprint: string;
  /**
   * The canonical JSON of the fingerprinted data (`fingerprintData`): asked for only when a controller runs
   * in another mode than `mode`, whose fingerprint is derived from it (`modeFingerprint`).
   */
  readonly canonical: () => string;
  /** The policy over `statements` and `fingerprint`, when already built (a compiled module exports one). */
  readonly policy?: ToolPolicy;
  /** The validator of the caller context (`context_schema`), when the policy declares one. */
  readonly contextValidator?: ArgumentValidator;
  /** Argument fields the audit log redacts, by tool name. */
  readonly redact?: AuditRedaction;
  /** How long approval requests stay usable, as the policy sets it (default: one hour). */
  readonly approvalTtlMs?: number;
  /** The longest usable remembered approval, as the policy sets it (`grants.max_hours`; default 24 hours). */
  readonly grantMaxMs?: number;
  /** Hooks the policy asks for when an approval request is stored (its notifiers), before the application's. */
  readonly notifiers?: readonly ApprovalRequestedHook[];
}

/** What the application chooses when it assembles a controller. */
export interface AssembleOptions {
  /** One handler per tool that the policy can allow or ask about; none for a tool it does not declare. */
  readonly handlers: HandlerMap;
  /** Pending approvals, or the store to keep them in (memory by default). A store URL is not accepted here. */
  readonly approvals?: PendingApprovals | ApprovalStore;
  /** Where each step is recorded (an `AuditSink` object; nothing is recorded unless given). */
  readonly audit?: AuditSink;
  /** What to do with an ask decision: queue it for a person (default) or deny it. */
  readonly onAsk?: OnAsk;
  /** `enforce`, `observe` or `ci`; default: the parts' mode. Another mode decides under that mode's fingerprint. */
  readonly mode?: ControllerMode;
  /** Called when an approval request is stored, after the parts' notifiers; never awaited by the decision. */
  readonly onApprovalRequested?: ApprovalRequestedHook;
  /** Receives notifier failures (default: a process warning). */
  readonly onNotificationError?: NotificationErrorHandler;
  /** How long approval requests stay usable; default: the parts' `approvalTtlMs`, else one hour. */
  readonly approvalTtlMs?: number;
  /** Ceiling on one call's arguments (and the context), in bytes of compact JSON (default 1 MiB). */
  readonly maxArgumentBytes?: number;
  /** When set, a handler that has not settled after this many milliseconds gives an error result. */
  readonly handlerTimeoutMs?: number;
}

/** The policy the parts decide with in `mode`: the same statements, under that mode's fingerprint. */
function policyIn(parts: ControllerParts, mode: ControllerMode): ToolPolicy {
  if (mode === parts.mode)
    return parts.policy ?? ToolPolicy.fromStatements(parts.statements, parts.fingerprint);
  return ToolPolicy.fromStatements(parts.statements, modeFingerprint(parts.canonical(), mode));
}

/** The registry's definitions: every tool with its validator and its handler (or one that refuses). */
function definitions(parts: ControllerParts, handlers: HandlerMap): ToolDefinition<unknown>[] {
  return parts.specs.map((spec) => {
    const validator = parts.validators.get(spec.name);
    // Fail closed: a tool whose arguments cannot be checked never becomes callable.
    if (validator === undefined) {
      throw new ToolgateError("invalid-input-schema", `tool ${spec.name} has no argument validator`);
    }
    return {
      spec,
      validateArguments: validator,
      handler: Object.hasOwn(handlers, spec.name)
        ? (handlers[spec.name] as ToolHandler<unknown>)
        : refuseHandler,
    };
  });
}

/**
 * A controller's assembly: everything the parts determine for a running controller, with the mode it
 * decides in carried as data. A reload swaps exactly this.
 */
export type ControllerAssembly = Required<ControllerReload>;

/**
 * Builds the assembly, checked before anything is used: policy (in `mode`), runtime (tools, argument
 * validators, handlers), context validator, redaction and mode. The mode is checked here, once; whoever
 * holds the assembly reads its mode from it.
 * @param mode the mode to decide in (default: the parts' mode).
 * @throws ToolgateError `invalid-option` for an unknown mode; ControllerSetupError when the handlers do not
 *   fit; ToolgateError `invalid-input-schema` when a tool has no validator.
 */
export function assembleState(
  parts: ControllerParts,
  handlers: HandlerMap,
  mode: ControllerMode = parts.mode,
): ControllerAssembly {
  assertControllerMode(mode);
  const policy = policyIn(parts, mode);
  assertHandlersFit(
    parts.specs.map((spec) => spec.name),
    policy,
    handlers,
  );
  return {
    policy,
    runtime: new ToolRuntime(new ToolRegistry(definitions(parts, handlers))),
    contextValidator: parts.contextValidator ?? null,
    redact: parts.redact ?? new Map(),
    mode,
    grantMaxMs: parts.grantMaxMs ?? MAX_GRANT_MS,
  };
}

function refuseUrl(what: "approvals" | "audit"): never {
  throw new ToolgateError(
    "invalid-option",
    what === "approvals"
      ? "this controller takes approvals as a PendingApprovals or an ApprovalStore object, not a URL; open the store with toolgate's openApprovalStore"
      : "this controller takes audit as an AuditSink object, not a URL; open the sink with toolgate's openAuditSink",
  );
}

/** The pending approvals: the given ones, or new ones over the given store with the time to live in force. */
function pendingApprovals(parts: ControllerParts, options: AssembleOptions): PendingApprovals {
  const given = options.approvals;
  if (given instanceof PendingApprovals) return given;
  const ttlMs = options.approvalTtlMs ?? parts.approvalTtlMs;
  return new PendingApprovals({
    ...(given === undefined ? {} : { store: given }),
    ...(ttlMs === undefined ? {} : { ttlMs }),
  });
}

/** The parts' notifiers and the application's hook, as one hook (none when there is none). */
function approvalHook(parts: ControllerParts, options: AssembleOptions): ApprovalRequestedHook | undefined {
  const hooks = [...(parts.notifiers ?? [])];
  if (options.onApprovalRequested !== undefined) hooks.push(options.onApprovalRequested);
  if (hooks.length <= 1) return hooks[0];
  return allHooks(hooks);
}

/**
 * Assembles a controller from a policy's parts and the application's choices. Options come from plain
 * JavaScript too (a compiled module's caller), so their shape is checked here, failing closed.
 * @param state the assembly `assembleState` built already, for a caller that checks the handlers and the
 *   mode before it opens stores: the controller runs it as it is, in its mode (`options.handlers` and
 *   `options.mode` are then not read again, except that a different `options.mode` is refused). Built here
 *   from `options.handlers` and `options.mode` when omitted.
 * @throws ControllerSetupError when a tool that can run has no handler, or a handler names no tool;
 *   ToolgateError `invalid-option` for an unknown mode, a mode other than the given assembly's, or a
 *   store/sink given as a URL string.
 */
export function assembleController(
  parts: ControllerParts,
  options: AssembleOptions,
  state?: ControllerAssembly,
): ToolController {
  const given: Partial<AssembleOptions> = options !== null && typeof options === "object" ? options : {};
  if (state !== undefined && given.mode !== undefined && given.mode !== state.mode) {
    throw new ToolgateError(
      "invalid-option",
      `the assembled state is for mode ${state.mode}, not ${given.mode}`,
    );
  }
  const { runtime, policy, redact, contextValidator, mode, grantMaxMs } =
    state ?? assembleState(parts, given.handlers as HandlerMap, given.mode ?? parts.mode);
  if (typeof given.approvals === "string") refuseUrl("approvals");
  if (typeof given.audit === "string") refuseUrl("audit");
  const hook = approvalHook(parts, given as AssembleOptions);
  return new ToolController({
    runtime,
    policy,
    approvals: pendingApprovals(parts, given as AssembleOptions),
    ...(given.audit === undefined ? {} : { audit: given.audit }),
    redact,
    ...(given.onAsk === undefined ? {} : { onAsk: given.onAsk }),
    mode,
    grantMaxMs,
    ...(hook === undefined ? {} : { onApprovalRequested: hook }),
    ...(given.onNotificationError === undefined ? {} : { onNotificationError: given.onNotificationError }),
    ...(given.maxArgumentBytes === undefined ? {} : { maxArgumentBytes: given.maxArgumentBytes }),
    ...(given.handlerTimeoutMs === undefined ? {} : { handlerTimeoutMs: given.handlerTimeoutMs }),
    ...(contextValidator === null ? {} : { contextValidator }),
  });
}
