/**
 * The frameworks are optional peer dependencies: installing toolgate pulls in none of them, and an adapter
 * loads its framework when it is imported. A missing framework is a clear error naming the package to
 * install, never a bare module-resolution failure.
 */
import { ToolgateError } from "../runtime/errors.js";

/**
 * Imports a framework package for an adapter.
 * @param specifier - the package (or one of its entry points) to import.
 * @param adapter - the toolgate entry point that needs it, for the message (`toolgate/ai-sdk`).
 * @param install - what to install (`ai@6`).
 * @throws ToolgateError `optional-dependency-missing` when the package is not installed.
 */
export async function importPeer<T>(specifier: string, adapter: string, install: string): Promise<T> {
  try {
    return (await import(specifier)) as T;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    // Node names the package, not the entry point: `'@langchain/core'` for `@langchain/core/tools`.
    const parts = specifier.split("/");
    const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier);
    const missing =
      (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") &&
      String((error as { message?: unknown }).message).includes(`'${name}`);
    if (!missing) throw error;
    throw new ToolgateError(
      "optional-dependency-missing",
      `${adapter} needs the package "${name}", which is not installed (frameworks are optional peer dependencies of toolgate); install it with: npm install ${install}`,
      { cause: error },
    );
  }
}
