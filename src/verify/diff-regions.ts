/**
 * `diff` on the verification engine: for each tool that both policies declare and that the change touches, every
 * region of calls whose decision moved. One atom table holds the statements of both sides (each field is assigned
 * once for both), and, where the tool's `input_schema` or the `context_schema` changed, each changed field's
 * validity under each side's schema (atoms of their own, see `SCHEMA_OPERATOR`). A call's outcome on a side is
 * `invalid` where that side's schema refuses it, otherwise the side's decision with its mode applied.
 *
 * The search looks for calls that are loosened (the new side lets through more: deny→ask, deny→allow, ask→allow,
 * invalid→ask or allow) or tightened. Each call found is confirmed by both real controllers (`explain`, then the
 * mode); only confirmed calls are reported. A tool is `complete` when a loosened call was confirmed or when the
 * complete search over an over-approximation of the valid calls finds none that may be loosened; otherwise it is
 * `unknown`, with the reason (a schema change the engine does not model, strings it cannot build, the budget…).
 */

import type { PolicyBundle } from "../bundle/policy-bundle.js";
import { canonicalJson } from "../runtime/canonical-json.js";
import type { ToolController } from "../runtime/controller.js";
import { applyMode, type ControllerMode } from "../runtime/mode.js";
import type { StatementSpec } from "../runtime/policy.js";
import { ANNOTATIONS } from "../runtime/schema-plan.js";
import type { ArgumentValidator, JsonSchema, PolicyAction, ToolContext } from "../runtime/types.js";
import { AutomataPool } from "./automata.js";
import { ALLOW, ASK, COMMAND_SEPARATORS, DENY, INVALID, ToolDecision } from "./decision-model.js";
import { TooComplex } from "./dfa.js";
import {
  MULTIPLES_TRIED,
  SCHEMA_LENGTH_OPERATOR,
  SCHEMA_OPERATOR,
  type SchemaLength,
  type SchemaSide,
} from "./field-domain.js";
import {
  type Atom,
  evaluate,
  F,
  FALSE_FORMULA,
  type Formula,
  fieldRef,
  T,
  TRUE_FORMULA,
  U,
} from "./formula.js";
import {
  checkValue,
  codePointLength,
  LEAF_VALUE_KEYWORDS,
  mayBeMissing,
  nearMultiple,
  schemaOfField,
  withOptionalsRead,
} from "./schema-facts.js";
import { type Goal, MISSED, type Model, REACHED, searchModels } from "./search.js";
import {
  callOf,
  decisionOnly,
  partsSchema,
  searchOrder,
  searchPriority,
  ToolQuestion,
} from "./verify-properties.js";

/** One side of the comparison: a loaded bundle and its validators. */
export interface RegionSide {
  readonly bundle: PolicyBundle;
  readonly validators: ReadonlyMap<string, ArgumentValidator>;
}

/** What a side does with a call: its action after the mode, or `invalid` when its schemas refuse the call. */
export type SideOutcome = PolicyAction | "invalid";

/** How the outcome moved (as `diff` classifies it: invalid is as strict as deny). */
export type RegionChangeKind = "loosened" | "tightened" | "changed";

/** A region of calls whose outcome changed, with a witness call that both controllers confirmed. */
export interface RegionChange {
  readonly tool: string;
  /** The region: the truth of each atom the decisions read, as `field operator value: truth`. */
  readonly condition: readonly string[];
  readonly arguments: unknown;
  readonly context: ToolContext;
  readonly before: SideOutcome;
  readonly after: SideOutcome;
  readonly change: RegionChangeKind;
}

/** The engine's answer for one tool. */
export interface ToolRegions {
  readonly tool: string;
  /**
   * `complete`: whether the tool loosens is decided — a loosened call was confirmed, or none exists. `unknown`: the
   * engine could not decide it (see `reason`); no loosened call was confirmed, yet one may exist.
   */
  readonly status: "complete" | "unknown";
  readonly reason?: string;
  /** The confirmed changes, loosened first. */
  readonly changes: readonly RegionChange[];
}

/** Options of {@link diffRegions}. */
export interface DiffRegionsOptions {
  /** Regions confirmed per direction (loosened, tightened) before the search stops; default 8 (each costs automata
   * of its own: more regions cost time, and the status does not depend on them). */
  readonly maxModels?: number;
  /** Visits per search; default the search's own. */
  readonly budget?: number;
}

const RANK: Readonly<Record<SideOutcome, number>> = { allow: 0, ask: 1, deny: 2, invalid: 2 };

/**
 * Regions of a concrete search whose strings could not be built before it stops (incomplete, so `unknown` unless a
 * loosening was confirmed): each try on a loose region (`command`, `url`) costs tens of milliseconds.
 */
const MAX_FAILED_WITNESSES = 12;

/** Candidate calls one search of `diff` builds and has both controllers decide, at most. */
const MAX_CANDIDATES = 40;

/** Regions between deny and invalid (`changed`) one search confirms at most, and the candidates it builds. */
const MAX_CHANGED = 2;
const MAX_CHANGED_CANDIDATES = 8;

/** Classifies two different outcomes as `diff` does. */
function classify(before: SideOutcome, after: SideOutcome): RegionChangeKind {
  if (RANK[after] < RANK[before]) return "loosened";
  if (RANK[after] > RANK[before]) return "tightened";
  return "changed";
}

/** The ranks of a mask of outcomes, lowest and highest (invalid ranks as deny). */
function rankRange(mask: number): [number, number] {
  let lo = 3;
  let hi = -1;
  if (mask & ALLOW) {
    lo = Math.min(lo, 0);
    hi = Math.max(hi, 0);
  }
  if (mask & ASK) {
    lo = Math.min(lo, 1);
    hi = Math.max(hi, 1);
  }
  if (mask & (DENY | INVALID)) {
    lo = Math.min(lo, 2);
    hi = Math.max(hi, 2);
  }
  return [lo, hi];
}

/** Keywords of a leaf schema whose changes the engine models exactly (per field, on both sides). */
const LEAF_KEYWORDS = new Set([...LEAF_VALUE_KEYWORDS, ...ANNOTATIONS]);
/** Keywords of an object schema the walk below reads (the others must be equal on both sides). */
const OBJECT_KEYWORDS = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  // Definitions validate nothing themselves: a schema that refers to one is read through it (see `resolved`).
  "$defs",
  "definitions",
  // The dialect and the identifier: alike on both sides, or the change is not read.
  "$schema",
  "$id",
  ...ANNOTATIONS,
]);

type Schemaish = Record<string, unknown> | null | undefined;

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function withoutAnnotations(schema: Schemaish): string {
  if (!isObject(schema)) return canonicalJson(schema ?? null);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (ANNOTATIONS.has(k)) continue;
    out[k] =
      k === "properties" && isObject(v)
        ? mapValues(v, (p) => JSON.parse(withoutAnnotations(p as Schemaish)))
        : v;
  }
  return canonicalJson(out);
}

function mapValues(o: Record<string, unknown>, f: (v: unknown) => unknown): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v)]));
}

/** The fields whose validity differs between two schemas, each with whether a side forbids it outright. */
interface SchemaChanges {
  readonly fields: { readonly path: string[]; readonly absentOnly: readonly [boolean, boolean] }[];
  readonly problems: string[];
}

/**
 * Where two schemas (of a tool's arguments, or of the context) may allow different values: the fields whose own
 * schema, or whose being required, differs. A difference the per-field model cannot express (a keyword such as
 * `items`, `$ref`, `oneOf` or `additionalProperties` that changed) is a problem: the tool is then `unknown`.
 */
export function schemaChanges(before: Schemaish, after: Schemaish, what: string): SchemaChanges {
  const out: SchemaChanges = { fields: [], problems: [] };
  // `present`: whether the object at `path` is in every valid call (required all the way down, on both sides).
  const walk = (oRef: Schemaish, nRef: Schemaish, path: string[], present: boolean): void => {
    const o = resolved(before, oRef);
    const n = resolved(after, nRef);
    // Alike as written, and alike where they refer to (a `$ref` left beside other keywords, or below them).
    const alike = (x: Schemaish, y: Schemaish) =>
      withoutAnnotations(x) === withoutAnnotations(y) && refsAgree(before, after, x);
    if (alike(o, n)) return;
    const where = path.length === 0 ? what : `${what} at ${path.join(".")}`;
    const objectLike = (s: Schemaish) =>
      isObject(s) && isObject(s.properties) && Object.keys(s).every((k) => OBJECT_KEYWORDS.has(k));
    if (objectLike(o) && objectLike(n)) {
      const a = o as Record<string, unknown>;
      const b = n as Record<string, unknown>;
      for (const key of ["type", "$schema", "$id"])
        if (canonicalJson(a[key] ?? null) !== canonicalJson(b[key] ?? null))
          out.problems.push(`${where}: \`${key}\` changed`);
      if (canonicalJson(a.additionalProperties ?? true) !== canonicalJson(b.additionalProperties ?? true)) {
        const closed = (ap: unknown) => ap === false;
        const open = (ap: unknown) => ap === undefined || ap === true;
        const [x, y] = [a.additionalProperties, b.additionalProperties];
        if ((closed(x) && open(y)) || (open(x) && closed(y))) {
          // Undeclared properties allowed on one side only: one such property, of any value, stands for them (no
          // statement reads it: a statement's field is declared, or read alike as missing on both sides).
          const declared = new Set([
            ...Object.keys(isObject(a.properties) ? a.properties : {}),
            ...Object.keys(isObject(b.properties) ? b.properties : {}),
          ]);
          let name = "undeclared";
          for (let i = 1; declared.has(name); i++) name = `undeclared_${i}`;
          out.fields.push({ path: [...path, name], absentOnly: [closed(x), closed(y)] });
        } else out.problems.push(`${where}: \`additionalProperties\` changed`);
      }
      const required = (s: Record<string, unknown>) =>
        new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
      const ra = required(a);
      const rb = required(b);
      const pa = mapValues(a.properties as Record<string, unknown>, (p) =>
        resolved(before, p as Schemaish),
      ) as Record<string, Schemaish>;
      const pb = mapValues(b.properties as Record<string, unknown>, (p) =>
        resolved(after, p as Schemaish),
      ) as Record<string, Schemaish>;
      for (const key of new Set([...Object.keys(pa), ...Object.keys(pb), ...ra, ...rb])) {
        const inA = Object.hasOwn(pa, key);
        const inB = Object.hasOwn(pb, key);
        // Required and declared nowhere, alike on both sides: nothing changed for it.
        if (!inA && !inB && ra.has(key) === rb.has(key)) continue;
        // A required property the side does not declare: the per-field facts read it as optional.
        if ((ra.has(key) && !inA) || (rb.has(key) && !inB)) {
          out.problems.push(`${where}: ${key} is required but not declared`);
          continue;
        }
        // Required on one side only in an object that may be missing: without the field, a call is valid on both
        // sides where the object is missing and not where it is present, and the per-field facts read the former.
        if (!present && ra.has(key) !== rb.has(key))
          out.problems.push(
            `${where}: ${key} is required on one side only, in an object that may be missing`,
          );
        if (inA && inB && ra.has(key) === rb.has(key))
          walk(pa[key], pb[key], [...path, key], present && ra.has(key));
        else if (inA && inB) {
          // Required on one side only: the field's presence is read by its validity atoms.
          const problem = alike(pa[key], pb[key]) ? undefined : leafChangeProblem(pa[key], pb[key]);
          if (problem !== undefined) out.problems.push(`${where}: ${key} ${problem}`);
          out.fields.push({ path: [...path, key], absentOnly: [false, false] });
        } else {
          const declared = inA ? pa[key] : pb[key];
          const problem = leafProblem(declared);
          if (problem !== undefined) out.problems.push(`${where}: ${key} ${problem}`);
          // Where the field is not declared, a schema for other properties would constrain it: not read here.
          const other = inA ? b.additionalProperties : a.additionalProperties;
          if (other !== undefined && typeof other !== "boolean")
            out.problems.push(`${where}: ${key} is read by \`additionalProperties\` on one side`);
          out.fields.push({
            path: [...path, key],
            absentOnly: [!inA && a.additionalProperties === false, !inB && b.additionalProperties === false],
          });
        }
      }
      return;
    }
    const problem = leafChangeProblem(o, n);
    if (problem !== undefined || path.length === 0) {
      out.problems.push(`${where}: ${problem ?? "changed in a way the engine does not model"}`);
      return;
    }
    out.fields.push({ path, absentOnly: [false, false] });
  };
  walk(before, after, [], true);
  return out;
}

/**
 * A schema that only refers to a definition of its root (`{ $ref: "#/$defs/p" }`, with annotations at most), as
 * the definition it refers to, followed while it is such a reference; any other schema as it is (a `$ref` beside
 * other keywords stays, and is not modelled).
 */
function resolved(root: Schemaish, schema: Schemaish): Schemaish {
  let current = schema;
  for (let depth = 0; depth < 16; depth++) {
    if (!isObject(current) || typeof current.$ref !== "string" || !current.$ref.startsWith("#/")) break;
    if (!Object.keys(current).every((k) => k === "$ref" || ANNOTATIONS.has(k))) break;
    const target = pointerTarget(root, current.$ref);
    if (!isObject(target)) break;
    current = target;
  }
  return current;
}

/**
 * Whether every `$ref` in `schema` (and in what they refer to) names the same schema in both roots: a schema
 * written alike on both sides is then alike in meaning.
 */
function refsAgree(before: Schemaish, after: Schemaish, schema: Schemaish): boolean {
  const seen = new Set<string>();
  const pending: unknown[] = [schema];
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) pending.push(...node);
    if (!isObject(node)) continue;
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") {
        if (seen.has(value)) continue;
        seen.add(value);
        if (!value.startsWith("#")) return false;
        const a = pointerTarget(before, value);
        if (canonicalJson(a ?? null) !== canonicalJson(pointerTarget(after, value) ?? null)) return false;
        pending.push(a);
      } else pending.push(value);
    }
  }
  return true;
}

/** What a local JSON pointer (`#/$defs/p`) names in a root schema, or undefined. */
function pointerTarget(root: Schemaish, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let target: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    target = isObject(target) && Object.hasOwn(target, key) ? target[key] : undefined;
  }
  return target;
}

/** Why the change between two leaf schemas is not modelled, or undefined when it is. */
function leafChangeProblem(o: Schemaish, n: Schemaish): string | undefined {
  const multiple = (s: Schemaish) => (isObject(s) ? (s.multipleOf ?? null) : null);
  const a = multiple(o);
  const b = multiple(n);
  return (
    leafProblem(o) ??
    leafProblem(n) ??
    (canonicalJson(a) === canonicalJson(b) || multiplesModelled(a, b, o, n)
      ? undefined
      : "changes `multipleOf`, not modelled here")
  );
}

/**
 * Whether the search's numbers (field-domain.ts `numberRepresentatives`) stand for every value of a field whose
 * `multipleOf` changed from `a` to `b`: in each piece they hold the first multiples of each, so a multiple of one
 * side's alone and a common one are among them when a common multiple is at most {@link MULTIPLES_TRIED} steps
 * away. Integers only on an integer field (a fractional multiple's integer multiples are not sought), and a
 * `multipleOf` added or removed is not modelled (a value that is no multiple need not be among them).
 */
function multiplesModelled(a: unknown, b: unknown, o: Schemaish, n: Schemaish): boolean {
  if (typeof a !== "number" || typeof b !== "number" || !(a > 0) || !(b > 0)) return false;
  const integerOnly = (s: Schemaish) => isObject(s) && s.type === "integer";
  if ((integerOnly(o) || integerOnly(n)) && !(Number.isInteger(a) && Number.isInteger(b))) return false;
  const [small, large] = a < b ? [a, b] : [b, a];
  for (let k = 1; k <= MULTIPLES_TRIED; k++) if (nearMultiple(k * large, small)) return true;
  return false;
}

/** Why a leaf schema's changes are not modelled, or undefined when they are. */
function leafProblem(schema: Schemaish): string | undefined {
  if (schema === undefined || schema === null) return undefined;
  if (!isObject(schema)) return "has a schema the engine does not read";
  const other = Object.keys(schema).filter((k) => !LEAF_KEYWORDS.has(k));
  return other.length === 0
    ? undefined
    : `uses ${other.map((k) => `\`${k}\``).join(", ")}, not modelled here`;
}

/** The decision-relevant parts of a tool's statements on a side, comparable across sides. */
function decisionKey(statements: readonly StatementSpec[], tool: string): string {
  return canonicalJson(
    statements
      .filter((s) => s.tools.includes(tool))
      .map((s) => canonicalJson([s.kind, s.action, s.when ?? null, s.context ?? null]))
      .sort(),
  );
}

/** Everything of a tool on a side that `diff` shows (statements with ids and reasons, its schema). */
function toolKey(bundle: PolicyBundle, tool: string): string {
  const spec = bundle.tools.find((t) => t.name === tool);
  return canonicalJson([
    bundle.mode,
    bundle.contextSchema,
    spec?.inputSchema ?? null,
    bundle.statements
      .filter((s) => s.tools.includes(tool))
      .map((s) => canonicalJson([s.id, s.kind, s.action, s.reason, s.when ?? null, s.context ?? null]))
      .sort(),
  ]);
}

/** A field name for output: its dotted path, `context.` first for a context field. */
function fieldName(atom: Atom): string {
  const dotted = atom.field.path.join(".");
  return atom.field.scope === "context" ? `context.${dotted}` : dotted;
}

/** One atom's truth in a model, as a line of a region's condition. */
function atomText(atom: Atom, mask: number): string | undefined {
  const truth = mask === T ? "true" : mask === F ? "false" : mask === U ? "maybe" : undefined;
  if (truth === undefined) return undefined;
  if (atom.operator === SCHEMA_OPERATOR) {
    const side = atom.value as SchemaSide;
    return `${fieldName(atom)} valid under the ${side.side} schema: ${truth}`;
  }
  if (atom.operator === SCHEMA_LENGTH_OPERATOR) {
    const { side, lo, hi } = atom.value as SchemaLength;
    return `${fieldName(atom)} length within the ${side} schema's ${lo}..${hi ?? "∞"}: ${truth}`;
  }
  // The decision's own atom on a command field (decision-model.ts): whether the value may be compound.
  if (atom.operator === "regex" && atom.value === COMMAND_SEPARATORS)
    return `${fieldName(atom)} holds a command separator (; & | or a newline): ${truth}`;
  const verb = VERBS[atom.operator] ?? atom.operator;
  const value =
    Array.isArray(atom.value) && atom.value.length === 1 && atom.operator === "glob"
      ? canonicalJson(atom.value[0])
      : canonicalJson(atom.value);
  return `${fieldName(atom)} ${verb} ${value}: ${truth}`;
}

/** How a condition line reads each operator. */
const VERBS: Readonly<Record<string, string>> = {
  glob: "matches glob",
  path_prefix: "path prefix",
  regex: "matches regex",
  prefix: "starts with",
  equals: "equals",
  in: "in",
  command: "runs command",
  url: "url matches",
  min: "at least",
  max: "at most",
  exists: "exists",
};

/**
 * Compares the decisions of two policies tool by tool on the engine.
 * @returns one entry per tool that both declare and whose statements, schema, context schema or mode differ
 *   (tools added or removed are `diff`'s settings changes), sorted by name.
 */
export function diffRegions(
  base: RegionSide,
  head: RegionSide,
  options: DiffRegionsOptions = {},
): ToolRegions[] {
  // A tool declared on the new side alone is searched too: the old side refuses every call of it.
  const names = head.bundle.tools
    .map((t) => t.name)
    .filter(
      (name) =>
        !base.bundle.tools.some((t) => t.name === name) ||
        toolKey(base.bundle, name) !== toolKey(head.bundle, name),
    )
    .sort();
  if (names.length === 0) return [];
  const before = decisionOnly(base.bundle, base.validators);
  const after = decisionOnly(head.bundle, head.validators);
  const pool = new AutomataPool();
  return names.map((tool) => {
    try {
      return diffTool(tool, base.bundle, head.bundle, before, after, pool, options);
    } catch (error) {
      if (!(error instanceof TooComplex)) throw error;
      return { tool, status: "unknown", reason: `too large to decide here (${error.message})`, changes: [] };
    }
  });
}

/** Removes the value at `path` in `object`, when there is one. */
function deletePath(object: Record<string, unknown>, path: readonly string[]): void {
  let current: unknown = object;
  for (const key of path.slice(0, -1)) {
    if (!isObject(current)) return;
    current = current[key];
  }
  if (isObject(current)) delete current[path[path.length - 1] as string];
}

/** What a controller does with a call: its action after the mode, or `invalid`. */
function outcome(
  controller: ToolController,
  mode: ControllerMode,
  tool: string,
  args: unknown,
  context: ToolContext,
): SideOutcome {
  const explained = controller.explain({ callId: "diff", toolName: tool, arguments: args }, context);
  if ("callId" in explained) return "invalid";
  return applyMode(explained.decision, mode).decision.action;
}

/**
 * Whether no whole string of a tool's command fields is decided more loosely by `head` than by `base`, decided as
 * it is (without reading the parts of a compound command), on every call valid with the fields' lengths dropped (a
 * part may be longer or shorter than the line it came from): an abstract search that finds no such call. Only for
 * two sides that split the same fields, in the same mode (not `observe`), whose command fields say nothing of their
 * text but its length.
 */
function wholeMonotone(
  tool: string,
  base: PolicyBundle,
  head: PolicyBundle,
  schema: JsonSchema,
  before: ToolDecision,
  after: ToolDecision,
  pool: AutomataPool,
  options: DiffRegionsOptions,
): boolean {
  const paths = before.commandFieldPaths;
  if (paths.length === 0 || JSON.stringify(paths) !== JSON.stringify(after.commandFieldPaths)) return false;
  if (base.mode !== head.mode || base.mode === "observe") return false;
  const parts = partsSchema(schema, paths);
  if (parts === undefined) return false;
  const question = new ToolQuestion([parts, parts], [base.contextSchema, head.contextSchema], pool);
  const o = new ToolDecision(question.table, tool, base.statements, base.mode);
  const n = new ToolDecision(question.table, tool, head.statements, head.mode);
  const goal: Goal = {
    reach: (masks) => {
      const [oLo, oHi] = rankRange(o.decide(masks, false));
      const [nLo, nHi] = rankRange(n.decide(masks, false));
      return (nLo < oHi ? REACHED : 0) | (nHi >= oLo ? MISSED : 0);
    },
  };
  const priority = searchPriority([TRUE_FORMULA], [o, n]);
  question.buildFields(priority);
  const relevant = new Set<number>([...o.atomRanks().keys(), ...n.atomRanks().keys()]);
  const found = searchModels(question.fields, question.table.atoms.length, goal, {
    concreteOnly: false,
    maxModels: 1,
    order: searchOrder(question.fields, relevant, priority),
    ...(options.budget === undefined ? {} : { budget: options.budget }),
  });
  return found.complete && found.models.length === 0;
}

function diffTool(
  tool: string,
  base: PolicyBundle,
  head: PolicyBundle,
  before: ToolController,
  after: ToolController,
  pool: AutomataPool,
  options: DiffRegionsOptions,
): ToolRegions {
  // Read with pydantic's optional fields as leaves (`withOptionalsRead`): the same valid calls.
  const newSchema = withOptionalsRead(head.tools.find((t) => t.name === tool)?.inputSchema as JsonSchema);
  // Added: the old side knows no such tool and refuses every call (invalid), whatever its schema would say.
  const added = !base.tools.some((t) => t.name === tool);
  const oldSchema = added
    ? newSchema
    : withOptionalsRead(base.tools.find((t) => t.name === tool)?.inputSchema as JsonSchema);
  const args = schemaChanges(oldSchema, newSchema, "input_schema");
  const context = added
    ? { fields: [], problems: [] }
    : schemaChanges(base.contextSchema, head.contextSchema, "context_schema");
  const problems = [...args.problems, ...context.problems];
  const sameDecisions =
    !added &&
    base.mode === head.mode &&
    decisionKey(base.statements, tool) === decisionKey(head.statements, tool);
  if (sameDecisions && args.fields.length + context.fields.length === 0 && problems.length === 0) {
    return { tool, status: "complete", changes: [] };
  }

  const question = new ToolQuestion([oldSchema, newSchema], [base.contextSchema, head.contextSchema], pool);
  const table = question.table;
  const oldDecision = new ToolDecision(table, tool, base.statements, base.mode);
  const newDecision = new ToolDecision(table, tool, head.statements, head.mode);
  // Each changed field's validity on each side: the call is valid on a side when every such atom is true there
  // (the fields whose schema did not change are valid alike on both sides, and the search only offers values
  // valid on some side).
  const validity: [Formula[], Formula[]] = [[], []];
  const schemaAtoms: number[] = [];
  const roots: [JsonSchema | null, JsonSchema | null][] = [
    [oldSchema, newSchema],
    [base.contextSchema, head.contextSchema],
  ];
  (["arguments", "context"] as const).forEach((scope, s) => {
    const changes = s === 0 ? args : context;
    for (const field of changes.fields) {
      const ref = fieldRef(scope, field.path.join("."));
      (["old", "new"] as const).forEach((side, i) => {
        const root = (roots[s] as [JsonSchema | null, JsonSchema | null])[i] ?? null;
        // Lengths are an atom of their own (see SCHEMA_LENGTH_OPERATOR); the rest of the leaf is one atom.
        const { minLength, maxLength, ...rest } = schemaOfField(root, field.path);
        const value: SchemaSide = {
          side,
          schema: rest,
          missingAllowed: mayBeMissing(root, field.path),
          absentOnly: field.absentOnly[i] as boolean,
        };
        const atom = table.custom(ref, SCHEMA_OPERATOR, value, (v) =>
          value.absentOnly
            ? v === undefined
              ? 1
              : 0
            : v === undefined
              ? value.missingAllowed
                ? 1
                : 0
              : checkValue(value.schema, v, false)
                ? 1
                : 0,
        );
        schemaAtoms.push(atom);
        validity[i]?.push({ kind: "atom", atom });
        if (!value.absentOnly && (typeof minLength === "number" || typeof maxLength === "number")) {
          const bounds: SchemaLength = {
            side,
            lo: typeof minLength === "number" ? minLength : 0,
            ...(typeof maxLength === "number" ? { hi: maxLength } : {}),
          };
          const hi = bounds.hi ?? Number.POSITIVE_INFINITY;
          // Only strings have a length: every other value (and a missing one) passes the bounds.
          const length = table.custom(ref, SCHEMA_LENGTH_OPERATOR, bounds, (v) => {
            if (typeof v !== "string") return 1;
            const n = codePointLength(v);
            return n >= bounds.lo && n <= hi ? 1 : 0;
          });
          schemaAtoms.push(length);
          validity[i]?.push({ kind: "atom", atom: length });
        }
      });
    }
  });
  const validOld: Formula = added
    ? FALSE_FORMULA
    : validity[0].length === 0
      ? TRUE_FORMULA
      : { kind: "and", of: validity[0] };
  const validNew: Formula = validity[1].length === 0 ? TRUE_FORMULA : { kind: "and", of: validity[1] };
  const priority = searchPriority([validOld, validNew], [oldDecision, newDecision]);
  question.buildFields(priority);
  const relevant = new Set<number>([
    ...oldDecision.atomRanks().keys(),
    ...newDecision.atomRanks().keys(),
    ...schemaAtoms,
  ]);
  const order = searchOrder(question.fields, relevant, priority);
  const sides = (masks: Uint8Array): [number, number] => {
    const side = (decision: ToolDecision, valid: Formula): number => {
      const v = evaluate(valid, masks);
      return (v & F ? INVALID : 0) | (v & (T | U) ? decision.decide(masks) : 0);
    };
    return [side(oldDecision, validOld), side(newDecision, validNew)];
  };
  // Loosened: some pair of possible outcomes with the new one less strict; missed: some pair not so.
  const loosenedWhole: Goal = {
    reach: (masks) => {
      const [o, n] = sides(masks);
      if (o === 0 || n === 0) return MISSED;
      const [oLo, oHi] = rankRange(o);
      const [nLo, nHi] = rankRange(n);
      return (nLo < oHi ? REACHED : 0) | (nHi >= oLo ? MISSED : 0);
    },
  };
  // Where no whole string is decided more loosely (wholeMonotone), a compound command decided part by part on both
  // sides is not either: its parts are such strings, and the strictest of them wins on both sides. It may be only
  // where one side reads the parts and the other decides the whole: the old side's parts (any action) against a
  // new whole that is not deny, or an old whole that is not allow against the new side's parts — stricter than
  // what those parts give at least (ask, when only ask statements that carry to a part split the new whole).
  // Both sides split the same fields, so a part is the same string on both.
  const sameSplit =
    JSON.stringify(oldDecision.commandFieldPaths) === JSON.stringify(newDecision.commandFieldPaths);
  const loosenedByParts: Goal = {
    reach: (masks) => {
      const o = oldDecision.decideWhole(masks);
      const n = newDecision.decideWhole(masks);
      // The new parts give at least their floor: only an old whole stricter than it may be loosened. Nor an old
      // whole's action that a statement carries to a part (`carried`): that part, decided whole, gets it on the old
      // side, so at least it on the new one (no string is decided more loosely), and the new parts' strictest too.
      const stricter = n.splitFloor === DENY ? 0 : n.splitFloor === ASK ? DENY : ASK | DENY;
      const carried = sameSplit ? o.carried : 0;
      const mixed =
        (o.maySplit && (n.stands & (ALLOW | ASK)) !== 0) ||
        (n.maySplit && (o.stands & ~carried & stricter) !== 0);
      return mixed ? REACHED | MISSED : MISSED;
    },
  };
  const loosened =
    !added &&
    args.fields.length + context.fields.length === 0 &&
    problems.length === 0 &&
    wholeMonotone(tool, base, head, oldSchema, oldDecision, newDecision, pool, options)
      ? loosenedByParts
      : loosenedWhole;
  const tightened: Goal = {
    reach: (masks) => {
      const [o, n] = sides(masks);
      if (o === 0 || n === 0) return MISSED;
      const [oLo, oHi] = rankRange(o);
      const [nLo, nHi] = rankRange(n);
      return (oLo < nHi ? REACHED : 0) | (oHi >= nLo ? MISSED : 0);
    },
  };
  // Changed: refused by a deny rule on one side and as invalid on the other (the same rank), where a schema changed
  // (else validity is the same on both sides): some pair of possible outcomes is so; missed: some pair is not.
  const changed: Goal = {
    reach: (masks) => {
      const [o, n] = sides(masks);
      if (o === 0 || n === 0) return MISSED;
      const some = ((o & DENY) !== 0 && (n & INVALID) !== 0) || ((o & INVALID) !== 0 && (n & DENY) !== 0);
      const only = (o === DENY && n === INVALID) || (o === INVALID && n === DENY);
      return (some ? REACHED : 0) | (only ? 0 : MISSED);
    },
  };
  const atomCount = table.atoms.length;
  const maxModels = options.maxModels ?? 8;
  const search = (goal: Goal, concreteOnly: boolean, max: number, accept?: (model: Model) => boolean) =>
    searchModels(question.fields, atomCount, goal, {
      concreteOnly,
      maxModels: max,
      maxFailedWitnesses: MAX_FAILED_WITNESSES,
      order,
      ...(options.budget === undefined ? {} : { budget: options.budget }),
      ...(accept === undefined ? {} : { accept }),
    });

  const changes: RegionChange[] = [];
  const seen = new Set<string>();
  let unconfirmedLoosened = 0;
  const confirm = (model: Model): RegionChange | undefined => {
    const call = callOf(model, question.fields, newSchema, head.contextSchema);
    // A field the model leaves missing stays missing: `callOf` fills what the new schema requires, which would be
    // another call than the region's where that schema newly requires the field (a tightening then never confirmed).
    for (const field of question.fields) {
      const chosen = model.values.get(field.ref.key);
      if (chosen !== undefined && chosen.value === undefined)
        deletePath(field.ref.scope === "arguments" ? call.arguments : call.context, field.ref.path);
    }
    const b = outcome(before, base.mode, tool, call.arguments, call.context);
    const a = outcome(after, head.mode, tool, call.arguments, call.context);
    if (a === b) return undefined;
    const condition: string[] = [];
    for (const atom of table.atoms) {
      if (!relevant.has(atom.id)) continue;
      const text = atomText(atom, model.masks[atom.id] as number);
      if (text !== undefined) condition.push(text);
    }
    return {
      tool,
      condition,
      arguments: call.arguments,
      context: call.context,
      before: b,
      after: a,
      change: classify(b, a),
    };
  };
  /**
   * Searches for calls of one kind of change, each confirmed by both controllers as the search finds it, until
   * `maxModels` regions are confirmed (a candidate the controllers do not confirm does not stop the search; at most
   * {@link MAX_CANDIDATES} are built).
   * @returns the search and the number of candidates that were not confirmed.
   */
  const collect = (goal: Goal, wanted: RegionChangeKind, most = maxModels, candidates = MAX_CANDIDATES) => {
    let unconfirmed = 0;
    let confirmed = 0;
    const result = search(goal, true, candidates, (model) => {
      const change = confirm(model);
      if (change === undefined || change.change !== wanted) {
        unconfirmed++;
        return false;
      }
      const key = canonicalJson([change.condition, change.before, change.after]);
      if (!seen.has(key)) {
        seen.add(key);
        changes.push(change);
        confirmed++;
      }
      return confirmed >= most;
    });
    return { result, unconfirmed, confirmed };
  };
  const looseCollected = collect(loosened, "loosened");
  const looseSearch = looseCollected.result;
  unconfirmedLoosened = looseCollected.unconfirmed;
  collect(tightened, "tightened");
  // Changed regions are shown, never counted on: a few, from a short search.
  if (!added && schemaAtoms.length > 0) collect(changed, "changed", MAX_CHANGED, MAX_CHANGED_CANDIDATES);
  const done = (status: "complete" | "unknown", reason?: string): ToolRegions => ({
    tool,
    status,
    ...(reason === undefined ? {} : { reason }),
    changes,
  });
  if (changes.some((c) => c.change === "loosened")) return done("complete");
  if (problems.length > 0) return done("unknown", problems.join("; "));
  if (unconfirmedLoosened > 0) {
    // Candidates that do not confirm come from what the engine over-approximates: name it when it can.
    const operators = new Set(table.atoms.filter((a) => relevant.has(a.id)).map((a) => a.operator));
    const why = [
      operators.has("command")
        ? "`command` rules are not modelled exactly (compound commands, words past the prefixes)"
        : undefined,
      operators.has("url") ? "`url` rules are decided only on the URLs tried" : undefined,
    ].filter((w) => w !== undefined);
    return done(
      "unknown",
      `${why.length > 0 ? `${why.join("; ")}: ` : ""}${unconfirmedLoosened} candidate loosened call(s) were not confirmed by the controllers`,
    );
  }
  // No loosened call was confirmed (that returned above): an incomplete search cannot say none exists.
  if (!looseSearch.complete) {
    return done(
      "unknown",
      "the search ran out of its budget (candidate strings for operators not modelled exactly, such as `command` or `url`, are costly to build)",
    );
  }
  const abstract = search(loosened, false, 1);
  const model = abstract.models[0];
  if (model !== undefined) {
    const why = [...model.abstract].map(
      ([field, reason]) => `${field.replace(/^arguments:/, "")}: ${reason}`,
    );
    return done(
      "unknown",
      `no loosened call was built, but one may exist: ${why.join("; ") || "its values could not be built"}`,
    );
  }
  if (!abstract.complete) return done("unknown", "the search ran out of its budget");
  return done("complete");
}
