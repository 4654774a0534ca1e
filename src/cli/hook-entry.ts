/**
 * The fast start of `toolgate hook <host>`: `bin/toolgate.js` comes here before it loads the command line, so
 * a hook run loads the hosts, the runtime and the cached compiled controller (see `hook-cache.ts`), and no
 * argument parser, YAML parser, schema compiler or formatter. It reads the same options as the full command
 * (`--config`, `--unreadable`, `--project`, `--root` and the host's own), and hands anything else — help, an
 * unknown option, a value outside an option's choices — back to the full command line, which answers it as
 * it always has. When the cache cannot be used, the policy is loaded from its files exactly as the full
 * command loads it (the files nobody changed read back from the parse cache, `hook-parse-cache.ts`), and the
 * caches are written again after the answer.
 */
import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { isAbsolutePath } from "../adapters/hook-payload.js";
import { UNREADABLE_OPTION } from "../hosts/hook-host.js";
import { HOOK_HOSTS } from "../hosts/hook-hosts.js";
import { answerHook, type HookIo, hookProject, readHookInput } from "../hosts/run-hook.js";
import { isToolgateError } from "../runtime/errors.js";
import { findConfigQuickly, readHookCache, writeHookCache } from "./hook-cache.js";
import { importSlowPath } from "./hook-slow-path.js";

/** A hook command's options as the full command line would parse them, or `undefined` to let it. */
interface EntryOptions {
  readonly config?: string;
  readonly project?: string;
  readonly root?: readonly string[];
  readonly values: { readonly [key: string]: string };
}

/**
 * Reads `HOST [--option value | --option=value]…` as commander reads the hook commands; `undefined` for
 * anything else, which the full command line then answers.
 */
function parseArgs(args: readonly string[]): { host: string; options: EntryOptions } | undefined {
  const [name, ...rest] = args;
  const host = name === undefined ? undefined : HOOK_HOSTS.get(name);
  if (host === undefined) return undefined;
  const known = new Set([
    "config",
    "project",
    "root",
    ...[UNREADABLE_OPTION, ...host.options].map((o) => o.key),
  ]);
  const values: { [key: string]: string } = {};
  const roots: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    const match = /^--([a-z][a-z-]*)(?:=(.*))?$/s.exec(arg);
    if (match === null || !known.has(match[1] as string)) return undefined;
    const key = match[1] as string;
    let value = match[2];
    if (value === undefined) {
      value = rest[++i];
      // A missing value, or one commander might read as an option: the full command line decides.
      if (value === undefined || value.startsWith("-")) return undefined;
    }
    if (key === "root") roots.push(value);
    else values[key] = value;
  }
  for (const option of [UNREADABLE_OPTION, ...host.options]) {
    const value = values[option.key] ?? option.default;
    if (!option.choices.includes(value)) return undefined;
    values[option.key] = value;
  }
  const project =
    values.project ??
    (host.projectVariable === undefined ? undefined : process.env[host.projectVariable] || undefined);
  return {
    host: host.name,
    options: {
      ...(values.config === undefined ? {} : { config: values.config }),
      ...(project === undefined ? {} : { project }),
      ...(roots.length === 0 ? {} : { root: roots }),
      values,
    },
  };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Runs `toolgate hook ARGS` on the fast path. Returns the exit code, or `undefined` when the arguments are
 * for the full command line (help, an unknown option or host, a value outside an option's choices).
 * @param runtimeUrl the module a cached controller imports `ToolPolicy`, `assembleController` and
 *   `verifyCompiledModule` from (`hook-start.js`, or its bundle).
 */
export async function runHookEntry(args: readonly string[], runtimeUrl: string): Promise<number | undefined> {
  try {
    return await runParsed(args, runtimeUrl);
  } catch (error) {
    // As the full command line answers an error it did not expect: exit 2, which blocks in every hook host.
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`toolgate: ${isToolgateError(error) ? message : `internal error: ${message}`}\n`);
    return 2;
  }
}

async function runParsed(args: readonly string[], runtimeUrl: string): Promise<number | undefined> {
  const parsed = parseArgs(args);
  if (parsed === undefined) return undefined;
  const host = HOOK_HOSTS.get(parsed.host);
  if (host === undefined) return undefined;
  const { options } = parsed;
  const adapter = host.adapter({
    ...options.values,
    unreadable: options.values.unreadable === "deny" ? "deny" : "ask",
  });
  const io: HookIo = {
    readInput: () => readFileSync(0),
    write: (text) => process.stdout.write(text),
    writeError: (text) => process.stderr.write(text),
  };
  const input = readHookInput(adapter, io);
  if (!input.ok) return input.exitCode;
  const project = hookProject(options, input.message);
  const config = options.config === undefined ? findConfigQuickly(process.cwd()) : resolve(options.config);
  const cacheable = config !== undefined && isAbsolutePath(project) && isDirectory(project);
  const cached = cacheable ? await readHookCache(project, config, runtimeUrl) : undefined;
  if (cached !== undefined) {
    return answerHook(adapter, input.message, options, io, { ok: true, policy: cached });
  }
  // The slow path, loaded only now: the policy from its files, as the full command loads it.
  const { loadHookPolicyForCache } = await importSlowPath();
  const loaded = await loadHookPolicyForCache(options.config, cacheable ? project : undefined);
  const code = answerHook(adapter, input.message, options, io, loaded);
  // Answered: now the caches, for the next run.
  if (cacheable && loaded.cache !== undefined && loaded.configPath === config) {
    writeHookCache(project, config, runtimeUrl, loaded.cache);
  }
  loaded.parses?.save();
  return code;
}
