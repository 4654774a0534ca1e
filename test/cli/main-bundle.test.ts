/**
 * The command line as the build bundles it (`dist/cli/main.bundle.js`, which bin/toolgate.js starts for `verify`
 * and `diff`) answers as the modules do: the same output and exit status for properties that hold and fail, for a
 * policy change, and for the errors the commands report themselves (a usage error is the bundle's own class, so it
 * is still reported as one, not as an internal error).
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, BIN, ROOT } from "./cli-helpers.js";

const BUNDLE = join(ROOT, "dist/cli/main.bundle.js");
const MODULES = join(ROOT, "dist/cli/main.js");

let work: string;

beforeAll(() => {
  assertBuilt();
  work = mkdtempSync(join(tmpdir(), "toolgate-main-bundle-"));
  for (const side of ["base", "head"]) {
    cpSync(join(ROOT, "toolgate.config.yaml"), join(work, side, "toolgate.config.yaml"));
    cpSync(join(ROOT, "policies"), join(work, side, "policies"), { recursive: true });
  }
  const policy = join(work, "head", "policies", "org", "baseline.yaml");
  writeFileSync(policy, readFileSync(policy, "utf8").replace('"**/.env*"', '"**/.env"'));
  writeFileSync(
    join(work, "properties.yaml"),
    `version: 1
properties:
  - id: env-never-read
    tool: read_file
    where: { path: { glob: "**/.env*" } }
    never: allow
  - id: shell-always-denied
    tool: run_shell
    always: deny
`,
  );
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

/** Runs `main(args)` of one entry in a fresh process in `cwd`: its exit status and outputs. */
function run(entry: string, args: readonly string[], cwd: string) {
  const script = `const { main } = await import(${JSON.stringify(pathToFileURL(entry).href)});
process.exitCode = await main(JSON.parse(process.argv[1]));`;
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", script, JSON.stringify(args)], {
    cwd,
    encoding: "utf8",
  });
  // Timings differ from run to run.
  const stable = (text: string) => text.replace(/\d+ ms/g, "N ms").replace(/"durationMs": \d+/g, "");
  return { status: child.status, stdout: stable(child.stdout), stderr: stable(child.stderr) };
}

describe("the bundled command line", () => {
  it("is written by the build, and bin/toolgate.js starts verify and diff from it", () => {
    expect(existsSync(BUNDLE)).toBe(true);
    expect(readFileSync(BIN, "utf8")).toContain("../dist/cli/main.bundle.js");
  });

  it("verifies as the modules do: properties that hold and fail, in every format", () => {
    for (const format of ["json", "stylish", "sarif"]) {
      const args = ["verify", "--format", format, "--no-color", join(work, "properties.yaml")];
      const bundled = run(BUNDLE, args, join(work, "base"));
      expect(bundled.status).toBe(1);
      expect(bundled).toEqual(run(MODULES, args, join(work, "base")));
    }
    const json = JSON.parse(run(BUNDLE, ["verify", "--format", "json"], ROOT).stdout) as {
      holds: number;
      fails: number;
    };
    expect(json.fails).toBe(0);
    expect(json.holds).toBeGreaterThan(5);
  });

  it("diffs as the modules do, and fails on a loosened policy", () => {
    const args = ["diff", "--base", "base", "--head", "head", "--format", "json", "--fail-on", "loosened"];
    const bundled = run(BUNDLE, args, work);
    expect(bundled.status).toBe(1);
    expect(
      (JSON.parse(bundled.stdout) as { summary: { loosened: number } }).summary.loosened,
    ).toBeGreaterThan(0);
    expect(bundled).toEqual(run(MODULES, args, work));
  });

  it("reports a usage error and a missing file as the modules do", () => {
    for (const args of [
      ["diff", "--head", "head"],
      ["verify", "missing.yaml"],
      ["diff", "--base", "base", "--head", "head", "--fail-on", "sometimes"],
    ]) {
      const bundled = run(BUNDLE, args, work);
      expect(bundled.status, args.join(" ")).toBe(2);
      expect(bundled.stderr).not.toMatch(/internal error|\n\s+at /);
      expect(bundled).toEqual(run(MODULES, args, work));
    }
  });
});
