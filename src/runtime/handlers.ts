/**
 * Checks that an application's handlers fit a policy's tools. Lives in the runtime so that compiled
 * controllers (which import only `toolgate/runtime`) check handlers exactly as `createController` does.
 */
import { ToolgateError } from "./errors.js";
import type { ToolPolicy } from "./policy.js";
import type { ToolHandler } from "./types.js";

/** Handlers by tool name. */
// biome-ignore lint/suspicious/noExplicitAny: each handler receives the validated arguments of its own tool
export type HandlerMap = { readonly [toolName: string]: ToolHandler<any> };

/** Thrown by `createController` when handlers and tools do not fit together. */
export class ControllerSetupError extends ToolgateError {
  readonly problems: readonly string[];
  constructor(code: "missing-handler" | "unknown-handler", problems: readonly string[]) {
    super(code, problems.join("; "));
    this.problems = problems;
  }
}

/**
 * Checks that handlers and tools fit: every tool the policy can allow or ask about has a handler, and
 * every handler names a declared tool.
 * @param toolNames the declared tools.
 * @param policy the policy the controller will use (it says which tools are denied outright).
 * @param handlers the application's handlers by tool name.
 * @throws ControllerSetupError listing every problem.
 */
export function assertHandlersFit(
  toolNames: readonly string[],
  policy: ToolPolicy,
  handlers: HandlerMap,
): void {
  if (handlers === null || typeof handlers !== "object") {
    throw new ControllerSetupError("missing-handler", [
      "handlers must be an object that maps tool names to functions",
    ]);
  }
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

/** The handler of a tool that is denied outright and was given none: it never runs (the policy denies first). */
export const refuseHandler: ToolHandler<unknown> = () => {
  throw new ToolgateError("no-handler", "this tool is denied outright and has no handler");
};

/** Freezes a value and everything reachable from it. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
