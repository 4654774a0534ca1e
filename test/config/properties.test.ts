/**
 * Properties of the loader, stated in words:
 * - parsing and schema-checking any bytes, any text and any YAML-shaped value never throws, and every
 *   diagnostic has a stable code and a 1-based position in the file it names;
 * - `lintPolicy` always returns, whatever a policy, tool or config file holds, and `loadPolicy` never
 *   yields a bundle when lint reports an error;
 * - the fingerprint is a function of the policy's meaning: the same files give the same fingerprint when
 *   loaded twice or from a copy in another directory, and reordering the keys of any YAML mapping does not
 *   change it;
 * - nothing a file holds reaches `Object.prototype`.
 * The pure pieces (parseYaml, validateAgainstSchema) run 1,000+ times; whole loads over a temporary
 * directory run 200 times each, since each compiles the tools' schemas.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { DIAGNOSTIC_CODES, type Diagnostic, lintPolicy, loadPolicy, PolicyConfigError } from "toolgate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { parseYaml } from "../../src/config/parse-yaml.js";
import { type FileKind, validateAgainstSchema } from "../../src/config/validate-schema.js";

const PURE_RUNS = 1000;
const LOAD_RUNS = 200;
const KINDS: readonly FileKind[] = ["config", "tools", "policy", "tests"];
const CODES: ReadonlySet<string> = new Set(DIAGNOSTIC_CODES);

function assertWellFormed(diagnostics: readonly Diagnostic[], file?: string): void {
  for (const d of diagnostics) {
    expect(CODES.has(d.code), d.code).toBe(true);
    expect(["error", "warning"]).toContain(d.severity);
    if (file !== undefined) expect(d.file).toBe(file);
    expect(Number.isInteger(d.line) && d.line >= 1, `line ${d.line}`).toBe(true);
    expect(Number.isInteger(d.column) && d.column >= 1, `column ${d.column}`).toBe(true);
    expect(d.message.trim()).not.toBe("");
    expect(d.message).not.toMatch(/\n\s+at /);
  }
}

function assertUnpolluted(): void {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain("polluted");
}

/** Parses bytes as a policy file and checks them against every schema; returns the diagnostics. */
function parseAndValidate(bytes: Uint8Array): Diagnostic[] {
  const parsed = parseYaml(bytes, "policy.yaml");
  assertWellFormed(parsed.diagnostics, "policy.yaml");
  if (!parsed.ok) {
    expect(parsed.diagnostics.length).toBeGreaterThan(0);
    return parsed.diagnostics;
  }
  const all = [...parsed.diagnostics];
  for (const kind of KINDS) {
    const checked = validateAgainstSchema(parsed.value, kind);
    const problems = checked.diagnostics;
    expect(checked.ok).toBe(problems.length === 0);
    assertWellFormed(problems, "policy.yaml");
    all.push(...problems);
  }
  assertUnpolluted();
  return all;
}

// ── arbitraries ─────────────────────────────────────────────────────────────

const YAML_CHARS = [..."abc01 :-[]{},&*!#'\"?|>%@`\t\n\r\\.~", "\u00e9", "\u0430", "\uFEFF", "\u2028", "😀"];
const yamlishText = fc.string({ unit: fc.constantFrom(...YAML_CHARS), maxLength: 120 });
const anyText = fc.oneof(fc.string({ unit: "binary", maxLength: 120 }), yamlishText);

const TOOL_NAMES = ["read_file", "list_dir", "run_shell", "write_file"] as const;
const KEYS = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom(
    "__proto__",
    "constructor",
    "prototype",
    "polluted",
    "version",
    "extends",
    "allow",
    "ask",
    "deny",
    "reasons",
    "rules",
    "id",
    "tools",
    "decision",
    "when",
    "context",
    "reason",
    "path",
    "glob",
    "regex",
    "equals",
    "in",
    "min",
    "command",
    "policy",
    "tests",
  ),
);
/** Any value `fc.anything` makes, with keys that a policy and an attacker would use. */
const anyValue = fc.anything({ key: KEYS, maxDepth: 4, maxKeys: 5, withNullPrototype: true });

/** Values shaped like a policy file, so that more of them pass the schema and reach the semantic checks. */
const toolRef = fc.oneof(
  fc.constantFrom(...TOOL_NAMES, "read_fil", "__proto__"),
  fc.string({ maxLength: 6 }),
);
const operators = fc.dictionary(
  fc.constantFrom("equals", "in", "prefix", "glob", "regex", "min", "max", "exists", "command", "not", "any"),
  fc.oneof(
    anyValue,
    fc.constantFrom("**/.env*", "src/**", "[abc", "^(a)\\1$", "(?=x)", "git status", "git status && rm"),
    fc.array(fc.constantFrom("**/*.pem", "git log", "a{b", 3), { minLength: 1, maxLength: 3 }),
    fc.integer(),
  ),
  { maxKeys: 3 },
);
const rule = fc.record(
  {
    id: fc.oneof(fc.constantFrom("r1", "r2", "no-secrets"), fc.string({ maxLength: 5 })),
    tools: fc.array(toolRef, { maxLength: 3 }),
    decision: fc.oneof(fc.constantFrom("allow", "ask", "deny"), fc.string({ maxLength: 5 })),
    when: fc.dictionary(
      fc.oneof(
        fc.constantFrom("path", "script", "max_bytes", "pth", "__proto__"),
        fc.string({ maxLength: 4 }),
      ),
      operators,
      { maxKeys: 2 },
    ),
    context: fc.dictionary(fc.constantFrom("environment", "role"), operators, { maxKeys: 1 }),
    reason: fc.string({ maxLength: 10 }),
  },
  { requiredKeys: ["id", "tools", "decision", "reason"] },
);
const policyShaped = fc.record(
  {
    version: fc.oneof({ arbitrary: fc.constant(1), weight: 4 }, { arbitrary: anyValue, weight: 1 }),
    allow: fc.array(toolRef, { maxLength: 4 }),
    ask: fc.array(toolRef, { maxLength: 4 }),
    deny: fc.array(toolRef, { maxLength: 4 }),
    reasons: fc.dictionary(toolRef, fc.string({ maxLength: 10 }), { maxKeys: 3 }),
    rules: fc.array(rule, { maxLength: 3 }),
    extends: fc.array(fc.constantFrom("policy.yaml", "missing.yaml", "../x.yaml"), { maxLength: 2 }),
  },
  { requiredKeys: [] },
);

/** YAML text of a value; `yaml` cannot write every JavaScript value (e.g. a bare `undefined`). */
function toYaml(value: unknown): string {
  try {
    // No anchors for repeated objects: policy files refuse them, and the data here is a tree anyway.
    return stringify(value, { aliasDuplicateObjects: false }) ?? "";
  } catch {
    return "";
  }
}

const encoder = new TextEncoder();

// ── pure pieces ─────────────────────────────────────────────────────────────

describe("parseYaml + validateAgainstSchema", () => {
  it("never throw on arbitrary bytes, and every diagnostic is well formed", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        parseAndValidate(bytes);
      }),
      { numRuns: PURE_RUNS },
    );
  });

  it("never throw on arbitrary text", () => {
    fc.assert(
      fc.property(anyText, (text) => {
        parseAndValidate(encoder.encode(text));
      }),
      { numRuns: PURE_RUNS },
    );
  });

  it("never throw on arbitrary YAML-shaped values, and read back what yaml wrote", () => {
    fc.assert(
      fc.property(fc.oneof(anyValue, policyShaped), (value) => {
        const text = toYaml(value);
        parseAndValidate(encoder.encode(text));
      }),
      { numRuns: PURE_RUNS },
    );
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        const parsed = parseYaml(encoder.encode(toYaml(value)), "policy.yaml");
        expect(parsed.ok, JSON.stringify(parsed.diagnostics)).toBe(true);
        if (parsed.ok) expect(JSON.stringify(parsed.value.data)).toBe(JSON.stringify(value ?? null));
        assertUnpolluted();
      }),
      { numRuns: PURE_RUNS },
    );
  });
});

// ── whole loads ─────────────────────────────────────────────────────────────

const TOOLS_FILE = {
  tools: [
    {
      name: "read_file",
      description: "Read a file.",
      input_schema: {
        type: "object",
        properties: { path: { type: "string" }, max_bytes: { type: "integer", minimum: 1 } },
        required: ["path"],
        additionalProperties: false,
      },
    },
    {
      name: "list_dir",
      description: "List a directory.",
      input_schema: {
        type: "object",
        properties: { path: { type: "string" }, recursive: { type: "boolean" } },
        required: ["path"],
      },
    },
    {
      name: "run_shell",
      description: "Run a shell command.",
      input_schema: { type: "object", properties: { script: { type: "string" } }, required: ["script"] },
    },
    {
      name: "write_file",
      description: "Write a file.",
      input_schema: {
        type: "object",
        properties: { path: { type: "string" }, content: { type: "string" } },
        required: ["path", "content"],
      },
    },
  ],
};
const CONFIG_FILE = { tools: ["tools/*.yaml"], policy: "policy.yaml", tests: ["tests.yaml"] };
const TESTS_FILE = {
  tests: [{ name: "reading", call: { tool: "read_file", arguments: { path: "a.txt" } }, expect: "deny" }],
};

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "toolgate-properties-"));
});
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

function writeProject(dir: string, files: Readonly<Record<string, string>>): void {
  mkdirSync(join(dir, "tools"), { recursive: true });
  writeFileSync(join(dir, "package.json"), '{ "name": "scratch", "private": true }\n');
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
}

const FILES = ["toolgate.config.yaml", "tools/tools.yaml", "policy.yaml", "tests.yaml"] as const;
const content = fc.oneof(
  anyText.map((t) => ({ kind: "text", text: t })),
  fc.uint8Array({ maxLength: 64 }).map((b) => ({ kind: "bytes", text: Buffer.from(b).toString("latin1") })),
  anyValue.map((v) => ({ kind: "value", text: toYaml(v) })),
  policyShaped.map((v) => ({ kind: "policy", text: toYaml(v) })),
);

describe("lintPolicy and loadPolicy over arbitrary files", () => {
  it("lint always returns, and loadPolicy yields no bundle when lint reports an error", async () => {
    const dir = join(scratch, "arbitrary");
    const seen = new Set<string>();
    let bundles = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...FILES),
        fc.option(content, { freq: 8 }),
        async (target, replacement) => {
          const files: Record<string, string> = {
            "toolgate.config.yaml": toYaml(CONFIG_FILE),
            "tools/tools.yaml": toYaml(TOOLS_FILE),
            "policy.yaml": toYaml({ version: 1, allow: ["read_file"] }),
            "tests.yaml": toYaml(TESTS_FILE),
          };
          rmSync(dir, { recursive: true, force: true });
          writeProject(dir, files);
          // Bytes are written as bytes, everything else as UTF-8 text; now and then the project stays intact.
          if (replacement !== null) {
            writeFileSync(
              join(dir, target),
              replacement.kind === "bytes" ? Buffer.from(replacement.text, "latin1") : replacement.text,
            );
          }
          const report = await lintPolicy({ cwd: dir });
          assertWellFormed(report.diagnostics);
          expect(report.configFound).toBe(true);
          for (const d of report.diagnostics) seen.add(d.code);
          const loadErrors = report.diagnostics.filter(
            (d) => d.severity === "error" && d.code !== "test-failed",
          );
          let bundle: unknown;
          let failure: unknown;
          try {
            bundle = await loadPolicy({ cwd: dir });
          } catch (error) {
            failure = error;
          }
          if (loadErrors.length > 0) {
            expect(bundle).toBeUndefined();
            expect(failure).toBeInstanceOf(PolicyConfigError);
            expect(report.fingerprint).toBeNull();
          } else {
            expect(failure).toBeUndefined();
            expect(report.fingerprint).toBe((bundle as { fingerprint: string }).fingerprint);
            bundles++;
          }
          assertUnpolluted();
        },
      ),
      { numRuns: LOAD_RUNS },
    );
    // The inputs reach every stage: parse errors, schema errors, semantic checks, and clean bundles.
    expect(bundles).toBeGreaterThan(0);
    for (const code of ["yaml-syntax", "config-schema", "unknown-tool"]) expect([...seen]).toContain(code);
  }, 180_000);
});

// ── fingerprint stability ───────────────────────────────────────────────────

/** A small seeded generator, so that one fast-check value decides a whole reordering. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The same value with the keys of every mapping in a shuffled order (lists keep their order). */
function reorderKeys(value: unknown, next: () => number): unknown {
  if (Array.isArray(value)) return value.map((v) => reorderKeys(v, next));
  if (value === null || typeof value !== "object") return value;
  const keys = Object.keys(value);
  for (let i = keys.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [keys[i], keys[j]] = [keys[j] as string, keys[i] as string];
  }
  const out: Record<string, unknown> = {};
  for (const key of keys) out[key] = reorderKeys((value as Record<string, unknown>)[key], next);
  return out;
}

/** Valid policies over the four tools: disjoint sets, rules on declared fields with fitting operators. */
const validPolicy = fc
  .record({
    sets: fc.tuple(
      ...TOOL_NAMES.map(() => fc.constantFrom("allow", "ask", "deny", "none") as fc.Arbitrary<string>),
    ),
    reasons: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
    rules: fc.array(
      fc.record({
        tools: fc.subarray(["read_file", "list_dir", "write_file"], { minLength: 1 }),
        decision: fc.constantFrom("allow", "ask", "deny"),
        path: fc.record(
          {
            prefix: fc.constantFrom("src/", "docs/", ""),
            glob: fc.constantFrom("**/.env*", "**/*.pem", "secrets/**"),
            regex: fc.constantFrom("^src/", "\\.ts$", "^[a-z]+$"),
            in: fc.constant(["a.txt", "b.txt"]),
          },
          { requiredKeys: [] },
        ),
        reason: fc.constantFrom("because", "a reason", "secrets stay secret"),
      }),
      { maxLength: 4 },
    ),
    shellRule: fc.option(fc.constantFrom(["git status"], ["npm test", "ls"]), { nil: undefined }),
  })
  .map(({ sets, reasons, rules, shellRule }) => {
    const policy: Record<string, unknown> = { version: 1 };
    const why: Record<string, string> = {};
    TOOL_NAMES.forEach((tool, i) => {
      const action = sets[i] as string;
      if (action === "none") return;
      policy[action] = [...((policy[action] as string[] | undefined) ?? []), tool];
      if (reasons[i]) why[tool] = `${tool} is ${action}`;
    });
    if (Object.keys(why).length > 0) policy.reasons = why;
    const list: Record<string, unknown>[] = rules.map((r, i) => ({
      id: `rule-${i}`,
      tools: r.tools,
      decision: r.decision,
      when: { path: Object.keys(r.path).length === 0 ? { exists: true } : r.path },
      reason: r.reason,
    }));
    if (shellRule !== undefined) {
      list.push({
        id: "shell",
        tools: ["run_shell"],
        decision: "allow",
        when: { script: { command: shellRule } },
        reason: "safe commands",
      });
    }
    if (list.length > 0) policy.rules = list;
    return policy;
  });

describe("the fingerprint", () => {
  it("is the same loaded twice, from a copy elsewhere, and with the keys of every mapping reordered", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(validPolicy, fc.integer(), async (policy, seed) => {
        run++;
        const original = join(scratch, `fingerprint-${run}`, "a");
        const copy = join(scratch, `fingerprint-${run}`, "elsewhere", "b");
        const reordered = join(scratch, `fingerprint-${run}`, "c");
        const config = { tools: ["tools/*.yaml"], policy: "policy.yaml" };
        writeProject(original, {
          "toolgate.config.yaml": toYaml(config),
          "tools/tools.yaml": toYaml(TOOLS_FILE),
          "policy.yaml": toYaml(policy),
        });
        cpSync(original, copy, { recursive: true });
        const next = random(seed);
        writeProject(reordered, {
          "toolgate.config.yaml": toYaml(reorderKeys(config, next)),
          "tools/tools.yaml": toYaml(reorderKeys(TOOLS_FILE, next)),
          "policy.yaml": toYaml(reorderKeys(policy, next)),
        });
        const first = await loadPolicy({ cwd: original });
        expect(first.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
        expect((await loadPolicy({ cwd: original })).fingerprint).toBe(first.fingerprint);
        expect((await loadPolicy({ cwd: copy })).fingerprint).toBe(first.fingerprint);
        expect((await loadPolicy({ cwd: reordered })).fingerprint).toBe(first.fingerprint);
        rmSync(join(scratch, `fingerprint-${run}`), { recursive: true, force: true });
      }),
      { numRuns: LOAD_RUNS },
    );
  }, 180_000);

  it("changes when a decision changes", async () => {
    const dir = join(scratch, "changes");
    const files = (action: string) => ({
      "toolgate.config.yaml": toYaml({ tools: ["tools/*.yaml"], policy: "policy.yaml" }),
      "tools/tools.yaml": toYaml(TOOLS_FILE),
      "policy.yaml": toYaml({ version: 1, [action]: ["read_file", "list_dir", "run_shell", "write_file"] }),
    });
    writeProject(dir, files("allow"));
    const allow = (await loadPolicy({ cwd: dir })).fingerprint;
    writeProject(dir, files("ask"));
    expect((await loadPolicy({ cwd: dir })).fingerprint).not.toBe(allow);
  });
});
