import { spawn } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, BIN, ROOT, toolgate } from "./cli-helpers.js";

describe("toolgate explain on the repository's policies/", () => {
  beforeAll(assertBuilt);

  it("a command under a wrapper it can read is decided by what the wrapper runs", () => {
    const timed = toolgate(["explain", "run_shell", "--args", '{"command":"time ls"}'], ROOT);
    expect(timed.code).toBe(0);
    expect(timed.stdout).toMatch(
      /^run_shell: ASK — a shell command that is not certainly on the safe list needs a person's approval$/m,
    );
    expect(timed.stdout).toMatch(/^decided by: otherwise:run_shell \(no other statement matched\)$/m);
    const wrappedDelete = toolgate(["explain", "run_shell", "--args", '{"command":"nohup rm -rf /"}'], ROOT);
    expect(wrappedDelete.stdout).toMatch(/^run_shell: DENY — recursive deletion is never run by the agent$/m);
  });

  it("a compound command no rule allows as a whole is decided part by part, and each part is shown", () => {
    const run = toolgate(["explain", "run_shell", "--args", '{"command":"git status && npm test"}'], ROOT);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^run_shell: ALLOW/m);
    expect(run.stdout).toMatch(/^decided part by part, each simple command of command on its own:$/m);
    expect(run.stdout).toMatch(/^ {2}`git status` → ALLOW \(shell-safe-commands\)$/m);
    expect(run.stdout).toMatch(/^ {2}`npm test` → ALLOW \(shell-test-suite\)$/m);
    const json = toolgate(
      ["explain", "run_shell", "--format", "json", "--args", '{"command":"git status && make"}'],
      ROOT,
    );
    const parsed = JSON.parse(json.stdout) as {
      action: string;
      parts: { command: string; action: string }[];
    };
    expect(parsed.action).toBe("ask");
    expect(parsed.parts.map((p) => [p.command, p.action])).toEqual([
      ["git status", "allow"],
      ["make", "ask"],
    ]);
  });

  it("--trace shows each operator's result and, for command, which simple command met which prefix", () => {
    const run = toolgate(
      ["explain", "run_shell", "--trace", "--args", '{"command":"git status && rm -rf build"}'],
      ROOT,
    );
    expect(run.code).toBe(0);
    const lines = run.stdout.split("\n");
    const at = lines.findIndex((l) => l.startsWith("  may match") && l.includes("shell-no-recursive-delete"));
    expect(lines.slice(at, at + 5)).toEqual([
      "  may match  deny   shell-no-recursive-delete  policies/policy.yaml:63",
      '             when command: command ["rm -rf","rm -fr","rm -r","rm -R","rm --recursive","find -delete"] → maybe',
      "               as read: `git status` → no prefix",
      '               as read: `rm -rf build` → "rm -rf" (match), "rm -fr" (may match), "rm -r" (may match), "rm -R" (may match)',
      "               safe subset: `git status` is covered by no prefix",
    ]);
    const json = JSON.parse(
      toolgate(["explain", "read_file", "--trace", "--format", "json", "--args", '{"path":"a/.env"}'], ROOT)
        .stdout,
    );
    const secrets = json.statements.find((s: { id: string }) => s.id === "no-secret-files");
    expect(secrets.trace).toEqual([
      expect.objectContaining({ on: "when", field: "path", operator: "glob", result: "true" }),
    ]);
    // Without --trace the JSON shape is unchanged.
    const plain = JSON.parse(
      toolgate(["explain", "read_file", "--format", "json", "--args", '{"path":"a"}'], ROOT).stdout,
    );
    expect(plain.statements[0]).not.toHaveProperty("trace");
  });

  it("an unknown tool is invalid, and stderr suggests the near name", () => {
    const typo = toolgate(["explain", "reed_file", "--args", '{"path":"a"}'], ROOT);
    expect(typo.code).toBe(0);
    expect(typo.stdout).toMatch(/^reed_file: INVALID — unknown tool: reed_file$/m);
    expect(typo.stderr).toBe(
      'toolgate: tool "reed_file" is not declared in any tool file; did you mean "read_file"?\n',
    );
    const far = toolgate(["explain", "zzz", "--format", "json"], ROOT);
    expect(JSON.parse(far.stdout).action).toBe("invalid");
    expect(far.stderr).toMatch(
      /^toolgate: tool "zzz" is not declared in any tool file; declared: read_file, /,
    );
  });

  it("stops quietly when the reader closes the pipe early", async () => {
    const child = spawn(process.execPath, [BIN, "explain", "run_shell", "--args", '{"command":"ls"}'], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.destroy(); // like `| head -0`: nobody reads what toolgate writes
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const code = await new Promise<number | null>((done) => child.on("close", (c) => done(c)));
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });
});

describe("toolgate explain with fallbacks (otherwise)", () => {
  beforeAll(assertBuilt);
  const cwd = `${ROOT}/test/fixtures/compile/url-and-otherwise`;

  it("names the fallback that decided, with its file and line, and marks the others", () => {
    const asked = toolgate(["explain", "run_shell", "--args", '{"command":"npm publish"}'], cwd);
    expect(asked.code).toBe(0);
    expect(asked.stdout).toBe(
      [
        "run_shell: ASK — tool run_shell needs a person's approval when no rule matches the call (otherwise)",
        "decided by: otherwise:run_shell (no other statement matched)",
        "  no match   allow  safe-commands  policy.yaml:22",
        "  fallback   ask    otherwise:run_shell  policy.yaml:6",
        "",
      ].join("\n"),
    );
    const allowed = toolgate(["explain", "run_shell", "--args", '{"command":"ls"}'], cwd);
    expect(allowed.stdout).toContain("  not used   ask    otherwise:run_shell  policy.yaml:6");
  });

  it("across layers the strictest fallback decides; --format json gives kind otherwise and the layer", () => {
    const pushed = toolgate(["explain", "git_push", "--args", '{"branch":"main"}', "--format", "json"], cwd);
    const output = JSON.parse(pushed.stdout) as {
      action: string;
      ruleIds: string[];
      statements: { id: string; kind: string; matched: boolean; file: string; line: number; layer: number }[];
    };
    expect(output.action).toBe("deny");
    expect(output.ruleIds).toEqual(["baseline/otherwise:git_push"]);
    expect(output.statements.filter((s) => s.kind === "otherwise")).toEqual([
      expect.objectContaining({
        id: "otherwise:git_push",
        matched: false,
        file: "policy.yaml",
        line: 8,
        layer: 0,
      }),
      expect.objectContaining({
        id: "baseline/otherwise:git_push",
        matched: true,
        file: "baseline.yaml",
        line: 4,
        layer: 1,
      }),
    ]);
  });
});
