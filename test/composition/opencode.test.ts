// toolgate/opencode: the plugin OpenCode loads, fed tool calls in OpenCode's shapes (`tool.execute.before`
// with `input.tool` and `output.args`), against the canonical coding-agent pack: allow returns, deny and ask
// throw with toolgate's reason, unreadable and hostile calls throw, and a policy that cannot load refuses all.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { toolgatePlugin } from "toolgate/opencode";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const PACK = join(ROOT, "policies/packs/agents/toolgate.config.yaml");
const PROJECT = "/home/dev/project";

async function plugin(config = PACK) {
  const hooks = await toolgatePlugin({ config })({ directory: PROJECT });
  return async (tool: string, args: unknown): Promise<string> => {
    try {
      await hooks["tool.execute.before"]({ tool, sessionID: "s", callID: "c" }, { args });
      return "allow";
    } catch (error) {
      return `refused: ${(error as Error).message}`;
    }
  };
}

describe("toolgate/opencode", () => {
  it("allows what the canonical policy allows", async () => {
    const decide = await plugin();
    expect(await decide("bash", { command: "git status", description: "status" })).toBe("allow");
    expect(await decide("read", { filePath: `${PROJECT}/src/index.ts` })).toBe("allow");
    expect(await decide("grep", { pattern: "TODO", include: "*.ts" })).toBe("allow");
  });

  it("refuses a deny with toolgate's reason", async () => {
    const decide = await plugin();
    expect(await decide("bash", { command: "rm -rf /" })).toContain("recursive deletion is never run");
    expect(await decide("read", { filePath: `${PROJECT}/.env` })).toContain("agents-no-secret-files");
    expect(await decide("grep", { pattern: "KEY", include: "*.pem" })).toContain(
      "agents-no-secret-search-include",
    );
  });

  it("refuses an ask, saying a person's approval is needed", async () => {
    const decide = await plugin();
    const answer = await decide("edit", { filePath: `${PROJECT}/src/a.ts`, oldString: "a", newString: "b" });
    expect(answer).toMatch(/^refused: toolgate: .*needs a person's approval/);
    expect(await decide("db_query", { sql: "select 1" })).toContain("MCP tools are not known");
    expect(await decide("webfetch", { url: "https://example.com" })).toContain("person's approval");
  });

  it("refuses calls it cannot read", async () => {
    const decide = await plugin();
    expect(await decide("bash", { command: 42 })).toMatch(/^refused:/);
    expect(await decide("read", {})).toMatch(/^refused:/);
    expect(await decide("bash", JSON.parse('{"command":"ls","__proto__":{"x":1}}'))).toMatch(/^refused:/);
    expect(await decide("bash", "ls")).toMatch(/^refused:/);
  });

  it("refuses every call when the policy cannot be loaded", async () => {
    const decide = await plugin(join(ROOT, "test/fixtures/none/toolgate.config.yaml"));
    expect(await decide("bash", { command: "git status" })).toContain("cannot be loaded");
  });
});

describe("toolgatePlugin: symbolic links", () => {
  it("a file reached through a link out of the project is decided with its target too, as the hooks decide it", async () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), "toolgate-opencode-link-")));
    try {
      const project = join(base, "project");
      const outside = join(base, "outside");
      mkdirSync(project);
      mkdirSync(outside);
      writeFileSync(join(outside, "notes.txt"), "x");
      symlinkSync(outside, join(project, "docs"));
      writeFileSync(join(project, "real.txt"), "x");
      const hooks = await toolgatePlugin({ config: PACK })({ directory: project });
      const decide = (filePath: string) =>
        hooks["tool.execute.before"]({ tool: "read" }, { args: { filePath } }).then(
          () => "runs",
          (error: Error) => error.message,
        );
      expect(await decide(join(project, "real.txt"))).toBe("runs");
      // Inside the project by name, outside by target: the target's reading asks, which the plugin refuses.
      expect(await decide(join(project, "docs", "notes.txt"))).toContain("needs a person's approval");
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
