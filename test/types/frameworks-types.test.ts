/**
 * Runs tsc over test/types/frameworks.ts against the built declarations of the framework adapters: the
 * generated argument types reach each AI SDK tool, and each `@ts-expect-error` case is an error — checked
 * both ways, so that none of them can pass vacuously.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, ROOT } from "../package/built-package.js";

const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");

function tsc(project: string): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [TSC, "-p", project, "--noEmit", "--pretty", "false"], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 120_000,
  });
  return { status: result.status, output: result.stdout + result.stderr };
}

describe("the framework adapters' declarations", () => {
  beforeAll(assertBuilt);

  it("type-check: generated argument types flow into the tools, every @ts-expect-error case is an error", () => {
    const { status, output } = tsc("test/types/frameworks.tsconfig.json");
    expect(output).toBe("");
    expect(status).toBe(0);
  });

  it("without the @ts-expect-error lines, tsc fails once for each of them", () => {
    const source = readFileSync(join(ROOT, "test", "types", "frameworks.ts"), "utf8");
    const lines = source
      .split("\n")
      .map((line) => (line.trim().startsWith("// @ts-expect-error") ? "// (expectation removed)" : line))
      .map((line) =>
        line.replace('from "../../generated/toolgate.js"', 'from "../../../generated/toolgate.js"'),
      );
    expect(lines.filter((line) => line === "// (expectation removed)")).toHaveLength(3);
    const dir = join(ROOT, "test", ".tmp", "frameworks-negative");
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "frameworks.ts"), lines.join("\n"));
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({ extends: "../../types/tsconfig.json", include: ["frameworks.ts"] }),
    );
    const { status, output } = tsc("test/.tmp/frameworks-negative/tsconfig.json");
    expect(status).not.toBe(0);
    const reported = [
      ...new Set(
        output
          .split("\n")
          .filter((line) => /error TS\d+/.test(line))
          .map((e) => Number(/frameworks\.ts\((\d+),/.exec(e)?.[1])),
      ),
    ].sort((a, b) => a - b);
    const expected = lines.flatMap((line, index) => (line === "// (expectation removed)" ? [index + 2] : []));
    expect(reported).toEqual(expected);
  });
});
