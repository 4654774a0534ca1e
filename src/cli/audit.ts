import { escapeControl } from "../diagnostics/escape-control.js";
import { countOf } from "../runtime/plural.js";
import { type AuditKeySource, readAuditKey, verifyAuditLog } from "../stores/jsonl-audit-sink.js";
import { parseStoreUrl, type StoreUrl } from "../stores/store-url.js";
import { EXIT, parseFormat, print, printError, UsageError } from "./common.js";
import { storeUrlFromConfig } from "./store-options.js";

/** Options of `toolgate audit verify` and `toolgate audit head`. */
export interface AuditOptions {
  readonly config?: string;
  /** A file holding the log's HMAC key. */
  readonly key?: string;
  /** An environment variable holding the log's HMAC key. */
  readonly keyEnv?: string;
  /** A chain value saved earlier (`toolgate audit head`). */
  readonly expectHead?: string;
  /** A line count saved earlier. */
  readonly expectCount?: string;
  readonly format?: string;
}

/** The log to read and where its key comes from: the flags, else the config's `audit.sink`. */
function target(path: string | undefined, options: AuditOptions): { file: string; key?: AuditKeySource } {
  if (options.key !== undefined && options.keyEnv !== undefined)
    throw new UsageError("give the key once: --key FILE or --key-env NAME");
  const flagKey: AuditKeySource | undefined =
    options.key !== undefined
      ? { keyFile: options.key }
      : options.keyEnv !== undefined
        ? { keyEnv: options.keyEnv }
        : undefined;
  if (path !== undefined) return flagKey === undefined ? { file: path } : { file: path, key: flagKey };
  const url = storeUrlFromConfig(options, "audit");
  let parsed: StoreUrl;
  try {
    parsed = parseStoreUrl(url, "audit sink");
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.kind !== "jsonl")
    throw new UsageError(`the audit sink is ${url}; audit verify and head read jsonl: logs — pass PATH`);
  const configKey = Object.keys(parsed.key).length > 0 ? parsed.key : undefined;
  const key = flagKey ?? configKey;
  return key === undefined ? { file: parsed.path } : { file: parsed.path, key };
}

function loadKey(source: AuditKeySource | undefined): Uint8Array | undefined {
  if (source === undefined) return undefined;
  try {
    return readAuditKey(source);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function anchor(options: AuditOptions): { count?: number; hash?: string } | undefined {
  const { expectHead, expectCount } = options;
  if (expectHead === undefined && expectCount === undefined) return undefined;
  if (expectHead !== undefined && !/^(sha256|hmac-sha256):[0-9a-f]{64}$/.test(expectHead)) {
    throw new UsageError(
      `--expect-head needs a chain value as \`toolgate audit head\` prints it (sha256:… or hmac-sha256:… with 64 hex digits), got "${escapeControl(expectHead)}"`,
    );
  }
  if (expectCount !== undefined && !/^\d+$/.test(expectCount))
    throw new UsageError(`--expect-count needs a non-negative integer, got "${escapeControl(expectCount)}"`);
  return {
    ...(expectCount === undefined ? {} : { count: Number(expectCount) }),
    ...(expectHead === undefined ? {} : { hash: expectHead }),
  };
}

function check(path: string | undefined, options: AuditOptions, withAnchor: boolean) {
  const { file, key: source } = target(path, options);
  const key = loadKey(source);
  const expect = withAnchor ? anchor(options) : undefined;
  try {
    return {
      file,
      check: verifyAuditLog(file, {
        ...(key === undefined ? {} : { key }),
        ...(expect === undefined ? {} : { expect }),
      }),
      anchored: expect !== undefined,
    };
  } catch (error) {
    const code = ((error as Error).cause as { code?: unknown } | undefined)?.code;
    throw new UsageError(
      code === "ENOENT"
        ? `${file}: no audit log there — nothing has been recorded to it yet, or the path is wrong ` +
            "(check audit.sink in the config, or the PATH given)"
        : (error as Error).message,
    );
  }
}

/**
 * `toolgate audit verify [PATH]`: checks the chain of a JSONL audit log, its MACs with `--key`/`--key-env`
 * (or the config's `keyFile`/`keyEnv`), and a saved head with `--expect-head`/`--expect-count`.
 */
export async function runAuditVerify(path: string | undefined, options: AuditOptions): Promise<number> {
  const { file, check: result, anchored } = check(path, options, true);
  const shown = escapeControl(file);
  if (result.ok) {
    const what = result.keyed
      ? "keyed chain intact (every MAC matches the key)"
      : "hash chain intact (no key)";
    print(
      `${shown}: ${countOf(result.lines, "line")}, ${what}${anchored ? ", anchor found" : ", no anchor checked (lines cut from the end would not show)"}`,
    );
    return EXIT.ok;
  }
  printError(`${shown}:${result.line}: ${result.message}`);
  return result.reason === "key-required" ? EXIT.usage : EXIT.findings;
}

/** `toolgate audit head [PATH]`: verifies the log and prints its head, the anchor for a later `verify`. */
export async function runAuditHead(path: string | undefined, options: AuditOptions): Promise<number> {
  const format = parseFormat(options.format ?? "stylish", ["stylish", "json"] as const);
  const { file, check: result } = check(path, options, false);
  const shown = escapeControl(file);
  if (!result.ok) {
    printError(`${shown}:${result.line}: ${result.message}; no head printed`);
    return result.reason === "key-required" ? EXIT.usage : EXIT.findings;
  }
  if (format === "json") {
    print(JSON.stringify({ file, count: result.head.count, hash: result.head.hash, keyed: result.keyed }));
  } else {
    print(
      `${shown}: ${countOf(result.head.count, "line")}, head ${result.head.hash}${result.keyed ? " (keyed)" : ""}`,
    );
    print(
      `keep it where the log's writer cannot change it; check later with: toolgate audit verify --expect-count ${result.head.count} --expect-head ${result.head.hash}`,
    );
  }
  return EXIT.ok;
}
