/**
 * A hash-chained JSON Lines audit log, optionally keyed.
 *
 * Each line is one JSON object: `seq` (1, 2, 3, … with no gaps), `prev` (the chain value of the previous line;
 * for the first line the genesis value), then the fields of the `AuditEvent`. Every line ends with `\n`.
 *
 * - Unkeyed: a line's chain value is `sha256:` and the hex SHA-256 of its exact bytes (without the newline);
 *   the genesis value is `GENESIS_PREV` (`sha256:` and 64 zeros).
 * - Keyed: each line ends with a `mac` field, `hmac-sha256:` and the hex HMAC-SHA256, under the log's key, of
 *   the line's exact bytes before `,"mac":…` followed by `}` (so the `seq`, the `prev` and the event). The
 *   line's chain value is its `mac`; the genesis value is `KEYED_GENESIS_PREV` (`hmac-sha256:` and 64 zeros).
 *
 * What `verifyAuditLog` proves (section "Audit log" of the policy reference says the same):
 * - Always: the lines form one unbroken chain from the genesis value: an edited, deleted, inserted or moved
 *   line (other than the last), a line that is not an audit line, and a last line cut short are named.
 * - Without a key the chain is only a checksum: anyone who can write the file can cut lines from its end,
 *   edit its last line, or recompute the whole chain.
 * - With the key, every line (the last one too) was written by a holder of the key, in this order: an edit,
 *   a forged line or a rewrite needs the key. Lines cut from the end still leave a valid, shorter log.
 * - With an anchor (`expect: { count, hash }`, a head saved earlier where the log's writer cannot change it),
 *   the first `count` lines are the ones that were there when the anchor was taken: cutting, editing or
 *   rewriting any of them is caught, keyed or not.
 */

import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { constants, readFileSync, statSync } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import path from "node:path";
import type { AuditEvent, AuditHead, AuditSink } from "../runtime/audit.js";
import { StoreUnavailableError, ToolgateError } from "../runtime/errors.js";
import { countOf } from "../runtime/plural.js";
import { describeError, toStoreError } from "./store-errors.js";
import { NO_FOLLOW, prepareStoreFile } from "./store-files.js";

/** `prev` of the first line of an unkeyed log. */
export const GENESIS_PREV = `sha256:${"0".repeat(64)}`;
/** `prev` of the first line of a keyed log. */
export const KEYED_GENESIS_PREV = `hmac-sha256:${"0".repeat(64)}`;

/** Where the chain stands: the number of lines and the chain value of the last one (the genesis value for none). */
export type AuditLogHead = AuditHead;

/** Result of `verifyAuditLog`. `line` is 1-based. */
export type AuditLogCheck =
  | {
      readonly ok: true;
      readonly lines: number;
      readonly head: AuditLogHead;
      /** Whether the lines carry a MAC (and so were checked against the key). */
      readonly keyed: boolean;
    }
  | {
      readonly ok: false;
      readonly line: number;
      readonly message: string;
      /** `key-required`: the log is keyed and no key was given, so nothing was proved. */
      readonly reason?: "key-required";
    };

/** What `verifyAuditLog` checks besides the chain. */
export interface VerifyAuditLogOptions {
  /** The log's key: required for a keyed log, and then every line's MAC is checked. */
  readonly key?: Uint8Array;
  /**
   * A head saved earlier (`JsonlAuditSink.head()`, `toolgate audit head`): the log must still hold `count`
   * lines at least and, when `hash` is given, the chain value of line `count` must be `hash` (without
   * `count`: some line's, or the genesis value).
   */
  readonly expect?: { readonly count?: number; readonly hash?: string };
}

/** Where a sink's key comes from; at most one. A key has at least 32 bytes. */
export interface AuditKeySource {
  /** The key itself. */
  readonly key?: Uint8Array | string;
  /** A file holding the key (trailing whitespace ignored); it must not be readable by group or others. */
  readonly keyFile?: string;
  /** An environment variable holding the key. */
  readonly keyEnv?: string;
}

/** Options of `JsonlAuditSink`. */
export interface JsonlAuditSinkOptions extends AuditKeySource {
  /** Directory a relative path (of the log or of `keyFile`) is resolved against (default: `process.cwd()`). */
  readonly cwd?: string;
  /** `fdatasync` after every line, so that `record` resolves only once the line is on disk (default true). */
  readonly fsync?: boolean;
}

/** The fewest bytes a key may have. */
export const MIN_KEY_BYTES = 32;
const NEWLINE = 0x0a;
const MAC_PREFIX = ',"mac":"hmac-sha256:';
/** `,"mac":"hmac-sha256:` + 64 hex digits + `"}`. */
const MAC_SUFFIX_BYTES = MAC_PREFIX.length + 64 + 2;

function sha256Line(bytes: Uint8Array): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

function macOf(key: Uint8Array, body: Uint8Array): string {
  return `hmac-sha256:${createHmac("sha256", key).update(body).digest("hex")}`;
}

/** Compares two macs in constant time: both are `hmac-sha256:` and 64 hex digits (`macOf`, `parseLine`). */
function sameMac(a: string, b: string): boolean {
  return timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/**
 * Reads a key from exactly one source. Errors say what to do.
 * @throws Error when none, or more than one, is given, or the key is unreadable, exposed or too short.
 */
export function readAuditKey(source: AuditKeySource, cwd?: string): Uint8Array {
  const given = [source.key, source.keyFile, source.keyEnv].filter((s) => s !== undefined).length;
  if (given !== 1)
    throw new ToolgateError("audit-key", "give the audit key in one way: key, keyFile or keyEnv");
  let key: Buffer;
  let from: string;
  if (source.key !== undefined) {
    key = Buffer.from(source.key);
    from = "the key";
  } else if (source.keyEnv !== undefined) {
    const value = process.env[source.keyEnv];
    if (value === undefined || value === "") {
      throw new ToolgateError(
        "audit-key",
        `the environment variable ${source.keyEnv} that should hold the audit key is not set; ` +
          "set it to a secret of at least 32 bytes (for example the output of `openssl rand -hex 32`)",
      );
    }
    key = Buffer.from(value, "utf8");
    from = `the environment variable ${source.keyEnv}`;
  } else {
    const file = path.resolve(cwd ?? process.cwd(), source.keyFile as string);
    let mode: number;
    try {
      mode = statSync(file).mode;
      key = readFileSync(file);
    } catch (error) {
      throw new ToolgateError(
        "audit-key",
        `cannot read the audit key file ${file}: ${describeError(error)}; create it with ` +
          `\`openssl rand -hex 32 > ${file} && chmod 600 ${file}\``,
      );
    }
    if (process.platform !== "win32" && (mode & 0o077) !== 0) {
      throw new ToolgateError(
        "audit-key",
        `the audit key file ${file} can be read by other users (mode ${(mode & 0o777).toString(8)}); ` +
          `run \`chmod 600 ${file}\``,
      );
    }
    // An editor's final newline is not part of the key.
    let end = key.length;
    while (end > 0 && (key[end - 1] === 0x0a || key[end - 1] === 0x0d || key[end - 1] === 0x20)) end--;
    key = key.subarray(0, end);
    from = `the audit key file ${file}`;
  }
  if (key.length < MIN_KEY_BYTES) {
    throw new ToolgateError(
      "audit-key",
      `${from} holds ${countOf(key.length, "byte")}; an audit key needs at least ${MIN_KEY_BYTES} ` +
        "(for example the output of `openssl rand -hex 32`)",
    );
  }
  return key;
}

/**
 * An `AuditSink` appending chained JSON lines to a file (see the module comment for the format), keyed when
 * one of `key`, `keyFile` or `keyEnv` is given. `record` resolves once the line is written and, by default,
 * synced to disk. On first use it reads the last line of an existing file to continue its chain; a file whose
 * last line is cut short or is not a line of this format is refused, and so is an unkeyed log opened with a
 * key, a keyed log opened without one, or a keyed log whose last line does not match the key. One process
 * writes a file at a time: two writers would fork the chain, so before each line the sink checks that the file
 * still ends where its own last line did, and otherwise fails (closed) from then on. Two writes landing in the
 * same instant can still slip past that check; the next one is caught, and `verifyAuditLog` names the fork.
 *
 * The log is created with mode 0600 in a directory created 0700; a log that is a symbolic link, belongs to
 * another user or can be written by anyone is refused, and one readable by others is made private (see
 * `prepareStoreFile`).
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
  readonly #keySource: AuditKeySource | undefined;
  readonly #cwd: string | undefined;
  #key: Uint8Array | undefined;
  #opened: Promise<FileHandle> | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #head: AuditLogHead;
  /** The file's size after this sink's last line: anything else at the next write means another writer. */
  #size = 0;
  #failure: StoreUnavailableError | undefined;
  #closed = false;

  /**
   * @param file path of the log, relative to `options.cwd`. Nothing is opened, and no key read, before the
   *   first `record` or `head`.
   */
  constructor(file: string, options: JsonlAuditSinkOptions = {}) {
    this.name = `jsonl:${file}`;
    this.file = path.resolve(options.cwd ?? process.cwd(), file);
    this.#fsync = options.fsync ?? true;
    this.#cwd = options.cwd;
    const { key, keyFile, keyEnv } = options;
    const keyed = key !== undefined || keyFile !== undefined || keyEnv !== undefined;
    this.#keySource = keyed
      ? {
          ...(key === undefined ? {} : { key }),
          ...(keyFile === undefined ? {} : { keyFile }),
          ...(keyEnv === undefined ? {} : { keyEnv }),
        }
      : undefined;
    this.#head = { count: 0, hash: keyed ? KEYED_GENESIS_PREV : GENESIS_PREV };
  }

  /** Whether this sink writes a keyed chain. */
  get keyed(): boolean {
    return this.#keySource !== undefined;
  }

  /**
   * The number of lines and the last line's chain value after every `record` issued so far, opening the log
   * if that has not happened yet: save it where the log's writer cannot change it, and pass it to
   * `verifyAuditLog` as `expect`. @throws StoreUnavailableError when the log cannot be opened.
   */
  async head(): Promise<AuditLogHead> {
    await this.#queue;
    if (this.#closed) throw new StoreUnavailableError(this.name, "the sink is closed");
    if (this.#failure !== undefined) throw this.#failure;
    if (this.#opened === undefined) this.#opened = this.#open();
    await this.#opened;
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
    const count = this.#head.count + 1;
    const fields: Record<string, unknown> = { seq: count, prev: this.#head.hash };
    for (const [key, value] of Object.entries(event))
      if (key !== "seq" && key !== "prev" && key !== "mac") fields[key] = value;
    let body: Buffer;
    try {
      body = Buffer.from(JSON.stringify(fields), "utf8");
    } catch (error) {
      throw new StoreUnavailableError(this.name, `the event is not JSON: ${describeError(error)}`, {
        cause: error,
      });
    }
    let bytes = body;
    let hash: string;
    if (this.#key === undefined) {
      hash = sha256Line(body);
    } else {
      hash = macOf(this.#key, body);
      bytes = Buffer.concat([body.subarray(0, -1), Buffer.from(`,"mac":"${hash}"}`)]);
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
    this.#head = { count, hash };
  }

  async #open(): Promise<FileHandle> {
    let handle: FileHandle | undefined;
    try {
      if (this.#keySource !== undefined) {
        try {
          this.#key = readAuditKey(this.#keySource, this.#cwd);
        } catch (error) {
          throw new StoreUnavailableError(this.name, (error as Error).message);
        }
      }
      prepareStoreFile(this.name, this.file);
      handle = await open(
        this.file,
        constants.O_APPEND | constants.O_CREAT | constants.O_RDWR | NO_FOLLOW,
        0o600,
      );
      this.#head = await readHead(handle, this.name, this.#key);
      this.#size = (await handle.stat()).size;
      return handle;
    } catch (error) {
      await handle?.close().catch(() => {});
      this.#opened = undefined;
      throw toStoreError(this.name, "opening the log", error);
    }
  }
}

/** Reads the last line of an open log to continue its chain, checking it against the key. */
async function readHead(
  handle: FileHandle,
  name: string,
  key: Uint8Array | undefined,
): Promise<AuditLogHead> {
  const { size } = await handle.stat();
  if (size === 0) return { count: 0, hash: key === undefined ? GENESIS_PREV : KEYED_GENESIS_PREV };
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  if (last[0] !== NEWLINE) {
    throw new StoreUnavailableError(
      name,
      "the last line has no newline (a write was cut off or the file was truncated); " +
        "check it with `toolgate audit verify` and move the file aside",
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
  const parsed = parseLine(line);
  if (parsed === undefined) {
    throw new StoreUnavailableError(
      name,
      "the last line is not a toolgate audit line (JSON with seq and prev); check it with `toolgate audit verify`",
    );
  }
  if (key === undefined) {
    if (parsed.mac !== undefined) {
      throw new StoreUnavailableError(
        name,
        "the log is keyed (its lines carry a mac), but no key was given: set the sink's keyFile or keyEnv, " +
          "or start a new log",
      );
    }
    return { count: parsed.seq, hash: sha256Line(line) };
  }
  if (parsed.mac === undefined) {
    throw new StoreUnavailableError(
      name,
      "the log was written without a key, so a keyed sink cannot continue it; move it aside (keep it) and " +
        "start a new log",
    );
  }
  if (!sameMac(macOf(key, parsed.body), parsed.mac)) {
    throw new StoreUnavailableError(
      name,
      "the last line's mac does not match this key: the key is not the log's, or the line was changed; " +
        "check it with `toolgate audit verify --key …`",
    );
  }
  return { count: parsed.seq, hash: parsed.mac };
}

interface ParsedLine {
  readonly seq: number;
  readonly prev: string;
  /** The keyed line's MAC, and the bytes it covers. */
  readonly mac?: string;
  readonly body: Uint8Array;
}

function parseLine(bytes: Uint8Array): ParsedLine | undefined {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(bytes).toString("utf8"));
  } catch {
    return undefined;
  }
  // A number, string, boolean, null or array parsed from a line has no seq (Object(null) is {}).
  const { seq, prev, mac } = Object(value) as { seq?: unknown; prev?: unknown; mac?: unknown };
  // Number.isSafeInteger is false for anything that is not a number.
  if (!Number.isSafeInteger(seq) || (seq as number) < 1) return undefined;
  if (typeof prev !== "string") return undefined;
  if (mac === undefined) {
    if (!/^sha256:[0-9a-f]{64}$/.test(prev)) return undefined;
    return { seq: seq as number, prev, body: bytes };
  }
  // A keyed line: its mac is the last field, written exactly as the sink writes it. (Its prev alone makes the
  // line longer than that field.)
  if (!/^hmac-sha256:[0-9a-f]{64}$/.test(prev)) return undefined;
  const suffix = Buffer.from(bytes.subarray(bytes.length - MAC_SUFFIX_BYTES)).toString("latin1");
  if (!suffix.startsWith(MAC_PREFIX)) return undefined;
  const hex = suffix.slice(MAC_PREFIX.length, -2);
  if (/[^0-9a-f]/.test(hex)) return undefined;
  // A JSON object whose text ends in `,"mac":"hmac-sha256:` + 64 hex digits + two bytes: they can only be `"}`,
  // closing that string and the object, so its last `mac` field (the one JSON.parse keeps) is that string.
  const body = Buffer.concat([bytes.subarray(0, bytes.length - MAC_SUFFIX_BYTES), Buffer.from("}")]);
  return { seq: seq as number, prev, mac: `hmac-sha256:${hex}`, body };
}

/**
 * Checks the chain of a JSONL audit log, keyed or not, and names the first bad line (1-based); with
 * `options.expect`, also that the log still holds the lines of a saved head. See the module comment for what
 * this proves with and without a key and an anchor. Reads the whole file into memory.
 * @throws StoreUnavailableError when the file cannot be read.
 */
export function verifyAuditLog(file: string, options: VerifyAuditLogOptions = {}): AuditLogCheck {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch (error) {
    throw toStoreError(`jsonl:${file}`, "reading the log", error);
  }
  const key = options.key;
  const expect = options.expect;
  let keyed = key !== undefined;
  let prevHash = keyed ? KEYED_GENESIS_PREV : GENESIS_PREV;
  /** The chain value of line `expect.count`, or whether some line's is `expect.hash`. */
  let anchorSeen = expect?.hash !== undefined && prevHash === expect.hash;
  let hashAtCount = expect?.count === 0 ? prevHash : undefined;
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
            : `line ${line} is not an audit line (JSON with a positive integer seq and a sha256: or hmac-sha256: prev)`,
      };
    }
    if (line === 1) {
      if (parsed.mac !== undefined && key === undefined) {
        return {
          ok: false,
          line,
          reason: "key-required",
          message:
            "the log is keyed (its lines carry a mac): give its key (--key FILE or --key-env NAME) to verify it",
        };
      }
      if (parsed.mac === undefined && key !== undefined) {
        return {
          ok: false,
          line,
          message:
            "line 1 has no mac, yet a key was given: the log was written without a key, or rewritten by someone who does not hold it",
        };
      }
      keyed = parsed.mac !== undefined;
    } else if ((parsed.mac !== undefined) !== keyed) {
      return {
        ok: false,
        line,
        message: `line ${line} ${keyed ? "has no mac" : "has a mac"}, unlike line 1: it was inserted or changed`,
      };
    }
    if (key !== undefined && !sameMac(macOf(key, parsed.body), parsed.mac as string)) {
      return {
        ok: false,
        line,
        message: `line ${line}'s mac does not match the key: the line was changed or forged by someone without the key, or the key is not the log's`,
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
        ? {
            ok: false,
            line,
            message: `line 1 has prev ${parsed.prev}, expected the genesis value ${prevHash}: lines before it were removed, or it was changed`,
          }
        : {
            ok: false,
            line: line - 1,
            message: `line ${line - 1} does not match the ${keyed ? "mac" : "hash"} recorded in line ${line} (prev): line ${line - 1} was changed (or the prev of line ${line} was)`,
          };
    }
    prevHash = parsed.mac ?? sha256Line(bytes);
    if (expect?.count === line) hashAtCount = prevHash;
    if (expect?.hash !== undefined && prevHash === expect.hash) anchorSeen = true;
  }
  if (expect !== undefined) {
    const last = Math.max(line, 1);
    if (expect.count !== undefined && line < expect.count) {
      return {
        ok: false,
        line: last,
        message: `the log has ${countOf(line, "line")} but the anchor says ${expect.count}: lines were removed from its end, or the log was replaced`,
      };
    }
    if (expect.hash !== undefined) {
      if (expect.count !== undefined && hashAtCount !== expect.hash) {
        return {
          ok: false,
          line: Math.max(expect.count, 1),
          message: `line ${expect.count} does not end the chain at the anchor's ${expect.hash}: a line up to it was changed, or the log was rewritten`,
        };
      }
      // With a count, line `count` ends the chain at the anchor's hash (checked above), so some line does.
      if (!anchorSeen) {
        return {
          ok: false,
          line: last,
          message: `no line of the log ends the chain at the anchor's ${expect.hash}: a line up to the anchor was changed or removed, or the log was rewritten`,
        };
      }
    }
  }
  return { ok: true, lines: line, head: { count: line, hash: prevHash }, keyed };
}
