/**
 * Installing on the oldest Node the package supports (its `engines.node`) prints no EBADENGINE warning: no
 * package in the lockfile — dependency, optional dependency or development dependency — asks for a newer Node.
 * (openai 7, which @openai/agents asks for, wants Node 22; the override pins the 6.x line, which works with it.)
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./built-package.js";

const semver = createRequire(import.meta.url)("semver") as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
};

describe("engines", () => {
  it("every locked package accepts the oldest Node that toolgate's engines.node accepts", () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      engines: { node: string };
    };
    const oldest = semver.minVersion(manifest.engines.node)?.version as string;
    expect(oldest).toBe("20.0.0");
    const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
      packages: Record<string, { engines?: { node?: string } | string[] }>;
    };
    const refusing = Object.entries(lock.packages).flatMap(([path, entry]) => {
      const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      // Judged on the newest Node 20 a user has (20.x): the line the package supports.
      return range !== undefined && !semver.satisfies("20.19.0", range) ? [`${path} (node ${range})`] : [];
    });
    expect(refusing).toEqual([]);
  });
});
