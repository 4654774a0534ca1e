/**
 * Store URLs are read in one place (`parseStoreUrl`): opening a store, making its paths absolute and reading a
 * log for `audit verify` or `diff --calls` agree on what a URL names.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ToolgateError } from "../../src/runtime/errors.js";
import { formatStoreUrl, parseStoreUrl, resolveStoreUrl } from "../../src/stores/store-url.js";

const pathText = fc.stringMatching(/^[A-Za-z0-9_./-]{1,20}$/).filter((p) => p.trim() !== "");

const storeUrls = fc.oneof(
  fc.constantFrom("memory", "otel", "postgres://u@h:5432/db", "postgresql://u:p@h/db"),
  fc
    .tuple(pathText, fc.constantFrom("", "?synchronous=full", "?synchronous=normal"))
    .map(([p, q]) => `sqlite:${p}${q}`),
  fc
    .tuple(
      pathText,
      fc.oneof(
        fc.constant(""),
        pathText.map((k) => `?keyFile=${k}`),
        fc.constant("?keyEnv=AUDIT_KEY"),
      ),
    )
    .map(([p, q]) => `jsonl:${p}${q}`),
);

describe("parseStoreUrl", () => {
  it("reads every accepted URL back to the same text (format is its inverse)", () => {
    fc.assert(
      fc.property(storeUrls, (url) => {
        expect(formatStoreUrl(parseStoreUrl(url, "audit sink"))).toBe(url);
      }),
    );
  });

  it("splits the path from the options", () => {
    expect(parseStoreUrl("sqlite:a/b.db?synchronous=normal", "approval store")).toEqual({
      kind: "sqlite",
      path: "a/b.db",
      synchronous: "normal",
    });
    expect(parseStoreUrl("jsonl:logs/a.jsonl?keyFile=k.key", "audit sink")).toEqual({
      kind: "jsonl",
      path: "logs/a.jsonl",
      key: { keyFile: "k.key" },
    });
  });

  it("accepts for an approval store only memory, sqlite: and postgres://", () => {
    for (const url of ["jsonl:a.jsonl", "otel", "file:/x", "sqlite", ""]) {
      expect(() => parseStoreUrl(url, "approval store"), url).toThrow(ToolgateError);
    }
    expect(() => parseStoreUrl("otel", "approval store")).toThrow(
      'unknown store URL "otel" for the approval store; use memory, sqlite:PATH (such as sqlite:./.toolgate/state.db) or postgres://user@host:port/db',
    );
  });

  it("refuses a missing path and unknown options, never echoing a password", () => {
    expect(() => parseStoreUrl("sqlite:", "audit sink")).toThrow(/missing path in "sqlite:"/);
    expect(() => parseStoreUrl("sqlite:a.db?journal=wal", "audit sink")).toThrow(/unknown option in/);
    expect(() => parseStoreUrl("mysql://root:hunter2@db/app", "audit sink")).toThrow(
      'unknown audit sink URL "mysql://root:***@db/app" for the audit sink',
    );
  });
});

describe("resolveStoreUrl", () => {
  it("makes paths absolute and keeps options, for every accepted URL", () => {
    fc.assert(
      fc.property(storeUrls, (url) => {
        const resolved = resolveStoreUrl(url, "/srv/app");
        const before = parseStoreUrl(url, "audit sink");
        const after = parseStoreUrl(resolved, "audit sink");
        expect(after.kind).toBe(before.kind);
        if (after.kind === "sqlite" && before.kind === "sqlite") {
          expect(after.path.startsWith("/")).toBe(true);
          expect(after.synchronous).toBe(before.synchronous);
        } else if (after.kind === "jsonl" && before.kind === "jsonl") {
          expect(after.path.startsWith("/")).toBe(true);
          expect(after.key.keyEnv).toBe(before.key.keyEnv);
          expect(after.key.keyFile === undefined || after.key.keyFile.startsWith("/")).toBe(true);
        } else {
          expect(resolved).toBe(url);
        }
      }),
    );
  });

  it("leaves sqlite::memory: and URLs it cannot read as they are (opening them reports why)", () => {
    expect(resolveStoreUrl("sqlite::memory:", "/srv/app")).toBe("sqlite::memory:");
    expect(resolveStoreUrl("sqlite:a.db?journal=wal", "/srv/app")).toBe("sqlite:a.db?journal=wal");
  });
});
