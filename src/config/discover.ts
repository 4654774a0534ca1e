/**
 * Finds the configuration file with cosmiconfig (module name `toolgate`): `toolgate.config.yaml`,
 * `.toolgaterc.yaml`, …, `package.json#toolgate`, from the working directory up to the project root.
 * cosmiconfig only finds the file; toolgate parses it itself, with positions and its safe YAML rules.
 */
import { existsSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { SEARCH_PLACES } from "./search-places.js";

/**
 * cosmiconfig, loaded when a search needs it: a load given `--config` (as a hook command usually is) never
 * does, and loading it took a noticeable part of a short command's start. It is CommonJS, so loading it is
 * synchronous, as the search is.
 */
function cosmiconfigSync(...args: Parameters<typeof import("cosmiconfig").cosmiconfigSync>) {
  const cosmiconfig = createRequire(import.meta.url)("cosmiconfig") as typeof import("cosmiconfig");
  return cosmiconfig.cosmiconfigSync(...args);
}

export { SEARCH_PLACES } from "./search-places.js";

/** A found configuration: an absolute path, and whether it is the `toolgate` key of a package.json. */
export type ConfigLocation =
  | { readonly found: true; readonly path: string; readonly packageJson: boolean }
  | { readonly found: false; readonly message: string };

const marker = () => ({ found: true });
// package.json must be read as JSON so that cosmiconfig can see whether it has a `toolgate` key.
const jsonLoader = (_path: string, content: string): unknown => {
  try {
    return JSON.parse(content) as unknown;
  } catch {
    return { found: true };
  }
};

/**
 * Locates the configuration.
 * @param options.config an explicit path (`--config`), relative to `cwd`.
 * @param options.cwd where the search starts (default `process.cwd()`).
 */
export function findConfig(options: { config?: string; cwd: string }): ConfigLocation {
  if (options.config !== undefined) {
    const path = resolve(options.cwd, options.config);
    if (!existsSync(path)) return { found: false, message: `config file ${options.config} does not exist` };
    if (!statSync(path).isFile()) {
      return {
        found: false,
        message: `${options.config} is a directory; pass the configuration file itself`,
      };
    }
    return { found: true, path, packageJson: path.endsWith("package.json") };
  }
  const explorer = cosmiconfigSync("toolgate", {
    searchPlaces: [...SEARCH_PLACES],
    // One directory per search: cosmiconfig 9.0.0's "project" strategy does not stop at the project root
    // (its `break` leaves only the inner loop), so a config above the project would be picked up.
    searchStrategy: "none",
    // Only locate: every file is parsed later by toolgate's own safe YAML parser, with positions.
    loaders: { ".yaml": marker, ".yml": marker, ".json": jsonLoader, noExt: marker },
    cache: false,
    // An empty toolgate.config.yaml is found, so that lint says it is empty rather than "not found".
    ignoreEmptySearchPlaces: false,
  });
  try {
    for (const directory of searchDirectories(resolve(options.cwd))) {
      const result = explorer.search(directory);
      if (result !== null && !(result.isEmpty === true && result.filepath.endsWith("package.json"))) {
        return { found: true, path: result.filepath, packageJson: result.filepath.endsWith("package.json") };
      }
    }
    return {
      found: false,
      message: `no toolgate configuration found from ${options.cwd === process.cwd() ? "this directory" : options.cwd} up to the project root; create toolgate.config.yaml (toolgate init writes one) or pass --config PATH`,
    };
  } catch (error) {
    return { found: false, message: `could not search for the configuration: ${(error as Error).message}` };
  }
}

/** The directories searched: `start`, then its parents up to and including the project root (the nearest
 * directory with a package.json), or up to the file system root when there is none. */
function searchDirectories(start: string): string[] {
  const directories: string[] = [];
  let current = start;
  for (;;) {
    directories.push(current);
    if (existsSync(join(current, "package.json")) || existsSync(join(current, "package.yaml"))) break;
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return directories;
}
