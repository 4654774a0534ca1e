/**
 * Tool aliases through the bundle, the fingerprint and the compiled module: the loader reads them from every
 * tool file (files in config order, entries as written, each with where it is written); they are part of the
 * fingerprint only when there are any, so every policy without aliases keeps its fingerprint; a compiled
 * module carries them in its checked data, exports them deep-frozen and equal to the loaded ones, and refuses
 * to load when they are edited.
 */

import { readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { loadPolicy, type PolicyBundle, policyFingerprint } from "toolgate";
import { sourceIntegrity } from "toolgate/compiled";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fingerprintData } from "../../src/runtime/fingerprint.js";
import { ROOT } from "../package/built-package.js";
import { importCompiled, tempDir, writeCompiled } from "./compiled-module.js";

const CONFIG = join(ROOT, "test", "fixtures", "compile", "aliases", "toolgate.config.yaml");

const load = (config: string) => loadPolicy({ config: relative(process.cwd(), config) });

/** The module text with the JSON data of its `aliases` line edited. */
function editAliases(text: string, edit: (aliases: unknown[]) => unknown): string {
  const prefix = "    aliases: JSON.parse(";
  const start = text.indexOf(prefix);
  if (start < 0) throw new Error("no aliases line in the module");
  const end = text.indexOf("\n", start);
  const line = text.slice(start, end);
  const open = line.indexOf('"');
  const close = line.lastIndexOf('"');
  const data = JSON.parse(JSON.parse(line.slice(open, close + 1)) as string) as unknown[];
  const written = JSON.stringify(JSON.stringify(edit(data)));
  return text.slice(0, start) + line.slice(0, open) + written + line.slice(close + 1) + text.slice(end);
}

/** The module with the integrity hash of its data function written again (as an editor could). */
function reseal(text: string): string {
  const start = text.indexOf("function compiledData(");
  const data = sourceIntegrity(text.slice(start, text.indexOf("\n}\n", start) + 2));
  return text.replace(
    /integrity: \{ data: "sha256:[0-9a-f]{64}"/,
    `integrity: { data: ${JSON.stringify(data)}`,
  );
}

describe("tool aliases in the bundle", () => {
  it("are read from every tool file, in config order and as written, each with its place", async () => {
    const bundle = await load(CONFIG);
    const dir = relative(process.cwd(), join(ROOT, "test", "fixtures", "compile", "aliases"));
    expect(bundle.aliases.map((a) => [a.host, a.name, a.tool, a.source])).toEqual([
      ["claude-code", "Bash", "shell", { file: `${dir}/tools.yaml`, line: 32, column: 5 }],
      ["claude-code", "Write", "write_file", { file: `${dir}/aliases.yaml`, line: 2, column: 5 }],
      [
        "claude-code",
        "mcp__{server}__{tool}",
        "mcp_call",
        { file: `${dir}/aliases.yaml`, line: 9, column: 5 },
      ],
      ["gemini-cli", "run_shell_command", "shell", { file: `${dir}/aliases.yaml`, line: 17, column: 5 }],
    ]);
    expect(bundle.aliases[1]?.arguments).toEqual([
      ["path", { kind: "path", name: "file_path" }],
      ["content", { kind: "argument", name: "content" }],
      ["operation", { kind: "value", value: "update" }],
    ]);
    expect(bundle.aliases[2]?.arguments).toEqual([
      ["name", { kind: "tool-name" }],
      ["server", { kind: "name-part", part: "server" }],
      ["tool", { kind: "name-part", part: "tool" }],
      ["input", { kind: "all-arguments" }],
    ]);
    expect(bundle.aliases[3]?.arguments).toEqual([["command", { kind: "argument", name: "command" }]]);
    expect(Object.isFrozen(bundle.aliases[0]?.arguments[0])).toBe(true);
  });

  it("are part of the fingerprint when there are some, and leave it as it was when there are none", async () => {
    const bundle = await load(CONFIG);
    const without = policyFingerprint(bundle.tools, bundle.statements, bundle.contextSchema);
    expect(bundle.fingerprint).toBe(
      policyFingerprint(bundle.tools, bundle.statements, bundle.contextSchema, "enforce", bundle.aliases),
    );
    expect(bundle.fingerprint).not.toBe(without);
    expect(policyFingerprint(bundle.tools, bundle.statements, bundle.contextSchema, "enforce", [])).toBe(
      without,
    );
    expect(fingerprintData(bundle.tools, bundle.statements, bundle.contextSchema)).not.toHaveProperty(
      "aliases",
    );
    // A moved alias changes nothing; a changed mapping changes the fingerprint.
    const moved = bundle.aliases.map((a) => ({ ...a, source: { file: "elsewhere.yaml", line: 1 } }));
    expect(policyFingerprint(bundle.tools, bundle.statements, bundle.contextSchema, "enforce", moved)).toBe(
      bundle.fingerprint,
    );
    const remapped = bundle.aliases.map((a, i) => (i === 0 ? { ...a, name: "Shell" } : a));
    expect(
      policyFingerprint(bundle.tools, bundle.statements, bundle.contextSchema, "enforce", remapped),
    ).not.toBe(bundle.fingerprint);
  });

  it("leave the fingerprint of a policy without aliases what it was before aliases existed", async () => {
    // The examples' policy, fingerprinted before aliases existed (its compiled modules carry this value).
    const bundle = await load(join(ROOT, "examples", "coding-agent", "toolgate.config.yaml"));
    expect(bundle.aliases).toEqual([]);
    expect(bundle.fingerprint).toBe(
      "sha256:32f2dbfc87b6b6a167c590073f2b07e4c4640deb5113fe723c9ae4c06e567d9a",
    );
  });
});

describe("tool aliases in a compiled module", () => {
  let bundle: PolicyBundle;
  let original: string;
  let dir: string;
  let cleanup: () => void;
  let n = 0;
  const importText = async (text: string) => {
    const file = join(dir, `aliases-${n++}.mjs`);
    writeFileSync(file, text);
    return (await importCompiled(file)) as Awaited<ReturnType<typeof importCompiled>> & {
      readonly aliases: PolicyBundle["aliases"];
    };
  };

  beforeAll(async () => {
    bundle = await load(CONFIG);
    const temp = tempDir("aliases");
    dir = temp.dir;
    cleanup = temp.remove;
    original = readFileSync(await writeCompiled(bundle, dir), "utf8");
  });
  afterAll(() => cleanup());

  it("exports the aliases the YAML load gives, deep-frozen, under the bundle's fingerprint", async () => {
    const module = await importText(original);
    expect(module.fingerprint).toBe(bundle.fingerprint);
    expect(module.aliases).toEqual(bundle.aliases);
    const frozenDeep = (v: unknown): boolean =>
      v === null || typeof v !== "object" || (Object.isFrozen(v) && Object.values(v).every(frozenDeep));
    expect(frozenDeep(module.aliases)).toBe(true);
  });

  it("declares the aliases export", () => {
    const declarations = readFileSync(join(dir, "controller.d.mts"), "utf8");
    expect(declarations).toContain("export declare const aliases: readonly ToolAlias[];");
  });

  it("refuses to load when the alias data is edited, also with its integrity hash written again", async () => {
    const retarget = (aliases: unknown[]) =>
      aliases.map((a, i) => (i === 1 ? { ...(a as object), tool: "shell" } : a));
    const edited = editAliases(original, retarget);
    await expect(importText(edited)).rejects.toThrow(/policy data .* do not match the integrity hash/);
    await expect(importText(reseal(edited))).rejects.toThrow(/does not match its fingerprint/);
    // An alias taken out, or one added, is refused the same way.
    await expect(importText(reseal(editAliases(original, (a) => a.slice(1))))).rejects.toThrow(
      /does not match its fingerprint/,
    );
    await expect(importText(reseal(editAliases(original, () => [])))).rejects.toThrow(
      /does not match its fingerprint/,
    );
    // Only where an alias is written may differ (it is not fingerprinted), as for statements.
    const moved = await importText(
      reseal(
        editAliases(original, (aliases) =>
          aliases.map((a) => ({ ...(a as object), source: { file: "moved.yaml", line: 9 } })),
        ),
      ),
    );
    expect(moved.fingerprint).toBe(bundle.fingerprint);
  });
});
