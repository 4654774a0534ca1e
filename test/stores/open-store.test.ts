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
  resolveStoreUrl,
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
      'unknown audit sink URL "file:/x" for the audit sink; use memory, otel, jsonl:PATH, sqlite:PATH or postgres://user@host:port/db',
    );
  });
});

describe("keyed jsonl: URLs", () => {
  it("take the key from ?keyFile= (relative to cwd) or ?keyEnv=", async () => {
    const { writeFileSync } = await import("node:fs");
    writeFileSync(path.join(tmp.dir, "url.key"), "u".repeat(32), { mode: 0o600 });
    const byFile = openAuditSink("jsonl:logs/k1.jsonl?keyFile=url.key", { cwd: tmp.dir }) as JsonlAuditSink;
    expect(byFile.file).toBe(path.join(tmp.dir, "logs/k1.jsonl"));
    expect(byFile.keyed).toBe(true);
    await byFile.record({ type: "call.received", time: "t", callId: "c", toolName: "x", fingerprint: "f" });
    expect((await byFile.head()).hash).toMatch(/^hmac-sha256:/);
    await byFile.close();
    const byEnv = openAuditSink("jsonl:logs/k2.jsonl?keyEnv=TOOLGATE_AUDIT_KEY", { cwd: tmp.dir });
    expect((byEnv as JsonlAuditSink).keyed).toBe(true);
    await byEnv.close();
    const plain = openAuditSink("jsonl:logs/k3.jsonl", { cwd: tmp.dir });
    expect((plain as JsonlAuditSink).keyed).toBe(false);
  });

  it("refuse unknown options, empty values and names that are not variables", () => {
    expect(() => openAuditSink("jsonl:a.jsonl?key=abc")).toThrow(/unknown option \(keyFile or keyEnv\) in/);
    expect(() => openAuditSink("jsonl:a.jsonl?keyFile=")).toThrow(/empty keyFile in/);
    expect(() => openAuditSink("jsonl:a.jsonl?keyEnv=A-B")).toThrow(
      /keyEnv is not an environment variable name/,
    );
    expect(() => openAuditSink("jsonl:?keyEnv=A")).toThrow(/missing path in/);
  });

  it("resolveStoreUrl makes the log and the key file absolute, keeping options", () => {
    expect(resolveStoreUrl("jsonl:logs/a.jsonl?keyFile=secrets/a.key", "/srv/app")).toBe(
      "jsonl:/srv/app/logs/a.jsonl?keyFile=/srv/app/secrets/a.key",
    );
    expect(resolveStoreUrl("jsonl:logs/a.jsonl?keyEnv=K", "/srv/app")).toBe(
      "jsonl:/srv/app/logs/a.jsonl?keyEnv=K",
    );
    expect(resolveStoreUrl("sqlite:s.db?synchronous=normal", "/srv/app")).toBe(
      "sqlite:/srv/app/s.db?synchronous=normal",
    );
    expect(resolveStoreUrl("sqlite:/abs/s.db", "/srv/app")).toBe("sqlite:/abs/s.db");
    expect(resolveStoreUrl("postgres://u@h/db", "/srv/app")).toBe("postgres://u@h/db");
  });
});
