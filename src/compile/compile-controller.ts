/**
 * Compile: one standalone ES module from a `PolicyBundle` — precompiled ajv validators (ajv standalone),
 * the frozen specs and policy statements, the fingerprint, and `createController({ handlers, ... })`, which
 * is one call of the runtime's `assembleController` — plus its TypeScript declarations. The module imports
 * `toolgate/runtime` and `toolgate/compiled` and nothing else: no ajv compiler, no `new Function`, no
 * `eval`, no `require(`. It holds data, never controller wiring of its own. Its policy data and its
 * validators are two functions whose source text it checks against hashes written here when it is imported
 * (`verifyCompiledModule`), so an edit to anything it executes makes it refuse to load.
 */
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { bundleGrantMaxMs } from "../bundle/bundle-parts.js";
import type { PolicyBundle } from "../bundle/policy-bundle.js";
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
import { formattedComment } from "../codegen/formatted-types.js";
import {
  formatTypeScript,
  generatedHeader,
  RUNTIME_MODULE,
  typeDeclarations,
  typesFingerprint,
} from "../codegen/generate-types.js";
import { canonicalJson } from "../runtime/canonical-json.js";
import { sourceIntegrity } from "../runtime/compiled-module.js";
import { fingerprintData, fingerprintOfCanonical } from "../runtime/fingerprint.js";
import { PLANNED_VALIDATOR, planValidator } from "../runtime/schema-plan.js";
import type { JsonSchema } from "../runtime/types.js";
import {
  ajvOptions,
  type SchemaDraft,
  schemaDraft,
  ValidatorFactory,
} from "../validation/argument-validator.js";
import { withJsonEqual } from "../validation/json-equal.js";
import { type RuntimeHelper, type SourcedValidate, standaloneValidators } from "./ajv-standalone.js";

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

/** The entry of the compiled module's plumbing: the controller assembly and ajv's runtime helpers. */
export const COMPILED_MODULE = "toolgate/compiled";

/** The `toolgate/compiled` names the module imports (ajv's helpers reach its validators as an argument). */
const COMPILED_IMPORTS = ["assembleController", "verifyCompiledModule"];

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

interface ValidatorGroup {
  /** The module-level name of the group's validators object. */
  readonly name: string;
  readonly code: Code;
}

/**
 * The validators of one draft's schemas, each compiled separately by one ajv instance and written out by
 * `standaloneValidators`, wrapped so that their names stay private. The group object's keys and the
 * functions they name come from ajv's compiled validators, never from reading the generated text.
 */
function standaloneGroup(
  draft: SchemaDraft,
  entries: readonly SchemaEntry[],
  helpers: Set<RuntimeHelper>,
  ajvFor: CompileModuleOptions["ajvFor"],
): ValidatorGroup {
  const base = ajvOptions();
  const options = { ...base, code: { ...base.code, source: true, esm: true } };
  const ajv: Ajv | Ajv2020 =
    ajvFor?.(draft) ?? (draft === "2020-12" ? new Ajv2020(options) : new Ajv(options));
  const validators = new Map<string, SourcedValidate>();
  // A schema equal (as JSON) to an earlier one of the group is written once: its key names the same
  // function. (The load compiles it once too: ValidatorFactory.compile.)
  const firstKey = new Map<string, string>();
  const keyOf = new Map<string, string>();
  for (const { key, label, schema } of entries) {
    assertNoCommentBreakingId(schema, label);
    const json = JSON.stringify(schema);
    const earlier = firstKey.get(json);
    if (earlier !== undefined) {
      keyOf.set(key, earlier);
      continue;
    }
    firstKey.set(json, key);
    keyOf.set(key, key);
    try {
      validators.set(key, withJsonEqual(() => ajv.compile(schema as JsonSchema & object)) as SourcedValidate);
    } catch (error) {
      throw new EmitError(
        `${label}: ajv refused the schema: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  const standalone = standaloneValidators(validators, helpers);
  const name = draft === "2020-12" ? "draft2020Validators" : "draft07Validators";
  const fields = entries.map(
    ({ key }) => code`${ident(key)}: ${standalone.names.get(keyOf.get(key) as string) as Code}`,
  );
  return {
    name,
    code: code`const ${ident(name)} = (() => {
${standalone.code}
return { ${joinCode(fields, ", ")} };
})();
`,
  };
}

/**
 * The runtime JavaScript of the compiled module. It keeps the bundle's tool order, so that `specs` lists
 * tools as the YAML-loaded controller's registry does (the declarations sort them, as codegen does).
 *
 * Everything the module executes besides its wiring is in two functions, `compiledData` (the policy data,
 * every piece read with `JSON.parse`, so that a `"__proto__"` key is data) and `compiledValidators` (ajv
 * standalone code, which gets ajv's helpers as its argument rather than through imports, so that its text
 * is the same whatever a loader does to import bindings). The SHA-256 of each function's text is written
 * next to them; `verifyCompiledModule` hashes the text again at import and checks the data against the
 * fingerprint, so an edit anywhere in either makes the import fail.
 */
function moduleSource(bundle: PolicyBundle, options: CompileModuleOptions): Code {
  const byDraft = new Map<SchemaDraft, SchemaEntry[]>();
  const validatorRefs: Code[] = [];
  const groupNames = new Map<SchemaDraft, string>();
  const add = (key: string, label: string, schema: JsonSchema): SchemaDraft | "plan" => {
    const draft = schemaDraft(schema);
    if (typeof draft === "object")
      throw new EmitError(`${label}: unsupported $schema "${draft.unsupported}"`);
    // A schema `planValidator` takes carries no ajv code: the module names it PLANNED_VALIDATOR and the
    // runtime builds the validator at import from the schema in the module's data (covered by the
    // fingerprint), as the loaded controller does.
    if (planValidator(schema) !== undefined) return "plan";
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
  const helpers = new Set<RuntimeHelper>();
  const groups: Code[] = [];
  for (const draft of ["2020-12", "draft-07"] as const) {
    const tools = byDraft.get(draft);
    if (tools === undefined) continue;
    const group = standaloneGroup(draft, tools, helpers, options.ajvFor);
    groupNames.set(draft, group.name);
    groups.push(group.code);
  }
  bundle.tools.forEach((tool, index) => {
    const draft = drafts[index];
    if (draft === "plan") {
      validatorRefs.push(code`[${literal(tool.name)}, ${literal(PLANNED_VALIDATOR)}]`);
      return;
    }
    const group = ident(groupNames.get(draft as SchemaDraft) as string);
    validatorRefs.push(code`[${literal(tool.name)}, ${group}.${ident(`v${index}`)}]`);
  });
  const contextValidator =
    contextDraft === undefined
      ? code``
      : contextDraft === "plan"
        ? code`
    context: ${literal(PLANNED_VALIDATOR)},`
        : code`
    context: ${ident(groupNames.get(contextDraft) as string)}.context,`;
  const helperNames = [...helpers].sort().map((n) => ident(n));
  const specs = bundle.tools.map((t) => ({
    name: t.name,
    description: t.description,
    inputSchema: t.inputSchema,
  }));
  const grantMaxMs = bundleGrantMaxMs(bundle);
  const settings = {
    redact: Object.entries(bundle.settings.audit?.redact ?? {}),
    ...(bundle.settings.approvalTtlMs === undefined ? {} : { approvalTtlMs: bundle.settings.approvalTtlMs }),
    ...(grantMaxMs === undefined ? {} : { grantMaxMs }),
  };
  // The canonical text the fingerprint hashes; the module hashes it again at import and checks that the
  // specs, statements and context schema it runs with are that data.
  const configMode = bundle.mode;
  const canonical = canonicalJson(
    fingerprintData(bundle.tools, bundle.statements, bundle.contextSchema, configMode, bundle.aliases),
  );
  // The fingerprint of that very text (what `policyFingerprint` computes, without writing the text twice).
  if (fingerprintOfCanonical(canonical) !== bundle.fingerprint) {
    throw new EmitError("the policy bundle's fingerprint does not match its data; load the policy again");
  }
  const types = typesFingerprint(bundle);
  const dataFunction = code`function compiledData() {
  return {
    typesFingerprint: ${types},
    specs: ${parsedJson(specs)},
    statements: ${parsedJson(bundle.statements)},
    contextSchema: ${parsedJson(bundle.contextSchema)},
    aliases: ${parsedJson(bundle.aliases)},
    canonical: ${canonical},
    settings: ${parsedJson(settings)},
  };
}`;
  const validatorsFunction = code`function compiledValidators({ ${joinCode(helperNames, ", ")} }) {
${groups}
  return {
    tools: [${joinCode(validatorRefs, ", ")}],${contextValidator}
  };
}`;
  return code`${generatedHeader("compile")}import { ToolPolicy } from ${RUNTIME_MODULE};
import { ${joinCode(
    COMPILED_IMPORTS.map((n) => ident(n)),
    ", ",
  )} } from ${COMPILED_MODULE};

${docComment("Fingerprint of the policy bundle this module was compiled from: checked against the data below when the module is imported.")}export const fingerprint = ${bundle.fingerprint};

${docComment("Fingerprint of the tools the argument types come from: equal to the `typesFingerprint` of `toolgate codegen`'s file for the same tools.")}export const typesFingerprint = ${types};

${docComment("The enforcement mode of the configuration (part of the fingerprint); `createController({ mode })` may choose another.")}export const mode = ${configMode};

${docComment("The policy data, each piece read as JSON. Its text is checked against its integrity hash (below) when the module is imported: do not edit it, compile again.")}${dataFunction}

${docComment("The argument and context validators (ajv standalone code). Its text is checked against its integrity hash (below) when the module is imported: do not edit it, compile again.")}${validatorsFunction}

const verified = verifyCompiledModule({
  fingerprint,
  typesFingerprint,
  mode,
  data: compiledData,
  validators: compiledValidators,
  integrity: { data: ${sourceIntegrity(dataFunction.toString())}, validators: ${sourceIntegrity(validatorsFunction.toString())} },
});

${docComment("The tools' specs, as the model sees them (frozen).")}export const specs = verified.specs;

${docComment("The policy statements, as the bundle holds them (frozen).")}export const statements = verified.statements;

${docComment("The tool aliases of the tool files: each a host's tool read as a declared tool (frozen; checked against the fingerprint).")}export const aliases = verified.aliases;

${docComment("The policy (immutable).")}export const policy = ToolPolicy.fromStatements(statements, fingerprint);

const parts = { ...verified.parts, policy };

${docComment(
  "Creates a controller over the compiled policy (its options: `CreateControllerOptions` in the declarations).",
  "@throws ControllerSetupError when a tool that can run has no handler, or a handler names no tool.",
)}export function createController(options) {
  return assembleController(parts, options);
}
`;
}

/** A JSDoc block of a member, indented as prettier writes it inside an interface. */
function memberDoc(text: string): Code {
  return verbatim("formatted-types", `${formattedComment(text, "  ").join("\n").trimStart()}\n  `);
}

/**
 * The TypeScript declarations of the compiled module: self-contained argument types and `createController`.
 * The text around the argument types is written formatted; it goes through prettier only when the types do
 * not come formatted (see `typeDeclarations`).
 */
async function declarationSource(
  bundle: PolicyBundle,
  options: { readonly formatted?: boolean } = {},
): Promise<string> {
  const types = await typeDeclarations(bundle, options);
  const file = code`${generatedHeader("compile")}import type {
  ApprovalRequestedHook,
  ApprovalStore,
  AuditSink,
  ControllerMode,
  NotificationErrorHandler,
  OnAsk,
  PendingApprovals,
  StatementSpec,
  ToolAlias,
  ToolContext,
  ToolController,
  ToolPolicy,
  ToolSpec,
} from ${RUNTIME_MODULE};

${docComment("Fingerprint of the policy bundle this module was compiled from.")}export declare const fingerprint: ${bundle.fingerprint};

${docComment("Fingerprint of the tools the argument types come from (see `toolgate codegen`).")}export declare const typesFingerprint: ${typesFingerprint(bundle)};

${docComment("The enforcement mode of the configuration this module was compiled from.")}export declare const mode: ${bundle.mode};

${docComment("The tools' specs, as the model sees them (frozen).")}export declare const specs: readonly ToolSpec[];

${docComment("The policy statements (frozen).")}export declare const statements: readonly StatementSpec[];

${docComment("The tool aliases of the tool files: each a host's tool read as a declared tool (frozen).")}export declare const aliases: readonly ToolAlias[];

${docComment("The policy (immutable).")}export declare const policy: ToolPolicy;

${types.code}
${docComment("Options of the compiled `createController`.")}export interface CreateControllerOptions {
  ${memberDoc("One handler per tool, typed by the tool's input schema.")}readonly handlers: ToolHandlers;
  ${memberDoc("Pending approvals, or the store to keep them in (memory by default). Store URLs are not accepted here.")}readonly approvals?: PendingApprovals | ApprovalStore;
  ${memberDoc("Where each step is recorded; nothing is recorded unless given.")}readonly audit?: AuditSink;
  ${memberDoc("What to do with an ask decision: queue it for a person (default) or deny it.")}readonly onAsk?: OnAsk;
  ${memberDoc("`enforce`, `observe` or `ci`; default: the compiled `mode`. Another mode decides under that mode's fingerprint.")}readonly mode?: ControllerMode;
  ${memberDoc("Called when an approval request is stored (not awaited by the decision); the config's `notify` list is not compiled in: pass `webhookNotifier`/`commandNotifier` from toolgate here.")}readonly onApprovalRequested?: ApprovalRequestedHook;
  ${memberDoc("Receives notifier failures (default: a process warning).")}readonly onNotificationError?: NotificationErrorHandler;
  ${memberDoc("How long approval requests stay usable, in milliseconds (default: the config's approval_ttl_ms, else one hour).")}readonly approvalTtlMs?: number;
  ${memberDoc("Ceiling on one call's arguments (and the context) as compact JSON in UTF-8 bytes (default 1 MiB).")}readonly maxArgumentBytes?: number;
  ${memberDoc("When set, a handler that has not settled after this many milliseconds gives an error result.")}readonly handlerTimeoutMs?: number;
}

${docComment(
  "Creates a controller over the compiled policy and the application's handlers.",
  "@throws ControllerSetupError when a tool that can run has no handler, or a handler names no tool.",
)}export declare function createController(options: CreateControllerOptions): ToolController;
`;
  return types.formatted ? file.toString() : formatTypeScript(file);
}

/** The compiled declarations with `formatted: false`: the prettier path whatever the schemas (for tests). */
export function compiledDeclarationsWith(
  bundle: PolicyBundle,
  options: { readonly formatted?: boolean },
): Promise<string> {
  return declarationSource(bundle, options);
}

/**
 * Compiles a bundle into a standalone controller module and its declarations.
 * @throws EmitError when a schema cannot be compiled standalone (for example an `$id` that would break
 *   out of ajv's source comment).
 */
export async function compileController(bundle: PolicyBundle): Promise<CompiledController> {
  return compileControllerWith(bundle);
}

/**
 * `compileController` with the module's options: `toolgate compile` passes the ajv instances its load compiled
 * the schemas with (`compileFactory`), so that no schema is compiled twice.
 */
export async function compileControllerWith(
  bundle: PolicyBundle,
  options: CompileModuleOptions = {},
): Promise<CompiledController> {
  return { module: compileControllerModule(bundle, options), declarations: await declarationSource(bundle) };
}

/**
 * A validator factory whose ajv instances compile as `toolgate compile` does when it is given none (ajv's
 * optimisation pass, the code kept as ES module source): a load through it checks the schemas with the very
 * validators the module is then written from (`ajvFor`).
 */
export function compileFactory(): ValidatorFactory {
  return new ValidatorFactory({ code: { source: true, esm: true, optimize: 1 } });
}

/** Options of `compileControllerModule`. */
export interface CompileModuleOptions {
  /**
   * The ajv instance to compile each draft's schemas with, made with `ajvOptions()` and `code.source` (the
   * hook's load: `loadPolicyResultSyncWith`). ajv keeps what it compiled by schema object, so a schema the
   * load compiled is written from the validator the load decides with, not compiled again. Default: a new
   * instance per draft, with ajv's optimisation pass (what `toolgate compile` writes).
   */
  readonly ajvFor?: (draft: SchemaDraft) => Ajv;
}

/**
 * The compiled controller's module alone, without its declarations (which need prettier): what the hook's
 * controller cache keeps.
 * @throws EmitError as `compileController`.
 */
export function compileControllerModule(bundle: PolicyBundle, options: CompileModuleOptions = {}): string {
  const module = moduleSource(bundle, options).toString();
  if (module.includes("require(")) throw new EmitError("the compiled module would contain require(");
  // Policy data is read with JSON.parse; a `__proto__` anywhere outside a string literal would be an
  // object-literal key that sets a prototype instead of holding data.
  if (codeOutsideStrings(module).includes("__proto__")) {
    throw new EmitError('the compiled module would write a "__proto__" key as code, not as data');
  }
  return module;
}

/** Where a string literal or a block comment may start. */
const OPENING = /["']|\/\*/g;
/** What ends a string literal of each quote, or escapes a character inside it. */
const CLOSING: Readonly<Record<string, RegExp>> = { '"': /["\\]/g, "'": /['\\]/g };

/**
 * The text of generated code without its string literals and block comments. (It jumps from one opening
 * quote or comment to the next, and inside a string from one quote or backslash to the next: a compiled
 * module of a few megabytes is read in a few milliseconds.)
 */
export function codeOutsideStrings(text: string): string {
  const pieces: string[] = [];
  let from = 0;
  for (;;) {
    OPENING.lastIndex = from;
    const open = OPENING.exec(text);
    if (open === null) break;
    pieces.push(text.slice(from, open.index));
    if (open[0] === "/*") {
      const close = text.indexOf("*/", open.index + 2);
      from = close < 0 ? text.length : close + 2;
      continue;
    }
    const closing = CLOSING[open[0]] as RegExp;
    let i = open.index + 1;
    for (;;) {
      closing.lastIndex = i;
      const end = closing.exec(text);
      if (end === null) {
        i = text.length;
        break;
      }
      if (end[0] === "\\") {
        i = end.index + 2;
        continue;
      }
      i = end.index;
      break;
    }
    from = i + 1;
  }
  pieces.push(text.slice(from));
  return pieces.join("");
}
