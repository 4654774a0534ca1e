/**
 * The hook's controller cache: the policy compiled into a standalone module (`toolgate compile`'s module),
 * kept under the project's state folder (`.toolgate/cache/hooks/`) and keyed by the contents of every file the
 * load read or looked for (the config, the tool, policy and test files with their `extends` layers) and the
 * listings of their directories (so that a file a glob would now match is seen). A warm hook run hashes those
 * files, imports the module — which verifies its own data and validators against their integrity hashes and
 * its fingerprint as it loads — and decides without parsing YAML or compiling a schema. A cache that is
 * missing, stale, corrupt or tampered with is never used: the run loads the policy from its files, decides
 * with it, and writes the cache again (a temporary file, then a rename).
 *
 * Only node's built-ins and the runtime's own modules are imported here: this file is on the fast path.
 */
import { createHash } from "node:crypto";
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { SEARCH_PLACES } from "../config/search-places.js";
import type { HookPolicy } from "../hosts/run-hook.js";
import type { ToolController } from "../runtime/controller.js";
import { InternalError } from "../runtime/errors.js";
import type { ToolAlias } from "../runtime/tool-aliases.js";
import type { ToolSpec } from "../runtime/types.js";

/** Where the cache lives under a project directory. */
export const HOOK_CACHE_DIR = join(".toolgate", "cache", "hooks");

/** Changes whenever what the cache holds changes shape: older entries are then rebuilt. */
const CACHE_VERSION = 2;

/** What a file or directory holds now: `sha256:…` of a file's bytes or a directory's listing, or why none. */
type Token = string;

/** The cache's index for one configuration: what its module was built from. */
interface CacheIndex {
  readonly version: number;
  readonly key: string;
  readonly module: string;
  /** The SHA-256 of the hook facts the module holds (`hookCache`, as JSON). */
  readonly facts: string;
  readonly files: readonly (readonly [string, Token])[];
  readonly directories: readonly (readonly [string, Token])[];
}

/** The facts a hook needs besides the compiled controller, written into the cached module. */
interface HookFacts {
  readonly inputsKey: string;
  readonly roots: readonly string[] | null;
  readonly contextSchema: unknown;
}

/** What the cached module exports (a compiled controller module plus the hook's facts). */
interface CachedModule {
  readonly specs: readonly ToolSpec[];
  /** The tool aliases, verified against the module's fingerprint as it loaded (frozen). */
  readonly aliases: readonly ToolAlias[];
  readonly createController: (options: { handlers: Record<string, () => never> }) => ToolController;
  readonly hookCache: HookFacts;
}

const sha256 = (data: string | Uint8Array) => `sha256:${createHash("sha256").update(data).digest("hex")}`;

/** What the load would find at `path` now, in the load's own terms (`LoadResult.files`). */
export function fileToken(path: string): Token {
  try {
    if (!statSync(path).isFile()) return "not-a-file";
    return sha256(readFileSync(path));
  } catch {
    return "missing";
  }
}

/** A directory's entries (names and kinds), so that a file added where a glob looks changes the key. */
export function directoryToken(path: string): Token {
  try {
    const entries = readdirSync(path, { withFileTypes: true })
      .map((entry) => `${entry.isDirectory() ? "d" : entry.isFile() ? "f" : "o"}:${entry.name}`)
      .sort();
    return sha256(entries.join("\n"));
  } catch {
    return "missing";
  }
}

/**
 * The configuration `findConfig` would find from `cwd` without `--config`, found without cosmiconfig; or
 * `undefined` when the search meets anything it does not answer exactly as cosmiconfig would (a place that is
 * not a plain file, a package.json it cannot read): the caller then takes the slow path.
 */
export function findConfigQuickly(cwd: string): string | undefined {
  let current = resolve(cwd);
  for (;;) {
    for (const place of SEARCH_PLACES) {
      const path = join(current, place);
      let isFile: boolean;
      try {
        isFile = statSync(path).isFile();
      } catch {
        continue;
      }
      if (!isFile) return undefined;
      if (place !== "package.json") return path;
      let data: unknown;
      try {
        data = JSON.parse(readFileSync(path, "utf8"));
      } catch {
        return undefined;
      }
      if (typeof data !== "object" || data === null) return undefined;
      if (!Object.hasOwn(data, "toolgate")) continue;
      const value = (data as { toolgate: unknown }).toolgate;
      return typeof value === "object" && value !== null ? path : undefined;
    }
    const stops = ["package.json", "package.yaml"].some((name) => {
      try {
        statSync(join(current, name));
        return true;
      } catch {
        return false;
      }
    });
    const parent = dirname(current);
    if (stops || parent === current) return undefined;
    current = parent;
  }
}

/**
 * The toolgate this is (its version, and the runtime module a cached controller imports, which says where it
 * is installed): another one never reads this cache.
 */
function toolgateIdentity(runtimeUrl: string): string {
  let version = "unknown";
  try {
    const url = new URL("../../package.json", runtimeUrl);
    version = (JSON.parse(readFileSync(url, "utf8")) as { version: string }).version;
  } catch {
    // An install without its package.json still has its path in the key.
  }
  return `${version} ${runtimeUrl}`;
}

/** The cache files of one configuration: its index and the directory its modules go in. */
function slotOf(
  project: string,
  config: string,
  runtimeUrl: string,
): { readonly dir: string; readonly index: string; readonly id: string } {
  const dir = join(project, HOOK_CACHE_DIR);
  const id = sha256(JSON.stringify([CACHE_VERSION, toolgateIdentity(runtimeUrl), config])).slice(7, 31);
  return { dir, index: join(dir, `${id}.json`), id };
}

function keyOf(
  runtimeUrl: string,
  config: string,
  files: readonly (readonly [string, Token])[],
  directories: readonly (readonly [string, Token])[],
): string {
  return sha256(JSON.stringify([CACHE_VERSION, toolgateIdentity(runtimeUrl), config, files, directories]));
}

function readIndex(path: string): CacheIndex | undefined {
  try {
    const index = JSON.parse(readFileSync(path, "utf8")) as CacheIndex;
    const pairs = (list: unknown) =>
      Array.isArray(list) &&
      list.every((p) => Array.isArray(p) && typeof p[0] === "string" && typeof p[1] === "string");
    if (
      index.version !== CACHE_VERSION ||
      typeof index.key !== "string" ||
      typeof index.module !== "string" ||
      typeof index.facts !== "string" ||
      !/^[0-9a-f]{24}-[0-9a-f]{16}\.mjs$/.test(index.module) ||
      !pairs(index.files) ||
      !pairs(index.directories)
    ) {
      return undefined;
    }
    return index;
  } catch {
    return undefined;
  }
}

const never = (): never => {
  throw new InternalError("a hook never runs a tool's handler");
};

/**
 * The policy from the cache, when every input is as it was when the cache was written and the module verifies;
 * `undefined` otherwise (the caller loads the policy and writes the cache again).
 */
export async function readHookCache(
  project: string,
  config: string,
  runtimeUrl: string,
): Promise<HookPolicy | undefined> {
  const slot = slotOf(project, config, runtimeUrl);
  const index = readIndex(slot.index);
  if (index === undefined) return undefined;
  // Every input as it is now: one changed byte, a file added or removed next to one, and the key differs.
  if (index.files.some(([path, token]) => fileToken(path) !== token)) return undefined;
  if (index.directories.some(([path, token]) => directoryToken(path) !== token)) return undefined;
  const key = keyOf(runtimeUrl, config, index.files, index.directories);
  if (key !== index.key || index.module !== `${slot.id}-${key.slice(7, 23)}.mjs`) return undefined;
  let loaded: CachedModule;
  try {
    // The module checks its data and validators against their integrity hashes and its fingerprint as it loads.
    loaded = (await import(pathToFileURL(join(slot.dir, index.module)).href)) as CachedModule;
  } catch {
    return undefined;
  }
  const facts = loaded.hookCache;
  if (
    typeof facts !== "object" ||
    facts === null ||
    facts.inputsKey !== key ||
    sha256(JSON.stringify(facts)) !== index.facts ||
    !Array.isArray(loaded.specs) ||
    // A module without a verified aliases export (compiled by a toolgate before aliases) is a miss.
    !Array.isArray(loaded.aliases) ||
    !Object.isFrozen(loaded.aliases) ||
    typeof loaded.createController !== "function"
  ) {
    return undefined;
  }
  try {
    const handlers = Object.fromEntries(loaded.specs.map((spec) => [spec.name, never]));
    return {
      controller: loaded.createController({ handlers }),
      toolNames: new Set(loaded.specs.map((spec) => spec.name)),
      roots: facts.roots ?? undefined,
      contextSchema: facts.contextSchema,
      aliases: loaded.aliases,
    };
  } catch {
    return undefined;
  }
}

/** What a load read, to key the cache by: each file's token as the load saw it. */
export interface CacheSource {
  /** The compiled controller module (`compileControllerModule`). */
  readonly module: string;
  /** `LoadResult.files`: every file the load read or looked for, with what it found. */
  readonly files: ReadonlyMap<string, string>;
  readonly roots: readonly string[] | undefined;
  readonly contextSchema: unknown;
}

/**
 * Writes the cache for a configuration from what a load just read. Nothing is written when a file changed
 * between the load and now (the next run tries again), or when the module does not have the two imports it
 * must have. Never throws: a cache that cannot be written only makes the next run slower.
 */
export function writeHookCache(
  project: string,
  config: string,
  runtimeUrl: string,
  source: CacheSource,
): void {
  try {
    const files: (readonly [string, Token])[] = [];
    for (const [path, seen] of [...source.files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const now = fileToken(path);
      // The load's tokens are sha256 of the bytes, `missing`, `not-a-file` or `too-large:N` (which fails the load).
      if (now !== seen) return;
      files.push([path, now]);
    }
    if (!files.some(([path]) => path === config)) return;
    const directories = [...new Set(files.map(([path]) => dirname(path)))]
      .sort()
      .map((path) => [path, directoryToken(path)] as const);
    const key = keyOf(runtimeUrl, config, files, directories);
    // The compiled module's two imports, from the module that started this hook (see hook-start.ts).
    const runtimeImport = 'import { ToolPolicy } from "toolgate/runtime";';
    const compiledImport = 'import { assembleController, verifyCompiledModule } from "toolgate/compiled";';
    if (!source.module.includes(runtimeImport) || !source.module.includes(compiledImport)) return;
    const text = source.module
      .replace(runtimeImport, "")
      .replace(
        compiledImport,
        `import { ToolPolicy, assembleController, verifyCompiledModule } from ${JSON.stringify(runtimeUrl)};`,
      );
    if (text.includes('"toolgate/')) return;
    const facts: HookFacts = {
      inputsKey: key,
      roots: source.roots ?? null,
      contextSchema: source.contextSchema,
    };
    // Read with JSON.parse from a string literal: a `__proto__` key in the context schema stays data.
    const module = `${text}\n/** What the hook needs besides the controller. */\nexport const hookCache = JSON.parse(${JSON.stringify(JSON.stringify(facts))});\n`;
    const slot = slotOf(project, config, runtimeUrl);
    mkdirSync(slot.dir, { recursive: true });
    const moduleName = `${slot.id}-${key.slice(7, 23)}.mjs`;
    const previous = readIndex(slot.index);
    writeAtomically(join(slot.dir, moduleName), module);
    const index: CacheIndex = {
      version: CACHE_VERSION,
      key,
      module: moduleName,
      facts: sha256(JSON.stringify(facts)),
      files,
      directories,
    };
    writeAtomically(slot.index, `${JSON.stringify(index, null, 1)}\n`);
    if (previous !== undefined && previous.module !== moduleName) {
      try {
        unlinkSync(join(slot.dir, previous.module));
      } catch {
        // Another run may have removed it already.
      }
    }
  } catch {
    // The cache is an optimisation: the decision was made from the policy's files.
  }
}

/** Writes a file so that a reader sees the old contents or the new, never a part: a temporary file, renamed. */
function writeAtomically(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
  try {
    writeFileSync(temporary, text, { flag: "wx" });
    renameSync(temporary, path);
  } catch (error) {
    try {
      unlinkSync(temporary);
    } catch {
      // Nothing was written.
    }
    throw error;
  }
}
