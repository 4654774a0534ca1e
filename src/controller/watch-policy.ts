/**
 * `watchPolicy`: reloads a controller when its policy files change. A change with any error keeps the
 * policy in force and reports the diagnostics; a good change swaps policy and registry in one step.
 */
import { type FSWatcher, watch } from "node:fs";
import { dirname, resolve } from "node:path";
import { type LoadOptions, loadPolicyResult } from "../config/load-policy.js";
import type { PolicyBundle } from "../config/policy-bundle.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { ToolController } from "../runtime/controller.js";
import { type HandlerMap, reloadController } from "./create-controller.js";

/** Options of `watchPolicy`. */
export interface WatchPolicyOptions extends LoadOptions {
  readonly controller: ToolController;
  readonly handlers: HandlerMap;
  /** Quiet time after the last change before reloading (default 100 ms). */
  readonly debounceMs?: number;
  /** Called after a successful reload with the new bundle. */
  readonly onReload?: (bundle: PolicyBundle) => void;
  /** Called when a change was refused; the old policy stays in force. */
  readonly onError?: (diagnostics: readonly Diagnostic[]) => void;
}

/** A running watch. */
export interface PolicyWatcher {
  /** Reloads now (also used by the file watcher); resolves with the outcome. */
  reload(): Promise<
    | { readonly ok: true; readonly bundle: PolicyBundle }
    | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] }
  >;
  close(): void;
}

function filesOf(bundle: PolicyBundle, cwd: string): string[] {
  const files = new Set<string>([bundle.configFile]);
  for (const tool of bundle.tools) files.add(tool.source.file);
  for (const statement of bundle.statements)
    if (statement.source !== undefined) files.add(statement.source.file);
  for (const test of bundle.tests) files.add(test.source.file);
  return [...files].map((f) => resolve(cwd, f));
}

/**
 * Watches the configuration, tool, policy and test files of the controller's policy (and their
 * directories, for new files matching a glob) and reloads on change.
 */
export function watchPolicy(options: WatchPolicyOptions): PolicyWatcher {
  const cwd = resolve(options.cwd ?? process.cwd());
  const load: LoadOptions = { cwd, ...(options.config === undefined ? {} : { config: options.config }) };
  let watchers: FSWatcher[] = [];
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const arm = (bundle: PolicyBundle | undefined) => {
    for (const w of watchers) w.close();
    watchers = [];
    if (closed) return;
    const files = bundle === undefined ? [] : filesOf(bundle, cwd);
    const directories = new Set(files.map((f) => dirname(f)));
    for (const target of [...directories]) {
      try {
        const watcher = watch(target, { persistent: false }, () => schedule());
        watcher.on("error", () => schedule());
        watchers.push(watcher);
      } catch {
        // A directory that vanished is noticed on the next reload, which reports the missing file.
      }
    }
  };

  const reload: PolicyWatcher["reload"] = async () => {
    const result = loadPolicyResult(load);
    if (result.bundle === undefined) {
      options.onError?.(result.diagnostics);
      return { ok: false, diagnostics: result.diagnostics };
    }
    try {
      reloadController(options.controller, result.bundle, options.handlers);
    } catch (error) {
      const diagnostics: Diagnostic[] = [
        {
          code:
            (error as { code?: string }).code === "unknown-handler" ? "unknown-handler" : "missing-handler",
          severity: "error",
          message: (error as Error).message,
          file: result.bundle.configFile,
          line: 1,
          column: 1,
        },
      ];
      options.onError?.(diagnostics);
      return { ok: false, diagnostics };
    }
    arm(result.bundle);
    options.onReload?.(result.bundle);
    return { ok: true, bundle: result.bundle };
  };

  const schedule = () => {
    if (closed) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      void reload();
    }, options.debounceMs ?? 100);
  };

  const initial = loadPolicyResult(load);
  arm(initial.bundle);
  return {
    reload,
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      for (const w of watchers) w.close();
      watchers = [];
    },
  };
}
