/**
 * Checks of policy layers and their statements: unknown tools, overlap within a file, reasons, rules
 * (ids, fields against input schemas, operator types, regexes, globs, command prefixes), reachability,
 * and unlisted tools. Produces the bundle's statement list.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import {
  type ConditionSpec,
  compileCondition,
  compileRegexOperator,
  type OperatorSpec,
} from "../runtime/condition.js";
import { compileGlob } from "../runtime/match/glob.js";
import { parseCommandPrefixSpec } from "../runtime/match/shell.js";
import { compileUrl } from "../runtime/match/url.js";
import { otherwiseStatement, type PolicyRule, ruleStatement, type StatementSpec } from "../runtime/policy.js";
import type { JsonSchema, PolicyAction } from "../runtime/types.js";
import { nearest } from "./nearest.js";
import { childPointer, diagnosticAt, type ParsedFile, positionOf } from "./parse-yaml.js";
import type { BundleTool } from "./policy-bundle.js";

/** One loaded policy file and its place in the `extends` chain (0 = the policy file itself). */
export interface PolicyLayer {
  readonly parsed: ParsedFile;
  readonly layer: number;
  /** A short name for statement ids of baseline layers (the file name without extension). */
  readonly label: string;
}

/** A rule as the policy file writes it (the schema has checked its shape). */
type RawRule = Omit<PolicyRule, "source">;

interface RawPolicy {
  readonly allow?: readonly string[];
  readonly ask?: readonly string[];
  readonly deny?: readonly string[];
  readonly reasons?: { readonly [tool: string]: string };
  readonly rules?: readonly RawRule[];
  readonly otherwise?: {
    readonly [tool: string]: PolicyAction | { readonly decision: PolicyAction; readonly reason?: string };
  };
}

const ACTIONS: readonly PolicyAction[] = ["allow", "ask", "deny"];
const RANK: Readonly<Record<PolicyAction, number>> = { allow: 0, ask: 1, deny: 2 };
const DEFAULT_REASON: Readonly<Record<PolicyAction, (tool: string) => string>> = {
  allow: (tool) => `tool ${tool} is allowed by the policy`,
  ask: (tool) => `tool ${tool} needs a person's approval`,
  deny: (tool) => `tool ${tool} is denied by the policy`,
};

type JsonType = "string" | "number" | "integer" | "boolean" | "array" | "object" | "null";

function typesOf(schema: JsonSchema | undefined): ReadonlySet<JsonType> | null {
  if (schema === undefined) return null;
  const t = schema.type;
  if (typeof t === "string") return new Set([t as JsonType]);
  if (Array.isArray(t)) return new Set(t as JsonType[]);
  return null;
}

function resolveLocalRef(root: JsonSchema, schema: JsonSchema): JsonSchema {
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

function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value as JsonType;
}

function fits(types: ReadonlySet<JsonType>, value: unknown): boolean {
  const t = jsonTypeOf(value);
  return types.has(t) || (t === "integer" && types.has("number"));
}

function describe(types: ReadonlySet<JsonType>): string {
  return [...types].join(" or ");
}

/** Words of a field name that say it holds a file system path. */
const PATH_WORDS: ReadonlySet<string> = new Set([
  "path",
  "paths",
  "file",
  "files",
  "filename",
  "filepath",
  "dir",
  "dirs",
  "directory",
  "folder",
  "cwd",
]);

/**
 * Why a `prefix` looks like it was written with the old path meaning: the field's name says it
 * holds a path, or the prefix itself reads as one (it starts with `/`, `./`, `../`, `~/` or a drive letter, or
 * has a `.` or `..` segment). `undefined` when nothing says so.
 */
function pathHint(field: string, prefix: string): string | undefined {
  const name = field.replaceAll("[*]", "").split(".").at(-1) ?? field;
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  if (words.some((word) => PATH_WORDS.has(word))) return `field "${field}" holds a path`;
  if (/^(\/|\.\.?\/|~\/|[A-Za-z]:[\\/])/.test(prefix) || /(^|\/)\.\.?(\/|$)/.test(prefix))
    return `${JSON.stringify(prefix)} reads as a path`;
  return undefined;
}

/** The operators whose work grows with the length of the string they read. */
const LENGTH_BOUND_OPERATORS = ["command", "glob", "path_prefix", "regex"] as const;

/**
 * True when a string field's schema bounds its length: `maxLength`, or a fixed set of values (`enum`,
 * `const`). A field that is not declared as a string (or has no `type`) is not judged.
 */
function unboundedString(schema: JsonSchema): boolean {
  const types = typesOf(schema);
  if (types === null || !types.has("string")) return false;
  return typeof schema.maxLength !== "number" && schema.enum === undefined && !Object.hasOwn(schema, "const");
}

/**
 * Checks one field's operators against the field's schema; reports at the operator's node. `owner` names the
 * schema the field belongs to (`tool "x"`, `context_schema`); `lengthReported` is set once an
 * `unbounded-string` warning was given for this field, so a `not` inside it does not repeat it.
 */
function checkOperators(
  parsed: ParsedFile,
  pointer: string,
  spec: OperatorSpec,
  root: JsonSchema,
  schema: JsonSchema,
  field: string,
  diagnostics: Diagnostic[],
  owner = "",
  lengthReported = false,
): void {
  const types = typesOf(schema);
  const lengthOperator = LENGTH_BOUND_OPERATORS.find((operator) => spec[operator] !== undefined);
  if (!lengthReported && lengthOperator !== undefined && unboundedString(schema)) {
    lengthReported = true;
    const where = owner === "" ? "its schema" : `the schema of ${owner}`;
    diagnostics.push(
      diagnosticAt(
        parsed,
        childPointer(pointer, lengthOperator),
        "unbounded-string",
        `"${lengthOperator}" reads string field "${field}", whose length ${where} does not bound: a call with a very long value makes every check on it slow; add maxLength (for example maxLength: 4096) to "${field}"`,
        { prefer: "key", severity: "warning" },
      ),
    );
  }
  const mismatch = (operator: string, needs: string) => {
    if (types === null) return;
    diagnostics.push(
      diagnosticAt(
        parsed,
        childPointer(pointer, operator),
        "operator-type-mismatch",
        `operator "${operator}" needs ${needs}, but field "${field}" is ${describe(types)}; use an operator for ${describe(types)} fields`,
        { prefer: "key" },
      ),
    );
  };
  const needs = (...wanted: JsonType[]) => types === null || wanted.some((w) => types.has(w));
  for (const operator of ["prefix", "path_prefix", "glob", "regex", "command", "url"] as const) {
    if (spec[operator] !== undefined && !needs("string")) mismatch(operator, "a string field");
  }
  if (spec.prefix !== undefined) {
    const hint = pathHint(field, spec.prefix);
    if (hint !== undefined) {
      const example = `${spec.prefix}${spec.prefix.endsWith("/") ? "" : "/"}../x`;
      diagnostics.push(
        diagnosticAt(
          parsed,
          childPointer(pointer, "prefix"),
          "prefix-on-path",
          `"prefix" compares plain text (${JSON.stringify(example)} starts with ${JSON.stringify(spec.prefix)}), but ${hint}; did you mean "path_prefix", which reads the value as a path first? (For plain text on purpose, write regex: "^…".)`,
          { prefer: "key", severity: "warning" },
        ),
      );
    }
  }
  for (const operator of ["min", "max"] as const) {
    if (spec[operator] !== undefined && !needs("number", "integer")) mismatch(operator, "a number field");
  }
  for (const operator of ["any", "all"] as const) {
    const inner = spec[operator];
    if (inner === undefined) continue;
    if (!needs("array")) {
      mismatch(operator, "an array field");
      continue;
    }
    const items = schema.items;
    const itemSchema =
      items !== null && typeof items === "object" && !Array.isArray(items)
        ? resolveLocalRef(root, items as JsonSchema)
        : {};
    checkOperators(
      parsed,
      childPointer(pointer, operator),
      inner,
      root,
      itemSchema,
      `${field}[*]`,
      diagnostics,
      owner,
    );
  }
  if (spec.not !== undefined) {
    checkOperators(
      parsed,
      childPointer(pointer, "not"),
      spec.not,
      root,
      schema,
      field,
      diagnostics,
      owner,
      lengthReported,
    );
  }
  if (types !== null && Object.hasOwn(spec, "equals") && !fits(types, spec.equals)) {
    diagnostics.push(
      diagnosticAt(
        parsed,
        childPointer(pointer, "equals"),
        "operator-type-mismatch",
        `"equals" compares field "${field}" (${describe(types)}) with ${jsonTypeOf(spec.equals)} ${JSON.stringify(spec.equals)}, which can never be equal`,
      ),
    );
  }
  if (types !== null && spec.in !== undefined) {
    spec.in.forEach((value, i) => {
      if (!fits(types, value)) {
        diagnostics.push(
          diagnosticAt(
            parsed,
            childPointer(childPointer(pointer, "in"), i),
            "operator-type-mismatch",
            `"in" lists ${jsonTypeOf(value)} ${JSON.stringify(value)} for field "${field}" (${describe(types)}), which can never match`,
          ),
        );
      }
    });
  }
  if (spec.regex !== undefined) {
    const compiled = compileRegexOperator(spec.regex);
    if (!compiled.ok) {
      const regexPointer = childPointer(pointer, "regex");
      const source = typeof spec.regex === "string" ? spec.regex : spec.regex.pattern;
      diagnostics.push(
        diagnosticAt(
          parsed,
          typeof spec.regex === "string" ? regexPointer : childPointer(regexPointer, compiled.in),
          "invalid-regex",
          `regex ${JSON.stringify(source)}: ${compiled.message}`,
        ),
      );
    }
  }
  if (spec.glob !== undefined) {
    const globs = typeof spec.glob === "string" ? [spec.glob] : spec.glob;
    globs.forEach((glob, i) => {
      const compiled = compileGlob(glob);
      if (!compiled.ok) {
        const at =
          typeof spec.glob === "string"
            ? childPointer(pointer, "glob")
            : childPointer(childPointer(pointer, "glob"), i);
        diagnostics.push(
          diagnosticAt(parsed, at, "invalid-glob", `glob ${JSON.stringify(glob)}: ${compiled.message}`),
        );
      }
    });
  }
  if (spec.url !== undefined) {
    const compiled = compileUrl(spec.url);
    if (!compiled.ok) {
      for (const problem of compiled.problems) {
        let at = childPointer(pointer, "url");
        if (problem.key !== "url") {
          at = childPointer(at, problem.key);
          if (problem.index !== undefined && Array.isArray(spec.url[problem.key]))
            at = childPointer(at, problem.index);
        }
        diagnostics.push(diagnosticAt(parsed, at, "invalid-url", problem.message));
      }
    }
  }
  if (spec.command !== undefined) {
    spec.command.forEach((entry, i) => {
      const read = parseCommandPrefixSpec(entry);
      if (read.ok) return;
      let at = childPointer(childPointer(pointer, "command"), i);
      for (const key of read.at ?? []) at = childPointer(at, key);
      diagnostics.push(diagnosticAt(parsed, at, "invalid-command", read.message));
    });
  }
}

/** Checks a `when:` or `context:` condition of a rule against the schemas it refers to. */
function checkCondition(
  parsed: ParsedFile,
  pointer: string,
  condition: ConditionSpec,
  schemas: readonly { label: string; schema: JsonSchema | null }[],
  what: "argument" | "context",
  diagnostics: Diagnostic[],
): void {
  for (const [field, operators] of Object.entries(condition)) {
    const fieldPointer = childPointer(pointer, field);
    for (const { label, schema } of schemas) {
      if (schema === null) {
        diagnostics.push(
          diagnosticAt(
            parsed,
            fieldPointer,
            "unknown-argument",
            `rule matches context field "${field}", but the config declares no context_schema; declare it in the config file`,
            { prefer: "key" },
          ),
        );
        break;
      }
      const found = fieldSchema(schema, field);
      if (found === undefined) {
        const properties = Object.keys((schema.properties as object | undefined) ?? {});
        const near = nearest(field.split(".")[0] ?? field, properties);
        const hint =
          near === undefined ? `declared: ${properties.join(", ") || "none"}` : `did you mean "${near}"?`;
        diagnostics.push(
          diagnosticAt(
            parsed,
            fieldPointer,
            "unknown-argument",
            what === "argument"
              ? `tool "${label}" has no argument "${field}" in its input_schema; ${hint}`
              : `context field "${field}" is not declared in context_schema; ${hint}`,
            { prefer: "key" },
          ),
        );
        continue;
      }
      const owner = what === "argument" ? `tool "${label}"` : "context_schema";
      checkOperators(parsed, fieldPointer, operators, schema, found, field, diagnostics, owner);
    }
  }
}

/** What the loader could not read, so that checks which need the whole picture stay quiet. */
export interface PolicyCheckOptions {
  /** False when a tool file could not be read or parsed: a tool the policy names may be declared there. */
  readonly toolsComplete?: boolean;
  /** False when a policy file could not be loaded: a tool with no statement may have one there. */
  readonly policyComplete?: boolean;
}

/** The statements of all layers, with every problem found in them. */
export function checkPolicy(
  layers: readonly PolicyLayer[],
  tools: readonly BundleTool[],
  declared: ReadonlySet<string>,
  contextSchema: JsonSchema | null,
  options: PolicyCheckOptions = {},
): { statements: StatementSpec[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const statements: StatementSpec[] = [];
  const schemaOf = new Map(tools.map((t) => [t.name, t.inputSchema]));
  const ruleIds = new Map<string, string>();
  // The strictest set entry per tool across all layers, for the reachability check.
  const setAction = new Map<string, { action: PolicyAction; place: string }>();
  // The `otherwise` entries of all layers, for the reachability check.
  const fallbacks: { parsed: ParsedFile; pointer: string; tool: string }[] = [];

  const unknownTool = (
    parsed: ParsedFile,
    pointer: string,
    name: string,
    prefer: "key" | "value" = "value",
  ) => {
    // With a tool file unreadable, "not declared" may be false: its own diagnostic says what to fix first.
    if (options.toolsComplete === false) return;
    const near = nearest(name, declared);
    diagnostics.push(
      diagnosticAt(
        parsed,
        pointer,
        "unknown-tool",
        `tool "${name}" is not declared in any tool file${near === undefined ? "; declare it or remove it here" : `; did you mean "${near}"?`}`,
        { prefer },
      ),
    );
  };

  for (const { parsed, layer, label } of layers) {
    const policy = parsed.data as RawPolicy;
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
      diagnostics.push(
        diagnosticAt(
          parsed,
          pointer,
          "overlap",
          earlier.action === action
            ? `tool "${tool}" is listed twice in ${action} (lines ${earlier.line} and ${span.line}); list it once`
            : `tool "${tool}" is in both ${earlier.action} (line ${earlier.line}) and ${action} (line ${span.line}); keep it in one`,
        ),
      );
    }
    for (const action of ACTIONS) {
      (policy[action] ?? []).forEach((tool, index) => {
        const pointer = `/${action}/${index}`;
        const line = positionOf(parsed, pointer).line;
        if (!declared.has(tool)) {
          unknownTool(parsed, pointer, tool);
          return;
        }
        if (overlapping.has(pointer)) return;
        const place = `${parsed.file}:${line}`;
        const strictest = setAction.get(tool);
        if (strictest === undefined || RANK[action] > RANK[strictest.action])
          setAction.set(tool, { action, place });
        statements.push({
          id: `${idPrefix}${action}:${tool}`,
          kind: "set",
          action,
          tools: [tool],
          reason: policy.reasons?.[tool] ?? DEFAULT_REASON[action](tool),
          source: source(pointer),
        });
      });
    }
    for (const [tool, value] of Object.entries(policy.otherwise ?? {})) {
      const pointer = childPointer("/otherwise", tool);
      if (!declared.has(tool)) {
        unknownTool(parsed, pointer, tool, "key");
        continue;
      }
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
    for (const tool of Object.keys(policy.reasons ?? {})) {
      const pointer = childPointer("/reasons", tool);
      if (!declared.has(tool)) unknownTool(parsed, pointer, tool, "key");
      else if (!inFile.has(tool)) {
        diagnostics.push(
          diagnosticAt(
            parsed,
            pointer,
            "config-schema",
            Object.hasOwn(policy.otherwise ?? {}, tool)
              ? `reasons gives a reason for "${tool}", but this file lists it in none of allow, ask or deny; for its fallback write otherwise: { ${tool}: { decision, reason } }`
              : `reasons gives a reason for "${tool}", but this file lists it in none of allow, ask or deny; list it or move the reason into a rule`,
            { prefer: "key" },
          ),
        );
      }
    }
    (policy.rules ?? []).forEach((rule, index) => {
      const at = `/rules/${index}`;
      const idPointer = `${at}/id`;
      const place = `${parsed.file}:${positionOf(parsed, idPointer).line}`;
      const earlier = ruleIds.get(rule.id);
      if (earlier !== undefined) {
        diagnostics.push(
          diagnosticAt(
            parsed,
            idPointer,
            "duplicate-rule-id",
            `rule id "${rule.id}" is used twice: ${earlier} and ${place}; rule ids must be unique across all policy files`,
          ),
        );
      } else ruleIds.set(rule.id, place);
      const before = diagnostics.length;
      const knownTools: string[] = [];
      rule.tools.forEach((tool, i) => {
        if (!declared.has(tool)) unknownTool(parsed, `${at}/tools/${i}`, tool);
        else knownTools.push(tool);
      });
      if (rule.when !== undefined) {
        const schemas = knownTools
          .filter((tool) => schemaOf.has(tool))
          .map((tool) => ({ label: tool, schema: schemaOf.get(tool) as JsonSchema }));
        checkCondition(parsed, `${at}/when`, rule.when, schemas, "argument", diagnostics);
      }
      if (rule.context !== undefined) {
        checkCondition(
          parsed,
          `${at}/context`,
          rule.context,
          [{ label: "context", schema: contextSchema }],
          "context",
          diagnostics,
        );
      }
      if (diagnostics.length === before) {
        // The runtime compiles the same condition; anything it refuses that the checks above missed is still an error.
        for (const [what, condition] of [
          ["when", rule.when],
          ["context", rule.context],
        ] as const) {
          if (condition === undefined) continue;
          const compiled = compileCondition(condition);
          if (!compiled.ok) {
            for (const problem of compiled.problems) {
              diagnostics.push(
                diagnosticAt(
                  parsed,
                  childPointer(`${at}/${what}`, problem.field),
                  "config-schema",
                  problem.message,
                ),
              );
            }
          }
        }
      }
      statements.push(ruleStatement({ ...rule, source: source(idPointer) }));
    });
  }

  // Reachability: a rule no stricter than a set entry for every one of its tools can never change a decision.
  for (const { parsed } of layers) {
    ((parsed.data as RawPolicy).rules ?? []).forEach((rule, index) => {
      const blockers = rule.tools.map((tool) => setAction.get(tool));
      if (
        blockers.length === 0 ||
        blockers.some((b) => b === undefined || RANK[b.action] < RANK[rule.decision])
      )
        return;
      const detail = rule.tools
        .map(
          (tool, i) => `${tool} is already ${blockers[i]?.action} by its set entry (${blockers[i]?.place})`,
        )
        .join("; ");
      // The usual cause: "allow these, ask for the rest" written as an ask entry plus an allow rule.
      const stricter = rule.tools.filter(
        (_, i) => RANK[blockers[i]?.action ?? "allow"] > RANK[rule.decision],
      );
      const hint =
        stricter.length === 0
          ? "remove the rule or loosen the entry"
          : `to decide only the calls no rule matches, replace the entry with otherwise: { ${stricter.map((tool) => `${tool}: ${setAction.get(tool)?.action}`).join(", ")} }`;
      diagnostics.push(
        diagnosticAt(
          parsed,
          `/rules/${index}/id`,
          "unreachable-rule",
          `rule "${rule.id}" (${rule.decision}) can never change a decision: ${detail}; ${hint}`,
          { severity: "warning" },
        ),
      );
    });
  }

  // A fallback decides only calls no statement matches: a set entry or a rule without conditions for its tool
  // matches every call, so the fallback never applies.
  const unconditional = new Map<string, string>();
  for (const { parsed } of layers) {
    ((parsed.data as RawPolicy).rules ?? []).forEach((rule, index) => {
      if (rule.when !== undefined || rule.context !== undefined) return;
      const place = `${parsed.file}:${positionOf(parsed, `/rules/${index}/id`).line}`;
      for (const tool of rule.tools)
        if (!unconditional.has(tool)) unconditional.set(tool, `rule "${rule.id}" (${place})`);
    });
  }
  for (const { parsed, pointer, tool } of fallbacks) {
    const entry = setAction.get(tool);
    const blocker =
      entry !== undefined ? `its ${entry.action} entry (${entry.place})` : unconditional.get(tool);
    if (blocker === undefined) continue;
    diagnostics.push(
      diagnosticAt(
        parsed,
        pointer,
        "unreachable-rule",
        `otherwise for "${tool}" never applies: ${blocker} matches every call of ${tool}; remove the fallback, or ${entry !== undefined ? "remove the entry" : "give that rule a condition"} so that the fallback decides the calls nothing else matches`,
        { severity: "warning", prefer: "key" },
      ),
    );
  }

  const mentioned = new Set(statements.flatMap((s) => s.tools));
  // With a policy file unreadable, "no statement" may be false: its own diagnostic says what to fix first.
  const warnings = options.policyComplete === false ? [] : unlisted(tools, mentioned);
  return { statements, diagnostics: [...diagnostics, ...warnings] };
}

function unlisted(tools: readonly BundleTool[], mentioned: ReadonlySet<string>): Diagnostic[] {
  return tools
    .filter((tool) => !mentioned.has(tool.name))
    .map((tool) => ({
      code: "unlisted-tool" as const,
      severity: "warning" as const,
      message: `tool "${tool.name}" has no policy statement, so it is always denied; add it to allow, ask or deny`,
      file: tool.source.file,
      line: tool.source.line,
      column: tool.source.column ?? 1,
    }));
}
