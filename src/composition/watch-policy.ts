/**
 * `watchPolicy`: reloads a controller when its configuration files change. A change with any error keeps the
 * whole configuration in force and reports the diagnostics; a good change swaps everything in one step.
 *
 * A file is loaded only once it is stable (size, mtime and identity unchanged across two looks `stableMs`
 * apart), and a load counts only when every file it read, read again afterwards, still has the content the
 * load saw: a file caught half-written (often a valid, looser prefix) is never applied.
 */
import { type FSWatcher, watch } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import type { PolicyBundle } from "../bundle/policy-bundle.js";
import { DIAGNOSTIC_CODES, type Diagnostic, type DiagnosticCode } from "../config/diagnostic-codes.js";
import { SEARCH_PLACES } from "../config/discover.js";
import { fileToken, type LoadOptions, type LoadResult, loadPolicyResult } from "../config/load-policy.js";
import type { ToolController } from "../runtime/controller.js";
import { type HandlerMap, reloadController } from "./create-controller.js";

/** Options of `watchPolicy`. */
export interface WatchPolicyOptions extends LoadOptions {
  readonly controller: ToolController;
  readonly handlers: HandlerMap;
  /** Quiet time after the last change event before looking at the files (default 100 ms). */
  readonly debounceMs?: number;
  /** Time between the two looks at each file's size and mtime that must agree (default 100 ms). */
  readonly stableMs?: number;
  /** Called after a successful reload with the new bundle. May be async; a throw or rejection goes to `onError`. */
  readonly onReload?: (bundle: PolicyBundle) => void | Promise<void>;
  /**
   * Called when a configuration was refused (the old one stays in force), with its diagnostics; also when
   * the configuration is broken as the watch starts. When `onReload` threw, or loading failed for a reason
   * that is no finding (an I/O error), `diagnostics` is empty and `error` is what was thrown. A throw or
   * rejection of `onError` itself is reported as a process warning (`process.emitWarning`), never re-thrown.
   */
  readonly onError?: (diagnostics: readonly Diagnostic[], error?: unknown) => void | Promise<void>;
}

/** The outcome of one reload. */
export type ReloadOutcome =
  | { readonly ok: true; readonly bundle: PolicyBundle }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** A running watch. */
export interface PolicyWatcher {
  /** Loads and applies the configuration now (after any reload in progress); resolves with the outcome. */
  reload(): Promise<ReloadOutcome>;
  /** Resolves once the first load (started by `watchPolicy`) was applied or reported. */
  readonly ready: Promise<void>;
  close(): void;
}

/** How a file looks from outside: identity, size and mtime, or absent. */
type FileLook = string;

async function lookAt(path: string): Promise<FileLook> {
  try {
    // stat follows symlinks: a re-pointed link shows as another identity, an edited target as a new mtime.
    const found = await stat(path, { bigint: true });
    return `${found.dev}:${found.ino}:${found.size}:${found.mtimeNs}`;
  } catch {
    return "absent";
  }
}

/**
 * True when no file changed size, mtime or identity between two looks `stableMs` apart.
 * @param look how a file looks now (injectable for tests).
 * @param sleep waits (injectable for tests).
 */
export async function filesAreStable(
  paths: readonly string[],
  stableMs: number,
  look: (path: string) => Promise<string> = lookAt,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((done) => setTimeout(done, ms)),
): Promise<boolean> {
  const first = await Promise.all(paths.map(look));
  await sleep(stableMs);
  const second = await Promise.all(paths.map(look));
  return first.every((value, index) => value === second[index]);
}

/** True when every file a load read still holds what the load found there. */
async function unchangedSince(files: ReadonlyMap<string, string>): Promise<boolean> {
  const entries = [...files];
  const now = await Promise.all(entries.map(([path]) => fileToken(path)));
  return entries.every(([, token], index) => now[index] === token);
}

const KNOWN_CODES: ReadonlySet<string> = new Set(DIAGNOSTIC_CODES);

/** A refused reload (handlers that do not fit, a store move, a schema) as a diagnostic on the config file. */
function refusalDiagnostic(error: unknown, configFile: string): Diagnostic {
  const code = (error as { code?: unknown } | null)?.code;
  return {
    code: typeof code === "string" && KNOWN_CODES.has(code) ? (code as DiagnosticCode) : "reload-refused",
    severity: "error",
    message: error instanceof Error ? error.message : String(error),
    file: configFile,
    line: 1,
    column: 1,
  };
}

function describeError(error: unknown): string {
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    return "an error that cannot be shown";
  }
}

/**
 * Watches every file the configuration reads (config, tool files, policy files with their `extends`
 * layers, test files; symlinks and their targets), and the directories holding them (for files that are
 * replaced, or new files matching a glob), and reloads the controller when they change. It keeps watching
 * whatever happens: a broken configuration (also at start) is reported through `onError` and the next fix
 * is picked up.
 */
export function watchPolicy(options: WatchPolicyOptions): PolicyWatcher {
  const cwd = resolve(options.cwd ?? process.cwd());
  const load: LoadOptions = { cwd, ...(options.config === undefined ? {} : { config: options.config }) };
  const debounceMs = options.debounceMs ?? 100;
  const stableMs = options.stableMs ?? 100;
  let watchers: FSWatcher[] = [];
  let watched = "";
  // The files the last load read: what the stability rule looks at, and what is watched.
  let files: readonly string[] = [];
  let timer: NodeJS.Timeout | undefined;
  let queued = false;
  let closed = false;

  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const run = chain.then(task);
    chain = run.catch(() => undefined);
    return run;
  };

  const warn = (what: string, error: unknown) => {
    process.emitWarning(`toolgate watchPolicy: ${what}: ${describeError(error)}`, "ToolgateWatchWarning");
  };
  const reportError = async (diagnostics: readonly Diagnostic[], error?: unknown) => {
    try {
      await options.onError?.(diagnostics, ...(error === undefined ? [] : [error]));
    } catch (thrown) {
      // Reporting onError's own failure through onError could loop: it becomes a process warning.
      warn("onError threw", thrown);
    }
  };
  const reportReload = async (bundle: PolicyBundle) => {
    try {
      await options.onReload?.(bundle);
    } catch (thrown) {
      await reportError([], thrown);
    }
  };

  const onEvent = (names: ReadonlySet<string>) => (_event: string, filename: string | Buffer | null) => {
    const name = filename === null ? null : String(filename);
    // Other files in the same directory (an audit log, a database) must not trigger reloads.
    if (name === null || names.has(name) || /\.(ya?ml|json)$/i.test(name)) schedule();
  };

  /** Watches the directories of the files and of their symlink targets; nothing when the set is unchanged. */
  const arm = async (paths: readonly string[]) => {
    const targets = await Promise.all(paths.map((p) => realpath(p).catch(() => p)));
    const names = new Map<string, Set<string>>();
    const add = (path: string) => {
      const directory = dirname(path);
      const set = names.get(directory) ?? new Set<string>();
      set.add(basename(path));
      names.set(directory, set);
    };
    for (const path of [...paths, ...targets]) add(path);
    // Nothing read (no config found): watch where it would appear.
    if (paths.length === 0) {
      if (options.config !== undefined) add(resolve(cwd, options.config));
      else for (const place of SEARCH_PLACES) add(resolve(cwd, place));
    }
    const key = JSON.stringify([...names].map(([d, n]) => [d, [...n].sort()]).sort());
    if (closed || key === watched) return;
    for (const w of watchers) w.close();
    watchers = [];
    watched = key;
    for (const [directory, set] of names) {
      try {
        const watcher = watch(directory, { persistent: false }, onEvent(set));
        watcher.on("error", () => schedule());
        watchers.push(watcher);
      } catch {
        // A directory that vanished: the next load reports the missing file, and arms again.
      }
    }
  };

  const apply = async (result: LoadResult): Promise<ReloadOutcome> => {
    if (result.bundle === undefined) {
      await reportError(result.diagnostics);
      return { ok: false, diagnostics: result.diagnostics };
    }
    try {
      reloadController(options.controller, result.bundle, options.handlers, result.validators);
    } catch (error) {
      const diagnostics = [refusalDiagnostic(error, result.bundle.configFile)];
      await reportError(diagnostics);
      return { ok: false, diagnostics };
    }
    await reportReload(result.bundle);
    return { ok: true, bundle: result.bundle };
  };

  const loadAndArm = async (): Promise<LoadResult | undefined> => {
    let result: LoadResult;
    try {
      result = await loadPolicyResult(load);
    } catch (error) {
      await reportError([], error);
      return undefined;
    }
    files = [...result.files.keys()];
    await arm(files);
    return result;
  };

  /**
   * The watch's own reload: only once the files are stable, and only a load whose files, read again after
   * the watch was armed on them, still hold what the load read. Otherwise it looks again later.
   */
  const settleAndReload = async () => {
    if (closed) return;
    if (!(await filesAreStable(files, stableMs))) {
      schedule();
      return;
    }
    const result = await loadAndArm();
    if (result === undefined || closed) return;
    if (!(await unchangedSince(result.files))) {
      schedule();
      return;
    }
    await apply(result);
  };

  function schedule() {
    if (closed) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (queued) return;
      queued = true;
      serial(async () => {
        queued = false;
        await settleAndReload();
      }).catch((error: unknown) => reportError([], error));
    }, debounceMs);
  }

  const reload = (): Promise<ReloadOutcome> =>
    serial(async () => {
      const result = await loadAndArm();
      if (result === undefined) return { ok: false, diagnostics: [] };
      return apply(result);
    });

  // The first load arms the watch and reports a broken configuration. A configuration that changed since
  // the controller's bundle was loaded (or while this load read it) goes through the watch's own rule.
  const ready = serial(async () => {
    const result = await loadAndArm();
    if (result === undefined || closed) return;
    if (result.bundle === undefined) await reportError(result.diagnostics);
    if (
      !(await unchangedSince(result.files)) ||
      (result.bundle !== undefined && result.bundle.fingerprint !== options.controller.policy.fingerprint)
    )
      schedule();
  }).catch((error: unknown) => reportError([], error));

  return {
    reload,
    ready,
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      for (const w of watchers) w.close();
      watchers = [];
    },
  };
}
