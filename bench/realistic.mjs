// The realistic rows of `npm run bench`: the workloads users have, each beside its floor in the same process.
//
// 1. The reference policy (policies/, with its organisation baseline) on real calls: an allowed `read_file`, a
//    compound shell command of three simple commands, an allowed HTTP fetch.
// 2. Two ordinary deny globs without literals (`**/.env*`, `**/.ssh/**`) on `read_file`, then ten everyday ones.
// 3. Synthetic policies with N deny rules whose globs and regexes have no literal prefix or suffix (so no
//    literal check answers them before the matcher runs), against casbin (`globMatch`/`regexMatch`) and Cedar
//    (`like`) on the same rules (see bench/peers.mjs for how each peer spells them).
// 4. The worst lint-clean regex per MiB of input (bench/regex-bound.mjs's patterns).
//
// The floor of a call is what any gate must do: a Map lookup by tool name, the same ajv validator (same schema,
// same options) and the same no-op handler. `handle` is asynchronous, so it is compared with the same floor
// behind one promise; `decide` (the policy alone) is compared with the synchronous floor.

import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { do_not_optimize } from "mitata";
import { compileController, loadPolicy } from "toolgate";
import { compileRegex, REGEX_WORK_BOUND } from "../dist/runtime/match/regex/index.js";
import { ajvOptions } from "../dist/validation/argument-validator.js";
import { patternPolicyYaml, syntheticPatternRules } from "./peers.mjs";

const FILE_TOOL = [
  "tools:",
  "  - name: read_file",
  "    description: Read a UTF-8 text file inside the workspace.",
  "    input_schema:",
  "      type: object",
  "      properties:",
  "        path: { type: string, minLength: 1, maxLength: 4096 }",
  "        max_bytes: { type: integer, minimum: 1, maximum: 1048576 }",
  "      required: [path]",
  "      additionalProperties: false",
  "",
].join("\n");

/** Writes a compiled controller module for `bundle` under `dir`, imports it, and returns the module. */
async function compiledModule(bundle, dir) {
  const compiled = await compileController(bundle);
  const modulePath = join(dir, "controller.mjs");
  writeFileSync(modulePath, compiled.module);
  return import(pathToFileURL(modulePath).href);
}

/** The floor for `bundle`'s tools: a Map lookup, the same ajv validator, the same no-op handler. */
function floorOf(bundle, handler) {
  const ajv = new Ajv2020(ajvOptions());
  const validators = new Map(bundle.tools.map((tool) => [tool.name, ajv.compile(tool.inputSchema)]));
  return (call) => {
    const validate = validators.get(call.toolName);
    if (validate === undefined || !validate(call.arguments))
      throw new Error(`floor rejected ${call.toolName}`);
    return handler(call.arguments);
  };
}

/**
 * Measures a controller on `calls` beside its floor: each entry is a kind of call with several variants, the compiled `handle` against the async
 * floor and `decide` against the sync floor. `targets` maps a call's label to its `handle` target (×floor).
 */
async function measureCalls({ ns, row, section, bundle, mod, calls, targets = {} }) {
  const noop = () => "ok";
  const handlers = Object.fromEntries(bundle.tools.map((tool) => [tool.name, noop]));
  const controller = mod.createController({ handlers });
  const floor = floorOf(bundle, noop);
  const results = {};
  for (const { label, calls: variants, expect } of calls) {
    for (const call of variants) {
      const handled = await controller.handle(call);
      const decided = mod.policy.decide(call).action;
      if (decided !== expect || (expect === "allow" && handled.content !== "ok"))
        throw new Error(`${label}: expected ${expect}, got ${decided} (${JSON.stringify(handled)})`);
    }
    // Each measured function cycles through the variants, so that no cache keyed by the last argument value
    // answers every call.
    const [a, b, c, d] = [cycler(variants), cycler(variants), cycler(variants), cycler(variants)];
    const fns = {
      floor: () => do_not_optimize(floor(a())),
      floorAsync: async () => do_not_optimize(await Promise.resolve(floor(b()))),
      handle: async () => do_not_optimize(await controller.handle(c())),
      decide: () => do_not_optimize(mod.policy.decide(d())),
    };
    for (const fn of Object.values(fns)) await ns(fn);
    // Several rounds of the four, each ratio taken within its round and the median kept: on a machine whose
    // load changes from second to second, a floor and a call measured seconds apart are not comparable.
    const perRound = { floor: [], floorAsync: [], handle: [], decide: [] };
    for (let r = 0; r < ROUNDS; r++)
      for (const [name, fn] of Object.entries(fns)) perRound[name].push(await ns(fn));
    const t = Object.fromEntries(Object.entries(perRound).map(([name, values]) => [name, median(values)]));
    const ratioOf = (name, floorName) => median(perRound[name].map((v, i) => v / perRound[floorName][i]));
    const target = targets[label];
    const ratio = ratioOf("handle", "floorAsync");
    row(section, `floor: Map lookup + ajv validator + no-op handler (${label})`, round(t.floor), "ns", 1);
    row(
      section,
      `compiled handle, ${label}; ratio vs async floor`,
      round(t.handle),
      "ns",
      ratio,
      target === undefined ? undefined : `<= ${target}x floor`,
      target === undefined ? undefined : ratio <= target,
    );
    row(
      section,
      `  decide alone, ${label}; ratio vs sync floor`,
      round(t.decide),
      "ns",
      ratioOf("decide", "floor"),
    );
    results[label] = t;
  }
  return results;
}

/** A function that returns the items of `list` in turn, round and round. */
function cycler(list) {
  let i = 0;
  return () => {
    i = (i + 1) % list.length;
    return list[i];
  };
}

const round = (value, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Rounds of each call row's measurements (see `measureCalls`). */
const ROUNDS = 3;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function freshDir(out, name) {
  const dir = join(out, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The reference policy of the repository on a mix of real calls. */
async function referencePolicy({ ns, row, root, out }) {
  const bundle = await loadPolicy({ cwd: root });
  const mod = await compiledModule(bundle, freshDir(out, "reference"));
  const calls = (toolName, field, values) =>
    values.map((value) => ({ callId: "call_1", toolName, arguments: { [field]: value } }));
  await measureCalls({
    ns,
    row,
    section: "reference",
    bundle,
    mod,
    calls: [
      { label: "allowed read_file", calls: calls("read_file", "path", READ_PATHS), expect: "allow" },
      {
        label: "shell: three simple commands",
        calls: calls("run_shell", "command", [
          "git status --short && git diff --stat && ls src",
          "ls -la && git log --oneline && pwd",
          "git diff src/index.ts; git status; ls docs",
          "pwd && ls test && git diff --stat",
        ]),
        expect: "allow",
      },
      {
        label: "allowed http_fetch",
        calls: calls("http_fetch", "url", [
          "https://registry.npmjs.org/toolgate/latest",
          "https://api.github.com/repos/toolgate/toolgate/releases",
          "https://docs.python.org/3/library/re.html",
          "https://raw.githubusercontent.com/toolgate/toolgate/main/README.md",
        ]),
        expect: "allow",
      },
    ],
    targets: { "allowed read_file": 3, "shell: three simple commands": 5 },
  });
}

/** A policy of `read_file` allowed plus the given deny rules, loaded and compiled. */
async function patternPolicy(out, name, rules) {
  const dir = freshDir(out, name);
  writeFileSync(join(dir, "toolgate.config.yaml"), "tools: [tools.yaml]\npolicy: policy.yaml\n");
  writeFileSync(join(dir, "tools.yaml"), FILE_TOOL);
  writeFileSync(join(dir, "policy.yaml"), patternPolicyYaml(rules));
  const bundle = await loadPolicy({ cwd: dir });
  return { bundle, mod: await compiledModule(bundle, dir) };
}

/** Allowed paths the `read_file` rows cycle through. */
const READ_PATHS = [
  "src/runtime/match/regex.ts",
  "src/index.ts",
  "README.md",
  "docs/policy-reference.md",
  "test/runtime/policy.test.ts",
  "package.json",
  "src/compile/compile-controller.ts",
  "bench/run.mjs",
];
const READ_CALLS = READ_PATHS.map((path) => ({
  callId: "call_1",
  toolName: "read_file",
  arguments: { path },
}));

/** `**` + `/.env*` and `**` + `/.ssh/**` on `read_file`. */
async function twoGlobs({ ns, row, out }) {
  const rules = [
    { kind: "glob", pattern: "**/.env*", like: ["*.env*"] },
    { kind: "glob", pattern: "**/.ssh/**", like: ["*.ssh/*"] },
  ];
  const { bundle, mod } = await patternPolicy(out, "two-globs", rules);
  await measureCalls({
    ns,
    row,
    section: "two globs",
    bundle,
    mod,
    calls: [{ label: "allowed read_file, deny **/.env* and **/.ssh/**", calls: READ_CALLS, expect: "allow" }],
    targets: { "allowed read_file, deny **/.env* and **/.ssh/**": 3 },
  });
}

/** Ten everyday deny globs on `read_file` (secrets, keys, VCS and dependency folders), none with a literal prefix. */
const EVERYDAY_GLOBS = [
  "**/.env*",
  "**/.ssh/**",
  "**/*.pem",
  "**/*.key",
  "**/id_rsa*",
  "**/.git/**",
  "**/node_modules/**",
  "**/secrets/**",
  "**/*.p12",
  "**/.aws/**",
];

async function everydayGlobs({ ns, row, out }) {
  const rules = EVERYDAY_GLOBS.map((pattern) => ({ kind: "glob", pattern }));
  const { bundle, mod } = await patternPolicy(out, "everyday-globs", rules);
  const label = `allowed read_file, ${rules.length} everyday deny globs`;
  await measureCalls({
    ns,
    row,
    section: "everyday",
    bundle,
    mod,
    calls: [{ label, calls: READ_CALLS, expect: "allow" }],
    targets: { [label]: 3 },
  });
}

/**
 * `peer`'s ns per decision on the synthetic policy of `n` rules, measured in a process of its own
 * (bench/peer-worker.mjs says why) on the same paths the toolgate rows cycle through.
 */
function peerInChild(peer, n, smoke) {
  const worker = fileURLToPath(new URL("./peer-worker.mjs", import.meta.url));
  const flags = peer === "cedar" ? ["--expose-gc", "--no-turbo-inlining"] : ["--expose-gc"];
  const minCpu = smoke ? 5e6 : 300e6;
  const args = [...flags, worker, peer, String(n), String(minCpu), ...READ_PATHS];
  const result = spawnSync(process.execPath, args, { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${peer} worker (${n} rules) failed: ${result.stderr}`);
  return Number(result.stdout.trim());
}

/** N rules without literal prefix or suffix, beside casbin and Cedar on the same rules. */
async function scaling({ ns, row, out, sizes, smoke }) {
  const decideAt = new Map();
  const handleAt = new Map();
  for (const n of sizes) {
    const rules = syntheticPatternRules(n);
    const { bundle, mod } = await patternPolicy(out, `scaling-${n}`, rules);
    const label = `allowed read_file, ${n} deny rules`;
    const t = (
      await measureCalls({
        ns,
        row,
        section: "scaling",
        bundle,
        mod,
        calls: [{ label, calls: READ_CALLS, expect: "allow" }],
      })
    )[label];
    decideAt.set(n, t.decide);
    handleAt.set(n, t.handle);
    const tc = peerInChild("casbin", n, smoke);
    const td = peerInChild("cedar", n, smoke);
    const peer = (name, value) =>
      row(
        "scaling",
        `  ${name} (${n} rules); ratio vs decide`,
        round(value),
        "ns",
        value / t.decide,
        "> 1x decide",
        value > t.decide,
      );
    peer("casbin 5.51 enforceSync, globMatch/regexMatch", tc);
    peer("cedar-wasm 4.13 statefulIsAuthorized, like", td);
  }
  const smallest = Math.min(...sizes);
  const largest = Math.max(...sizes);
  if (largest > smallest) {
    const ratio = decideAt.get(largest) / decideAt.get(smallest);
    row(
      "scaling",
      `decide at ${largest} rules vs at ${smallest} rules`,
      round(decideAt.get(largest)),
      "ns",
      ratio,
      "<= 3x",
      ratio <= 3,
    );
    const growth = handleAt.get(largest) / handleAt.get(smallest);
    row(
      "scaling",
      `compiled handle at ${largest} rules vs at ${smallest} rules`,
      round(handleAt.get(largest)),
      "ns",
      growth,
      "<= 1.5x",
      growth <= 1.5,
    );
  }
}

// The worst lint-clean patterns found (bench/regex-bound.mjs): [pattern, flags, unit the input repeats].
const HARD_REGEXES = [
  ["(a|b){1,1000}c", "", "ab"],
  ["[ab]{1,3000}c", "", "ab"],
  ["a{5000}b", "", "a"],
  ["(?:a?){3000}b", "", "a"],
  ["(?:(?:a|b){1,40}){1,40}c", "", "ab"],
  ["[\\s\\S]{1,4000}z", "", "q"],
  ["(a|b)*a(a|b){12}x", "", "abbab"],
  ["(?:[a-z]{1,20}\\.){1,20}com", "i", "ab."],
  ["(?:a|b){1,1000}c\\b", "", "ab"],
  ["\\w+@\\w+\\.com", "", "a"],
];

/** The slowest of the hard patterns on 1 MiB, fresh compile each run (a cold cache), median of three. */
function worstRegex({ row, smoke }) {
  const size = smoke ? 1 << 14 : 1 << 20;
  let worst = { ms: -1, pattern: "" };
  for (const [pattern, flags, unit] of HARD_REGEXES) {
    const input = unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
    const times = [];
    for (let i = 0; i < 3; i++) {
      const compiled = compileRegex(pattern, flags);
      if (!compiled.ok) throw new Error(`${pattern}: ${compiled.message}`);
      const t = performance.now();
      compiled.regex.testBounded(input);
      compiled.regex.testBounded(input);
      times.push((performance.now() - t) / 2);
    }
    times.sort((a, b) => a - b);
    const ms = (times[1] * (1 << 20)) / size;
    if (ms > worst.ms) worst = { ms, pattern: `/${pattern}/${flags}` };
  }
  row(
    "regex",
    `worst lint-clean regex per MiB (${worst.pattern}, work bound ${REGEX_WORK_BOUND})`,
    round(worst.ms),
    "ms",
    undefined,
    // A smoke run's small input says nothing of the bound, which only a long input reaches.
    smoke ? undefined : "<= 50 ms/MiB",
    smoke ? undefined : worst.ms <= 50,
  );
}

/** Every realistic row, in the order bench/RESULTS.md shows them. */
export async function benchRealistic({ ns, row, root, out, smoke }) {
  await referencePolicy({ ns, row, root, out });
  await twoGlobs({ ns, row, out });
  await everydayGlobs({ ns, row, out });
  await scaling({ ns, row, out, sizes: smoke ? [10] : [10, 100, 1000], smoke });
  worstRegex({ row, smoke });
}
