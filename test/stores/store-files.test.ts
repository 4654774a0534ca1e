import { chmodSync, chownSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { AuditEvent } from "../../src/runtime/audit.js";
import { StoreUnavailableError } from "../../src/runtime/errors.js";
import { JsonlAuditSink, SqliteApprovalStore, SqliteAuditSink } from "../../src/stores/index.js";
import { makeRequest, tempDir } from "./helpers.js";

const tmp = tempDir();
afterAll(() => tmp.remove());
let n = 0;
const fresh = (): string => path.join(tmp.dir, `case-${n++}`);
const mode = (file: string): number => statSync(file).mode & 0o777;
const FOREIGN_UID = 12345;
const posix = process.platform !== "win32";
// Giving a file to another user needs root (the CI container runs as root).
const root = process.getuid?.() === 0;

const event: AuditEvent = {
  type: "call.received",
  time: new Date(0).toISOString(),
  callId: "c1",
  toolName: "read_file",
  fingerprint: "sha256:p",
  arguments: { path: "/secret" },
};

/** The error a store raises when opening, for the SQLite stores (constructor) and the JSONL sink (first record). */
async function openError(kind: "sqlite" | "sqlite-audit" | "jsonl", file: string): Promise<unknown> {
  try {
    if (kind === "jsonl") {
      const sink = new JsonlAuditSink(file);
      try {
        await sink.record(event);
      } finally {
        await sink.close();
      }
    } else {
      const store = kind === "sqlite" ? new SqliteApprovalStore(file) : new SqliteAuditSink(file);
      await store.close();
    }
  } catch (error) {
    return error;
  }
  return undefined;
}

describe.runIf(posix)("store files are private", () => {
  it("a SQLite store creates its directory 0700 and its database, -wal and -shm files 0600", async () => {
    const dir = path.join(fresh(), "nested", ".toolgate");
    const file = path.join(dir, "state.db");
    const store = new SqliteApprovalStore(file);
    await store.put(makeRequest(Date.now()));
    expect(mode(dir)).toBe(0o700);
    expect(mode(path.dirname(dir))).toBe(0o700);
    expect(readdirSync(dir).sort()).toEqual(["state.db", "state.db-shm", "state.db-wal"]);
    for (const name of readdirSync(dir)) expect([name, mode(path.join(dir, name))]).toEqual([name, 0o600]);
    await store.close();
  });

  it("a JSONL log is created 0600 in a directory created 0700", async () => {
    const dir = path.join(fresh(), "logs");
    const sink = new JsonlAuditSink(path.join(dir, "audit.jsonl"));
    await sink.record(event);
    await sink.close();
    expect(mode(dir)).toBe(0o700);
    expect(mode(path.join(dir, "audit.jsonl"))).toBe(0o600);
  });

  it("tightens our own existing files that others can read, database, -wal, -shm and log alike", async () => {
    const dir = fresh();
    const db = path.join(dir, "state.db");
    const first = new SqliteApprovalStore(db);
    await first.put(makeRequest(Date.now()));
    await first.close();
    for (const name of readdirSync(dir)) chmodSync(path.join(dir, name), 0o644);
    // Leave a -wal and -shm behind as a crashed process would, readable by everyone.
    writeFileSync(`${db}-wal`, "", { mode: 0o644 });
    chmodSync(`${db}-wal`, 0o644);
    const again = new SqliteApprovalStore(db);
    for (const name of readdirSync(dir)) expect([name, mode(path.join(dir, name))]).toEqual([name, 0o600]);
    await again.close();

    const log = path.join(dir, "audit.jsonl");
    writeFileSync(log, "");
    chmodSync(log, 0o640);
    const sink = new JsonlAuditSink(log);
    await sink.record(event);
    await sink.close();
    expect(mode(log)).toBe(0o600);
  });

  it("refuses a world-writable store file, saying how to fix it", async () => {
    for (const kind of ["sqlite", "sqlite-audit", "jsonl"] as const) {
      const dir = fresh();
      mkdirSync(dir);
      const file = path.join(dir, kind === "jsonl" ? "audit.jsonl" : "state.db");
      writeFileSync(file, "");
      chmodSync(file, 0o666);
      const error = await openError(kind, file);
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect((error as Error).message).toContain(
        `anyone can write to ${file} (mode 666), so its content cannot be trusted; check it, then run \`chmod 600 ${file}\``,
      );
      expect(mode(file)).toBe(0o666); // refused, not silently changed
    }
  });

  it("refuses a -journal left as a link (SQLite would write through it)", async () => {
    const dir = fresh();
    mkdirSync(dir);
    const db = path.join(dir, "state.db");
    symlinkSync(path.join(dir, "elsewhere"), `${db}-journal`);
    const error = await openError("sqlite", db);
    expect((error as Error).message).toContain(`${db}-journal is a symbolic link`);
  });

  it("refuses a -wal file that anyone can write to", async () => {
    const dir = fresh();
    mkdirSync(dir);
    const db = path.join(dir, "state.db");
    writeFileSync(`${db}-wal`, "");
    chmodSync(`${db}-wal`, 0o622);
    const error = await openError("sqlite", db);
    expect((error as Error).message).toContain(`anyone can write to ${db}-wal (mode 622)`);
  });

  it("refuses a store path that is a symbolic link, for each kind of store", async () => {
    for (const kind of ["sqlite", "sqlite-audit", "jsonl"] as const) {
      const dir = fresh();
      mkdirSync(dir);
      const target = path.join(dir, "elsewhere");
      writeFileSync(target, "");
      const link = path.join(dir, kind === "jsonl" ? "audit.jsonl" : "state.db");
      symlinkSync(target, link);
      const error = await openError(kind, link);
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect((error as Error).message).toContain(
        `${link} is a symbolic link; toolgate does not follow links to its stores`,
      );
      expect((error as Error).message).toContain("configure the real path instead");
    }
    // A dangling link too: opening would create the file wherever it points.
    const dir = fresh();
    mkdirSync(dir);
    const dangling = path.join(dir, "state.db");
    symlinkSync(path.join(dir, "not-yet"), dangling);
    expect(((await openError("sqlite", dangling)) as Error).message).toContain("is a symbolic link");
    expect(((await openError("jsonl", dangling)) as Error).message).toContain("is a symbolic link");
  });

  it.runIf(root)("refuses a store in a directory that belongs to another user", async () => {
    for (const kind of ["sqlite", "jsonl"] as const) {
      const dir = fresh();
      mkdirSync(dir, { mode: 0o755 });
      chownSync(dir, FOREIGN_UID, FOREIGN_UID);
      const file = path.join(dir, "store");
      const error = await openError(kind, file);
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect((error as Error).message).toContain(
        `the directory ${dir} belongs to another user (uid ${FOREIGN_UID}; this process runs as uid ${process.getuid?.()})`,
      );
      expect((error as Error).message).toContain("keep stores in a directory of your own");
    }
  });

  it.runIf(root)("refuses a store file that belongs to another user", async () => {
    for (const kind of ["sqlite", "jsonl"] as const) {
      const dir = fresh();
      mkdirSync(dir);
      const file = path.join(dir, "store");
      writeFileSync(file, "", { mode: 0o600 });
      chownSync(file, FOREIGN_UID, FOREIGN_UID);
      const error = await openError(kind, file);
      expect((error as Error).message).toContain(`${file} belongs to another user (uid ${FOREIGN_UID};`);
    }
  });

  it("refuses a directory anyone can write to, unless it has the sticky bit (like /tmp)", async () => {
    const open = fresh();
    mkdirSync(open);
    chmodSync(open, 0o777);
    const error = await openError("jsonl", path.join(open, "audit.jsonl"));
    expect((error as Error).message).toContain(`anyone can write to the directory ${open} (mode 777)`);
    const sticky = fresh();
    mkdirSync(sticky);
    chmodSync(sticky, 0o1777);
    expect(await openError("jsonl", path.join(sticky, "audit.jsonl"))).toBeUndefined();
  });

  it.runIf(root)(
    "accepts a directory owned by root (the system's), which the current user cannot swap files in",
    async () => {
      // These tests run as root; for another user the same holds, as root may change anything anyway.
      const dir = fresh();
      mkdirSync(dir);
      chownSync(dir, 0, 0);
      expect(await openError("sqlite", path.join(dir, "state.db"))).toBeUndefined();
    },
  );
});
