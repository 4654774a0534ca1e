/**
 * YAML → PolicyBundle: discover the config, read and parse every file safely, validate each against its
 * schema, run the semantic checks, and build the frozen, fingerprinted bundle. Every problem is reported
 * at once; a bundle exists only when there is no error.
 *
 * The load is written once, as a generator that asks for file contents and marks the places where it may
 * pause; two drivers run it. The asynchronous one (`loadPolicy`, `loadPolicyResult`, `lintPolicy`, the
 * watcher) reads with `fs/promises` and gives the event loop back whenever a slice of work has run long,
 * so that loading a large policy in a running application does not stall it. The synchronous one
 * (`loadPolicyResultSync`) serves the command line and `lintPolicySync`.
 */

import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { basename, dirname, extname, relative, resolve, sep } from "node:path";
import {
  type BundleSettings,
  createBundle,
  type NotifierSetting,
  type PolicyBundle,
  type PolicyTestCase,
} from "../bundle/policy-bundle.js";
import { hasErrors, sortDiagnostics, stageResult, stageValue } from "../diagnostics/diagnostic.js";
import { ToolgateError } from "../runtime/errors.js";
import type { ControllerMode } from "../runtime/mode.js";
import { countOf } from "../runtime/plural.js";
import type { ArgumentValidator, JsonSchema } from "../runtime/types.js";
import {
  schemaDraft,
  sharedValidatorFactory,
  type ValidatorFactory,
} from "../validation/argument-validator.js";
import { checkPolicy, type PolicyLayer } from "./check-policy.js";
import { checkRedact } from "./check-redact.js";
import { checkTools, locateSchemaProblem, toolNameProblem } from "./check-tools.js";
import type { Diagnostic, StageResult } from "./diagnostic-codes.js";
import { findConfig } from "./discover.js";
import { expandPattern } from "./expand-globs.js";
import { nearest } from "./nearest.js";
import {
  diagnosticAt,
  fileDiagnostic,
  MAX_FILE_BYTES,
  type NodePosition,
  type ParsedFile,
  parseYaml,
  positionOf,
} from "./parse-yaml.js";
import { applySeveritySettings, readSeveritySettings, type SeveritySetting } from "./severity-settings.js";
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
  /**
   * The argument validators compiled while checking, by tool name: hand them to `createController`
   * (`validators`), `reloadController` or `runPolicyTests` so that the schemas are not compiled again.
   */
  readonly validators: ReadonlyMap<string, ArgumentValidator>;
  /**
   * Every file the load read or tried to read (the config, tool, policy files with their `extends` layers,
   * test files), by absolute path, with what it found there (`fileToken`): what a watcher must watch, also
   * when the load failed, and what lets it tell whether a file changed after it was read.
   */
  readonly files: ReadonlyMap<string, string>;
}

/** What a load step asks its driver for: a file's contents, or a place where it may give the loop back. */
type LoadRequest = { readonly kind: "read"; readonly path: string } | { readonly kind: "pause" };

/** The driver's answer to a read. `size` is set when the file was too large to read. */
type ReadAnswer =
  | { readonly ok: true; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly reason: "missing" | "not-a-file"; readonly error?: unknown }
  | { readonly ok: false; readonly reason: "too-large"; readonly size: number };

/** A step of the load: yields requests, receives answers (`undefined` after a pause), returns `T`. */
type LoadSteps<T> = Generator<LoadRequest, T, ReadAnswer | undefined>;

const PAUSE: LoadRequest = { kind: "pause" };

function* readRequest(path: string): LoadSteps<ReadAnswer> {
  return (yield { kind: "read", path }) as ReadAnswer;
}

/** What a read found, as a short string: `sha256:…` of the bytes, `missing`, `not-a-file` or `too-large:SIZE`. */
function tokenOf(answer: ReadAnswer): string {
  if (answer.ok) return `sha256:${createHash("sha256").update(answer.bytes).digest("hex")}`;
  return answer.reason === "too-large" ? `too-large:${answer.size}` : answer.reason;
}

/**
 * What a load reading `path` now would find there, as `LoadResult.files` records it: a watcher compares the
 * two to see whether a file changed after the load read it.
 */
export async function fileToken(path: string): Promise<string> {
  return tokenOf(await readAsync(path));
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
    super(
      "policy-config",
      `the toolgate configuration has ${countOf(errors.length, "error")}${where}${more}`,
    );
    this.diagnostics = diagnostics;
  }
}

function toDisplayPath(cwd: string, absolute: string): string {
  const rel = relative(cwd, absolute);
  return (rel === "" ? "." : rel).split(sep).join("/");
}

class Reader {
  readonly diagnostics: Diagnostic[] = [];
  /** Every file read or tried, in order (absolute paths), with what was found (`tokenOf`). */
  readonly files = new Map<string, string>();
  constructor(readonly cwd: string) {}

  /**
   * Takes a stage's result into the load: its diagnostics join the others, and what it hands on (its value,
   * or its `partial` value when it failed) is returned; `undefined` when it has nothing to hand on.
   */
  take<T>(result: StageResult<T>): T | undefined {
    this.diagnostics.push(...result.diagnostics);
    return stageValue(result);
  }

  /** Asks the driver for a file's bytes, and remembers that the load depends on what it found. */
  *bytes(absolute: string): LoadSteps<ReadAnswer> {
    const answer = yield* readRequest(absolute);
    this.files.set(absolute, tokenOf(answer));
    return answer;
  }

  /** Reads, parses and schema-checks a file; `undefined` when it cannot be used (diagnostics say why). */
  *read(
    absolute: string,
    kind: FileKind,
    from?: { parsed: ParsedFile; pointer: string },
    onSchemaProblems?: (parsed: ParsedFile) => void,
  ): LoadSteps<ParsedFile | undefined> {
    const file = toDisplayPath(this.cwd, absolute);
    const notFound = (message: string) =>
      this.diagnostics.push(
        from === undefined
          ? fileDiagnostic(file, "file-not-found", message)
          : diagnosticAt(from.parsed, from.pointer, "file-not-found", message),
      );
    const answer = yield* this.bytes(absolute);
    if (!answer.ok) {
      if (answer.reason === "not-a-file") notFound(`${file} is not a file`);
      else if (answer.reason === "too-large") {
        this.diagnostics.push(
          fileDiagnostic(
            file,
            "file-too-large",
            `file is ${answer.size} bytes; policy files may be at most ${MAX_FILE_BYTES} bytes (1 MiB): split it`,
          ),
        );
      } else {
        notFound(`${file} does not exist; check the path (paths are relative to the file that names them)`);
      }
      return undefined;
    }
    const parsed = this.take(parseYaml(answer.bytes, file));
    // Parsing a large file is the longest step that cannot be split: let the loop run before the next one.
    yield PAUSE;
    if (parsed === undefined) return undefined;
    if (parsed.data === null || parsed.data === undefined) {
      this.diagnostics.push(
        fileDiagnostic(
          file,
          "config-schema",
          `the file is empty; a ${kind} file must be a mapping (see schemas/${kind}.schema.json)`,
        ),
      );
      return undefined;
    }
    const schema = validateAgainstSchema(parsed, kind);
    this.take(schema);
    yield PAUSE;
    if (schema.ok) return schema.value;
    onSchemaProblems?.(parsed);
    if (kind === "config") return undefined;
    // Check the parts that did match (other rules, tools, tests) too, as tsc and ESLint report everything
    // at once; the file counts as incomplete, so nothing is concluded from what is missing.
    const pruned = pruneInvalid(parsed, schema.diagnostics);
    if (pruned === undefined || !validateAgainstSchema(pruned, kind).ok) return undefined;
    this.partial.add(absolute);
    if (kind === "policy") {
      // The ids of rules left out still exist: a test naming one is not an unknown-rule.
      const rules = (parsed.data as { rules?: unknown }).rules;
      for (const rule of Array.isArray(rules) ? rules : []) {
        const id = (rule as { id?: unknown } | null)?.id;
        if (typeof id === "string") this.droppedIds.add(id);
      }
    }
    return pruned;
  }

  /** Rule ids of policy files read without the parts that failed their schema. */
  readonly droppedIds = new Set<string>();

  /** Files that failed their schema and were read without the parts that failed (absolute paths). */
  readonly partial = new Set<string>();

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

/**
 * A parsed file without the parts its schema problems point into: the element two levels down from the
 * root (a rule, a tool, a test, a set entry, one `reasons` entry), or the top-level key when the problem is
 * at that key. Positions follow the elements that stay (list indexes are renumbered). `undefined` when a
 * problem is about the file as a whole.
 */
export function pruneInvalid(parsed: ParsedFile, problems: readonly Diagnostic[]): ParsedFile | undefined {
  const drop = new Set<string>();
  for (const problem of problems) {
    const segments = (problem.path ?? "").split("/").slice(1);
    if (segments.length === 0) return undefined;
    drop.add(`/${segments.slice(0, 2).join("/")}`);
  }
  const data = parsed.data as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const renumber = new Map<string, string>();
  for (const key of Object.keys(data)) {
    const at = `/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
    if (drop.has(at)) continue;
    const value = data[key];
    if (Array.isArray(value)) {
      const kept: unknown[] = [];
      value.forEach((item, index) => {
        if (drop.has(`${at}/${index}`)) return;
        renumber.set(`${at}/${index}`, `${at}/${kept.length}`);
        kept.push(item);
      });
      Object.defineProperty(out, key, { value: kept, enumerable: true, writable: true, configurable: true });
    } else if (value !== null && typeof value === "object") {
      const kept: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        const child = `${at}/${k.replaceAll("~", "~0").replaceAll("/", "~1")}`;
        if (drop.has(child)) continue;
        Object.defineProperty(kept, k, { value: v, enumerable: true, writable: true, configurable: true });
      }
      Object.defineProperty(out, key, { value: kept, enumerable: true, writable: true, configurable: true });
    } else {
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    }
  }
  const positions = new Map<string, NodePosition>();
  for (const [pointer, position] of parsed.positions) {
    const segments = pointer.split("/");
    const head = segments.slice(0, 3).join("/");
    if (drop.has(segments.slice(0, 2).join("/")) || drop.has(head)) continue;
    const moved = renumber.get(head);
    positions.set(moved === undefined ? pointer : `${moved}${pointer.slice(head.length)}`, position);
  }
  return { file: parsed.file, data: out, positions };
}

interface RawConfig {
  readonly tools: readonly string[];
  readonly policy: string;
  readonly tests?: readonly string[];
  readonly context_schema?: JsonSchema;
  readonly codegen?: { readonly out: string };
  readonly compile?: { readonly out: string };
  readonly approvals?: string;
  readonly grants?: { readonly max_hours?: number; readonly session_key?: string };
  readonly severity?: { readonly [code: string]: SeveritySetting };
  readonly audit?: {
    readonly sink: string;
    readonly redact?: { readonly [tool: string]: "all" | readonly string[] };
    readonly otel?: boolean;
  };
  readonly mode?: ControllerMode;
  readonly approval_ttl_ms?: number;
  readonly notify?: readonly RawNotifier[];
  readonly roots?: readonly string[];
}

type RawNotifier =
  | {
      readonly kind: "webhook";
      readonly url: string;
      readonly secret_env?: string;
      readonly secret_file?: string;
      readonly timeout_ms?: number;
      readonly max_attempts?: number;
    }
  | { readonly kind: "command"; readonly command: readonly string[]; readonly timeout_ms?: number };

/**
 * A webhook's secret comes from one place: with both `secret_env` and `secret_file`, which one signs would be a
 * guess (the schema requires one of them; "not both" gets this message at the second key).
 */
function checkNotifierSecrets(config: ParsedFile, notify: unknown): Diagnostic[] {
  if (!Array.isArray(notify)) return [];
  return notify.flatMap((entry: unknown, index) =>
    entry !== null &&
    typeof entry === "object" &&
    Object.hasOwn(entry, "secret_env") &&
    Object.hasOwn(entry, "secret_file")
      ? [
          diagnosticAt(
            config,
            `/notify/${index}/secret_file`,
            "config-schema",
            "a webhook takes its secret from secret_env or secret_file, not both; keep one",
            { prefer: "key" },
          ),
        ]
      : [],
  );
}

/**
 * The config's `roots` (the schema has checked they are non-empty strings): a root is a directory named as it
 * is, so a `~` (which no shell expands here), a NUL byte or a Windows path is refused at its own position,
 * saying what to write instead.
 */
function checkRoots(config: ParsedFile, roots: unknown): Diagnostic[] {
  if (!Array.isArray(roots)) return [];
  const problems: Diagnostic[] = [];
  roots.forEach((root: unknown, index) => {
    if (typeof root !== "string" || root === "") return;
    const why = root.includes("\0")
      ? "holds a NUL byte, which no directory name may hold"
      : root.startsWith("~")
        ? "starts with ~, which is not expanded here; write the absolute path of the directory"
        : /^[A-Za-z]:[\\/]|\\/.test(root)
          ? "is a Windows path (or holds a backslash); roots are POSIX directories, absolute or relative to this file"
          : undefined;
    if (why === undefined) return;
    problems.push(
      diagnosticAt(
        config,
        `/roots/${index}`,
        "config-schema",
        `roots[${index}] ${JSON.stringify(root)} ${why}`,
      ),
    );
  });
  return problems;
}

/** The `notify` list as the bundle holds it (camelCase keys, absent keys left out). */
function notifierSettings(raw: readonly RawNotifier[]): NotifierSetting[] {
  return raw.map((n) =>
    n.kind === "webhook"
      ? {
          kind: "webhook",
          url: n.url,
          ...(n.secret_env === undefined ? {} : { secretEnv: n.secret_env }),
          ...(n.secret_file === undefined ? {} : { secretFile: n.secret_file }),
          ...(n.timeout_ms === undefined ? {} : { timeoutMs: n.timeout_ms }),
          ...(n.max_attempts === undefined ? {} : { maxAttempts: n.max_attempts }),
        }
      : {
          kind: "command",
          command: n.command,
          ...(n.timeout_ms === undefined ? {} : { timeoutMs: n.timeout_ms }),
        },
  );
}

/** Reads the config file (or the `toolgate` key of package.json) into a ParsedFile. */
function* readConfig(reader: Reader, path: string, packageJson: boolean): LoadSteps<ParsedFile | undefined> {
  if (!packageJson) return yield* reader.read(path, "config");
  const file = toDisplayPath(reader.cwd, path);
  const answer = yield* reader.bytes(path);
  // Discovery has just found this package.json: a failure to read it now is an I/O error, not a finding.
  if (!answer.ok)
    throw answer.reason === "too-large"
      ? new ToolgateError("file-too-large", `${file} is too large`)
      : answer.error;
  const parsed = reader.take(parseYaml(answer.bytes, file));
  if (parsed === undefined) return undefined;
  const prefix = "/toolgate";
  const positions = new Map(
    [...parsed.positions]
      .filter(([pointer]) => pointer === prefix || pointer.startsWith(`${prefix}/`))
      .map(([pointer, position]) => [pointer.slice(prefix.length), position] as const),
  );
  const data = parsed.data;
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
  const schema = validateAgainstSchema(config, "config");
  reader.take(schema);
  return schema.ok ? schema.value : undefined;
}

/**
 * Loads the policy layers, following `extends` depth-first; a cycle is an error. `complete` is false when a
 * policy file could not be loaded.
 */
function* readLayers(
  reader: Reader,
  policyPath: string,
  config: ParsedFile,
): LoadSteps<{ layers: PolicyLayer[]; complete: boolean; allRead: boolean }> {
  const layers: PolicyLayer[] = [];
  let complete = true;
  // Every file was read (some perhaps without the parts that failed their schema).
  let allRead = true;
  const loaded = new Set<string>();
  const visit = function* (
    absolute: string,
    chain: readonly string[],
    from: { parsed: ParsedFile; pointer: string },
  ): LoadSteps<void> {
    if (loaded.has(absolute)) return;
    loaded.add(absolute);
    const parsed = yield* reader.read(absolute, "policy", from);
    if (parsed === undefined || reader.partial.has(absolute)) complete = false;
    if (parsed === undefined) {
      allRead = false;
      return;
    }
    layers.push({ parsed, layer: chain.length, label: basename(absolute, extname(absolute)) });
    const extendsList = (parsed.data as { extends?: readonly string[] }).extends ?? [];
    for (const [index, entry] of extendsList.entries()) {
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
        continue;
      }
      yield* visit(target, [...chain, absolute], { parsed, pointer });
    }
  };
  yield* visit(policyPath, [], { parsed: config, pointer: "/policy" });
  return { layers, complete, allRead };
}

function* readTests(
  reader: Reader,
  files: readonly string[],
  statementIds: ReadonlySet<string> | undefined,
): LoadSteps<PolicyTestCase[]> {
  const cases: PolicyTestCase[] = [];
  for (const absolute of files) {
    const parsed = yield* reader.read(absolute, "tests");
    if (parsed === undefined) continue;
    cases.push(...(reader.take(readTestCases(parsed, statementIds)) ?? []));
  }
  return cases;
}

/**
 * The test cases of a schema-checked test file. A case naming a rule the policy does not have is an
 * `unknown-rule` error (the cases are then `partial`).
 * @param statementIds the ids of the policy's rules and entries; `undefined` when not every policy file
 * could be read, so that the ids are not all known: then no rule is called unknown.
 */
export function readTestCases(
  parsed: ParsedFile,
  statementIds: ReadonlySet<string> | undefined,
): StageResult<PolicyTestCase[]> {
  const diagnostics: Diagnostic[] = [];
  const cases: PolicyTestCase[] = [];
  const tests = (parsed.data as { tests: readonly Record<string, unknown>[] }).tests;
  tests.forEach((test, index) => {
    const at = `/tests/${index}`;
    const call = test.call as { tool: string; arguments?: unknown };
    const rule = test.rule as string | undefined;
    if (rule !== undefined && statementIds !== undefined && !statementIds.has(rule)) {
      diagnostics.push(
        diagnosticAt(
          parsed,
          `${at}/rule`,
          "unknown-rule",
          `the policy has no rule or entry with id "${rule}"; ${ruleHint(rule, statementIds)}`,
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
  return stageResult(cases, diagnostics);
}

function ruleHint(rule: string, ids: ReadonlySet<string>): string {
  const near = nearest(rule, ids);
  return near === undefined ? "check the id" : `did you mean "${near}"?`;
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
 * Compiles the tools' input schemas one at a time, pausing between them, so that `checkTools` (which
 * compiles them again, in one go) finds each in ajv's cache (ajv caches compiled schemas by object).
 * Compiling is most of a large load's work. (ajv registers no `$id` of a compiled schema: `addUsedSchema`
 * is off, so compiling a schema here that `checkTools` skips changes nothing it reports.)
 */
function* compileInSlices(files: readonly ParsedFile[], factory: ValidatorFactory): LoadSteps<void> {
  for (const parsed of files) {
    for (const tool of (parsed.data as { tools: readonly { input_schema?: unknown }[] }).tools) {
      const schema = tool.input_schema;
      if (schema === null || typeof schema !== "object") continue;
      const draft = schemaDraft(schema as JsonSchema);
      if (typeof draft === "object") continue;
      // ajv caches a schema before checking it against its meta-schema: a schema that failed here would
      // skip that check in checkTools and get another message. Only good schemas stay cached.
      if (!factory.compile(schema as JsonSchema).ok) factory.ajvFor(draft).removeSchema(schema);
      yield PAUSE;
    }
  }
}

function* loadSteps(options: LoadOptions, factory: ValidatorFactory): LoadSteps<LoadResult> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const reader = new Reader(cwd);
  const location = findConfig({ cwd, ...(options.config === undefined ? {} : { config: options.config }) });
  if (!location.found) {
    return {
      diagnostics: [fileDiagnostic(options.config ?? ".", "config-not-found", location.message)],
      configFound: false,
      validators: new Map(),
      files: new Map(),
    };
  }
  const config = yield* readConfig(reader, location.path, location.packageJson);
  if (config === undefined)
    return {
      diagnostics: sortDiagnostics(reader.diagnostics),
      configFound: true,
      validators: new Map(),
      files: reader.files,
    };
  const raw = config.data as RawConfig;
  const base = dirname(location.path);
  const severity = reader.take(readSeveritySettings(config, raw.severity)) ?? new Map();
  reader.diagnostics.push(...checkNotifierSecrets(config, raw.notify));
  reader.diagnostics.push(...checkRoots(config, raw.roots));

  const toolPatterns = reader.expand(base, raw.tools, config, "tools");
  let toolsComplete = toolPatterns.complete;
  // Tools of a file that fails its schema are still declared: the policy naming them is not a second error.
  const declaredElsewhere = new Set<string>();
  const toolFiles: ParsedFile[] = [];
  for (const [index, file] of toolPatterns.files.entries()) {
    let rejected = false;
    const parsed = yield* reader.read(file, "tools", { parsed: config, pointer: `/tools/${index}` }, (p) => {
      rejected = true;
      for (const name of declaredNames(p)) declaredElsewhere.add(name);
    });
    // A file that failed its schema still declares its tools (declaredElsewhere): the list stays complete.
    if (parsed === undefined && !rejected) toolsComplete = false;
    if (parsed !== undefined) toolFiles.push(parsed);
  }
  yield* compileInSlices(toolFiles, factory);
  const checked = reader.take(checkTools(toolFiles, factory)) ?? {
    tools: [],
    validators: new Map(),
    declared: new Set<string>(),
    invalidNames: new Set<string>(),
  };
  yield PAUSE;

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

  reader.diagnostics.push(
    ...checkRedact(
      config,
      raw.audit?.redact,
      checked.tools,
      new Set([...checked.declared, ...declaredElsewhere]),
    ),
  );

  const policyFiles = yield* readLayers(reader, resolve(base, raw.policy), config);
  const statements =
    reader.take(
      checkPolicy(
        policyFiles.layers,
        checked.tools,
        new Set([...checked.declared, ...declaredElsewhere]),
        contextSchema,
        {
          toolsComplete,
          policyComplete: policyFiles.complete,
          droppedIds: reader.droppedIds,
          invalidNames: checked.invalidNames,
        },
      ),
    ) ?? [];
  yield PAUSE;

  const testFiles = raw.tests === undefined ? [] : reader.expand(base, raw.tests, config, "tests").files;
  const tests = yield* readTests(
    reader,
    testFiles,
    policyFiles.allRead ? new Set([...statements.map((s) => s.id), ...reader.droppedIds]) : undefined,
  );

  const diagnostics = sortDiagnostics(applySeveritySettings(reader.diagnostics, severity));
  const files = reader.files;
  if (hasErrors(diagnostics))
    return { diagnostics, configFound: true, validators: checked.validators, files };

  const settings: BundleSettings = {
    ...(raw.codegen === undefined ? {} : { codegenOut: raw.codegen.out }),
    ...(raw.compile === undefined ? {} : { compileOut: raw.compile.out }),
    ...(raw.approvals === undefined ? {} : { approvals: raw.approvals }),
    ...(raw.audit === undefined
      ? {}
      : {
          audit: {
            sink: raw.audit.sink,
            redact: raw.audit.redact ?? {},
            ...(raw.audit.otel === true ? { otel: true } : {}),
          },
        }),
    ...(raw.mode === undefined ? {} : { mode: raw.mode }),
    ...(raw.approval_ttl_ms === undefined ? {} : { approvalTtlMs: raw.approval_ttl_ms }),
    ...(raw.notify === undefined ? {} : { notify: notifierSettings(raw.notify) }),
    ...(raw.grants === undefined ? {} : { grants: readGrantSettings(raw.grants) }),
    // Relative roots are relative to the config file, like every other path in it.
    ...(raw.roots === undefined ? {} : { roots: raw.roots.map((root) => resolve(base, root)) }),
  };
  const bundle = createBundle({
    tools: checked.tools,
    statements,
    contextSchema,
    tests,
    settings,
    configFile: toDisplayPath(cwd, location.path),
    configDir: toDisplayPath(cwd, base),
  });
  return { bundle, diagnostics, configFound: true, validators: checked.validators, files };
}

/** The config's `grants` (schema-checked): the longest remembered approval and the session field. */
function readGrantSettings(grants: NonNullable<RawConfig["grants"]>): NonNullable<BundleSettings["grants"]> {
  return {
    ...(grants.max_hours === undefined ? {} : { maxHours: grants.max_hours }),
    ...(grants.session_key === undefined ? {} : { sessionKey: grants.session_key }),
  };
}

function readSync(path: string): ReadAnswer {
  let size: number;
  try {
    const found = statSync(path);
    if (!found.isFile()) return { ok: false, reason: "not-a-file" };
    size = found.size;
  } catch (error) {
    return { ok: false, reason: "missing", error };
  }
  if (size > MAX_FILE_BYTES) return { ok: false, reason: "too-large", size };
  try {
    return { ok: true, bytes: readFileSync(path) };
  } catch (error) {
    return { ok: false, reason: "missing", error };
  }
}

async function readAsync(path: string): Promise<ReadAnswer> {
  let size: number;
  try {
    const found = await stat(path);
    if (!found.isFile()) return { ok: false, reason: "not-a-file" };
    size = found.size;
  } catch (error) {
    return { ok: false, reason: "missing", error };
  }
  if (size > MAX_FILE_BYTES) return { ok: false, reason: "too-large", size };
  try {
    return { ok: true, bytes: await readFile(path) };
  } catch (error) {
    return { ok: false, reason: "missing", error };
  }
}

/**
 * How long the asynchronous load works before it gives the event loop back at its next pause point. Short
 * enough that timers and I/O of the application keep running; long enough that yielding costs little.
 */
const SLICE_MS = 10;

const giveLoopBack = () => new Promise<void>((done) => setImmediate(done));

// Loads share one validator factory (its ajv instances serve every schema of a load) and reset it when done,
// which drops what they compiled; the asynchronous ones therefore run one at a time, so that no load resets
// the schemas another compiled in slices (which would leave checkTools to compile them all again in one block).
let loadQueue: Promise<unknown> = Promise.resolve();

/**
 * Loads and checks everything without holding the event loop for long: files are read with `fs/promises`,
 * and the work between reads is cut into slices of about 10 ms (a single file's YAML parse is the longest
 * step that cannot be cut). Never rejects for bad input.
 * @returns the bundle when there is no error, and every diagnostic found.
 */
export function loadPolicyResult(options: LoadOptions = {}): Promise<LoadResult> {
  const run = loadQueue.then(async () => {
    const factory = sharedValidatorFactory();
    const steps = loadSteps(options, factory);
    try {
      let answer: ReadAnswer | undefined;
      let sliceStart = performance.now();
      for (;;) {
        const next = steps.next(answer);
        if (next.done) return next.value;
        answer = undefined;
        if (next.value.kind === "read") {
          answer = await readAsync(next.value.path);
          sliceStart = performance.now();
        } else if (performance.now() - sliceStart >= SLICE_MS) {
          await giveLoopBack();
          sliceStart = performance.now();
        }
      }
    } finally {
      factory.reset();
    }
  });
  // Settled to `undefined` either way: the queue must not keep the last result (and its validators) alive.
  loadQueue = run.then(
    () => undefined,
    () => undefined,
  );
  return run;
}

/**
 * `loadPolicyResult` in one synchronous run, for the command line and `lintPolicySync`: it holds the event
 * loop until it is done, so an application that keeps serving while it loads uses `loadPolicyResult`.
 * @returns the bundle when there is no error, and every diagnostic found.
 */
export function loadPolicyResultSync(options: LoadOptions = {}): LoadResult {
  const factory = sharedValidatorFactory();
  const steps = loadSteps(options, factory);
  try {
    let answer: ReadAnswer | undefined;
    for (;;) {
      const next = steps.next(answer);
      if (next.done) return next.value;
      answer = next.value.kind === "read" ? readSync(next.value.path) : undefined;
    }
  } finally {
    factory.reset();
  }
}

/**
 * Loads the policy into a frozen `PolicyBundle`, without holding the event loop for long (see
 * `loadPolicyResult`).
 * @throws PolicyConfigError carrying every diagnostic when there is any error.
 */
export async function loadPolicy(options: LoadOptions = {}): Promise<PolicyBundle> {
  const result = await loadPolicyResult(options);
  if (result.bundle === undefined) throw new PolicyConfigError(result.diagnostics);
  return result.bundle;
}
