import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { describe, it } from "vitest";
import type { ApprovalRequest } from "../../src/runtime/types.js";

/** The PostgreSQL server of the tests, if any. */
export const POSTGRES_URL = process.env.TOOLGATE_TEST_POSTGRES_URL;

const HOW_TO =
  "start one with scripts/start-postgres.sh, then run " +
  "TOOLGATE_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/toolgate_test npm test";

/**
 * `describe` for tests that need PostgreSQL: runs them when TOOLGATE_TEST_POSTGRES_URL is set, fails in CI
 * when it is not (a missing server must not pass as a skip), and skips them with instructions otherwise.
 */
export function describePostgres(name: string, body: (url: string) => void): void {
  const url = POSTGRES_URL;
  if (url !== undefined && url !== "") {
    describe(name, () => body(url));
  } else if (process.env.CI) {
    describe(name, () => {
      it("has a PostgreSQL server (TOOLGATE_TEST_POSTGRES_URL)", () => {
        throw new Error(`TOOLGATE_TEST_POSTGRES_URL is not set in CI; ${HOW_TO}`);
      });
    });
  } else {
    console.warn(`skipping "${name}": TOOLGATE_TEST_POSTGRES_URL is not set; ${HOW_TO}`);
    describe.skip(`${name} (needs TOOLGATE_TEST_POSTGRES_URL; ${HOW_TO})`, () => body(""));
  }
}

/** A fresh table prefix, so that test files running in parallel do not see each other's rows. */
export function uniquePrefix(): string {
  return `tg_test_${randomBytes(4).toString("hex")}_`;
}

/** Drops every table whose name starts with `prefix`. */
export async function dropTables(url: string, prefix: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ tablename: string }>(
      "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND starts_with(tablename, $1)",
      [prefix],
    );
    for (const { tablename } of rows) await client.query(`DROP TABLE IF EXISTS "${tablename}"`);
  } finally {
    await client.end();
  }
}

/**
 * Waits (up to 5 s) until a backend named `applicationName` is waiting for a lock, so that terminating it cuts
 * a statement in flight.
 */
export async function waitForLockWait(admin: pg.Client, applicationName: string): Promise<void> {
  for (let i = 0; i < 250; i++) {
    const { rows } = await admin.query(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'",
      [applicationName],
    );
    if (rows[0].n > 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A temporary directory, removed by the returned function. */
export function tempDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), "toolgate-stores-"));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

let counter = 0;

/** An approval request created at `now`, valid for `ttl` ms. */
export function makeRequest(
  now: number,
  ttl = 60_000,
  overrides: Partial<ApprovalRequest> = {},
): ApprovalRequest {
  counter++;
  return {
    kind: "approval-request",
    approvalId: `ap_${randomBytes(8).toString("hex")}_${counter}`,
    call: { callId: `call_${counter}`, toolName: "delete_file", arguments: { path: `/tmp/f${counter}` } },
    reason: "deleting files needs a person",
    ruleIds: ["ask-delete"],
    argumentsHash: `sha256:${"ab".repeat(32)}`,
    policyFingerprint: "sha256:policy",
    createdAt: now,
    expiresAt: now + ttl,
    ...overrides,
  };
}

const root = fileURLToPath(new URL("../../", import.meta.url));

/**
 * The built `dist/stores/index.js` that child processes import. Fails when it is missing or older than a
 * source file, because a child would then test stale code (`npm test` builds first).
 */
export function builtStoresEntry(): string {
  const entry = path.join(root, "dist/stores/index.js");
  if (!existsSync(entry)) throw new Error("dist/stores/index.js is missing; run npm run build first");
  const built = statSync(entry).mtimeMs;
  const srcDir = path.join(root, "src/stores");
  for (const file of readdirSync(srcDir)) {
    if (statSync(path.join(srcDir, file)).mtimeMs > built + 1000) {
      throw new Error(`dist/stores is older than src/stores/${file}; run npm run build first`);
    }
  }
  return entry;
}

/** Path of a fixture script next to the tests. */
export function fixture(name: string): string {
  return fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
}
