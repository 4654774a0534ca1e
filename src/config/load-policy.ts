/**
 * YAML → PolicyBundle: discover the config, read and parse every file safely, validate each against its
 * schema, run the semantic checks, and build the frozen, fingerprinted bundle. Every problem is reported
 * at once; a bundle exists only when there is no error.
 */
import { readFileSync, statSync } from "node:fs";
import { basename, dirname, extname, relative, resolve, sep } from "node:path";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { hasErrors, sortDiagnostics } from "../diagnostics/diagnostic.js";
import { ToolgateError } from "../runtime/errors.js";
import type { ArgumentValidator, JsonSchema } from "../runtime/types.js";
import { sharedValidatorFactory, type ValidatorFactory } from "../validation/argument-validator.js";
import { checkPolicy, type PolicyLayer } from "./check-policy.js";
import { checkTools, locateSchemaProblem, toolNameProblem } from "./check-tools.js";
import { findConfig } from "./discover.js";
import { expandPattern } from "./expand-globs.js";
import {
  diagnosticAt,
  fileDiagnostic,
  MAX_FILE_BYTES,
  type ParsedFile,
  parseYaml,
  positionOf,
} from "./parse-yaml.js";
import {
  type BundleSettings,
  deepFreeze,
  fingerprintOf,
  type PolicyBundle,
  type PolicyTestCase,
} from "./policy-bundle.js";
import { type FileKind, validateAgainstSchema } from "./validate-schema.js";

/** Where to load from. */
export interface LoadOptions {
  /** An explicit config file (`--config`), relative to `cwd`. */
  readonly config?: string;
  /** Working directory: where discovery starts and what diagnostic paths are relative to. */
  readonly cwd?: string;
}

/** The outcome of loading, with everything found. */
export interface LoadResult {
  /** Present only when no diagnostic is an error. */
  readonly bundle?: PolicyBundle;
  readonly diagnostics: readonly Diagnostic[];
  /** False when no configuration file could be found at all (a usage error for the CLI). */
  readonly configFound: boolean;
  /** The argument validators compiled while checking, by tool name (reused by `createController`). */
  readonly validators: ReadonlyMap<string, ArgumentValidator>;
}

/** Thrown by `loadPolicy` when the configuration has errors; carries all of them. */
export class PolicyConfigError extends ToolgateError {
  readonly diagnostics: readonly Diagnostic[];
  constructor(diagnostics: readonly Diagnostic[]) {
    const errors = diagnostics.filter((d) => d.severity === "error");
    const first = errors[0];
    const where =
      first === undefined
        ? ""
        : `: ${first.file}:${first.line}:${first.column} ${first.message} (${first.code})`;
    const more = errors.length > 1 ? ` and ${errors.length - 1} more` : "";
    super("policy-config", `the toolgate configuration has ${errors.length} error(s)${where}${more}`);
    this.diagnostics = diagnostics;
  }
}

const validatorCache = new WeakMap<PolicyBundle, ReadonlyMap<string, ArgumentValidator>>();

/** Validators compiled while loading a bundle, if this process loaded it. */
export function cachedValidators(bundle: PolicyBundle): ReadonlyMap<string, ArgumentValidator> | undefined {
  return validatorCache.get(bundle);
}

function toDisplayPath(cwd: string, absolute: string): string {
  const rel = relative(cwd, absolute);
  return (rel === "" ? "." : rel).split(sep).join("/");
}

class Reader {
  readonly diagnostics: Diagnostic[] = [];
  constructor(readonly cwd: string) {}

  /** Reads, parses and schema-checks a file; `undefined` when it cannot be used (diagnostics say why). */
  read(
    absolute: string,
    kind: FileKind,
    from?: { parsed: ParsedFile; pointer: string },
    onSchemaProblems?: (parsed: ParsedFile) => void,
  ): ParsedFile | undefined {
    const file = toDisplayPath(this.cwd, absolute);
    const notFound = (message: string) =>
      this.diagnostics.push(
        from === undefined
          ? fileDiagnostic(file, "file-not-found", message)
          : diagnosticAt(from.parsed, from.pointer, "file-not-found", message),
      );
    let bytes: Uint8Array;
    try {
      const stat = statSync(absolute);
      if (!stat.isFile()) {
        notFound(`${file} is not a file`);
        return undefined;
      }
      if (stat.size > MAX_FILE_BYTES) {
        this.diagnostics.push(
          fileDiagnostic(
            file,
            "file-too-large",
            `file is ${stat.size} bytes; policy files may be at most ${MAX_FILE_BYTES} bytes (1 MiB): split it`,
          ),
        );
        return undefined;
      }
      bytes = readFileSync(absolute);
    } catch {
      notFound(`${file} does not exist; check the path (paths are relative to the file that names them)`);
      return undefined;
    }
    const parsed = parseYaml(bytes, file);
    this.diagnostics.push(...parsed.diagnostics);
    if (!parsed.ok) return undefined;
    if (parsed.value.data === null || parsed.value.data === undefined) {
      this.diagnostics.push(
        fileDiagnostic(
          file,
          "config-schema",
          `the file is empty; a ${kind} file must be a mapping (see schemas/${kind}.schema.json)`,
        ),
      );
      return undefined;
    }
    const schemaProblems = validateAgainstSchema(parsed.value, kind);
    this.diagnostics.push(...schemaProblems);
    if (schemaProblems.length === 0) return parsed.value;
    onSchemaProblems?.(parsed.value);
    return undefined;
  }

  /**
   * Expands the patterns of a list key; a pattern that names no file is `file-not-found`, one that is not a
   * glob is `invalid-glob`. `complete` is false when any pattern failed.
   */
  expand(
    base: string,
    patterns: readonly string[],
    config: ParsedFile,
    key: string,
  ): { files: string[]; complete: boolean } {
    const files: string[] = [];
    let complete = true;
    patterns.forEach((pattern, index) => {
      const expanded = expandPattern(base, pattern);
      if (!expanded.ok) {
        complete = false;
        this.diagnostics.push(diagnosticAt(config, `/${key}/${index}`, "invalid-glob", expanded.message));
        return;
      }
      if (expanded.files.length === 0) {
        complete = false;
        this.diagnostics.push(
          diagnosticAt(
            config,
            `/${key}/${index}`,
            "file-not-found",
            `"${pattern}" matches no file; check the pattern`,
          ),
        );
      }
      for (const f of expanded.files) {
        const absolute = resolve(base, f);
        if (!files.includes(absolute)) files.push(absolute);
      }
    });
    return { files, complete };
  }
}

interface RawConfig {
  readonly tools: readonly string[];
  readonly policy: string;
  readonly tests?: readonly string[];
  readonly context_schema?: JsonSchema;
  readonly codegen?: { readonly out: string };
  readonly compile?: { readonly out: string };
  readonly approvals?: string;
  readonly audit?: {
    readonly sink: string;
    readonly redact?: { readonly [tool: string]: "all" | readonly string[] };
  };
}

/** Reads the config file (or the `toolgate` key of package.json) into a ParsedFile. */
function readConfig(reader: Reader, path: string, packageJson: boolean): ParsedFile | undefined {
  if (!packageJson) return reader.read(path, "config");
  const file = toDisplayPath(reader.cwd, path);
  const parsed = parseYaml(readFileSync(path), file);
  reader.diagnostics.push(...parsed.diagnostics);
  if (!parsed.ok) return undefined;
  const prefix = "/toolgate";
  const positions = new Map(
    [...parsed.value.positions]
      .filter(([pointer]) => pointer === prefix || pointer.startsWith(`${prefix}/`))
      .map(([pointer, position]) => [pointer.slice(prefix.length), position] as const),
  );
  const data = parsed.value.data;
  if (data === null || typeof data !== "object" || !Object.hasOwn(data, "toolgate")) {
    // Only an explicit --config gets here: discovery skips a package.json without the key.
    reader.diagnostics.push(
      fileDiagnostic(
        file,
        "config-schema",
        `${file} has no "toolgate" key; add one with tools and policy, or point --config at a toolgate.config.yaml`,
      ),
    );
    return undefined;
  }
  const config: ParsedFile = { file, data: (data as { toolgate?: unknown }).toolgate, positions };
  const problems = validateAgainstSchema(config, "config");
  reader.diagnostics.push(...problems);
  return problems.length === 0 ? config : undefined;
}

/**
 * Loads the policy layers, following `extends` depth-first; a cycle is an error. `complete` is false when a
 * policy file could not be loaded.
 */
function readLayers(
  reader: Reader,
  policyPath: string,
  config: ParsedFile,
): { layers: PolicyLayer[]; complete: boolean } {
  const layers: PolicyLayer[] = [];
  let complete = true;
  const loaded = new Set<string>();
  const visit = (
    absolute: string,
    chain: readonly string[],
    from: { parsed: ParsedFile; pointer: string },
  ) => {
    if (loaded.has(absolute)) return;
    loaded.add(absolute);
    const parsed = reader.read(absolute, "policy", from);
    if (parsed === undefined) {
      complete = false;
      return;
    }
    layers.push({ parsed, layer: chain.length, label: basename(absolute, extname(absolute)) });
    const extendsList = (parsed.data as { extends?: readonly string[] }).extends ?? [];
    extendsList.forEach((entry, index) => {
      const target = resolve(dirname(absolute), entry);
      const pointer = `/extends/${index}`;
      if (target === absolute || chain.includes(target)) {
        const cycle = [...chain, absolute, target].map((p) => toDisplayPath(reader.cwd, p)).join(" → ");
        reader.diagnostics.push(
          diagnosticAt(
            parsed,
            pointer,
            "extends-cycle",
            `extends forms a cycle (${cycle}); remove one of the links`,
          ),
        );
        return;
      }
      visit(target, [...chain, absolute], { parsed, pointer });
    });
  };
  visit(policyPath, [], { parsed: config, pointer: "/policy" });
  return { layers, complete };
}

function readTests(
  reader: Reader,
  files: readonly string[],
  statementIds: ReadonlySet<string> | undefined,
): PolicyTestCase[] {
  const cases: PolicyTestCase[] = [];
  for (const absolute of files) {
    const parsed = reader.read(absolute, "tests");
    if (parsed === undefined) continue;
    const tests = (parsed.data as { tests: readonly Record<string, unknown>[] }).tests;
    tests.forEach((test, index) => {
      const at = `/tests/${index}`;
      const call = test.call as { tool: string; arguments?: unknown };
      const rule = test.rule as string | undefined;
      // Without all policy files loaded, the ids are not all known: say nothing rather than something false.
      if (rule !== undefined && statementIds !== undefined && !statementIds.has(rule)) {
        reader.diagnostics.push(
          diagnosticAt(
            parsed,
            `${at}/rule`,
            "unknown-rule",
            `the policy has no rule or entry with id "${rule}"; check the id`,
          ),
        );
      }
      const span = positionOf(parsed, at);
      cases.push({
        name: test.name as string,
        tool: call.tool,
        arguments: call.arguments === undefined ? {} : call.arguments,
        ...(test.context === undefined ? {} : { context: test.context as { [key: string]: unknown } }),
        expect: test.expect as PolicyTestCase["expect"],
        ...(rule === undefined ? {} : { rule }),
        source: { file: parsed.file, line: span.line, column: span.column },
      });
    });
  }
  return cases;
}

/** The valid tool names a tool file declares, read from data that did not match the schema. */
function declaredNames(parsed: ParsedFile): string[] {
  const list = (parsed.data as { tools?: unknown } | null)?.tools;
  if (!Array.isArray(list)) return [];
  return list
    .map((tool: unknown) =>
      tool !== null && typeof tool === "object" ? (tool as { name?: unknown }).name : undefined,
    )
    .filter((name): name is string => typeof name === "string" && toolNameProblem(name) === undefined);
}

/**
 * Loads and checks everything, never throwing for bad input.
 * @returns the bundle when there is no error, and every diagnostic found.
 */
export function loadPolicyResult(options: LoadOptions = {}): LoadResult {
  const factory = sharedValidatorFactory();
  try {
    return loadWith(options, factory);
  } finally {
    factory.reset();
  }
}

function loadWith(options: LoadOptions, factory: ValidatorFactory): LoadResult {
  const cwd = resolve(options.cwd ?? process.cwd());
  const reader = new Reader(cwd);
  const location = findConfig({ cwd, ...(options.config === undefined ? {} : { config: options.config }) });
  if (!location.found) {
    return {
      diagnostics: [fileDiagnostic(options.config ?? ".", "config-not-found", location.message)],
      configFound: false,
      validators: new Map(),
    };
  }
  const config = readConfig(reader, location.path, location.packageJson);
  if (config === undefined)
    return { diagnostics: sortDiagnostics(reader.diagnostics), configFound: true, validators: new Map() };
  const raw = config.data as RawConfig;
  const base = dirname(location.path);

  const toolPatterns = reader.expand(base, raw.tools, config, "tools");
  let toolsComplete = toolPatterns.complete;
  // Tools of a file that fails its schema are still declared: the policy naming them is not a second error.
  const declaredElsewhere = new Set<string>();
  const toolFiles = toolPatterns.files
    .map((file, index) => {
      let rejected = false;
      const parsed = reader.read(file, "tools", { parsed: config, pointer: `/tools/${index}` }, (p) => {
        rejected = true;
        for (const name of declaredNames(p)) declaredElsewhere.add(name);
      });
      if (parsed === undefined && !rejected) toolsComplete = false;
      return parsed;
    })
    .filter((f): f is ParsedFile => f !== undefined);
  const checked = checkTools(toolFiles, factory);
  reader.diagnostics.push(...checked.diagnostics);

  let contextSchema: JsonSchema | null = null;
  if (raw.context_schema !== undefined) {
    const compiled = factory.compile(raw.context_schema);
    if (compiled.ok) contextSchema = raw.context_schema;
    else {
      const problem = locateSchemaProblem(config, "/context_schema", compiled.message);
      reader.diagnostics.push(
        diagnosticAt(
          config,
          problem.pointer,
          "invalid-input-schema",
          `context_schema is not a valid JSON Schema: ${problem.message}`,
          { prefer: problem.prefer },
        ),
      );
    }
  }

  const policyFiles = readLayers(reader, resolve(base, raw.policy), config);
  const policy = checkPolicy(
    policyFiles.layers,
    checked.tools,
    new Set([...checked.declared, ...declaredElsewhere]),
    contextSchema,
    { toolsComplete, policyComplete: policyFiles.complete },
  );
  reader.diagnostics.push(...policy.diagnostics);

  const testFiles = raw.tests === undefined ? [] : reader.expand(base, raw.tests, config, "tests").files;
  const tests = readTests(
    reader,
    testFiles,
    policyFiles.complete ? new Set(policy.statements.map((s) => s.id)) : undefined,
  );

  const diagnostics = sortDiagnostics(reader.diagnostics);
  if (hasErrors(diagnostics)) return { diagnostics, configFound: true, validators: checked.validators };

  const settings: BundleSettings = {
    ...(raw.codegen === undefined ? {} : { codegenOut: raw.codegen.out }),
    ...(raw.compile === undefined ? {} : { compileOut: raw.compile.out }),
    ...(raw.approvals === undefined ? {} : { approvals: raw.approvals }),
    ...(raw.audit === undefined ? {} : { audit: { sink: raw.audit.sink, redact: raw.audit.redact ?? {} } }),
  };
  const bundle: PolicyBundle = deepFreeze({
    kind: "policy-bundle",
    fingerprint: fingerprintOf(checked.tools, policy.statements, contextSchema),
    tools: checked.tools,
    statements: policy.statements,
    contextSchema,
    tests,
    settings,
    configFile: toDisplayPath(cwd, location.path),
    configDir: toDisplayPath(cwd, base),
  });
  validatorCache.set(bundle, checked.validators);
  return { bundle, diagnostics, configFound: true, validators: checked.validators };
}

/**
 * Loads the policy into a frozen `PolicyBundle`.
 * @throws PolicyConfigError carrying every diagnostic when there is any error.
 */
export async function loadPolicy(options: LoadOptions = {}): Promise<PolicyBundle> {
  const result = loadPolicyResult(options);
  if (result.bundle === undefined) throw new PolicyConfigError(result.diagnostics);
  return result.bundle;
}
