import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadPolicyResultSync } from "../../src/config/load-policy.js";
import { openPolicySource, PolicySourceError } from "../../src/diff/policy-sources.js";

const FIXTURES = new URL("../fixtures/diff/", import.meta.url).pathname;
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function repository(): { repo: string; git: (...args: string[]) => string } {
  const repo = mkdtempSync(join(tmpdir(), "toolgate-sources-"));
  made.push(repo);
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
  writeFileSync(join(repo, "package.json"), "{}\n");
  cpSync(join(FIXTURES, "raised-max/base"), join(repo, "agent"), { recursive: true });
  git("add", "-A");
  git("commit", "-qm", "first");
  return { repo, git };
}

describe("openPolicySource", () => {
  it("a revision is written out with git archive; the configuration the working tree finds is used", () => {
    const { repo, git } = repository();
    // The working tree moves on; the revision keeps max 100.
    cpSync(join(FIXTURES, "raised-max/head/policy.yaml"), join(repo, "agent/policy.yaml"));
    mkdirSync(join(repo, "agent/sub"));
    const source = openPolicySource("HEAD", join(repo, "agent/sub"));
    try {
      expect(source.label).toMatch(/^HEAD \([0-9a-f]{12}\)$/);
      expect(source.config).toBe("../toolgate.config.yaml");
      expect(readFileSync(join(source.cwd, "../policy.yaml"), "utf8")).toContain("max: 100 }");
      const loaded = loadPolicyResultSync({ cwd: source.cwd, config: source.config as string });
      expect(loaded.bundle?.statements.find((s) => s.id === "small-transfers")?.when).toEqual({
        amount: { max: 100 },
      });
    } finally {
      source.dispose();
    }
    expect(existsSync(source.cwd)).toBe(false);
    expect(git("status", "--porcelain")).toBe(" M agent/policy.yaml\n");
  });

  it("an explicit --config is taken relative to the repository root on the revision's side", () => {
    const { repo } = repository();
    const source = openPolicySource("HEAD", repo, "agent/toolgate.config.yaml");
    try {
      expect(source.config).toBe("agent/toolgate.config.yaml");
      expect(existsSync(join(source.cwd, "agent/toolgate.config.yaml"))).toBe(true);
    } finally {
      source.dispose();
    }
  });

  it("a directory is used as it is; anything else that is not a revision is refused with a message", () => {
    const dir = openPolicySource(join(FIXTURES, "raised-max/base"), "/");
    expect(dir.cwd).toBe(join(FIXTURES, "raised-max/base"));
    const { repo } = repository();
    expect(() => openPolicySource("no-such-branch", repo)).toThrow(PolicySourceError);
    expect(() => openPolicySource("no-such-branch", repo)).toThrow(
      /"no-such-branch" is neither a directory nor a revision of the git repository/,
    );
    expect(() => openPolicySource("--output=x", repo)).toThrow(/neither a directory nor a git revision/);
    const outside = mkdtempSync(join(tmpdir(), "toolgate-no-git-"));
    made.push(outside);
    expect(() => openPolicySource("HEAD", outside)).toThrow(/not inside a git repository/);
  });
});
