/** The options of the SQLite store and sink (apart from the driver, which is optional). */

/** Options of the SQLite store and sink. */
export interface SqliteOptions {
  /** Directory a relative path is resolved against (default: `process.cwd()`). */
  readonly cwd?: string;
  /** How long a statement waits for another process's lock before failing, in ms (default 5000). */
  readonly busyTimeoutMs?: number;
  /**
   * `full` (default) syncs the write-ahead log on every commit, so a taken approval or a recorded event
   * survives a power loss; `normal` is faster and survives a crash of the process, not of the machine.
   */
  readonly synchronous?: "full" | "normal";
}
