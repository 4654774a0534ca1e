/**
 * The hook's parse cache: what `parseYaml` made of a policy file's bytes (its data and the position of every
 * node), kept under the project's hook cache (`.toolgate/cache/hooks/parsed/`) and named by the SHA-256 of
 * those bytes. After an edit, the hook loads the policy from its files again; the files nobody edited (a
 * pack's tools, policy and tests, often most of the YAML) are then read back as JSON instead of parsed again.
 *
 * An entry is used only when it is for the very bytes read now (their full hash), written by this toolgate, and
 * its payload matches the integrity hash written with it; anything else (missing, corrupt, edited) is parsed
 * from the YAML as if there were no cache. Only a parse that succeeded without a diagnostic, whose data JSON
 * holds exactly (no `-0`), is kept: a file with a problem is always parsed, so every diagnostic comes from the
 * parser itself.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { StageResult } from "../config/diagnostic-codes.js";
import type { YamlParser } from "../config/load/read-files.js";
import { type NodePosition, type ParsedFile, parseYaml } from "../config/parse-yaml.js";
import { toolVersion } from "./common.js";
import { HOOK_CACHE_DIR } from "./hook-cache.js";

/** Changes whenever what an entry holds changes shape: older entries are then parsed again. */
const ENTRY_VERSION = 1;

/** One entry's file: the payload (`{ data, positions }` as JSON text) with what it is for. */
interface Entry {
  readonly version: number;
  /** The toolgate that wrote it (its version and where it is installed). */
  readonly toolgate: string;
  /** The SHA-256 of the YAML bytes it was parsed from. */
  readonly source: string;
  /** The SHA-256 of `payload`. */
  readonly integrity: string;
  readonly payload: string;
}

const sha256 = (data: string | Uint8Array) => `sha256:${createHash("sha256").update(data).digest("hex")}`;

/** Whether a parsed value holds `-0` anywhere (JSON would write it as `0`). */
function holdsNegativeZero(value: unknown): boolean {
  if (typeof value === "number") return Object.is(value, -0);
  if (value === null || typeof value !== "object") return false;
  return Object.values(value).some(holdsNegativeZero);
}

/** Whether a value is a span as `parseYaml` writes one. */
function isSpan(value: unknown): boolean {
  if (value === null || typeof value !== "object") return false;
  const span = value as { [key: string]: unknown };
  return ["line", "column", "endLine", "endColumn"].every((key) => Number.isInteger(span[key]));
}

/** The positions of a payload, when they have the shape `parseYaml` gives them; `undefined` otherwise. */
function positionsOf(list: unknown): Map<string, NodePosition> | undefined {
  if (!Array.isArray(list)) return undefined;
  const positions = new Map<string, NodePosition>();
  for (const item of list) {
    if (!Array.isArray(item) || item.length !== 2 || typeof item[0] !== "string") return undefined;
    const position = item[1] as { value?: unknown; key?: unknown } | null;
    if (!isSpan(position?.value) || (position?.key !== undefined && !isSpan(position.key))) return undefined;
    positions.set(item[0], position as NodePosition);
  }
  return positions;
}

/**
 * A parser for one hook load that answers exactly as `parseYaml` does, from the cache where it can; `save()`
 * then writes what it parsed and removes the entries the load did not use.
 */
export class HookParseCache {
  readonly #dir: string;
  readonly #toolgate: string;
  /** The entries this load used or made, by file name; the made ones with their text, to be written. */
  readonly #used = new Map<string, string | undefined>();

  /** @param project the project directory whose hook cache holds the entries */
  constructor(project: string) {
    this.#dir = join(project, HOOK_CACHE_DIR, "parsed");
    this.#toolgate = `${toolVersion()} ${import.meta.url}`;
  }

  /** Parses a file's bytes as `parseYaml` does (see `YamlParser`). */
  readonly parse: YamlParser = (bytes, file) => {
    const source = sha256(bytes);
    const name = `${source.slice(7, 39)}.json`;
    const cached = this.#read(name, source, file);
    if (cached !== undefined) {
      this.#used.set(name, undefined);
      return cached;
    }
    const result = parseYaml(bytes, file);
    if (result.ok && result.diagnostics.length === 0 && !holdsNegativeZero(result.value.data)) {
      const payload = JSON.stringify({ data: result.value.data, positions: [...result.value.positions] });
      const entry: Entry = {
        version: ENTRY_VERSION,
        toolgate: this.#toolgate,
        source,
        integrity: sha256(payload),
        payload,
      };
      this.#used.set(name, JSON.stringify(entry));
    }
    return result;
  };

  #read(name: string, source: string, file: string): StageResult<ParsedFile> | undefined {
    try {
      const entry = JSON.parse(readFileSync(join(this.#dir, name), "utf8")) as Entry;
      if (
        entry.version !== ENTRY_VERSION ||
        entry.toolgate !== this.#toolgate ||
        entry.source !== source ||
        typeof entry.payload !== "string" ||
        entry.integrity !== sha256(entry.payload)
      ) {
        return undefined;
      }
      const { data, positions: list } = JSON.parse(entry.payload) as { data?: unknown; positions?: unknown };
      const positions = positionsOf(list);
      if (data === undefined || positions === undefined) return undefined;
      return { ok: true, value: { file, data, positions }, diagnostics: [] };
    } catch {
      return undefined;
    }
  }

  /**
   * Writes the entries this load parsed (a temporary file each, then a rename) and removes every other entry
   * the load did not use. Never throws: an entry that cannot be written is parsed again next time.
   */
  save(): void {
    try {
      mkdirSync(this.#dir, { recursive: true });
      for (const [name, text] of this.#used) {
        if (text === undefined) continue;
        const path = join(this.#dir, name);
        const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
        try {
          writeFileSync(temporary, text, { flag: "wx" });
          renameSync(temporary, path);
        } catch {
          try {
            unlinkSync(temporary);
          } catch {
            // Nothing was written.
          }
        }
      }
      for (const name of readdirSync(this.#dir)) {
        if (this.#used.has(name) || name.endsWith(".tmp")) continue;
        try {
          unlinkSync(join(this.#dir, name));
        } catch {
          // Another run removed it, or it is not ours to remove.
        }
      }
    } catch {
      // The cache is an optimisation.
    }
  }
}
