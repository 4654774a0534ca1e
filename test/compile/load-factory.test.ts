/**
 * `toolgate compile` loads the policy with the ajv options the module is written with (`compileFactory`) and
 * writes the module from the validators that load compiled: the module is byte for byte what a fresh
 * `compileController` writes, and the load reports exactly what the ordinary load reports, good or bad.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain JS shared with the benchmarks
import { syntheticSchema, writeSyntheticConfig } from "../../bench/synthetic-config.mjs";
import {
  compileController,
  compileControllerWith,
  compileFactory,
} from "../../src/compile/compile-controller.js";
import { createController } from "../../src/composition/create-controller.js";
import { loadPolicyResultSync, loadPolicyResultSyncWith } from "../../src/config/load-policy.js";
import { importCompiled, tempDir, writeCompiled } from "./compiled-module.js";

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

describe("tools whose schemas are equal", () => {
  it("share one validator in the module, and each validates as the loaded controller does", async () => {
    const { dir, remove } = tempDir("equal-schemas");
    try {
      // Tools 1, 5, 9 have the same schema (shape 1), as have 2, 6, 10 and 3, 7, 11; shape 0 has a description per tool.
      const config = writeSyntheticConfig(dir, 12, { sameSchemas: true });
      const loaded = loadPolicyResultSync({ config, cwd: dir });
      if (loaded.bundle === undefined) throw new Error("the synthetic policy did not load");
      const module = await importCompiled(await writeCompiled(loaded.bundle, dir));
      const text = await compileController(loaded.bundle);
      // The synthetic schemas are all in planValidator's subset: the module carries no ajv code for them.
      expect(text.module).not.toContain("function validate");
      expect(text.module).toContain('["tool_0005", "plan"]');
      const calls = [
        { path: "a" },
        { path: "" },
        { query: "ok", limit: 3, mode: "fast" },
        { query: "NOT OK" },
        { items: ["a", "a"] },
        { items: ["a"], dry_run: true },
        { target: { host: "h", port: 0 } },
        { target: { host: "h" }, timeout_seconds: 1 },
        {},
      ];
      const handlers = Object.fromEntries(module.specs.map((spec) => [spec.name, () => "ran"]));
      const compiled = module.createController({ handlers, onAsk: "deny" });
      const fromYaml = createController({
        bundle: loaded.bundle,
        handlers,
        onAsk: "deny",
        validators: loaded.validators,
      });
      let invalid = 0;
      for (let i = 0; i < 12; i++) {
        const name = `tool_${String(i).padStart(4, "0")}`;
        expect(loaded.bundle.tools[i]?.inputSchema).toEqual(syntheticSchema(i, true));
        for (const args of calls) {
          const call = { callId: "c", toolName: name, arguments: args };
          const result = await compiled.handle(call);
          expect(result, `${name} ${JSON.stringify(args)}`).toEqual(await fromYaml.handle(call));
          if (result.content.includes("schema") || result.content.includes("argument")) invalid++;
        }
      }
      expect(invalid).toBeGreaterThan(20);
    } finally {
      remove();
    }
  });
});
