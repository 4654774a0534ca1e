/**
 * The light install: `import "toolgate"` loads neither database driver (both are optional dependencies),
 * a missing driver is a clear error naming the package to install, and the published declarations compile
 * with `skipLibCheck: false` and no `@types` package at all.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, ROOT } from "./built-package.js";

const temporary: string[] = [];
afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

function node(script: string, cwd = ROOT) {
  return spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd,
    encoding: "utf8",
    timeout: 60_000,
  });
}

describe("the light install", () => {
  beforeAll(assertBuilt);

  it("import 'toolgate' (and every entry point) loads neither better-sqlite3 nor pg; a sqlite store loads its driver", () => {
    const script = `
      import { createRequire } from "node:module";
      const require = createRequire(import.meta.url);
      const drivers = () => Object.keys(require.cache).filter((k) => /node_modules[\\\\/](better-sqlite3|pg)[\\\\/]/.test(k)).map((k) => k.match(/(better-sqlite3|pg)[\\\\/]/)[1]);
      const toolgate = await import("./dist/index.js");
      await import("./dist/runtime/index.js");
      await import("./dist/adapters/index.js");
      await import("./dist/stores/index.js");
      await import("./dist/cli/main.js");
      const before = [...new Set(drivers())];
      const store = toolgate.openApprovalStore("sqlite::memory:");
      const after = [...new Set(drivers())];
      await store.close?.();
      console.log(JSON.stringify({ before, after }));
    `;
    const run = node(script);
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toEqual({ before: [], after: ["better-sqlite3"] });
  });

  it("a missing driver is an error that names the package and the install command", () => {
    // The loader, copied where no node_modules directory is above it: neither driver can be found.
    const dir = mkdtempSync(join(tmpdir(), "toolgate-light-"));
    temporary.push(dir);
    mkdirSync(join(dir, "stores"));
    mkdirSync(join(dir, "runtime"));
    cpSync(join(ROOT, "dist", "stores", "optional-module.js"), join(dir, "stores", "optional-module.js"));
    cpSync(join(ROOT, "dist", "runtime", "errors.js"), join(dir, "runtime", "errors.js"));
    writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
    const run = node(
      `import { loadOptional } from "./stores/optional-module.js";
       try { loadOptional("pg", "postgres:// stores and sinks"); } catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message })); }`,
      dir,
    );
    expect(JSON.parse(run.stdout)).toEqual({
      code: "optional-dependency-missing",
      message:
        'postgres:// stores and sinks need the package "pg", which is not installed (it is an optional dependency of toolgate, left out by --omit=optional); install it with: npm install pg',
    });
  });

  it("the published declarations compile with skipLibCheck: false and no @types package", () => {
    const dir = mkdtempSync(join(tmpdir(), "toolgate-dts-"));
    temporary.push(dir);
    mkdirSync(join(dir, "node_modules"));
    symlinkSync(ROOT, join(dir, "node_modules", "toolgate"), "dir");
    writeFileSync(
      join(dir, "main.ts"),
      `import { createController, lintPolicy, loadPolicy, ToolController, type Diagnostic, type LintReport } from "toolgate";
import { ToolPolicy, type ToolCall } from "toolgate/runtime";
import { toOpenAITools } from "toolgate/adapters";
import { openApprovalStore, openAuditSink, type SqliteOptions, type PostgresOptions } from "toolgate/stores";
export const used = [createController, lintPolicy, loadPolicy, ToolController, ToolPolicy, toOpenAITools, openApprovalStore, openAuditSink];
export type Used = [Diagnostic, LintReport, ToolCall, SqliteOptions, PostgresOptions];
`,
    );
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          skipLibCheck: false,
          noEmit: true,
          types: [],
        },
        files: ["main.ts"],
      }),
    );
    const tsc = spawnSync(
      process.execPath,
      [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", dir],
      {
        encoding: "utf8",
        timeout: 120_000,
      },
    );
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);
  });
});
