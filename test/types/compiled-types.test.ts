/**
 * Runs tsc over test/types/handlers.ts against the declarations `toolgate compile` emits for the reference
 * policy: the right handlers compile, and each `@ts-expect-error` case (wrong argument type, unknown
 * argument, missing handler, handler for an unknown tool) is an error — checked both ways.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadPolicy } from "toolgate";
import { beforeAll, describe, expect, it } from "vitest";
import { writeCompiled } from "../compile/compiled-module.js";
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

describe("the compiled controller's declarations", () => {
  beforeAll(async () => {
    assertBuilt();
    const dir = join(ROOT, "test", ".tmp", "types");
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    await writeCompiled(await loadPolicy(), dir, "toolgate.controller.mjs");
  });

  it("type-check the handlers file: right handlers compile, every @ts-expect-error case is an error", () => {
    const { status, output } = tsc("test/types/tsconfig.json");
    expect(output).toBe("");
    expect(status).toBe(0);
  });

  it("without the @ts-expect-error lines, tsc fails once for each of them", () => {
    const source = readFileSync(join(ROOT, "test", "types", "handlers.ts"), "utf8");
    const directives = source.split("\n").filter((line) => line.trim().startsWith("// @ts-expect-error"));
    expect(directives).toHaveLength(4);
    const dir = join(ROOT, "test", ".tmp", "types-negative");
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const stripped = source
      .split("\n")
      .map((line) => (line.trim().startsWith("// @ts-expect-error") ? "// (expectation removed)" : line))
      .join("\n")
      .replace('from "../.tmp/types/toolgate.controller.mjs"', 'from "../types/toolgate.controller.mjs"');
    writeFileSync(join(dir, "handlers.ts"), stripped);
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({ extends: "../../types/tsconfig.json", include: ["handlers.ts"] }),
    );
    const { status, output } = tsc("test/.tmp/types-negative/tsconfig.json");
    expect(status).not.toBe(0);
    const errors = output.split("\n").filter((line) => /error TS\d+/.test(line));
    // One error per removed expectation, each on the line right after where the directive was.
    const lines = stripped.split("\n");
    const expectedLines = lines.flatMap((line, index) =>
      line === "// (expectation removed)" ? [index + 2] : [],
    );
    const reported = [...new Set(errors.map((e) => Number(/handlers\.ts\((\d+),/.exec(e)?.[1])))].sort(
      (a, b) => a - b,
    );
    expect(reported).toEqual(expectedLines);
  });
});
