// Codegen speed: `generateTypes` for a synthetic config of N tools (default 500), each run in a fresh
// child process (so json-schema-to-typescript and prettier load cold, as in `toolgate codegen`), median
// of `runs`. Also the wall time of the whole `toolgate codegen` and `toolgate compile` commands (Node
// start-up, loading and checking the YAML, generating, writing), run in turn. Target: 500 tools in at most
// 1 s, for generateTypes and for each command.
//
//   node bench/codegen.mjs [--tools 500] [--runs 5]
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { writeSyntheticConfig } from "./synthetic-config.mjs";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const round = (ms) => Math.round(ms * 10) / 10;

/**
 * Measures codegen of `tools` tools.
 * @param {{ tools?: number, runs?: number }} options
 * @returns {Promise<{ tools: number, runs: number, generateMs: number, generateCpuMs: number, commandMs: number,
 *   compileCommandMs: number, bytes: number }>} wall and CPU time of generateTypes (json-schema-to-typescript
 *   and prettier loaded cold), and the wall time of the whole `codegen` and `compile` commands (Node start-up,
 *   loading and checking the YAML, writing the files).
 */
export async function benchCodegen({ tools = 500, runs = 5 } = {}) {
  const dir = join(ROOT, "bench", "out", `codegen-${tools}`);
  rmSync(dir, { recursive: true, force: true });
  const config = writeSyntheticConfig(dir, tools);
  const script = `
    const { generateTypes, loadPolicy } = await import("toolgate");
    const bundle = await loadPolicy({ config: ${JSON.stringify(config)} });
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const text = await generateTypes(bundle);
    const cpu = process.cpuUsage(cpu0);
    console.log(JSON.stringify({ ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000, bytes: Buffer.byteLength(text) }));
  `;
  const generate = [];
  const cpu = [];
  const command = [];
  const compileCommand = [];
  let bytes = 0;
  const runCommand = (name) => {
    const started = performance.now();
    const cli = spawnSync(process.execPath, [join(ROOT, "bin", "toolgate.js"), name, "--config", config], {
      cwd: dir,
      encoding: "utf8",
    });
    if (cli.status !== 0) throw new Error(`toolgate ${name} failed: ${cli.stdout}${cli.stderr}`);
    return performance.now() - started;
  };
  for (let i = 0; i < runs; i++) {
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: dir,
      encoding: "utf8",
    });
    if (child.status !== 0) throw new Error(`codegen child failed: ${child.stderr}`);
    const row = JSON.parse(child.stdout.trim().split("\n").pop());
    generate.push(row.ms);
    cpu.push(row.cpuMs);
    bytes = row.bytes;
    command.push(runCommand("codegen"));
    compileCommand.push(runCommand("compile"));
  }
  return {
    tools,
    runs,
    generateMs: round(median(generate)),
    generateCpuMs: round(median(cpu)),
    commandMs: round(median(command)),
    compileCommandMs: round(median(compileCommand)),
    bytes,
  };
}

function option(name, fallback) {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : process.argv[index + 1];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const row = await benchCodegen({
    tools: Number(option("--tools", "500")),
    runs: Number(option("--runs", "5")),
  });
  console.log("codegen: generateTypes in a fresh process (median), and the whole toolgate codegen command");
  console.table([row]);
  console.log(
    `${row.tools} tools: generateTypes ${row.generateMs} ms wall, ${row.generateCpuMs} ms CPU (target: at most 1000 ms); load average ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} CPUs`,
  );
}
