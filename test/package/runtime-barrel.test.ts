/**
 * The built `toolgate/runtime` entry stays clean: its import graph reaches neither the YAML parser, the ajv
 * compiler, the file system, the config loader, nor codegen / compile / CLI code (DESIGN.md section 1).
 */
import { readFileSync } from "node:fs";
import { dirname, relative, resolve, sep } from "node:path";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, COMPILED_ENTRY, ROOT, RUNTIME_ENTRY, runNode } from "./built-package.js";

interface ImportGraph {
  /** Files reached, relative to the repository root with `/` separators. */
  readonly files: readonly string[];
  /** Bare specifiers (packages and `node:` builtins) imported, with the file that imports each. */
  readonly packages: ReadonlyMap<string, string>;
  /** Relative imports that point at no file. */
  readonly missing: readonly string[];
}

/** Every specifier a module imports statically, re-exports, or imports dynamically with a string literal. */
function specifiersOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  return info.importedFiles.map((f) => f.fileName);
}

function walk(entry: string): ImportGraph {
  const seen = new Set<string>();
  const packages = new Map<string, string>();
  const missing: string[] = [];
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    let specifiers: string[];
    try {
      specifiers = specifiersOf(file);
    } catch {
      missing.push(relative(ROOT, file));
      continue;
    }
    for (const specifier of specifiers) {
      if (specifier.startsWith(".")) queue.push(resolve(dirname(file), specifier));
      else if (!packages.has(specifier)) packages.set(specifier, relative(ROOT, file));
    }
  }
  const files = [...seen].filter((f) => !missing.includes(relative(ROOT, f)));
  return { files: files.map((f) => relative(ROOT, f).split(sep).join("/")).sort(), packages, missing };
}

/** True for a specifier the runtime must never import. */
function isForbidden(specifier: string): boolean {
  const name = specifier.replace(/^node:/, "");
  if (name === "fs" || name.startsWith("fs/")) return true;
  if (["yaml", "cosmiconfig", "commander"].includes(name) || name.startsWith("yaml/")) return true;
  // ajv's small runtime helpers (what standalone code imports) are fine; the compiler is not.
  if (name === "ajv" || name.startsWith("ajv/")) return !name.startsWith("ajv/dist/runtime/");
  return false;
}

describe("the built toolgate/runtime entry", () => {
  let graph: ImportGraph;
  beforeAll(() => {
    assertBuilt();
    graph = walk(RUNTIME_ENTRY);
  });

  it("resolves every relative import to a built file", () => {
    expect(graph.missing).toEqual([]);
    expect(graph.files).toContain("dist/runtime/index.js");
    expect(graph.files).toContain("dist/runtime/controller.js");
  });

  it("reaches no YAML parser, ajv compiler, file system, cosmiconfig or commander", () => {
    const forbidden = [...graph.packages].filter(([specifier]) => isForbidden(specifier));
    expect(forbidden.map(([specifier, from]) => `${from} imports ${specifier}`)).toEqual([]);
  });

  it("reaches nothing under dist/config, dist/cli, dist/codegen or dist/compile", () => {
    const outside = graph.files.filter((f) => /^dist\/(config|cli|codegen|compile)\//.test(f));
    expect(outside).toEqual([]);
    // The runtime's graph stays inside dist/runtime (plus nothing else of the package).
    expect(graph.files.filter((f) => !f.startsWith("dist/runtime/"))).toEqual([]);
  });

  it("the walker sees static, re-export and dynamic imports", () => {
    const source = [
      'import { a } from "./a.js";',
      'export { b } from "./b.js";',
      'export * from "yaml";',
      'const c = await import("node:fs");',
      "// a comment that mentions from 'commander' is not an import",
    ].join("\n");
    expect(ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName)).toEqual([
      "./a.js",
      "./b.js",
      "yaml",
      "node:fs",
    ]);
    expect(
      ["yaml", "ajv", "ajv/dist/2020.js", "node:fs", "fs/promises", "cosmiconfig", "commander"].every(
        isForbidden,
      ),
    ).toBe(true);
    expect(["ajv/dist/runtime/equal.js", "node:crypto"].some(isForbidden)).toBe(false);
  });
});

describe("the built toolgate/compiled entry (what compiled modules import besides the core)", () => {
  it("reaches nothing outside dist/runtime, and no YAML parser, ajv compiler or file system", () => {
    assertBuilt();
    const graph = walk(COMPILED_ENTRY);
    expect(graph.missing).toEqual([]);
    expect(graph.files).toContain("dist/runtime/assemble.js");
    expect(graph.files.filter((f) => !f.startsWith("dist/runtime/"))).toEqual([]);
    const forbidden = [...graph.packages].filter(([specifier]) => isForbidden(specifier));
    expect(forbidden.map(([specifier, from]) => `${from} imports ${specifier}`)).toEqual([]);
  });
});

describe("Node's package resolution of the built package", () => {
  beforeAll(() => {
    assertBuilt();
  });

  it('import("toolgate") and import("toolgate/runtime") give the core classes', () => {
    const script = `
      import { ToolController, ToolPolicy, ToolRegistry, ToolRuntime, PendingApprovals, ToolFailure, defineTool } from "toolgate";
      const runtime = await import("toolgate/runtime");
      const names = { ToolController, ToolPolicy, ToolRegistry, ToolRuntime, PendingApprovals, ToolFailure };
      const report = {};
      for (const [name, value] of Object.entries(names)) {
        report[name] = { type: typeof value, name: value.name, same: runtime[name] === value };
      }
      const calculator = defineTool(
        { name: "calculator", description: "Add.", inputSchema: { type: "object", properties: { a: { type: "integer" }, b: { type: "integer" } }, required: ["a", "b"], additionalProperties: false } },
        ({ a, b }) => String(a + b),
      );
      const controller = new ToolController({
        runtime: new ToolRuntime(new ToolRegistry([calculator])),
        policy: new ToolPolicy({ allowedTools: ["calculator"] }),
      });
      report.result = await controller.handle({ callId: "c1", toolName: "calculator", arguments: { a: 40, b: 2 } });
      report.runtimeHasDefineTool = "defineTool" in runtime;
      const compiled = await import("toolgate/compiled");
      const plumbing = ["assembleController", "fromAjvValidator", "verifyCompiledPolicy", "ajvEqual", "refuseHandler"];
      report.plumbing = plumbing.map((name) => [name, name in runtime, typeof compiled[name]]);
      console.log(JSON.stringify(report));
    `;
    const { status, stdout, stderr } = runNode(["--input-type=module", "-e", script]);
    expect(stderr).toBe("");
    expect(status).toBe(0);
    const report = JSON.parse(stdout) as Record<string, unknown>;
    for (const name of [
      "ToolController",
      "ToolPolicy",
      "ToolRegistry",
      "ToolRuntime",
      "PendingApprovals",
      "ToolFailure",
    ]) {
      expect(report[name]).toEqual({ type: "function", name, same: true });
    }
    expect(report.result).toEqual({ callId: "c1", content: "42", isError: false });
    // defineTool needs the ajv compiler, so it lives in `toolgate`, not in `toolgate/runtime`.
    expect(report.runtimeHasDefineTool).toBe(false);
    // The compiled module's plumbing is its own entry; toolgate/runtime is the core alone.
    expect(report.plumbing).toEqual([
      ["assembleController", false, "function"],
      ["fromAjvValidator", false, "function"],
      ["verifyCompiledPolicy", false, "function"],
      ["ajvEqual", false, "function"],
      ["refuseHandler", false, "function"],
    ]);
  });
});
