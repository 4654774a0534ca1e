/** What every CLI command shares: exit codes, colour, output, version, and the usage-error type. */
import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { MAX_FILE_BYTES } from "../config/parse-yaml.js";
import { ToolgateError } from "../runtime/errors.js";

/** Exit codes of DESIGN.md section 7. */
export const EXIT = { ok: 0, findings: 1, usage: 2 } as const;

/** A problem with how the command was called (exit 2). */
export class UsageError extends ToolgateError {
  constructor(message: string) {
    super("usage", message);
  }
}

/** The package version. */
export function toolVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  return pkg.version;
}

/** Colour only on a terminal, never with `--no-color` or `NO_COLOR`; `FORCE_COLOR` forces it. */
export function useColor(flag: boolean | undefined): boolean {
  if (flag === false) return false;
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== "") return false;
  if (process.env.FORCE_COLOR !== undefined && process.env.FORCE_COLOR !== "0") return true;
  return process.stdout.isTTY === true;
}

/** Checks a `--format` value against the formats a command supports. */
export function parseFormat<F extends string>(value: string, allowed: readonly F[]): F {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`unknown format "${value}"; use one of ${allowed.join(", ")}`);
  }
  return value as F;
}

/** Parses `--max-warnings N` (a non-negative integer). */
export function parseMaxWarnings(value: string | undefined): number {
  if (value === undefined) return Number.POSITIVE_INFINITY;
  if (!/^\d+$/.test(value))
    throw new UsageError(`--max-warnings needs a non-negative integer, got "${value}"`);
  return Number(value);
}

/** Writes text to stdout, adding a final newline when missing. */
export function print(text: string): void {
  if (text === "") return;
  process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
}

/** Writes an error line to stderr. */
export function printError(text: string): void {
  process.stderr.write(`toolgate: ${text}\n`);
}

/** `HOST:PORT` of `--listen` (an IPv6 host in brackets). */
export function parseListen(value: string): { readonly host: string; readonly port: number } {
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(value);
  const port = match === null ? Number.NaN : Number(match[2]);
  if (match === null || !(port >= 0 && port <= 65_535))
    throw new UsageError(`--listen needs HOST:PORT (such as 127.0.0.1:8808), got "${value}"`);
  return { host: (match[1] as string).replace(/^\[|\]$/g, ""), port };
}

/**
 * The text of a file a diagnostic names (relative to the working directory), for the source excerpts of the
 * stylish output; `undefined` when it cannot be read, is not a regular file, or is larger than a policy file
 * may be (a diagnostic then says so; the excerpt is not worth reading it).
 */
export function readSourceFile(file: string): string | undefined {
  try {
    const path = resolve(file);
    const stat = statSync(path);
    if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return undefined;
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}
