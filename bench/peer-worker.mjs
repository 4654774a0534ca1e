// Measures one peer (casbin or Cedar) on the synthetic pattern policy of N rules in a process of its own, for
// the scaling rows of bench/realistic.mjs: `node --expose-gc bench/peer-worker.mjs PEER N MIN_CPU_NS PATH...`.
// Prints one line: mitata's p50 in ns per decision.
//
// Why a process of its own: measuring cedar-wasm's `statefulIsAuthorized` in a loop crashes Node 20's V8 in its
// deoptimizer ("unreachable code", DoComputeBuiltinContinuation) after a few hundred milliseconds, in the bench
// process and alone alike. With `--no-turbo-inlining` (given to the Cedar process only; its work is in
// WebAssembly, which the flag does not touch) it runs to the end. casbin runs with default flags.

import { do_not_optimize, measure } from "mitata";
import { casbinPatternEnforcer, cedarPatternAuthorizer, syntheticPatternRules } from "./peers.mjs";

const [peer, n, minCpu, ...paths] = process.argv.slice(2);
const rules = syntheticPatternRules(Number(n));
const decide =
  peer === "casbin"
    ? await casbinPatternEnforcer(rules)
    : peer === "cedar"
      ? await cedarPatternAuthorizer(rules, `scaling-${n}`)
      : undefined;
if (decide === undefined) throw new Error(`unknown peer ${peer}: casbin or cedar`);
for (const path of paths) if (decide(path) !== true) throw new Error(`${peer} did not allow ${path}`);

let i = 0;
const fn = () => do_not_optimize(decide(paths[i++ % paths.length]));
const options = { min_cpu_time: Number(minCpu), gc: globalThis.gc };
await measure(fn, options);
process.stdout.write(`${(await measure(fn, options)).p50}\n`);
