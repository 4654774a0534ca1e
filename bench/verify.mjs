// Verify speed: the wall time of the whole `toolgate verify` command (Node start-up, loading the reference
// configuration, reading the property file, verifying, printing) on bench/verify/reference-20.yaml, twenty
// properties of the reference policy; median of `runs`, each in a fresh process. Target: under 2 s.
//
//   node bench/verify.mjs [--runs 5]
import { spawnSync } from "node:child_process";
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
}
