/** Group commit for the SQLite approval store and audit sink. */
import type Database from "better-sqlite3";
import { StoreUnavailableError } from "../runtime/errors.js";
import { toStoreError } from "./store-errors.js";

interface QueuedWrite {
  readonly what: string;
  readonly run: () => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/** Most writes committed in one transaction; more wait for the next one, so a lock is never held long. */
const MAX_BATCH = 256;

/**
 * Writes to one better-sqlite3 connection, committed in groups: the writes queued in one turn of the event
 * loop run in a single `BEGIN IMMEDIATE … COMMIT`, so with `synchronous = FULL` they share one sync of the
 * write-ahead log instead of paying one each. A write's promise settles only after the commit that holds it,
 * so no caller acts on a write that could still be undone.
 *
 * When a statement of a group throws, the group is rolled back and its writes run again, one transaction
 * each, so that one failing write fails alone. When the transaction itself cannot begin or commit (a lock
 * held past the busy timeout, a disk error), every write of the group rejects. Errors are
 * `StoreUnavailableError`s naming the store.
 */
export class SqliteWriteQueue {
  readonly #store: string;
  readonly #db: Database.Database;
  #queue: QueuedWrite[] = [];
  #scheduled = false;

  /** @param store the store's name for errors (`sqlite:PATH`). */
  constructor(store: string, db: Database.Database) {
    this.#store = store;
    this.#db = db;
  }

  /**
   * Queues `run`, a single statement on the connection (alone it commits by itself), and resolves with its
   * result once committed.
   */
  enqueue<T>(what: string, run: () => T): Promise<T> {
    if (!this.#db.open) return Promise.reject(new StoreUnavailableError(this.#store, "the store is closed"));
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ what, run, resolve: resolve as (value: unknown) => void, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Commits everything queued now (also called before the connection is closed). */
  flush(): void {
    this.#scheduled = false;
    while (this.#queue.length > 0) {
      const group = this.#queue.splice(0, MAX_BATCH);
      if (group.length === 1) this.#runAlone(group[0] as QueuedWrite);
      else this.#commitGroup(group);
    }
  }

  #commitGroup(group: readonly QueuedWrite[]): void {
    const first = group[0] as QueuedWrite;
    // The connection is open here: `enqueue` refuses once it is closed, and the stores flush before closing.
    try {
      this.#db.exec("BEGIN IMMEDIATE");
    } catch (error) {
      this.#rejectAll(group, toStoreError(this.#store, first.what, error));
      return;
    }
    const results: unknown[] = [];
    try {
      for (const write of group) results.push(write.run());
    } catch {
      this.#rollback();
      for (const write of group) this.#runAlone(write);
      return;
    }
    try {
      this.#db.exec("COMMIT");
    } catch (error) {
      this.#rollback();
      this.#rejectAll(group, toStoreError(this.#store, `committing ${first.what}`, error));
      return;
    }
    for (const [i, write] of group.entries()) write.resolve(results[i]);
  }

  // Outside an explicit transaction each statement commits on its own.
  #runAlone(write: QueuedWrite): void {
    let result: unknown;
    try {
      result = write.run();
    } catch (error) {
      write.reject(toStoreError(this.#store, write.what, error));
      return;
    }
    write.resolve(result);
  }

  #rollback(): void {
    try {
      if (this.#db.inTransaction) this.#db.exec("ROLLBACK");
    } catch {
      // SQLite has already rolled back when a statement's error ended the transaction.
    }
  }

  #rejectAll(group: readonly QueuedWrite[], error: StoreUnavailableError): void {
    for (const write of group) write.reject(error);
  }
}
