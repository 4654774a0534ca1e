/**
 * `loadPolicy` and `createController` as a user meets them: the reference configuration, the frozen bundle
 * and its fingerprint, discovery (`--config`, `package.json#toolgate`, the project root), `extends` layers
 * (strictest wins, overlap per file, sources with their layer), and handler checks.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  ControllerSetupError,
  createController,
  lintPolicy,
  loadPolicy,
  type PolicyBundle,
  PolicyConfigError,
  type ToolResult,
} from "toolgate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

const TOOLS = `tools:
  - name: read_file
    description: Read a file.
    input_schema:
      type: object
      properties:
        path: { type: string }
      required: [path]
      additionalProperties: false
  - name: write_file
    description: Write a file.
    input_schema:
      type: object
      properties:
        path: { type: string }
        content: { type: string }
      required: [path, content]
      additionalProperties: false
`;

let scratch: string;
let count = 0;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "toolgate-load-"));
});
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

/** Writes a project (with a package.json that marks its root, unless one is given) and returns its path. */
function project(files: Readonly<Record<string, string>>): string {
  const dir = join(scratch, `p${++count}`);
  const all = { "package.json": '{ "name": "fixture", "private": true }\n', ...files };
  for (const [file, text] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

function everyValue(value: unknown, visit: (v: object) => void): void {
  if (value === null || typeof value !== "object") return;
  visit(value);
  for (const key of Object.keys(value)) everyValue((value as Record<string, unknown>)[key], visit);
}

describe("the reference configuration", () => {
  let bundle: PolicyBundle;
  beforeAll(async () => {
    bundle = await loadPolicy({ cwd: ROOT });
  });

  it("loads, with its tools, statements and tests", async () => {
    expect(bundle.kind).toBe("policy-bundle");
    expect(bundle.configFile).toBe("toolgate.config.yaml");
    expect(bundle.configDir).toBe(".");
    expect(bundle.tools.map((t) => t.name)).toContain("read_file");
    expect(bundle.statements.length).toBeGreaterThan(0);
    expect(bundle.tests.length).toBeGreaterThan(0);
    const report = await lintPolicy({ cwd: ROOT });
    expect(report.diagnostics).toEqual([]);
    expect(report.fingerprint).toBe(bundle.fingerprint);
  });

  it("has a fingerprint of the form sha256:<64 hex>", () => {
    expect(bundle.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("is deep-frozen: every object in it is frozen, and mutating throws (modules are strict)", () => {
    everyValue(bundle, (v) => {
      expect(Object.isFrozen(v)).toBe(true);
    });
    const tool = bundle.tools[0] as unknown as {
      name: string;
      inputSchema: { properties: Record<string, unknown> };
    };
    expect(() => {
      (bundle as { fingerprint: string }).fingerprint = "sha256:0";
    }).toThrow(TypeError);
    expect(() => {
      tool.name = "other";
    }).toThrow(TypeError);
    expect(() => {
      tool.inputSchema.properties.injected = { type: "string" };
    }).toThrow(TypeError);
    expect(() => {
      (bundle.statements as unknown[]).push({});
    }).toThrow(TypeError);
    expect(() => {
      delete (bundle.statements[0] as { reason?: string }).reason;
    }).toThrow(TypeError);
    expect(bundle.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});

describe("discovery", () => {
  it("--config overrides discovery, and paths are relative to that config file", async () => {
    const dir = project({
      "toolgate.config.yaml": "tools: [tools.yaml]\npolicy: policy.yaml\n",
      "tools.yaml": TOOLS,
      "policy.yaml": "version: 1\nallow: [read_file, write_file]\n",
      "strict/toolgate.yaml": "tools: [../tools.yaml]\npolicy: policy.yaml\n",
      "strict/policy.yaml": "version: 1\ndeny: [read_file, write_file]\n",
    });
    const discovered = await loadPolicy({ cwd: dir });
    const chosen = await loadPolicy({ cwd: dir, config: "strict/toolgate.yaml" });
    expect(discovered.configFile).toBe("toolgate.config.yaml");
    expect(chosen.configFile).toBe("strict/toolgate.yaml");
    expect(chosen.configDir).toBe("strict");
    expect(chosen.statements.map((s) => s.id)).toEqual(["deny:read_file", "deny:write_file"]);
    expect(chosen.fingerprint).not.toBe(discovered.fingerprint);
  });

  it("--config naming a missing file is config-not-found, not a search elsewhere", async () => {
    const dir = project({
      "toolgate.config.yaml": "tools: [tools.yaml]\npolicy: policy.yaml\n",
      "tools.yaml": TOOLS,
      "policy.yaml": "version: 1\nallow: [read_file, write_file]\n",
    });
    const report = await lintPolicy({ cwd: dir, config: "missing.yaml" });
    expect(report.configFound).toBe(false);
    expect(report.diagnostics.map((d) => [d.code, d.file])).toEqual([["config-not-found", "missing.yaml"]]);
    await expect(loadPolicy({ cwd: dir, config: "missing.yaml" })).rejects.toBeInstanceOf(PolicyConfigError);
  });

  it("finds package.json#toolgate", async () => {
    const dir = project({
      "package.json": `${JSON.stringify({ name: "app", private: true, toolgate: { tools: ["tools.yaml"], policy: "policy.yaml" } }, null, 2)}\n`,
      "tools.yaml": TOOLS,
      "policy.yaml": "version: 1\nallow: [read_file]\nask: [write_file]\n",
    });
    const bundle = await loadPolicy({ cwd: dir });
    expect(bundle.configFile).toBe("package.json");
    expect(bundle.statements.map((s) => s.id)).toEqual(["allow:read_file", "ask:write_file"]);
  });

  it("points into package.json when its toolgate key is wrong", async () => {
    const dir = project({
      "package.json":
        '{\n  "name": "app",\n  "toolgate": {\n    "tools": ["tools.yaml"],\n    "policy": 3\n  }\n}\n',
      "tools.yaml": TOOLS,
    });
    const report = await lintPolicy({ cwd: dir });
    expect(report.diagnostics.map((d) => [d.code, d.file, d.line, d.column])).toEqual([
      ["config-schema", "package.json", 5, 15],
    ]);
  });

  it("searches from a subdirectory up to the project root, and reports paths relative to the cwd", async () => {
    const dir = project({
      "toolgate.config.yaml": "tools: [tools.yaml]\npolicy: policy.yaml\n",
      "tools.yaml": TOOLS,
      "policy.yaml": "version: 1\nallow: [read_fil]\nask: [write_file]\n",
      "src/deeper/.keep": "",
    });
    const report = await lintPolicy({ cwd: join(dir, "src", "deeper") });
    expect(report.diagnostics.map((d) => [d.code, d.file])).toEqual([
      ["unknown-tool", "../../policy.yaml"],
      ["unlisted-tool", "../../tools.yaml"],
    ]);
  });

  it("stops at the project root: a package without config does not use a config above it", async () => {
    const dir = project({
      "toolgate.config.yaml": "tools: [tools.yaml]\npolicy: policy.yaml\n",
      "tools.yaml": TOOLS,
      "policy.yaml": "version: 1\nallow: [read_file, write_file]\n",
      "packages/inner/package.json": '{ "name": "inner" }\n',
    });
    const report = await lintPolicy({ cwd: join(dir, "packages", "inner") });
    expect(report.configFound).toBe(false);
    expect(report.diagnostics.map((d) => d.code)).toEqual(["config-not-found"]);
  });
});

describe("extends layers", () => {
  const layered = (policy: string, baseline: string) =>
    project({
      "toolgate.config.yaml": "tools: [tools.yaml]\npolicy: policy.yaml\n",
      "tools.yaml": TOOLS,
      "policy.yaml": policy,
      "org/baseline.yaml": baseline,
    });
  const call = (toolName: string, args: unknown) => ({ callId: "c1", toolName, arguments: args });

  it("a project layer can never loosen a baseline: baseline deny + project allow of the same tool → deny", async () => {
    const dir = layered(
      "version: 1\nextends: [org/baseline.yaml]\nallow: [read_file, write_file]\n",
      "version: 1\ndeny: [write_file]\nreasons:\n  write_file: the organisation never lets agents write\n",
    );
    const report = await lintPolicy({ cwd: dir });
    expect(report.diagnostics).toEqual([]); // overlap is per file: across layers it is expected
    const bundle = await loadPolicy({ cwd: dir });
    let ran = 0;
    const controller = createController({
      bundle,
      handlers: {
        read_file: () => {
          ran++;
          return "contents";
        },
      },
    });
    const denied = (await controller.handle(call("write_file", { path: "a", content: "x" }))) as ToolResult;
    expect(denied).toMatchObject({ callId: "c1", isError: true });
    expect(denied.content).toContain("the organisation never lets agents write");
    const explained = controller.explain(call("write_file", { path: "a", content: "x" }));
    expect("decision" in explained && explained.decision.action).toBe("deny");
    expect(await controller.handle(call("read_file", { path: "a" }))).toMatchObject({ isError: false });
    expect(ran).toBe(1);
    expect(controller.visibleSpecs().map((s) => s.name)).toEqual(["read_file"]);
  });

  it("a baseline deny rule still decides the calls it matches under a project allow", async () => {
    const dir = layered(
      "version: 1\nextends: [org/baseline.yaml]\nallow: [read_file, write_file]\n",
      'version: 1\nrules:\n  - id: no-dotenv\n    tools: [read_file]\n    decision: deny\n    when: { path: { glob: "**/.env*" } }\n    reason: secrets\n',
    );
    const controller = createController({
      bundle: await loadPolicy({ cwd: dir }),
      handlers: { read_file: () => "ok", write_file: () => "ok" },
    });
    const decide = (path: string) => {
      const explained = controller.explain(call("read_file", { path }));
      return "decision" in explained ? [explained.decision.action, explained.decision.ruleIds] : explained;
    };
    expect(decide("config/.env")).toEqual(["deny", ["no-dotenv"]]);
    expect(decide("src/index.ts")).toEqual(["allow", ["allow:read_file"]]);
  });

  it("overlap is per file: the same tool in two sets of one file is an error", async () => {
    const dir = layered(
      "version: 1\nallow: [read_file]\ndeny: [read_file]\nask: [write_file]\n",
      "version: 1\n",
    );
    const report = await lintPolicy({ cwd: dir });
    expect(report.diagnostics.map((d) => [d.code, d.file, d.line])).toEqual([["overlap", "policy.yaml", 3]]);
    expect(report.diagnostics[0]?.message).toContain("line 2");
    expect(report.diagnostics[0]?.message).toContain("line 3");
  });

  it("statement sources carry file, line, column and layer", async () => {
    const dir = layered(
      "version: 1\nextends: [org/baseline.yaml]\nallow: [read_file]\nask: [write_file]\n",
      "version: 1\n\ndeny: [write_file]\n",
    );
    const bundle = await loadPolicy({ cwd: dir });
    const byId = new Map(bundle.statements.map((s) => [s.id, s.source]));
    expect(byId.get("allow:read_file")).toEqual({ file: "policy.yaml", line: 3, column: 9, layer: 0 });
    expect(byId.get("ask:write_file")).toEqual({ file: "policy.yaml", line: 4, column: 7, layer: 0 });
    expect(byId.get("baseline/deny:write_file")).toEqual({
      file: "org/baseline.yaml",
      line: 3,
      column: 8,
      layer: 1,
    });
    const explained = createController({ bundle, handlers: { read_file: () => "ok" } }).explain({
      callId: "c1",
      toolName: "write_file",
      arguments: { path: "a", content: "b" },
    });
    expect("decision" in explained && explained.decision.statements.map((s) => s.source)).toEqual([
      { file: "org/baseline.yaml", line: 3, column: 8, layer: 1 },
    ]);
  });
});

describe("createController", () => {
  const bundleOf = (policy: string) =>
    loadPolicy({
      cwd: project({
        "toolgate.config.yaml": "tools: [tools.yaml]\npolicy: policy.yaml\n",
        "tools.yaml": TOOLS,
        "policy.yaml": policy,
      }),
    });

  it("refuses a tool that can be allowed or asked but has no handler (missing-handler)", async () => {
    const bundle = await bundleOf("version: 1\nallow: [read_file]\nask: [write_file]\n");
    let error: unknown;
    try {
      createController({ bundle, handlers: { read_file: () => "ok" } });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ControllerSetupError);
    expect((error as ControllerSetupError).code).toBe("missing-handler");
    expect((error as ControllerSetupError).message).toContain("write_file");
  });

  it("needs no handler for a tool that is denied outright", async () => {
    const bundle = await bundleOf("version: 1\nallow: [read_file]\ndeny: [write_file]\n");
    expect(() => createController({ bundle, handlers: { read_file: () => "ok" } })).not.toThrow();
  });

  it("refuses a handler for a tool no file declares (unknown-handler)", async () => {
    const bundle = await bundleOf("version: 1\nallow: [read_file]\ndeny: [write_file]\n");
    let error: unknown;
    try {
      createController({ bundle, handlers: { read_file: () => "ok", delete_everything: () => "gone" } });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ControllerSetupError);
    expect((error as ControllerSetupError).code).toBe("unknown-handler");
    expect((error as ControllerSetupError).message).toContain("delete_everything");
  });
});
