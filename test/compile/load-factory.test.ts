/**
 * `toolgate compile` loads the policy with the ajv options the module is written with (`compileFactory`) and
 * writes the module from the validators that load compiled: the module is byte for byte what a fresh
 * `compileController` writes, and the load reports exactly what the ordinary load reports, good or bad.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  compileController,
  compileControllerWith,
  compileFactory,
} from "../../src/compile/compile-controller.js";
import { loadPolicyResultSync, loadPolicyResultSyncWith } from "../../src/config/load-policy.js";

const ROOT = join(import.meta.dirname, "..", "..");

describe("compile's load with the module's ajv options", () => {
  it.each([
    "toolgate.config.yaml",
    "examples/coding-agent/toolgate.config.yaml",
    "test/fixtures/compile/formats/toolgate.config.yaml",
    "test/fixtures/compile/hostile/toolgate.config.yaml",
    "test/fixtures/compile/aliases/toolgate.config.yaml",
    "test/fixtures/config/unbounded-string/toolgate.config.yaml",
    "test/fixtures/mcp-filesystem/toolgate.config.yaml",
    "test/fixtures/config/invalid-input-schema-context/toolgate.config.yaml",
    "test/fixtures/config/context-unknown-field/toolgate.config.yaml",
  ])("%s: the same diagnostics, and the same module", async (config) => {
    const options = { config: join(ROOT, config), cwd: ROOT };
    const plain = loadPolicyResultSync(options);
    const factory = compileFactory();
    const loaded = loadPolicyResultSyncWith(options, factory);
    expect(loaded.diagnostics).toEqual(plain.diagnostics);
    expect(loaded.bundle === undefined).toBe(plain.bundle === undefined);
    if (plain.bundle === undefined || loaded.bundle === undefined) return;
    const fresh = await compileController(plain.bundle);
    const reused = await compileControllerWith(loaded.bundle, { ajvFor: (draft) => factory.ajvFor(draft) });
    expect(reused.module).toBe(fresh.module);
    expect(reused.declarations).toBe(fresh.declarations);
  });
});
