import { createHash } from "node:crypto";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { AuditEvent } from "../../src/runtime/audit.js";
import { StoreUnavailableError } from "../../src/runtime/errors.js";
import { GENESIS_PREV, JsonlAuditSink, verifyAuditLog } from "../../src/stores/index.js";
import { tempDir } from "./helpers.js";

const tmp = tempDir();
afterAll(() => tmp.remove());
let n = 0;

const event = (i: number): AuditEvent => ({
  type: i % 2 === 0 ? "policy.decided" : "tool.executed",
  time: new Date(1_700_000_000_000 + i * 1000).toISOString(),
  callId: `call-${i}`,
  toolName: "read_file",
  fingerprint: "sha256:policy",
  decision: "allow",
  ruleIds: ["allow-read"],
  arguments: { path: `/srv/ünïcode-${i}.txt` },
});

/** A log of `count` events written by the sink; returns its path and its lines (without newlines). */
async function writeLog(count: number): Promise<{ file: string; lines: string[] }> {
  const file = path.join(tmp.dir, `log-${n++}`, "audit.jsonl");
  const sink = new JsonlAuditSink(file);
  for (let i = 1; i <= count; i++) await sink.record(event(i));
  await sink.close();
  return { file, lines: readFileSync(file, "utf8").split("\n").slice(0, -1) };
}

const save = (file: string, lines: string[]): void => writeFileSync(file, `${lines.join("\n")}\n`);

describe("JsonlAuditSink", () => {
  it("writes one chained line per event, starting from the genesis prev", async () => {
    const { file, lines } = await writeLog(3);
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(parsed.map((p) => p.seq)).toEqual([1, 2, 3]);
    expect(parsed[0]?.prev).toBe(GENESIS_PREV);
    expect(parsed[1]?.prev).toBe(
      `sha256:${createHash("sha256")
        .update(lines[0] ?? "")
        .digest("hex")}`,
    );
    expect(parsed[2]).toEqual({ seq: 3, prev: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), ...event(3) });
    expect(Object.keys(parsed[0] ?? {}).slice(0, 2)).toEqual(["seq", "prev"]);
    expect(verifyAuditLog(file)).toEqual({ ok: true, lines: 3, head: expect.objectContaining({ seq: 3 }) });
  });

  it("continues the chain of an existing file after a restart", async () => {
    const { file } = await writeLog(2);
    const sink = new JsonlAuditSink(file);
    await sink.record(event(3));
    await Promise.all([sink.record(event(4)), sink.record(event(5))]);
    expect(sink.head.seq).toBe(5);
    await sink.close();
    const check = verifyAuditLog(file);
    expect(check).toEqual({ ok: true, lines: 5, head: sink.head });
  });

  it("verifies an empty log", async () => {
    const file = path.join(tmp.dir, "empty.jsonl");
    writeFileSync(file, "");
    expect(verifyAuditLog(file)).toEqual({ ok: true, lines: 0, head: { seq: 0, hash: GENESIS_PREV } });
  });

  it("detects an edited line and names it", async () => {
    const { file, lines } = await writeLog(5);
    lines[2] = (lines[2] ?? "").replace('"decision":"allow"', '"decision":"deny"');
    save(file, lines);
    expect(verifyAuditLog(file)).toEqual({
      ok: false,
      line: 3,
      message:
        "line 3 does not match the hash recorded in line 4 (prev): line 3 was changed (or the prev of line 4 was)",
    });
  });

  it("detects a deleted line", async () => {
    const { file, lines } = await writeLog(5);
    lines.splice(1, 1);
    save(file, lines);
    expect(verifyAuditLog(file)).toEqual({
      ok: false,
      line: 2,
      message: "line 2 has seq 3, expected 2: a line before it was deleted or moved",
    });
  });

  it("detects the first line deleted", async () => {
    const { file, lines } = await writeLog(3);
    save(file, lines.slice(1));
    expect(verifyAuditLog(file)).toMatchObject({ ok: false, line: 1 });
  });

  it("detects reordered lines", async () => {
    const { file, lines } = await writeLog(5);
    const [third, fourth] = [lines[2] ?? "", lines[3] ?? ""];
    lines[2] = fourth;
    lines[3] = third;
    save(file, lines);
    expect(verifyAuditLog(file)).toMatchObject({
      ok: false,
      line: 3,
      message: expect.stringContaining("seq 4, expected 3"),
    });
  });

  it("detects an inserted line, even one forged to fit the chain", async () => {
    const { file, lines } = await writeLog(4);
    const copy = [...lines];
    copy.splice(2, 0, lines[0] ?? "");
    save(file, copy);
    expect(verifyAuditLog(file)).toMatchObject({ ok: false, line: 3 });

    const prev = `sha256:${createHash("sha256")
      .update(lines[1] ?? "")
      .digest("hex")}`;
    const forged = JSON.stringify({ seq: 3, prev, ...event(99) });
    const withForged = [...lines];
    withForged.splice(2, 0, forged);
    save(file, withForged);
    expect(verifyAuditLog(file)).toMatchObject({
      ok: false,
      line: 3,
      message: expect.stringContaining("inserted"),
    });
  });

  it("detects a truncated last line, and the sink refuses to continue it", async () => {
    const { file } = await writeLog(4);
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.subarray(0, bytes.length - 20));
    expect(verifyAuditLog(file)).toEqual({
      ok: false,
      line: 4,
      message: "line 4 has no newline at its end: the file was truncated or a write was cut off",
    });
    const sink = new JsonlAuditSink(file);
    await expect(sink.record(event(5))).rejects.toThrow(/the last line has no newline/);
    await expect(sink.record(event(5))).rejects.toBeInstanceOf(StoreUnavailableError);
    await sink.close();
  });

  it("detects a line that is not an audit line", async () => {
    const { file } = await writeLog(2);
    appendFileSync(file, '{"hello":"world"}\n');
    expect(verifyAuditLog(file)).toMatchObject({
      ok: false,
      line: 3,
      message: expect.stringContaining("not an audit line"),
    });
  });

  // Documented limit: dropping whole lines from the end leaves a valid, shorter chain.
  it("cannot see whole lines removed from the end, except by comparing the head kept elsewhere", async () => {
    const { file, lines } = await writeLog(4);
    const full = verifyAuditLog(file);
    save(file, lines.slice(0, 3));
    const cut = verifyAuditLog(file);
    expect(cut).toMatchObject({ ok: true, lines: 3 });
    expect(full.ok && cut.ok && full.head.seq !== cut.head.seq).toBe(true);
  });

  it("fails closed once another writer appended to its log, which still verifies", async () => {
    const file = path.join(tmp.dir, `shared-${n++}`, "audit.jsonl");
    const first = new JsonlAuditSink(file);
    const second = new JsonlAuditSink(file);
    await first.record(event(1));
    await second.record(event(2)); // opens after the first line and continues its chain
    const error = await first.record(event(3)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as Error).message).toMatch(/the log changed under this writer .* another process appended/);
    await expect(first.record(event(4))).rejects.toBe(error);
    await Promise.all([first.close(), second.close()]);
    expect(verifyAuditLog(file)).toMatchObject({ ok: true, lines: 2 });
  });

  it("fails with StoreUnavailableError when the file cannot be written", async () => {
    const blocker = path.join(tmp.dir, "not-a-dir");
    writeFileSync(blocker, "");
    const sink = new JsonlAuditSink(path.join(blocker, "audit.jsonl"));
    const error = await sink.record(event(1)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as StoreUnavailableError).store).toBe(`jsonl:${path.join(blocker, "audit.jsonl")}`);
    await sink.close();
    await expect(sink.record(event(1))).rejects.toThrow(/closed/);
  });
});
