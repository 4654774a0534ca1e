import { DuplicateToolError } from "./errors.js";
import type { ToolDefinition, ToolSpec } from "./types.js";

/** Outcome of `ToolRegistry.resolve`. */
export type ResolveResult =
  | { readonly found: true; readonly definition: ToolDefinition<unknown> }
  | { readonly found: false; readonly toolName: string };

/** The tools an application offers, by name. Immutable once built. */
export class ToolRegistry {
  readonly #byName: ReadonlyMap<string, ToolDefinition<unknown>>;
  // One frozen result per tool, so that resolving (on every call) allocates nothing.
  readonly #found: ReadonlyMap<string, ResolveResult>;
  /** The specs of every tool, in the order given. */
  readonly specs: readonly ToolSpec[];

  /**
   * @param definitions the tools; names must be unique.
   * @throws DuplicateToolError when two definitions share a name.
   */
  constructor(definitions: Iterable<ToolDefinition<never>>) {
    const byName = new Map<string, ToolDefinition<unknown>>();
    for (const definition of definitions) {
      const name = definition.spec.name;
      if (byName.has(name)) throw new DuplicateToolError(name);
      // A handler typed for specific arguments is stored as one that takes validated `unknown` input.
      byName.set(name, definition as unknown as ToolDefinition<unknown>);
    }
    this.#byName = byName;
    this.#found = new Map(
      [...byName].map(([name, definition]) => [name, Object.freeze({ found: true, definition })]),
    );
    this.specs = Object.freeze([...byName.values()].map((d) => d.spec));
  }

  /** Looks a tool up by its exact name. */
  resolve(name: string): ResolveResult {
    return this.#found.get(name) ?? { found: false, toolName: name };
  }

  /** True when a tool of that exact name is registered. */
  has(name: string): boolean {
    return this.#byName.has(name);
  }

  /** The registered tool names, in the order given. */
  get names(): readonly string[] {
    return [...this.#byName.keys()];
  }
}
