import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MemoryApprovalStore } from "../../src/runtime/approval-store.js";
import { MemoryAuditSink } from "../../src/runtime/audit.js";
import { ToolgateError } from "../../src/runtime/errors.js";
import {
  JsonlAuditSink,
  openApprovalStore,
  openAuditSink,
  PostgresApprovalStore,
  PostgresAuditSink,
  SqliteApprovalStore,
  SqliteAuditSink,
} from "../../src/stores/index.js";
import { tempDir } from "./helpers.js";

const tmp = tempDir();
afterAll(() => tmp.remove());

describe("openApprovalStore", () => {
  it("opens each accepted form", async () => {
    expect(openApprovalStore("memory")).toBeInstanceOf(MemoryApprovalStore);
    const sqlite = openApprovalStore("sqlite:./.toolgate/state.db", { cwd: tmp.dir });
    expect(sqlite).toBeInstanceOf(SqliteApprovalStore);
    expect(sqlite.name).toBe("sqlite:./.toolgate/state.db");
    expect((sqlite as SqliteApprovalStore).file).toBe(path.join(tmp.dir, ".toolgate/state.db"));
    await sqlite.close();
    for (const url of ["postgres://u:pw@127.0.0.1:1/db", "postgresql://u@127.0.0.1:1/db"]) {
      const store = openApprovalStore(url);
      expect(store).toBeInstanceOf(PostgresApprovalStore);
      expect(store.name).toBe("postgres://u@127.0.0.1:1/db");
      await store.close();
    }
  });

  it("rejects an unknown scheme with invalid-store-url, listing the accepted forms and hiding passwords", () => {
    const error = (() => {
      try {
        openApprovalStore("mysql://root:hunter2@db/app");
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ToolgateError);
    expect((error as ToolgateError).code).toBe("invalid-store-url");
    expect((error as Error).message).toBe(
      'unknown store URL "mysql://root:***@db/app" for the approval store; use memory, sqlite:PATH (such as sqlite:./.toolgate/state.db) or postgres://user@host:port/db',
    );
    expect(() => openApprovalStore("sqlite:")).toThrow(/missing path in "sqlite:"/);
    expect(() => openApprovalStore("jsonl:x")).toThrow(ToolgateError);
  });
});

describe("openAuditSink", () => {
  it("opens each accepted form", async () => {
    expect(openAuditSink("memory")).toBeInstanceOf(MemoryAuditSink);
    const jsonl = openAuditSink("jsonl:logs/audit.jsonl", { cwd: tmp.dir });
    expect(jsonl).toBeInstanceOf(JsonlAuditSink);
    expect((jsonl as JsonlAuditSink).file).toBe(path.join(tmp.dir, "logs/audit.jsonl"));
    const sqlite = openAuditSink("sqlite:audit.db", { cwd: tmp.dir });
    expect(sqlite).toBeInstanceOf(SqliteAuditSink);
    const postgres = openAuditSink("postgres://u@127.0.0.1:1/db");
    expect(postgres).toBeInstanceOf(PostgresAuditSink);
    await Promise.all([jsonl, sqlite, postgres].map((s) => s.close()));
  });

  it("rejects an unknown scheme with invalid-store-url", () => {
    expect(() => openAuditSink("file:/x")).toThrow(
      'unknown audit sink URL "file:/x" for the audit sink; use memory, jsonl:PATH, sqlite:PATH or postgres://user@host:port/db',
    );
  });
});
