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
        "  5:1  error  the generated file is out of date (no declaration changed, only the text around them (another toolgate version, or an edit by hand); first difference at line 5); run `toolgate codegen` and commit the result  codegen-stale",
        "    5 | // edited by hand",
        "      | ^",
        "",
        "✖ 1 problem (1 error, 0 warnings)",
        "",
      ].join("\n"),
    );
  });

  it("--check passes after a policy-only edit, and names the declarations when a tool changes", () => {
    expect(toolgate(["codegen", "--config", config]).status).toBe(0);
    const policy = join(dir, "policy.yaml");
    const tools = join(dir, "tools.yaml");
    const originalPolicy = readFileSync(policy, "utf8");
    const originalTools = readFileSync(tools, "utf8");
    try {
      // A new rule and a moved set entry change the policy fingerprint but no type.
      writeFileSync(
        policy,
        `${originalPolicy.replace("deny: [Never]", "deny: [Never, legacy07]").replace("allow: [legacy07]", "allow: []")}\n  - id: added-by-edit\n    tools: [toString]\n    decision: deny\n    when:\n      path: { prefix: tmp/ }\n    reason: temporary files are off limits\n`,
      );
      const policyOnly = toolgate(["codegen", "--config", config, "--check"]);
      expect(policyOnly.stdout).toMatch(/is up to date/);
      expect(policyOnly.status).toBe(0);
      // A changed description is a changed interface (its JSDoc) and a changed typesFingerprint.
      writeFileSync(
        tools,
        originalTools.replace(`"description": "Quote`, `"description": "Now different. Quote`),
      );
      const toolEdit = toolgate(["codegen", "--config", config, "--check"]);
      expect(toolEdit.status).toBe(1);
      expect(toolEdit.stdout).toMatch(
        /out of date \(changed typesFingerprint, [A-Za-z0-9]+Args; first difference at line \d+\)/,
      );
    } finally {
      writeFileSync(policy, originalPolicy);
      writeFileSync(tools, originalTools);
    }
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
    expect(module).toMatch(/^import \{[^}]*\bassembleController\b[^}]*\} from "toolgate\/compiled";$/m);
    expect(module.match(/^import /gm)).toHaveLength(2);
    const cjs = toolgate(["compile", "--config", config, "--out", `${rel}/controller.cjs`]);
    expect(cjs.status).toBe(2);
    expect(cjs.stderr).toContain("give a path ending in .mjs or .js");
    rmSync(join(dir, "generated"), { recursive: true, force: true });
  });

  it("compile --check: 0 when both files are current, 1 naming the policy change when the policy changed", () => {
    const missing = toolgate(["compile", "--config", config, "--check"]);
    expect(missing.status).toBe(1);
    expect(missing.stdout).toContain("the generated file does not exist; run `toolgate compile`");
    expect(toolgate(["compile", "--config", config]).status).toBe(0);
    const current = toolgate(["compile", "--config", config, "--check"]);
    expect(current.stdout).toContain("are up to date (4 tools;");
    expect(current.status).toBe(0);
    const policy = join(dir, "policy.yaml");
    const original = readFileSync(policy, "utf8");
    try {
      writeFileSync(
        policy,
        original.replace("ask: [a-b_c]", "ask: [a-b_c, Never]").replace("deny: [Never]", "deny: []"),
      );
      const stale = toolgate(["compile", "--config", config, "--check"]);
      expect(stale.status).toBe(1);
      expect(stale.stdout).toMatch(
        /toolgate\.controller\.mjs\n +\d+:1 +error +the generated file is out of date \(the policy changed: the file was compiled from sha256:[0-9a-f]{64}, the policy is now sha256:[0-9a-f]{64}; first difference at line \d+\); run `toolgate compile`/,
      );
      // The declarations carry the fingerprint as a literal type: they are stale too, for the same reason.
      expect(stale.stdout).toMatch(
        /toolgate\.controller\.d\.mts\n +\d+:1 +error +the generated file is out of date \(the policy changed/,
      );
    } finally {
      writeFileSync(policy, original);
      rmSync(join(dir, "generated"), { recursive: true, force: true });
    }
  });

  it("compile --check after a change of layout only: the policy is the same, its statements moved", () => {
    expect(toolgate(["compile", "--config", config]).status).toBe(0);
    const policy = join(dir, "policy.yaml");
    const original = readFileSync(policy, "utf8");
    try {
      // The same policy, its sets written as block sequences: every statement below moves down.
      writeFileSync(policy, original.replace("allow: [legacy07]", "allow:\n  - legacy07"));
      const moved = toolgate(["compile", "--config", config, "--check"]);
      expect(moved.status).toBe(1);
      expect(moved.stdout).toMatch(
        /toolgate\.controller\.mjs\n +\d+:1 +error +the generated file is out of date \(the policy is the same \(sha256:[0-9a-f]{64}\), but its statements are on other lines of its files, as after a change of layout such as toolgate fmt; the module records where each one is; first difference at line \d+\); run `toolgate compile`/,
      );
      // The declarations hold no source lines: they are current.
      expect(moved.stdout).not.toContain("toolgate.controller.d.mts");
      expect(toolgate(["compile", "--config", config]).status).toBe(0);
      expect(toolgate(["compile", "--config", config, "--check"]).status).toBe(0);
    } finally {
      writeFileSync(policy, original);
      rmSync(join(dir, "generated"), { recursive: true, force: true });
    }
  });
});
