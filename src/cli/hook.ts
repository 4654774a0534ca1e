/**
 * `toolgate hook <host>`: the commands for Claude Code's `PreToolUse` hook, Gemini CLI's `BeforeTool` hook,
 * Codex's `PreToolUse`/`PermissionRequest` hooks and Cursor's `beforeShellExecution`/`beforeMCPExecution`/
 * `beforeReadFile` hooks. Each host is one adapter in `src/hosts/`, found by name in `HOOK_HOSTS`; each reads
 * the hook's JSON on stdin, decides with the configured policy and writes the agent's documented JSON answer on
 * stdout.
 *
 * Exit codes are the agents' for hooks (https://code.claude.com/docs/en/hooks, "Exit code output";
 * https://geminicli.com/docs/hooks/reference, "Global hook mechanics"), not the other commands': 0 with the
 * JSON answer; 2 — a blocking error in both — when the input or the configuration cannot be used. Nothing
 * either command cannot read is ever allowed.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { DIAGNOSTICS } from "../config/diagnostic-codes.js";
import type { YamlParser } from "../config/load/read-files.js";
import { type LoadResult, loadPolicyResultSync, loadPolicyResultSyncWith } from "../config/load-policy.js";
import { formatDiagnostics } from "../diagnostics/format.js";
import { type HookAdapterOptions, type HookHost, UNREADABLE_OPTION } from "../hosts/hook-host.js";
import { HOOK_HOSTS } from "../hosts/hook-hosts.js";
import { type HookIo, type HookPolicyLoad, runHook } from "../hosts/run-hook.js";
import { decisionController } from "../testing/run-policy-tests.js";
import { ValidatorFactory } from "../validation/argument-validator.js";
import { toolVersion, UsageError } from "./common.js";
import type { CacheSource } from "./hook-cache.js";
import { HookParseCache } from "./hook-parse-cache.js";

export { HOOK_EXIT } from "../hosts/hook-host.js";
export { type HookIo, hookRoots } from "../hosts/run-hook.js";

/** Options of `toolgate hook claude-code` (and, with `ask`, of `toolgate hook gemini-cli`). */
export interface HookCommandOptions {
  readonly config?: string;
  /** What a call the policy cannot read (unknown tool, arguments outside the pack's schemas) gets. */
  readonly unreadable: string;
  /** The project directory paths are read against (default: the agent's project variable, else the payload's cwd). */
  readonly project?: string;
  /** `--root`: other directories the agent works in (relative ones against the working directory). */
  readonly root?: readonly string[];
}

/** Options of `toolgate hook gemini-cli`. */
export interface GeminiHookCommandOptions extends HookCommandOptions {
  /**
   * How an ask is answered: `ask` (Gemini CLI's `decision: "ask"`, its confirmation prompt, since 0.36.0) or
   * `deny` (a deny whose reason says a person's approval is needed), for older versions and headless runs.
   */
  readonly ask: string;
}

/** Options of `toolgate hook codex`. */
export interface CodexHookCommandOptions extends HookCommandOptions {
  /** The event this registration answers: `PreToolUse` (default) or `PermissionRequest`. */
  readonly event: string;
}

/** A hook command's parsed options, by key. */
type OptionValues = { readonly [key: string]: unknown };

/** Reads all of stdin (file descriptor 0). */
export function readStdin(): Buffer {
  return readFileSync(0);
}

/**
 * The checked options of a hook host's adapter: `--unreadable` and the host's own options.
 * @throws UsageError for a value outside an option's choices.
 */
export function hookAdapterOptions(host: HookHost, options: OptionValues): HookAdapterOptions {
  // The host's own options first, then --unreadable: the order the commands have always checked them in.
  const checked: { [key: string]: string } = {};
  for (const option of [...host.options, UNREADABLE_OPTION]) {
    const value = options[option.key] ?? option.default;
    if (typeof value !== "string" || !option.choices.includes(value)) {
      throw new UsageError(option.invalid(String(value)));
    }
    checked[option.key] = value;
  }
  return checked as HookAdapterOptions;
}

/** The policy from the configuration's YAML, or why it cannot be used (with the lint report for stderr). */
export function loadHookPolicy(config: string | undefined): HookPolicyLoad {
  return loadHookBundle(config).load;
}

function loadHookBundle(
  config: string | undefined,
  factory?: ValidatorFactory,
  parse?: YamlParser,
): {
  readonly load: HookPolicyLoad;
  readonly loaded: LoadResult;
} {
  const options = config === undefined ? {} : { config };
  const loaded =
    factory === undefined ? loadPolicyResultSync(options) : loadPolicyResultSyncWith(options, factory, parse);
  if (loaded.bundle === undefined) {
    // No source excerpts: what a hook writes may reach the agent, which needs no lines of the policy to be told
    // that it has errors; `toolgate lint` shows them to the person who fixes it.
    const report = formatDiagnostics("stylish", {
      diagnostics: loaded.diagnostics,
      fingerprint: null,
      color: false,
      toolVersion: toolVersion(),
      table: DIAGNOSTICS,
    });
    return {
      loaded,
      load: {
        ok: false,
        report: report.endsWith("\n") ? report : `${report}\n`,
        reason: loaded.configFound
          ? "the toolgate configuration has errors (run toolgate lint)"
          : "no toolgate configuration found (pass --config PATH in the hook's command)",
      },
    };
  }
  const bundle = loaded.bundle;
  return {
    loaded,
    load: {
      ok: true,
      policy: {
        controller: decisionController(bundle, loaded.validators),
        toolNames: new Set(bundle.tools.map((tool) => tool.name)),
        roots: bundle.settings.roots,
        contextSchema: bundle.contextSchema,
        aliases: bundle.aliases,
      },
    },
  };
}

/**
 * `loadHookPolicy`, and, when `project` is given (its hook cache is used) and the policy loaded, what the hook's
 * controller cache is written from: the compiled module and every file the load read, with the config file's
 * absolute path. With a project, the policy files are parsed through its parse cache (`hook-parse-cache.ts`),
 * whose `save()` the caller calls once it has answered.
 */
export async function loadHookPolicyForCache(
  config: string | undefined,
  project: string | undefined,
): Promise<
  HookPolicyLoad & {
    readonly cache?: CacheSource;
    readonly configPath?: string;
    readonly parses?: HookParseCache;
  }
> {
  if (project === undefined) return loadHookBundle(config).load;
  // Validators that keep their source: the cache's module is written from the ones the load compiled.
  const factory = new ValidatorFactory({ code: { source: true } });
  const parses = new HookParseCache(project);
  const { load, loaded } = loadHookBundle(config, factory, parses.parse);
  const bundle = loaded.bundle;
  if (bundle === undefined) return { ...load, parses };
  try {
    const { compileControllerModule } = await import("../compile/compile-controller.js");
    return {
      ...load,
      parses,
      configPath: resolve(bundle.configFile),
      cache: {
        module: compileControllerModule(bundle, { ajvFor: (draft) => factory.ajvFor(draft) }),
        files: loaded.files,
        roots: bundle.settings.roots,
        contextSchema: bundle.contextSchema,
      },
    };
  } catch {
    // A policy that cannot be compiled (an $id ajv cannot write standalone) is decided without a cache.
    return { ...load, parses };
  }
}

/**
 * `toolgate hook NAME` for the hook host of that name. Returns the exit code.
 * @throws UsageError for an unknown host or an option value outside its choices.
 */
export function runHookHost(name: string, options: HookCommandOptions, io: HookIo): number {
  const host = HOOK_HOSTS.get(name);
  if (host === undefined) {
    throw new UsageError(`unknown hook host "${name}"; use one of ${[...HOOK_HOSTS.keys()].join(", ")}`);
  }
  const adapter = host.adapter(hookAdapterOptions(host, options as unknown as OptionValues));
  return runHook(adapter, options, io, () => loadHookPolicy(options.config));
}

/** `toolgate hook claude-code`. Returns the exit code. */
export function runHookClaudeCode(options: HookCommandOptions, io: HookIo): number {
  return runHookHost("claude-code", options, io);
}

/** `toolgate hook gemini-cli`. Returns the exit code. */
export function runHookGeminiCli(options: GeminiHookCommandOptions, io: HookIo): number {
  return runHookHost("gemini-cli", options, io);
}

/**
 * `toolgate hook codex`. Returns the exit code. Codex lets a call run on anything but a well-formed deny or
 * exit code 2, so an ask is answered as a deny under `PreToolUse`, and everything unreadable exits 2.
 */
export function runHookCodex(options: CodexHookCommandOptions, io: HookIo): number {
  return runHookHost("codex", options, io);
}

/** `toolgate hook cursor`. Returns the exit code. */
export function runHookCursor(options: HookCommandOptions, io: HookIo): number {
  return runHookHost("cursor", options, io);
}
