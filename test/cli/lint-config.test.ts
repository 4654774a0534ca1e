import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, toolgate, writeTree } from "./cli-helpers.js";

describe("toolgate lint --config", () => {
  beforeAll(assertBuilt);

  it("a directory is not a configuration: exit 2 with a message, no stack trace", () => {
    const dir = writeTree({ "package.json": "{}\n" });
    mkdirSync(join(dir, "conf"));
    const run = toolgate(["lint", "--config", "conf", "--format", "json"], dir);
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout).diagnostics).toEqual([
      {
        code: "config-not-found",
        severity: "error",
        message: "conf is a directory; pass the configuration file itself",
        file: "conf",
        line: 1,
        column: 1,
      },
    ]);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
