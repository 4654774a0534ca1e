/**
 * The bad-input corpus: every folder of test/fixtures/config/ is a small project (config, tool files, policy,
 * tests) with `expected.json`, the exact diagnostics `toolgate lint` must report. One harness runs them all —
 * through `lintPolicy`, through `loadPolicy`, and a sample through the built CLI — and fails on a folder it
 * cannot map: no silent skips.
 *
 * Every entry of expected.json also pins the exact `message` (`{dir}` stands for the case's directory, for the
 * few messages that name it), so a message cannot lose its "where" or "what to do" unnoticed. A folder may
 * hold `expected.github.txt` and
 * `expected.junit.xml`: the exact `--format github` and `--format junit` output. Every case's SARIF log must
 * give each rule its meaning, help and reference link, and each result a `%SRCROOT%`-relative location.
 *
 * A folder may hold `generate.json` for files too large to commit: `{ "<file>": { bytes, head, fill } }` means
 * "write `head`, then `fill` repeatedly until the file has at least `bytes` bytes"; the case then runs from a
 * temporary copy.
 */
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Diagnostic, lintPolicy, loadPolicy, PolicyConfigError } from "toolgate";
import { afterAll, describe, expect, it } from "vitest";
import { DIAGNOSTICS } from "../../src/config/diagnostic-codes.js";
import { formatGithub } from "../../src/diagnostics/format-github.js";
import { diagnosticsToJunit, formatJunit } from "../../src/diagnostics/format-junit.js";
import { formatSarif } from "../../src/diagnostics/format-sarif.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const FIXTURES = join(ROOT, "test", "fixtures", "config");
const CLI = join(ROOT, "bin", "toolgate.js");
const CLI_ENTRY = join(ROOT, "dist", "cli", "main.js");

/** What expected.json pins of each diagnostic. */
interface Expected {
  readonly code: string;
  readonly severity: "error" | "warning";
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** The exact message; `{dir}` stands for the directory the case runs from. */
  readonly message: string;
}

const KEYS = ["code", "severity", "file", "line", "column", "message"] as const;

/** Where and what a diagnostic is, without its message. */
type Placed = Omit<Expected, "message">;

function project(d: Diagnostic | Expected): Placed {
  return { code: d.code, severity: d.severity, file: d.file, line: d.line, column: d.column };
}

function sorted(list: readonly Placed[]): Placed[] {
  const key = (e: Placed) =>
    `${e.file}\u0000${String(e.line).padStart(6, "0")}\u0000${String(e.column).padStart(6, "0")}\u0000${e.code}\u0000${e.severity}`;
  return [...list].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

function readExpected(dir: string): Expected[] {
  const file = join(dir, "expected.json");
  if (!existsSync(file)) {
    throw new Error(
      `${dir.slice(ROOT.length)} has no expected.json: every corpus folder must pin its diagnostics`,
    );
  }
  const data = JSON.parse(readFileSync(file, "utf8")) as unknown;
  if (!Array.isArray(data)) throw new Error(`${file.slice(ROOT.length)} must hold a JSON array`);
  return data.map((entry: unknown, i) => {
    const e = entry as Record<string, unknown>;
    if (
      e === null ||
      typeof e !== "object" ||
      Object.keys(e).sort().join() !== [...KEYS].sort().join() ||
      typeof e.message !== "string" ||
      typeof e.code !== "string" ||
      (e.severity !== "error" && e.severity !== "warning") ||
      typeof e.file !== "string" ||
      !Number.isInteger(e.line) ||
      !Number.isInteger(e.column)
    ) {
      throw new Error(
        `${file.slice(ROOT.length)}[${i}] must be exactly { code, severity, file, line, column, message }`,
      );
    }
    return e as unknown as Expected;
  });
}

const temporary: string[] = [];
afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

/** The directory to run a case from: the folder itself, or a temporary copy with its generated files. */
function caseDirectory(name: string): string {
  const dir = join(FIXTURES, name);
  const generator = join(dir, "generate.json");
  if (!existsSync(generator)) return dir;
  const copy = mkdtempSync(join(tmpdir(), `toolgate-corpus-${name}-`));
  temporary.push(copy);
  cpSync(dir, copy, { recursive: true });
  const files = JSON.parse(readFileSync(generator, "utf8")) as Record<
    string,
    { bytes: number; head: string; fill: string }
  >;
  for (const [file, { bytes, head, fill }] of Object.entries(files)) {
    if (fill.length === 0) throw new Error(`${name}/generate.json: "fill" of ${file} must not be empty`);
    const repeat = Math.max(0, Math.ceil((bytes - Buffer.byteLength(head)) / Buffer.byteLength(fill)));
    writeFileSync(join(copy, file), head + fill.repeat(repeat));
    expect(statSync(join(copy, file)).size).toBeGreaterThanOrEqual(bytes);
  }
  return copy;
}

const entries = readdirSync(FIXTURES, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
const caseNames = entries.filter((e) => e.isDirectory()).map((e) => e.name);

describe("the config corpus", () => {
  it("maps every entry of test/fixtures/config/ to a case with expected.json", () => {
    const known = /^(expected\.json|expected\.github\.txt|expected\.junit\.xml)$/;
    for (const name of caseNames) {
      const extra = readdirSync(join(FIXTURES, name)).filter(
        (f) => f.startsWith("expected") && !known.test(f),
      );
      expect(extra, `${name}: files the harness does not read`).toEqual([]);
    }
    const unmapped = entries
      .filter((e) => !e.isDirectory() || !existsSync(join(FIXTURES, e.name, "expected.json")))
      .map((e) => e.name);
    expect(unmapped, "folders without expected.json (or stray files)").toEqual([]);
    expect(caseNames.length).toBeGreaterThanOrEqual(45);
  });

  it("covers every code the loader emits", () => {
    const covered = new Set(
      caseNames.flatMap((name) => readExpected(join(FIXTURES, name)).map((e) => e.code)),
    );
    const loaderCodes = [
      "yaml-syntax",
      "duplicate-key",
      "yaml-alias",
      "file-too-large",
      "file-not-found",
      "config-not-found",
      "invalid-encoding",
      "config-schema",
      "invalid-tool-name",
      "duplicate-tool",
      "invalid-input-schema",
      "unknown-tool",
      "overlap",
      "duplicate-rule-id",
      "unknown-argument",
      "operator-type-mismatch",
      "invalid-regex",
      "invalid-glob",
      "invalid-command",
      "unknown-rule",
      "extends-cycle",
      "identifier-collision",
      "unlisted-tool",
      "unreachable-rule",
      "test-failed",
      "prefix-on-path",
      "invalid-url",
      "unbounded-string",
      "alias-unknown-tool",
      "alias-unknown-host",
      "alias-duplicate",
      "alias-unknown-argument",
      "alias-bad-mapping",
      "alias-unmapped-argument",
    ];
    expect(loaderCodes.filter((code) => !covered.has(code))).toEqual([]);
  });

  describe.each(caseNames)("%s", (name) => {
    it("lintPolicy returns exactly the diagnostics of expected.json, and loadPolicy agrees", async () => {
      const expected = readExpected(join(FIXTURES, name));
      const cwd = caseDirectory(name);
      const report = await lintPolicy({ cwd });
      expect(sorted(report.diagnostics.map(project))).toEqual(sorted(expected.map(project)));
      for (const e of expected) {
        const at = report.diagnostics.filter(
          (d) => d.code === e.code && d.file === e.file && d.line === e.line && d.column === e.column,
        );
        expect(
          at.map((d) => d.message),
          `message of ${e.code} at ${e.file}:${e.line}:${e.column}`,
        ).toContain(e.message.replaceAll("{dir}", cwd));
      }
      const dir = join(FIXTURES, name);
      if (existsSync(join(dir, "expected.github.txt"))) {
        expect(formatGithub(report.diagnostics)).toBe(readFileSync(join(dir, "expected.github.txt"), "utf8"));
      }
      if (existsSync(join(dir, "expected.junit.xml"))) {
        expect(formatJunit(diagnosticsToJunit(report.diagnostics))).toBe(
          readFileSync(join(dir, "expected.junit.xml"), "utf8"),
        );
      }
      const sarif = JSON.parse(
        formatSarif(report.diagnostics, { toolVersion: "0.0.0", table: DIAGNOSTICS }),
      ) as {
        runs: {
          tool: { driver: { rules: Record<string, unknown>[] } };
          results: Record<string, unknown>[];
        }[];
      };
      for (const rule of sarif.runs[0]?.tool.driver.rules ?? []) {
        expect(rule).toMatchObject({
          fullDescription: { text: expect.stringMatching(/\S/) },
          help: { text: expect.stringContaining("What to do:"), markdown: expect.stringMatching(/\S/) },
          helpUri: expect.stringMatching(/^https:\/\/.+#diagnostic-[a-z-]+$/),
        });
      }
      for (const result of sarif.runs[0]?.results ?? []) {
        const location = (result.locations as { physicalLocation: { artifactLocation: unknown } }[])[0];
        expect(location?.physicalLocation.artifactLocation).toMatchObject({
          uriBaseId: "%SRCROOT%",
          uri: expect.not.stringMatching(/^(\/|file:)/),
        });
      }
      for (const d of report.diagnostics) {
        expect(d.message, `${d.code} at ${d.file}:${d.line}:${d.column}`).not.toMatch(/^\s*$|\n\s+at /);
      }
      expect(report.errorCount).toBe(expected.filter((e) => e.severity === "error").length);
      expect(report.warningCount).toBe(expected.filter((e) => e.severity === "warning").length);

      // Policy tests run in lint only; every other error must stop loadPolicy, with the same diagnostics,
      // and leaves lint without a bundle, so without a fingerprint.
      const loadErrors = report.diagnostics.filter((d) => d.severity === "error" && d.code !== "test-failed");
      if (loadErrors.length > 0) expect(report.fingerprint).toBeNull();
      else expect(report.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
      let bundle: unknown;
      let failure: unknown;
      try {
        bundle = await loadPolicy({ cwd });
      } catch (error) {
        failure = error;
      }
      if (loadErrors.length > 0) {
        expect(bundle, "loadPolicy must never yield a bundle when there is an error").toBeUndefined();
        expect(failure).toBeInstanceOf(PolicyConfigError);
        const carried = (failure as PolicyConfigError).diagnostics.filter((d) => d.severity === "error");
        expect(sorted(carried.map(project))).toEqual(sorted(loadErrors.map(project)));
      } else {
        expect(failure).toBeUndefined();
        expect((bundle as { fingerprint: string }).fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
      }

      // Nothing in the files may reach Object.prototype (`__proto__`, `constructor`, `prototype` keys).
      expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
      expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain("polluted");
    });
  });
});

/** Cases run through the built CLI as well: one of each kind of outcome and stage. */
const CLI_SAMPLE = [
  "config-not-found",
  "yaml-syntax-unclosed-flow",
  "yaml-alias-bomb",
  "file-too-large",
  "invalid-encoding",
  "config-schema-typo-key",
  "invalid-tool-name-proto",
  "invalid-input-schema-type-typo",
  "overlap",
  "invalid-regex-lookahead",
  "extends-cycle",
  "test-failed",
  "unlisted-tool",
  "valid-minimal",
];

describe("toolgate lint --format json over a sample of the corpus", () => {
  it("has been built (npm test builds first)", () => {
    if (!existsSync(CLI_ENTRY)) {
      throw new Error(
        "dist/cli/main.js is missing: run `npm run build` before these tests (`npm test` does it)",
      );
    }
    expect(CLI_SAMPLE.filter((name) => !caseNames.includes(name))).toEqual([]);
  });

  describe.each(CLI_SAMPLE)("%s", (name) => {
    it("exits 0/1/2 as DESIGN.md says, prints the JSON report, and no stack trace", () => {
      if (!existsSync(CLI_ENTRY)) throw new Error("dist/cli/main.js is missing: run `npm run build` first");
      const expected = readExpected(join(FIXTURES, name));
      const cwd = caseDirectory(name);
      const result = spawnSync(process.execPath, [CLI, "lint", "--format", "json"], {
        cwd,
        encoding: "utf8",
        timeout: 30_000,
        env: { ...process.env, NO_COLOR: "1", TOOLGATE_DEBUG: "" },
      });
      const errors = expected.filter((e) => e.severity === "error").length;
      const exit = expected.some((e) => e.code === "config-not-found") ? 2 : errors > 0 ? 1 : 0;
      expect(result.stderr).not.toMatch(/^ {4}at /m);
      expect(result.status, result.stderr).toBe(exit);
      const report = JSON.parse(result.stdout) as Record<string, unknown>;
      expect(Object.keys(report)).toEqual(["fingerprint", "errorCount", "warningCount", "diagnostics"]);
      expect(report.errorCount).toBe(errors);
      expect(report.warningCount).toBe(expected.length - errors);
      const loadErrors = expected.filter((e) => e.severity === "error" && e.code !== "test-failed");
      if (loadErrors.length > 0) expect(report.fingerprint).toBeNull();
      else expect(report.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(sorted((report.diagnostics as Diagnostic[]).map(project))).toEqual(
        sorted(expected.map(project)),
      );
    });
  });
});
