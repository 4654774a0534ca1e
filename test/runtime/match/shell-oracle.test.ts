// The shell reader checked against the real shells (see shell-oracle/harness.ts). The case count and seed can
// be raised for long runs: `npm run test:oracle -- --cases 200000 --seed 7`.
import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { missingShells, runOracle } from "./shell-oracle/harness.js";

const CASES = Number(process.env.TOOLGATE_ORACLE_CASES ?? 20_000);
const SEED = Number(process.env.TOOLGATE_ORACLE_SEED ?? 20_261_202);
// A case neither property can fail on (the matcher says neither "certainly allowed" nor "not possibly denied")
// is checked without running it in the shells: about three in five cases, which keeps the 20,000 in CI to a
// few minutes. TOOLGATE_ORACLE_EVERY_CASE runs every case in every shell, so that the denied-command runs
// (mostly in the skipped cases) can be counted too.
const SKIP_DECIDED = process.env.TOOLGATE_ORACLE_EVERY_CASE === undefined;
const missing = missingShells();

if (missing.length > 0) {
  const message = `SHELL ORACLE SKIPPED: ${missing.join(", ")} not installed (apt-get install dash bash busybox zsh)`;
  console.warn(`\n${"!".repeat(message.length)}\n${message}\n${"!".repeat(message.length)}\n`);
  // In CI the shells are installed by .ci/run: a missing one is a failure, not a skip.
  if (process.env.CI !== undefined) {
    describe("the shell oracle", () => {
      it("needs dash, bash, busybox and zsh", () => {
        expect(missing).toEqual([]);
      });
    });
  }
}

describe.skipIf(missing.length > 0)(
  "the shell oracle: dash, bash, bash --posix, busybox sh, zsh as sh",
  () => {
    it(
      `${CASES} generated commands (seed ${SEED}): allow only when every shell ran only allowed commands; deny whenever any shell ran a denied one`,
      async () => {
        const progress = process.env.TOOLGATE_ORACLE_PROGRESS !== undefined;
        let printed = 0;
        const result = await runOracle({
          count: CASES,
          seed: SEED,
          batch: progress ? 500 : undefined,
          skipDecided: SKIP_DECIDED,
          onProgress: progress
            ? (done, figures) => {
                console.info(
                  `shell oracle: ${done}/${CASES} cases checked (${figures.shellCases} run in the shells), ` +
                    `${figures.certainCases} certainly allowed, ` +
                    `${figures.deniedRuns} denied-command runs, ${figures.violations.length} violations`,
                );
                for (const violation of figures.violations.slice(printed))
                  console.info(JSON.stringify(violation));
                printed = figures.violations.length;
              }
            : undefined,
        });
        const report = process.env.TOOLGATE_ORACLE_REPORT;
        if (report !== undefined)
          writeFileSync(report, `${JSON.stringify({ seed: SEED, ...result }, null, 2)}\n`);
        console.info(
          `shell oracle: ${result.cases} cases (${result.shellCases} run in the shells), seed ${SEED}, ` +
            `${result.certainCases} certainly allowed, ` +
            `${result.deniedRuns} denied-command runs, ${result.possibleCases} possibly denied, ` +
            `${result.violations.length} violations, ${(result.milliseconds / 1000).toFixed(1)} s`,
        );
        // The oracle must exercise both properties, or it checks nothing.
        expect(result.certainCases).toBeGreaterThan(CASES / 20);
        // (Skipping the decided cases skips most denied runs: there, a run that checks nothing fails instead.)
        if (SKIP_DECIDED) expect(result.shellCases).toBeGreaterThan(CASES / 5);
        else expect(result.deniedRuns).toBeGreaterThan(CASES / 20);
        expect(result.violations.slice(0, 20)).toEqual([]);
      },
      // Generous: the shells' process starts dominate, and a loaded machine starts them slowly.
      Math.max(20 * 60_000, CASES * 100),
    );
  },
);
