/**
 * The CI recipe (scripts/toolgate-ci.sh, which the GitHub Action runs and docs/ci.md shows) against sample
 * repositories — a temporary copy of a fixture with generated files committed, and one started with
 * `toolgate init` — run by dash as a CI runner's `sh` would: it passes, writes SARIF whose rules carry help
 * text, and fails naming the cause once the policy changes without a new compile.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { assertBuilt, BIN, ROOT } from "./cli-helpers.js";

const RECIPE = join(ROOT, "scripts", "toolgate-ci.sh");

function recipe(cwd: string, env: Record<string, string> = {}) {
  return spawnSync("sh", [RECIPE], {
    cwd,
    encoding: "utf8",
    timeout: 120_000,
    env: { ...process.env, NO_COLOR: "1", TOOLGATE: `${process.execPath} ${BIN}`, ...env },
  });
}

interface SarifRule {
  id: string;
  fullDescription?: { text: string };
  help?: { text: string; markdown: string };
  helpUri?: string;
}

describe("scripts/toolgate-ci.sh on a sample repository", () => {
  let dir: string;
  beforeAll(() => {
    assertBuilt();
    dir = mkdtempSync(join(tmpdir(), "toolgate-ci-"));
    cpSync(join(ROOT, "test", "fixtures", "compile", "formats"), dir, { recursive: true });
    writeFileSync(join(dir, "package.json"), '{ "name": "sample", "private": true }\n');
    const config = join(dir, "toolgate.config.yaml");
    writeFileSync(
      config,
      `${readFileSync(config, "utf8")}codegen: { out: generated/toolgate.ts }\ncompile: { out: generated/toolgate.controller.mjs }\n`,
    );
    // What the repository commits: its YAML laid out by toolgate fmt, and the generated files.
    for (const command of ["fmt", "codegen", "compile"]) {
      const run = spawnSync(process.execPath, [BIN, command], { cwd: dir, encoding: "utf8" });
      expect(run.status, run.stderr).toBe(0);
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("passes, and writes SARIF whose rules carry help text and whose results are %SRCROOT%-relative", () => {
    const run = recipe(dir);
    expect(run.stderr).toBe("");
    expect(run.status, run.stdout).toBe(0);
    expect(run.stdout).toContain("== toolgate lint");
    expect(run.stdout).toMatch(
      /== toolgate codegen --check\ntoolgate: generated\/toolgate\.ts is up to date/,
    );
    expect(run.stdout).toMatch(
      /== toolgate compile --check\ntoolgate: generated\/toolgate\.controller\.mjs and/,
    );
    const sarif = JSON.parse(readFileSync(join(dir, "toolgate.sarif"), "utf8"));
    const rules = sarif.runs[0].tool.driver.rules as SarifRule[];
    expect(rules.map((r) => r.id)).toEqual(["unbounded-string"]);
    for (const rule of rules) {
      expect(rule.help?.text).toMatch(/What to do: Add `maxLength` to the field/);
      expect(rule.help?.markdown).toContain("**What to do:**");
      expect(rule.helpUri).toBe(`https://toolgate.dev/docs/policy-reference.md#diagnostic-${rule.id}`);
      expect(rule.fullDescription?.text).toMatch(/\S/);
    }
    expect(sarif.runs[0].results.length).toBeGreaterThan(0);
    for (const result of sarif.runs[0].results) {
      expect(result.locations[0].physicalLocation.artifactLocation).toEqual({
        uri: expect.stringMatching(/^(policy|tools)\.yaml$/),
        uriBaseId: "%SRCROOT%",
      });
    }
  });

  it("fails when the policy changed and the compiled controller was not rebuilt; the types stay current", () => {
    const policy = join(dir, "policy.yaml");
    const original = readFileSync(policy, "utf8");
    writeFileSync(
      policy,
      `${original.trimEnd()}\n`.replace(/^version: 1$/m, "version: 1\n# a reviewer's note"),
    );
    writeFileSync(policy, original.replace(/reason: ([^\n]*)/, "reason: $1 (reworded)"));
    try {
      const run = recipe(dir, { TOOLGATE_LOG_FORMAT: "github" });
      expect(run.status).toBe(1);
      expect(run.stdout).toMatch(
        /== toolgate codegen --check\ntoolgate: generated\/toolgate\.ts is up to date/,
      );
      expect(run.stdout).toMatch(/the policy changed: the file was compiled from sha256:[0-9a-f]{64}/);
      // The fixture's one warning: one unbounded-string naming both tools whose schemas leave "to" unbounded.
      expect(run.stdout).toMatch(/^::group::policy\.yaml \(1 problem\)$/m);
      expect(run.stdout).toMatch(/title=unbounded-string::.*tools "schedule" and "notify"/);
    } finally {
      writeFileSync(policy, original);
    }
  });

  it("skips the checks a configuration has no output for, and stops with 2 when there is no configuration", () => {
    const bare = mkdtempSync(join(tmpdir(), "toolgate-ci-bare-"));
    try {
      cpSync(join(ROOT, "test", "fixtures", "compile", "case-insensitive"), bare, { recursive: true });
      writeFileSync(join(bare, "package.json"), "{}\n");
      expect(spawnSync(process.execPath, [BIN, "fmt"], { cwd: bare }).status).toBe(0);
      const run = recipe(bare);
      expect(run.status, run.stdout + run.stderr).toBe(0);
      for (const command of ["codegen", "compile"]) {
        expect(run.stdout).toMatch(
          new RegExp(
            `== toolgate ${command} --check\ntoolgate: ${command} works for this policy \\(\\d+ tools?; sha256:[0-9a-f]{64}\\); the configuration names no ${command}\\.out, so there is no file to compare\n`,
          ),
        );
      }
      rmSync(join(bare, "toolgate.config.yaml"));
      const none = recipe(bare);
      expect(none.status).toBe(2);
      expect(none.stderr).toContain("toolgate could not run (exit 2)");
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });
});

describe("scripts/toolgate-ci.sh on a repository started with toolgate init", () => {
  it("passes on what init wrote plus a rule, with SARIF help for the rule's warning", () => {
    assertBuilt();
    const dir = mkdtempSync(join(tmpdir(), "toolgate-ci-init-"));
    try {
      writeFileSync(
        join(dir, "tools.json"),
        JSON.stringify([
          {
            type: "function",
            function: {
              name: "search_docs",
              description: "Search the documentation.",
              parameters: {
                type: "object",
                properties: { query: { type: "string" } },
                required: ["query"],
                additionalProperties: false,
              },
            },
          },
        ]),
      );
      const init = spawnSync(process.execPath, [BIN, "init", "--from-openai", "tools.json"], {
        cwd: dir,
        encoding: "utf8",
      });
      expect(init.status, init.stdout + init.stderr).toBe(0);
      // The team's first rule: a regex on a string with no maxLength, which lint warns about.
      const policy = join(dir, "policies", "policy.yaml");
      writeFileSync(
        policy,
        `${readFileSync(policy, "utf8")}rules:
  - id: no-secrets-in-queries
    tools: [search_docs]
    decision: deny
    when:
      query: { regex: { pattern: password, flags: i } }
    reason: queries do not carry secrets
`,
      );
      // The policy changed, so the team compiles again (and commits), as compile --check would tell them.
      expect(spawnSync(process.execPath, [BIN, "compile"], { cwd: dir }).status).toBe(0);
      const run = recipe(dir);
      expect(run.status, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toMatch(/== toolgate fmt --check\ntoolgate: 4 files are formatted\n/);
      expect(run.stdout).toMatch(
        /== toolgate codegen --check\ntoolgate: generated\/toolgate\.ts is up to date/,
      );
      const sarif = JSON.parse(readFileSync(join(dir, "toolgate.sarif"), "utf8"));
      const rules = sarif.runs[0].tool.driver.rules as SarifRule[];
      expect(rules.map((r) => r.id)).toEqual(["unbounded-string"]);
      expect(rules[0]?.help?.text).toMatch(/What to do: Add `maxLength` to the field/);
      expect(sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation).toEqual({
        uri: "policies/policy.yaml",
        uriBaseId: "%SRCROOT%",
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A fresh clone of this repository as it stands: every file git tracks (with its working-tree contents), no build. */
function freshClone(): string {
  const dir = mkdtempSync(join(tmpdir(), "toolgate-ci-clone-"));
  const tracked = spawnSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" });
  expect(tracked.status, tracked.stderr).toBe(0);
  for (const file of tracked.stdout.split("\0").filter((f) => f !== "" && existsSync(join(ROOT, f)))) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(ROOT, file), join(dir, file));
  }
  return dir;
}

describe("scripts/toolgate-ci.sh runs green on a fresh clone, with no warning allowed", () => {
  beforeAll(assertBuilt);
  const steps = ["lint", "test", "fmt --check", "codegen --check", "compile --check"];

  it("of this repository: the reference policy, its committed types and compiled controller", () => {
    const dir = freshClone();
    try {
      const run = recipe(dir, { TOOLGATE_MAX_WARNINGS: "0" });
      expect(run.stderr).toBe("");
      expect(run.status, run.stdout).toBe(0);
      for (const step of steps) expect(run.stdout).toContain(`== toolgate ${step}\n`);
      expect(run.stdout).toMatch(
        /== toolgate compile --check\ntoolgate: generated\/toolgate\.controller\.mjs and generated\/toolgate\.controller\.d\.mts are up to date/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    "examples/app/toolgate.config.yaml",
    "examples/coding-agent/toolgate.config.yaml",
    "examples/coding-agent/mcp/toolgate.config.yaml",
    "examples/notes-agent/toolgate.config.yaml",
    "policies/packs/agents/toolgate.config.yaml",
    "policies/packs/claude-code/toolgate.config.yaml",
    "policies/packs/gemini-cli/toolgate.config.yaml",
  ])("of this repository, for %s", (config) => {
    const dir = freshClone();
    try {
      const run = recipe(dir, { TOOLGATE_MAX_WARNINGS: "0", TOOLGATE_CONFIG: config });
      expect(run.status, run.stdout + run.stderr).toBe(0);
      for (const step of steps) expect(run.stdout).toContain(`== toolgate ${step}\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("compile --check and codegen --check agree whichever folder they run from", () => {
    const dir = freshClone();
    try {
      for (const check of ["compile", "codegen"]) {
        const inside = spawnSync(process.execPath, [BIN, check, "--check"], {
          cwd: join(dir, "examples", "app"),
          encoding: "utf8",
        });
        expect(inside.status, inside.stdout).toBe(0);
        const above = spawnSync(
          process.execPath,
          [BIN, check, "--check", "--config", "examples/app/toolgate.config.yaml"],
          {
            cwd: dir,
            encoding: "utf8",
          },
        );
        expect(above.status, above.stdout).toBe(0);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("of a project made with toolgate init in an empty folder", () => {
    const dir = mkdtempSync(join(tmpdir(), "toolgate-ci-init-"));
    try {
      const init = spawnSync(process.execPath, [BIN, "init"], { cwd: dir, encoding: "utf8" });
      expect(init.status, init.stdout + init.stderr).toBe(0);
      const clone = mkdtempSync(join(tmpdir(), "toolgate-ci-init-clone-"));
      cpSync(dir, clone, { recursive: true });
      const run = recipe(clone, { TOOLGATE_MAX_WARNINGS: "0" });
      rmSync(clone, { recursive: true, force: true });
      expect(run.stderr).toBe("");
      expect(run.status, run.stdout).toBe(0);
      for (const step of steps) expect(run.stdout).toContain(`== toolgate ${step}\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("docs/ci.md", () => {
  it("shows the recipe exactly as scripts/toolgate-ci.sh has it, and the action runs that script", () => {
    const doc = readFileSync(join(ROOT, "docs", "ci.md"), "utf8");
    expect(doc).toContain(`\`\`\`sh\n${readFileSync(RECIPE, "utf8")}\`\`\``);
  });

  it("action.yml is a composite action that runs the recipe, uploads SARIF and can comment the policy diff", () => {
    const action = parse(readFileSync(join(ROOT, "action.yml"), "utf8")) as {
      runs: {
        using: string;
        steps: { run?: string; uses?: string; if?: string; with?: Record<string, string> }[];
      };
      inputs: Record<string, { description: string; default: string }>;
    };
    expect(action.runs.using).toBe("composite");
    const steps = action.runs.steps;
    expect(steps.map((s) => s.run ?? s.uses ?? "")).toEqual(
      expect.arrayContaining([
        'sh "$GITHUB_ACTION_PATH/scripts/toolgate-ci.sh"',
        "github/codeql-action/upload-sarif@v3",
      ]),
    );
    expect(steps.find((s) => s.uses?.startsWith("github/codeql-action/upload-sarif"))?.if).toMatch(
      /^always\(\)/,
    );
    expect(steps.some((s) => s.run?.includes("diff --base") && s.run.includes("--format markdown"))).toBe(
      true,
    );
    for (const [name, input] of Object.entries(action.inputs)) {
      expect(typeof input.description, name).toBe("string");
      expect(typeof input.default, name).toBe("string");
    }
  });

  it(".pre-commit-hooks.yaml declares lint (with file names), fmt and codegen --check hooks", () => {
    const hooks = parse(readFileSync(join(ROOT, ".pre-commit-hooks.yaml"), "utf8")) as {
      id: string;
      entry: string;
      pass_filenames?: boolean;
    }[];
    expect(hooks.map((h) => [h.id, h.entry, h.pass_filenames ?? true])).toEqual([
      ["toolgate-lint", "toolgate lint", true],
      ["toolgate-fmt", "toolgate fmt", true],
      ["toolgate-codegen-check", "toolgate codegen --check", false],
    ]);
  });
});
