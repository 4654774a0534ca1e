#!/usr/bin/env node
// Long random runs of the shell oracle (test/runtime/match/shell-oracle.test.ts):
//   npm run test:oracle -- --cases 200000 --seed 7 [--report oracle.json] [--all]
// Prints progress, the figures and every violation (also written to --report as JSON when given). A case that
// neither property can fail on (the matcher says neither "certainly allowed" nor "not possibly denied") is
// checked without starting the shells, as in CI, which more than halves a run; --all runs every case in them.
import { spawnSync } from "node:child_process";

const args = process.argv.slice(2);
function option(name, fallback) {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const value = args[i + 1];
  if (value === undefined) {
    console.error(`--${name} needs a value`);
    process.exit(2);
  }
  return value;
}
for (const arg of args) {
  if (arg.startsWith("--") && !["--cases", "--seed", "--report", "--all"].includes(arg)) {
    console.error(`unknown option ${arg}: use --cases N, --seed N, --report FILE, --all`);
    process.exit(2);
  }
}
const cases = option("cases", "200000");
const seed = option("seed", String(Date.now() % 2 ** 31));
if (!/^[0-9]+$/.test(cases) || !/^[0-9]+$/.test(seed)) {
  console.error("--cases and --seed take whole numbers");
  process.exit(2);
}
const env = {
  ...process.env,
  TOOLGATE_ORACLE_CASES: cases,
  TOOLGATE_ORACLE_SEED: seed,
  TOOLGATE_ORACLE_PROGRESS: "1",
};
if (args.includes("--all")) env.TOOLGATE_ORACLE_EVERY_CASE = "1";
const report = option("report", undefined);
if (report !== undefined) env.TOOLGATE_ORACLE_REPORT = report;
console.log(`shell oracle: ${cases} cases, seed ${seed}`);
const result = spawnSync("npx", ["vitest", "run", "test/runtime/match/shell-oracle.test.ts"], {
  env,
  stdio: "inherit",
});
process.exit(result.status ?? 1);
