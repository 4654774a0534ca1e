/**
 * Runs tsc over test/types/claude-code/hook-types.ts: toolgate's Claude Code hook types against the types
 * `@anthropic-ai/claude-agent-sdk` publishes (the package, a devDependency), and the argument types generated
 * from the Claude Code pack against the SDK's tool input types. Then removes the `@ts-expect-error` lines and checks that tsc fails once for each.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, ROOT } from "../package/built-package.js";

const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");
const HERE = join(ROOT, "test", "types", "claude-code");

function run(args: readonly string[]): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, args, { cwd: ROOT, encoding: "utf8", timeout: 120_000 });
  return { status: result.status, output: result.stdout + result.stderr };
}

describe("Claude Code hook types", () => {
  beforeAll(() => {
    assertBuilt();
    const out = join(ROOT, "test", ".tmp", "claude-code");
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    const codegen = run([
      join(ROOT, "bin", "toolgate.js"),
      "codegen",
      "--config",
      "policies/packs/claude-code/toolgate.config.yaml",
      "--out",
      join(out, "pack.ts"),
    ]);
    expect(codegen.status, codegen.output).toBe(0);
  });

  it("type-check: the declared types match the SDK's, and every @ts-expect-error case is an error", () => {
    const { status, output } = run([TSC, "-p", join(HERE, "tsconfig.json"), "--pretty", "false"]);
    expect(output).toBe("");
    expect(status).toBe(0);
  });

  it("without the @ts-expect-error lines, tsc fails once for each of them", () => {
    const source = readFileSync(join(HERE, "hook-types.ts"), "utf8");
    const marker = "// @ts-expect-error";
    expect(source.split("\n").filter((line) => line.trim().startsWith(marker))).toHaveLength(4);
    const dir = join(ROOT, "test", ".tmp", "claude-code-negative");
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const stripped = source
      .split("\n")
      .map((line) => (line.trim().startsWith(marker) ? "// (expectation removed)" : line))
      .join("\n");
    writeFileSync(join(dir, "hook-types.ts"), stripped);
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({ extends: "../../types/claude-code/tsconfig.json", include: ["hook-types.ts"] }),
    );
    const { status, output } = run([TSC, "-p", join(dir, "tsconfig.json"), "--pretty", "false"]);
    expect(status).not.toBe(0);
    const lines = stripped.split("\n");
    const expected = lines.flatMap((line, i) => (line === "// (expectation removed)" ? [i + 2] : []));
    const reported = [
      ...new Set(
        output
          .split("\n")
          .filter((line) => /error TS\d+/.test(line))
          .map((line) => Number(/hook-types\.ts\((\d+),/.exec(line)?.[1])),
      ),
    ].sort((a, b) => a - b);
    expect(reported).toEqual(expected);
  });
});
