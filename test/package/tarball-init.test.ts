/**
 * "In your own project": an empty folder with only the packed tarball installed. `toolgate init` and
 * `toolgate lint` succeed; `init --from-mcp` against @modelcontextprotocol/server-filesystem writes its tools
 * and lint passes; the modelines reach the installed schemas; the package's own API loads what init wrote.
 * Loading `toolgate` or running `toolgate lint` never loads the MCP SDK.
 *
 * The tarball is what `npm pack` publishes. It is unpacked into `node_modules/toolgate` as npm would, and each
 * of its declared `dependencies` is linked from this repository's `node_modules` (the registry is not needed,
 * and a native module is not rebuilt). Only declared dependencies are linked, so an import of anything else
 * from the packed files fails here.
 */
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, ROOT } from "./built-package.js";

const FILESYSTEM_SERVER = join(ROOT, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");

let work: string;
let tarball: string;

/** A new project folder with the tarball installed in `node_modules/toolgate` and a `toolgate` bin link. */
function installedProject(): string {
  const project = mkdtempSync(join(work, "project-"));
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "my-agent", private: true, type: "module" }),
  );
  const modules = join(project, "node_modules");
  mkdirSync(modules);
  const unpack = spawnSync("tar", ["-xzf", tarball, "-C", modules], { encoding: "utf8" });
  expect(unpack.status, unpack.stderr).toBe(0);
  renameSync(join(modules, "package"), join(modules, "toolgate"));
  const manifest = JSON.parse(readFileSync(join(modules, "toolgate/package.json"), "utf8")) as {
    dependencies: Record<string, string>;
    bin: Record<string, string>;
  };
  for (const dependency of Object.keys(manifest.dependencies)) {
    const link = join(modules, dependency);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(ROOT, "node_modules", dependency), link, "dir");
  }
  mkdirSync(join(modules, ".bin"));
  symlinkSync(join("..", "toolgate", manifest.bin.toolgate as string), join(modules, ".bin/toolgate"));
  return project;
}

function run(project: string, args: readonly string[], nodeOptions: readonly string[] = []) {
  const result = spawnSync(
    process.execPath,
    [...nodeOptions, join(project, "node_modules/.bin/toolgate"), ...args],
    {
      cwd: project,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
      timeout: 60_000,
    },
  );
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * A copy of the repository's tracked files with its node_modules linked: `npm pack` runs its scripts there
 * (prepack builds dist/ and strips `prepare`, postpack restores), never in this checkout whose dist/ other
 * tests are reading.
 */
function packingCopy(): string {
  const copy = mkdtempSync(join(work, "repository-"));
  const tracked = spawnSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" });
  expect(tracked.status, tracked.stderr).toBe(0);
  for (const file of tracked.stdout.split("\0").filter((f) => f !== "" && existsSync(join(ROOT, f)))) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(copy, file));
  }
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"), "dir");
  return copy;
}

let repository: string;

beforeAll(() => {
  assertBuilt();
  work = mkdtempSync(join(tmpdir(), "toolgate-tarball-"));
  repository = packingCopy();
  const pack = spawnSync("npm", ["pack", "--json", "--pack-destination", work], {
    cwd: repository,
    encoding: "utf8",
    timeout: 170_000,
  });
  expect(pack.status, pack.stderr).toBe(0);
  const [info] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
  tarball = join(work, info?.filename as string);
  const shipped = new Set(info?.files.map((f) => f.path));
  for (const needed of [
    "bin/toolgate.js",
    "dist/cli/main.js",
    "schemas/policy.schema.json",
    "docs/policy-reference.md",
  ]) {
    expect(shipped.has(needed), needed).toBe(true);
  }
}, 180_000);

describe("the packed package", () => {
  it("publishes no prepare script (an install script to npm), while the repository keeps it so that npm ci builds", () => {
    const manifest = JSON.parse(
      spawnSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" }).stdout,
    ) as { scripts: Record<string, string> };
    // postpack put the repository's own manifest back, prepare and all.
    const own = JSON.parse(readFileSync(join(repository, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(manifest.scripts.prepare).toBeUndefined();
    // Only `prepare` is taken out: the other scripts are the repository's.
    expect(manifest.scripts.build).toBe(own.scripts.build);
    expect(manifest.scripts.build).toMatch(/^tsc -p tsconfig\.build\.json/);
    expect(own.scripts.prepare).toBe("npm run build");
    expect(readFileSync(join(repository, "package.json"), "utf8")).toBe(
      readFileSync(join(ROOT, "package.json"), "utf8"),
    );
    expect(existsSync(join(repository, "package.json.packing"))).toBe(false);
  });
});

describe("toolgate in your own project, installed from the packed tarball", () => {
  it("init, then lint, succeed; the modelines reach the installed schemas; the API loads the policy", () => {
    const project = installedProject();
    const init = run(project, ["init"]);
    expect(init.stderr).toBe("");
    expect(init.code).toBe(0);
    // Installed: no note about installing toolgate first.
    expect(init.stdout).not.toContain("exists once toolgate is installed");
    for (const file of [
      "toolgate.config.yaml",
      "policies/tools/tools.yaml",
      "policies/policy.yaml",
      "policies/tests/tools.yaml",
    ]) {
      const first = readFileSync(join(project, file), "utf8").split("\n")[0] as string;
      const target = /^# yaml-language-server: \$schema=(\S+)$/.exec(first)?.[1];
      expect(target, file).toBeDefined();
      const schema = resolve(dirname(join(project, file)), target as string);
      expect(schema.startsWith(join(project, "node_modules/toolgate/schemas/")), schema).toBe(true);
      expect(existsSync(schema), schema).toBe(true);
    }
    const lint = run(project, ["lint"]);
    expect(lint.stderr).toBe("");
    expect(lint.code).toBe(0);
    expect(lint.stdout).toMatch(
      /^toolgate: no problems \(1 tool, 1 policy test passed; sha256:[0-9a-f]{64}\)\n$/,
    );

    writeFileSync(
      join(project, "main.js"),
      [
        'import { createController, loadPolicy } from "toolgate";',
        "const controller = createController({ bundle: await loadPolicy(), handlers: { read_file: () => 'text' } });",
        "const outcome = await controller.handle({ callId: 'c1', toolName: 'read_file', arguments: { path: 'a.md' } });",
        "const other = await controller.handle({ callId: 'c2', toolName: 'delete_all', arguments: {} });",
        "console.log(JSON.stringify({ asks: 'approvalId' in outcome, other }));",
      ].join("\n"),
    );
    const app = spawnSync(process.execPath, ["main.js"], { cwd: project, encoding: "utf8", timeout: 60_000 });
    expect(app.stderr).toBe("");
    expect(JSON.parse(app.stdout)).toEqual({
      asks: true,
      other: { callId: "c2", content: "unknown tool: delete_all", isError: true },
    });
  });

  it("init --from-mcp writes the filesystem server's tools and lint passes", () => {
    const project = installedProject();
    const served = mkdtempSync(join(work, "served-"));
    const init = run(project, ["init", "--from-mcp", `node ${FILESYSTEM_SERVER} ${served}`]);
    expect(init.stderr).toBe("");
    expect(init.code).toBe(0);
    expect(init.stdout).toMatch(/policies\/tools\/tools\.yaml {2}\(\d+ tools\)/);
    const lint = run(project, ["lint"]);
    expect(lint.code).toBe(0);
    expect(lint.stdout).toMatch(/^toolgate: no problems \((\d+) tools, \1 policy tests passed; /);
    const explain = run(project, ["explain", "write_file", "--args", '{"path":"a","content":"b"}']);
    expect(explain.stdout.split("\n")[0]).toBe(
      "write_file: ASK — a person approves each write_file call until this policy decides more",
    );
  });

  it('loads the MCP SDK only for an MCP import: never for `import "toolgate"` or `toolgate lint`', () => {
    const project = installedProject();
    expect(run(project, ["init"]).code).toBe(0);
    const log = join(project, "loaded.txt");
    writeFileSync(
      join(project, "hooks.mjs"),
      [
        'import { appendFileSync } from "node:fs";',
        "export async function resolve(specifier, context, next) {",
        "  const result = await next(specifier, context);",
        `  appendFileSync(${JSON.stringify(log)}, result.url + "\\n");`,
        "  return result;",
        "}",
      ].join("\n"),
    );
    writeFileSync(
      join(project, "register.mjs"),
      'import { register } from "node:module";\nregister("./hooks.mjs", import.meta.url);\n',
    );
    const loaded = () => (existsSync(log) ? readFileSync(log, "utf8") : "");
    const hook = ["--import", "./register.mjs"];

    expect(run(project, ["lint"], hook).code).toBe(0);
    const app = spawnSync(
      process.execPath,
      [...hook, "--input-type=module", "-e", 'await import("toolgate");'],
      {
        cwd: project,
        encoding: "utf8",
      },
    );
    expect(app.status, app.stderr).toBe(0);
    expect(loaded()).toContain("/node_modules/toolgate/dist/index.js");
    expect(loaded()).toContain("/node_modules/toolgate/dist/cli/lint.js");
    // Each command's module loads when it runs: lint does not load init (nor, through it, the SDK).
    expect(loaded()).not.toContain("/node_modules/toolgate/dist/cli/init.js");
    expect(loaded()).not.toContain("@modelcontextprotocol");

    // The same hook sees the SDK when an MCP import needs it, so the check above can fail.
    const other = installedProject();
    writeFileSync(join(other, "hooks.mjs"), readFileSync(join(project, "hooks.mjs")));
    writeFileSync(join(other, "register.mjs"), readFileSync(join(project, "register.mjs")));
    const served = mkdtempSync(join(work, "served-"));
    expect(run(other, ["init", "--from-mcp", `node ${FILESYSTEM_SERVER} ${served}`], hook).code).toBe(0);
    expect(loaded()).toContain("@modelcontextprotocol/sdk/dist/esm/client/index.js");
  });
});
