/**
 * The database drivers are optional dependencies: `better-sqlite3` for `sqlite:` stores, `pg` for
 * `postgres://` ones. They are loaded on first use, so that `import "toolgate"` and an install for CI that
 * only lints (`npm install --omit=optional`) need neither. Both are CommonJS packages, loaded with
 * `require` from an ES module.
 */
import { createRequire } from "node:module";
import { ToolgateError } from "../runtime/errors.js";

const require = createRequire(import.meta.url);
const loaded = new Map<string, unknown>();

/**
 * Loads an optional driver.
 * @param name - the package.
 * @param purpose - what needs it, for the message (`sqlite: stores`).
 * @throws ToolgateError `optional-dependency-missing` saying which package to install, when it is not installed.
 */
export function loadOptional<T>(name: "better-sqlite3" | "pg", purpose: string): T {
  if (loaded.has(name)) return loaded.get(name) as T;
  let module: unknown;
  try {
    module = require(name);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== "MODULE_NOT_FOUND" && code !== "ERR_MODULE_NOT_FOUND") throw error;
    throw new ToolgateError(
      "optional-dependency-missing",
      `${purpose} need the package "${name}", which is not installed (it is an optional dependency of toolgate, left out by --omit=optional); install it with: npm install ${name}`,
      { cause: error },
    );
  }
  loaded.set(name, module);
  return module as T;
}

/**
 * When `error` is the failure to load a driver's native part (a package installed without its build, or built
 * for another Node), the toolgate error that says how to get it back; otherwise `undefined`.
 */
export function nativeModuleError(
  name: "better-sqlite3",
  purpose: string,
  error: unknown,
): ToolgateError | undefined {
  const message = error instanceof Error ? error.message : String(error);
  if (
    !/bindings file|\.node\b|NODE_MODULE_VERSION|compiled against a different Node\.js version|ERR_DLOPEN_FAILED/.test(
      message,
    )
  )
    return undefined;
  return new ToolgateError(
    "optional-dependency-missing",
    `${purpose} need the native module of the package "${name}", which could not be loaded for Node ${process.version} (${message.split("\n")[0]}); build it again with: npm rebuild ${name} (or reinstall: npm install ${name})`,
    { cause: error },
  );
}
