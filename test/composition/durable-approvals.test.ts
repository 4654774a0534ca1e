// End to end, across processes: applications (fixtures/durable-app.mjs, over the built package) ask, are
// killed, and resolve approvals held in SQLite or PostgreSQL. The handler appends to a file, so the tests
// count real executions, and the audit trail must show one `tool.executed` per approval.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approvalConfig, assertBuilt, writeTree } from "../cli/cli-helpers.js";
import { describePostgres, dropTables, uniquePrefix } from "../stores/helpers.js";

const APP = fileURLToPath(new URL("fixtures/durable-app.mjs", import.meta.url));

interface App {
  readonly proc: ChildProcessWithoutNullStreams;
  /** Resolves with stdout once the app printed "ready" (or exited). */
  readonly ready: Promise<string>;
  /** Resolves with stdout when the app exits normally or is killed with SIGKILL. */
  readonly done: Promise<string>;
}

function startApp(dir: string, store: string, args: readonly string[]): App {
  const proc = spawn(process.execPath, [APP, store, join(dir, "runs.txt"), ...args], {
    cwd: dir,
    stdio: "pipe",
  });
  let out = "";
  let err = "";
  let onReady: (out: string) => void = () => {};
  const ready = new Promise<string>((resolve) => {
    onReady = resolve;
  });
  proc.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    if (/^ready$/m.test(out)) onReady(out);
  });
  proc.stderr.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  const done = new Promise<string>((resolve, reject) => {
    proc.on("exit", (code, signal) => {
      if (code === 0 || signal === "SIGKILL") resolve(out);
      else reject(new Error(`app exited with ${code ?? signal}: ${err}`));
    });
  });
  return { proc, ready: Promise.race([ready, done]), done };
}

/** Starts an app that asks `n` times; resolves with the approval ids once all are stored. */
async function ask(dir: string, store: string, n: number): Promise<{ app: App; ids: string[] }> {
  const app = startApp(dir, store, ["ask", String(n)]);
  const out = await app.ready;
  const ids = [...out.matchAll(/^APPROVAL (\S+)$/gm)].map((m) => m[1] as string);
  expect(ids).toHaveLength(n);
  return { app, ids };
}

interface Resolved {
  readonly executed: string[];
  readonly refused: Record<string, number>;
}

/** Starts `count` apps that each resolve every id; lets them go at once and returns what each did. */
async function resolveTogether(dir: string, store: string, ids: readonly string[], count: number) {
  const apps = Array.from({ length: count }, () => startApp(dir, store, ["resolve", ...ids]));
  await Promise.all(apps.map((a) => a.ready));
  for (const a of apps) a.proc.stdin.write("go\n");
  const outs = await Promise.all(apps.map((a) => a.done));
  return outs.map((out) => JSON.parse(out.replace(/^ready\n/, "")) as Resolved);
}

const runsOf = (dir: string): string[] => {
  const file = join(dir, "runs.txt");
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
};

/** The (type, approvalId) of every audit event, oldest first. */
type AuditReader = () => Promise<{ type: string; approvalId?: string }[]>;

function durabilitySuite(
  name: string,
  setup: () => { dir: string; store: string; audit: AuditReader },
): void {
  describe(name, () => {
    beforeAll(assertBuilt);

    it("an approval asked before a SIGKILL runs exactly once, in a new process", async () => {
      const { dir, store, audit } = setup();
      const { app, ids } = await ask(dir, store, 1);
      app.proc.kill("SIGKILL");
      await app.done;
      const id = ids[0] as string;
      expect(runsOf(dir)).toEqual([]);

      const [first] = await resolveTogether(dir, store, [id], 1);
      expect(first).toEqual({ executed: [id], refused: {} });
      expect(runsOf(dir)).toEqual(["note-0"]);

      const [second] = await resolveTogether(dir, store, [id], 1);
      expect(second).toEqual({ executed: [], refused: { "already-used": 1 } });
      expect(runsOf(dir)).toEqual(["note-0"]);

      const events = (await audit()).filter((e) => e.approvalId === id).map((e) => e.type);
      // The refused second resolve is recorded too.
      expect(events).toEqual([
        "approval.requested",
        "approval.granted",
        "policy.decided",
        "tool.executed",
        "call.rejected",
      ]);
    }, 60_000);

    it("8 processes resolving the same 200 approvals at once run each exactly once", async () => {
      const { dir, store, audit } = setup();
      const { app, ids } = await ask(dir, store, 200);
      app.proc.kill("SIGKILL");
      await app.done;

      const results = await resolveTogether(dir, store, ids, 8);
      const executed = results.flatMap((r) => r.executed);
      expect(executed).toHaveLength(200);
      expect(new Set(executed)).toEqual(new Set(ids));
      expect(results.reduce((sum, r) => sum + (r.refused["already-used"] ?? 0), 0)).toBe(7 * 200);
      const runs = runsOf(dir);
      expect(runs).toHaveLength(200);
      expect(new Set(runs).size).toBe(200);

      const executions = new Map<string, number>();
      for (const e of await audit()) {
        if (e.type === "tool.executed" && e.approvalId !== undefined) {
          executions.set(e.approvalId, (executions.get(e.approvalId) ?? 0) + 1);
        }
      }
      expect(executions.size).toBe(200);
      expect([...executions.values()].every((n) => n === 1)).toBe(true);
    }, 120_000);
  });
}

durabilitySuite("durable approvals on SQLite, across processes", () => {
  const dir = writeTree(approvalConfig());
  const file = join(dir, "state/shared.db");
  return {
    dir,
    store: `sqlite:${file}`,
    audit: async () => {
      const db = new Database(file, { readonly: true });
      try {
        const rows = db.prepare("SELECT event FROM toolgate_audit ORDER BY id").pluck().all() as string[];
        return rows.map((row) => JSON.parse(row));
      } finally {
        db.close();
      }
    },
  };
});

describePostgres("durable approvals on PostgreSQL, across processes", (url) => {
  const prefixes: string[] = [];
  afterAll(async () => {
    for (const prefix of prefixes) await dropTables(url, prefix);
  });
  durabilitySuite("several instances", () => {
    const prefix = uniquePrefix();
    prefixes.push(prefix);
    return {
      dir: writeTree(approvalConfig()),
      store: `${url}#${prefix}`,
      audit: async () => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          const { rows } = await client.query<{ event: string }>(
            `SELECT event FROM ${prefix}audit ORDER BY id`,
          );
          return rows.map((row) => JSON.parse(row.event));
        } finally {
          await client.end();
        }
      },
    };
  });
});
