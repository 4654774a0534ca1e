/**
 * Tool aliases: a host's own tool (Claude Code's `Bash`, Codex's `apply_patch`, Cursor's `beforeReadFile`, …)
 * declared in a tools file as a call of a shared canonical tool (`shell`, `read_file`, …) with an argument
 * mapping, so one policy written on the canonical tools gates every host. The mapping is data: each canonical
 * argument names where its value comes from in the host's call. Pure: reading a path against the project is
 * the caller's (`readPath`).
 */
import type { JsonValue, StatementSource, ToolCall } from "./types.js";

/** The hosts whose calls are read through aliases (a tools file's `aliases[].host`). */
export const ALIAS_HOSTS = ["claude-code", "gemini-cli", "codex", "cursor", "opencode"] as const;

/** One of `ALIAS_HOSTS`. */
export type AliasHost = (typeof ALIAS_HOSTS)[number];

/** Where one canonical argument's value comes from in the host's call. */
export type AliasSource =
  /** The host's argument of that name, as sent. */
  | { readonly kind: "argument"; readonly name: string }
  /** The host's argument of that name, read as a path against the project (inside it: relative to it). */
  | { readonly kind: "path"; readonly name: string }
  /** A fixed value. */
  | { readonly kind: "value"; readonly value: JsonValue }
  /** The host's whole argument object. */
  | { readonly kind: "all-arguments" }
  /** The host tool's name as sent. */
  | { readonly kind: "tool-name" }
  /** A `{part}` of the alias's name pattern. */
  | { readonly kind: "name-part"; readonly part: string }
  /** Nothing: the host has no such argument, and the canonical call never has it (said, not forgotten). */
  | { readonly kind: "absent" };

/** A host tool read as a canonical tool. */
export interface ToolAlias {
  readonly host: AliasHost;
  /** The host's tool name, or a pattern of literal text and `{part}`s (`mcp__{server}__{tool}`). */
  readonly name: string;
  /** The canonical tool. */
  readonly tool: string;
  /** Canonical argument ← source, in the order written. */
  readonly arguments: readonly (readonly [string, AliasSource])[];
  /** Where the alias is written (not part of the fingerprint). */
  readonly source?: StatementSource;
}

/** The `{part}` names of a name pattern, in order (none for a plain name). */
export function namePatternParts(name: string): readonly string[] {
  return [...name.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((match) => match[1] as string);
}

/** Whether `name` is a pattern (has a `{part}`). */
export function isNamePattern(name: string): boolean {
  return namePatternParts(name).length > 0;
}

/** A name pattern as a regular expression: literal text exactly, each part one or more characters (shortest first). */
function patternRegex(name: string): RegExp {
  let source = "";
  let last = 0;
  for (const match of name.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
    source += escapeRegex(name.slice(last, match.index));
    source += "([\\s\\S]+?)";
    last = (match.index as number) + match[0].length;
  }
  source += escapeRegex(name.slice(last));
  return new RegExp(`^${source}$`, "u");
}

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");

/** The parts a host tool name fills in a pattern, or `undefined` when it does not fit. */
function matchName(alias: ToolAlias, name: string): ReadonlyMap<string, string> | undefined {
  const parts = namePatternParts(alias.name);
  if (parts.length === 0) return alias.name === name ? new Map() : undefined;
  const match = patternRegex(alias.name).exec(name);
  if (match === null) return undefined;
  return new Map(parts.map((part, index) => [part, match[index + 1] as string]));
}

/** One host's aliases, looked up by host tool name: exact names first, then patterns in the order written. */
export class AliasTable {
  readonly #exact = new Map<string, ToolAlias>();
  readonly #patterns: ToolAlias[] = [];
  readonly #targets = new Set<string>();

  constructor(aliases: readonly ToolAlias[], host: string) {
    for (const alias of aliases) {
      if (alias.host !== host) continue;
      this.#targets.add(alias.tool);
      if (isNamePattern(alias.name)) this.#patterns.push(alias);
      else if (!this.#exact.has(alias.name)) this.#exact.set(alias.name, alias);
    }
  }

  /** Whether the host has any alias. */
  get size(): number {
    return this.#exact.size + this.#patterns.length;
  }

  /**
   * Whether a host tool of this name is decided as itself: the configuration declares a tool of that name,
   * and it is not one of the canonical tools this host's aliases map onto (Gemini CLI's own `read_file` is
   * read through its alias when `read_file` is the canonical tool).
   */
  decidesAsItself(name: string, declared: (name: string) => boolean): boolean {
    return declared(name) && !(this.#targets.has(name) && this.find(name) !== undefined);
  }

  /** The alias a host tool name is read through, with the name parts it filled. */
  find(name: string): { readonly alias: ToolAlias; readonly parts: ReadonlyMap<string, string> } | undefined {
    const exact = this.#exact.get(name);
    if (exact !== undefined) return { alias: exact, parts: new Map() };
    for (const alias of this.#patterns) {
      const parts = matchName(alias, name);
      if (parts !== undefined) return { alias, parts };
    }
    return undefined;
  }

  /**
   * The alias for an MCP tool call whose name fits no alias of the host (Gemini CLI names an MCP tool by its
   * bare name when no other tool has it, and says the server in the payload): the first name pattern with a
   * `{server}` and a `{tool}` part.
   */
  findMcp(): ToolAlias | undefined {
    return this.#patterns.find((alias) => {
      const parts = namePatternParts(alias.name);
      return parts.includes("server") && parts.includes("tool");
    });
  }
}

/** A host's tool call as the host sent it: its tool name and its argument object. */
export interface HostToolCall {
  readonly name: string;
  readonly arguments: { readonly [key: string]: JsonValue };
}

/**
 * The canonical calls that stand for one host call read through `alias`: one per combination of path
 * readings (`readPath` gives one reading of a path inside the project, two where it may be read two ways).
 * A mapped argument the host did not send stays absent (the canonical schema decides whether that is
 * readable); host arguments the alias does not map are not part of the canonical call.
 */
export function applyAlias(
  alias: ToolAlias,
  parts: ReadonlyMap<string, string>,
  call: HostToolCall,
  callId: string,
  readPath: (path: string) => readonly string[],
): readonly ToolCall[] {
  let variants: { [key: string]: JsonValue }[] = [{}];
  for (const [target, source] of alias.arguments) {
    const values = sourceValues(source, parts, call, readPath);
    if (values === undefined) continue;
    const next: { [key: string]: JsonValue }[] = [];
    for (const variant of variants) {
      for (const value of values) next.push(withKey(variant, target, value));
    }
    variants = next;
  }
  return variants.map((args) => ({ callId, toolName: alias.tool, arguments: args }));
}

/** A copy of `object` with `key` set as an own data property (a `__proto__` key stays data). */
function withKey(
  object: { readonly [key: string]: JsonValue },
  key: string,
  value: JsonValue,
): { [key: string]: JsonValue } {
  const copy: { [key: string]: JsonValue } = {};
  for (const [k, v] of Object.entries(object)) Object.defineProperty(copy, k, dataProperty(v));
  Object.defineProperty(copy, key, dataProperty(value));
  return copy;
}

const dataProperty = (value: JsonValue): PropertyDescriptor => ({
  value,
  enumerable: true,
  writable: true,
  configurable: true,
});

function sourceValues(
  source: AliasSource,
  parts: ReadonlyMap<string, string>,
  call: HostToolCall,
  readPath: (path: string) => readonly string[],
): readonly JsonValue[] | undefined {
  switch (source.kind) {
    case "argument":
      return Object.hasOwn(call.arguments, source.name)
        ? [call.arguments[source.name] as JsonValue]
        : undefined;
    case "path": {
      if (!Object.hasOwn(call.arguments, source.name)) return undefined;
      const value = call.arguments[source.name] as JsonValue;
      return typeof value === "string" ? readPath(value) : [value];
    }
    case "value":
      return [source.value];
    case "all-arguments":
      return [call.arguments];
    case "tool-name":
      return [call.name];
    case "name-part": {
      const part = parts.get(source.part);
      return part === undefined ? undefined : [part];
    }
    case "absent":
      return undefined;
  }
}

/** How an alias maps, in one line: `Bash (claude-code) → shell { command ← command }`. */
export function describeAlias(alias: ToolAlias): string {
  const mapped = alias.arguments.map(([target, source]) => `${target} ← ${describeSource(source)}`);
  return `${alias.name} (${alias.host}) → ${alias.tool}${mapped.length === 0 ? "" : ` { ${mapped.join(", ")} }`}`;
}

function describeSource(source: AliasSource): string {
  switch (source.kind) {
    case "argument":
      return source.name;
    case "path":
      return `${source.name} (a path)`;
    case "value":
      return JSON.stringify(source.value);
    case "all-arguments":
      return "all arguments";
    case "tool-name":
      return "the tool's name";
    case "name-part":
      return `{${source.part}}`;
    case "absent":
      return "nothing (the host has none)";
  }
}

/**
 * The canonical data of aliases for the fingerprint: host, name, tool and mapping, without source positions,
 * in the order written (the first alias of a name wins, so order is meaning).
 */
export function aliasFingerprintData(aliases: readonly ToolAlias[]): JsonValue {
  return aliases.map((alias) => ({
    host: alias.host,
    name: alias.name,
    tool: alias.tool,
    arguments: alias.arguments.map(([target, source]) => [target, source as unknown as JsonValue]),
  }));
}
