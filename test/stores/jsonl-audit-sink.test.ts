import { createHash, createHmac } from "node:crypto";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { AuditEvent } from "../../src/runtime/audit.js";
import { StoreUnavailableError } from "../../src/runtime/errors.js";
import {
  GENESIS_PREV,
  JsonlAuditSink,
  KEYED_GENESIS_PREV,
  readAuditKey,
  verifyAuditLog,
} from "../../src/stores/index.js";
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
    expect(verifyAuditLog(file)).toEqual({
      ok: true,
      lines: 3,
      head: expect.objectContaining({ count: 3 }),
      keyed: false,
    });
  });

  it("continues the chain of an existing file after a restart", async () => {
    const { file } = await writeLog(2);
    const sink = new JsonlAuditSink(file);
    await sink.record(event(3));
    await Promise.all([sink.record(event(4)), sink.record(event(5))]);
    const head = await sink.head();
    expect(head.count).toBe(5);
    await sink.close();
    const check = verifyAuditLog(file);
    expect(check).toEqual({ ok: true, lines: 5, head, keyed: false });
  });

  it("verifies an empty log", async () => {
    const file = path.join(tmp.dir, "empty.jsonl");
    writeFileSync(file, "");
    expect(verifyAuditLog(file)).toEqual({
      ok: true,
      lines: 0,
      head: { count: 0, hash: GENESIS_PREV },
      keyed: false,
    });
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
    expect(full.ok && cut.ok && full.head.count !== cut.head.count).toBe(true);
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

const sha256 = (text: string): string => `sha256:${createHash("sha256").update(text).digest("hex")}`;
const KEY = Buffer.from("k".repeat(32));
const OTHER_KEY = Buffer.from("o".repeat(32));

/** A keyed log of `count` events; returns its path, lines and the head the sink reported. */
async function writeKeyedLog(count: number, key: Uint8Array = KEY) {
  const file = path.join(tmp.dir, `keyed-${n++}`, "audit.jsonl");
  const sink = new JsonlAuditSink(file, { key });
  for (let i = 1; i <= count; i++) await sink.record(event(i));
  const head = await sink.head();
  await sink.close();
  return { file, head, lines: readFileSync(file, "utf8").split("\n").slice(0, -1) };
}

/** Rewrites lines as an attacker without the key would: recomputes the unkeyed chain from the genesis value. */
function rechain(lines: readonly string[]): string[] {
  let prev = GENESIS_PREV;
  return lines.map((line, i) => {
    const { seq: _seq, prev: _prev, mac: _mac, ...rest } = JSON.parse(line) as Record<string, unknown>;
    const out = JSON.stringify({ seq: i + 1, prev, ...rest });
    prev = sha256(out);
    return out;
  });
}

describe("the first line of a chain", () => {
  // Without the check against the genesis value, the tail of a log (its first lines cut, the rest renumbered
  // and re-linked from a forged start) would verify.
  it("must point to the genesis value, even when the rest of the chain is consistent", () => {
    const first = JSON.stringify({ seq: 1, prev: sha256("a line that was cut"), ...event(1) });
    const second = JSON.stringify({ seq: 2, prev: sha256(first), ...event(2) });
    const file = path.join(tmp.dir, `genesis-${n++}.jsonl`);
    save(file, [first, second]);
    expect(verifyAuditLog(file)).toEqual({
      ok: false,
      line: 1,
      message: `line 1 has prev ${sha256("a line that was cut")}, expected the genesis value ${GENESIS_PREV}: lines before it were removed, or it was changed`,
    });
  });

  it("of a keyed log must point to the keyed genesis value", async () => {
    const first = `{"seq":1,"prev":"hmac-sha256:${"1".repeat(64)}","callId":"c"}`;
    const { createHmac } = await import("node:crypto");
    const mac = createHmac("sha256", KEY).update(first).digest("hex");
    const file = path.join(tmp.dir, `genesis-${n++}.jsonl`);
    save(file, [`${first.slice(0, -1)},"mac":"hmac-sha256:${mac}"}`]);
    expect(verifyAuditLog(file, { key: KEY })).toMatchObject({
      ok: false,
      line: 1,
      message: expect.stringContaining(`expected the genesis value ${KEYED_GENESIS_PREV}`),
    });
  });
});

describe("a keyed JSONL audit log", () => {
  it("ends every line in an HMAC of the line's bytes before it, chained through prev", async () => {
    const { file, head, lines } = await writeKeyedLog(3);
    const { createHmac } = await import("node:crypto");
    let prev = KEYED_GENESIS_PREV;
    lines.forEach((line, i) => {
      const match = /^(.*),"mac":"(hmac-sha256:[0-9a-f]{64})"\}$/.exec(line);
      expect(match).not.toBeNull();
      const body = `${match?.[1]}}`;
      expect(JSON.parse(body)).toEqual({ seq: i + 1, prev, ...event(i + 1) });
      const mac = `hmac-sha256:${createHmac("sha256", KEY).update(body).digest("hex")}`;
      expect(match?.[2]).toBe(mac);
      prev = mac;
    });
    expect(head).toEqual({ count: 3, hash: prev });
    expect(verifyAuditLog(file, { key: KEY })).toEqual({ ok: true, lines: 3, head, keyed: true });
  });

  it("is continued after a restart with the same key, and refused with another key or none", async () => {
    const { file } = await writeKeyedLog(2);
    const again = new JsonlAuditSink(file, { key: KEY });
    await again.record(event(3));
    expect((await again.head()).count).toBe(3);
    await again.close();
    expect(verifyAuditLog(file, { key: KEY })).toMatchObject({ ok: true, lines: 3 });

    const wrong = new JsonlAuditSink(file, { key: OTHER_KEY });
    await expect(wrong.record(event(4))).rejects.toThrow(/the last line's mac does not match this key/);
    await wrong.close();
    const none = new JsonlAuditSink(file);
    await expect(none.record(event(4))).rejects.toThrow(/the log is keyed .* no key was given/);
    await none.close();
    const { file: plain } = await writeLog(1);
    const keyedOnPlain = new JsonlAuditSink(plain, { key: KEY });
    await expect(keyedOnPlain.record(event(2))).rejects.toThrow(/written without a key/);
    await keyedOnPlain.close();
  });

  it("cannot be verified without its key: nothing is claimed", async () => {
    const { file } = await writeKeyedLog(2);
    expect(verifyAuditLog(file)).toMatchObject({ ok: false, line: 1, reason: "key-required" });
  });

  it("catches an edit of the last line with the key alone (unkeyed: only with an anchor)", async () => {
    const { file, lines } = await writeKeyedLog(3);
    lines[2] = (lines[2] ?? "").replace('"decision":"allow"', '"decision":"deny"');
    save(file, lines);
    expect(verifyAuditLog(file, { key: KEY })).toMatchObject({
      ok: false,
      line: 3,
      message: expect.stringContaining("line 3's mac does not match the key"),
    });

    const plain = await writeLog(3);
    const head = verifyAuditLog(plain.file);
    plain.lines[2] = (plain.lines[2] ?? "").replace('"decision":"allow"', '"decision":"deny"');
    save(plain.file, plain.lines);
    expect(verifyAuditLog(plain.file)).toMatchObject({ ok: true, lines: 3 }); // the stated limit
    expect(head.ok).toBe(true);
    if (!head.ok) return;
    expect(verifyAuditLog(plain.file, { expect: head.head })).toMatchObject({
      ok: false,
      line: 3,
      message: expect.stringContaining("line 3 does not end the chain at the anchor's"),
    });
  });

  it("catches a rewrite re-chained without the key (unkeyed, that rewrite verifies)", async () => {
    const { file, lines } = await writeKeyedLog(4);
    const forged = rechain(lines.map((l) => l.replace('"decision":"allow"', '"decision":"deny"')));
    save(file, forged);
    expect(verifyAuditLog(file)).toMatchObject({ ok: true, lines: 4, keyed: false }); // looks fine unkeyed
    expect(verifyAuditLog(file, { key: KEY })).toMatchObject({
      ok: false,
      line: 1,
      message: expect.stringContaining("line 1 has no mac, yet a key was given"),
    });

    // A forger who keeps the mac fields but cannot compute them is caught at the first changed line.
    const { file: second, lines: kept } = await writeKeyedLog(4);
    kept[1] = (kept[1] ?? "").replace('"decision":"allow"', '"decision":"deny"');
    save(second, kept);
    expect(verifyAuditLog(second, { key: KEY })).toMatchObject({ ok: false, line: 2 });
  });

  it("catches a rewrite re-chained without the key, against an anchor, even unkeyed", async () => {
    const { file, lines } = await writeLog(4);
    const before = verifyAuditLog(file);
    if (!before.ok) throw new Error("the log should verify");
    save(file, rechain(lines.map((l) => l.replace('"decision":"allow"', '"decision":"deny"'))));
    expect(verifyAuditLog(file)).toMatchObject({ ok: true, lines: 4 });
    expect(verifyAuditLog(file, { expect: { hash: before.head.hash } })).toMatchObject({
      ok: false,
      message: expect.stringContaining("no line of the log ends the chain at the anchor's"),
    });
  });

  it("names a wrong key at the first line", async () => {
    const { file } = await writeKeyedLog(2);
    expect(verifyAuditLog(file, { key: OTHER_KEY })).toEqual({
      ok: false,
      line: 1,
      message:
        "line 1's mac does not match the key: the line was changed or forged by someone without the key, or the key is not the log's",
    });
  });

  it("catches tail truncation only against an anchor, keyed or not", async () => {
    for (const keyed of [true, false]) {
      const { file, lines, head } = keyed
        ? await writeKeyedLog(4)
        : await (async () => {
            const log = await writeLog(4);
            const check = verifyAuditLog(log.file);
            if (!check.ok) throw new Error("the log should verify");
            return { ...log, head: check.head };
          })();
      const options = keyed ? { key: KEY } : {};
      save(file, lines.slice(0, 2));
      expect(verifyAuditLog(file, options)).toMatchObject({ ok: true, lines: 2 }); // the stated limit
      expect(verifyAuditLog(file, { ...options, expect: { count: head.count } })).toMatchObject({
        ok: false,
        line: 2,
        message:
          "the log has 2 lines but the anchor says 4: lines were removed from its end, or the log was replaced",
      });
      expect(verifyAuditLog(file, { ...options, expect: head })).toMatchObject({ ok: false });
      expect(verifyAuditLog(file, { ...options, expect: { hash: head.hash } })).toMatchObject({ ok: false });
    }
  });

  it("accepts an anchor the log has grown past, and refuses one it never had", async () => {
    const file = path.join(tmp.dir, `grow-${n++}`, "audit.jsonl");
    const sink = new JsonlAuditSink(file, { key: KEY });
    expect(await sink.head()).toEqual({ count: 0, hash: KEYED_GENESIS_PREV });
    await sink.record(event(1));
    await sink.record(event(2));
    const anchor = await sink.head();
    await sink.record(event(3));
    await sink.close();
    expect(verifyAuditLog(file, { key: KEY, expect: anchor })).toMatchObject({ ok: true, lines: 3 });
    expect(verifyAuditLog(file, { key: KEY, expect: { hash: anchor.hash } })).toMatchObject({ ok: true });
    expect(verifyAuditLog(file, { key: KEY, expect: { count: 0, hash: KEYED_GENESIS_PREV } })).toMatchObject({
      ok: true,
    });
    expect(
      verifyAuditLog(file, { key: KEY, expect: { count: 2, hash: `hmac-sha256:${"a".repeat(64)}` } }),
    ).toMatchObject({
      ok: false,
      line: 2,
      message: expect.stringContaining("line 2 does not end the chain"),
    });
    expect(verifyAuditLog(file, { key: KEY, expect: { ...anchor, count: 1 } })).toMatchObject({ ok: false });
  });

  it("takes its key from a file or an environment variable, and refuses weak or exposed keys", async () => {
    const dir = path.join(tmp.dir, `keys-${n++}`);
    const { mkdirSync, chmodSync } = await import("node:fs");
    mkdirSync(dir);
    const keyFile = path.join(dir, "audit.key");
    writeFileSync(keyFile, `${"f".repeat(64)}\n`, { mode: 0o600 });
    expect(Buffer.from(readAuditKey({ keyFile })).toString()).toBe("f".repeat(64));
    process.env.TOOLGATE_TEST_AUDIT_KEY = "e".repeat(40);
    expect(Buffer.from(readAuditKey({ keyEnv: "TOOLGATE_TEST_AUDIT_KEY" })).toString()).toBe("e".repeat(40));
    expect(() => readAuditKey({ keyEnv: "TOOLGATE_TEST_NO_SUCH_KEY" })).toThrow(/is not set; set it/);
    process.env.TOOLGATE_TEST_AUDIT_KEY = "short";
    expect(() => readAuditKey({ keyEnv: "TOOLGATE_TEST_AUDIT_KEY" })).toThrow(
      /holds 5 bytes; an audit key needs at least 32/,
    );
    delete process.env.TOOLGATE_TEST_AUDIT_KEY;
    chmodSync(keyFile, 0o644);
    expect(() => readAuditKey({ keyFile })).toThrow(
      /can be read by other users \(mode 644\); run `chmod 600/,
    );
    expect(() => readAuditKey({ keyFile: path.join(dir, "missing.key") })).toThrow(
      /cannot read the audit key file/,
    );
    expect(() => readAuditKey({ keyFile, keyEnv: "X" })).toThrow(/in one way/);

    // A sink whose key cannot be read records nothing (fail closed).
    const sink = new JsonlAuditSink(path.join(dir, "audit.jsonl"), { keyFile });
    const error = await sink.record(event(1)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as Error).message).toMatch(/can be read by other users/);
    await sink.close();
  });
});

describe("what verification refuses, and what it says", () => {
  const NOT_AUDIT =
    "line 1 is not an audit line (JSON with a positive integer seq and a sha256: or hmac-sha256: prev)";
  const HEX = "ab".repeat(32);

  /** A line as the keyed sink writes it: the JSON of `fields`, ended by the HMAC of those bytes under `key`. */
  function keyedLine(fields: Record<string, unknown>, key: Uint8Array = KEY): string {
    const body = JSON.stringify(fields);
    const mac = createHmac("sha256", key).update(body).digest("hex");
    return `${body.slice(0, -1)},"mac":"hmac-sha256:${mac}"}`;
  }

  function file(lines: readonly string[]): string {
    const name = path.join(tmp.dir, `refused-${n++}.jsonl`);
    save(name, [...lines]);
    return name;
  }

  it("refuses a first line that is not exactly an audit line, whatever it parses to", () => {
    const bad = [
      "not json",
      "null",
      "[1]",
      `{"seq":1.5,"prev":"${GENESIS_PREV}"}`,
      `{"seq":0,"prev":"${GENESIS_PREV}"}`,
      `{"seq":"1","prev":"${GENESIS_PREV}"}`,
      `{"seq":1,"prev":["${GENESIS_PREV}"]}`,
      `{"seq":1,"prev":"x${GENESIS_PREV}"}`,
      `{"seq":1,"prev":"${GENESIS_PREV}0"}`,
      // Keyed lines: a mac needs an hmac-sha256: prev, and must be the last field, written as the sink writes it.
      `{"seq":1,"prev":"${GENESIS_PREV}","mac":"hmac-sha256:${HEX}"}`,
      `{"seq":1,"prev":"x${KEYED_GENESIS_PREV}","mac":"hmac-sha256:${HEX}"}`,
      `{"seq":1,"prev":"${KEYED_GENESIS_PREV}0","mac":"hmac-sha256:${HEX}"}`,
      `{"seq":1,"prev":"${KEYED_GENESIS_PREV}","mac": "hmac-sha256:${HEX}"}`,
      `{"seq":1,"prev":"${KEYED_GENESIS_PREV}","mac":"hmac-sha256:${HEX.toUpperCase()}"}`,
      `{"seq":1,"prev":"${KEYED_GENESIS_PREV}","mac":"hmac-sha256:${HEX}","callId":"c"}`,
    ];
    for (const line of bad) {
      expect([line, verifyAuditLog(file([line]))]).toEqual([
        line,
        { ok: false, line: 1, message: NOT_AUDIT },
      ]);
    }
  });

  it("names an empty line as empty, the first line included", async () => {
    const { lines } = await writeLog(2);
    expect(verifyAuditLog(file(["", ...lines]))).toEqual({ ok: false, line: 1, message: "line 1 is empty" });
    expect(verifyAuditLog(file([lines[0] as string, "", lines[1] as string]))).toEqual({
      ok: false,
      line: 2,
      message: "line 2 is empty",
    });
  });

  it("a log that cannot be read is a store error naming the file", () => {
    const missing = path.join(tmp.dir, `missing-${n++}.jsonl`);
    expect(() => verifyAuditLog(missing)).toThrow(StoreUnavailableError);
    expect(() => verifyAuditLog(missing)).toThrow(`jsonl:${missing}: reading the log failed`);
  });

  it("names a line whose kind (keyed or not) differs from line 1 as inserted or changed", async () => {
    const { lines } = await writeLog(2);
    const first = lines[0] as string;
    const keyedSecond = keyedLine({ seq: 2, prev: KEYED_GENESIS_PREV, ...event(2) });
    expect(verifyAuditLog(file([first, keyedSecond]))).toEqual({
      ok: false,
      line: 2,
      message: "line 2 has a mac, unlike line 1: it was inserted or changed",
    });
    const { lines: keyed } = await writeKeyedLog(2);
    const keyedFirst = keyed[0] as string;
    const plainSecond = JSON.stringify({ seq: 2, prev: GENESIS_PREV, ...event(2) });
    expect(verifyAuditLog(file([keyedFirst, plainSecond]), { key: KEY })).toEqual({
      ok: false,
      line: 2,
      message: "line 2 has no mac, unlike line 1: it was inserted or changed",
    });
  });

  it("says how to verify a keyed log when no key is given", async () => {
    const { file: keyed } = await writeKeyedLog(1);
    expect(verifyAuditLog(keyed)).toEqual({
      ok: false,
      line: 1,
      reason: "key-required",
      message:
        "the log is keyed (its lines carry a mac): give its key (--key FILE or --key-env NAME) to verify it",
    });
  });

  it("names the line that breaks the order of seq", async () => {
    const { lines } = await writeLog(3);
    const [l1, l2] = lines as [string, string, string];
    expect(verifyAuditLog(file([l1, l2, l1]))).toEqual({
      ok: false,
      line: 3,
      message: "line 3 has seq 1, expected 3: it was inserted or moved",
    });
    // A copy of line 2 after it: its seq is one behind and its prev points before line 2, so line 2 is blamed.
    expect(verifyAuditLog(file([l1, l2, l2]))).toEqual({
      ok: false,
      line: 2,
      message:
        "line 2 does not match the prev of line 3, whose seq 2 is out of order: line 2 was inserted or changed",
    });
  });

  it("a keyed line written with the key but pointing at the wrong prev breaks the chain at the line before", async () => {
    const { lines } = await writeKeyedLog(2);
    const relinked = keyedLine({ seq: 2, prev: KEYED_GENESIS_PREV, ...event(2) });
    expect(verifyAuditLog(file([lines[0] as string, relinked]), { key: KEY })).toEqual({
      ok: false,
      line: 1,
      message:
        "line 1 does not match the mac recorded in line 2 (prev): line 1 was changed (or the prev of line 2 was)",
    });
  });

  it("an anchor taken from an empty log (the genesis value) accepts that log and every log grown from it", async () => {
    const empty = path.join(tmp.dir, `empty-${n++}.jsonl`);
    writeFileSync(empty, "");
    expect(verifyAuditLog(empty, { expect: { hash: GENESIS_PREV } })).toMatchObject({ ok: true, lines: 0 });
    const { file: grown } = await writeLog(2);
    expect(verifyAuditLog(grown, { expect: { hash: GENESIS_PREV } })).toMatchObject({ ok: true, lines: 2 });
  });

  it("an anchor with only a count asks only that the log still has that many lines", async () => {
    const { file: log } = await writeLog(3);
    expect(verifyAuditLog(log, { expect: { count: 2 } })).toMatchObject({ ok: true, lines: 3 });
    expect(verifyAuditLog(log, { expect: { count: 3 } })).toMatchObject({ ok: true, lines: 3 });
    expect(verifyAuditLog(log, { expect: { count: 4 } })).toMatchObject({ ok: false, line: 3 });
  });

  it("an anchor whose count is no line number of the log never verifies", async () => {
    const { file: log } = await writeLog(2);
    for (const count of [-1, 1.5]) {
      expect(verifyAuditLog(log, { expect: { count, hash: GENESIS_PREV } })).toMatchObject({ ok: false });
    }
  });
});
