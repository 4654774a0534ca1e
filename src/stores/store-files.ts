/**
 * File-system hygiene for the files of the durable stores (a SQLite database with its `-wal` and `-shm`
 * files, a JSONL audit log). They hold unredacted arguments and decide what runs, so:
 *
 * - a directory toolgate creates for them is made `0700`; a file it creates is made `0600`;
 * - an existing file that group or others can read is tightened to `0600` when it is ours; one that anyone can
 *   write to is refused (someone else may already have written to it), and so is one owned by another user;
 * - a store path that is a symbolic link is refused (another user could point it at their own file), and so
 *   is a directory that belongs to another user (not the current one, not root) or that anyone can write to
 *   without the sticky bit (they could swap the files).
 *
 * On Windows, where these modes and owners mean nothing, only the symbolic-link rule applies.
 */
import {
  chmodSync,
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  openSync,
  type Stats,
  statSync,
} from "node:fs";
import path from "node:path";
import { StoreUnavailableError } from "../runtime/errors.js";
import { describeError } from "./store-errors.js";

const POSIX = process.platform !== "win32" && typeof process.getuid === "function";
/** `O_NOFOLLOW` where the platform has it (0 elsewhere). */
export const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

const octal = (mode: number): string => (mode & 0o7777).toString(8).padStart(3, "0");

function currentUid(): number {
  return (process.getuid as () => number)();
}

function foreignOwner(stats: Stats): boolean {
  const uid = currentUid();
  return stats.uid !== uid && stats.uid !== 0;
}

/** Creates (0700) or checks the directory a store file lives in. @throws StoreUnavailableError. */
function prepareDirectory(store: string, dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new StoreUnavailableError(store, `cannot create the directory ${dir}: ${describeError(error)}`, {
      cause: error,
    });
  }
  if (!POSIX) return;
  const stats = statSync(dir);
  if (!stats.isDirectory()) throw new StoreUnavailableError(store, `${dir} is not a directory`);
  if (foreignOwner(stats)) {
    throw new StoreUnavailableError(
      store,
      `the directory ${dir} belongs to another user (uid ${stats.uid}; this process runs as uid ${currentUid()}), ` +
        "who could replace the store's files; keep stores in a directory of your own, or have its owner chown it to you",
    );
  }
  if ((stats.mode & 0o002) !== 0 && (stats.mode & 0o1000) === 0) {
    throw new StoreUnavailableError(
      store,
      `anyone can write to the directory ${dir} (mode ${octal(stats.mode)}) and so replace the store's files; ` +
        `run \`chmod o-w ${dir}\` or keep stores in a directory of your own`,
    );
  }
}

/**
 * Checks an existing store file (nothing happens when it does not exist): refuses a symbolic link, something
 * other than a regular file, a file of another user and a world-writable file; tightens ours to 0600.
 * @throws StoreUnavailableError.
 */
function checkFile(store: string, file: string): void {
  let stats: Stats;
  try {
    stats = lstatSync(file);
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") return;
    throw new StoreUnavailableError(store, `cannot inspect ${file}: ${describeError(error)}`, {
      cause: error,
    });
  }
  if (stats.isSymbolicLink()) {
    throw new StoreUnavailableError(
      store,
      `${file} is a symbolic link; toolgate does not follow links to its stores (another user could point one at a ` +
        "file of theirs): configure the real path instead",
    );
  }
  if (!stats.isFile()) throw new StoreUnavailableError(store, `${file} is not a regular file`);
  if (!POSIX) return;
  if (foreignOwner(stats)) {
    throw new StoreUnavailableError(
      store,
      `${file} belongs to another user (uid ${stats.uid}; this process runs as uid ${currentUid()}); a store must be ` +
        "the process's own file: move it aside, or have its owner chown it to you",
    );
  }
  if ((stats.mode & 0o002) !== 0) {
    throw new StoreUnavailableError(
      store,
      `anyone can write to ${file} (mode ${octal(stats.mode)}), so its content cannot be trusted; check it, then ` +
        `run \`chmod 600 ${file}\``,
    );
  }
  if ((stats.mode & 0o077) !== 0) {
    try {
      chmodSync(file, 0o600);
    } catch (error) {
      throw new StoreUnavailableError(
        store,
        `${file} can be read by other users (mode ${octal(stats.mode)}) and cannot be made private: ` +
          `${describeError(error)}; run \`chmod 600 ${file}\``,
        { cause: error },
      );
    }
  }
}

/**
 * Makes a store file safe to open: its directory exists (created 0700) and is not another user's, and the
 * file and its `companions` (such as SQLite's `-wal` and `-shm`) are neither links nor someone else's, and are
 * private (0600). With `create`, a missing file is created empty with mode 0600, without following a link.
 * @throws StoreUnavailableError saying what is wrong and what to do.
 */
export function prepareStoreFile(
  store: string,
  file: string,
  options: { readonly companions?: readonly string[]; readonly create?: boolean } = {},
): void {
  prepareDirectory(store, path.dirname(file));
  for (const name of [file, ...(options.companions ?? [])]) checkFile(store, name);
  if (options.create === true) {
    try {
      closeSync(openSync(file, constants.O_CREAT | constants.O_WRONLY | NO_FOLLOW, 0o600));
    } catch (error) {
      throw new StoreUnavailableError(store, `cannot create ${file}: ${describeError(error)}`, {
        cause: error,
      });
    }
  }
}

/** After a store is opened: tightens the companion files the store may have created meanwhile. */
export function tightenStoreFiles(store: string, files: readonly string[]): void {
  for (const file of files) checkFile(store, file);
}
