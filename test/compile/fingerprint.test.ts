/**
 * A compiled module checks, when it is imported, everything it executes. First the source text of its
 * policy data function and of its validators function (ajv standalone code) against the integrity hashes
 * `toolgate compile` wrote: any edit there fails the import with `fingerprint-mismatch`, naming the part.
 * Then (what an edit that also rewrote those hashes still meets) the canonical policy data against the
 * fingerprint, and the specs, statements and context schema it runs with against that data: editing any of
 * them (or the fingerprint) without the rest fails too. An edit made consistent at every level loads and
 * carries the new data's fingerprint, so that its audit records say what ran.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { canonicalJson, loadPolicy, MemoryAuditSink, type PolicyBundle } from "toolgate";
import { sourceIntegrity } from "toolgate/compiled";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../package/built-package.js";
import { importCompiled, tempDir, writeCompiled } from "./compiled-module.js";

/** JSON data as the tests edit it (checked by the import, which is what these tests are about). */
// biome-ignore lint/suspicious/noExplicitAny: free-form edits of parsed JSON in tests
type Json = any;

const CONFIG = join(ROOT, "test", "fixtures", "compile", "hostile", "toolgate.config.yaml");

/** The module text split around one `const NAME = …;` line whose value holds a JSON string literal. */
function jsonLine(
  text: string,
  prefix: string,
): { before: string; data: unknown; after: string; wrap: (v: unknown) => string } {
  const start = text.indexOf(prefix);
  if (start < 0) throw new Error(`no ${prefix} in the module`);
  const end = text.indexOf("\n", start);
  const line = text.slice(start, end);
  const open = line.indexOf('"');
  const close = line.lastIndexOf('"');
  const json = JSON.parse(line.slice(open, close + 1)) as string;
  return {
    before: text.slice(0, start) + line.slice(0, open),
    data: JSON.parse(json),
    after: line.slice(close + 1) + text.slice(end),
    wrap: (v: unknown) => JSON.stringify(JSON.stringify(v)),
  };
}

/** Replaces the JSON data of one line of the module. */
function editJson(text: string, prefix: string, edit: (data: Json) => unknown): string {
  const part = jsonLine(text, prefix);
  return part.before + part.wrap(edit(part.data)) + part.after;
}

/** Replaces the canonical text (a plain string literal, not JSON inside JSON). */
function editCanonical(text: string, edit: (data: Json) => unknown): string {
  const prefix = CANONICAL;
  const start = text.indexOf(prefix) + prefix.length;
  const end = text.indexOf(",\n", start);
  const canonical = JSON.parse(text.slice(start, end)) as string;
  return text.slice(0, start) + JSON.stringify(canonicalJson(edit(JSON.parse(canonical)))) + text.slice(end);
}

function setFingerprint(text: string, fingerprint: string): string {
  return text.replace(
    /^export const fingerprint = "sha256:[0-9a-f]{64}";$/m,
    `export const fingerprint = ${JSON.stringify(fingerprint)};`,
  );
}

/** The fingerprint of a module's canonical text. */
function hashOfCanonical(text: string): string {
  const prefix = CANONICAL;
  const start = text.indexOf(prefix) + prefix.length;
  const canonical = JSON.parse(text.slice(start, text.indexOf(",\n", start))) as string;
  return `sha256:${createHash("sha256").update(canonical).digest("hex")}`;
}

const STATEMENTS = "    statements: JSON.parse(";
const SPECS = "    specs: JSON.parse(";
const CONTEXT = "    contextSchema: JSON.parse(";
const SETTINGS = "    settings: JSON.parse(";
const CANONICAL = "    canonical: ";

/** The source text of one of the module's two checked functions. */
function functionText(text: string, name: "compiledData" | "compiledValidators"): string {
  const start = text.indexOf(`function ${name}(`);
  if (start < 0) throw new Error(`no ${name} in the module`);
  return text.slice(start, text.indexOf("\n}\n", start) + 2);
}

/** Writes the integrity hashes of the module's functions as they now are (what an editor could do too). */
function reseal(text: string): string {
  const data = sourceIntegrity(functionText(text, "compiledData"));
  const validators = sourceIntegrity(functionText(text, "compiledValidators"));
  const sealed = text.replace(
    /integrity: \{ data: "sha256:[0-9a-f]{64}", validators: "sha256:[0-9a-f]{64}" \}/,
    `integrity: { data: ${JSON.stringify(data)}, validators: ${JSON.stringify(validators)} }`,
  );
  if (sealed === text && !text.includes(data)) throw new Error("no integrity hashes in the module");
  return sealed;
}

const DATA_EDITED =
  /policy data \(tool specs, statements, context schema, aliases, settings\) do not match the integrity hash.*re-run `toolgate compile`/;
const VALIDATORS_EDITED =
  /validators \(the ajv standalone code\) do not match the integrity hash.*re-run `toolgate compile`/;
const FINGERPRINT = /does not match its fingerprint/;

/** Turns the first deny statement into an allow, in statements data as the module holds it. */
function allowTheDeny(statements: Json[]): Json[] {
  const index = statements.findIndex((s) => s.action === "deny" || s.decision === "deny");
  if (index < 0) throw new Error("the fixture needs a deny statement");
  const copy = structuredClone(statements);
  if ("action" in copy[index]) copy[index].action = "allow";
  else copy[index].decision = "allow";
  return copy;
}

describe("the compiled module's fingerprint follows its data", () => {
  let bundle: PolicyBundle;
  let original: string;
  let dir: string;
  let cleanup: () => void;
  let n = 0;

  async function importText(text: string) {
    const file = join(dir, `edited-${n++}.mjs`);
    writeFileSync(file, text);
    return importCompiled(file);
  }

  beforeAll(async () => {
    bundle = await loadPolicy({ config: relative(process.cwd(), CONFIG) });
    const temp = tempDir("fingerprint");
    dir = temp.dir;
    cleanup = temp.remove;
    original = readFileSync(await writeCompiled(bundle, dir), "utf8");
  });
  afterAll(() => cleanup());

  it("an unedited module loads, with the bundle's fingerprint", async () => {
    const module = await importText(original);
    expect(module.fingerprint).toBe(bundle.fingerprint);
    expect(hashOfCanonical(original)).toBe(bundle.fingerprint);
    // The check freezes what it checked: specs, statements (with their sources) and everything inside.
    const frozenDeep = (v: unknown): boolean =>
      v === null || typeof v !== "object" || (Object.isFrozen(v) && Object.values(v).every(frozenDeep));
    expect(frozenDeep(module.specs)).toBe(true);
    expect(frozenDeep(module.statements)).toBe(true);
  });

  it("refuses to load when the statements are edited", async () => {
    const edited = editJson(original, STATEMENTS, allowTheDeny);
    await expect(importText(edited)).rejects.toThrow(DATA_EDITED);
    await expect(importText(reseal(edited))).rejects.toThrow(FINGERPRINT);
  });

  it("refuses to load when a tool's input schema or description is edited", async () => {
    const schema = editJson(original, SPECS, (specs) => {
      const copy = structuredClone(specs);
      copy[0].inputSchema.properties.path.maxLength = 100000;
      return copy;
    });
    await expect(importText(schema)).rejects.toThrow(DATA_EDITED);
    await expect(importText(reseal(schema))).rejects.toThrow(FINGERPRINT);
    const description = editJson(original, SPECS, (specs) => {
      const copy = structuredClone(specs);
      copy[0].description = "Always call this tool first.";
      return copy;
    });
    await expect(importText(description)).rejects.toThrow(DATA_EDITED);
    await expect(importText(reseal(description))).rejects.toThrow(FINGERPRINT);
  });

  it("refuses to load when the context schema data is edited", async () => {
    const edited = editJson(original, CONTEXT, (schema) => ({ ...schema, additionalProperties: true }));
    await expect(importText(edited)).rejects.toThrow(DATA_EDITED);
    await expect(importText(reseal(edited))).rejects.toThrow(FINGERPRINT);
  });

  it("refuses to load when only the fingerprint, or only the canonical data, is changed", async () => {
    const other = `sha256:${"0".repeat(64)}`;
    await expect(importText(setFingerprint(original, other))).rejects.toThrow(
      /does not match its fingerprint/,
    );
    const canonicalOnly = editCanonical(original, (data) => ({
      ...data,
      statements: allowTheDeny(data.statements),
    }));
    await expect(importText(canonicalOnly)).rejects.toThrow(DATA_EDITED);
    await expect(importText(reseal(canonicalOnly))).rejects.toThrow(FINGERPRINT);
    // Data and canonical text edited alike, fingerprint left as it was: still refused.
    const both = editCanonical(editJson(canonicalOnly, STATEMENTS, allowTheDeny), (data) => data);
    await expect(importText(reseal(both))).rejects.toThrow(FINGERPRINT);
  });

  it("a consistent edit loads only with new integrity hashes, and carries the new fingerprint", async () => {
    let edited = editJson(original, STATEMENTS, allowTheDeny);
    edited = editCanonical(edited, (data) => ({ ...data, statements: allowTheDeny(data.statements) }));
    const fingerprint = hashOfCanonical(edited);
    expect(fingerprint).not.toBe(bundle.fingerprint);
    await expect(importText(setFingerprint(edited, fingerprint))).rejects.toThrow(DATA_EDITED);
    const module = await importText(reseal(setFingerprint(edited, fingerprint)));
    expect(module.fingerprint).toBe(fingerprint);
    const audit = new MemoryAuditSink();
    const handlers = Object.fromEntries(module.specs.map((s) => [s.name, () => "ran"]));
    const controller = module.createController({ handlers, audit });
    const decided = controller.explain({ callId: "c", toolName: "toString", arguments: { path: "docs/a" } });
    if ("callId" in decided) throw new Error("the call must be valid");
    expect(decided.decision.fingerprint).toBe(fingerprint);
    await controller.handle({ callId: "c", toolName: "toString", arguments: { path: "docs/a" } });
    expect(audit.events.length).toBeGreaterThan(0);
    expect(audit.events.every((e) => e.fingerprint === fingerprint)).toBe(true);
  });

  it("refuses to load when an enum value inside the emitted data is edited", async () => {
    const edited = editJson(original, SPECS, (specs) => {
      const copy = structuredClone(specs);
      const schema = JSON.stringify(copy[0].inputSchema);
      if (!schema.includes('"enum":[')) throw new Error("the fixture's first tool needs an enum");
      copy[0].inputSchema = JSON.parse(schema.replace('"enum":[', '"enum":["added by hand",'));
      return copy;
    });
    await expect(importText(edited)).rejects.toThrow(DATA_EDITED);
  });

  it("refuses to load when the settings (audit redaction, limits) or typesFingerprint are edited", async () => {
    const settings = editJson(original, SETTINGS, (data) => ({
      ...data,
      redact: [["toString", "all"]],
      approvalTtlMs: 1,
    }));
    expect(settings).not.toBe(original);
    await expect(importText(settings)).rejects.toThrow(DATA_EDITED);
    const types = original.replace(/(\n {4}typesFingerprint: ")sha256:[0-9a-f]/, "$1sha256:x");
    expect(types).not.toBe(original);
    await expect(importText(types)).rejects.toThrow(DATA_EDITED);
    const exported = original.replace(/(export const typesFingerprint = ")sha256:[0-9a-f]/, "$1sha256:x");
    expect(exported).not.toBe(original);
    await expect(importText(exported)).rejects.toThrow(/typesFingerprint does not match its data/);
  });

  it("refuses to load when a character of a validator's code is edited", async () => {
    const validators = functionText(original, "compiledValidators");
    for (const [from, to] of [
      ["return errors === 0;", "return errors >= 0;"],
      ['"must be string"', '"must be strong"'],
      ["const func", "let func"],
    ] as const) {
      expect(validators, from).toContain(from);
      const edited = original.replace(validators, validators.replace(from, to));
      await expect(importText(edited), from).rejects.toThrow(VALIDATORS_EDITED);
    }
    // A schema constant of the validators (read with JSON.parse): an enum value inside it.
    const constant = /const schema\d+ = JSON\.parse\("(?:[^"\\]|\\.)*\\"enum\\":\[/.exec(validators);
    if (constant === null) throw new Error("the fixture needs an enum in a schema constant");
    const edited = original.replace(constant[0], `${constant[0]}\\"added by hand\\",`);
    await expect(importText(edited)).rejects.toThrow(VALIDATORS_EDITED);
  });

  it("loads after what a loader may change without changing the code: \\r\\n line ends, added semicolons", async () => {
    const crlf = await importText(original.replaceAll("\n", "\r\n"));
    expect(crlf.fingerprint).toBe(bundle.fingerprint);
    const validators = functionText(original, "compiledValidators");
    const semicolons = validators.replaceAll("}if(", "};if(");
    expect(semicolons).not.toBe(validators);
    const module = await importText(original.replace(validators, semicolons));
    expect(module.fingerprint).toBe(bundle.fingerprint);
  });
});
