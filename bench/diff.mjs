// `toolgate diff` speed, over the built package (dist/), end to end in child processes (median of several
// runs, Node start-up included):
//   (a) two versions of the reference policy: policies/ against a copy with one rule changed (a shell deny
//       made ask: the measure), and against a copy with three changes (a narrowed deny glob, a widened
//       command list, that rule made ask), with generated witnesses;
//   (b) the pair of three changes with 10,000 recorded calls replayed from a JSONL audit log written by the JSONL sink.
// Targets: (a) under 2 s, (b) under 5 s. Prints a table; `--runs N` (default 5), `--smoke` (1 run, 500 calls).
//
//   npm run build && node bench/diff.mjs
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { JsonlAuditSink } from "toolgate/stores";
import { loadPolicyResultSync } from "../dist/config/load-policy.js";
import { diffPolicies } from "../dist/diff/diff-policies.js";
import { readRecordedCalls } from "../dist/diff/recorded-calls.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const BIN = join(ROOT, "bin", "toolgate.js");
const smoke = process.argv.includes("--smoke");
const runsFlag = process.argv.indexOf("--runs");
const runs = smoke ? 1 : runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 5;
const CALLS = smoke ? 500 : 10_000;

function copyReference(into) {
  cpSync(join(ROOT, "toolgate.config.yaml"), join(into, "toolgate.config.yaml"));
  cpSync(join(ROOT, "policies"), join(into, "policies"), { recursive: true });
}

function edit(path, from, to) {
  const text = readFileSync(path, "utf8");
  if (!text.includes(from)) throw new Error(`bench: ${path} no longer holds ${from}`);
  writeFileSync(path, text.replace(from, to));
}

const work = mkdtempSync(join(tmpdir(), "toolgate-bench-diff-"));
const base = join(work, "base");
const head = join(work, "head");
// The measure: one rule changed (a shell deny made ask), the slowest tool's search.
const one = join(work, "one");
copyReference(base);
copyReference(head);
copyReference(one);
const madeAsk = [
  `decision: deny
    when:
      command: { regex: "--no-index" }`,
  `decision: ask
    when:
      command: { regex: "--no-index" }`,
];
edit(join(head, "policies/org/baseline.yaml"), '"**/.env*"', '"**/.env"');
edit(join(head, "policies/policy.yaml"), '          - "pwd"\n', '          - "pwd"\n          - "cat"\n');
edit(join(head, "policies/policy.yaml"), ...madeAsk);
edit(join(one, "policies/policy.yaml"), ...madeAsk);

// Recorded calls: what a coding agent does all day, through the real JSONL sink.
const log = join(work, "audit.jsonl");
const sink = new JsonlAuditSink(log, { fsync: false });
const commands = [
  "git status",
  "git diff",
  "ls -la",
  "npm test",
  "cat README.md",
  "git log --oneline",
  "pwd",
];
const paths = ["src/index.ts", "README.md", "config/.env", "docs/guide.md", "a/b/c.ts", ".envrc"];
for (let i = 0; i < CALLS; i++) {
  const kind = i % 3;
  const event =
    kind === 0
      ? { toolName: "run_shell", arguments: { command: `${commands[i % commands.length]} f${i}` } }
      : kind === 1
        ? { toolName: "read_file", arguments: { path: `${paths[i % paths.length]}${i}` } }
        : { toolName: "http_fetch", arguments: { url: `https://api.github.com/repos/x/y/issues/${i}` } };
  await sink.record({
    type: "call.received",
    time: new Date(1_800_000_000_000 + i).toISOString(),
    callId: `call_${i}`,
    fingerprint: "sha256:bench",
    ...event,
  });
}
await sink.close();

// The child reports its own CPU time (user + system) when it exits: on a busy machine wall time says more
// about the other processes than about toolgate.
const CPU_REPORT = `data:text/javascript,process.on("exit",()=>{const c=process.cpuUsage();process.stderr.write("cpu-ms:"+(c.user+c.system)/1000+"\\n")})`;

function run(args) {
  const times = [];
  const cpuTimes = [];
  let output;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, ["--import", CPU_REPORT, BIN, "diff", ...args], {
      cwd: work,
      encoding: "utf8",
    });
    times.push(performance.now() - t0);
    const reported = /cpu-ms:([\d.]+)/.exec(r.stderr);
    if (reported !== null) cpuTimes.push(Number(reported[1]));
    if (r.status !== 0 && r.status !== 1)
      throw new Error(`toolgate diff exited ${r.status}: ${r.stdout}${r.stderr}`);
    output = JSON.parse(r.stdout);
  }
  times.sort((a, b) => a - b);
  cpuTimes.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)], cpu: cpuTimes[Math.floor(cpuTimes.length / 2)], output };
}

const a = run(["--base", "base", "--head", "head", "--format", "json"]);
const a1 = run(["--base", "base", "--head", "one", "--format", "json"]);
const b = run(["--base", "base", "--head", "head", "--format", "json", "--calls", "audit.jsonl"]);

// The same work in this process (no Node start-up): load both sides, read the log, diff. Wall and CPU time.
async function inProcess(withCalls) {
  const walls = [];
  const cpus_ = [];
  let summary;
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const side = (dir) => {
      const r = loadPolicyResultSync({ cwd: dir });
      return { label: dir, bundle: r.bundle, validators: r.validators };
    };
    const recorded = withCalls ? (await readRecordedCalls(log, work)).calls : [];
    const diff = diffPolicies(side(base), side(head), { recorded });
    walls.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpus_.push((c.user + c.system) / 1000);
    summary = diff.summary;
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { ms: median(walls), cpu: median(cpus_), summary };
}
const inA = await inProcess(false);
const inB = await inProcess(true);
rmSync(work, { recursive: true, force: true });

const rows = [
  [
    "CLI: reference policy against one rule changed (a shell deny made ask)",
    a1.ms,
    2000,
    a1.output.summary,
    a1.cpu,
  ],
  ["CLI: reference policy against three changes, with witnesses", a.ms, 2000, a.output.summary, a.cpu],
  [`CLI: the same with ${CALLS} recorded calls replayed`, b.ms, 5000, b.output.summary, b.cpu],
  ["in process: load both, diff with witnesses", inA.ms, 2000, inA.summary, inA.cpu],
  [`in process: the same with ${CALLS} recorded calls`, inB.ms, 5000, inB.summary, inB.cpu],
];
console.log(
  `toolgate diff, median of ${runs} run(s), ${cpus().length} cores, load average ${loadavg()[0].toFixed(1)}, Node ${process.version}`,
);
console.log("| measurement | wall ms | CPU ms | target | met | loosened | tightened |");
console.log("| --- | ---: | ---: | ---: | --- | ---: | ---: |");
for (const [name, ms, target, summary, cpu] of rows) {
  console.log(
    `| ${name} | ${ms.toFixed(0)} | ${cpu === undefined ? "" : cpu.toFixed(0)} | < ${target} | ${ms < target ? "yes" : "no"} | ${summary.loosened} | ${summary.tightened} |`,
  );
}
