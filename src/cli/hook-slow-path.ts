/**
 * The hook's slow path (`hook.ts`: the YAML loader and the compiler), for a run that cannot use the controller
 * cache. Imported only then: a warm run never loads it.
 */

/** The slow path as the build bundled it (see `scripts/bundle-hook.mjs`); a name, so tsc leaves it be. */
const SLOW_PATH_BUNDLE = "./hook.bundle.js";

/**
 * The slow path: its bundle when the build wrote one (one module loads much faster than the hundreds it is
 * made of), else `hook.js` itself.
 */
export async function importSlowPath(): Promise<typeof import("./hook.js")> {
  try {
    return (await import(SLOW_PATH_BUNDLE)) as typeof import("./hook.js");
  } catch {
    return import("./hook.js");
  }
}
