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
}
