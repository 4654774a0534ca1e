/**
 * The start-up check of `toolgate mcp-proxy`: the tools an MCP server lists against the tool specs of the
 * configuration. A server tool is offered only when a spec declares it with exactly the same input schema;
 * everything else is refused, with a reason for stderr.
 */
import type { PolicyBundle } from "../bundle/policy-bundle.js";
import { canonicalJson } from "../runtime/canonical-json.js";

/** A tool as an MCP server lists it (the fields the proxy reads or passes on). */
export interface ServerTool {
  readonly name: string;
  readonly inputSchema: unknown;
  readonly title?: string | undefined;
  readonly outputSchema?: unknown;
  readonly annotations?: unknown;
}

/** Why a tool is not offered to the client. */
export interface RefusedTool {
  readonly name: string;
  readonly reason: string;
}

/** The outcome of the check: the tools offered (by name) and the ones refused, in the server's order. */
export interface ServerToolCheck {
  readonly offered: ReadonlyMap<string, ServerTool>;
  readonly refused: readonly RefusedTool[];
}

/** The JSON pointer of the first place where two JSON values differ, or `undefined` when they are equal. */
export function firstDifference(a: unknown, b: unknown, pointer = ""): string | undefined {
  const isObject = (v: unknown): v is Record<string, unknown> =>
    v !== null && typeof v === "object" && !Array.isArray(v);
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (i >= a.length || i >= b.length) return `${pointer}/${i}`;
      const at = firstDifference(a[i], b[i], `${pointer}/${i}`);
      if (at !== undefined) return at;
    }
    return undefined;
  }
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const key of keys) {
      const child = `${pointer}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
      if (!Object.hasOwn(a, key) || !Object.hasOwn(b, key)) return child;
      const at = firstDifference(a[key], b[key], child);
      if (at !== undefined) return at;
    }
    return undefined;
  }
  let same: boolean;
  try {
    same = canonicalJson(a) === canonicalJson(b);
  } catch {
    same = false;
  }
  return same ? undefined : pointer;
}

/**
 * Checks a server's tools against the configuration's tool specs.
 * @param serverTools every tool of the server's `tools/list` (all pages).
 * @param bundle the loaded configuration.
 * @returns the tools to offer (declared, with an identical `inputSchema`) and the refused ones: a server tool
 *   with no spec, one whose schema differs (the reason names the first differing place), a name the server
 *   lists twice, and a declared tool the server does not list.
 */
export function checkServerTools(serverTools: readonly ServerTool[], bundle: PolicyBundle): ServerToolCheck {
  const declared = new Map(bundle.tools.map((tool) => [tool.name, tool]));
  const counts = new Map<string, number>();
  for (const tool of serverTools) counts.set(tool.name, (counts.get(tool.name) ?? 0) + 1);
  const offered = new Map<string, ServerTool>();
  const refused: RefusedTool[] = [];
  const seen = new Set<string>();
  for (const tool of serverTools) {
    if (seen.has(tool.name)) continue;
    seen.add(tool.name);
    const spec = declared.get(tool.name);
    if ((counts.get(tool.name) ?? 0) > 1) {
      refused.push({
        name: tool.name,
        reason: "the server lists this name more than once, so a call could reach either tool",
      });
    } else if (spec === undefined) {
      refused.push({
        name: tool.name,
        reason: "no tool spec in the configuration declares it; declare it with the server's inputSchema",
      });
    } else {
      const at = firstDifference(tool.inputSchema, spec.inputSchema);
      if (at === undefined) offered.set(tool.name, tool);
      else
        refused.push({
          name: tool.name,
          reason: `its inputSchema differs from the one declared in ${spec.source.file}:${spec.source.line} at "${at === "" ? "/" : at}" (server: ${describeAt(tool.inputSchema, at)}, declared: ${describeAt(spec.inputSchema, at)}); copy the server's schema into the spec, then review the policy's rules for it`,
        });
    }
  }
  for (const spec of bundle.tools) {
    if (!seen.has(spec.name))
      refused.push({
        name: spec.name,
        reason: "declared in the configuration, but the server does not list it",
      });
  }
  return { offered, refused };
}

/** The value at a JSON pointer, as short JSON text (or "nothing"). */
function describeAt(value: unknown, pointer: string): string {
  let at: unknown = value;
  for (const part of pointer.split("/").slice(1)) {
    const key = part.replaceAll("~1", "/").replaceAll("~0", "~");
    if (at === null || typeof at !== "object" || !Object.hasOwn(at, key)) return "nothing";
    at = (at as Record<string, unknown>)[key];
  }
  let text: string;
  try {
    text = JSON.stringify(at) ?? "nothing";
  } catch {
    text = "a value that is not JSON";
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
