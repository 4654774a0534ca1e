/**
 * A hash-chained JSON Lines audit log.
 *
 * Each line is one JSON object: `seq` (1, 2, 3, … with no gaps), `prev` (`sha256:` and the hex SHA-256 of the
 * previous line's exact bytes, without its newline; the first line's `prev` is `GENESIS_PREV`, `sha256:` and
 * 64 zeros), then the fields of the `AuditEvent`. Every line ends with `\n`.
 *
 * What `verifyAuditLog` detects, naming the 1-based line: a line that was edited (its successor's `prev` no
 * longer matches), a deleted, inserted or moved line (`seq` out of order), a line that is not JSON or lacks
 * `seq`/`prev`, and a last line cut short (no final newline).
 *
 * What it cannot detect on its own: lines removed from the end of the file (the file still verifies, with
 * fewer lines), an edit of the very last line, or a whole log rewritten with a fresh chain. Against those,
 * keep the last line's hash (`JsonlAuditSink.head`) somewhere the writer of the file cannot change, and
 * compare.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import path from "node:path";
import type { AuditEvent, AuditSink } from "../runtime/audit.js";
import { StoreUnavailableError } from "../runtime/errors.js";
import { describeError, toStoreError } from "./store-errors.js";

/** `prev` of the first line of a log. */
export const GENESIS_PREV = `sha256:${"0".repeat(64)}`;

/** Where the chain stands: the last line's `seq` and the hash of its bytes (`GENESIS_PREV` for none). */
export interface AuditLogHead {
  readonly seq: number;
  readonly hash: string;
}

/** Result of `verifyAuditLog`. `line` is 1-based. */
export type AuditLogCheck =
  | { readonly ok: true; readonly lines: number; readonly head: AuditLogHead }
  | { readonly ok: false; readonly line: number; readonly message: string };

/** Options of `JsonlAuditSink`. */
export interface JsonlAuditSinkOptions {
  /** Directory a relative path is resolved against (default: `process.cwd()`). */
  readonly cwd?: string;
  /** `fdatasync` after every line, so that `record` resolves only once the line is on disk (default true). */
  readonly fsync?: boolean;
}

const NEWLINE = 0x0a;

function hashLine(bytes: Uint8Array): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

/**
 * An `AuditSink` appending hash-chained JSON lines to a file (see the module comment for the format).
 * `record` resolves once the line is written and, by default, synced to disk. On first use it reads the last
 * line of an existing file to continue its chain; a file whose last line is cut short or is not a line of
 * this format is refused. One process writes a file at a time: two writers would fork the chain, so before
 * each line the sink checks that the file still ends where its own last line did, and otherwise fails (closed)
 * from then on. Two writes landing in the same instant can still slip past that check; the next one is
 * caught, and `verifyAuditLog` names the fork.
 *
 * Failures reject with `StoreUnavailableError` naming `jsonl:<path>`; after a failed write every later
 * `record` fails too, because the chain on disk can no longer be trusted to continue.
 */
export class JsonlAuditSink implements AuditSink {
  /** `jsonl:` followed by the path as given. */
  readonly name: string;
  /** The absolute path of the log. */
  readonly file: string;
  readonly #fsync: boolean;
  #opened: Promise<FileHandle> | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #head: AuditLogHead = { seq: 0, hash: GENESIS_PREV };
  /** The file's size after this sink's last line: anything else at the next write means another writer. */
  #size = 0;
  #failure: StoreUnavailableError | undefined;
  #closed = false;

  /** @param file path of the log, relative to `options.cwd`. Nothing is opened before the first `record`. */
  constructor(file: string, options: JsonlAuditSinkOptions = {}) {
    this.name = `jsonl:${file}`;
    this.file = path.resolve(options.cwd ?? process.cwd(), file);
    this.#fsync = options.fsync ?? true;
  }

  /**
   * The last line's `seq` and hash, to keep elsewhere as an anchor for `verifyAuditLog`. Known once the file
   * has been opened (at the first `record`); before that it is the genesis head.
   */
  get head(): AuditLogHead {
    return this.#head;
  }

  /** Appends one event as a line. @throws StoreUnavailableError. */
  record(event: AuditEvent): Promise<void> {
    const next = this.#queue.then(() => this.#append(event));
    this.#queue = next.catch(() => {});
    return next;
  }

  /** Waits for pending writes and closes the file. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#queue;
    const opened = this.#opened;
    this.#opened = undefined;
    if (opened !== undefined) await opened.then((h) => h.close()).catch(() => {});
  }

  async #append(event: AuditEvent): Promise<void> {
    if (this.#closed) throw new StoreUnavailableError(this.name, "the sink is closed");
    if (this.#failure !== undefined) throw this.#failure;
    if (this.#opened === undefined) this.#opened = this.#open();
    const handle = await this.#opened;
    const seq = this.#head.seq + 1;
    const fields: Record<string, unknown> = { seq, prev: this.#head.hash };
    for (const [key, value] of Object.entries(event))
      if (key !== "seq" && key !== "prev") fields[key] = value;
    let bytes: Buffer;
    try {
      bytes = Buffer.from(JSON.stringify(fields), "utf8");
    } catch (error) {
      throw new StoreUnavailableError(this.name, `the event is not JSON: ${describeError(error)}`, {
        cause: error,
      });
    }
    let size: number;
    try {
      size = (await handle.stat()).size;
    } catch (error) {
      throw toStoreError(this.name, "checking the log", error);
    }
    if (size !== this.#size) {
      this.#failure = new StoreUnavailableError(
        this.name,
        `the log changed under this writer (${size} bytes, not the ${this.#size} it wrote): another process ` +
          "appended to it, or it was cut; a jsonl: log has one writer at a time — give each process its own " +
          "log, or use sqlite: or postgres:// for several processes",
      );
      throw this.#failure;
    }
    const line = Buffer.concat([bytes, Buffer.from("\n")]);
    try {
      await handle.appendFile(line);
      if (this.#fsync) await handle.datasync();
    } catch (error) {
      this.#failure = toStoreError(this.name, "an earlier write", error);
      throw toStoreError(this.name, "writing an event", error);
    }
    this.#size += line.length;
    this.#head = { seq, hash: hashLine(bytes) };
  }

  async #open(): Promise<FileHandle> {
    let handle: FileHandle | undefined;
    try {
      mkdirSync(path.dirname(this.file), { recursive: true });
      handle = await open(this.file, "a+");
      this.#head = await readHead(handle, this.name);
      this.#size = (await handle.stat()).size;
      return handle;
    } catch (error) {
      await handle?.close().catch(() => {});
      this.#opened = undefined;
      throw toStoreError(this.name, "opening the log", error);
    }
  }
}

/** Reads the last line of an open log to continue its chain. */
async function readHead(handle: FileHandle, name: string): Promise<AuditLogHead> {
  const { size } = await handle.stat();
  if (size === 0) return { seq: 0, hash: GENESIS_PREV };
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  if (last[0] !== NEWLINE) {
    throw new StoreUnavailableError(
      name,
      "the last line has no newline (a write was cut off or the file was truncated); " +
        "check it with verifyAuditLog and move the file aside",
    );
  }
  // Read backwards in chunks until the newline before the last line.
  const chunks: Buffer[] = [];
  let start = size - 1;
  for (;;) {
    const from = Math.max(0, start - 65_536);
    const chunk = Buffer.alloc(start - from);
    await handle.read(chunk, 0, chunk.length, from);
    const nl = chunk.lastIndexOf(NEWLINE);
    if (nl >= 0) {
      chunks.unshift(chunk.subarray(nl + 1));
      break;
    }
    chunks.unshift(chunk);
    start = from;
    if (from === 0) break;
  }
  const line = Buffer.concat(chunks);
  const seq = parseLine(line)?.seq;
  if (seq === undefined) {
    throw new StoreUnavailableError(
      name,
      "the last line is not a toolgate audit line (JSON with seq and prev)",
    );
  }
  return { seq, hash: hashLine(line) };
}

function parseLine(bytes: Uint8Array): { seq: number; prev: string } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(bytes).toString("utf8"));
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const { seq, prev } = value as { seq?: unknown; prev?: unknown };
  if (typeof seq !== "number" || !Number.isSafeInteger(seq) || seq < 1) return undefined;
  if (typeof prev !== "string" || !/^sha256:[0-9a-f]{64}$/.test(prev)) return undefined;
  return { seq, prev };
}

/**
 * Checks the hash chain of a JSONL audit log and names the first bad line (1-based). See the module comment
 * for what is and is not detectable. Reads the whole file into memory.
 * @throws StoreUnavailableError when the file cannot be read.
 */
export function verifyAuditLog(file: string): AuditLogCheck {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch (error) {
    throw toStoreError(`jsonl:${file}`, "reading the log", error);
  }
  let prevHash = GENESIS_PREV;
  let line = 0;
  let offset = 0;
  while (offset < data.length) {
    line++;
    const nl = data.indexOf(NEWLINE, offset);
    if (nl < 0) {
      return {
        ok: false,
        line,
        message: `line ${line} has no newline at its end: the file was truncated or a write was cut off`,
      };
    }
    const bytes = data.subarray(offset, nl);
    offset = nl + 1;
    const parsed = parseLine(bytes);
    if (parsed === undefined) {
      return {
        ok: false,
        line,
        message:
          bytes.length === 0
            ? `line ${line} is empty`
            : `line ${line} is not an audit line (JSON with a positive integer seq and a sha256: prev)`,
      };
    }
    const linked = parsed.prev === prevHash;
    if (parsed.seq > line) {
      return {
        ok: false,
        line,
        message: `line ${line} has seq ${parsed.seq}, expected ${line}: a line before it was deleted or moved`,
      };
    }
    if (parsed.seq < line) {
      // A forged line that fits the chain (seq and prev right) is seen one line late, at its honest successor,
      // whose seq is then one behind and whose prev points past the forgery: blame the forged line.
      return linked || parsed.seq !== line - 1
        ? {
            ok: false,
            line,
            message: `line ${line} has seq ${parsed.seq}, expected ${line}: it was inserted or moved`,
          }
        : {
            ok: false,
            line: line - 1,
            message: `line ${line - 1} does not match the prev of line ${line}, whose seq ${parsed.seq} is out of order: line ${line - 1} was inserted or changed`,
          };
    }
    if (!linked) {
      return line === 1
        ? { ok: false, line, message: `line 1 has prev ${parsed.prev}, expected ${GENESIS_PREV}` }
        : {
            ok: false,
            line: line - 1,
            message: `line ${line - 1} does not match the hash recorded in line ${line} (prev): line ${line - 1} was changed (or the prev of line ${line} was)`,
          };
    }
    prevHash = hashLine(bytes);
  }
  return { ok: true, lines: line, head: { seq: line, hash: prevHash } };
}
