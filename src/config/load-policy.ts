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
 *
 * This file is the load's entry and its order of steps; the steps live in `./load/`: reading and parsing
 * (`read-protocol.ts`, `read-files.ts`, `prune-invalid.ts`), validation beyond the schemas (`validate-config.ts`), the `extends` layers
 * (`policy-layers.ts`), the test cases (`test-cases.ts`) and building the bundle (`build-bundle.ts`).
 */

import { dirname, resolve } from "node:path";
import type { PolicyBundle } from "../bundle/policy-bundle.js";
import { hasErrors, sortDiagnostics } from "../diagnostics/diagnostic.js";
import { ToolgateError } from "../runtime/errors.js";
import { countOf } from "../runtime/plural.js";
import type { ArgumentValidator } from "../runtime/types.js";
import { sharedValidatorFactory, type ValidatorFactory } from "../validation/argument-validator.js";
import { checkAliases } from "./check-aliases.js";
import { checkPolicy } from "./check-policy.js";
import { checkRedact } from "./check-redact.js";
import { checkTools } from "./check-tools.js";
import type { Diagnostic } from "./diagnostic-codes.js";
import { findConfig } from "./discover.js";
import { buildBundle } from "./load/build-bundle.js";
import { readLayers } from "./load/policy-layers.js";
import { Reader, readConfig, type YamlParser } from "./load/read-files.js";
import { type LoadSteps, PAUSE, type ReadAnswer, readAsync, readSync } from "./load/read-protocol.js";
import { readTests } from "./load/test-cases.js";
import {
  checkContextSchema,
  checkNotifierSecrets,
  checkRoots,
  compileInSlices,
  declaredNames,
  type RawConfig,
} from "./load/validate-config.js";
import { fileDiagnostic, type ParsedFile } from "./parse-yaml.js";
import { applySeveritySettings, readSeveritySettings } from "./severity-settings.js";

export { pruneInvalid } from "./load/prune-invalid.js";
export { fileToken } from "./load/read-protocol.js";
export { readTestCases } from "./load/test-cases.js";

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

/**
 * The load in order: config, tools and their aliases, context schema, redaction, policy layers, tests, then
 * the bundle.
 */
function* loadSteps(
  options: LoadOptions,
  factory: ValidatorFactory,
  parse?: YamlParser,
): LoadSteps<LoadResult> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const reader = new Reader(cwd, parse);
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
  const aliases =
    reader.take(
      checkAliases(toolFiles, {
        tools: checked.tools,
        declared: new Set([...checked.declared, ...declaredElsewhere]),
        invalidNames: checked.invalidNames,
        toolsComplete,
      }),
    ) ?? [];

  const context = checkContextSchema(config, raw.context_schema, factory);
  const contextSchema = context.contextSchema;
  reader.diagnostics.push(...context.diagnostics);

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
          aliases,
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

  const bundle = buildBundle(
    raw,
    { tools: checked.tools, statements, contextSchema, tests, aliases: aliases.map((a) => a.alias) },
    cwd,
    location.path,
  );
  return { bundle, diagnostics, configFound: true, validators: checked.validators, files };
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
  try {
    return loadPolicyResultSyncWith(options, factory);
  } finally {
    factory.reset();
  }
}

/**
 * `loadPolicyResultSync` with the caller's validator factory, which the load leaves as it is: the hook writes
 * its controller cache from the very validators the load compiled (ajv keeps them by schema object), instead
 * of compiling every schema again. `parse`, when given, parses the policy files in place of `parseYaml`, and
 * must answer exactly as it does (the hook's parse cache).
 */
export function loadPolicyResultSyncWith(
  options: LoadOptions,
  factory: ValidatorFactory,
  parse?: YamlParser,
): LoadResult {
  const steps = loadSteps(options, factory, parse);
  let answer: ReadAnswer | undefined;
  for (;;) {
    const next = steps.next(answer);
    if (next.done) return next.value;
    answer = next.value.kind === "read" ? readSync(next.value.path) : undefined;
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
