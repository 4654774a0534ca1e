/**
 * The hook's parse cache (`.toolgate/cache/hooks/parsed/`) answers exactly as `parseYaml` does: on every YAML
 * file of the repository, a parse that fills the cache and a parse that reads it back give `parseYaml`'s result
 * (data, every position, diagnostics). A file with a problem is never kept; an entry that is corrupt, edited,
 * for other bytes or from another version is not used (the file is parsed again and the entry written again);
 * entries a load did not use are removed.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HookParseCache } from "../../src/cli/hook-parse-cache.js";
import { parseYaml } from "../../src/config/parse-yaml.js";
import { ROOT } from "./cli-helpers.js";

let project: string;
const parsedDir = () => join(project, ".toolgate/cache/hooks/parsed");
const entries = () => readdirSync(parsedDir()).sort();

beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), "toolgate-parse-cache-"));
});

afterEach(() => {
  rmSync(project, { recursive: true, force: true });
});

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(entry.name) ? [path] : [];
  });
}

/** A result as comparable data: the positions map as its entries, in order. */
const plain = (result: ReturnType<typeof parseYaml>) =>
  result.ok
    ? { ...result, value: { ...result.value, positions: [...result.value.positions] } }
    : { ...result, value: undefined };

const POLICY = "version: 1\nrules:\n  - id: r1\n    tools: [read_file]\n    decision: deny\n";

describe("the hook's parse cache", () => {
  it("answers as parseYaml on every YAML file, filling the cache and reading it back", () => {
    const files = ["test/fixtures", "policies", "examples"].flatMap((dir) => yamlFiles(join(ROOT, dir)));
    expect(files.length).toBeGreaterThan(300);
    const filling = new HookParseCache(project);
    let failed = 0;
    for (const path of files) {
      const bytes = readFileSync(path);
      const expected = plain(parseYaml(bytes, "shown/path.yaml"));
      if (!expected.ok || expected.diagnostics.length > 0) failed++;
      expect(plain(filling.parse(bytes, "shown/path.yaml")), path).toEqual(expected);
    }
    filling.save();
    // Every file that parsed without a diagnostic is kept; none that did not (identical files share one).
    expect(entries().length).toBeGreaterThan(200);
    expect(entries().length).toBeLessThanOrEqual(files.length - failed);
    const reading = new HookParseCache(project);
    for (const path of files) {
      const bytes = readFileSync(path);
      // Another display path: it is the caller's, never the cache's.
      expect(plain(reading.parse(bytes, "other.yaml")), path).toEqual(plain(parseYaml(bytes, "other.yaml")));
    }
  });

  it("keeps no file with a problem, and no data JSON would change (-0)", () => {
    const cache = new HookParseCache(project);
    cache.parse(Buffer.from("a: [1, 2\n"), "broken.yaml");
    cache.parse(Buffer.from("a: &x 1\nb: *x\n"), "alias.yaml");
    cache.parse(Buffer.from("a: .inf\n"), "infinite.yaml");
    cache.parse(Buffer.from("a: -0\n"), "zero.yaml");
    cache.save();
    expect(entries()).toEqual([]);
  });

  it("uses no entry that is corrupt, edited, for other bytes or from another version, and writes it again", () => {
    const bytes = Buffer.from(POLICY);
    const first = new HookParseCache(project);
    first.parse(bytes, "p.yaml");
    first.save();
    const [name] = entries();
    const path = join(parsedDir(), name as string);
    const good = readFileSync(path, "utf8");
    const entry = JSON.parse(good) as { payload: string; source: string; version: number; toolgate: string };
    const other = new HookParseCache(project);
    other.parse(Buffer.from("version: 1\n"), "q.yaml");
    const forged = {
      corrupt: "{ not json",
      // The deny becomes an allow; the integrity hash is left as it was.
      edited: JSON.stringify({ ...entry, payload: entry.payload.replace('"deny"', '"allow"') }),
      otherBytes: JSON.stringify({ ...entry, source: `sha256:${"0".repeat(64)}` }),
      otherVersion: JSON.stringify({ ...entry, version: entry.version + 1 }),
      otherToolgate: JSON.stringify({ ...entry, toolgate: "0.0.0 elsewhere" }),
    };
    for (const [what, text] of Object.entries(forged)) {
      expect(text, what).not.toBe(good);
      writeFileSync(path, text);
      const cache = new HookParseCache(project);
      const result = plain(cache.parse(bytes, "p.yaml"));
      expect(result, what).toEqual(plain(parseYaml(bytes, "p.yaml")));
      expect(JSON.stringify(result), what).toContain('"deny"');
      cache.save();
      expect(readFileSync(path, "utf8"), what).toBe(good);
    }
  });

  it("removes the entries a load did not use", () => {
    const first = new HookParseCache(project);
    first.parse(Buffer.from(POLICY), "p.yaml");
    first.parse(Buffer.from("version: 1\n"), "q.yaml");
    first.save();
    expect(entries()).toHaveLength(2);
    const second = new HookParseCache(project);
    second.parse(Buffer.from(POLICY), "p.yaml");
    second.save();
    expect(entries()).toHaveLength(1);
  });
});
