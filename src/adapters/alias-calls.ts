/**
 * A coding agent's own tool call read as a call of a canonical tool, through the aliases the configuration's
 * packs declare (`aliases:` in a tools file; see `runtime/tool-aliases.ts`). Every hook host reads its calls
 * the same way: a tool the configuration declares by the host's own name is decided as itself; otherwise the
 * host's alias of that name (exact names first, then name patterns) maps it onto the canonical tool; a call
 * with neither stays as sent, an unknown tool, which the policy cannot read (never allowed).
 */

import { AliasTable, applyAlias, type HostToolCall, type ToolAlias } from "../runtime/tool-aliases.js";
import type { ToolCall } from "../runtime/types.js";
import type { JsonObject } from "./json-data.js";

/** How a host's call is read: its aliases, and how it reads a path against the project. */
export interface AliasReading {
  readonly table: AliasTable;
  /** The readings of a path the host sent (relative to the project inside it; see `linkedReadings`). */
  readonly readPath: (path: string) => readonly string[];
}

/** The alias table of one host from the configuration's aliases. */
export function aliasTable(aliases: readonly ToolAlias[] | undefined, host: string): AliasTable {
  return new AliasTable(aliases ?? [], host);
}

/** An MCP call's server and tool as name parts. */
export function partsOf(parts: {
  readonly server: string;
  readonly tool: string;
}): ReadonlyMap<string, string> {
  return new Map([
    ["server", parts.server],
    ["tool", parts.tool],
  ]);
}

/**
 * The canonical calls for one host call, or `undefined` when the host has no alias for it. A path inside the
 * project reaches the rules relative to it, as every canonical call has it (rules on canonical tools are written
 * on project-relative paths; an absolute path is outside the project).
 * @param partReadings the name parts where the host knows better than the pattern (an MCP call's server, from
 * the payload's provenance, or every way an ambiguous name splits): one set of calls per reading.
 */
export function aliasCalls(
  reading: AliasReading,
  call: { readonly name: string; readonly arguments: JsonObject },
  callId: string,
  partReadings?: readonly ReadonlyMap<string, string>[],
): readonly ToolCall[] | undefined {
  let found = reading.table.find(call.name);
  if (found === undefined && partReadings !== undefined && partReadings.length > 0) {
    // An MCP call under a name no pattern fits: the host named its server and tool.
    const mcp = reading.table.findMcp();
    if (mcp !== undefined) found = { alias: mcp, parts: partReadings[0] as ReadonlyMap<string, string> };
  }
  if (found === undefined) return undefined;
  const host: HostToolCall = call;
  const readings = partReadings === undefined || partReadings.length === 0 ? [found.parts] : partReadings;
  const calls = readings.flatMap((parts) => applyAlias(found.alias, parts, host, callId, reading.readPath));
  return dedupe(calls);
}

/** The calls without repeats (two readings that map to the same canonical call are decided once). */
function dedupe(calls: readonly ToolCall[]): readonly ToolCall[] {
  const seen = new Set<string>();
  return calls.filter((call) => {
    const key = JSON.stringify([call.toolName, call.arguments]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
