import pg from "pg";
import { afterAll, expect, it } from "vitest";
import { ApprovalError, StoreUnavailableError } from "../../src/runtime/errors.js";
import { describePostgresUrl, PostgresApprovalStore } from "../../src/stores/index.js";
import { describePostgres, dropTables, makeRequest, uniquePrefix, waitForLockWait } from "./helpers.js";

it("names a PostgreSQL store without its password or query", () => {
  expect(describePostgresUrl("postgres://ana:s3cret@db.example:6543/app?sslmode=require&password=x")).toBe(
    "postgres://ana@db.example:6543/app",
  );
  expect(describePostgresUrl("postgresql://db/app")).toBe("postgres://db:5432/app");
  const store = new PostgresApprovalStore("postgres://ana:s3cret@127.0.0.1:1/app");
  expect(store.name).toBe("postgres://ana@127.0.0.1:1/app");
  void store.close();
});

it("fails with StoreUnavailableError, without the password, when the server cannot be reached", async () => {
  // Port 1 on localhost refuses connections at once.
  const store = new PostgresApprovalStore("postgres://ana:s3cret@127.0.0.1:1/app", {
    connectionTimeoutMillis: 1000,
  });
  const error = await store.take("x", Date.now()).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(StoreUnavailableError);
  expect((error as StoreUnavailableError).store).toBe("postgres://ana@127.0.0.1:1/app");
  expect((error as Error).message).not.toContain("s3cret");
  expect((error as Error).cause).toBeDefined();
  await store.close();
});

describePostgres("PostgresApprovalStore", (url) => {
  const prefixes: string[] = [];
  const fresh = (): string => {
    const prefix = uniquePrefix();
    prefixes.push(prefix);
    return prefix;
  };
  afterAll(async () => {
    for (const prefix of prefixes) await dropTables(url, prefix);
  });

  it("migrates once when 8 instances start together, and records the schema version", async () => {
    const tablePrefix = fresh();
    const stores = Array.from({ length: 8 }, () => new PostgresApprovalStore(url, { tablePrefix, max: 1 }));
    await Promise.all(stores.map((s) => s.ready()));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query(`SELECT key, value FROM ${tablePrefix}meta`);
    expect(rows).toEqual([{ key: "approvals.schema_version", value: 2 }]);
    await client.query(`UPDATE ${tablePrefix}meta SET value = 9`);
    await client.end();
    const newer = new PostgresApprovalStore(url, { tablePrefix });
    await expect(newer.ready()).rejects.toThrow(
      /approvals schema is at version 9, newer than this toolgate knows \(2\)/,
    );
    await Promise.all([...stores, newer].map((s) => s.close()));
  });

  it("8 connections taking the same 200 ids at once take each id exactly once", async () => {
    const tablePrefix = fresh();
    const setup = new PostgresApprovalStore(url, { tablePrefix });
    const now = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) {
      const request = makeRequest(now, 600_000);
      ids.push(request.approvalId);
      await setup.put(request);
    }
    const stores = Array.from({ length: 8 }, () => new PostgresApprovalStore(url, { tablePrefix, max: 1 }));
    await Promise.all(stores.map((s) => s.ready()));
    const results = await Promise.all(
      stores.map(async (store) => {
        const taken: string[] = [];
        let alreadyUsed = 0;
        for (const id of ids) {
          const result = await store.take(id, Date.now());
          if (result.status === "taken") taken.push(id);
          else if (result.status === "already-used") alreadyUsed++;
        }
        return { taken, alreadyUsed };
      }),
    );
    const count = new Map<string, number>();
    for (const { taken } of results) for (const id of taken) count.set(id, (count.get(id) ?? 0) + 1);
    expect(count.size).toBe(200);
    expect([...count.values()].every((c) => c === 1)).toBe(true);
    expect(results.reduce((sum, r) => sum + r.alreadyUsed, 0)).toBe(7 * 200);
    expect(await setup.list(["used"])).toHaveLength(200);
    await Promise.all([setup, ...stores].map((s) => s.close()));
  });

  it("fails with StoreUnavailableError when its connection is cut mid-statement, and recovers after", async () => {
    const tablePrefix = fresh();
    const applicationName = `toolgate-cut-${tablePrefix}`;
    const store = new PostgresApprovalStore(url, { tablePrefix, applicationName, max: 1 });
    const request = makeRequest(Date.now());
    await store.put(request);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const locker = new pg.Client({ connectionString: url });
    await locker.connect();
    // Hold a lock so that the store's take is in flight on the server when its backend is terminated.
    await locker.query(`BEGIN; LOCK TABLE ${tablePrefix}approvals IN ACCESS EXCLUSIVE MODE`);
    const taking = store.take(request.approvalId, Date.now()).catch((e: unknown) => e);
    await waitForLockWait(admin, applicationName);
    await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1", [
      applicationName,
    ]);
    const error = await taking;
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as Error).message).toMatch(/^postgres:\/\/.*: take failed: /);
    await locker.query("ROLLBACK");
    await Promise.all([admin.end(), locker.end()]);
    // Nothing was taken; a new connection takes it once.
    expect((await store.take(request.approvalId, Date.now())).status).toBe("taken");
    await store.close();
    await expect(store.get(request.approvalId)).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it("fails with StoreUnavailableError when the pool's connections are terminated between calls, without crashing", async () => {
    const tablePrefix = fresh();
    const applicationName = `toolgate-idle-${tablePrefix}`;
    const store = new PostgresApprovalStore(url, { tablePrefix, applicationName, max: 2 });
    const request = makeRequest(Date.now());
    await store.put(request);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1", [
      applicationName,
    ]);
    await admin.end();
    await new Promise((r) => setTimeout(r, 100)); // the idle client's 'error' arrives; the process lives on
    const result = await store.take(request.approvalId, Date.now()).catch((e: unknown) => e);
    // Either a fresh connection served it, or the dead one failed closed; never a crash or a wrong answer.
    if (result instanceof Error) expect(result).toBeInstanceOf(StoreUnavailableError);
    else expect(result).toMatchObject({ status: "taken" });
    await store.close();
  });

  it("respond notifies; waitForDecision in another instance wakes on it before its poll", async () => {
    const tablePrefix = fresh();
    const app = new PostgresApprovalStore(url, { tablePrefix });
    const cli = new PostgresApprovalStore(url, { tablePrefix });
    const request = makeRequest(Date.now());
    await app.put(request);
    const started = Date.now();
    const waiting = app.waitForDecision(request.approvalId, { pollMs: 30_000 });
    setTimeout(
      () => void cli.respond({ approvalId: request.approvalId, approved: false, approver: "bo" }, Date.now()),
      200,
    );
    const decided = await waiting;
    expect(decided.state).toBe("rejected");
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(app.channel).toBe(`${tablePrefix}approvals`);
    await Promise.all([app.close(), cli.close()]);
  });

  it("waitForDecision polls to expiry, honours abort, and rejects unknown ids", async () => {
    const tablePrefix = fresh();
    const store = new PostgresApprovalStore(url, { tablePrefix });
    const short = makeRequest(Date.now(), 50);
    const long = makeRequest(Date.now(), 60_000);
    await store.put(short);
    await store.put(long);
    expect((await store.waitForDecision(short.approvalId, { pollMs: 20 })).state).toBe("expired");
    const controller = new AbortController();
    const waiting = store.waitForDecision(long.approvalId, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("gave up")), 50);
    await expect(waiting).rejects.toThrow("gave up");
    await expect(store.waitForDecision("missing")).rejects.toBeInstanceOf(ApprovalError);
    await store.close();
  });
});
