import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import AjvDraft04 from "ajv-draft-04";
import { JsonlAuditSink, SqliteAuditSink } from "toolgate/stores";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, ROOT, toolgate, writeTree } from "./cli-helpers.js";

const FIXTURES = join(ROOT, "test/fixtures/diff");
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});
function temporary(): string {
  const dir = mkdtempSync(join(tmpdir(), "toolgate-cli-diff-"));
  made.push(dir);
  return dir;
}
/** A tool of one string argument; `additional` is its schema's `additionalProperties`. */
const configureTools = (additional: string) => `tools:
  - name: configure
    description: Sets a name.
    input_schema:
      type: object
      properties:
        name: { type: string }
      required: [name]
      additionalProperties: ${additional}
`;

const CONFIGURE_POLICY = `version: 1
allow: [configure]
rules:
  - id: no-x
    tools: [configure]
    decision: deny
    when:
      name: { equals: x }
    reason: not x
`;

const pair = (name: string) => [
  "diff",
  "--base",
  join(FIXTURES, name, "base"),
  "--head",
  join(FIXTURES, name, "head"),
];

describe("toolgate diff", () => {
  beforeAll(assertBuilt);

  it("a configuration that only turns on observe mode fails --fail-on loosened and --fail-on changed", () => {
    for (const failOn of ["loosened", "changed"]) {
      const run = toolgate([...pair("mode-observe"), "--format", "json", "--fail-on", failOn], ROOT);
      expect(run.code).toBe(1);
      const out = JSON.parse(run.stdout) as { settings: { setting: string; change: string }[] };
      expect(out.settings.map((c) => [c.setting, c.change])).toEqual([
        ["mode", "loosened"],
        ["grants.max_hours", "loosened"],
        ["audit.redact.delete_path", "loosened"],
      ]);
    }
  });

  it("--format json prints the contract shape; --fail-on loosened exits 1 when something loosened", () => {
    const run = toolgate([...pair("narrowed-deny-glob"), "--format", "json", "--fail-on", "loosened"], ROOT);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(1);
    const out = JSON.parse(run.stdout);
    expect(Object.keys(out)).toEqual([
      "base",
      "head",
      "statements",
      "settings",
      "decisions",
      "summary",
      "engine",
    ]);
    expect(Object.keys(out.base)).toEqual(["fingerprint"]);
    expect(out.base.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(out.head.fingerprint).not.toBe(out.base.fingerprint);
    expect(Object.keys(out.statements)).toEqual(["added", "removed", "changed"]);
    expect(Object.keys(out.summary)).toEqual(["loosened", "tightened", "changed"]);
    expect(out.summary.loosened).toBeGreaterThan(0);
    for (const d of out.decisions) {
      expect(Object.keys(d)).toEqual(["tool", "arguments", "context", "before", "after", "change", "source"]);
      expect(Object.keys(d.before)).toEqual(["action", "statementIds"]);
    }
    expect(out.decisions).toContainEqual({
      tool: "read_file",
      arguments: { path: ".envx" },
      context: {},
      before: { action: "deny", statementIds: ["no-secret-files"] },
      after: { action: "allow", statementIds: ["allow:read_file"] },
      change: "loosened",
      source: "generated",
    });
    // Without --fail-on the same diff exits 0.
    expect(toolgate([...pair("narrowed-deny-glob"), "--format", "json"], ROOT).code).toBe(0);
  });

  it("exit codes: a pure reformatting is clean for both --fail-on; a tightening fails only --fail-on changed", () => {
    for (const failOn of ["loosened", "changed"]) {
      const run = toolgate([...pair("reformatted"), "--format", "json", "--fail-on", failOn], ROOT);
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout).summary).toEqual({ loosened: 0, tightened: 0, changed: 0 });
    }
    // A prefix taken out of an allowed `command` list: no line is allowed more, compound ones included (their
    // parts are decided alike on both sides), so the engine decides it.
    const tightened = toolgate(
      [...pair("tightened-allow-commands"), "--format", "json", "--fail-on", "loosened"],
      ROOT,
    );
    expect(tightened.code).toBe(0);
    const json = JSON.parse(tightened.stdout) as {
      summary: { loosened: number; tightened: number };
      engine: unknown;
    };
    expect(json.summary.loosened).toBe(0);
    expect(json.summary.tightened).toBeGreaterThan(0);
    expect(json.engine).toMatchObject([{ tool: "run_shell", status: "complete" }]);
    expect(toolgate([...pair("tightened-allow-commands"), "--fail-on", "changed"], ROOT).code).toBe(1);
  });

  it("exit codes: a tool whose loosening is unknown fails --fail-on loosened unless --allow-unknown", () => {
    // Other properties refused, then allowed when they are strings: such a schema is not read, whether the tool
    // loosens is unknown.
    const dir = writeTree({
      "base/toolgate.config.yaml": "tools: [tools.yaml]\npolicy: policy.yaml\n",
      "base/tools.yaml": configureTools("false"),
      "base/policy.yaml": CONFIGURE_POLICY,
      "head/toolgate.config.yaml": "tools: [tools.yaml]\npolicy: policy.yaml\n",
      "head/tools.yaml": configureTools("{ type: string }"),
      "head/policy.yaml": CONFIGURE_POLICY,
    });
    const args = ["diff", "--base", join(dir, "base"), "--head", join(dir, "head"), "--fail-on", "loosened"];
    const unknown = toolgate(args, ROOT);
    expect(unknown.code, unknown.stdout + unknown.stderr).toBe(1);
    expect(unknown.stderr).toMatch(/whether configure loosen\(s\) is unknown .*--allow-unknown/);
    expect(toolgate([...args, "--allow-unknown"], ROOT).code).toBe(0);
  });

  it("stylish names the statements and decisions that changed", () => {
    const run = toolgate(pair("raised-max"), ROOT);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^ {2}changed {2}small-transfers \(rule: when\) {2}policy\.yaml:17 → policy\.yaml:17$/m,
    );
    expect(run.stdout).toMatch(/^ {2}loosened {3}transfer_funds \{"amount":\d+,"currency":"EUR"\}$/m);
    expect(run.stdout).toMatch(
      /ask \(otherwise:transfer_funds\) → allow \(small-transfers\) {2}\[generated\]/,
    );
    expect(run.stdout).toMatch(/^\d+ loosened, 0 tightened; 1 statement change$/m);
  });

  it("markdown puts loosenings first, grouped by tool, then the statement changes", () => {
    const run = toolgate([...pair("removed-extends"), "--format", "markdown"], ROOT);
    expect(run.code).toBe(0);
    const text = run.stdout;
    expect(text.startsWith("### toolgate diff: ")).toBe(true);
    expect(text).toContain(":warning: this change loosens the policy");
    const loosened = text.indexOf("#### Loosened");
    expect(loosened).toBeGreaterThan(0);
    expect(text.indexOf("**`read_file`**")).toBeGreaterThan(loosened);
    expect(text.indexOf("**`write_file`**")).toBeGreaterThan(text.indexOf("**`read_file`**"));
    expect(text).toContain("| removed (deny) | `no-secret-files` | `baseline.yaml:5` | |");
    expect(text).toContain(
      '| `{"path":".env"}` | **deny** `no-secret-files` | **allow** `allow:read_file` | generated |',
    );
  });

  it("github annotates the changed line of the head policy", () => {
    const run = toolgate([...pair("widened-allow-commands"), "--format", "github"], ROOT);
    expect(run.code).toBe(0);
    const all = run.stdout.trimEnd().split("\n");
    // The engine alone cannot decide run_shell (its `command` rules), but the confirmed loosenings decide it: no
    // `unknown` warning.
    expect(all.filter((l) => l.includes("title=toolgate diff%3A unknown"))).toHaveLength(0);
    const lines = all.filter((l) => !l.includes("title=toolgate diff%3A unknown"));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line).toMatch(
        /^::warning file=policy\.yaml,line=11,title=toolgate diff%3A loosened::loosened: run_shell was ask \(otherwise:run_shell\), is now allow \(shell-safe\); for example \{"command":"npm run lint[^"]*"\} \(generated\)/,
      );
    }
  });

  it("sarif is a valid SARIF 2.1.0 log with one result per kind of flip", () => {
    const run = toolgate([...pair("narrowed-deny-glob"), "--format", "sarif"], ROOT);
    expect(run.code).toBe(0);
    const log = JSON.parse(run.stdout);
    const schema = JSON.parse(
      readFileSync(
        join(ROOT, "node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json"),
        "utf8",
      ),
    );
    const ajv = new AjvDraft04.default({
      allErrors: true,
      strict: false,
      unicodeRegExp: false,
      validateFormats: false,
    });
    const validate = ajv.compile(schema);
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    const results = log.runs[0].results;
    expect(results.map((r: { ruleId: string }) => r.ruleId)).toEqual([
      "decision-loosened",
      "decision-loosened",
    ]);
    expect(results[0].locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: "baseline.yaml", uriBaseId: "%SRCROOT%" },
      region: { startLine: 5 },
    });
  });

  it("--base a git revision: read with git archive, the working tree untouched, --config from the root", () => {
    const repo = temporary();
    const git = (...args: string[]) =>
      execFileSync("git", args, {
        cwd: repo,
        encoding: "utf8",
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: "t",
          GIT_AUTHOR_EMAIL: "t@example.com",
          GIT_COMMITTER_NAME: "t",
          GIT_COMMITTER_EMAIL: "t@example.com",
        },
      });
    git("init", "-q");
    cpSync(join(FIXTURES, "raised-max/base"), join(repo, "agent"), { recursive: true });
    git("add", "-A");
    git("commit", "-qm", "policy");
    cpSync(join(FIXTURES, "raised-max/head/policy.yaml"), join(repo, "agent/policy.yaml"));
    const status = git("status", "--porcelain");
    const fromRoot = toolgate(
      [
        "diff",
        "--base",
        "HEAD",
        "--config",
        "agent/toolgate.config.yaml",
        "--format",
        "json",
        "--fail-on",
        "loosened",
      ],
      repo,
    );
    expect(fromRoot.stderr).toBe("");
    expect(fromRoot.code).toBe(1);
    expect(JSON.parse(fromRoot.stdout).statements.changed).toEqual([
      expect.objectContaining({ id: "small-transfers", fields: ["when"] }),
    ]);
    // From the configuration's own directory, discovery finds it on both sides.
    const fromInside = toolgate(["diff", "--base", "HEAD", "--format", "json"], join(repo, "agent"));
    expect(JSON.parse(fromInside.stdout).summary.loosened).toBeGreaterThan(0);
    expect(git("status", "--porcelain")).toBe(status);
    expect(readFileSync(join(repo, "agent/policy.yaml"), "utf8")).toContain("max: 1000");
    // The same revision on both sides reports nothing.
    git("stash", "-q");
    const same = toolgate(
      ["diff", "--base", "HEAD", "--config", "agent/toolgate.config.yaml", "--fail-on", "changed"],
      repo,
    );
    expect(same.code).toBe(0);
  });

  it("a side that does not load is reported with its diagnostics, exit 2", () => {
    const broken = temporary();
    cpSync(join(FIXTURES, "raised-max/base"), broken, { recursive: true });
    writeFileSync(join(broken, "policy.yaml"), "version: 1\nallow: [no_such_tool]\n");
    const run = toolgate(["diff", "--base", broken, "--head", join(FIXTURES, "raised-max/head")], ROOT);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain("unknown-tool");
    expect(run.stderr).toMatch(/the base configuration \(.*\) does not load/);
  });

  it("usage errors exit 2 with a message: an unknown revision, format or --fail-on", () => {
    const bad = toolgate(
      ["diff", "--base", "no-such-revision-or-dir", "--head", join(FIXTURES, "raised-max/head")],
      ROOT,
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/"no-such-revision-or-dir" is neither a directory nor a revision/);
    expect(toolgate([...pair("raised-max"), "--format", "junit"], ROOT).code).toBe(2);
    const failOn = toolgate([...pair("raised-max"), "--fail-on", "always"], ROOT);
    expect(failOn.code).toBe(2);
    expect(failOn.stderr).toContain('unknown --fail-on "always"');
    expect(toolgate(["diff"], ROOT).code).toBe(2);
  });

  it("--calls replays a JSONL and a SQLite audit log (source recorded); redacted calls are not replayed", async () => {
    const dir = temporary();
    const events = [
      { toolName: "run_shell", arguments: { command: "npm run lint -- --quiet" } },
      { toolName: "run_shell", arguments: { command: "git status" } },
      { toolName: "run_shell", arguments: { command: "[redacted]" } },
    ];
    const jsonl = new JsonlAuditSink(join(dir, "audit.jsonl"), { fsync: false });
    const sqlite = new SqliteAuditSink(join(dir, "audit.db"));
    for (const [i, e] of events.entries()) {
      for (const sink of [jsonl, sqlite]) {
        await sink.record({
          type: "call.received",
          time: new Date(0).toISOString(),
          callId: `c${i}`,
          fingerprint: "sha256:x",
          ...e,
        });
        await sink.record({
          type: "policy.decided",
          time: new Date(0).toISOString(),
          callId: `c${i}`,
          toolName: e.toolName,
          fingerprint: "sha256:x",
          decision: "ask",
          ruleIds: [],
        });
      }
    }
    await jsonl.close();
    await sqlite.close();
    for (const log of ["audit.jsonl", "audit.db", `sqlite:${join(dir, "audit.db")}`]) {
      const run = toolgate(
        [
          ...pair("widened-allow-commands"),
          "--format",
          "json",
          "--calls",
          log.startsWith("sqlite:") ? log : join(dir, log),
        ],
        ROOT,
      );
      expect(run.code).toBe(0);
      expect(run.stderr).toBe("toolgate: 1 recorded call with redacted arguments was not replayed\n");
      const recorded = JSON.parse(run.stdout).decisions.filter(
        (d: { source: string }) => d.source === "recorded",
      );
      expect(recorded).toEqual([
        {
          tool: "run_shell",
          arguments: { command: "npm run lint -- --quiet" },
          context: {},
          before: { action: "ask", statementIds: ["otherwise:run_shell"] },
          after: { action: "allow", statementIds: ["shell-safe"] },
          change: "loosened",
          source: "recorded",
        },
      ]);
    }
    const missing = toolgate([...pair("raised-max"), "--calls", join(dir, "missing.jsonl")], ROOT);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--calls .*missing\.jsonl: cannot read/);
  });
});
