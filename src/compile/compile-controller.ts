/**
 * Compile: one standalone ES module from a `PolicyBundle` — precompiled ajv validators (ajv standalone),
 * the frozen specs and policy statements, the fingerprint, and `createController({ handlers, ... })` —
 * plus its TypeScript declarations. The module imports `toolgate/runtime` and nothing else: no ajv
 * compiler, no `new Function`, no `eval`, no `require(`.
 */
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import standaloneModule from "ajv/dist/standalone/index.js";
import {
  type Code,
  code,
  docComment,
  EmitError,
  ident,
  joinCode,
  literal,
  parsedJson,
  verbatim,
} from "../codegen/emit.js";
import {
  formatTypeScript,
  generatedHeader,
  RUNTIME_MODULE,
  typeDeclarations,
} from "../codegen/generate-types.js";
import type { PolicyBundle } from "../config/policy-bundle.js";
import type { JsonSchema } from "../runtime/types.js";
import { ajvOptions, type SchemaDraft, schemaDraft } from "../validation/argument-validator.js";

const standaloneCode = standaloneModule.default;

/** The compiled controller: the module's text and its declarations' text. */
export interface CompiledController {
  /** The ES module (`.mjs`). */
  readonly module: string;
  /** Its TypeScript declarations (`.d.mts` next to a `.mjs`). */
  readonly declarations: string;
}

/** The declaration file that belongs next to a compiled module: `.d.mts` for `.mjs`, `.d.ts` for `.js`. */
export function declarationPathFor(modulePath: string): string {
  if (modulePath.endsWith(".mjs")) return `${modulePath.slice(0, -".mjs".length)}.d.mts`;
  if (modulePath.endsWith(".js")) return `${modulePath.slice(0, -".js".length)}.d.ts`;
  throw new EmitError(
    `the compiled controller must be an ES module file ending in .mjs or .js, not ${modulePath}`,
  );
}

// ajv standalone refers to its runtime helpers with `require(...)`; the compiled module imports them
// from toolgate/runtime instead (ajv issues 1976 and 2209).
const AJV_HELPERS: ReadonlyMap<string, string> = new Map([
  ['require("ajv/dist/runtime/ucs2length").default', "ajvUcs2length"],
  ['require("ajv/dist/runtime/equal").default', "ajvEqual"],
  ['require("ajv/dist/runtime/validation_error").default', "AjvValidationError"],
]);

/** The runtime names the module body below uses, besides the ajv helpers. */
const RUNTIME_IMPORTS = [
  "PendingApprovals",
  "ToolController",
  "ToolPolicy",
  "ToolRegistry",
  "ToolRuntime",
  "ToolgateError",
  "assertHandlersFit",
  "deepFreeze",
  "fromAjvValidator",
  "refuseHandler",
];

function assertNoCommentBreakingId(schema: unknown, label: string): void {
  if (schema === null || typeof schema !== "object") return;
  for (const [key, value] of Object.entries(schema)) {
    // ajv writes a schema's $id into a `/*# sourceURL=... */` comment of the standalone code.
    if (
      (key === "$id" || key === "id") &&
      typeof value === "string" &&
      /\*\/|[\r\n\u2028\u2029]/.test(value)
    ) {
      throw new EmitError(
        `${label}: the $id ${JSON.stringify(value)} cannot be compiled; remove "*/" and line breaks`,
      );
    }
    assertNoCommentBreakingId(value, label);
  }
}

/** A schema to compile standalone: a tool's input schema or the context schema. */
interface SchemaEntry {
  /** Its name in the group's validators object. */
  readonly key: string;
  /** What it is, for messages: `tool "read_file"` or `context_schema`. */
  readonly label: string;
  readonly schema: JsonSchema;
}

/** The index just past the JSON value that starts at `start` (ajv writes schema constants as JSON). */
function endOfJson(source: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < source.length; i++) {
    const c = source[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return i + 1;
    } else if (depth === 0 && (c === ";" || c === ",")) return i;
  }
  return -1;
}

/**
 * ajv standalone declares every root schema as a constant (`const schema31 = {…};`), used or not. Those
 * that nothing refers to are dropped: at 500 tools they are a large share of the module, and parsing is
 * most of a compiled controller's start-up. Declarations are found outside string literals only (ajv
 * writes every string with double quotes), so that a description that looks like one is left alone; a
 * name that occurs anywhere else, even inside a string, keeps its declaration.
 */
function dropUnusedSchemaConstants(source: string): string {
  const uses = new Map<string, number>();
  for (const [name] of source.matchAll(/\bschema\d+\b/g)) uses.set(name, (uses.get(name) ?? 0) + 1);
  const declaration = /const (schema\d+) = /y;
  const parts: string[] = [];
  let from = 0;
  let inString = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      continue;
    }
    if (c !== "c" || (i > 0 && !/[;{}\s]/.test(source[i - 1] as string))) continue;
    declaration.lastIndex = i;
    const match = declaration.exec(source);
    if (match === null || uses.get(match[1] as string) !== 1) continue;
    const end = endOfJson(source, i + match[0].length);
    if (end < 0 || source[end] !== ";") continue;
    parts.push(source.slice(from, i));
    from = end + 1;
    i = end;
  }
  parts.push(source.slice(from));
  return parts.join("");
}

interface ValidatorGroup {
  /** The module-level name of the group's validators object. */
  readonly name: string;
  readonly code: Code;
}

/** ajv standalone code of one draft's tools, wrapped so that its names stay private. */
function standaloneGroup(
  draft: SchemaDraft,
  tools: readonly SchemaEntry[],
  helpers: Set<string>,
): ValidatorGroup {
  const base = ajvOptions();
  const options = { ...base, code: { ...base.code, source: true, esm: true } };
  const ajv: Ajv | Ajv2020 = draft === "2020-12" ? new Ajv2020(options) : new Ajv(options);
  for (const { key, label, schema } of tools) {
    assertNoCommentBreakingId(schema, label);
    try {
      ajv.addSchema(schema as JsonSchema & object, key);
    } catch (error) {
      throw new EmitError(
        `${label}: ajv refused the schema: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  let source = standaloneCode(ajv, Object.fromEntries(tools.map(({ key }) => [key, key])));
  source = dropUnusedSchemaConstants(source.replace(/^"use strict";/, ""));
  const exported = new Map<string, string>();
  source = source.replace(
    /export const (v\d+|context) = ([A-Za-z_$][\w$]*);/g,
    (_match, key: string, fn: string) => {
      exported.set(key, fn);
      return "";
    },
  );
  for (const [call, name] of AJV_HELPERS) {
    if (source.includes(call)) {
      helpers.add(name);
      source = source.replaceAll(call, name);
    }
  }
  const unknownHelper = /require\("([^"]*)"\)/.exec(source);
  if (unknownHelper !== null) {
    throw new EmitError(
      `ajv standalone code needs the helper ${unknownHelper[1]}, which toolgate/runtime does not export`,
    );
  }
  // What is left of `require(` can only be text inside string literals (a description, a pattern):
  // written `require\u0028`, it is the same string and no longer looks like a call.
  source = source.replaceAll("require(", "require\\u0028");
  if (exported.size !== tools.length) {
    throw new EmitError(`ajv standalone exported ${exported.size} validators for ${tools.length} tools`);
  }
  const name = draft === "2020-12" ? "draft2020Validators" : "draft07Validators";
  const entries = tools.map(({ key }) => code`${ident(key)}: ${ident(exported.get(key) as string)}`);
  return {
    name,
    code: code`const ${ident(name)} = (() => {
${verbatim("ajv-standalone", source)}
return { ${joinCode(entries, ", ")} };
})();
`,
  };
}

/**
 * The runtime JavaScript of the compiled module. It keeps the bundle's tool order, so that `specs` lists
 * tools as the YAML-loaded controller's registry does (the declarations sort them, as codegen does).
 */
function moduleSource(bundle: PolicyBundle): Code {
  const byDraft = new Map<SchemaDraft, SchemaEntry[]>();
  const validatorRefs: Code[] = [];
  const groupNames = new Map<SchemaDraft, string>();
  const add = (key: string, label: string, schema: JsonSchema): SchemaDraft => {
    const draft = schemaDraft(schema);
    if (typeof draft === "object")
      throw new EmitError(`${label}: unsupported $schema "${draft.unsupported}"`);
    const list = byDraft.get(draft) ?? [];
    list.push({ key, label, schema });
    byDraft.set(draft, list);
    return draft;
  };
  const drafts = bundle.tools.map((tool, index) => add(`v${index}`, `tool "${tool.name}"`, tool.inputSchema));
  // The caller context is validated against the config's context_schema before any decision, as the
  // YAML-loaded controller does.
  const contextDraft =
    bundle.contextSchema === null ? undefined : add("context", "context_schema", bundle.contextSchema);
  const helpers = new Set<string>();
  const groups: Code[] = [];
  for (const draft of ["2020-12", "draft-07"] as const) {
    const tools = byDraft.get(draft);
    if (tools === undefined) continue;
    const group = standaloneGroup(draft, tools, helpers);
    groupNames.set(draft, group.name);
    groups.push(group.code);
  }
  drafts.forEach((draft, index) => {
    validatorRefs.push(
      code`fromAjvValidator(${ident(groupNames.get(draft) as string)}.${ident(`v${index}`)})`,
    );
  });
  const contextValidator =
    contextDraft === undefined
      ? code`undefined`
      : code`fromAjvValidator(${ident(groupNames.get(contextDraft) as string)}.context)`;
  const imports = [...RUNTIME_IMPORTS, "schemaPattern", ...[...helpers].sort()].map((n) => ident(n));
  const specs = bundle.tools.map((t) => ({
    name: t.name,
    description: t.description,
    inputSchema: t.inputSchema,
  }));
  const redact = Object.entries(bundle.settings.audit?.redact ?? {});
  return code`${generatedHeader("compile")}import { ${joinCode(imports, ", ")} } from ${RUNTIME_MODULE};

${groups}
${docComment("Fingerprint of the policy bundle this module was compiled from.")}export const fingerprint = ${bundle.fingerprint};

${docComment("The tools' specs, as the model sees them (frozen).")}export const specs = deepFreeze(${parsedJson(specs)});

${docComment("The policy statements (frozen), as the bundle holds them.")}export const statements = deepFreeze(${parsedJson(bundle.statements)});

${docComment("The policy (immutable).")}export const policy = ToolPolicy.fromStatements(statements, fingerprint);

const validators = [${joinCode(validatorRefs, ", ")}];

const redact = new Map(${literal(redact)});

const contextValidator = ${contextValidator};

${docComment(
  "Creates a controller over the compiled policy and the application's handlers.",
  "@param options `handlers` by tool name; `approvals`: a `PendingApprovals` or an `ApprovalStore` (memory by default); `audit`: an `AuditSink`; `onAsk`: `queue` (default) or `deny`; `approvalTtlMs`.",
  "@throws ControllerSetupError when a tool that can run has no handler, or a handler names no tool.",
)}export function createController(options) {
  const handlers = options === null || typeof options !== "object" ? undefined : options.handlers;
  assertHandlersFit(specs.map((spec) => spec.name), policy, handlers);
  const definitions = specs.map((spec, index) => ({
    spec,
    validateArguments: validators[index],
    handler: Object.hasOwn(handlers, spec.name) ? handlers[spec.name] : refuseHandler,
  }));
  const given = options.approvals;
  if (typeof given === "string") {
    throw new ToolgateError("invalid-option", "a compiled controller takes approvals as a PendingApprovals or an ApprovalStore object, not a URL; open the store with toolgate's openApprovalStore");
  }
  if (typeof options.audit === "string") {
    throw new ToolgateError("invalid-option", "a compiled controller takes audit as an AuditSink object, not a URL; open the sink with toolgate's openAuditSink");
  }
  const approvals = given instanceof PendingApprovals ? given : new PendingApprovals({
    ...(given === undefined ? {} : { store: given }),
    ...(options.approvalTtlMs === undefined ? {} : { ttlMs: options.approvalTtlMs }),
  });
  return new ToolController({
    runtime: new ToolRuntime(new ToolRegistry(definitions)),
    policy,
    approvals,
    ...(options.audit === undefined ? {} : { audit: options.audit }),
    redact,
    ...(options.onAsk === undefined ? {} : { onAsk: options.onAsk }),
    ...(contextValidator === undefined ? {} : { contextValidator }),
  });
}
`;
}

/** The TypeScript declarations of the compiled module: self-contained argument types and `createController`. */
async function declarationSource(bundle: PolicyBundle): Promise<string> {
  const types = await typeDeclarations(bundle);
  return formatTypeScript(code`${generatedHeader("compile")}import type {
  ApprovalStore,
  AuditSink,
  OnAsk,
  PendingApprovals,
  StatementSpec,
  ToolContext,
  ToolController,
  ToolPolicy,
  ToolSpec,
} from ${RUNTIME_MODULE};

${docComment("Fingerprint of the policy bundle this module was compiled from.")}export declare const fingerprint: ${bundle.fingerprint};

${docComment("The tools' specs, as the model sees them (frozen).")}export declare const specs: readonly ToolSpec[];

${docComment("The policy statements (frozen).")}export declare const statements: readonly StatementSpec[];

${docComment("The policy (immutable).")}export declare const policy: ToolPolicy;

${types}
${docComment("Options of the compiled `createController`.")}export interface CreateControllerOptions {
  ${docComment("One handler per tool, typed by the tool's input schema.")}readonly handlers: ToolHandlers;
  ${docComment("Pending approvals, or the store to keep them in (memory by default). Store URLs are not accepted here.")}readonly approvals?: PendingApprovals | ApprovalStore;
  ${docComment("Where each step is recorded; nothing is recorded unless given.")}readonly audit?: AuditSink;
  ${docComment("What to do with an ask decision: queue it for a person (default) or deny it.")}readonly onAsk?: OnAsk;
  ${docComment("How long approval requests stay usable, in milliseconds (default one hour).")}readonly approvalTtlMs?: number;
}

${docComment(
  "Creates a controller over the compiled policy and the application's handlers.",
  "@throws ControllerSetupError when a tool that can run has no handler, or a handler names no tool.",
)}export declare function createController(options: CreateControllerOptions): ToolController;
`);
}

/**
 * Compiles a bundle into a standalone controller module and its declarations.
 * @throws EmitError when a schema cannot be compiled standalone (for example an `$id` that would break
 *   out of ajv's source comment).
 */
export async function compileController(bundle: PolicyBundle): Promise<CompiledController> {
  const module = moduleSource(bundle).toString();
  if (module.includes("require(")) throw new EmitError("the compiled module would contain require(");
  return { module, declarations: await declarationSource(bundle) };
}
