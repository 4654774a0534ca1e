// The agent hook per call: `toolgate hook claude-code` answering one Claude Code PreToolUse payload on stdin, as
// Claude Code runs it (a new Node process per tool call), against `node -e 0` given the same stdin (what any
// hook written in Node costs before it does anything). The project is what `toolgate init --agent claude-code`
// writes, under bench/out/. Three kinds of run, interleaved so that a change in the machine's load affects them
// alike: the yardstick, a call with the policy unchanged since the last call (warm), and the first call after
// an edit of the policy file (a comment line appended, so its content changes). Each row is the median of
// `runs` wall times; its ratio is the median of the per-round ratios against the yardstick of the same round.
//
//   node bench/hook.mjs [--runs 20]
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const BIN = join(ROOT, "bin", "toolgate.js");

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const round = (ms) => Math.round(ms * 10) / 10;

/** Writes the project with `toolgate init --agent claude-code` and returns its folder. */
function writeProject(dir) {
  rmSync(dir, { recursive: true, force: true });
  const init = spawnSync(process.execPath, [BIN, "init", "--agent", "claude-code", dir], {
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  if (init.status !== 0)
    throw new Error(`toolgate init --agent claude-code failed: ${init.stdout}${init.stderr}`);
  return dir;
}

/**
 * Measures the hook.
 * @param {{ runs?: number }} options
 * @returns {{ runs: number, nodeMs: number, warmMs: number, editedMs: number, warmRatio: number,
 *   editedRatio: number }} medians of the wall times (ms) and of the per-round ratios against `node -e 0`
 */
export function benchHook({ runs = 20 } = {}) {
  const dir = writeProject(join(ROOT, "bench", "out", "hook-project"));
  const policyFile = join(dir, "policies", "policy.yaml");
  const policy = readFileSync(policyFile, "utf8");
  const payload = JSON.stringify({
    session_id: "bench",
    transcript_path: join(dir, "transcript.jsonl"),
    cwd: dir,
    hook_event_name: "PreToolUse",
    tool_name: "Read",
    tool_input: { file_path: join(dir, "src", "index.ts") },
  });
  const hook = [BIN, "hook", "claude-code", "--config", join(dir, "toolgate.config.yaml"), "--project", dir];
  const env = { ...process.env, CLAUDE_PROJECT_DIR: dir };
  const time = (args, check) => {
    const started = performance.now();
    const child = spawnSync(process.execPath, args, { cwd: dir, env, input: payload, encoding: "utf8" });
    const ms = performance.now() - started;
    if (child.status !== 0 || (check && !child.stdout.includes('"permissionDecision":"allow"')))
      throw new Error(`${args.join(" ")} answered ${child.status}: ${child.stdout}${child.stderr}`);
    return ms;
  };
  // Warm-up: whatever the hook keeps between calls is in place before the first warm run.
  time(["-e", "0"], false);
  time(hook, true);
  const node = [];
  const warm = [];
  const edited = [];
  for (let i = 0; i < runs; i++) {
    node.push(time(["-e", "0"], false));
    warm.push(time(hook, true));
    writeFileSync(policyFile, `${policy}# edit ${i}\n`);
    edited.push(time(hook, true));
  }
  writeFileSync(policyFile, policy);
  return {
    runs,
    nodeMs: round(median(node)),
    warmMs: round(median(warm)),
    editedMs: round(median(edited)),
    warmRatio: median(warm.map((ms, i) => ms / node[i])),
    editedRatio: median(edited.map((ms, i) => ms / node[i])),
  };
}

function option(name, fallback) {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : process.argv[index + 1];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = benchHook({ runs: Number(option("--runs", "20")) });
  console.log(
    `toolgate hook claude-code (median of ${r.runs}): node -e 0 ${r.nodeMs} ms; warm ${r.warmMs} ms (${r.warmRatio.toFixed(2)}x, target <= 2x); first call after a policy edit ${r.editedMs} ms (${r.editedRatio.toFixed(2)}x, target <= 4x)`,
  );
  const h = benchHostHooks({ runs: Number(option("--runs", "20")) });
  for (const { host, ms, ratio } of h.hosts) {
    console.log(
      `toolgate hook ${host} on the canonical policy, warm (median of ${h.runs}): ${ms} ms (${ratio.toFixed(2)}x node -e 0 at ${h.nodeMs} ms)`,
    );
  }
}

/**
 * Each coding agent's hook on one canonical policy (what `toolgate init --agent codex` writes, whose aliases
 * read every host's tools as the canonical ones): a warm call per host — Claude Code and Gemini CLI reading a
 * project file, Codex running `git status`, Cursor before reading a project file — interleaved with
 * `node -e 0`. Each row is the median wall time and the median of the per-round ratios.
 * @param {{ runs?: number }} options
 * @returns {{ runs: number, nodeMs: number, hosts: { host: string, ms: number, ratio: number }[] }}
 */
export function benchHostHooks({ runs = 20 } = {}) {
  const dir = join(ROOT, "bench", "out", "hook-hosts-project");
  rmSync(dir, { recursive: true, force: true });
  const init = spawnSync(process.execPath, [BIN, "init", "--agent", "codex", dir], {
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  if (init.status !== 0) throw new Error(`toolgate init --agent codex failed: ${init.stdout}${init.stderr}`);
  const config = join(dir, "toolgate.config.yaml");
  const file = join(dir, "src", "index.ts");
  const hosts = [
    {
      host: "claude-code",
      payload: {
        session_id: "bench",
        transcript_path: join(dir, "t.jsonl"),
        cwd: dir,
        hook_event_name: "PreToolUse",
        tool_name: "Read",
        tool_input: { file_path: file },
        tool_use_id: "toolu_1",
      },
      allowed: (out) => out.includes('"permissionDecision":"allow"'),
    },
    {
      host: "gemini-cli",
      payload: {
        session_id: "bench",
        transcript_path: join(dir, "t.json"),
        cwd: dir,
        hook_event_name: "BeforeTool",
        timestamp: "2026-12-04T10:00:00.000Z",
        tool_name: "read_file",
        tool_input: { file_path: file },
      },
      allowed: (out) => out.includes('"decision":"allow"'),
    },
    {
      host: "codex",
      payload: {
        session_id: "bench",
        turn_id: "t1",
        transcript_path: null,
        cwd: dir,
        hook_event_name: "PreToolUse",
        model: "gpt-5",
        permission_mode: "default",
        tool_name: "Bash",
        tool_input: { command: "git status" },
        tool_use_id: "call_1",
      },
      allowed: (out) => out === "",
    },
    {
      host: "cursor",
      payload: {
        hook_event_name: "beforeReadFile",
        conversation_id: "c1",
        generation_id: "g1",
        workspace_roots: [dir],
        cwd: dir,
        file_path: file,
        content: "",
      },
      allowed: (out) => out.includes('"permission":"allow"'),
    },
  ];
  const time = (args, input, allowed) => {
    const started = performance.now();
    const child = spawnSync(process.execPath, args, { cwd: dir, input, encoding: "utf8" });
    const ms = performance.now() - started;
    if (child.status !== 0 || (allowed !== undefined && !allowed(child.stdout)))
      throw new Error(`${args.join(" ")} answered ${child.status}: ${child.stdout}${child.stderr}`);
    return ms;
  };
  const runsOf = hosts.map(({ host, payload, allowed }) => ({
    args: [BIN, "hook", host, "--config", config, "--project", dir],
    input: JSON.stringify(payload),
    allowed,
  }));
  // Warm-up: each host's first call writes the cache the next ones read.
  for (const run of runsOf) time(run.args, run.input, run.allowed);
  const node = [];
  const times = hosts.map(() => []);
  for (let i = 0; i < runs; i++) {
    node.push(time(["-e", "0"], "{}", undefined));
    runsOf.forEach((run, h) => {
      times[h].push(time(run.args, run.input, run.allowed));
    });
  }
  return {
    runs,
    nodeMs: round(median(node)),
    hosts: hosts.map(({ host }, h) => ({
      host,
      ms: round(median(times[h])),
      ratio: median(times[h].map((ms, i) => ms / node[i])),
    })),
  };
}
