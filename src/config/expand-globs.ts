import { readdirSync } from "node:fs";
import { join } from "node:path";
import { compileGlob } from "../runtime/match/glob.js";

const GLOB_CHARS = /[*?[{]/;
const SKIPPED_DIRECTORIES = new Set(["node_modules", ".git"]);

/** Outcome of expanding one pattern. */
export type ExpandResult =
  | { readonly ok: true; readonly files: readonly string[] }
  | { readonly ok: false; readonly message: string };

/**
 * Expands a path or glob relative to `base` into the paths (relative to `base`) of the files it names,
 * sorted. The segments before the first one with a glob character are a plain directory (they may climb
 * with `..`); the rest is matched below it. A plain path is returned as it is (whether it exists is
 * checked when it is read).
 */
export function expandPattern(base: string, pattern: string): ExpandResult {
  if (!GLOB_CHARS.test(pattern)) return { ok: true, files: [pattern] };
  const segments = pattern.split("/");
  const firstGlob = segments.findIndex((segment) => GLOB_CHARS.test(segment));
  const directory = segments.slice(0, firstGlob).join("/");
  const rest = segments.slice(firstGlob).join("/");
  const compiled = compileGlob(rest);
  if (!compiled.ok) return { ok: false, message: `invalid glob "${pattern}": ${compiled.message}` };
  const root = join(base, directory);
  const files: string[] = [];
  const walk = (relative: string) => {
    let entries: import("node:fs").Dirent[];
    try {
      entries = readdirSync(join(root, relative), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name)) walk(path);
      } else if (entry.isFile() && compiled.glob.test(path)) {
        files.push(directory === "" ? path : `${directory}/${path}`);
      }
    }
  };
  walk("");
  return { ok: true, files: files.sort() };
}
