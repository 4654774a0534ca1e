// The frameworks are optional peer dependencies: an adapter whose framework is missing fails on import with
// an error that names the package to install, and the package's other entry points never load a framework.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pkg from "../../package.json" with { type: "json" };
import { assertBuilt, ROOT } from "../package/built-package.js";

const temporary: string[] = [];
afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

function node(script: string, cwd: string) {
  return spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd,
    encoding: "utf8",
    timeout: 60_000,
  });
}

describe("frameworks as optional peer dependencies", () => {
  beforeAll(assertBuilt);

  it("every framework is an optional peer dependency and never a runtime dependency", () => {
    for (const name of [
      "ai",
      "@anthropic-ai/claude-agent-sdk",
      "@langchain/core",
      "@langchain/langgraph",
      "langchain",
    ]) {
      expect(Object.keys(pkg.dependencies)).not.toContain(name);
      expect(Object.keys(pkg.optionalDependencies)).not.toContain(name);
      expect(pkg.peerDependenciesMeta[name as keyof typeof pkg.peerDependenciesMeta]).toEqual({
        optional: true,
      });
    }
  });

  it.each([
    ["ai-sdk", "ai", "npm install ai@6"],
    ["langchain", "@langchain/core", "npm install @langchain/core @langchain/langgraph"],
    ["claude-agent-sdk", "@anthropic-ai/claude-agent-sdk", "npm install @anthropic-ai/claude-agent-sdk"],
  ])("toolgate/%s without its framework names the package to install", (entry, missing, install) => {
    // The built package copied where no node_modules directory is above it: no framework can be found.
    const dir = mkdtempSync(join(tmpdir(), "toolgate-peer-"));
    temporary.push(dir);
    cpSync(join(ROOT, "dist"), join(dir, "dist"), { recursive: true });
    writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
    mkdirSync(join(dir, "node_modules"));
    const run = node(
      `try { await import("./dist/frameworks/${entry}.js"); console.log("loaded"); }
       catch (error) { console.log(JSON.stringify({ code: error.code, message: error.message })); }`,
      dir,
    );
    const out = JSON.parse(run.stdout) as { code: string; message: string };
    expect(out.code).toBe("optional-dependency-missing");
    expect(out.message).toContain(`"${missing}"`);
    expect(out.message).toContain(install);
  });
});
