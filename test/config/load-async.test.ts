/**
 * The loader is one set of steps run by two drivers: `loadPolicyResult` (fs/promises, gives the event loop
 * back between slices of work) and `loadPolicyResultSync` (the command line). Both must find exactly the
 * same things, and the asynchronous one must let the application run while it loads.
 */
import { existsSync, mkdtempSync, readdirSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type LoadResult, loadPolicyResult, loadPolicyResultSync } from "toolgate";
import { describe, expect, it } from "vitest";
import { writeSyntheticConfig } from "../../bench/synthetic-config.mjs";
import { ROOT, writeTree } from "../cli/cli-helpers.js";

const FIXTURES = join(ROOT, "test/fixtures/config");

function comparable(result: LoadResult) {
  return {
    fingerprint: result.bundle?.fingerprint ?? null,
    bundle: result.bundle ?? null,
    diagnostics: result.diagnostics,
    configFound: result.configFound,
    validators: [...result.validators.keys()],
    files: [...result.files],
  };
}

describe("the asynchronous and the synchronous loader agree", () => {
  // Cases generated from generate.json are covered by the corpus test through lintPolicy (asynchronous).
  const cases = readdirSync(FIXTURES).filter((name) => !existsSync(join(FIXTURES, name, "generate.json")));

  it("on every case of the config corpus: same bundle, diagnostics and files read", async () => {
    expect(cases.length).toBeGreaterThan(20);
    for (const name of cases) {
      const cwd = join(FIXTURES, name);
      const loaded = await loadPolicyResult({ cwd });
      expect(comparable(loaded), name).toEqual(comparable(loadPolicyResultSync({ cwd })));
    }
  });

  it("records every file it read with what it found there, also when the load fails", async () => {
    const dir = writeTree({
      "toolgate.config.yaml": "tools: [tools.yaml]\npolicy: policies/main.yaml\n",
      "tools.yaml": "tools: []\n",
      "policies/main.yaml": "version: 1\nextends: [gone.yaml, ../shared/base.yaml]\n",
      "shared/base.yaml": "version: 1\n",
    });
    const result = await loadPolicyResult({ cwd: dir });
    expect(result.bundle).toBeUndefined();
    expect([...result.files].map(([path, token]) => [path.slice(dir.length), token.slice(0, 7)])).toEqual([
      ["/toolgate.config.yaml", "sha256:"],
      ["/tools.yaml", "sha256:"],
      ["/policies/main.yaml", "sha256:"],
      ["/policies/gone.yaml", "missing"],
      ["/shared/base.yaml", "sha256:"],
    ]);
  });

  it("reads through a symlinked file as through the file itself", async () => {
    const dir = writeTree({
      "toolgate.config.yaml": "tools: [tools.yaml]\npolicy: policy.yaml\n",
      "tools.yaml": "tools: []\n",
      "real.yaml": "version: 1\n",
    });
    symlinkSync(join(dir, "real.yaml"), join(dir, "policy.yaml"));
    const loaded = await loadPolicyResult({ cwd: dir });
    expect(loaded.diagnostics).toEqual([]);
    expect(comparable(loaded)).toEqual(comparable(loadPolicyResultSync({ cwd: dir })));
  });
});

describe("loading a large policy leaves the event loop free", () => {
  it("timers of the application run while 300 tools load, and the bundle is the synchronous one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolgate-async-"));
    const config = writeSyntheticConfig(dir, 300);
    let ticks = 0;
    let loading = true;
    const tick = () => {
      if (!loading) return;
      ticks++;
      setTimeout(tick, 0);
    };
    setTimeout(tick, 0);
    const loaded = await loadPolicyResult({ config });
    loading = false;
    // Compiling 300 schemas takes far longer than one 10 ms slice: the loop ran between slices.
    expect(ticks).toBeGreaterThan(2);
    expect(loaded.bundle?.tools.length).toBe(300);
    expect(loaded.bundle?.fingerprint).toBe(loadPolicyResultSync({ config }).bundle?.fingerprint);
  });

  it("loads that overlap (a watcher and the application) each get the complete result", async () => {
    const dir = writeTree({
      "a/toolgate.config.yaml": "tools: [tools.yaml]\npolicy: policy.yaml\n",
      "a/tools.yaml":
        "tools:\n  - name: t\n    description: T.\n    input_schema: { $id: 'https://example.com/t.json', type: object }\n",
      "a/policy.yaml": "version: 1\nallow: [t]\n",
    });
    const [first, second] = await Promise.all([
      loadPolicyResult({ cwd: join(dir, "a") }),
      loadPolicyResult({ cwd: join(dir, "a") }),
    ]);
    expect(first.diagnostics).toEqual([]);
    expect(second.diagnostics).toEqual([]);
    expect(first.bundle?.fingerprint).toBe(second.bundle?.fingerprint);
  });
});
