import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openApprovalStore, openAuditSink } from "toolgate";
import { describe, expect, it } from "vitest";

describe("store URLs", () => {
  it("sqlite:PATH?synchronous=normal opens the file at PATH; an unknown option is refused with the accepted forms", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolgate-url-"));
    const store = openApprovalStore(`sqlite:${join(dir, "a.db")}?synchronous=normal`);
    expect(store.name).toBe(`sqlite:${join(dir, "a.db")}`);
    expect(await store.take("apr_missing", Date.now())).toEqual({ status: "not-found" });
    await store.close();
    const sink = openAuditSink(`sqlite:${join(dir, "audit.db")}?synchronous=full`);
    await sink.close();
    expect(() => openApprovalStore(`sqlite:${join(dir, "b.db")}?journal=off`)).toThrow(
      /unknown option in "sqlite:.*b\.db\?journal=off" for the approval store; use memory, sqlite:PATH/,
    );
  });
});
