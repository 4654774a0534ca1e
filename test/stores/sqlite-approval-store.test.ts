import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { ApprovalError, StoreUnavailableError } from "../../src/runtime/errors.js";
import { SqliteApprovalStore } from "../../src/stores/index.js";
import { builtStoresEntry, fixture, makeRequest, tempDir } from "./helpers.js";

const tmp = tempDir();
afterAll(() => tmp.remove());
let n = 0;
const dbPath = (): string => path.join(tmp.dir, `s${n++}`, "state.db");

/** Starts a child running fixtures/store-child.mjs over the built package. */
function child(args: string[]): {
  proc: ChildProcessWithoutNullStreams;
  ready: Promise<void>;
  output: Promise<string>;
} {
  builtStoresEntry();
  const proc = spawn(process.execPath, [fixture("store-child.mjs"), ...args], { stdio: "pipe" });
  let out = "";
  let err = "";
  let onReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    onReady = resolve;
  });
  proc.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    if (out.startsWith("ready\n")) onReady();
  });
  proc.stderr.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  const output = new Promise<string>((resolve, reject) => {
    proc.on("exit", (code, signal) => {
      if (code === 0 || signal === "SIGKILL") resolve(out.replace(/^ready\n/, ""));
      else reject(new Error(`child exited with ${code ?? signal}: ${err}`));
    });
  });
  return { proc, ready: Promise.race([ready, output.then(() => {})]), output };
}

describe("SqliteApprovalStore", () => {
  it("creates the parent directory and records its schema version", async () => {
    const file = dbPath();
    const store = new SqliteApprovalStore(file);
    expect(store.name).toBe(`sqlite:${file}`);
    await store.close();
    const db = new Database(file, { readonly: true });
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.prepare("SELECT key, value FROM toolgate_meta").all()).toEqual([
      { key: "approvals.schema_version", value: 2 },
    ]);
    db.close();
  });

  it("resolves a relative path against cwd and names the store with the path as given", async () => {
    const store = new SqliteApprovalStore(".toolgate/state.db", { cwd: tmp.dir });
    expect(store.name).toBe("sqlite:.toolgate/state.db");
    expect(store.file).toBe(path.join(tmp.dir, ".toolgate/state.db"));
    await store.close();
  });

  it("refuses a database whose schema a newer toolgate wrote", async () => {
    const file = dbPath();
    await new SqliteApprovalStore(file).close();
    const db = new Database(file);
    db.prepare("UPDATE toolgate_meta SET value = 7 WHERE key = 'approvals.schema_version'").run();
    db.close();
    expect(() => new SqliteApprovalStore(file)).toThrow(StoreUnavailableError);
    expect(() => new SqliteApprovalStore(file)).toThrow(
      /approvals schema is at version 7, newer than this toolgate knows \(2\); upgrade toolgate/,
    );
  });

  it("fails with StoreUnavailableError naming the store when the file cannot be opened", () => {
    const blocker = path.join(tmp.dir, "a-file");
    writeFileSync(blocker, "");
    const error = (() => {
      try {
        new SqliteApprovalStore(path.join(blocker, "x.db"));
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as StoreUnavailableError).store).toBe(`sqlite:${path.join(blocker, "x.db")}`);
    expect((error as StoreUnavailableError).cause).toBeDefined();
  });

  it("fails with StoreUnavailableError when another process holds the write lock past the busy timeout", async () => {
    const file = dbPath();
    const store = new SqliteApprovalStore(file, { busyTimeoutMs: 50 });
    const request = makeRequest(Date.now());
    await store.put(request);
    const other = new Database(file);
    other.exec("BEGIN IMMEDIATE");
    try {
      const error = await store.take(request.approvalId, Date.now()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect((error as Error).message).toMatch(/^sqlite:.*state\.db: take failed: database is locked/);
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
    expect((await store.take(request.approvalId, Date.now())).status).toBe("taken");
    await store.close();
  });

  it("waitForDecision resolves once a person responds, from another connection", async () => {
    const file = dbPath();
    const app = new SqliteApprovalStore(file);
    const cli = new SqliteApprovalStore(file);
    const request = makeRequest(Date.now());
    await app.put(request);
    const waiting = app.waitForDecision(request.approvalId, { pollMs: 10 });
    setTimeout(
      () => void cli.respond({ approvalId: request.approvalId, approved: true, approver: "ana" }, Date.now()),
      30,
    );
    const decided = await waiting;
    expect(decided.state).toBe("approved");
    expect(decided.response).toEqual({ approvalId: request.approvalId, approved: true, approver: "ana" });
    await Promise.all([app.close(), cli.close()]);
  });

  it("waitForDecision resolves with an expired approval when time runs out, and honours abort", async () => {
    const store = new SqliteApprovalStore(dbPath());
    const short = makeRequest(Date.now(), 40);
    const long = makeRequest(Date.now(), 60_000);
    await store.put(short);
    await store.put(long);
    expect((await store.waitForDecision(short.approvalId, { pollMs: 10 })).state).toBe("expired");
    const controller = new AbortController();
    const waiting = store.waitForDecision(long.approvalId, { pollMs: 10, signal: controller.signal });
    setTimeout(() => controller.abort(new Error("gave up")), 30);
    await expect(waiting).rejects.toThrow("gave up");
    await expect(store.waitForDecision("missing")).rejects.toBeInstanceOf(ApprovalError);
    await store.close();
  });

  it("keeps approvals across a killed process: taken exactly once afterwards", async () => {
    const file = dbPath();
    const ids = ["restart-approved", "restart-pending"];
    const writer = child(["put", file, ...ids]);
    await writer.ready;
    writer.proc.kill("SIGKILL");
    await writer.output;
    const store = new SqliteApprovalStore(file);
    const approved = await store.take("restart-approved", Date.now());
    expect(approved.status === "taken" && approved.response).toEqual({
      approvalId: "restart-approved",
      approved: true,
      approver: "ops",
    });
    expect((await store.take("restart-pending", Date.now())).status).toBe("taken");
    expect((await store.take("restart-approved", Date.now())).status).toBe("already-used");
    expect((await store.take("restart-pending", Date.now())).status).toBe("already-used");
    await store.close();
  });

  it("8 processes taking the same 200 ids at once take each id exactly once", async () => {
    const file = dbPath();
    const store = new SqliteApprovalStore(file);
    const now = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) {
      const request = makeRequest(now, 600_000);
      ids.push(request.approvalId);
      await store.put(request);
    }
    const children = Array.from({ length: 8 }, () => child(["race", file, ...ids]));
    await Promise.all(children.map((c) => c.ready));
    for (const c of children) c.proc.stdin.write("go\n");
    const results = (await Promise.all(children.map((c) => c.output))).map(
      (out) => JSON.parse(out) as { taken: string[]; others: Record<string, number> },
    );
    const count = new Map<string, number>();
    for (const { taken } of results) for (const id of taken) count.set(id, (count.get(id) ?? 0) + 1);
    expect(count.size).toBe(200);
    expect([...count.values()].every((c) => c === 1)).toBe(true);
    const alreadyUsed = results.reduce((sum, r) => sum + (r.others["already-used"] ?? 0), 0);
    expect(alreadyUsed).toBe(7 * 200);
    const states = await store.list(["used"]);
    expect(states).toHaveLength(200);
    await store.close();
  });
});
