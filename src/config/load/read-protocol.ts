/**
 * The read protocol of the policy load: the load is a generator that asks its driver for file contents and
 * marks where it may pause (`LoadSteps`); the two ways of answering a read (synchronously, and with
 * `fs/promises`); and what a read found, as the token a watcher compares (`fileToken`).
 */

import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { MAX_FILE_BYTES } from "../parse-yaml.js";

/** What a load step asks its driver for: a file's contents, or a place where it may give the loop back. */
export type LoadRequest = { readonly kind: "read"; readonly path: string } | { readonly kind: "pause" };

/** The driver's answer to a read. `size` is set when the file was too large to read. */
export type ReadAnswer =
  | { readonly ok: true; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly reason: "missing" | "not-a-file"; readonly error?: unknown }
  | { readonly ok: false; readonly reason: "too-large"; readonly size: number };

/** A step of the load: yields requests, receives answers (`undefined` after a pause), returns `T`. */
export type LoadSteps<T> = Generator<LoadRequest, T, ReadAnswer | undefined>;

/** A place where the load may give the event loop back. */
export const PAUSE: LoadRequest = { kind: "pause" };
/** Asks the driver for the contents of `path`. */
export function* readRequest(path: string): LoadSteps<ReadAnswer> {
  return (yield { kind: "read", path }) as ReadAnswer;
}
/** What a read found, as a short string: `sha256:…` of the bytes, `missing`, `not-a-file` or `too-large:SIZE`. */
export function tokenOf(answer: ReadAnswer): string {
  if (answer.ok) return `sha256:${createHash("sha256").update(answer.bytes).digest("hex")}`;
  return answer.reason === "too-large" ? `too-large:${answer.size}` : answer.reason;
}

/**
 * What a load reading `path` now would find there, as `LoadResult.files` records it: a watcher compares the
 * two to see whether a file changed after the load read it.
 */
export async function fileToken(path: string): Promise<string> {
  return tokenOf(await readAsync(path));
}
/** Answers a read synchronously (the command line's driver). */
export function readSync(path: string): ReadAnswer {
  let size: number;
  try {
    const found = statSync(path);
    if (!found.isFile()) return { ok: false, reason: "not-a-file" };
    size = found.size;
  } catch (error) {
    return { ok: false, reason: "missing", error };
  }
  if (size > MAX_FILE_BYTES) return { ok: false, reason: "too-large", size };
  try {
    return { ok: true, bytes: readFileSync(path) };
  } catch (error) {
    return { ok: false, reason: "missing", error };
  }
}

/** Answers a read with `fs/promises` (the asynchronous driver). */
export async function readAsync(path: string): Promise<ReadAnswer> {
  let size: number;
  try {
    const found = await stat(path);
    if (!found.isFile()) return { ok: false, reason: "not-a-file" };
    size = found.size;
  } catch (error) {
    return { ok: false, reason: "missing", error };
  }
  if (size > MAX_FILE_BYTES) return { ok: false, reason: "too-large", size };
  try {
    return { ok: true, bytes: await readFile(path) };
  } catch (error) {
    return { ok: false, reason: "missing", error };
  }
}
