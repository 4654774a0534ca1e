/**
 * Which arguments of an MCP tool hold paths, and their readings against the roots the agent works in.
 *
 * An argument holds a path when some statement of the policy for that tool applies `glob` or `path_prefix` to
 * it (also inside `not`, and for each element inside `any` or `all`): those are the operators that read a value
 * as a path, so those are the arguments a root can make certain. The gateway decides every reading (an
 * absolute path under a root, relative to it; where a symbolic link on it leads) and keeps the strictest.
 */
import type { PolicyBundle } from "../bundle/policy-bundle.js";
import type { ConditionSpec, OperatorSpec } from "../runtime/condition.js";
import type { ToolController } from "../runtime/controller.js";
import { normalizePath } from "../runtime/match/path.js";
import { rootReadings } from "../runtime/match/roots.js";
import { ACTION_RANK } from "../runtime/statements.js";
import type { ToolCall } from "../runtime/types.js";

/** One step of a field path: a property name, or `ITEMS` for each element of an array. */
export type FieldStep = string | typeof ITEMS;

/** Stands for every element of an array in a {@link FieldStep} list (`paths[*]`). */
export const ITEMS: unique symbol = Symbol("items");

/** The most readings of one call the gateway decides; past it the arguments are decided as sent. */
export const MAX_READINGS = 32;

/**
 * The path arguments of each tool: the field paths that some statement naming the tool reads with `glob` or
 * `path_prefix`. A tool none of whose statements does so has none, and its arguments are decided as sent.
 */
export function pathFields(bundle: PolicyBundle): ReadonlyMap<string, readonly (readonly FieldStep[])[]> {
  const found = new Map<string, Map<string, FieldStep[]>>();
  for (const statement of bundle.statements) {
    if (statement.when === undefined) continue;
    const fields = new Map<string, FieldStep[]>();
    collectFields(statement.when, fields);
    if (fields.size === 0) continue;
    for (const tool of statement.tools) {
      const known = found.get(tool) ?? new Map<string, FieldStep[]>();
      for (const [key, steps] of fields) known.set(key, steps);
      found.set(tool, known);
    }
  }
  return new Map([...found].map(([tool, fields]) => [tool, [...fields.values()]]));
}

function collectFields(condition: ConditionSpec, into: Map<string, FieldStep[]>): void {
  for (const field of Object.keys(condition)) {
    const spec = condition[field];
    if (spec !== null && typeof spec === "object") collectOperators(field.split("."), spec, into);
  }
}

function collectOperators(
  steps: readonly FieldStep[],
  spec: OperatorSpec,
  into: Map<string, FieldStep[]>,
): void {
  if (spec.glob !== undefined || spec.path_prefix !== undefined) into.set(stepsKey(steps), [...steps]);
  if (spec.not !== undefined) collectOperators(steps, spec.not, into);
  for (const nested of [spec.any, spec.all])
    if (nested !== undefined) collectOperators([...steps, ITEMS], nested, into);
}

function stepsKey(steps: readonly FieldStep[]): string {
  return steps.map((s) => (s === ITEMS ? "[*]" : JSON.stringify(s))).join(".");
}

/** One string found at a path argument: where it is (keys and indexes from the arguments' top) and its value. */
interface Found {
  readonly at: readonly (string | number)[];
  readonly value: string;
}

function findStrings(
  value: unknown,
  steps: readonly FieldStep[],
  at: (string | number)[],
  out: Found[],
): void {
  if (steps.length === 0) {
    if (typeof value === "string") out.push({ at: [...at], value });
    return;
  }
  const [step, ...rest] = steps;
  if (step === ITEMS) {
    if (!Array.isArray(value)) return;
    value.forEach((element, index) => {
      findStrings(element, rest, [...at, index], out);
    });
    return;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return;
  if (!Object.hasOwn(value, step as string)) return;
  findStrings((value as Record<string, unknown>)[step as string], rest, [...at, step as string], out);
}

function setAt(target: unknown, at: readonly (string | number)[], value: string): void {
  let current = target as Record<string | number, unknown>;
  for (let i = 0; i < at.length - 1; i++)
    current = current[at[i] as string | number] as Record<string, unknown>;
  current[at.at(-1) as string | number] = value;
}

/** The argument readings of one call (see {@link argumentReadings}). */
export interface ArgumentReadings {
  /** Each way of reading the arguments, to decide: the arguments as sent when nothing was read otherwise. */
  readonly variants: readonly unknown[];
  /** Which path arguments were read otherwise, with their readings: for logs and the audit. */
  readonly changed: readonly {
    readonly at: string;
    readonly value: string;
    readonly readings: readonly string[];
  }[];
}

/**
 * Every reading of the arguments: each string at a path field replaced by each of its readings (`readingsOf`),
 * in every combination. More than {@link MAX_READINGS} combinations: the arguments as sent only (an absolute
 * path is then never a certain allow, as without roots).
 */
export function argumentReadings(
  args: unknown,
  fields: readonly (readonly FieldStep[])[],
  readingsOf: (value: string) => readonly string[],
): ArgumentReadings {
  const found: Found[] = [];
  for (const steps of fields) findStrings(args, steps, [], found);
  const changed: { at: string; value: string; readings: readonly string[]; where: Found }[] = [];
  for (const where of found) {
    const readings = readingsOf(where.value);
    if (readings.length === 1 && readings[0] === where.value) continue;
    changed.push({ at: where.at.map(String).join("."), value: where.value, readings, where });
  }
  if (changed.length === 0) return { variants: [args], changed: [] };
  let variants: unknown[] = [args];
  for (const change of changed) {
    const next: unknown[] = [];
    for (const variant of variants) {
      for (const reading of change.readings) {
        const copy = structuredClone(variant);
        setAt(copy, change.where.at, reading);
        next.push(copy);
      }
    }
    if (next.length > MAX_READINGS) return { variants: [args], changed: [] };
    variants = next;
  }
  return { variants, changed: changed.map(({ at, value, readings }) => ({ at, value, readings })) };
}

/**
 * The readings of one path argument against the roots: see {@link rootReadings}. An absolute path is also read
 * where it leads (`resolveLink`: the real path, or that of its longest existing parent): a target inside a root
 * is read relative to it too, and one outside every root stays absolute — so a link out of the roots is never a
 * certain allow, and a rule on the target holds.
 */
export function gatewayPathReadings(
  value: string,
  roots: readonly string[],
  resolveLink: (absolutePath: string) => string | undefined,
): readonly string[] {
  if (roots.length === 0 || value.charCodeAt(0) !== 0x2f) return [value];
  const readings = new Set(rootReadings(value, roots));
  const normal = normalizePath(value);
  const target = resolveLink(value);
  if (target !== undefined && !(normal.ok && normal.path === target))
    for (const reading of rootReadings(target, roots)) readings.add(reading);
  return [...readings];
}

/** What {@link decideWithRoots} decided: the call the policy decides, its decision, and what was read otherwise. */
export interface RootedDecision {
  /** The call as sent, or one of its readings (a new object: never `sent` itself). */
  readonly call: ToolCall;
  readonly explained: ReturnType<ToolController["explain"]>;
  readonly changed: ArgumentReadings["changed"];
}

/**
 * The call the policy decides, and its decision: with no roots, or no path argument under one, the call as
 * sent. Otherwise every reading of its path arguments (relative to the root that holds them; where their links
 * lead) is decided and the strictest holds; and a rule that matches the call as sent (an absolute `glob`, a
 * `prefix` or `regex` on the absolute text) still holds — when it is stricter, the call is decided as sent. A
 * reading the tool's schema refuses leaves the call as sent too.
 */
export function decideWithRoots(
  controller: Pick<ToolController, "explain">,
  sent: ToolCall,
  fields: readonly (readonly FieldStep[])[] | undefined,
  roots: readonly string[],
  resolveLink: (absolutePath: string) => string | undefined,
): RootedDecision {
  const asSent = (): RootedDecision => ({ call: sent, explained: controller.explain(sent), changed: [] });
  if (fields === undefined || roots.length === 0) return asSent();
  const read = argumentReadings(sent.arguments, fields, (value) =>
    gatewayPathReadings(value, roots, resolveLink),
  );
  if (read.changed.length === 0) return asSent();
  const original = controller.explain(sent);
  if (!("decision" in original)) return { call: sent, explained: original, changed: [] };
  let best: { call: ToolCall; explained: RootedDecision["explained"]; rank: number } | undefined;
  for (const args of read.variants) {
    const call = { ...sent, arguments: args };
    const explained = controller.explain(call);
    if (!("decision" in explained)) return { call: sent, explained: original, changed: [] };
    const rank = ACTION_RANK[explained.decision.action];
    if (best === undefined || rank > best.rank) best = { call, explained, rank };
  }
  if (best === undefined) return { call: sent, explained: original, changed: [] };
  let sentRank = -1;
  for (const evaluation of original.evaluations) {
    if (evaluation.statement.kind === "rule" && evaluation.match !== "no")
      sentRank = Math.max(sentRank, ACTION_RANK[evaluation.statement.action]);
  }
  if (sentRank > best.rank) return { call: sent, explained: original, changed: [] };
  return { call: best.call, explained: best.explained, changed: read.changed };
}

/** The roots and, where it differs, the real path of each (a link's target is a real path). */
export function withRealPaths(
  roots: readonly string[],
  resolveLink: (absolutePath: string) => string | undefined,
): readonly string[] {
  const out = new Set<string>();
  for (const root of roots) {
    if (!root.startsWith("/")) continue;
    out.add(root);
    const real = resolveLink(root);
    if (real !== undefined) out.add(real);
  }
  return [...out];
}
