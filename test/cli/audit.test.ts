import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AuditEvent } from "../../src/runtime/audit.js";
import { JsonlAuditSink } from "../../src/stores/index.js";
import { approvalConfig, runCli } from "./cli-helpers.js";

afterEach(() => vi.restoreAllMocks());

const event = (i: number): AuditEvent => ({
  type: "tool.executed",
  time: new Date(1_700_000_000_000 + i).toISOString(),
  callId: `call-${i}`,
  toolName: "write_note",
  fingerprint: "sha256:policy",
  arguments: { text: `note ${i}` },
});

async function keyedLog(count: number) {
  const dir = mkdtempSync(join(tmpdir(), "toolgate-audit-cli-"));
  const keyFile = join(dir, "audit.key");
  writeFileSync(keyFile, `${"9".repeat(64)}\n`, { mode: 0o600 });
  const file = join(dir, "audit.jsonl");
  const sink = new JsonlAuditSink(file, { keyFile });
  for (let i = 1; i <= count; i++) await sink.record(event(i));
  await sink.close();
  return { dir, keyFile, file };
}

describe("toolgate audit head and verify --key --expect-head/--expect-count", () => {
  it("prints the head, and verify checks the MACs and the anchor", async () => {
    const { keyFile, file } = await keyedLog(3);
    const head = await runCli(["audit", "head", file, "--key", keyFile, "--format", "json"]);
    expect(head.code).toBe(0);
    const saved = JSON.parse(head.stdout) as { count: number; hash: string; keyed: boolean };
    expect(saved).toMatchObject({ count: 3, keyed: true, hash: expect.stringMatching(/^hmac-sha256:/) });

    const ok = await runCli([
      "audit",
      "verify",
      file,
      "--key",
      keyFile,
      "--expect-count",
      String(saved.count),
      "--expect-head",
      saved.hash,
    ]);
    expect(ok.stdout).toBe(
      `${file}: 3 lines, keyed chain intact (every MAC matches the key), anchor found\n`,
    );
    expect(ok.code).toBe(0);

    // Tail truncation: a valid, shorter keyed chain, caught only against the anchor.
    const lines = readFileSync(file, "utf8").split("\n");
    writeFileSync(file, `${lines.slice(0, 2).join("\n")}\n`);
    const cut = await runCli(["audit", "verify", file, "--key", keyFile]);
    expect(cut.code).toBe(0);
    expect(cut.stdout).toContain("no anchor checked (lines cut from the end would not show)");
    const caught = await runCli(["audit", "verify", file, "--key", keyFile, "--expect-count", "3"]);
    expect(caught.code).toBe(1);
    expect(caught.stderr).toContain("the log has 2 lines but the anchor says 3");
  });

  it("refuses a keyed log without its key (exit 2), names a wrong key, and rejects a malformed anchor", async () => {
    const { dir, file } = await keyedLog(2);
    const noKey = await runCli(["audit", "verify", file]);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain("give its key (--key FILE or --key-env NAME)");
    process.env.TOOLGATE_TEST_WRONG_KEY = "w".repeat(32);
    try {
      const wrong = await runCli(["audit", "verify", file, "--key-env", "TOOLGATE_TEST_WRONG_KEY"]);
      expect(wrong.code).toBe(1);
      expect(wrong.stderr).toContain(`${file}:1: line 1's mac does not match the key`);
    } finally {
      delete process.env.TOOLGATE_TEST_WRONG_KEY;
    }
    const bad = await runCli([
      "audit",
      "verify",
      file,
      "--key",
      join(dir, "audit.key"),
      "--expect-head",
      "abc",
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--expect-head needs a chain value");
  });

  it("reads the key from the config's sink URL", async () => {
    const { dir } = await keyedLog(1);
    const files = approvalConfig();
    files["toolgate.config.yaml"] = (files["toolgate.config.yaml"] as string).replace(
      "jsonl:state/audit.jsonl",
      "jsonl:audit.jsonl?keyFile=audit.key",
    );
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const result = await runCli(["audit", "head", "--config", join(dir, "toolgate.config.yaml")]);
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/audit\.jsonl: 1 line, head hmac-sha256:[0-9a-f]{64} \(keyed\)/);
    expect(result.code).toBe(0);
  });
});
