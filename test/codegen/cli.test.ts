/**
 * `toolgate codegen [--check]` and `toolgate compile` through the built CLI (`node bin/toolgate.js`), as a
 * user runs them: exit codes, stylish diagnostics, default output paths from the config.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../compile/compiled-module.js";
import { assertBuilt, ROOT } from "../package/built-package.js";

function toolgate(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [join(ROOT, "bin", "toolgate.js"), ...args, "--no-color"], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("toolgate codegen and compile (built CLI)", () => {
  let dir: string;
  let rel: string;
  let remove: () => void;
  let config: string;
  beforeAll(() => {
    assertBuilt();
    ({ dir, remove } = tempDir("cli"));
    rel = relative(ROOT, dir).split("\\").join("/");
    // A copy of the hostile fixture, so that its config's default output paths land in the temp dir.
    cpSync(join(ROOT, "test", "fixtures", "compile", "hostile"), dir, { recursive: true });
    config = `${rel}/toolgate.config.yaml`;
  });
  afterAll(() => remove());

  it("writes the file named by codegen.out (relative to the config) and exits 0", () => {
    const { status, stdout, stderr } = toolgate(["codegen", "--config", config]);
    expect(stderr).toBe("");
    expect(status).toBe(0);
    expect(stdout).toMatch(
      new RegExp(`^toolgate: wrote ${rel}/generated/toolgate\\.ts \\(4 tools; sha256:[0-9a-f]{64}\\)\\n$`),
    );
    expect(readFileSync(join(dir, "generated", "toolgate.ts"), "utf8")).toContain(
      "export interface ToStringArgs",
    );
  });

  it("--check exits 0 when the file is identical", () => {
    const { status, stdout } = toolgate(["codegen", "--config", config, "--check"]);
    expect(status).toBe(0);
    expect(stdout).toMatch(/is up to date \(4 tools; sha256:[0-9a-f]{64}\)\n$/);
  });

  it("--check exits 1 with codegen-stale at the first differing line when the file differs", () => {
    const file = join(dir, "generated", "toolgate.ts");
    const lines = readFileSync(file, "utf8").split("\n");
    lines[4] = "// edited by hand";
    writeFileSync(file, lines.join("\n"));
    const { status, stdout } = toolgate(["codegen", "--config", config, "--check"]);
    expect(status).toBe(1);
    expect(stdout).toBe(
      [
        "",
        `${rel}/generated/toolgate.ts`,
        "  5:1  error  the generated file is out of date with the policy (first difference at line 5); run `toolgate codegen` and commit the result  codegen-stale",
        "",
        "✖ 1 problem (1 error, 0 warnings)",
        "",
      ].join("\n"),
    );
  });

  it("--check exits 1 when the file is missing; --out overrides the config", () => {
    const out = `${rel}/elsewhere/types.ts`;
    const missing = toolgate(["codegen", "--config", config, "--out", out, "--check"]);
    expect(missing.status).toBe(1);
    expect(missing.stdout).toContain("1:1  error  the generated file does not exist; run `toolgate codegen`");
    expect(missing.stdout).toContain("codegen-stale");
    expect(toolgate(["codegen", "--config", config, "--out", out]).status).toBe(0);
    expect(toolgate(["codegen", "--config", config, "--out", out, "--check"]).status).toBe(0);
  });

  it("a config with errors prints its diagnostics and exits 1; no config found exits 2", () => {
    const broken = join(dir, "broken.config.yaml");
    writeFileSync(broken, "tools: [missing-tools.yaml]\npolicy: policy.yaml\ncodegen: { out: x.ts }\n");
    const bad = toolgate(["codegen", "--config", `${rel}/broken.config.yaml`]);
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain("file-not-found");
    expect(existsSync(join(dir, "x.ts"))).toBe(false);
    const none = toolgate(["codegen", "--config", `${rel}/no-such.config.yaml`]);
    expect(none.status).toBe(2);
    expect(toolgate(["compile", "--config", `${rel}/no-such.config.yaml`]).status).toBe(2);
    expect(toolgate(["compile", "--config", `${rel}/broken.config.yaml`]).status).toBe(1);
  });

  it("without --out and without codegen.out / compile.out it is a usage error (exit 2)", () => {
    const bare = join(dir, "bare.config.yaml");
    const original = readFileSync(join(dir, "toolgate.config.yaml"), "utf8");
    writeFileSync(bare, original.replace(/^(codegen|compile):.*$/gm, ""));
    const codegen = toolgate(["codegen", "--config", `${rel}/bare.config.yaml`]);
    expect(codegen.status).toBe(2);
    expect(codegen.stderr).toContain("no output file: pass --out PATH or set codegen: { out: PATH }");
    expect(toolgate(["compile", "--config", `${rel}/bare.config.yaml`]).status).toBe(2);
  });

  it("compile writes the module and its declarations next to it (compile.out), and refuses a non-ESM path", () => {
    const { status, stdout } = toolgate(["compile", "--config", config]);
    expect(status).toBe(0);
    expect(stdout).toContain(
      `wrote ${rel}/generated/toolgate.controller.mjs and ${rel}/generated/toolgate.controller.d.mts (4 tools;`,
    );
    const module = readFileSync(join(dir, "generated", "toolgate.controller.mjs"), "utf8");
    expect(module).not.toContain("require(");
    expect(module).toMatch(/^import \{[^}]*\} from "toolgate\/runtime";$/m);
    expect(module.match(/^import /gm)).toHaveLength(1);
    const cjs = toolgate(["compile", "--config", config, "--out", `${rel}/controller.cjs`]);
    expect(cjs.status).toBe(2);
    expect(cjs.stderr).toContain("give a path ending in .mjs or .js");
    rmSync(join(dir, "generated"), { recursive: true, force: true });
  });
});
