/**
 * `createController`: a `ToolController` from a loaded `PolicyBundle` and the application's handlers.
 */
import { isAbsolute, resolve } from "node:path";
import { cachedValidators } from "../config/load-policy.js";
import type { PolicyBundle } from "../config/policy-bundle.js";
import type { ApprovalStore } from "../runtime/approval-store.js";
import { PendingApprovals } from "../runtime/approvals.js";
import type { AuditSink } from "../runtime/audit.js";
import { type OnAsk, ToolController } from "../runtime/controller.js";
import { ToolgateError } from "../runtime/errors.js";
import { ToolPolicy } from "../runtime/policy.js";
import { ToolRegistry } from "../runtime/registry.js";
import { ToolRuntime } from "../runtime/tool-runtime.js";
import type { ArgumentValidator, ToolDefinition, ToolHandler } from "../runtime/types.js";
import { openApprovalStore, openAuditSink } from "../stores/open-store.js";
import { ValidatorFactory } from "../validation/argument-validator.js";

/** Handlers by tool name. */
// biome-ignore lint/suspicious/noExplicitAny: each handler receives the validated arguments of its own tool
export type HandlerMap = { readonly [toolName: string]: ToolHandler<any> };

/** Options of `createController`. */
export interface CreateControllerOptions {
  readonly bundle: PolicyBundle;
  readonly handlers: HandlerMap;
  /** A store, a store URL (`memory`, `sqlite:PATH`, `postgres://…`), or ready `PendingApprovals`. Default: the config's `approvals`, else memory. */
  readonly approvals?: PendingApprovals | ApprovalStore | string;
  /** An audit sink or its URL (`jsonl:PATH`, `sqlite:PATH`, `postgres://…`). Default: the config's `audit`, else none. */
  readonly audit?: AuditSink | string;
  readonly onAsk?: OnAsk;
  /** How long approval requests stay usable (default one hour). */
  readonly approvalTtlMs?: number;
  /** Working directory the bundle was loaded from, for relative store paths in the config (default `process.cwd()`). */
  readonly cwd?: string;
}

/** Thrown by `createController` when handlers and tools do not fit together. */
export class ControllerSetupError extends ToolgateError {
  readonly problems: readonly string[];
  constructor(code: "missing-handler" | "unknown-handler", problems: readonly string[]) {
    super(code, problems.join("; "));
    this.problems = problems;
  }
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

/** The policy of a bundle. */
export function bundlePolicy(bundle: PolicyBundle): ToolPolicy {
  return ToolPolicy.fromStatements(bundle.statements, bundle.fingerprint);
}

/**
 * Checks that handlers and tools fit: every tool the policy can allow or ask about has a handler, and
 * every handler names a declared tool.
 * @throws ControllerSetupError listing every problem.
 */
export function assertHandlersFit(
  toolNames: readonly string[],
  policy: ToolPolicy,
  handlers: HandlerMap,
): void {
  const declared = new Set(toolNames);
  const unknown = Object.keys(handlers).filter((name) => !declared.has(name));
  if (unknown.length > 0) {
    throw new ControllerSetupError(
      "unknown-handler",
      unknown.map(
        (name) =>
          `a handler is given for "${name}", which no tool file declares; remove it or declare the tool`,
      ),
    );
  }
  const missing = toolNames.filter(
    (name) =>
      !policy.isDeniedOutright(name) &&
      (!Object.hasOwn(handlers, name) || typeof handlers[name] !== "function"),
  );
  if (missing.length > 0) {
    throw new ControllerSetupError(
      "missing-handler",
      missing.map(
        (name) =>
          `tool "${name}" can be allowed or asked by the policy but has no handler; add one to handlers`,
      ),
    );
  }
}

/** The runtime (registry of validated tools with their handlers) of a bundle. */
export function bundleRuntime(bundle: PolicyBundle, handlers: HandlerMap): ToolRuntime {
  const validators = bundleValidators(bundle);
  const refuse: ToolHandler<unknown> = () => {
    throw new ToolgateError("no-handler", "this tool is denied outright and has no handler");
  };
  const definitions: ToolDefinition<unknown>[] = bundle.tools.map((tool) => ({
    spec: { name: tool.name, description: tool.description, inputSchema: tool.inputSchema },
    validateArguments: validators.get(tool.name) as ArgumentValidator,
    handler: Object.hasOwn(handlers, tool.name) ? (handlers[tool.name] as ToolHandler<unknown>) : refuse,
  }));
  return new ToolRuntime(new ToolRegistry(definitions));
}

/**
 * Swaps a controller to a new bundle with the same handlers, in one step (policy and registry together).
 * @throws ControllerSetupError when the handlers do not fit the new bundle; the controller keeps the old one.
 */
export function reloadController(
  controller: ToolController,
  bundle: PolicyBundle,
  handlers: HandlerMap,
): void {
  const policy = bundlePolicy(bundle);
  assertHandlersFit(
    bundle.tools.map((t) => t.name),
    policy,
    handlers,
  );
  controller.reload({ policy, runtime: bundleRuntime(bundle, handlers) });
}

function storePath(url: string, base: string): string {
  for (const scheme of ["sqlite:", "jsonl:"]) {
    if (url.startsWith(scheme) && !isAbsolute(url.slice(scheme.length))) {
      return `${scheme}${resolve(base, url.slice(scheme.length))}`;
    }
  }
  return url;
}

/**
 * Creates a controller from a bundle and handlers.
 * @throws ControllerSetupError when a tool that can run has no handler, or a handler names no tool.
 */
export function createController(options: CreateControllerOptions): ToolController {
  const { bundle, handlers } = options;
  const policy = bundlePolicy(bundle);
  assertHandlersFit(
    bundle.tools.map((t) => t.name),
    policy,
    handlers,
  );
  const runtime = bundleRuntime(bundle, handlers);
  const base = resolve(options.cwd ?? process.cwd(), bundle.configDir);
  const approvalsOption = options.approvals ?? bundle.settings.approvals;
  const ttl = options.approvalTtlMs === undefined ? {} : { ttlMs: options.approvalTtlMs };
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
  const audit = typeof auditOption === "string" ? openAuditSink(storePath(auditOption, base)) : auditOption;
  const redact = new Map(Object.entries(bundle.settings.audit?.redact ?? {}));
  return new ToolController({
    runtime,
    policy,
    approvals,
    ...(audit === undefined ? {} : { audit }),
    redact,
    ...(options.onAsk === undefined ? {} : { onAsk: options.onAsk }),
  });
}
