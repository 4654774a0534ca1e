// Cold start: the compiled controller module vs loading the YAML, over the built package (dist/).
//
// For each size, a synthetic config with N tools is written under bench/out/ (inside the package, so that
// `toolgate` and `toolgate/runtime` resolve by self-reference), compiled once, and then measured in fresh
// child processes (median of `runs` each):
//   (a) compiled: import the compiled module + createController + the first decision (handle of one call);
//   (b) YAML:     import toolgate + loadPolicy + createController + the first decision.
// Each child measures from before its first import to after the decision; the child's whole wall time
// (Node start-up included) is reported too.
//
//   node bench/cold-start.mjs [--sizes 50,500] [--runs 5]
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { writeSyntheticConfig } from "./synthetic-config.mjs";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const OUT = join(ROOT, "bench", "out");

const CALL = `{ callId: "call_1", toolName: "tool_0000", arguments: { path: "src/index.ts" } }`;

function compiledScript(modulePath) {
  return `
    const t0 = performance.now();
    const m = await import(${JSON.stringify(pathToFileURL(modulePath).href)});
    const handlers = Object.fromEntries(m.specs.map((s) => [s.name, () => "ok"]));
    const controller = m.createController({ handlers });
    const result = await controller.handle(${CALL});
    const ms = performance.now() - t0;
    if (result.content !== "ok") throw new Error("unexpected result " + JSON.stringify(result));
    console.log(JSON.stringify({ ms }));
  `;
}

function yamlScript(configPath) {
  return `
    const t0 = performance.now();
    const { createController, loadPolicy } = await import("toolgate");
    const bundle = await loadPolicy({ config: ${JSON.stringify(configPath)} });
    const handlers = Object.fromEntries(bundle.tools.map((t) => [t.name, () => "ok"]));
    const controller = createController({ bundle, handlers });
    const result = await controller.handle(${CALL});
    const ms = performance.now() - t0;
    if (result.content !== "ok") throw new Error("unexpected result " + JSON.stringify(result));
    console.log(JSON.stringify({ ms }));
  `;
}

function runChild(script, cwd) {
  const started = performance.now();
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd, encoding: "utf8" });
  const wall = performance.now() - started;
  if (child.status !== 0) throw new Error(`benchmark child failed (${child.status}): ${child.stderr}`);
  return { ms: JSON.parse(child.stdout.trim().split("\n").pop()).ms, wall };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const round = (ms) => Math.round(ms * 10) / 10;

/**
 * Measures cold start for each size.
 * @param {{ sizes?: number[], runs?: number }} options
 * @returns {Promise<Array<{ tools: number, runs: number, compiledMs: number, yamlMs: number, speedup: number,
 *   compiledProcessMs: number, yamlProcessMs: number, moduleBytes: number }>>}
 */
export async function benchColdStart({ sizes = [50, 500], runs = 5 } = {}) {
  const { compileController, declarationPathFor, loadPolicy } = await import("toolgate");
  const rows = [];
  for (const size of sizes) {
    const dir = join(OUT, `cold-start-${size}`);
    rmSync(dir, { recursive: true, force: true });
    const config = writeSyntheticConfig(dir, size);
    const bundle = await loadPolicy({ config });
    const compiled = await compileController(bundle);
    const modulePath = join(dir, "generated", "toolgate.controller.mjs");
    mkdirSync(dirname(modulePath), { recursive: true });
    writeFileSync(modulePath, compiled.module);
    writeFileSync(declarationPathFor(modulePath), compiled.declarations);
    const a = [];
    const b = [];
    // Interleaved, so that a change in machine load affects both sides alike.
    for (let i = 0; i < runs; i++) {
      a.push(runChild(compiledScript(modulePath), dir));
      b.push(runChild(yamlScript(config), dir));
    }
    const compiledMs = median(a.map((r) => r.ms));
    const yamlMs = median(b.map((r) => r.ms));
    rows.push({
      tools: size,
      runs,
      compiledMs: round(compiledMs),
      yamlMs: round(yamlMs),
      speedup: round(yamlMs / compiledMs),
      compiledProcessMs: round(median(a.map((r) => r.wall))),
      yamlProcessMs: round(median(b.map((r) => r.wall))),
      moduleBytes: Buffer.byteLength(compiled.module),
    });
  }
  return rows;
}

function option(name, fallback) {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : process.argv[index + 1];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const sizes = option("--sizes", "50,500").split(",").map(Number);
  const runs = Number(option("--runs", "5"));
  const rows = await benchColdStart({ sizes, runs });
  console.log("cold start: import + createController + first decision (median of %d child processes)", runs);
  console.table(rows);
  const big = rows.find((r) => r.tools === 500);
  if (big !== undefined) {
    console.log(`500 tools: compiled is ${big.speedup}x faster than YAML`);
  }
}
