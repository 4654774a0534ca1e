// How long `loadPolicy` blocks the application's event loop: a synthetic config with N tools is loaded while
// a 1 ms interval probe runs; the longest gap between two probe ticks (less the interval) is the longest
// stretch during which nothing else in the process could run. Node's monitorEventLoopDelay gives a second
// opinion. Over the built package (dist/); the first load (cold: module and JIT warm-up) is reported apart.
//
//   node bench/load-block.mjs [--tools 500] [--runs 5]
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { loadPolicy } from "toolgate";
import { writeSyntheticConfig } from "./synthetic-config.mjs";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const arg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};

/** Loads once under the probe: the load's wall time and the longest event-loop block during it, in ms. */
export async function measureLoadBlock(configPath) {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  let last = performance.now();
  let longest = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - 1);
    last = now;
  }, 1);
  histogram.enable();
  // Let the probe and the histogram's timer tick before the load starts.
  await new Promise((done) => setTimeout(done, 5));
  last = performance.now();
  const start = performance.now();
  await loadPolicy({ config: configPath });
  const wall = performance.now() - start;
  // One more tick closes the last gap.
  await new Promise((done) => setTimeout(done, 2));
  histogram.disable();
  clearInterval(probe);
  return { wall, longestBlock: longest, histogramMax: histogram.max / 1e6 };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const tools = arg("--tools", 500);
  const runs = arg("--runs", 5);
  const dir = join(ROOT, "bench", "out", `load-block-${tools}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const config = writeSyntheticConfig(dir, tools);
  const cold = await measureLoadBlock(config);
  const warm = [];
  for (let i = 0; i < runs; i++) warm.push(await measureLoadBlock(config));
  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const round = (ms) => Math.round(ms * 10) / 10;
  console.log(
    JSON.stringify({
      tools,
      cold: {
        wall: round(cold.wall),
        longestBlock: round(cold.longestBlock),
        histogramMax: round(cold.histogramMax),
      },
      warm: {
        runs,
        wall: round(median(warm.map((w) => w.wall))),
        longestBlock: round(median(warm.map((w) => w.longestBlock))),
        histogramMax: round(median(warm.map((w) => w.histogramMax))),
      },
    }),
  );
  rmSync(dir, { recursive: true, force: true });
}
