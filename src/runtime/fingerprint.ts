/**
 * The policy fingerprint: `sha256:` + hex SHA-256 of the canonical JSON of what decides calls — the tools
 * (name, description, input schema), the statements (without their source positions) and the context
 * schema. One definition for the config loader and for compiled controllers, which recompute it from
 * their own data when they are imported.
 */
import { createHash } from "node:crypto";
import { canonicalJson } from "./canonical-json.js";
import { ToolgateError } from "./errors.js";
import { type ControllerMode, DEFAULT_MODE, isControllerMode } from "./mode.js";
import { aliasFingerprintData, type ToolAlias } from "./tool-aliases.js";

/** A tool as the fingerprint sees it. */
export interface FingerprintTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: unknown;
}

/**
 * The value whose canonical JSON is hashed. An enforcement mode other than `enforce` is part of it (so a
 * policy in `observe` mode never passes for the same policy enforced); `enforce` leaves it out, so that
 * fingerprints of enforced policies stay what they were before modes existed. Tool aliases likewise: they
 * are part of it (`aliasFingerprintData`) only when there are any, so that a policy without aliases keeps
 * the fingerprint it had before aliases existed.
 */
export function fingerprintData(
  tools: readonly FingerprintTool[],
  statements: readonly { readonly source?: unknown }[],
  contextSchema: unknown,
  mode: ControllerMode = DEFAULT_MODE,
  aliases: readonly ToolAlias[] = [],
): unknown {
  return {
    version: 1,
    tools: tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
    statements: statements.map(({ source: _source, ...rest }) => rest),
    contextSchema,
    ...(mode === DEFAULT_MODE ? {} : { mode }),
    ...(aliases.length === 0 ? {} : { aliases: aliasFingerprintData(aliases) }),
  };
}

/** The fingerprint of a policy (in a mode: `enforce` by default), with its tool aliases (none by default). */
export function policyFingerprint(
  tools: readonly FingerprintTool[],
  statements: readonly { readonly source?: unknown }[],
  contextSchema: unknown,
  mode: ControllerMode = DEFAULT_MODE,
  aliases: readonly ToolAlias[] = [],
): string {
  return fingerprintOfCanonical(
    canonicalJson(fingerprintData(tools, statements, contextSchema, mode, aliases)),
  );
}

/**
 * The fingerprint of the policy whose canonical fingerprint data is `canonical`, run in `mode` instead of the
 * mode written there: what a controller reports when the application chose the mode.
 * @throws ToolgateError `fingerprint-mismatch` when `canonical` is not fingerprint data.
 */
export function modeFingerprint(canonical: string, mode: ControllerMode): string {
  let data: unknown;
  try {
    data = JSON.parse(canonical);
  } catch {
    data = undefined;
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    throw new ToolgateError("fingerprint-mismatch", "the policy's fingerprint data is not a JSON object");
  }
  const { mode: _written, ...rest } = data as { mode?: unknown };
  return fingerprintOfCanonical(canonicalJson(mode === DEFAULT_MODE ? rest : { ...rest, mode }));
}

export function fingerprintOfCanonical(canonical: string): string {
  return `sha256:${createHash("sha256").update(canonical).digest("hex")}`;
}

/**
 * True when `a` (data a module runs with) is the JSON data `b`, whatever the order of object keys; freezes
 * every object and array of `a` on the way (one walk instead of two at start-up).
 */
function sameAndFrozen(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  Object.freeze(a);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameAndFrozen(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(b, key)) return false;
    if (!sameAndFrozen((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
      return false;
  }
  return true;
}

/** A statement is its canonical data plus its `source` (where it was written), which is not fingerprinted. */
function sameStatement(statement: unknown, canonical: unknown): boolean {
  if (typeof statement !== "object" || statement === null || Array.isArray(statement)) return false;
  if (typeof canonical !== "object" || canonical === null || Array.isArray(canonical)) return false;
  const { source, ...rest } = statement as { source?: unknown };
  // `rest` is a copy; the values it was compared by (and frozen through) are the statement's own.
  if (!sameAndFrozen(rest, canonical)) return false;
  deepFreeze(source);
  Object.freeze(statement);
  return true;
}

function deepFreeze(value: unknown): void {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
}

function sameData(data: CompiledPolicyData, canonical: unknown): boolean {
  if (typeof canonical !== "object" || canonical === null) return false;
  const c = canonical as {
    version?: unknown;
    tools?: unknown;
    statements?: unknown;
    contextSchema?: unknown;
    mode?: unknown;
    aliases?: unknown;
  };
  // The mode is written only when it is not `enforce`, and must be the mode the module runs in.
  const mode = data.mode ?? DEFAULT_MODE;
  if (!isControllerMode(mode)) return false;
  if (c.mode !== (mode === DEFAULT_MODE ? undefined : mode)) return false;
  const keys = 4 + (c.mode === undefined ? 0 : 1) + (c.aliases === undefined ? 0 : 1);
  if (Object.keys(c).length !== keys || c.version !== 1) return false;
  if (!sameAliases(data.aliases, c.aliases)) return false;
  if (!Array.isArray(c.tools) || !Array.isArray(c.statements)) return false;
  if (!Array.isArray(data.tools) || !Array.isArray(data.statements)) return false;
  if (!sameAndFrozen(data.tools, c.tools)) return false;
  if (data.statements.length !== c.statements.length) return false;
  for (let i = 0; i < c.statements.length; i++) {
    if (!sameStatement(data.statements[i], c.statements[i])) return false;
  }
  Object.freeze(data.statements);
  return sameAndFrozen(data.contextSchema, c.contextSchema);
}

/**
 * The aliases a module runs with against the fingerprinted ones: none (absent or empty) where the data has
 * none, else the same aliases in the same order, each its canonical data plus its `source`; frozen on the way.
 */
function sameAliases(aliases: unknown, canonical: unknown): boolean {
  const list = aliases ?? [];
  if (!Array.isArray(list)) return false;
  Object.freeze(list);
  if (canonical === undefined) return list.length === 0;
  if (!Array.isArray(canonical) || canonical.length === 0 || list.length !== canonical.length) return false;
  for (let i = 0; i < list.length; i++) if (!sameStatement(list[i], canonical[i])) return false;
  return true;
}

/** What a compiled controller hands to `verifyCompiledPolicy`. */
export interface CompiledPolicyData {
  /** The canonical JSON of the fingerprinted data, as `toolgate compile` wrote it. */
  readonly canonical: string;
  /** The fingerprint the module exports. */
  readonly fingerprint: string;
  /** The data the module runs with; frozen (deeply) by `verifyCompiledPolicy`. */
  readonly tools: readonly FingerprintTool[];
  readonly statements: readonly { readonly source?: unknown }[];
  readonly contextSchema: unknown;
  /** The enforcement mode the module was compiled with (absent: `enforce`). */
  readonly mode?: unknown;
  /** The tool aliases the module runs with (absent: none); frozen (deeply) by `verifyCompiledPolicy`. */
  readonly aliases?: unknown;
}

/**
 * Checks, when a compiled controller is imported, that its fingerprint is the hash of its canonical data
 * and that the data it runs with is that data (the same values, in any key order), and deep-freezes that
 * data. Hashing the canonical text written at compile time costs a fraction of canonicalising the data
 * again at start-up.
 * @returns the canonical text, verified (`modeFingerprint` derives the fingerprint in another mode from it).
 * @throws ToolgateError (`fingerprint-mismatch`) when the module was edited after it was compiled.
 */
export function verifyCompiledPolicy(data: CompiledPolicyData): string {
  const computed = fingerprintOfCanonical(data.canonical);
  let parsed: unknown;
  try {
    parsed = JSON.parse(data.canonical);
  } catch {
    parsed = undefined;
  }
  if (computed !== data.fingerprint || !sameData(data, parsed)) {
    throw new ToolgateError(
      "fingerprint-mismatch",
      `this compiled controller's policy data does not match its fingerprint ${JSON.stringify(data.fingerprint)} (the data hashes to ${computed}): the module was edited after toolgate compile wrote it; compile it again from the policy`,
    );
  }
  return data.canonical;
}
