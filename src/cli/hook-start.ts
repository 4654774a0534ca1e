/**
 * What `bin/toolgate.js` imports for `toolgate hook <host>`: the fast hook entry, and the three runtime
 * functions a cached compiled controller imports. The cached module imports them from this very file, so that
 * a hook run loads the runtime once; the build also writes this file as one bundle (`hook-start.bundle.js`),
 * which loads faster than its hundred modules.
 */
import { runHookEntry } from "./hook-entry.js";

export { assembleController } from "../runtime/assemble.js";
export { verifyCompiledModule } from "../runtime/compiled-module.js";
export { ToolPolicy } from "../runtime/policy.js";

/**
 * Runs `toolgate hook ARGS` (see `runHookEntry`). Returns the exit code, or `undefined` when the full command
 * line must answer.
 */
export function runHook(args: readonly string[]): Promise<number | undefined> {
  return runHookEntry(args, import.meta.url);
}
