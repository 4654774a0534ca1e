// Verify speed: the wall time of the whole `toolgate verify` command (Node start-up, loading the reference
// configuration, reading the property file, verifying, printing) on bench/verify/reference-20.yaml, twenty
// properties of the reference policy; median of `runs`, each in a fresh process. Target: under 2 s. And the
// whole `toolgate diff` command of the reference policy against a copy with one rule changed (a shell deny made
// ask, the slowest tool's search; bench/diff.mjs has more pairs). Target: under 2 s.
//
//   node bench/verify.mjs [--runs 5]
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const PROPERTIES = join("bench", "verify", "reference-20.yaml");

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Times `toolgate verify` on the twenty properties `runs` times and returns the median wall time (ms), the
 * number of properties and the command's exit code (0 expected: none fails).
 */
export function benchVerify({ runs = 5 } = {}) {
  const times = [];
  let exit = 0;
  let properties = 0;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const child = spawnSync(
      process.execPath,
      [join(ROOT, "bin", "toolgate.js"), "verify", "--format", "json", PROPERTIES],
      { cwd: ROOT, encoding: "utf8" },
    );
    times.push(performance.now() - started);
    exit = child.status ?? 1;
    if (exit !== 0) throw new Error(`toolgate verify exited ${exit}: ${child.stderr}`);
    properties = JSON.parse(child.stdout).results.length;
  }
  return { properties, runs, commandMs: Math.round(median(times)), exit };
}

/** The shell rule the diff benchmark makes ask (policies/policy.yaml). */
const DENIED = `decision: deny
    when:
      command: { regex: "--no-index" }`;

/**
 * Times `toolgate diff` of the reference policy against a copy with one rule changed, `runs` times, and returns
 * the median wall time (ms) and the summary of the last run (the change loosens: exit 0 without `--fail-on`).
 */
export function benchDiff({ runs = 5 } = {}) {
  const work = mkdtempSync(join(os.tmpdir(), "toolgate-bench-diff-one-"));
  try {
    for (const side of ["base", "head"]) {
      cpSync(join(ROOT, "toolgate.config.yaml"), join(work, side, "toolgate.config.yaml"));
      cpSync(join(ROOT, "policies"), join(work, side, "policies"), { recursive: true });
    }
    const policy = join(work, "head", "policies", "policy.yaml");
    const text = readFileSync(policy, "utf8");
    if (!text.includes(DENIED)) throw new Error(`bench: ${policy} no longer holds the --no-index deny rule`);
    writeFileSync(policy, text.replace(DENIED, DENIED.replace("decision: deny", "decision: ask")));
    const times = [];
    let summary;
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      const child = spawnSync(
        process.execPath,
        [join(ROOT, "bin", "toolgate.js"), "diff", "--base", "base", "--head", "head", "--format", "json"],
        { cwd: work, encoding: "utf8" },
      );
      times.push(performance.now() - started);
      if (child.status !== 0 && child.status !== 1)
        throw new Error(`toolgate diff exited ${child.status}: ${child.stderr}`);
      summary = JSON.parse(child.stdout).summary;
    }
    return { runs, commandMs: Math.round(median(times)), summary };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function option(name, fallback) {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : process.argv[index + 1];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const row = benchVerify({ runs: Number(option("--runs", "5")) });
  console.log(
    "verify: the whole toolgate verify command on the reference policy (median of fresh processes)",
  );
  console.table([row]);
  console.log(
    `${row.properties} properties: ${row.commandMs} ms (target: under 2000 ms); load average ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} CPUs`,
  );
  const diff = benchDiff({ runs: Number(option("--runs", "5")) });
  console.log(
    `diff against one rule changed: ${diff.commandMs} ms (target: under 2000 ms), ${diff.summary.loosened} loosened`,
  );
}
