/**
 * The property files a configuration lists under `properties:` (paths or globs relative to the config file), for
 * `toolgate verify` with no files and for `toolgate fmt`. The loader has checked the list against the config
 * schema; only the list is read here.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expandPattern } from "./expand-globs.js";
import { yamlLibrary } from "./yaml-library.js";

/** The listed files as absolute paths, or what is wrong with a pattern. */
export type ListedPropertyFiles =
  | { readonly ok: true; readonly files: readonly string[] }
  | { readonly ok: false; readonly message: string };

/**
 * Reads the `properties:` list of a configuration file (YAML or JSON) and expands its globs.
 * @param configFile - the absolute path of the configuration file.
 */
export function listedPropertyFiles(configFile: string): ListedPropertyFiles {
  const raw = yamlLibrary().parse(readFileSync(configFile, "utf8")) as { properties?: unknown } | null;
  const listed = Array.isArray(raw?.properties) ? (raw.properties as unknown[]) : [];
  const base = dirname(configFile);
  const files: string[] = [];
  for (const pattern of listed) {
    if (typeof pattern !== "string") continue;
    const expanded = expandPattern(base, pattern);
    if (!expanded.ok) return { ok: false, message: `properties: ${expanded.message}` };
    for (const file of expanded.files) files.push(join(base, file));
  }
  return { ok: true, files };
}
