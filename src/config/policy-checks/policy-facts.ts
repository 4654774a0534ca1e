/**
 * What the policy checks read: the layers as written, the tools and schemas they refer to, and what follows
 * from them once (the statements, the overlaps within a file, the strictest set entry per tool, the fields each
 * condition reads with their schemas). Built once per load; the checks only read it.
 */
import type { BundleTool } from "../../bundle/policy-bundle.js";
import type { ConditionSpec, OperatorSpec } from "../../runtime/condition.js";
import { OPERATORS } from "../../runtime/operators/index.js";
import type { JsonType, Operator } from "../../runtime/operators/operator.js";
import type { PolicyRule, StatementSpec } from "../../runtime/policy.js";
import {
  ACTION_RANK,
  ACTIONS,
  otherwiseStatement,
  ruleStatement,
  setStatement,
} from "../../runtime/statements.js";
import type { ToolAlias } from "../../runtime/tool-aliases.js";
import type { JsonSchema, PolicyAction } from "../../runtime/types.js";
import { childPointer, type ParsedFile, positionOf } from "../parsed-file.js";

/** One loaded policy file and its place in the `extends` chain (0 = the policy file itself). */
export interface PolicyLayer {
  readonly parsed: ParsedFile;
  readonly layer: number;
  /** A short name for statement ids of baseline layers (the file name without extension). */
  readonly label: string;
}

/** A tool alias with the file and JSON Pointer it is written at, for checks that report on it. */
export interface WrittenAlias {
  readonly alias: ToolAlias;
  readonly parsed: ParsedFile;
  /** `/aliases/INDEX`. */
  readonly pointer: string;
}

/** What the loader could not read, so that checks which need the whole picture stay quiet. */
export interface PolicyCheckOptions {
  /** False when a tool file could not be read or parsed: a tool the policy names may be declared there. */
  readonly toolsComplete?: boolean;
  /** False when a policy file could not be loaded: a tool with no statement may have one there. */
  readonly policyComplete?: boolean;
  /**
   * Filled with the ids of the set entries that make no statement because of an error (the later entry of an
   * overlap): they are written in the file, so a policy test naming one is not an `unknown-rule`.
   */
  readonly droppedIds?: Set<string>;
  /**
   * Names a tool file declares with an invalid name: the `invalid-tool-name` there is the one diagnostic of
   * that mistake, so the policy naming them is not also an `unknown-tool`.
   */
  readonly invalidNames?: ReadonlySet<string>;
  /** The tool aliases of the tool files that passed their own checks, with where each is written. */
  readonly aliases?: readonly WrittenAlias[];
}

/** A rule as the policy file writes it (the schema has checked its shape). */
export type RawRule = Omit<PolicyRule, "source">;

/** A policy file as written (the schema has checked its shape). */
export interface RawPolicy {
  readonly allow?: readonly string[];
  readonly ask?: readonly string[];
  readonly deny?: readonly string[];
  readonly reasons?: { readonly [tool: string]: string };
  readonly rules?: readonly RawRule[];
  readonly otherwise?: {
    readonly [tool: string]: PolicyAction | { readonly decision: PolicyAction; readonly reason?: string };
  };
}

/** A set entry that repeats a tool already listed earlier in the same file. */
export interface Overlap {
  readonly parsed: ParsedFile;
  readonly pointer: string;
  readonly tool: string;
  readonly action: PolicyAction;
  readonly line: number;
  readonly earlier: { readonly action: PolicyAction; readonly line: number };
}

/** A `when:` or `context:` field and the schema it is looked up in. */
export interface ConditionField {
  readonly parsed: ParsedFile;
  readonly pointer: string;
  readonly field: string;
  readonly operators: OperatorSpec;
  readonly what: "argument" | "context";
  /** The tool name (arguments) or `context`. */
  readonly label: string;
  /** The schema the field belongs to; `null` when the config declares no context_schema. */
  readonly root: JsonSchema | null;
  /** The field's schema; `undefined` when the root declares no such field. */
  readonly schema: JsonSchema | undefined;
}

/** One operator object of a known field (nested ones included), with the schema of the value it reads. */
export interface OperatorNode {
  readonly parsed: ParsedFile;
  readonly pointer: string;
  readonly spec: OperatorSpec;
  readonly root: JsonSchema;
  readonly schema: JsonSchema;
  readonly types: ReadonlySet<JsonType> | null;
  readonly field: string;
  /** `tool "x"` or `context_schema`. */
  readonly owner: string;
  /** The operator objects this one is nested in by `not` alone (they read the same value). */
  readonly negatedIn: readonly OperatorSpec[];
}

/** Everything the checks read. */
export interface PolicyFacts {
  readonly layers: readonly PolicyLayer[];
  readonly tools: readonly BundleTool[];
  readonly declared: ReadonlySet<string>;
  readonly options: PolicyCheckOptions;
  readonly statements: readonly StatementSpec[];
  readonly overlaps: readonly Overlap[];
  /** Per layer: the tools its set entries list, for the `reasons` check. */
  readonly listedInFile: ReadonlyMap<PolicyLayer, ReadonlySet<string>>;
  /** The strictest set entry per tool across all layers. */
  readonly setAction: ReadonlyMap<string, { readonly action: PolicyAction; readonly place: string }>;
  /** The `otherwise` entries of declared tools in all layers. */
  readonly fallbacks: readonly {
    readonly parsed: ParsedFile;
    readonly pointer: string;
    readonly tool: string;
  }[];
  readonly conditionFields: readonly ConditionField[];
  readonly operatorNodes: readonly OperatorNode[];
  /** The tool aliases (`options.aliases`, or none). */
  readonly aliases: readonly WrittenAlias[];
}

/** The layer's policy as written. */
export function rawPolicy(layer: PolicyLayer): RawPolicy {
  return layer.parsed.data as RawPolicy;
}

/** The JSON types a schema declares, or `null` when it declares none. */
export function typesOf(schema: JsonSchema | undefined): ReadonlySet<JsonType> | null {
  if (schema === undefined) return null;
  const t = schema.type;
  if (typeof t === "string") return new Set([t as JsonType]);
  if (Array.isArray(t)) return new Set(t as JsonType[]);
  return null;
}

/** Follows a schema's local `$ref` (`#/…`) chain, up to 16 steps; other schemas are returned as they are. */
export function resolveLocalRef(root: JsonSchema, schema: JsonSchema): JsonSchema {
  let current = schema;
  for (
    let depth = 0;
    depth < 16 && typeof current.$ref === "string" && current.$ref.startsWith("#/");
    depth++
  ) {
    let target: unknown = root;
    for (const raw of current.$ref.slice(2).split("/")) {
      const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
      target =
        target !== null && typeof target === "object" ? (target as Record<string, unknown>)[key] : undefined;
    }
    if (target === null || typeof target !== "object") return current;
    current = target as JsonSchema;
  }
  return current;
}

/** The schema of a dotted field path inside an object schema, or `undefined` when it declares no such field. */
export function fieldSchema(root: JsonSchema, path: string): JsonSchema | undefined {
  let current: JsonSchema = resolveLocalRef(root, root);
  for (const key of path.split(".")) {
    const properties = current.properties as { [k: string]: JsonSchema } | undefined;
    if (properties === undefined || !Object.hasOwn(properties, key)) return undefined;
    current = resolveLocalRef(root, properties[key] as JsonSchema);
  }
  return current;
}

const operators = OPERATORS as readonly Operator<never>[];

/** The operators of `spec` that apply (as the runtime reads them), each with its value. */
export function givenOperators(spec: OperatorSpec): { operator: Operator<never>; value: never }[] {
  const values = spec as Record<string, never>;
  return operators
    .filter((o) => Object.hasOwn(spec, o.name) && (o.ownKey === true || values[o.name] !== undefined))
    .map((operator) => ({ operator, value: values[operator.name] as never }));
}

/** True when the operator reads fields of a type the field's schema does not have. */
export function cannotRead(operator: Operator<never>, types: ReadonlySet<JsonType> | null): boolean {
  return types !== null && operator.reads !== undefined && !operator.reads.types.some((t) => types.has(t));
}

/** The operator object of a field and every object nested in it, except below an operator that cannot read it. */
function* operatorNodes(
  parsed: ParsedFile,
  pointer: string,
  spec: OperatorSpec,
  root: JsonSchema,
  schema: JsonSchema,
  field: string,
  owner: string,
  negatedIn: readonly OperatorSpec[] = [],
): Generator<OperatorNode> {
  const types = typesOf(schema);
  yield { parsed, pointer, spec, root, schema, types, field, owner, negatedIn };
  for (const { operator, value } of givenOperators(spec)) {
    const at = childPointer(pointer, operator.name);
    if (operator.nested === "items" && !cannotRead(operator, types)) {
      const items = schema.items;
      const itemSchema =
        items !== null && typeof items === "object" && !Array.isArray(items)
          ? resolveLocalRef(root, items as JsonSchema)
          : {};
      yield* operatorNodes(parsed, at, value, root, itemSchema, `${field}[*]`, owner);
    } else if (operator.nested === "same") {
      yield* operatorNodes(parsed, at, value, root, schema, field, owner, [...negatedIn, spec]);
    }
  }
}

/** Builds the statements of all layers and the facts the checks read. */
export function collectPolicyFacts(
  layers: readonly PolicyLayer[],
  tools: readonly BundleTool[],
  declared: ReadonlySet<string>,
  contextSchema: JsonSchema | null,
  options: PolicyCheckOptions,
): PolicyFacts {
  const statements: StatementSpec[] = [];
  const overlaps: Overlap[] = [];
  const listedInFile = new Map<PolicyLayer, Set<string>>();
  const setAction = new Map<string, { action: PolicyAction; place: string }>();
  const fallbacks: { parsed: ParsedFile; pointer: string; tool: string }[] = [];
  const conditionFields: ConditionField[] = [];
  const schemaOf = new Map(tools.map((t) => [t.name, t.inputSchema]));

  for (const entry of layers) {
    const { parsed, layer, label } = entry;
    const policy = rawPolicy(entry);
    const source = (pointer: string) => {
      const span = positionOf(parsed, pointer);
      return { file: parsed.file, line: span.line, column: span.column, layer };
    };
    const idPrefix = layer === 0 ? "" : `${label}/`;
    const inFile = new Map<string, { action: PolicyAction; line: number }>();
    // Overlap is decided in the order the entries stand in the file, so the later entry is the one reported.
    const entries = ACTIONS.flatMap((action) =>
      (policy[action] ?? []).map((tool, index) => {
        const pointer = `/${action}/${index}`;
        return { action, tool, pointer, span: positionOf(parsed, pointer) };
      }),
    ).sort((a, b) => a.span.line - b.span.line || a.span.column - b.span.column);
    const overlapping = new Set<string>();
    for (const { action, tool, pointer, span } of entries) {
      if (!declared.has(tool)) continue;
      const earlier = inFile.get(tool);
      if (earlier === undefined) {
        inFile.set(tool, { action, line: span.line });
        continue;
      }
      overlapping.add(pointer);
      overlaps.push({ parsed, pointer, tool, action, line: span.line, earlier });
      options.droppedIds?.add(setStatement(tool, action, { idPrefix }).id);
    }
    listedInFile.set(entry, new Set(inFile.keys()));
    for (const action of ACTIONS) {
      (policy[action] ?? []).forEach((tool, index) => {
        const pointer = `/${action}/${index}`;
        if (!declared.has(tool) || overlapping.has(pointer)) return;
        const place = `${parsed.file}:${positionOf(parsed, pointer).line}`;
        const strictest = setAction.get(tool);
        if (strictest === undefined || ACTION_RANK[action] > ACTION_RANK[strictest.action])
          setAction.set(tool, { action, place });
        const reason = policy.reasons?.[tool];
        statements.push(
          setStatement(tool, action, {
            idPrefix,
            ...(reason === undefined ? {} : { reason }),
            source: source(pointer),
          }),
        );
      });
    }
    for (const [tool, value] of Object.entries(policy.otherwise ?? {})) {
      if (!declared.has(tool)) continue;
      const pointer = childPointer("/otherwise", tool);
      const action = typeof value === "string" ? value : value.decision;
      const reason = typeof value === "string" ? undefined : value.reason;
      statements.push(
        otherwiseStatement(tool, action, {
          idPrefix,
          ...(reason === undefined ? {} : { reason }),
          source: source(pointer),
        }),
      );
      fallbacks.push({ parsed, pointer, tool });
    }
    (policy.rules ?? []).forEach((rule, index) => {
      const at = `/rules/${index}`;
      const knownTools = rule.tools.filter((tool) => declared.has(tool) && schemaOf.has(tool));
      const conditions: [ConditionSpec | undefined, "argument" | "context"][] = [
        [rule.when, "argument"],
        [rule.context, "context"],
      ];
      for (const [condition, what] of conditions) {
        if (condition === undefined) continue;
        const pointer = `${at}/${what === "argument" ? "when" : "context"}`;
        const roots =
          what === "argument"
            ? knownTools.map((tool) => ({ label: tool, root: schemaOf.get(tool) as JsonSchema }))
            : [{ label: "context", root: contextSchema }];
        for (const [field, operators] of Object.entries(condition)) {
          for (const { label, root } of roots) {
            conditionFields.push({
              parsed,
              pointer: childPointer(pointer, field),
              field,
              operators,
              what,
              label,
              root,
              schema: root === null ? undefined : fieldSchema(root, field),
            });
            // Without a context_schema, the one finding for the field says so.
            if (root === null) break;
          }
        }
      }
      statements.push(ruleStatement({ ...rule, source: source(`${at}/id`) }));
    });
  }

  const operatorNodeList: OperatorNode[] = [];
  for (const c of conditionFields) {
    if (c.root === null || c.schema === undefined) continue;
    const owner = c.what === "argument" ? `tool "${c.label}"` : "context_schema";
    operatorNodeList.push(
      ...operatorNodes(c.parsed, c.pointer, c.operators, c.root, c.schema, c.field, owner),
    );
  }
  return {
    layers,
    tools,
    declared,
    options,
    statements,
    overlaps,
    listedInFile,
    setAction,
    fallbacks,
    conditionFields,
    operatorNodes: operatorNodeList,
    aliases: options.aliases ?? [],
  };
}
