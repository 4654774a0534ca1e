/**
 * The config's `roots:` list: directories the agent works in, read by `mcp-proxy` and the hooks. Relative
 * entries are relative to the config file; a value that cannot name a directory is an error at its position.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { lintPolicy, loadPolicy } from "toolgate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const TOOLS = `tools:
  - name: read_file
    description: Read a file.
    input_schema:
      type: object
      properties:
        path: { type: string }
      required: [path]
      additionalProperties: false
`;

let scratch: string;
let count = 0;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "toolgate-roots-"));
});
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

function project(config: string): string {
  const dir = join(scratch, `p${++count}`);
  const files = {
    "package.json": '{ "name": "fixture", "private": true }\n',
    "toolgate.config.yaml": config,
    "tools.yaml": TOOLS,
    "policy.yaml": "version: 1\nallow: [read_file]\n",
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

describe("config roots", () => {
  it("reads relative roots against the config file's directory and keeps absolute ones", async () => {
    const dir = project("tools: [tools.yaml]\npolicy: policy.yaml\nroots: [., packages/app, /srv/data]\n");
    const bundle = await loadPolicy({ cwd: dir });
    expect(bundle.settings.roots).toEqual([dir, join(dir, "packages/app"), "/srv/data"]);
  });

  it("has no roots when the key is absent", async () => {
    const dir = project("tools: [tools.yaml]\npolicy: policy.yaml\n");
    expect((await loadPolicy({ cwd: dir })).settings.roots).toBeUndefined();
  });

  it("points at a root that is not a string (file:line:col)", async () => {
    const dir = project("tools: [tools.yaml]\npolicy: policy.yaml\nroots:\n  - src\n  - 3\n");
    const report = await lintPolicy({ cwd: dir });
    expect(report.diagnostics.map((d) => [d.code, d.file, d.line, d.column])).toEqual([
      ["config-schema", "toolgate.config.yaml", 5, 5],
    ]);
    expect(report.diagnostics[0]?.message).toMatch(/string/);
  });

  it("points at a root that is a list where a list of directories was meant", async () => {
    const dir = project("tools: [tools.yaml]\npolicy: policy.yaml\nroots: src\n");
    const report = await lintPolicy({ cwd: dir });
    expect(report.diagnostics.map((d) => [d.code, d.file, d.line, d.column])).toEqual([
      ["config-schema", "toolgate.config.yaml", 3, 8],
    ]);
  });

  it("refuses a root starting with ~ at its position, saying what to write", async () => {
    const dir = project('tools: [tools.yaml]\npolicy: policy.yaml\nroots:\n  - /srv/app\n  - "~/project"\n');
    const report = await lintPolicy({ cwd: dir });
    expect(report.diagnostics.map((d) => [d.code, d.file, d.line, d.column, d.message])).toEqual([
      [
        "config-schema",
        "toolgate.config.yaml",
        5,
        5,
        'roots[1] "~/project" starts with ~, which is not expanded here; write the absolute path of the directory',
      ],
    ]);
    await expect(loadPolicy({ cwd: dir })).rejects.toThrow(/roots\[1\]/);
  });

  it("refuses an empty root and a Windows path", async () => {
    const dir = project('tools: [tools.yaml]\npolicy: policy.yaml\nroots: ["", "C:\\\\work"]\n');
    const report = await lintPolicy({ cwd: dir });
    expect(report.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([["config-schema", 3, 9]]);
    const fixed = project('tools: [tools.yaml]\npolicy: policy.yaml\nroots: ["C:\\\\work"]\n');
    const second = await lintPolicy({ cwd: fixed });
    expect(second.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([["config-schema", 3, 9]]);
    expect(second.diagnostics[0]?.message).toMatch(/Windows path/);
  });
});
