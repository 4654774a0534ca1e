// The shell oracle's log (shell-oracle/harness.ts): every record belongs to exactly one case, and a record that
// cannot be attributed fails the run as a harness error — never counted for every case, never dropped.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createSandbox,
  formatRecord,
  missingShells,
  OracleHarnessError,
  quote,
  readBatchLog,
  removeSandbox,
  runBatch,
  shellLogger,
  shellStub,
} from "./shell-oracle/harness.js";

const r = formatRecord;

/** The error `readBatchLog` throws on a log, or undefined. */
function failure(text: string, first: number, count: number): OracleHarnessError | undefined {
  try {
    readBatchLog(text, first, count);
  } catch (error) {
    if (error instanceof OracleHarnessError) return error;
    throw error;
  }
  return undefined;
}

describe("readBatchLog", () => {
  it("gives each record to the case it names, whatever the order (a background job may write late)", () => {
    const text = r("10", ["ls", "-la"]) + r("12", ["git", "status"]) + r("10", ["pwd"]) + r("11", ["x"]);
    expect(readBatchLog(text, 10, 3)).toEqual([[["ls", "-la"], ["pwd"]], [["x"]], [["git", "status"]]]);
    expect(readBatchLog("", 10, 3)).toEqual([[], [], []]);
  });

  it("reads back every byte of an argument, separators and newlines included", () => {
    const odd = ["", "a \\\nb", "\x1c", "\x1d\x1e\x1f", "\x1ce", "tab\there", "é"];
    expect(readBatchLog(r("0", ["echo", ...odd]), 0, 1)).toEqual([[["echo", ...odd]]]);
  });

  it("fails on a record split by another write (bash flushing its printf at a newline, mid-pipeline)", () => {
    // The failure seen at seed 11: `npm test 'a \<newline>b' "" | npm test -rf` in bash. The left side's record
    // went out in two writes, and the right side's record landed between them.
    const left = r("38550", ["npm", "test", "a \\\nb", ""]).replace("\x1cn", "\n");
    const cut = left.indexOf("\n") + 1;
    const text =
      r("38548", ["ls"]) +
      left.slice(0, cut) +
      r("38550", ["npm", "test", "-rf"]) +
      left.slice(cut) +
      r("38551", ["touch", "f"]);
    const error = failure(text, 38000, 2000);
    expect(error?.message).toMatch(/record 1 is not one whole record/);
    expect(error?.caseIds).toContain(38550);
    // The same split, escaped as the writers now do, is no longer a split: one write, one record.
    const whole = r("38550", ["npm", "test", "a \\\nb", ""]) + r("38550", ["npm", "test", "-rf"]);
    expect(readBatchLog(whole, 38000, 2000)[550]).toEqual([
      ["npm", "test", "a \\\nb", ""],
      ["npm", "test", "-rf"],
    ]);
  });

  it("fails on the tail of a split record (no start)", () => {
    expect(failure(`${r("0", ["ls"])}b\x1f\x1f\x1e`, 0, 1)?.message).toMatch(/not one whole record/);
  });

  it("fails on a record with no case id ($TGC unset or empty)", () => {
    expect(failure(r("", ["ls"]), 0, 5)?.message).toMatch(/has no case id/);
    expect(failure(r("?", ["ls"]), 0, 5)?.message).toMatch(/has no case id/);
    expect(failure(r("01", ["ls"]), 0, 5)?.message).toMatch(/has no case id/);
    expect(failure(r("1x", ["ls"]), 0, 5)?.message).toMatch(/has no case id/);
  });

  it("fails on a case id outside the batch (a write from another batch)", () => {
    expect(failure(r("9", ["ls"]), 10, 5)?.message).toMatch(/names case 9, which is not in this batch/);
    expect(failure(r("15", ["ls"]), 10, 5)?.message).toMatch(/names case 15/);
    expect(failure(r("14", ["ls"]), 10, 5)).toBeUndefined();
  });

  it("fails on a log that ends inside a record, a wrong field count, a bad escape or a raw newline", () => {
    expect(failure(r("0", ["ls"]).slice(0, -1), 0, 1)?.message).toMatch(/has no end/);
    expect(failure(r("0", ["ls"]) + r("0", ["pwd"]).slice(0, 5), 0, 1)?.message).toMatch(/has no end/);
    expect(failure("\x1d0\x1f2\x1fls\x1e", 0, 1)?.message).toMatch(/holds 1 argv fields where it says 2/);
    expect(failure("\x1d0\x1f0\x1e", 0, 1)?.message).toMatch(/holds 0 argv fields/);
    expect(failure("\x1d0\x1e", 0, 1)?.message).toMatch(/says nothing/);
    expect(failure("\x1d0\x1f1\x1fl\x1cxs\x1e", 0, 1)?.message).toMatch(/bad escape/);
    expect(failure("\x1d0\x1f1\x1fls\x1c\x1e", 0, 1)?.message).toMatch(/bad escape/);
    expect(failure("\x1d0\x1f1\x1fa\nb\x1e", 0, 1)?.message).toMatch(/raw newline/);
  });

  it("names the records around a fault and the cases they belong to", () => {
    const error = failure(r("3", ["ls"]) + r("", ["pwd"]) + r("4", ["x"]), 0, 10);
    expect(error?.message).toContain(JSON.stringify(r("3", ["ls"]).slice(0, -1)));
    expect(error?.caseIds).toEqual([3, 4]);
  });
});

const missing = missingShells();

describe.skipIf(missing.length > 0)("the writers of the log, in the real shells", () => {
  let sandbox: ReturnType<typeof createSandbox>;
  beforeAll(() => {
    sandbox = createSandbox();
  });
  afterAll(() => removeSandbox(sandbox));

  const odd = [
    "",
    "a \\\nb",
    "\n",
    "\x1c",
    "\x1d\x1e\x1f",
    "\x1cn",
    "*",
    "[a]",
    "'\"",
    "$x",
    "a b",
    "-",
    "%s\\",
  ];

  it("the shell function writes each record whole, with every argument as given, in every shell", () => {
    for (const shell of sandbox.shells) {
      const log = join(sandbox.root, "function-log");
      rmSync(log, { force: true });
      const script = join(sandbox.root, "function.sh");
      const call = `tg_log echo ${odd.map(quote).join(" ")}`;
      writeFileSync(
        script,
        [...shellLogger(log), `TGC=7; ${call}`, `TGC=8; ${call} | ${call}`, ""].join("\n"),
      );
      const trace = `${log}.trace`;
      if (shell.name.startsWith("bash") && spawnSync("strace", ["-V"]).status === 0) {
        // One write per record, even with a newline in it (bash's printf flushes at a newline).
        const traced = spawnSync("strace", ["-f", "-e", "trace=write", "-o", trace, ...shell.argv, script], {
          env: { LC_ALL: "C" },
        });
        expect(traced.status, shell.name).toBe(0);
        expect(readFileSync(trace, "latin1").match(/ write\(/g)?.length, shell.name).toBe(3);
      } else {
        const ran = spawnSync(shell.argv[0] as string, [...shell.argv.slice(1), script], {
          env: { LC_ALL: "C" },
        });
        expect(ran.status, shell.name).toBe(0);
      }
      const runs = readBatchLog(readFileSync(log, "latin1"), 7, 2);
      expect(runs, shell.name).toEqual([
        [["echo", ...odd]],
        [
          ["echo", ...odd],
          ["echo", ...odd],
        ],
      ]);
    }
  });

  it("the stub executable writes the same records", () => {
    const { bin, log } = sandbox.bins.get("dash") as { bin: string; log: string };
    rmSync(log, { force: true });
    expect(spawnSync(join(bin, "ls"), odd, { argv0: "ls", env: { TGC: "3" } }).status).toBe(0);
    expect(spawnSync(join(bin, "ls"), ["x"], { argv0: "ls", env: {} }).status).toBe(0);
    const text = readFileSync(log, "latin1");
    expect(failure(text, 0, 5)?.message).toMatch(/record 1 has no case id/);
    expect(readBatchLog(text.slice(0, text.indexOf("\x1e") + 1), 0, 5)[3]).toEqual([["ls", ...odd]]);
  });

  it("the fallback stub (a dash script, when there is no C compiler) writes the same records", () => {
    const log = join(sandbox.root, "fallback-log");
    const stub = join(sandbox.root, "fallback-stub");
    writeFileSync(stub, shellStub(log));
    chmodSync(stub, 0o755);
    expect(spawnSync(stub, odd, { env: { TGC: "2" } }).status).toBe(0);
    expect(readBatchLog(readFileSync(log, "latin1"), 0, 3)[2]).toEqual([[stub, ...odd]]);
  });

  it("a batch waits for background jobs that outlive their case, and gives their records to that case", async () => {
    const shell = sandbox.shells.find((s) => s.name === "dash") as (typeof sandbox.shells)[number];
    const slow = "{ i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done; ls late; } & pwd";
    const runs = await runBatch(sandbox, shell, [slow, "x next", "nohup ls"], 100, 60_000);
    expect(runs).toEqual([[["pwd"], ["ls", "late"]], [["x", "next"]], [["nohup", "ls"]]]);
  });

  it("a batch fails loudly on a record it cannot attribute", async () => {
    for (const shell of sandbox.shells) {
      await expect(runBatch(sandbox, shell, ["ls", "unset TGC; pwd", "ls"], 0, 60_000)).rejects.toThrow(
        /has no case id[\s\S]*case 1: "unset TGC; pwd"/,
      );
    }
    expect(existsSync(sandbox.root)).toBe(true);
  });
});
