/**
 * Generated witness calls for `toolgate diff`: for the tools of the statements that changed, calls built
 * from the tool's input schema (`schema-values.ts`) and the literals of both versions of the policy, each
 * operator's literal giving values just inside and just outside it (`operator-values.ts`), with the numbers
 * between two bounds of a field added, and, where the tool's schema changed, each property's values at the edges of
 * either version of its schema (`boundaryValues`). The calls vary one field at a time from a call that satisfies the
 * changed statement. Only calls that are valid on a side (arguments against the tool's input schema, context
 * against `context_schema`) are returned; the caller evaluates both policies and keeps those whose action
 * differs.
 */
import { fieldSchema } from "../config/check-policy.js";
import { canonicalJson } from "../runtime/canonical-json.js";
import type { ConditionSpec, OperatorSpec } from "../runtime/condition.js";
import type { StatementSpec } from "../runtime/policy.js";
import type { JsonSchema, ToolContext } from "../runtime/types.js";
import { ABSENT, operatorValues, type Value } from "./operator-values.js";
import { boundaryValues, minimalValue, resolveRef, schemaBounds } from "./schema-values.js";

/** What `generateWitnesses` needs to know about one tool. */
export interface WitnessRequest {
  readonly tool: string;
  /** The tool's input schema on each side that declares the tool (one or two). */
  readonly schemas: readonly JsonSchema[];
  /** `context_schema` of each side that has one. */
  readonly contextSchemas: readonly JsonSchema[];
  /** The versions of the statements on this tool that changed (both sides). */
  readonly changed: readonly StatementSpec[];
  /** Every other statement on this tool (both sides): their literals are tried too. */
  readonly others: readonly StatementSpec[];
  /** True when the call is valid on at least one side (the controller's validators). */
  readonly isValid: (args: unknown, context: ToolContext) => boolean;
  /** The most calls to return. */
  readonly limit?: number;
}

/** A generated call: arguments and context. */
export interface WitnessCall {
  readonly arguments: unknown;
  readonly context: ToolContext;
}

function keyOf(value: Value): string {
  return value === ABSENT ? "\u0000absent" : canonicalJson(value);
}

/** Field path → candidate values, gathered from conditions; literals of earlier conditions first. */
class FieldPool {
  readonly fields = new Map<string, { all: Value[]; seen: Set<string> }>();
  constructor(
    readonly schema: JsonSchema | undefined,
    readonly cap: number,
  ) {}

  addCondition(condition: ConditionSpec | undefined, dirs: readonly string[]): void {
    if (condition === undefined) return;
    for (const [field, op] of Object.entries(condition)) {
      const schema = this.schema === undefined ? undefined : fieldSchema(this.schema, field);
      const c = operatorValues(op, schema, this.schema ?? {}, dirs);
      this.addValues(field, [...c.inside, ...c.outside]);
    }
  }

  /** Values for a field, each once, while the field has room (the first added are tried first). */
  addValues(field: string, values: readonly Value[]): void {
    let entry = this.fields.get(field);
    if (entry === undefined) {
      entry = { all: [], seen: new Set() };
      this.fields.set(field, entry);
    }
    for (const v of values) {
      const k = keyOf(v);
      if (entry.seen.has(k) || entry.all.length >= this.cap) continue;
      entry.seen.add(k);
      entry.all.push(v);
    }
  }

  /**
   * Where the versions of a schema differ, each property's values at the edges of either version
   * (`boundaryValues`): a raised `maxItems`, a widened `enum` of items, a dropped `uniqueItems`, a loosened
   * branch of `anyOf` or a nested property's bound shows there, whatever the conditions mention.
   */
  addSchemaEdges(schemas: readonly (JsonSchema | undefined)[]): void {
    const present = schemas.filter((s): s is JsonSchema => s !== undefined);
    if (new Set(present.map((s) => canonicalJson(s))).size < 2) return;
    // Each version's bounds are hints for the other's values: `^b` after `maxLength: 1` needs a `b` of two.
    const bounds = [...new Set(present.flatMap((s) => schemaBounds(s)))];
    for (const schema of present) {
      const properties = (resolveRef(schema, schema)?.properties ?? {}) as Record<string, unknown>;
      // A name with a dot would be read as a path of fields: such a property is left to the conditions.
      for (const [name, property] of Object.entries(properties))
        if (!name.includes(".")) this.addValues(name, boundaryValues(property, schema, bounds));
    }
  }

  /** Numbers between every two numeric literals of a field: an amount between an old and a new bound. */
  addMidpoints(): void {
    for (const entry of this.fields.values()) {
      const numbers = [...new Set(entry.all.filter((v): v is number => typeof v === "number"))].sort(
        (a, b) => a - b,
      );
      for (let i = 0; i + 1 < numbers.length; i++) {
        const a = numbers[i] as number;
        const b = numbers[i + 1] as number;
        for (const mid of [Math.floor((a + b) / 2), (a + b) / 2]) {
          const k = keyOf(mid);
          if (mid > a && mid < b && !entry.seen.has(k)) {
            entry.seen.add(k);
            entry.all.push(mid);
          }
        }
      }
    }
  }
}

/** The values that satisfy a condition, field by field (the first is tried first). */
function insideValues(
  condition: ConditionSpec | undefined,
  schema: JsonSchema | undefined,
  dirs: readonly string[],
): [string, Value[]][] {
  if (condition === undefined) return [];
  return Object.entries(condition).map(([field, op]) => {
    const fs = schema === undefined ? undefined : fieldSchema(schema, field);
    return [field, operatorValues(op, fs, schema ?? {}, dirs).inside];
  });
}

function withField(subject: unknown, field: string, value: Value): unknown {
  const path = field.split(".");
  const copy = (node: unknown, index: number): unknown => {
    const object =
      node !== null && typeof node === "object" && !Array.isArray(node) ? { ...(node as object) } : {};
    const key = path[index] as string;
    if (index === path.length - 1) {
      if (value === ABSENT) delete (object as Record<string, unknown>)[key];
      else (object as Record<string, unknown>)[key] = value;
    } else
      (object as Record<string, unknown>)[key] = copy((object as Record<string, unknown>)[key], index + 1);
    return object;
  };
  return copy(subject, 0);
}

/** Directories that path rules of the tool mention: filled in for a leading `**` of a glob. */
function pathDirs(statements: readonly StatementSpec[]): string[] {
  const dirs = new Set<string>();
  const visit = (op: OperatorSpec) => {
    for (const p of [op.path_prefix, op.prefix]) {
      if (typeof p === "string" && p !== "" && !p.includes(" ")) dirs.add(p.replace(/\/+$/, ""));
    }
    for (const inner of [op.any, op.all, op.not]) if (inner !== undefined) visit(inner);
  };
  for (const s of statements) for (const op of Object.values(s.when ?? {})) visit(op);
  dirs.delete("");
  return [...dirs].slice(0, 6);
}

/**
 * Calls for one tool that may tell the two policies apart, valid on at least one side.
 * @returns at most `limit` calls (default 4000), no two alike.
 */
export function generateWitnesses(request: WitnessRequest): WitnessCall[] {
  const limit = request.limit ?? 4000;
  const schema = request.schemas[request.schemas.length - 1];
  const contextSchema = request.contextSchemas[request.contextSchemas.length - 1];
  const all = [...request.changed, ...request.others];
  const dirs = pathDirs(all);
  const args = new FieldPool(schema, 200);
  const context = new FieldPool(contextSchema, 60);
  for (const s of request.changed) {
    args.addCondition(s.when, dirs);
    context.addCondition(s.context, dirs);
  }
  for (const s of request.others) {
    args.addCondition(s.when, dirs);
    context.addCondition(s.context, dirs);
  }
  args.addMidpoints();
  context.addMidpoints();
  args.addSchemaEdges(request.schemas);
  context.addSchemaEdges(request.contextSchemas);
  // Every value a context fact may take from an enum: environments and roles are few.
  for (const cs of request.contextSchemas) {
    const properties = (resolveRef(cs, cs)?.properties ?? {}) as Record<string, unknown>;
    for (const [name, prop] of Object.entries(properties)) {
      const p = resolveRef(cs, prop);
      if (p === undefined || !Array.isArray(p.enum)) continue;
      let entry = context.fields.get(name);
      if (entry === undefined) {
        entry = { all: [], seen: new Set() };
        context.fields.set(name, entry);
      }
      for (const v of [...p.enum, ABSENT]) {
        const k = keyOf(v);
        if (!entry.seen.has(k)) {
          entry.seen.add(k);
          entry.all.push(v);
        }
      }
    }
  }

  const out: WitnessCall[] = [];
  const seen = new Set<string>();
  const offer = (a: unknown, c: unknown): boolean => {
    if (out.length >= limit) return false;
    let key: string;
    try {
      key = canonicalJson([a, c]);
    } catch {
      return true;
    }
    if (seen.has(key)) return true;
    seen.add(key);
    if (request.isValid(a, c as ToolContext)) out.push({ arguments: a, context: c as ToolContext });
    return true;
  };

  const baseArgs = schema === undefined ? {} : minimalValue(schema, schema);
  const baseContext = contextSchema === undefined ? {} : minimalValue(contextSchema, contextSchema);
  // A starting call per changed statement that satisfies it (field by field, the first value that keeps
  // the call valid), and the plain minimal call.
  const starts: [unknown, unknown][] = [[baseArgs, baseContext]];
  for (const s of request.changed) {
    let a = baseArgs;
    let c = baseContext;
    for (const [field, values] of insideValues(s.when, schema, dirs)) {
      const fit = values
        .map((v) => withField(a, field, v))
        .find((next) => request.isValid(next, c as ToolContext));
      if (fit !== undefined) a = fit;
    }
    for (const [field, values] of insideValues(s.context, contextSchema, dirs)) {
      const fit = values
        .map((v) => withField(c, field, v))
        .find((next) => request.isValid(a, next as ToolContext));
      if (fit !== undefined) c = fit;
    }
    starts.push([a, c]);
  }
  for (const [a, c] of starts) offer(a, c);
  for (const [a, c] of starts) {
    for (const [field, entry] of args.fields)
      for (const v of entry.all) if (!offer(withField(a, field, v), c)) return out;
    for (const [field, entry] of context.fields)
      for (const v of entry.all) if (!offer(a, withField(c, field, v))) return out;
  }
  return out;
}
